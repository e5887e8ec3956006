// @ts-check
// A way back in for the organizer (backend/recovery.py): the event's printed recovery code, kept on this
// device only until an organizer says it is printed or written down; and recovering access with it.
import { request } from "./api.js";
import { getSession, updateSession } from "./db.js";

/** Whether the event has a recovery code, and when it was made and acknowledged (never the code). */
export const recoveryStatus = (session) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}/recovery`, { token: session.token });

/** A new recovery code (the old one stops working), kept on this device until it is acknowledged. */
export async function newRecoveryCode(session) {
  const made = await request(`/api/events/${encodeURIComponent(session.event_id)}/recovery`, { method: "POST", token: session.token });
  await updateSession(session.event_id, { recovery_code: made.code });
  return made;
}

/** The organizer has printed or written the code down: the server marks it kept and this device forgets it. */
export async function acknowledgeRecoveryCode(session) {
  const status = await request(`/api/events/${encodeURIComponent(session.event_id)}/recovery/acknowledge`,
    { method: "POST", token: session.token });
  await updateSession(session.event_id, { recovery_code: null });
  return status;
}

/** The recovery code this device was shown and nobody has acknowledged yet, or null. */
export async function pendingRecoveryCode(eventId) {
  return (await getSession(eventId))?.recovery_code ?? null;
}

/** Organizer access on this device from a recovery code: a token grant, as a redeemed invitation gives. */
export const recover = (code, label) => request("/api/recover", { method: "POST", body: { code, label } });

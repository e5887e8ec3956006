// @ts-check
// Leaving an event: forget it on this device (any role), or delete it on the server (the organizer).
import { deleteEvent, forgetEvent, getSession, outbox, removePushSubscription } from "./services.js";
import { storeFor } from "./store.js";

const NOTICE = "topcut.notice";

/** Changes made on this device that the server does not have yet. */
export async function unsentCount(eventId) {
  return (await outbox.rows(eventId)).filter((r) => r.status === "pending" || r.status === "sent").length;
}

/** A message for the home screen after the page moves there (one reading only). */
export function takeNotice() {
  const text = globalThis.sessionStorage?.getItem(NOTICE) || "";
  globalThis.sessionStorage?.removeItem(NOTICE);
  return text;
}

/** This browser's push subscription stops notifying for the event (best effort, a few seconds at most). */
async function unsubscribePush(session) {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const subscription = await registration?.pushManager?.getSubscription();
    if (!subscription || !navigator.onLine) return;
    await Promise.race([
      removePushSubscription(session, subscription.endpoint),
      new Promise((resolve) => { setTimeout(resolve, 3000); }),
    ]);
  } catch {
    // The server forgets a subscription whose pushes fail; nothing here may stop the removal.
  }
}

/**
 * Forget the event on this device: its session, log and waiting changes (the server keeps it).
 * A page that opened the event holds it in memory (sync timer, folded state): the app then starts
 * afresh on the home screen, so nothing of it lingers.
 */
export async function forgetHere(eventId, notice = "", navigate = null) {
  const session = await getSession(eventId);
  if (session) await unsubscribePush(session);
  const opened = Boolean(storeFor(eventId).opened);
  await forgetEvent(eventId);
  if (notice) globalThis.sessionStorage?.setItem(NOTICE, notice);
  if (opened) {
    history.replaceState(null, "", `${location.pathname}#/`);  // no hashchange: nothing renders before the reload
    location.reload();
  } else if (navigate) {
    navigate("#/");
  } else {
    location.hash = "#/";
  }
}

/** The typed confirmation matches the event's name (any case and spacing) or its id. */
export function confirms(typed, name, eventId) {
  const norm = (s) => String(s || "").split(/\s+/).filter(Boolean).join(" ").toLowerCase();
  const t = norm(typed);
  return Boolean(t) && (String(typed).trim() === eventId || (Boolean(norm(name)) && t === norm(name)));
}

/**
 * Delete the event on the server for everyone, then forget it here. Offline it refuses with a message
 * (nothing is deleted, nothing is queued: deleting is never done behind the organizer's back later).
 */
export async function deleteEverywhere(store, typed) {
  const offline = "Deleting the event needs the network: this device is offline, so nothing was deleted "
    + "(on the server or here). Try again when the connection is back.";
  if (!navigator.onLine) throw new Error(offline);
  let answer;
  try {
    answer = await deleteEvent(store.session, typed);
  } catch (err) {
    if (err.code === "offline") throw new Error(offline, { cause: err });
    throw err;
  }
  await forgetHere(store.eventId, `Event “${answer.name || store.eventId}” was deleted on the server and removed from this device.`);
  return answer;
}

// @ts-check
// Events made on this device. Creating one needs no network: the device chooses the event's id, the
// organizer token and the seed, folds `event.create` into the event document it starts from, and works
// at once. The next sync registers the event with the server (an import of that document under those
// ids) before it pushes anything; sending the registration twice (its answer was lost) is safe.
import { randomId, saveSession, serverNow, updateSession } from "./db.js";
import { rules } from "../rules/rules-client.js";

/** Make an event on this device; resolves with its id (the rules refuse a bad name, game or settings first). */
export async function createLocalEvent({ name, ruleset, settings = null, label = "organizer device" }) {
  const eventId = randomId(16);
  const device = `organizer-${randomId(10)}`;
  const document = await rules("new_event_document", {
    name, ruleset, settings, seed: randomId(26), at: serverNow(null), device,
  });
  await saveSession({ event_id: eventId, token: `tc_${randomId(52)}`, role: "organizer", player: null, name,
                     ruleset, expires_in_s: null },
                   { device, base: document, pending_create: { document, label } });
  return eventId;
}

/**
 * Make an event on this device from a document read here (a TOM save the rules worker imported); resolves with
 * its id. Like :func:`createLocalEvent`, the next sync registers it with the server under the ids chosen here.
 */
export async function importLocalEvent({ document, label = "organizer device" }) {
  const eventId = randomId(16);
  const device = `organizer-${randomId(10)}`;
  await saveSession({ event_id: eventId, token: `tc_${randomId(52)}`, role: "organizer", player: null, name: document.name,
                     ruleset: document.ruleset, expires_in_s: null },
                   { device, base: document, pending_create: { document, label } });
  return eventId;
}

/** The registration a sync sends first for an event made on this device (null once the server has it). */
export function registration(session) {
  const pending = session.pending_create;
  return pending ? { document: pending.document, label: pending.label, event_id: session.event_id, token: session.token } : null;
}

/** The server has the event: forget the registration, and rotate the token like any other from now on. */
export function registered(eventId, grant, rotateAt) {
  // The event's recovery code comes with the server's first answer: kept here until the organizer says it is kept.
  const code = grant.recovery_code ? { recovery_code: grant.recovery_code } : {};
  return updateSession(eventId, { pending_create: null, rotate_at: rotateAt(grant), name: grant.name, ...code });
}

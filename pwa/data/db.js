// @ts-check
// The device's IndexedDB schema (via idb, vendored from npm into /vendor/).
//
//   sessions  key event_id: {event_id, token, role, player, device, next_seq,
//                            cursor, base, name, ruleset, last_sync, last_error, rotate_at, clock_offset}
//             one per event this device has joined; `device` is this device's id
//             for the event and `next_seq` its gapless per-device sequence.
//   log       key [event_id, server_seq]: {event_id, server_seq, op}
//             the server's accepted operations, as pulled (the truth).
//   outbox    key [event_id, seq]: {event_id, seq, op: {type, payload, at},
//             status: "pending" | "sent" | "rejected", server_seq, reason, error, created_at}
//             this device's operations not yet seen in the log.
//   snapshots key event_id: {event_id, device, rules_build, with_base, cursor, state_json, saved_at}   (version 2;
//             state_json: the folded state as JSON text, store.js; one saved before holds ``state``, an object)
//             the log folded up to `cursor` (server_seq), by the rules build `rules_build`, for the session's
//             `device`: a start folds from it and the log after it instead of from operation 1 (store.js).
import { openDB } from "/vendor/idb.js";

export const DB_NAME = "topcut";
export const DB_VERSION = 2;

const STORES = ["sessions", "log", "outbox", "snapshots"];

let opening = null;

function blocking() {
  // A newer version of the app wants to upgrade the schema: let it.
  opening?.then((d) => d.close());
  opening = null;
}

/**
 * The database, opened once. A newer version of the app may have upgraded it already (then this one came
 * back: a server rolled back, or a page not reloaded since): a schema only ever adds stores, so it is opened as
 * it is, provided it has every store this version uses.
 */
export function db() {
  if (!opening) {
    opening = openDB(DB_NAME, DB_VERSION, {
      upgrade(database) {
        // Every store it lacks, by name: a database made empty at version 1 (the open below, when a newer one
        // was deleted meanwhile) has none of those of version 1.
        const keys = { sessions: "event_id", log: ["event_id", "server_seq"], outbox: ["event_id", "seq"], snapshots: "event_id" };
        for (const name of STORES) {
          if (!database.objectStoreNames.contains(name)) database.createObjectStore(name, { keyPath: keys[name] });
        }
      },
      blocking,
    }).catch(async (error) => {
      if (error?.name !== "VersionError") throw error;
      const newer = await openDB(DB_NAME, undefined, { blocking });
      const missing = STORES.filter((name) => !newer.objectStoreNames.contains(name));
      if (missing.length) {
        newer.close();
        throw new Error(`This device's storage was written by another version of Topcut (version ${newer.version}, `
          + `without ${missing.join(", ")}): reload the page to get the current app.`);
      }
      return newer;
    }).catch((error) => {
      opening = null;  // the next call tries again
      throw error;
    });
  }
  return opening;
}

/** Every key range of one event in a store keyed [event_id, n]. */
export function eventRange(eventId, from = 0) {
  return IDBKeyRange.bound([eventId, from], [eventId, Number.MAX_SAFE_INTEGER]);
}

function randomId(n = 8) {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => "abcdefghijkmnpqrstuvwxyz23456789"[b % 32]).join("");
}

export { randomId };

export async function getSession(eventId) {
  return (await db()).get("sessions", eventId);
}

export async function allSessions() {
  return (await db()).getAll("sessions");
}

/** When to rotate a token granted now (half its life, on this device's own clock); null: it never expires. */
export function rotateAt(grant) {
  return grant.expires_in_s == null ? null : Date.now() + (grant.expires_in_s * 1000) / 2;
}

/**
 * Save a session from a token grant (create or redeem). Joining an event again as the same
 * role (and player), after the access expired or was withdrawn, keeps this device's id, its
 * sequence and its waiting changes: only the token changes, and the changes then send.
 * Joining with another role while changes made under the old one wait is refused (they
 * could not be sent as the new role): sync them first, or ask the organizer.
 */
export async function saveSession(grant, extra = {}) {
  const existing = await getSession(grant.event_id);
  if (existing && existing.role === grant.role && (existing.player ?? null) === (grant.player ?? null)) {
    return updateSession(grant.event_id, {
      token: grant.token, rotate_at: rotateAt(grant),
      last_error: null, last_error_refused: false, last_error_busy: false, last_error_code: null, ...extra,
    });
  }
  if (existing) {
    const rows = await (await db()).getAll("outbox", eventRange(grant.event_id));
    const waiting = rows.filter((r) => r.status === "pending" || r.status === "sent").length;
    if (waiting) {
      throw new Error(`This device holds ${waiting} unsent change${waiting === 1 ? "" : "s"} made as ${existing.role} `
        + "for this event. Join again with a code for that role so they can be sent, or ask the organizer.");
    }
    // The outbox, the log as the old role pulled it and its snapshot: the new session pulls the log again from 0
    // (a player's view stops before a draft round and aliases devices: rows of the old role's view past it would
    // stay and be folded), under a new device id.
    await clearEvent(grant.event_id);
  }
  const session = {
    event_id: grant.event_id,
    token: grant.token,
    role: grant.role,
    player: grant.player ?? null,
    device: `${grant.role}-${randomId(10)}`,
    next_seq: 1,
    cursor: 0,
    base: null,
    name: grant.name ?? "",
    ruleset: grant.ruleset ?? null,
    last_sync: null,
    last_error: null,
    rotate_at: rotateAt(grant),
    // The server's clock minus this device's (ms), measured on joining and on every sync: operations are
    // stamped and clocks drawn in the server's time, whatever this device's clock says.
    clock_offset: grant.clock_offset ?? 0,
    ...extra,
  };
  await (await db()).put("sessions", session);
  return session;
}

/** Change some fields of a session (read-modify-write in one transaction). */
export async function updateSession(eventId, changes) {
  const tx = (await db()).transaction("sessions", "readwrite");
  const session = await tx.store.get(eventId);
  if (!session) throw new Error(`no session for event ${eventId}`);
  Object.assign(session, typeof changes === "function" ? changes(session) : changes);
  await tx.store.put(session);
  await tx.done;
  return session;
}

/** Delete an event's log, outbox and snapshot (and its session, with ``session``) in one transaction. */
async function clearEvent(eventId, { session = false } = {}) {
  const stores = ["log", "outbox", "snapshots", ...(session ? ["sessions"] : [])];
  const tx = (await db()).transaction(stores, "readwrite");
  if (session) await tx.objectStore("sessions").delete(eventId);
  await tx.objectStore("log").delete(eventRange(eventId));
  await tx.objectStore("outbox").delete(eventRange(eventId));
  await tx.objectStore("snapshots").delete(eventId);
  await tx.done;
}

export async function forgetEvent(eventId) {
  await clearEvent(eventId, { session: true });
}

/** The event's saved fold (``snapshots`` store), or undefined. */
export async function getSnapshot(eventId) {
  return (await db()).get("snapshots", eventId);
}

export async function putSnapshot(snapshot) {
  await (await db()).put("snapshots", snapshot);
}

export async function dropSnapshot(eventId) {
  await (await db()).delete("snapshots", eventId);
}

/** Now in the server's time, as this device last measured it (its own clock plus the session's offset). */
export function serverNow(session) {
  return Date.now() + (Number.isFinite(session?.clock_offset) ? session.clock_offset : 0);
}

/** Confirmed operations after `cursor`, in server order. */
export async function logAfter(eventId, cursor = 0) {
  return (await db()).getAll("log", eventRange(eventId, cursor + 1));
}

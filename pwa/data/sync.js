// @ts-check
// The sync client (page and service worker): push the outbox, pull the log.
//
// push: the unsent outbox rows in seq order, in batches; verdicts mark rows
// sent or rejected. pull: the log after the session's cursor until `more` is
// false; then every outbox row the server has processed is dropped (it is in
// the log now) or kept as refused. Works with fetch and IndexedDB only, so the
// service worker's Background Sync runs the very same code.
import { clockOffset } from "./api.js";
import { allSessions, db, getSession, rotateAt, updateSession } from "./db.js";
import { registered, registration } from "./local-events.js";
import { applyVerdicts, fillGap, settle, settleSent, unsent } from "./outbox.js";
import { pullView } from "./player-view.js";

const PUSH_BATCH = 200;

/** A push or pull that failed: `offline` when it should simply be tried again later, `busy` when rate limited. */
export class SyncError extends Error {
  /**
   * @param {string} message
   * @param {{status?: number, code?: string, offline?: boolean, body?: any}} [details]
   */
  constructor(message, { status = 0, code = "network", offline = false, body = null } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.offline = offline;
    this.body = body;
    /** Rate limited (HTTP 429): the changes wait for the next try. */
    this.busy = false;
  }
}

async function api(session, path, options = {}) {
  let response;
  const sentAt = Date.now();
  try {
    response = await fetch(path, {
      ...options,
      cache: "no-store",
      headers: { Authorization: `Bearer ${session.token}`, "Content-Type": "application/json" },
    });
  } catch {
    throw new SyncError("the server cannot be reached", { offline: true });
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const offline = response.status >= 500 || body === null;  // a dead server behind a proxy, or the SW's 503
    const error = new SyncError(body?.message || `HTTP ${response.status}`,
                                { status: response.status, code: body?.error || "http", offline, body });
    // Rate limited: nothing is wrong with the changes; they wait and go on the next try.
    error.busy = response.status === 429;
    throw error;
  }
  // Every push and pull answer carries the server's clock: measure this device's offset from it.
  const offset = clockOffset(body?.server_time, sentAt, Date.now());
  if (offset !== null) body.clock_offset = offset;
  return body;
}

/**
 * Rotate the token past half its life (or once for a session from before expiry existed), so a device
 * in use never expires. A failure changes nothing: the old token works until it expires, and the next
 * sync tries again.
 */
async function maybeRotate(session) {
  if (session.rotate_at === null || (session.rotate_at !== undefined && Date.now() < session.rotate_at)) return;
  try {
    const grant = await api(session, `/api/events/${encodeURIComponent(session.event_id)}/tokens/rotate`,
                            { method: "POST" });
    await updateSession(session.event_id, { token: grant.token, rotate_at: rotateAt(grant) });
  } catch (error) {
    if (!error.offline && !error.busy) console.warn("token rotation:", error.message);
  }
}

async function push(session) {
  let sent = 0;
  let repaired = false;
  for (;;) {
    const batch = (await unsent(session.event_id)).slice(0, PUSH_BATCH);
    if (!batch.length) return sent;
    let body;
    try {
      body = await api(session, `/api/events/${encodeURIComponent(session.event_id)}/push`, {
        method: "POST",
        body: JSON.stringify({ device: session.device, ops: batch.map((row) => ({ seq: row.seq, op: row.op })) }),
      });
    } catch (error) {
      // A hole in this device's sequence (made before dismissals kept their slot): fill it once and retry.
      const expected = error.body?.expected_seq;
      if (!repaired && error.code === "sequence-gap" && Number.isInteger(expected)
          && await fillGap(session.event_id, expected)) {
        repaired = true;
        continue;
      }
      throw error;
    }
    if (body.clock_offset !== undefined) await updateSession(session.event_id, { clock_offset: body.clock_offset });
    await applyVerdicts(session.event_id, body.results);
    sent += batch.length;
  }
}

async function pull(session) {
  let cursor = session.cursor;
  let pulled = 0;
  let last;  // the last page pulled (the loop pulls at least one)
  for (;;) {
    const query = `cursor=${cursor}&device=${encodeURIComponent(session.device)}`;
    const body = await api(session, `/api/events/${encodeURIComponent(session.event_id)}/pull?${query}`);
    const tx = (await db()).transaction(["log", "sessions"], "readwrite");
    const log = tx.objectStore("log");
    for (const row of body.ops) {
      await log.put({ event_id: session.event_id, server_seq: row.server_seq, op: row.op });
    }
    const sessions = tx.objectStore("sessions");
    const current = await sessions.get(session.event_id);
    current.cursor = body.cursor;
    if (body.clock_offset !== undefined) current.clock_offset = body.clock_offset;
    if (body.base && cursor === 0) current.base = body.base;
    if (body.staff) current.staff_names = body.staff;  // staff devices by their invitations' names, kept offline
    await sessions.put(current);
    await tx.done;
    pulled += body.ops.length;
    cursor = body.cursor;
    last = body;
    if (!body.more) break;
  }
  const mine = last.devices[session.device];
  await settle(session.event_id, mine ? mine.last_seq : 0, last.rejections || []);
  return pulled;
}

/** One full sync of one event. Resolves with {pushed, pulled}; rejects with a SyncError. */
export async function syncEvent(eventId) {
  const session = await getSession(eventId);
  if (!session) throw new Error(`no session for event ${eventId}`);
  try {
    const made = registration(session);
    if (made) {
      // An event made on this device: the server learns of it before any of its changes.
      const grant = await api(session, "/api/events", { method: "POST", body: JSON.stringify(made) });
      await registered(eventId, grant, rotateAt);
    }
    const pushed = await push(session);
    let pulled = 0;
    if (session.role === "player") {
      // A player's phone reads the server's player view, not the log (data/player-view.js): what it pushed is in
      // the view once the view's cursor passes it; what the server refused stays, marked, with its reason.
      const { view } = await pullView(eventId, (message, details) => new SyncError(message, details));
      await settleSent(eventId, view.cursor);
    } else {
      pulled = await pull(await getSession(eventId));
    }
    await updateSession(eventId, { last_sync: Date.now(), last_error: null, last_error_refused: false,
                                   last_error_busy: false });
    await maybeRotate(await getSession(eventId));
    return { pushed, pulled };
  } catch (error) {
    // A refusal (the server answered no) is kept apart from being offline or busy: the app shows it in red.
    await updateSession(eventId, { last_error: error.message, last_error_at: Date.now(),
                                   last_error_refused: !error.offline && !error.busy,
                                   last_error_busy: Boolean(error.busy), last_error_code: error.code ?? null });
    throw error;
  }
}

/** Sync every event this device holds (the service worker's Background Sync). */
export async function syncAll() {
  const results = [];
  for (const session of await allSessions()) {
    try {
      results.push({ event_id: session.event_id, ...(await syncEvent(session.event_id)) });
    } catch (error) {
      results.push({ event_id: session.event_id, error: error.message });
    }
  }
  return results;
}

export const BACKGROUND_SYNC_TAG = "topcut-sync";

// @ts-check
// A player's phone reads the server's player view of the event (GET /api/events/<id>/view: the player's own
// matches, clock, standings and deck list, made by the server) instead of folding the log with the rules engine:
// it installs no Pyodide. The last view is kept in IndexedDB (the ``snapshots`` store, which a player's phone
// uses for nothing else), so the phone opens offline on its last table. The pull sends the view's ETag:
// an unchanged event costs the server a 304 with no body.
import { clockOffset } from "./api.js";
import { getSession, getSnapshot, putSnapshot, updateSession } from "./db.js";

/** The last view this device kept, ``{view, etag, saved_at}``, or null. */
export async function savedView(eventId) {
  const saved = await getSnapshot(eventId);
  return saved?.view ? saved : null;
}

/**
 * Fetch the player view (a 304 keeps the saved one). Resolves with ``{view, changed}``; rejects with
 * ``makeError(message, {status, code, offline, body})`` when the server cannot be reached or says no.
 */
export async function pullView(eventId, makeError) {
  const session = await getSession(eventId);
  const saved = await savedView(eventId);
  const headers = { Authorization: `Bearer ${session.token}` };
  if (saved?.etag) headers["If-None-Match"] = saved.etag;
  const sentAt = Date.now();
  let response;
  try {
    response = await fetch(`/api/events/${encodeURIComponent(eventId)}/view`, { cache: "no-store", headers });
  } catch {
    throw makeError("the server cannot be reached", { offline: true });
  }
  if (response.status === 304 && saved) {
    await updateSession(eventId, { last_view_check: Date.now() });
    return { view: saved.view, changed: false };
  }
  const body = await response.json().catch(() => null);
  if (!response.ok || !body?.state) {
    const offline = response.status >= 500 || body === null;
    throw makeError(body?.message || `HTTP ${response.status}`, { status: response.status, code: body?.error || "http", offline, body });
  }
  const offset = clockOffset(body.server_ms, sentAt, Date.now());
  await putSnapshot({ event_id: eventId, view: body, etag: response.headers.get("ETag"), saved_at: Date.now() });
  await updateSession(eventId, { cursor: body.cursor, ...(offset !== null ? { clock_offset: offset } : {}) });
  return { view: body, changed: true };
}

// @ts-check
// Direct server calls that are not part of the sync protocol (they need the network).
/** A refusal or failure of the server's API: its HTTP status (0 offline) and error code (`offline`, `http`, …). */
export class ApiError extends Error {
  /** @param {string} message @param {number} status @param {string} code */
  constructor(message, status, code) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * The server's clock minus this device's, from an answer carrying `server_time` (ms): the server
 * stamped it somewhere between sending and receiving, so the middle of the round trip is the best guess.
 */
/** @param {unknown} serverTime @param {number} sentAt @param {number} receivedAt @returns {number | null} */
export function clockOffset(serverTime, sentAt, receivedAt) {
  return typeof serverTime === "number" && Number.isInteger(serverTime)
    ? Math.round(serverTime - (sentAt + receivedAt) / 2) : null;
}

/**
 * @typedef {object} RequestOptions
 * @property {string} [method] HTTP method (GET)
 * @property {unknown} [body] sent as JSON
 * @property {string | null} [token] the bearer token (an event's or a league director's)
 */

/**
 * One call of the server's API: its JSON answer, or an ApiError naming what went wrong.
 * @param {string} path
 * @param {RequestOptions} [options]
 * @returns {Promise<any>}
 */
export async function request(path, { method = "GET", body, token } = {}) {
  let response;
  const sentAt = Date.now();
  try {
    response = await fetch(path, {
      method,
      cache: "no-store",
      headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
                 ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError("You are offline: this needs the network. Try again when the connection is back.", 0, "offline");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(data?.message || `HTTP ${response.status}`, response.status, data?.error || "http");
  }
  if (data && typeof data === "object" && "server_time" in data) {
    data.clock_offset = clockOffset(data.server_time, sentAt, Date.now());
  }
  return data;
}

/** The hall network's HTTPS address and certificate (`{hall_url, ca_url, origin}`), or null offline. */
export const hallInfo = () => request("/api/hall").catch(() => null);
export const createEvent = (body) => request("/api/events", { method: "POST", body });
export const redeem = (code, label) => request("/api/invitations/redeem", { method: "POST", body: { code, label } });
export const invite = (session, role, label = "") =>
  request(`/api/events/${session.event_id}/invitations`, { method: "POST", body: { role, label }, token: session.token });
/** The staff devices' current tokens: role, name (the invitation's), last sync, this device. */
export const staffDevices = (session) =>
  request(`/api/events/${session.event_id}/tokens?staff=true`, { token: session.token });
/** The event's staff invitations, each with when it was used and by which device (organizer). */
export const staffInvitations = (session) =>
  request(`/api/events/${session.event_id}/invitations`, { token: session.token });
export const revokeToken = (session, tokenId) =>
  request(`/api/events/${session.event_id}/tokens/${encodeURIComponent(tokenId)}`, { method: "DELETE", token: session.token });
/** The event's summary on the server: name, ruleset, the caller's role, the WCT leagues that count it. */
export const eventSummary = (session) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}`, { token: session.token });
/** The document an imported event starts from (null for an event created from a ruleset). */
export const eventBase = (grant) =>
  request(`/api/events/${encodeURIComponent(grant.event_id)}/pull?cursor=0&limit=1`, { token: grant.token })
    .then((body) => body?.base ?? null);
/** Delete the event on the server for good (organizer); `confirm` is its name or id, as typed. */
export const deleteEvent = (session, confirm) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}`, { method: "DELETE", body: { confirm }, token: session.token });
export const claims = (session, { qr = false } = {}) =>
  request(`/api/events/${session.event_id}/players/claims${qr ? "?qr=true" : ""}`, { token: session.token });
export const reissueClaim = (session, player) =>
  request(`/api/events/${session.event_id}/players/${encodeURIComponent(player)}/claim`, { method: "POST", body: {}, token: session.token });
export const revokeClaim = (session, player) =>
  request(`/api/events/${session.event_id}/players/${encodeURIComponent(player)}/claim`, { method: "DELETE", token: session.token });
export const publicView = (eventId) => request(`/api/events/${encodeURIComponent(eventId)}/public`);
/** The deck lists the organizer publishes once the event is over (none before; backend/public.py). */
export const publishedLists = (eventId) => request(`/api/events/${encodeURIComponent(eventId)}/decklists`);
/** The server's Web Push key (VAPID), for subscribing this browser. */
export const vapidPublicKey = () => request("/api/push/vapid-public-key");
export const addPushSubscription = (session, subscription) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}/push/subscriptions`,
    { method: "POST", token: session.token, body: { subscription } });
export const removePushSubscription = (session, endpoint) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}/push/unsubscribe`,
    { method: "POST", body: { endpoint }, token: session.token });
/** Push on this server for this event: enabled, why not, devices subscribed, refusals by cause (desk roles). */
export const pushStatus = (session) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}/push/status`, { token: session.token });
/** A one-time code (link, QR) that signs the installed app in as this device: 10 minutes, once (backend/transfer.py). */
export const makeTransfer = (session) =>
  request(`/api/events/${encodeURIComponent(session.event_id)}/transfer`, { method: "POST", token: session.token });

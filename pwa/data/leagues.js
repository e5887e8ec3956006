// @ts-check
// WCT leagues on the server (backend/leagues.py: /api/leagues) and the director tokens this device keeps
// (the browser's localStorage: a league needs the network, so it has no place in the event database).
import { request } from "./api.js";

const STORAGE_KEY = "topcut.leagues";

/** The leagues this device directs: [{league_id, token, name}]. */
export function heldLeagues() {
  try {
    const list = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((l) => l && typeof l.league_id === "string" && typeof l.token === "string") : [];
  } catch {
    return [];
  }
}

export function keepLeague(grant) {
  const list = heldLeagues().filter((l) => l.league_id !== grant.league_id);
  list.push({ league_id: grant.league_id, token: grant.token, name: grant.name });
  localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
}

export function renameHeld(leagueId, name) {
  const list = heldLeagues().map((l) => (l.league_id === leagueId ? { ...l, name } : l));
  localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
}

export function forgetHeld(leagueId) {
  localStorage.setItem(STORAGE_KEY, JSON.stringify(heldLeagues().filter((l) => l.league_id !== leagueId)));
}

// ---------------------------------------------------------------- the server's league resource

const path = (leagueId, rest = "") => `/api/leagues/${encodeURIComponent(leagueId)}${rest}`;
export const createLeague = (body) => request("/api/leagues", { method: "POST", body });
export const leagueTable = (leagueId) => request(path(leagueId, "/table"));
export const getLeague = (grant) => request(path(grant.league_id), { token: grant.token });
export const patchLeague = (grant, body) => request(path(grant.league_id), { method: "PATCH", body, token: grant.token });
export const addEvent = (grant, body) => request(path(grant.league_id, "/events"), { method: "POST", body, token: grant.token });
export const removeEvent = (grant, eventId) =>
  request(path(grant.league_id, `/events/${encodeURIComponent(eventId)}`), { method: "DELETE", token: grant.token });
export const addBonus = (grant, body) => request(path(grant.league_id, "/bonus"), { method: "POST", body, token: grant.token });
export const removeBonus = (grant, bonusId) =>
  request(path(grant.league_id, `/bonus/${encodeURIComponent(bonusId)}`), { method: "DELETE", token: grant.token });
export const directorTokens = (grant) => request(path(grant.league_id, "/tokens"), { token: grant.token });
export const addDirectorToken = (grant, label) =>
  request(path(grant.league_id, "/tokens"), { method: "POST", body: { label }, token: grant.token });
export const rotateDirectorToken = (grant) => request(path(grant.league_id, "/tokens/rotate"), { method: "POST", token: grant.token });
export const revokeDirectorToken = (grant, tokenId) =>
  request(path(grant.league_id, `/tokens/${encodeURIComponent(tokenId)}`), { method: "DELETE", token: grant.token });


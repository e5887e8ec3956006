// @ts-check
// Players across events (backend/people.py): search, create, link a roster entry, history; and the links
// registration asked for while the register op was not on the server yet (kept on this device until done).
import { ApiError, request } from "./api.js";
import { allSessions } from "./db.js";

const enc = encodeURIComponent;

export const searchPeople = (session, q) => request(`/api/people?q=${enc(q)}`, { token: session.token });
export const createPerson = (session, body) => request("/api/people", { method: "POST", body, token: session.token });
export const eventPeople = (session) => request(`/api/events/${enc(session.event_id)}/people`, { token: session.token });
/**
 * The tokens this device holds for other events that can prove a person's consent to a link (backend/consent.py):
 * an organizer's (of an event the person played in), or a player's (the person's own phone). At most 20.
 */
export async function proofTokens(session) {
  const sessions = await allSessions().catch(() => []);
  return sessions.filter((s) => s.event_id !== session.event_id && (s.role === "organizer" || s.role === "player") && s.token)
    .map((s) => s.token).slice(0, 20);
}

/** Link a roster entry to a person; `code`: the person's player record code, when they read it out. */
export async function linkPlayer(session, player, person, { code = null } = {}) {
  const body = { person, proof_tokens: await proofTokens(session), ...(code ? { code } : {}) };
  return request(`/api/events/${enc(session.event_id)}/players/${enc(player)}/person`, { method: "PUT", body, token: session.token });
}
export const unlinkPlayer = (session, player) =>
  request(`/api/events/${enc(session.event_id)}/players/${enc(player)}/person`, { method: "DELETE", token: session.token });
/** A person's history (a merged duplicate's id is redirected to the survivor by the server). */
export const personHistory = (session, id) => request(`/api/people/${enc(id)}`, { token: session.token });
export const myHistory = (session) => request("/api/people/me", { token: session.token });

// ---------------------------------------------------------------- links waiting for their register op

const KEY = (eventId) => `topcut.pendingLinks.${eventId}`;

/**
 * The links this device still has to make for an event: `[{player, person?, create?, consent?}]`; `consent`
 * (the person's name): the server asked for their consent, so the link waits for their player record code.
 */
export function pendingLinks(eventId) {
  try {
    const list = JSON.parse(globalThis.localStorage?.getItem(KEY(eventId)) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function savePending(eventId, list) {
  if (list.length) globalThis.localStorage?.setItem(KEY(eventId), JSON.stringify(list));
  else globalThis.localStorage?.removeItem(KEY(eventId));
}

/**
 * Remember to link `player` to a person (`person`: an id, `name`: theirs; `create`: a new person's fields) once
 * it syncs.
 */
export function queueLink(eventId, entry) {
  savePending(eventId, [...pendingLinks(eventId).filter((e) => e.player !== entry.player), entry]);
}

/** Forget the waiting link of `player` (made another way, or given up). */
export function dropLink(eventId, player) {
  savePending(eventId, pendingLinks(eventId).filter((e) => e.player !== player));
}

/**
 * Make the waiting links whose roster entry the server has (`synced(player)`): create the person first if
 * asked (a game id someone holds already links to them), then link. Offline, or the entry not on the server
 * yet: kept for later. Returns how many links were made.
 */
export async function flushLinks(session, synced) {
  let made = 0;
  for (const entry of pendingLinks(session.event_id)) {
    if (!synced(entry.player) || entry.consent) continue;
    try {
      let person = entry.person;
      if (!person) {
        try {
          person = (await createPerson(session, entry.create)).id;
        } catch (err) {
          if (!(err instanceof ApiError && err.code === "duplicate-id")) throw err;
          person = (await searchPeople(session, entry.create.pokemon_id || entry.create.trekcc_id)).people[0]?.id;
          if (!person) throw err;
        }
        queueLink(session.event_id, { player: entry.player, person });  // created: never twice
      }
      try {
        await linkPlayer(session, entry.player, person);
      } catch (err) {
        if (!(err instanceof ApiError && err.code === "consent-needed")) throw err;
        // A returning player: kept until staff enter their player record code (the roster asks for it).
        queueLink(session.event_id, { player: entry.player, person, consent: entry.name || entry.create?.name || "this player" });
        continue;
      }
      made += 1;
    } catch (err) {
      if (err instanceof ApiError && (err.status === 0 || err.status >= 500 || err.status === 429)) return made;  // later
      if (!(err instanceof ApiError && err.status === 404 && err.code === "unknown-player")) {
        console.warn("Topcut: a player record link was not made:", err.message);
      } else {
        continue;  // the server has not folded the entry yet
      }
    }
    savePending(session.event_id, pendingLinks(session.event_id).filter((e) => e.player !== entry.player));
  }
  return made;
}

// @ts-check
// What kind of device this is, which decides what it installs and runs:
//   "staff"   it holds a staff session (or none yet, opened at the app's start page: an organizer to be). It runs
//             the rules engine (Pyodide in a worker) and precaches it for offline use (sw.js ?device=staff)
//   "player"  it holds players' sessions only (or shows a public page): no rules engine, the app shell alone
//             (under 1 MB); its screens read the server's player view (app/player-store.js)
//   null      not known yet: a claim or invitation link is being redeemed (a player's slip, or a judge's code)
// The kind is kept in localStorage for boot.js, which starts the rules worker before anything else loads.
import { allSessions, getSession } from "./services.js";
import { PlayerStore } from "./player-store.js";
import { storeFor } from "./store.js";

export const DEVICE_KEY = "topcut.device";

/** The kind of a device holding ``sessions`` on a page at ``hash``. */
export function deviceKind(sessions, hash) {
  if (sessions.some((s) => s.role !== "player")) return "staff";
  if (sessions.length) return "player";
  if (hash.startsWith("#join=")) return null;
  if (hash.startsWith("#/public/")) return "player";
  return "staff";
}

/** This device's kind now (and kept for the next start's boot.js). */
export async function currentDeviceKind() {
  const kind = deviceKind(await allSessions().catch(() => []), globalThis.location?.hash || "");
  if (kind) globalThis.localStorage?.setItem(DEVICE_KEY, kind);
  return kind;
}

/** Whether this page should keep off the rules engine (a player's phone, or one redeeming a link). */
export function lightPage(hash = globalThis.location?.hash || "") {
  return globalThis.localStorage?.getItem(DEVICE_KEY) === "player" || hash.startsWith("#join=");
}

const playerStores = new Map();

/** The store for an event on this device: a player's session reads the player view, any other the folded log. */
export async function openStoreFor(eventId) {
  const session = await getSession(eventId);
  if (session?.role !== "player") return storeFor(eventId);
  if (!playerStores.has(eventId)) playerStores.set(eventId, new PlayerStore(eventId));
  return playerStores.get(eventId);
}

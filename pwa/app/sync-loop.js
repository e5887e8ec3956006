// The sync schedule both event stores share (app/store.js on staff devices, app/player-store.js on players'
// phones): one sync at a time (a request meanwhile runs once more after it), the triggers that start one (the
// timer, the network coming back, the page coming on screen, a push), and the status the sync indicator reads.
// What a store does after a sync differs (a staff device folds, a phone reloads its view): ``after``.
import { BACKGROUND_SYNC_TAG, syncEvent } from "./services.js";

/** Sync ``store``'s event now, again if asked meanwhile; then ``after()``. The promise of the running sync. */
export function syncOnce(store, after) {
  if (store.syncing) {
    store.again = true;
    return store.syncing;
  }
  store.lastSyncAt = Date.now();
  store.syncing = (async () => {
    store.emit();
    try {
      do {
        store.again = false;
        await syncEvent(store.eventId);
        store.reachable = true;
      } while (store.again);
    } catch (error) {
      if (error.offline) store.reachable = false;
    } finally {
      store.syncing = null;
    }
    await after();
  })();
  return store.syncing;
}

/**
 * Start ``store``'s triggers: ``store.tick()`` every ``everyMs``, a sync when the network or the page comes
 * back, ``after()`` when the service worker synced in the background, a sync when a push arrived.
 */
export function wireSync(store, everyMs, after) {
  store.timer = setInterval(() => store.tick(), everyMs);
  globalThis.addEventListener("online", () => store.syncNow());
  globalThis.addEventListener("offline", () => store.emit());
  globalThis.document?.addEventListener("visibilitychange", () => {
    if (globalThis.document.visibilityState === "visible") store.syncNow();  // back on screen: catch up at once
  });
  navigator.serviceWorker?.addEventListener("message", (event) => {
    if (event.data?.type === "SYNCED") after();
    if (event.data?.type === "PUSHED") store.syncNow();  // a notification: something changed on the server
  });
}

/** Ask the service worker to send the outbox when the network is back, even with the page closed (Background Sync). */
export async function requestBackgroundSync() {
  try {
    /** @type {any} (Background Sync is not in every browser's types) */
    const registration = await navigator.serviceWorker?.getRegistration();
    if (registration?.sync) await registration.sync.register(BACKGROUND_SYNC_TAG);
  } catch {
    // Background Sync is a bonus: the timer, the poll and the online event still send.
  }
}

/** What the sync indicator shows: ``waiting`` changes not yet taken by the server (``unregistered``: an event made here). */
export function syncStatus(store, { waiting, unregistered = false }) {
  const s = store.session;
  return {
    unregistered,
    online: globalThis.navigator?.onLine !== false && store.reachable,
    waiting,
    rejected: store.rows.filter((r) => r.status === "rejected").length,
    lastSync: s?.last_sync ?? null,
    syncing: Boolean(store.syncing),
    error: s?.last_error ?? null,
    // The server answered and refused the push: changes cannot go out until someone acts.
    refused: Boolean(s?.last_error && s?.last_error_refused),
    // Rate limited: the changes are fine and go on a later try.
    busy: Boolean(s?.last_error && s?.last_error_busy),
    errorCode: s?.last_error_code ?? null,
  };
}

// The service worker: it only wires events to the modules that do the work
// (precache list, caching strategies, sync client, push handlers).
// The server stamps the build's version below (a hash of every precached file and of
// this file), so every change to either installs a new worker; it fetches only what
// changed (sw/precache.js) and waits until the page says "reload now".
import { activatePrecache, installPrecache } from "./sw/precache.js";
import { handleFetch } from "./sw/strategies.js";
import { BACKGROUND_SYNC_TAG, syncAll } from "./data/sync.js";
import { handleNotificationClick, handlePush, handlePushSubscriptionChange } from "./sw/push.js";

const VERSION = "__TOPCUT_VERSION__";
// Registered as /pwa/sw.js?device=player on a device that holds only players' sessions (app/device.js): it
// installs the app shell alone; any other registration (a staff device, one with no session yet) installs
// Pyodide and the rules too, for offline use.
const STAFF = new URL(self.location.href).searchParams.get("device") !== "player";

self.addEventListener("install", (event) => {
  event.waitUntil(installPrecache(VERSION, { staff: STAFF }));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(activatePrecache(VERSION).then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const response = handleFetch(event.request, VERSION);
  if (response) event.respondWith(response);
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "SKIP_WAITING") self.skipWaiting();
  if (data.type === "VERSION") (event.ports[0] || event.source)?.postMessage({ type: "VERSION", version: VERSION });
});

async function tellClients(message) {
  for (const client of await self.clients.matchAll({ includeUncontrolled: true })) client.postMessage(message);
}

self.addEventListener("sync", (event) => {
  if (event.tag === BACKGROUND_SYNC_TAG) {
    event.waitUntil(syncAll().then((results) => tellClients({ type: "SYNCED", results })));
  }
});

self.addEventListener("push", (event) => {
  handlePush(event);
  event.waitUntil(tellClients({ type: "PUSHED" }));  // an open app syncs at once (a phone polls only now and then)
});
self.addEventListener("notificationclick", (event) => handleNotificationClick(event));
self.addEventListener("pushsubscriptionchange", (event) => handlePushSubscriptionChange(event));

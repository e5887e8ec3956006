// A minimal service worker for the push tests: it wires pwa/sw/push.js exactly as the app's worker does,
// plus a test-only message that runs the notification-click path (headless Chromium cannot click one).
import { handleNotificationClick, handlePush } from "./sw-push.js";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("push", (event) => handlePush(event));
self.addEventListener("notificationclick", (event) => handleNotificationClick(event));

self.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "test-click") return;
  event.waitUntil((async () => {
    const [notification] = await self.registration.getNotifications({ tag: event.data.tag });
    await handleNotificationClick({ notification, action: "", waitUntil() {} });
  })());
});

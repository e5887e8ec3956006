// Web Push for Topcut: the service worker's push and click handlers, and the page's subscribe helper.
//
// In the service worker (an ES module worker):
//
//   import { handlePush, handleNotificationClick, handlePushSubscriptionChange } from "./push.js";
//   self.addEventListener("push", handlePush);
//   self.addEventListener("notificationclick", handleNotificationClick);
//   self.addEventListener("pushsubscriptionchange", handlePushSubscriptionChange);
//
// In the page:
//
//   import { subscribeToPush } from "./push.js";
//   const { public_key } = await (await fetch("/api/push/vapid-public-key")).json();
//   await subscribeToPush(registration, public_key, { eventId, token });
//
// The server's payload is JSON: {v, kind, event, title, body, url, tag, data}; `url` is the screen to
// open (e.g. "/#/event/<id>/player"), `tag` groups notifications so a newer one replaces an older one.

const DEFAULT_TITLE = "Topcut";

function parsePayload(event) {
  if (!event.data) return null;
  try {
    return event.data.json();
  } catch {
    const text = event.data.text();
    return text ? { title: DEFAULT_TITLE, body: text } : null;
  }
}

function sameOriginUrl(url, origin) {
  try {
    const parsed = new URL(url || "/", origin);
    return parsed.origin === origin ? parsed.href : new URL("/", origin).href;
  } catch {
    return new URL("/", origin).href;
  }
}

/** The service worker's global scope (typed loosely: the page's type check knows the window's globals). */
const worker = () => /** @type {any} */ (self);

/**
 * The notification a payload becomes: [title, options]. `shown` are the notifications already shown under its
 * tag: the same news again (a re-sent copy, same `id`) replaces it silently; news buzzes (renotify).
 */
export function notificationFor(payload, origin, shown = []) {
  const title = payload.title || DEFAULT_TITLE;
  const again = Boolean(payload.id) && shown.some((n) => n.data && n.data.id === payload.id);
  const options = {
    body: payload.body || "",
    tag: payload.tag || undefined,
    renotify: Boolean(payload.tag) && !again,
    silent: again,
    timestamp: Date.now(),
    data: {
      url: sameOriginUrl(payload.url, origin),
      kind: payload.kind || null,
      event: payload.event || null,
      id: payload.id || null,
      ...(payload.data || {}),
    },
  };
  if (payload.kind === "time.warning" || payload.kind === "result.disputed") options.requireInteraction = true;
  return [title, options];
}

/** `push` event: always show a notification (userVisibleOnly), even for an unreadable payload. */
export function handlePush(event) {
  const scope = worker().registration;
  const payload = parsePayload(event) || { title: DEFAULT_TITLE, body: "Something changed in your event." };
  const shown = (async () => {
    const existing = payload.tag && scope.getNotifications
      ? await scope.getNotifications({ tag: payload.tag }).catch(() => []) : [];
    const [title, options] = notificationFor(payload, self.location.origin, existing);
    return scope.showNotification(title, options);
  })();
  if (event.waitUntil) event.waitUntil(shown);
  return shown;
}

async function openOrFocus(url) {
  const windows = await worker().clients.matchAll({ type: "window", includeUncontrolled: true });
  const exact = windows.find((client) => client.url === url);
  if (exact) return exact.focus();
  const app = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (app && "navigate" in app) {
    try {
      const navigated = await app.navigate(url);
      if (navigated) return navigated.focus();
    } catch {
      // an uncontrolled window cannot be navigated from here: open a new one
    }
  }
  return worker().clients.openWindow(url);
}

/** `notificationclick`: close it and open (or focus) the screen its payload names. */
export function handleNotificationClick(event) {
  const notification = event.notification;
  notification.close();
  const url = sameOriginUrl(notification.data && notification.data.url, self.location.origin);
  const opened = openOrFocus(url);
  if (event.waitUntil) event.waitUntil(opened);
  return opened;
}

/** `pushsubscriptionchange`: subscribe again and move the server's rows, proven by the old auth secret. */
export function handlePushSubscriptionChange(event) {
  const work = (async () => {
    const old = event.oldSubscription;
    let fresh = event.newSubscription;
    if (!fresh) {
      let key = old && old.options && old.options.applicationServerKey;
      if (!key) {
        const answer = await fetch("/api/push/vapid-public-key");
        key = urlBase64ToUint8Array((await answer.json()).public_key);
      }
      fresh = await worker().registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    }
    if (!old) return null; // nothing to prove ownership with: the page re-subscribes with its token next time
    const oldJson = old.toJSON();
    return fetch("/api/push/renew", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ old_endpoint: oldJson.endpoint, old_auth: oldJson.keys.auth, subscription: fresh.toJSON() }),
    });
  })();
  if (event.waitUntil) event.waitUntil(work);
  return work;
}

/** base64url text -> Uint8Array (applicationServerKey). */
export function urlBase64ToUint8Array(text) {
  const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(padded);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(subscription, key) {
  const current = subscription.options && subscription.options.applicationServerKey;
  if (!current) return true;
  const a = new Uint8Array(current);
  return a.length === key.length && a.every((byte, i) => byte === key[i]);
}

/**
 * Page side: ask for permission, subscribe (or reuse the subscription made with the same key) and,
 * given `{eventId, token}`, register it with the server. Resolves to `subscription.toJSON()`.
 */
export async function subscribeToPush(registration, vapidPublicKey, options = {}) {
  if (!registration || !registration.pushManager) throw new Error("push is not supported in this browser");
  if (typeof Notification !== "undefined" && Notification.permission === "default") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") throw new Error("notifications were not allowed: tap again and choose Allow, or allow them in the browser's site settings");
  }
  const key = typeof vapidPublicKey === "string" ? urlBase64ToUint8Array(vapidPublicKey) : new Uint8Array(vapidPublicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  const json = subscription.toJSON();
  if (options.eventId && options.token) {
    const fetcher = options.fetch || fetch;
    const response = await fetcher(`${options.baseUrl || ""}/api/events/${encodeURIComponent(options.eventId)}/push/subscriptions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${options.token}` },
      body: JSON.stringify({ subscription: json }),
    });
    if (!response.ok) {
      let message = `HTTP ${response.status}`;
      try {
        message = (await response.json()).message || message;
      } catch {
        // keep the status
      }
      throw new Error(`the server refused the subscription: ${message}`);
    }
  }
  return json;
}

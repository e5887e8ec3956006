// @ts-check
// This device and the event: its notifications (on, off, blocked, off on the server, what the push services
// refused) and "Open in the installed app" (a one-time code that signs the home-screen app in as this device).
// Mounted with one line by the player's screen and by staff screens: `deviceCards(store)`.
//
// iOS asks for notification permission only while the tap that asked still counts, so the server's key is
// fetched and kept (localStorage) before the tap, and the tap's handler calls subscribe first.
import {
  addPushSubscription, makeTransfer, pushStatus, removePushSubscription, subscribeToPush, vapidPublicKey,
} from "../app/services.js";
import { h, replace } from "./dom.js";

const KEY_CACHE = "topcut.vapid";
const registeredKey = (eventId) => `topcut.push.${eventId}`;

/** The server's push answer kept from the last time it was reachable: `{public_key, enabled, message}` or null. */
function cachedKey() {
  try {
    return JSON.parse(localStorage.getItem(KEY_CACHE) || "null");
  } catch {
    return null;
  }
}

/** Fetch the server's key (and whether push is on there) and keep it for the next tap; the cached one offline. */
async function freshKey() {
  try {
    const answer = await vapidPublicKey();
    const kept = { public_key: answer.public_key, enabled: answer.enabled !== false, message: answer.message || null };
    localStorage.setItem(KEY_CACHE, JSON.stringify(kept));
    return kept;
  } catch {
    return cachedKey();
  }
}

/** Why this browser cannot take notifications at all, or null. */
export function pushBlocker() {
  if (!globalThis.isSecureContext) {
    return "Notifications need the app opened over HTTPS: ask the organizer for the hall address.";
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in globalThis)) {
    return "This browser cannot show notifications from a web app (on an iPhone: Share → Add to Home Screen, "
      + "then open Topcut from there).";
  }
  if (globalThis.Notification?.permission === "denied") {
    return "Notifications are blocked for this site: allow them in the browser's site settings, then tap again.";
  }
  return null;
}

const within = (promise, ms, message) => Promise.race([
  promise, new Promise((_, fail) => setTimeout(() => fail(new Error(message)), ms))]);

/** What the staff hear about, and what a player hears about. */
const NEWS = {
  player: "you will hear when pairings go up, when a result needs your confirmation, and when a judge calls you.",
  staff: "this device hears of disputes, judge calls and a round's last result.",
};

/**
 * The Notifications card: a button that says whether notifications are on for this device (and turns them on
 * or off), why they cannot be, and for the desk what the push services refused.
 */
function notificationsCard(store, audience) {
  const button = h("button", { type: "button", id: "notify", dataset: { state: "checking" } }, "Notifications…");
  const out = h("p", { role: "status", id: "notify-status" });
  const problems = h("div", { id: "push-problems" });
  let key = cachedKey();
  let registration = null;
  let on = false;

  const say = (state, label, text) => {
    button.dataset.state = state;
    button.textContent = label;
    out.textContent = text;
  };

  async function show() {
    if (key && !key.enabled) return say("off", "Notifications are off", key.message);
    const blocked = pushBlocker();
    if (blocked) return say("blocked", "Turn on notifications", blocked);
    const subscription = registration ? await registration.pushManager.getSubscription().catch(() => null) : null;
    on = Boolean(subscription) && localStorage.getItem(registeredKey(store.eventId)) === subscription.endpoint
      && globalThis.Notification?.permission === "granted";
    if (on) return say("on", "Notifications on ✓ (tap to turn off)", `Notifications are on for this device: ${NEWS[audience]}`);
    return say("available", "Turn on notifications", `Off on this device. Turn them on: ${NEWS[audience]}`);
  }

  async function turnOn() {
    // Inside the tap, before anything is awaited: subscribeToPush asks for permission first.
    const subscribing = subscribeToPush(registration, key.public_key);
    say("working", "Turning on…", "Turning on notifications…");
    const subscription = await subscribing;
    await addPushSubscription(store.session, subscription);
    localStorage.setItem(registeredKey(store.eventId), subscription.endpoint);
  }

  async function turnOff() {
    const subscription = await registration.pushManager.getSubscription();
    localStorage.removeItem(registeredKey(store.eventId));
    if (subscription) {
      await removePushSubscription(store.session, subscription.endpoint).catch(() => null);
      await subscription.unsubscribe().catch(() => null);
    }
  }

  button.addEventListener("click", () => {
    if (key && !key.enabled) return say("off", "Notifications are off", key.message);
    const blocked = pushBlocker();
    if (blocked) return say("blocked", "Turn on notifications", blocked);
    if (!key?.public_key || !registration) {
      say("failed", "Turn on notifications", "The app is still getting ready on this device (it needs the network "
        + "once): try again in a moment.");
      return undefined;
    }
    button.disabled = true;
    const work = on ? turnOff() : turnOn();
    return work.then(show, (err) => {
      const text = err?.name === "NotAllowedError"
        ? "Notifications were not allowed: tap again and choose Allow, or allow them in the browser's site settings."
        : `Notifications could not be turned on: ${err?.message || err}`;
      say(globalThis.Notification?.permission === "denied" ? "blocked" : "failed", "Turn on notifications", text);
    }).finally(() => { button.disabled = false; });
  });

  async function loadProblems() {
    if (audience !== "staff" || !navigator.onLine) return;
    const status = await pushStatus(store.session).catch(() => null);
    if (!status) return;  // not a desk role, or offline
    replace(problems,
      h("p", { class: "hint", id: "push-count" }, status.enabled
        ? `${status.players_subscribed} player(s) and ${status.subscriptions - status.players_subscribed} staff device(s) `
          + "have notifications on."
        : status.message),
      status.problems.length ? h("div", { class: "warn", id: "push-refusals", role: "alert" },
        h("strong", {}, "Push services refused notifications:"),
        h("ul", {}, status.problems.map((p) => h("li", { dataset: { status: String(p.status_code ?? "") } },
          `${p.count} notification(s) to ${p.devices} device(s)`,
          p.status_code ? ` (HTTP ${p.status_code})` : "", `: ${p.advice} The push service said: “${p.cause}”.`))))
        : null);
  }

  const ready = (async () => {
    if ("serviceWorker" in navigator) {
      registration = await within(navigator.serviceWorker.ready, 15_000, "no service worker").catch(() => null);
    }
    await show();
    key = await freshKey();
    await show();
    await loadProblems();
  })();
  return { el: h("section", { class: "card", id: "notifications" }, h("h2", {}, "Notifications"), button, out, problems), ready };
}

/** Whether this page runs as the installed (home-screen) app. */
const installed = () => globalThis.matchMedia?.("(display-mode: standalone)").matches
  || /** @type {any} */ (navigator).standalone === true;

/** "Open in the installed app": a one-time code, link and QR code that sign the home-screen app in as this device. */
function transferCard(store) {
  const out = h("div", { id: "transfer-out", "aria-live": "polite" });
  const button = h("button", { type: "button", id: "transfer" }, "Open in the installed app");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const t = await makeTransfer(store.session);
      const until = new Date(t.expires_at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      replace(out,
        h("p", {}, "In the installed app, tap ", h("strong", {}, "Join an event"), " and type:"),
        h("p", { class: "transfer-code", id: "transfer-code" }, t.code),
        h("p", {}, "Or open this link in it: ", h("a", { href: t.link, id: "transfer-link" }, t.link)),
        h("div", { class: "qr", html: t.qr_svg, role: "img", "aria-label": `QR code for ${t.link}` }),
        h("p", { class: "hint", id: "transfer-note" }, `It works once, until ${until}. This browser stays signed in too.`));
    } catch (err) {
      replace(out, h("p", { class: "error", role: "alert" }, `No transfer code: ${err.message}`));
    } finally {
      button.disabled = false;
    }
  });
  return h("section", { class: "card", id: "transfer-card" }, h("h2", {}, "Open in the installed app"),
    h("p", { class: "hint" }, "Added Topcut to your home screen? It does not share this browser's sign-in (on an "
      + "iPhone above all): get a one-time code here and type it there — no trip to the desk."), button, out);
}

/** This device's cards for an event screen: notifications, and (in a browser tab) the way into the installed app. */
export function deviceCards(store, { audience = store.session?.player ? "player" : "staff" } = {}) {
  const notifications = notificationsCard(store, audience);
  const el = h("div", { class: "grid device-cards", dataset: { ready: "no" } }, notifications.el,
    installed() ? null : transferCard(store));
  notifications.ready.finally(() => { el.dataset.ready = "yes"; });
  return el;
}

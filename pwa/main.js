// Page bootstrap: the service worker, the rules worker, the router and the sync indicator.
import { hasReport } from "./app/games.js";
import { homeScreen, rolesOf } from "./app/roles.js";
import { hallInfo, startRulesWorker } from "./app/services.js";
import { currentDeviceKind, lightPage, openStoreFor } from "./app/device.js";
import { h, replace, when } from "./ui/dom.js";
import { openCalls } from "./ui/calls.js";
import home from "./views/home.js";
import players from "./views/players.js";
import rounds from "./views/rounds.js";
import judge from "./views/judge.js";
import disputes from "./views/disputes.js";
import standings from "./views/standings.js";
import board from "./views/board.js";
import kiosk, { kioskLock, releaseKiosk } from "./views/kiosk.js";
import bracket from "./views/bracket.js";
import print from "./views/print.js";
import staff from "./views/staff.js";
import player from "./views/player.js";
import publicPage from "./views/public.js";
import history from "./views/history.js";
import league from "./views/league.js";
import report from "./views/report.js";
import decklists from "./views/decklists.js";
import exports from "./views/exports.js";
import settings from "./views/settings.js";

// Who opens each screen, in the engine's role groups (app/roles.js): the desk (publishes rounds, reads claim
// codes), the staff, everyone.
const DESK = rolesOf("desk");
const STAFF = rolesOf("staff");
const EVERYONE = rolesOf("everyone");
export const SCREENS = {
  players: { view: players, title: "Players", roles: DESK },
  rounds: { view: rounds, title: "Rounds", roles: DESK },
  judge: { view: judge, title: "Results", roles: STAFF },
  disputes: { view: disputes, title: "Disputes", roles: STAFF },
  decklists: { view: decklists, title: "Deck lists", roles: STAFF },
  standings: { view: standings, title: "Standings", roles: EVERYONE },
  board: { view: board, title: "Big screen", roles: STAFF },
  bracket: { view: bracket, title: "Bracket", roles: EVERYONE },
  print: { view: print, title: "Print", roles: STAFF },
  exports: { view: exports, title: "Exports", roles: DESK },  // every download, offline; the roster CSV import
  settings: { view: settings, title: "Settings", roles: rolesOf("organizer") },  // event.configure: the organizer's
  staff: { view: staff, title: "Staff", roles: rolesOf("organizer") },
  player: { view: player, title: "My table", roles: rolesOf("players") },
  history: { view: history, title: "History", roles: EVERYONE },  // player records (docs/people.md)
  // A tab only for a game with a tournament report (the engine says which: tables.json ``report``).
  report: { view: report, title: "Tournament report", roles: STAFF, tab: (state) => hasReport(state?.ruleset) },
  // Big-screen mode, started from the Big screen tab: no header, tabs or footer (``bare``), and while it is on
  // this browser tab opens nothing else (route() below).
  kiosk: { view: kiosk, title: "Big-screen mode", roles: STAFF, tab: false, bare: true },
};

const status = document.getElementById("status");
const pythonVersion = document.getElementById("python-version");
const viewRoot = document.getElementById("view");
const tabs = document.getElementById("tabs");
const syncBox = document.getElementById("sync");
const syncText = document.getElementById("sync-text");
const eventTitle = document.getElementById("event-title");

function show(state, text) {
  status.dataset.state = state;
  status.textContent = text;
}

let rulesStarted = false;

/** Start the rules engine (once): a staff device's, never a player's phone's (app/device.js). */
function startRules() {
  if (rulesStarted) return;
  rulesStarted = true;
  startRulesWorker().then(
    (about) => {
      const [major, minor, micro] = about.version_info;
      pythonVersion.textContent = `Python ${major}.${minor}.${micro}`;
      pythonVersion.title = about.version;
      show("ready", `Rules engine ready (Pyodide ${about.pyodide})`);
      globalThis.topcutReady = { at: performance.now(), boot_ms: about.boot_ms, phases: about.phases };
    },
    (error) => show("error", `Rules engine failed to start: ${error.message}`),
  );
}

let deviceKindShown = null;

/**
 * After each route: what this device is (a staff device, a player's phone, not known while a link is redeemed)
 * decides whether the rules engine runs and what the service worker installs.
 */
async function settleDevice() {
  const kind = await currentDeviceKind();
  if (!kind || kind === deviceKindShown) return;
  deviceKindShown = kind;
  if (kind === "staff") startRules();
  else if (!rulesStarted) show("ready", "Player view: pairings and results come from the server");
  registerServiceWorker(kind).catch((error) => console.warn("service worker:", error));
}

// ---------------------------------------------------------------- service worker and updates

function askVersion(worker) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data?.version ?? null);
    worker.postMessage({ type: "VERSION" }, [channel.port2]);
    setTimeout(() => resolve(null), 2000);
  });
}

// How often an open page asks the server for a new version (tests shorten it).
const UPDATE_CHECK_MS = Number(globalThis.localStorage?.getItem("topcut.updateCheckMs")) || 10 * 60 * 1000;

/**
 * Opened over plain HTTP on a hall address (not this machine), a browser gives the app no service worker,
 * no offline storage guarantees and no notifications: say so loudly, and where to go instead.
 */
/** The hall network's HTTPS port by default (backend/serve.py ``--hall-port``, the Makefile's HALL_PORT). */
const HALL_PORT = 8443;

async function warnIfInsecure() {
  if (globalThis.isSecureContext) return;
  const banner = document.getElementById("insecure-banner");
  // Until the server says its hall address: the one `make run` serves (backend/serve.py --hall-port, 8443).
  banner.textContent = `Not secure: at ${location.origin} this app cannot work offline or notify players. `
    + `Open it over HTTPS (https://${location.hostname}:${HALL_PORT}/ — see "Hall network" in the README), `
    + "or on the server machine itself at http://localhost.";
  banner.hidden = false;
  const info = await hallInfo();
  if (!info?.hall_url) return;
  // This server offers the hall address itself: name it, and the certificate to install first.
  replace(banner, `Not secure: at ${location.origin} this app cannot work offline or notify players. Open `,
    h("a", { href: `${info.hall_url}/`, id: "insecure-hall-url" }, `${info.hall_url}/`), " instead",
    info.ca_url ? [" (first time on this tablet: install ", h("a", { href: info.ca_url, download: "topcut-hall-ca.crt" },
      "the hall certificate"), ")."] : ".");
}

warnIfInsecure();

let workerWatched = false;

/**
 * Register the service worker for this kind of device: ``?device=player`` installs the app shell alone (no Pyodide,
 * no rules), ``?device=staff`` everything for offline use. A phone that later holds a staff session registers again:
 * the staff worker installs beside the running one (same version: no update banner) and takes over on a later start.
 */
async function registerServiceWorker(kind) {
  if (!("serviceWorker" in navigator)) return;
  const hadController = Boolean(navigator.serviceWorker.controller);
  const registration = await navigator.serviceWorker.register(`/pwa/sw.js?device=${kind}`, { type: "module", scope: "/" });
  if (workerWatched) return;
  workerWatched = true;
  let accepted = false;  // this page's user pressed "Reload now"
  // Offer (never force) an update: only to a page a worker already controls (a first visit has
  // nothing to update; it is claimed by the first install), and only for a real new version.
  const offer = async (worker) => {
    const controller = navigator.serviceWorker.controller;
    if (!worker || !controller || worker === controller) return;
    const [next, running] = await Promise.all([askVersion(worker), askVersion(controller)]);
    if (!next || next === running || worker.state === "redundant") return;
    const banner = document.getElementById("update-banner");
    banner.dataset.version = next;
    banner.hidden = false;
    document.getElementById("update-reload").onclick = () => {
      accepted = true;
      worker.postMessage({ type: "SKIP_WAITING" });
    };
  };
  if (registration.waiting) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offer(worker);
    });
  });
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install taking over a first visit needs no reload; a new version does
    // (asked for here, or in another tab of a page that was running a version already).
    if (reloading || !(accepted || hadController)) return;
    reloading = true;
    location.reload();
  });
  const check = () => registration.update().catch(() => {});
  setInterval(check, UPDATE_CHECK_MS);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") check(); });
}


// ---------------------------------------------------------------- sync indicator

let activeStore = null;
let openingEvent = false;  // an event screen's store is being opened (its outbox not read yet)

function renderSync() {
  const online = activeStore ? activeStore.status().online : navigator.onLine;
  syncBox.dataset.online = online ? "online" : "offline";
  if (!activeStore) {
    // No event's store yet: nothing is waiting here, but while an event screen opens its outbox is not read yet,
    // so the indicator must not claim "synced" (a test or a judge waiting for the green would read it too early).
    syncBox.dataset.waiting = "0";
    syncBox.dataset.syncing = openingEvent ? "opening" : "no";
    delete syncBox.dataset.state;
    syncText.textContent = online ? "Online" : "Offline";
    return;
  }
  const s = activeStore.status();
  syncBox.dataset.waiting = String(s.waiting);
  syncBox.dataset.rejected = String(s.rejected);
  syncBox.dataset.syncing = s.syncing ? "yes" : "no";
  syncBox.dataset.state = s.refused ? "refused" : s.busy ? "busy" : online ? "online" : "offline";
  if (s.refused) {
    // Never "waiting" when the server refuses: say what happened and what to do (changes stay on this device).
    const kept = s.waiting ? `${s.waiting} change${s.waiting === 1 ? " is" : "s are"} kept on this device.` : "";
    syncText.textContent = [`Not syncing: the server refused this device's changes (${s.error}).`, kept,
      refusedAdvice(s.errorCode, s.error)].filter(Boolean).join(" ");
    return;
  }
  const waiting = (s.unregistered ? "event made on this device, not on the server yet · " : "")
    + (s.waiting === 0 ? "all changes synced" : `${s.waiting} change${s.waiting === 1 ? "" : "s"} waiting`);
  const refused = s.rejected ? ` · ${s.rejected} refused` : "";
  if (s.busy) {
    syncText.textContent = `Server busy · ${waiting}${refused} · retrying by itself (${s.error})`;
    return;
  }
  syncText.textContent = `${online ? "Online" : "Offline"} · ${waiting}${refused} · last sync ${when(s.lastSync)}`;
}

/** A refused token's cause, by the server's error code. */
const TOKEN_REFUSED = {
  "missing-token": "This device has no access to the event",
  "invalid-token": "This device's access is not valid",
  "token-revoked": "This device's access was withdrawn",
  "token-expired": "This device's access expired",
};

/** What a user does about a refused push, by the server's error code (nothing more when `said`, the server's
 * message, already tells them to join again). */
function refusedAdvice(code, said = "") {
  if (code in TOKEN_REFUSED) {
    return /join the event again/i.test(said) ? "" : `${TOKEN_REFUSED[code]}: join the event again with a new code from the organizer.`;
  }
  if (code === "sequence-gap") return "Reload the app; if this stays red, show this screen to the organizer.";
  return "Show this screen to the organizer; the app retries every few seconds.";
}

globalThis.addEventListener("online", renderSync);
globalThis.addEventListener("offline", renderSync);

// ---------------------------------------------------------------- router

let current = null;
let renderedRevision = -1;

function parseRoute() {
  const hash = location.hash.replace(/^#/, "");
  if (hash.startsWith("join=")) return { name: "home", join: decodeURIComponent(hash.slice(5)) };
  const parts = hash.replace(/^\//, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "public" && parts[1]) return { name: "public", eventId: parts[1] };
  if (parts[0] === "leagues" || (parts[0] === "league" && parts[1])) return { name: "league", leagueId: parts[1] || null, sub: parts[2] || null };
  if (parts[0] === "event" && parts[1]) return { name: "event", eventId: parts[1], screen: parts[2] || null, sub: parts[3] || null };
  return { name: "home" };
}

export function navigate(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

async function route() {
  current?.destroy?.();
  current = null;
  delete document.body.dataset.ready;
  delete viewRoot.dataset.version;
  const r = parseRoute();
  const lock = kioskLock();
  if (lock && !(r.name === "event" && r.eventId === lock.eventId && r.screen === "kiosk")) {
    // A big screen's tab: whatever someone at the screen laptop opens (Back, a typed address), the board stays.
    location.replace(`#/event/${encodeURIComponent(lock.eventId)}/kiosk`);
    return;
  }
  delete document.body.dataset.kiosk;
  tabs.hidden = true;
  eventTitle.textContent = "";
  if (activeStore) activeStore.removeEventListener("change", onStoreChange);
  activeStore = null;
  tabsShown = null;
  openingEvent = r.name === "event";
  renderSync();
  renderClosed();
  if (r.name === "home") {
    current = await home.mount(viewRoot, { navigate, join: r.join, light: lightPage() });
  } else if (r.name === "public") {
    current = await publicPage.mount(viewRoot, { eventId: r.eventId });
  } else if (r.name === "league") {
    current = await league.mount(viewRoot, { navigate, leagueId: r.leagueId, sub: r.sub });
    document.body.dataset.ready = r.leagueId ? `league-${r.sub || "director"}` : "leagues";
  } else {
    await mountEventScreen(r);
  }
  document.title = `${viewRoot.querySelector("h1,h2")?.textContent || "Topcut"} — Topcut`;
  settleDevice();
}

let tabsShown = null;  // {eventId, role, screen, ruleset} of the navigation on screen

/** The event's navigation: the role's screens; a screen with a ``tab(state)`` test (a game's report) as it says. */
function renderTabs() {
  if (!tabsShown || !activeStore) return;
  const state = activeStore.state;
  if (tabsShown.ruleset === (state?.ruleset ?? null)) return;
  tabsShown.ruleset = state?.ruleset ?? null;
  const { eventId, role, screen } = tabsShown;
  const tabbed = (s) => (typeof s.tab === "function" ? s.tab(state) : s.tab !== false);
  replace(tabs, h("ul", {}, Object.entries(SCREENS).filter(([, s]) => s.roles.includes(role) && tabbed(s)).map(([key, s]) =>
    h("li", {}, h("a", { href: `#/event/${eventId}/${key}`, "aria-current": key === screen ? "page" : null, dataset: { screen: key } },
      s.title)))));
  // On a phone the tabs are one row that scrolls sideways: the screen shown is kept in view.
  tabs.querySelector("a[aria-current=page]")?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  renderTabCounts();
}

/** The navigation's live counts: "Disputes (N)", N the open disputes of the folded state (every sync). */
function renderTabCounts() {
  renderCallCount();
  const link = tabs.querySelector("a[data-screen=disputes]");
  if (!link || !activeStore?.state) return;
  const n = activeStore.state.disputes?.length || 0;
  const text = `Disputes (${n})`;
  if (link.dataset.count === String(n) && link.textContent === text) return;
  link.textContent = text;
  link.dataset.count = String(n);
  link.setAttribute("aria-label", `${text}: ${n === 0 ? "no open disputes" : n === 1 ? "1 open dispute" : `${n} open disputes`}`);
  link.classList.toggle("has-open", n > 0);
}

/** "Results (1 call)": the judge calls still open (ui/calls.js), seen from every staff screen. */
function renderCallCount() {
  const link = tabs.querySelector("a[data-screen=judge]");
  if (!link || !activeStore?.state) return;
  const n = openCalls(activeStore.state).filter((c) => c.kind === "judge").length;
  const text = n ? `${SCREENS.judge.title} (${n} call${n === 1 ? "" : "s"})` : SCREENS.judge.title;
  if (link.textContent === text) return;
  link.textContent = text;
  link.classList.toggle("has-open", n > 0);
  link.setAttribute("aria-label", n ? `${text}: a judge is called` : text);
}

/** A closed event says so on every screen of every device (input is refused locally: store.js closedRefusal). */
function renderClosed() {
  const banner = document.getElementById("closed-banner");
  const closed = Boolean(activeStore?.state?.closed);
  document.body.dataset.closed = closed ? "yes" : "no";
  if (banner.hidden === !closed) return;
  banner.hidden = !closed;
  banner.textContent = closed
    ? "This event is closed: the final standings stand. Results, players, rounds and penalties can no longer change on any device."
    : "";
}

function onStoreChange() {
  renderSync();
  renderTabs();  // the game is known once the event's first state is folded
  renderTabCounts();
  renderClosed();
  if (activeStore?.state) eventTitle.textContent = activeStore.state.name || "";
  if (activeStore && activeStore.revision !== renderedRevision) {
    renderedRevision = activeStore.revision;
    updateView();
  }
}

// The screen draws one store snapshot at a time. A view's update may wait on the rules worker; a change
// meanwhile does not start a second drawing that could finish first (and then be overwritten by the older
// one): it is drawn once the current drawing is done, from the newest snapshot. The view's root carries
// the version it shows (data-version), so nothing older can stay on screen unnoticed.
let updating = null;
let updateAgain = false;

async function drawNewest() {
  await null;  // ``updating`` is assigned before anything below runs (and before the finally clears it)
  try {
    do {
      updateAgain = false;
      const view = current;
      const store = activeStore;
      if (!view?.update || !store) break;
      const snapshot = store.snapshot;
      try {
        await view.update(snapshot);
      } catch (error) {
        console.error("Topcut: the screen could not be drawn", error);
      }
      if (view === current && store === activeStore) viewRoot.dataset.version = String(snapshot.version);
    } while (updateAgain);
  } finally {
    updating = null;  // in the same tick as the last look at updateAgain: no change can fall in between
  }
}

function updateView() {
  if (updating) {
    updateAgain = true;
    return updating;
  }
  updating = drawNewest();
  return updating;
}

async function mountEventScreen(r) {
  const store = await openStoreFor(r.eventId);
  replace(viewRoot, h("p", { class: "loading" }, "Opening the event…"));
  try {
    await store.open();
  } catch (error) {
    openingEvent = false;
    renderSync();
    if (kioskLock()?.eventId === r.eventId) releaseKiosk();  // a big screen of an event gone: never a dead end
    replace(viewRoot, h("section", {}, h("h1", {}, "This event is not on this device"),
      h("p", {}, error.message), h("a", { href: "#/" }, "Join with a code")));
    return;
  }
  openingEvent = false;
  activeStore = store;
  store.addEventListener("change", onStoreChange);
  const role = store.role;
  const screen = r.screen && SCREENS[r.screen] && SCREENS[r.screen].roles.includes(role) ? r.screen : homeScreen(role);
  tabsShown = SCREENS[screen].bare ? null : { eventId: r.eventId, role, screen, ruleset: undefined };
  if (SCREENS[screen].bare) {
    document.body.dataset.kiosk = "on";
    tabs.replaceChildren();
  } else renderTabs();
  tabs.hidden = Boolean(SCREENS[screen].bare);
  document.body.dataset.screen = screen;
  eventTitle.textContent = store.state?.name || "";
  renderSync();
  viewRoot.replaceChildren();
  current = await SCREENS[screen].view.mount(viewRoot, { store, eventId: r.eventId, navigate, role, sub: screen === r.screen ? r.sub : null });
  renderedRevision = store.revision;
  await updateView();
  document.body.dataset.ready = screen;
}

window.addEventListener("hashchange", () => route().then(() => viewRoot.focus({ preventScroll: true })));
route();

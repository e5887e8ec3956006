// @ts-check
// A player's phone: one event as the server's player view shows it (data/player-view.js), with no rules engine
// on the device (no Pyodide: the phone installs the app shell alone, under 1 MB). The same interface the player
// screens use on EventStore — ``state``, ``session``, ``eventId``, ``now()``, ``act()``, ``problems()``,
// ``status()``, change events — plus ``view`` (the server's whole answer) and ``ask(fn, args)``, which answers
// what the screens asked the rules worker for (ruleset_info, timer, standings, decklists, bracket) from that view.
// A player's action is an operation queued in the outbox and pushed; the server's verdict decides (shown as
// "waiting to send" until it comes, and a refusal in the player's words). Polling: rarely while push
// notifications are on (a push wakes the page, sw.js "PUSHED"), every ~25 s while on screen otherwise.
import { getSession, outbox, savedView, serverNow } from "./services.js";
import { requestBackgroundSync, syncOnce, syncStatus, wireSync } from "./sync-loop.js";
import { CLOSED_REASON, closedRefusal } from "./store.js";

const stored = (key) => Number(globalThis.localStorage?.getItem(key)) || 0;
// A device told to sync every ``topcut.syncMs`` (tests, a hall that wants it) polls at four times that, as before.
const SYNC_MS = stored("topcut.syncMs");
/** Between pulls while the page is on screen: with push notifications on (they wake it), and without. */
export const POLL_PUSH_MS = stored("topcut.playerPollPushMs") || (SYNC_MS ? 4 * SYNC_MS : 3 * 60 * 1000);
export const POLL_MS = stored("topcut.playerPollMs") || (SYNC_MS ? 4 * SYNC_MS : 25 * 1000);

/** The timer answer of the view (made at ``server_ms``) as it stands at ``now``: running clocks count down. */
export function clockAt(view, now) {
  const elapsed = Math.max(0, now - (view.server_ms ?? now));
  return (view.clock || []).map((c) => {
    if (c.paused || c.status !== "started" || c.remaining_ms === null || c.remaining_ms === undefined) return c;
    const announced = c.announced_ms === null || c.announced_ms === undefined ? c.announced_ms : c.announced_ms - elapsed;
    return { ...c, remaining_ms: c.remaining_ms - elapsed, announced_ms: announced };
  });
}

export class PlayerStore extends EventTarget {
  constructor(eventId, { pollMs = POLL_MS, pollPushMs = POLL_PUSH_MS } = {}) {
    super();
    this.eventId = eventId;
    this.pollMs = pollMs;
    this.pollPushMs = pollPushMs;
    this.session = null;
    this.view = null;
    this.rows = [];
    this.revision = 0;
    this.syncing = null;
    this.reachable = true;
    this.opened = null;
    this.timer = null;
    this.pushOn = false;
    this.lastSyncAt = 0;
  }

  /** A player's phone never runs the rules: a store opened without the worker. */
  get light() {
    return true;
  }

  get state() {
    return this.view?.state ?? null;
  }

  get role() {
    return this.session?.role;
  }

  open() {
    if (!this.opened) {
      this.opened = (async () => {
        this.session = await getSession(this.eventId);
        if (!this.session) throw new Error("this device has not joined this event");
        await this.reload();  // the last view kept on this phone: it opens offline on its last table
        this.startSyncing();
      })();
    }
    return this.opened;
  }

  /** Read the kept view, the session and the outbox again; a change event when anything differs. */
  async reload() {
    const [session, saved, rows] = await Promise.all([getSession(this.eventId), savedView(this.eventId), outbox.rows(this.eventId)]);
    if (session) this.session = session;
    const view = saved?.view ?? null;
    const signature = JSON.stringify([view?.cursor ?? null, saved?.etag ?? null, rows.map((r) => [r.seq, r.status])]);
    if (view) this.view = view;
    this.rows = rows;
    if (signature !== this.signature) {
      this.signature = signature;
      this.revision += 1;
    }
    this.emit();
  }

  now() {
    return serverNow(this.session);
  }

  get snapshot() {
    return { version: this.revision, state: this.state, rows: this.rows, localRejections: [] };
  }

  emit() {
    this.dispatchEvent(new Event("change"));
  }

  /**
   * What the screens asked the rules worker for, from the view: ``ruleset_info``, ``timer`` (counting down from the
   * server's time), ``standings`` (null until the organizer's policy shows them), ``decklists``. Anything else is
   * refused in words: a player's phone has no rules engine.
   */
  async ask(fn, args = {}) {
    const view = this.view;
    if (!view) throw new Error("Nothing from the server yet: this phone shows the event once it has been online.");
    if (fn === "ruleset_info") return view.info;
    if (fn === "timer") return clockAt(view, args.now_ms ?? this.now());
    if (fn === "standings") return view.standings;
    if (fn === "decklists") return view.decklist;
    if (fn === "bracket") return view.bracket || { rounds: [], note: "No cut yet." };
    throw new Error(`A player's phone does not work out "${fn}": the organizer's screens do.`);
  }

  /** Queue a player's action and send it; the server decides (a refusal shows where it happened). */
  async act(type, payload) {
    const closed = closedRefusal(this.state, type, payload);
    if (closed) return { row: null, refused: CLOSED_REASON, code: "event-closed" };
    const row = await outbox.enqueue(this.eventId, type, payload);
    await this.reload();
    requestBackgroundSync();
    this.syncNow();
    return { row, refused: null };
  }

  async dismiss(seq) {
    await outbox.dismiss(this.eventId, seq);
    await this.reload();
  }

  /** The server's refusals, to show where they happened (``server: true``: a phone refuses nothing itself). */
  problems() {
    return this.rows.filter((r) => r.status === "rejected")
      .map((r) => ({ seq: r.seq, op: r.op, reason: r.reason, error: r.error, server: true }));
  }

  /** This phone's actions not yet taken by the server (queued offline, or sent without an answer yet). */
  waiting() {
    return this.rows.filter((r) => r.status === "pending" || r.status === "sent");
  }

  status() {
    return syncStatus(this, { waiting: this.waiting().length });
  }

  syncNow() {
    return syncOnce(this, () => this.reload());
  }

  startSyncing() {
    if (this.timer) return;
    wireSync(this, 1000, () => this.reload());
    this.checkPush();
    this.syncNow();
  }

  /** Whether this phone gets push notifications (then it polls rarely: a push wakes it). */
  async checkPush() {
    try {
      const registration = await navigator.serviceWorker?.getRegistration();
      this.pushOn = Boolean(await registration?.pushManager?.getSubscription());
    } catch {
      this.pushOn = false;
    }
  }

  /** The poll: nothing while out of sight; every ``pollPushMs`` with push on, else every ``pollMs``. */
  tick(now = Date.now()) {
    if (globalThis.document?.visibilityState === "hidden") return null;
    const every = this.pushOn ? this.pollPushMs : this.pollMs;
    if (now - this.lastSyncAt < every) return null;
    this.checkPush();
    return this.syncNow();
  }
}

// @ts-check
// One event on this device: its session, the folded state (from the rules
// worker: confirmed log + pending outbox), and the sync schedule (on load, on
// reconnect, on a timer, after every change, and by Background Sync).
import { dropSnapshot, getSession, getSnapshot, logAfter, onRulesRestart, outbox, putSnapshot, rules, rulesBuild, serverNow } from "./services.js";
import { requestBackgroundSync, syncOnce, syncStatus, wireSync } from "./sync-loop.js";

const SYNC_MS = Number(globalThis.localStorage?.getItem("topcut.syncMs")) || 5000;
// A start folds the event from its last snapshot and the log after it (a 2,048-player event after 9 rounds is
// 11,283 operations: 3.4 s to fold from operation 1 on a tablet). One is saved once the log has grown this
// many operations past the last one (tests lower it).
const SNAPSHOT_EVERY = Number(globalThis.localStorage?.getItem("topcut.snapshotEvery")) || 500;
// After a fold that left no spare copy of the server's state in the worker, one is made this long after the
// screens drew (``prepareSpare``), out of the way of the calls that draw them.
const SPARE_DELAY_MS = Number(globalThis.localStorage?.getItem("topcut.spareDelayMs")) || 1500;
const stores = new Map();

export function storeFor(eventId) {
  if (!stores.has(eventId)) stores.set(eventId, new EventStore(eventId));
  return stores.get(eventId);
}

// A new rules worker knows no event: every store that had folded one folds it again from this device's log.
onRulesRestart(async (call) => {
  for (const store of stores.values()) {
    if (store.workerCursor >= 0) await store.refold(true, call);
  }
});

/** What a closed event says to a change (shared_rules/state/reducer.py: only the report's details pass). */
export const CLOSED_REASON = "The event is closed: results, players, rounds and penalties can no longer change on any "
  + "device. The final standings stand; ask the organizer if something must be put right.";

/** Why a change is refused because the event is closed, or null (not closed, or the report's details alone). */
export function closedRefusal(state, type, payload) {
  if (!state?.closed) return null;
  const settings = payload?.settings;
  const reportOnly = type === "event.configure" && payload?.name == null && payload?.ruleset == null
    && settings && typeof settings === "object" && Object.keys(settings).length === 1 && "report" in settings;
  return reportOnly ? null : CLOSED_REASON;
}

/**
 * What the worker is sent of a snapshot: its state as the JSON text it was saved as (``state_json``, spliced into
 * the request as a string: no copy of the event is built in the page), or as an object (one saved before).
 */
function snapshotArgs(snapshot) {
  return typeof snapshot.state_json === "string"
    ? { cursor: snapshot.cursor, state_json: snapshot.state_json }
    : { cursor: snapshot.cursor, state: snapshot.state };
}

/** A snapshot's state from its JSON text, or null: text that is no JSON (the worker then refuses the snapshot). */
function readState(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export class EventStore extends EventTarget {
  /**
   * ``call``: the rules worker's entry point (``rules``; the JS unit tests give a fake one); ``build``: which
   * rules it runs (``rulesBuild``), the key of this device's snapshots.
   */
  constructor(eventId, { call = rules, build = rulesBuild, snapshotEvery = SNAPSHOT_EVERY, spareDelayMs = SPARE_DELAY_MS } = {}) {
    super();
    this.eventId = eventId;
    this.call = call;
    this.build = build;
    this.snapshotEvery = snapshotEvery;
    this.spareDelayMs = spareDelayMs;
    this.snapshotCursor = null;  // the cursor of the snapshot saved or used (null: not known yet)
    this.savingSnapshot = null;
    this.session = null;
    this.state = null;
    this.rows = [];
    this.localRejections = [];
    this.workerCursor = -1;
    this.lastSyncAt = 0;  // when the last sync started (app/sync-loop.js)
    this.syncing = null;
    this.reachable = true;
    this.timer = null;
    this.opened = null;
    this.revision = 0;
    this.folding = null;
    this.foldAgain = false;
    this.resetWanted = false;
    this.foldTickets = 0;
    this.appliedTicket = 0;
    this.foldedWithBase = false;
    this.holding = false;      // a batch is being applied (actMany): the screens draw once it is done
    this.heldChange = false;
  }

  open() {
    if (!this.opened) {
      this.opened = (async () => {
        this.session = await getSession(this.eventId);
        if (!this.session) throw new Error("this device has not joined this event");
        await this.refold(true);
        this.startSyncing();
      })();
    }
    return this.opened;
  }

  get role() {
    return this.session?.role;
  }

  /** Now in the server's time (this device's clock corrected by the offset measured at the last sync). */
  now() {
    return serverNow(this.session);
  }

  actor(s = this.session) {
    return s.player ? { role: s.role, player: s.player } : { role: s.role };
  }

  envelope(row, session = this.session) {
    return { type: row.op.type, op_id: `${session.device}:${row.seq}`, device: session.device,
             actor: this.actor(session), at: row.op.at, payload: row.op.payload };
  }

  /**
   * Fold what is new in the log, plus every waiting operation, in the worker (``call``: during a restart).
   * Folds run one at a time (a request during one runs once more after it), so a fold that read the log
   * earlier can never land after one that read it later: ``snapshot`` only moves forward.
   */
  refold(reset = false, call = this.call) {
    if (call !== this.call) return this.foldOnce(true, call);  // a rules restart: the queued fold waits on the new worker
    this.resetWanted = this.resetWanted || reset;
    if (this.folding) {
      this.foldAgain = true;
      return this.folding;
    }
    const foldNewest = async () => {
      await null;  // ``folding`` is assigned before anything below runs
      try {
        do {
          this.foldAgain = false;
          const fresh = this.resetWanted;
          this.resetWanted = false;
          await this.foldOnce(fresh, this.call);
        } while (this.foldAgain || this.resetWanted);
      } finally {
        this.folding = null;  // in the same tick as the last look at foldAgain
      }
    };
    this.folding = foldNewest();
    return this.folding;
  }

  async foldOnce(reset, call) {
    const ticket = ++this.foldTickets;
    const session = await getSession(this.eventId);
    // The event's starting document arrives with the first pull (an imported event, or one made offline on
    // the organizer's device): a worker that folded without it folds again from it.
    // So does a device that joined the event again with another role (a new device id, the log pulled again
    // from 0) while this store was open: what the worker folded is the old role's log.
    const fresh = reset || this.workerCursor < 0 || Boolean(session.base) !== this.foldedWithBase
      || session.device !== this.session?.device;
    let snapshot = fresh ? await this.snapshotFor(session) : null;
    // The log and the outbox are read while the worker tells its rules build (at a start: while Pyodide boots).
    const building = snapshot ? this.build().catch(() => null) : null;
    let confirmed = await logAfter(this.eventId, snapshot ? snapshot.cursor : fresh ? 0 : this.workerCursor);
    const rows = await outbox.rows(this.eventId);
    const pending = rows.filter((r) => r.status !== "rejected").map((r) => this.envelope(r, session));
    // A start with nothing after the snapshot: this page reads the snapshot's state for itself while the worker
    // boots, and the worker, told so (``known: "snapshot"``), does not send the same state back.
    let held = snapshot && typeof snapshot.state_json === "string" && !confirmed.length && !pending.length
      ? readState(snapshot.state_json) : null;
    if (snapshot && snapshot.rules_build !== await building) {  // folded by other rules (an app update): not used
      await dropSnapshot(this.eventId).catch(() => {});
      snapshot = null;
      held = null;
      confirmed = await logAfter(this.eventId, 0);
    }
    // The state this store holds is not sent again when the worker's is the same (``known``).
    const fold = (reset, log, start) => call("fold", {
      event_id: this.eventId, reset, base: session.base,
      confirmed: log.map((r) => ({ server_seq: r.server_seq, op: r.op })), pending,
      ...(start ? { snapshot: snapshotArgs(start) } : {}),
      ...(start && held ? { known: "snapshot" } : reset || !this.foldRevision ? {} : { known: this.foldRevision }),
    });
    let out = await fold(fresh, confirmed, snapshot);
    if (out.snapshot_refused || out.refold) {
      // The log does not fold onto the snapshot (it should always): forget it and fold from the start. So does
      // a worker whose rules failed half-way through the new log (``refold``: what it held is gone).
      if (out.snapshot_refused) await dropSnapshot(this.eventId);
      this.snapshotCursor = 0;
      out = await fold(true, await logAfter(this.eventId, 0), null);
    } else if (snapshot) {
      this.snapshotCursor = snapshot.cursor;
    }
    if (ticket < this.appliedTicket) {
      // A fold that read the log later has landed (a rules restart's): this one is older, so it is dropped
      // and the worker folds once more from the newest log. A dropped reset has reset the worker to its older
      // log (a call sent again to a new worker after the restart's recovery): the next fold starts again, or
      // an incremental one would fold only the log after this store's newer cursor onto it (a hole, which
      // a snapshot would then keep).
      this.foldAgain = true;
      if (fresh) this.resetWanted = true;
      return;
    }
    this.appliedTicket = ticket;
    if (fresh) this.foldedWithBase = Boolean(session.base);
    // One snapshot, set at once: the views draw from it and from nothing older.
    this.session = session;
    this.workerCursor = out.cursor;
    if (!out.same_state) this.state = out.state;
    else if (fresh && held) this.state = held;
    this.foldRevision = out.revision ?? null;
    this.rows = rows;
    this.localRejections = out.local_rejections;
    const signature = JSON.stringify([out.cursor, rows.map((r) => [r.seq, r.status]), out.local_rejections]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.revision += 1;  // views re-render only when the data changed
    }
    this.emit();
    this.maybeSaveSnapshot(call);
    // A change waits: its working state is made, and no spare is wanted until the server takes it (one asked for
    // when idle before it would be a third copy of the event in the worker, made while the judge works).
    if (pending.length) clearTimeout(this.spareTimer);
    else if (!out.spare) this.prepareSpare();
  }

  /**
   * Once the screens have drawn, have the worker copy the server's state for the next change made here, so that
   * change applies at once (a copy of a 2,048-player event takes a tablet about half a second).
   */
  prepareSpare() {
    clearTimeout(this.spareTimer);
    this.spareTimer = setTimeout(() => {
      // Without a spare the next change copies the state itself: nothing to report.
      Promise.resolve().then(() => this.call("prepare", { event_id: this.eventId })).catch(() => {});
    }, this.spareDelayMs);
    /** @type {any} */ (this.spareTimer)?.unref?.();  // (Node, in the unit tests: no timer keeps the process up)
  }

  /** This device's snapshot of the event if it was folded for this session (its rules build is checked after). */
  async snapshotFor(session) {
    this.snapshotCursor = 0;  // a fold from the start: none kept until this one is used or one is saved
    let snapshot;
    try {
      snapshot = await getSnapshot(this.eventId);
    } catch {
      return null;  // no snapshot store: fold from the start
    }
    if (!snapshot) return null;
    const fits = snapshot.device === session.device && snapshot.with_base === Boolean(session.base)
      && Number.isInteger(snapshot.cursor) && snapshot.cursor <= (session.cursor ?? 0);
    if (!fits) {
      await dropSnapshot(this.eventId).catch(() => {});
      return null;
    }
    return snapshot;
  }

  /**
   * Keep the server's log folded as a snapshot once it has grown ``snapshotEvery`` operations past the last one:
   * the worker's confirmed state (without the waiting changes), saved after the screens have drawn.
   */
  maybeSaveSnapshot(call) {
    if (this.savingSnapshot || this.snapshotCursor === null) return;
    if (this.workerCursor - this.snapshotCursor < this.snapshotEvery) return;
    this.savingSnapshot = (async () => {
      try {
        const session = this.session;
        // As JSON text: stored and sent back to the worker as it is (a start builds no copy of the event here).
        const [build, folded] = await Promise.all([this.build(), call("confirmed", { event_id: this.eventId, text: true })]);
        if (!Number.isInteger(folded.cursor) || folded.cursor <= this.snapshotCursor) return;
        await putSnapshot({
          event_id: this.eventId, device: session.device, rules_build: build, with_base: this.foldedWithBase,
          cursor: folded.cursor, state_json: folded.state_json, saved_at: Date.now(),
        });
        this.snapshotCursor = folded.cursor;
      } catch (error) {
        console.warn("snapshot not saved:", error.message);  // the next start folds from the older one
      } finally {
        this.savingSnapshot = null;
      }
    })();
  }

  /** What the views draw: the state, the outbox rows and the local refusals of one fold, and its version. */
  get snapshot() {
    return { version: this.revision, state: this.state, rows: this.rows, localRejections: this.localRejections };
  }

  emit() {
    this.heldChange = this.holding;
    if (!this.holding) this.dispatchEvent(new Event("change"));
  }

  /**
   * Would the rules on this device take this change now? ``null`` if so, else ``{reason, code}``: the same
   * answer the server gives, so a change the form is to refuse never waits in the outbox to be refused again.
   */
  async wouldRefuse(type, payload) {
    const s = this.session;
    const op = { type, op_id: `${s.device}:${s.next_seq}`, device: s.device, actor: this.actor(), at: this.now(), payload };
    const out = await rules("check_op", { event_id: this.eventId, op });
    return out.ok ? null : { reason: out.reason, code: out.code };
  }

  /**
   * Apply a change on this device now; it waits in the outbox until the server has it. A closed event takes
   * none (but the tournament report's details): the change is refused here, with the reason, and never queued.
   * ``checkFirst``: a change the rules refuse (a result without what the game needs) is not queued either.
   */
  async act(type, payload, { checkFirst = false } = {}) {
    const closed = closedRefusal(this.state, type, payload);
    if (closed) return { row: null, refused: closed, code: "event-closed" };
    if (checkFirst) {
      const refused = await this.wouldRefuse(type, payload);
      if (refused) return { row: null, refused: refused.reason, code: refused.code };
    }
    const row = await outbox.enqueue(this.eventId, type, payload);
    await this.refold();
    const opId = `${this.session.device}:${row.seq}`;
    const refused = this.localRejections.find((r) => r.op_id === opId);
    requestBackgroundSync();
    this.syncNow();
    return { row, refused: refused ? refused.reason : null };
  }

  /**
   * Apply many changes at once (a pasted or imported roster): each chunk of ``chunk`` operations is one
   * IndexedDB transaction and one fold, then the whole batch is synced once (pushed in the outbox's batches).
   * ``onProgress(done, total)`` after each chunk. Resolves with ``{row, refused}`` per operation, in order.
   * ``ops``: ``[{type, payload}]``.
   */
  async actMany(ops, { chunk = 64, onProgress = null } = {}) {
    // The screens draw once, at the end (a roster redrawn after every chunk would cost more than the chunks).
    this.holding = true;
    try {
      return await this.applyMany(ops, chunk, onProgress);
    } finally {
      this.holding = false;
      if (this.heldChange) this.emit();
    }
  }

  /** ``actMany``'s work, while the screens wait. */
  async applyMany(ops, chunk, onProgress) {
    /** @type {{row: any, refused: string | null, code?: string}[]} */
    const out = [];
    let queued = 0;
    for (let start = 0; start < ops.length; start += chunk) {
      const part = ops.slice(start, start + chunk);
      const open = [];
      for (const op of part) {
        const closed = closedRefusal(this.state, op.type, op.payload);
        out.push(closed ? { row: null, refused: closed, code: "event-closed" } : { row: null, refused: null });
        if (!closed) open.push([out.length - 1, op]);
      }
      if (open.length) {
        const rows = await outbox.enqueueMany(this.eventId, open.map(([, op]) => op));
        queued += rows.length;
        await this.refold();
        const refusals = new Map(this.localRejections.map((r) => [r.op_id, r.reason]));
        rows.forEach((row, i) => {
          out[open[i][0]] = { row, refused: refusals.get(`${this.session.device}:${row.seq}`) ?? null };
        });
      }
      onProgress?.(Math.min(start + chunk, ops.length), ops.length);
    }
    if (queued) {
      requestBackgroundSync();
      this.syncNow();
    }
    return out;
  }

  async dismiss(seq) {
    await outbox.dismiss(this.eventId, seq);
    await this.refold();
  }

  /**
   * Problems to show where they happened: refused by the server, or by the rules on this device
   * (``server: false``). ``error`` is the refusal's code either way ("round-frozen", "not-authorized"...).
   */
  problems() {
    const out = [];
    for (const row of this.rows) {
      if (row.status === "rejected") out.push({ seq: row.seq, op: row.op, reason: row.reason, error: row.error, server: true });
    }
    for (const r of this.localRejections) {
      const seq = Number(r.op_id.split(":").pop());
      const row = this.rows.find((x) => x.seq === seq);
      if (row) out.push({ seq, op: row.op, reason: r.reason, error: r.code ?? "operation-rejected", server: false });
    }
    return out;
  }

  status() {
    // An event made on this device that the server does not have yet counts as one change waiting.
    const unregistered = Boolean(this.session?.pending_create);
    const waiting = this.rows.filter((r) => r.status === "pending" || r.status === "sent").length + (unregistered ? 1 : 0);
    return syncStatus(this, { waiting, unregistered });
  }

  syncNow() {
    return syncOnce(this, () => this.refold());
  }

  startSyncing() {
    if (this.timer) return;
    wireSync(this, SYNC_MS, () => this.refold());
    this.syncNow();
  }

  /**
   * The sync timer: nothing while the app is out of sight (changes made here are sent by Background Sync, and
   * coming back on screen syncs at once); every ``SYNC_MS`` (staff devices: a player's phone has its own store,
   * app/player-store.js, which polls far less often).
   */
  tick(now = Date.now()) {
    if (globalThis.document?.visibilityState === "hidden") return null;
    if (now - (this.lastSyncAt ?? 0) < SYNC_MS / 2) return null;
    return this.syncNow();
  }
}

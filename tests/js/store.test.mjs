// pwa/app/store.js with a fake rules worker: folds run one at a time, an older fold never lands after a newer
// one (a rules restart's), the snapshot's version moves only when the data does, and local refusals carry
// the rules' error code.
import assert from "node:assert/strict";
import { test } from "node:test";
import { deferred, newEventId } from "./support/app.mjs";

const { db, getSession, getSnapshot, putSnapshot, saveSession, updateSession } = await import("../../pwa/data/db.js");
const outbox = await import("../../pwa/data/outbox.js");
const { EventStore } = await import("../../pwa/app/store.js");

/** A fake rules worker whose every "fold" waits until the test answers it; `calls` are the folds asked. */
function fakeRules() {
  const calls = [];
  const call = (fn, args) => {
    assert.equal(fn, "fold");
    const answer = deferred();
    calls.push({ args, answer });
    return answer.promise;
  };
  return { call, calls };
}

const folded = (cursor, label, rejections = []) => ({ cursor, state: { label }, local_rejections: rejections });

/** Resolve once `calls` has reached `n` (a fold is asked after IndexedDB reads). */
async function asked(calls, n) {
  for (let i = 0; i < 200 && calls.length < n; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(calls.length, n, `expected ${n} fold calls`);
}

async function storeWith(call, options = {}) {
  const eventId = newEventId("store");
  const session = await saveSession({ event_id: eventId, token: "tc_test", role: "judge", clock_offset: 0 });
  const store = new EventStore(eventId, { call, build: async () => "build-1", ...options });
  store.session = session;
  return store;
}

/** The server's log of ``n`` operations on this device, the session's cursor at its end. */
async function pulled(eventId, n) {
  const tx = (await db()).transaction("log", "readwrite");
  for (let seq = 1; seq <= n; seq += 1) await tx.store.put({ event_id: eventId, server_seq: seq, op: { type: "x", seq } });
  await tx.done;
  return updateSession(eventId, { cursor: n });
}

test("a change during a fold folds once more after it, never alongside it", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  const first = store.refold(true);
  await asked(fake.calls, 1);
  await outbox.enqueue(store.eventId, "result.report", { round: 1, table: 1 });
  const again = [store.refold(), store.refold()];  // while the first fold is in the worker
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(fake.calls.length, 1, "a second fold started before the first answered");
  fake.calls[0].answer.resolve(folded(5, "first"));
  await asked(fake.calls, 2);  // the two requests made during it run as one fold
  assert.equal(fake.calls[1].args.pending.length, 1, "the fold after it sees the change made meanwhile");
  assert.equal(fake.calls[1].args.reset, false);
  fake.calls[1].answer.resolve(folded(5, "second"));
  await Promise.all([first, ...again]);
  assert.equal(fake.calls.length, 2);
  assert.equal(store.state.label, "second");
});

test("an older fold that answers after a newer one (a rules restart's) is dropped and the store folds again", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  const states = [];
  store.addEventListener("change", () => states.push(store.state.label));
  const queued = store.refold();
  await asked(fake.calls, 1);
  // The rules worker restarts: its recovery folds again from the whole log on the new worker, at once.
  const restarted = store.refold(true, async (fn, args) => {
    assert.equal(args.reset, true);
    return folded(9, "restart");
  });
  await restarted;
  assert.equal(store.state.label, "restart");
  fake.calls[0].answer.resolve(folded(4, "older"));  // the old worker's late answer
  await asked(fake.calls, 2);
  assert.equal(store.state.label, "restart", "an older fold landed after a newer one");
  assert.equal(store.workerCursor, 9);
  fake.calls[1].answer.resolve(folded(9, "newest"));
  await queued;
  assert.deepEqual(states, ["restart", "newest"]);
});

test("the snapshot's version moves when the data changes, not on every fold", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  const fold = async (out) => {
    const done = store.refold();
    await asked(fake.calls, fake.calls.length + 1);
    fake.calls.at(-1).answer.resolve(out);
    await done;
    return store.snapshot;
  };
  const a = await fold(folded(3, "a"));
  const b = await fold(folded(3, "a"));
  const c = await fold(folded(4, "c"));
  const d = await fold(folded(4, "c", [{ op_id: "x:1", reason: "no", code: "operation-rejected" }]));
  assert.equal(a.version, b.version);
  assert.ok(c.version > b.version && d.version > c.version);
  assert.equal(c.state.label, "c");
  assert.deepEqual(d.localRejections.map((r) => r.code), ["operation-rejected"]);
});

test("problems carry the refusal's code: the server's row error, or the rules' code on this device", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  await outbox.enqueue(store.eventId, "round.pair", { number: 2 });
  await outbox.enqueue(store.eventId, "result.correct", { round: 1, table: 3 });
  await outbox.applyVerdicts(store.eventId, [
    { seq: 1, status: "rejected", reason: "round 2 was already paired by desk; reload", error: "already-paired" }]);
  const done = store.refold();
  await asked(fake.calls, 1);
  assert.deepEqual(fake.calls[0].args.pending.map((op) => op.type), ["result.correct"], "a refused row is not folded");
  const opId = fake.calls[0].args.pending[0].op_id;
  fake.calls[0].answer.resolve(folded(1, "s", [{ op_id: opId, reason: "round 1's record cannot change", code: "round-frozen" }]));
  await done;
  assert.deepEqual(store.problems().map((p) => [p.seq, p.error, p.server]), [[1, "already-paired", true], [2, "round-frozen", false]]);
});

/** A store (fake rules worker, build "build-1") whose device pulled 12 operations and saved a snapshot at 10. */
async function withSnapshot(change) {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  const session = await pulled(store.eventId, 12);
  await putSnapshot({ event_id: store.eventId, device: session.device, rules_build: "build-1", with_base: false,
                      cursor: 10, state: { label: "at 10" }, ...change });
  return { fake, store };
}

test("a start folds from this device's snapshot and the log after it", async () => {
  const { fake, store } = await withSnapshot({});
  const done = store.refold(true);
  await asked(fake.calls, 1);
  const { args } = fake.calls[0];
  assert.equal(args.reset, true);
  assert.deepEqual(args.snapshot, { cursor: 10, state: { label: "at 10" } });
  assert.deepEqual(args.confirmed.map((r) => r.server_seq), [11, 12], "only the log after the snapshot");
  fake.calls[0].answer.resolve(folded(12, "from snapshot"));
  await done;
  assert.equal(store.state.label, "from snapshot");
});

test("a snapshot kept as text goes to the worker as that text, with the log after it", async () => {
  const { fake, store } = await withSnapshot({ state: undefined, state_json: '{"label":"at 10"}' });
  const done = store.refold(true);
  await asked(fake.calls, 1);
  const { args } = fake.calls[0];
  assert.deepEqual(args.snapshot, { cursor: 10, state_json: '{"label":"at 10"}' });
  assert.equal(args.known, undefined, "the log after it changes the state: the worker sends it");
  fake.calls[0].answer.resolve(folded(12, "from snapshot"));
  await done;
  assert.equal(store.state.label, "from snapshot");
});

test("a start with nothing after its snapshot reads the state from the snapshot, and the worker sends none", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  const session = await pulled(store.eventId, 10);
  await putSnapshot({ event_id: store.eventId, device: session.device, rules_build: "build-1", with_base: false,
                      cursor: 10, state_json: '{"label":"at 10"}' });
  const done = store.refold(true);
  await asked(fake.calls, 1);
  const { args } = fake.calls[0];
  assert.equal(args.known, "snapshot");
  assert.deepEqual(args.confirmed, []);
  fake.calls[0].answer.resolve({ cursor: 10, local_rejections: [], revision: "w:1", same_state: true });
  await done;
  assert.equal(store.state.label, "at 10");
  assert.equal(store.workerCursor, 10);
});

test("a snapshot whose text is no JSON is refused by the worker and the start folds from operation 1", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  const session = await pulled(store.eventId, 10);
  await putSnapshot({ event_id: store.eventId, device: session.device, rules_build: "build-1", with_base: false,
                      cursor: 10, state_json: '{"label":' });
  const done = store.refold(true);
  await asked(fake.calls, 1);
  assert.equal(fake.calls[0].args.known, undefined, "the page could not read it: the worker is to send the state");
  fake.calls[0].answer.resolve({ snapshot_refused: true });
  await asked(fake.calls, 2);
  assert.equal(fake.calls[1].args.snapshot, undefined);
  fake.calls[1].answer.resolve(folded(10, "whole"));
  await done;
  assert.equal(store.state.label, "whole");
});

for (const [what, change] of [
  ["another rules build", { rules_build: "build-0" }],
  ["another device of this event", { device: "judge-someoneelse" }],
  ["a fold without the event's starting document", { with_base: true }],
  ["a cursor past this device's log", { cursor: 13 }],
]) {
  test(`a snapshot of ${what} is dropped and the fold starts from operation 1`, async () => {
    const { fake, store } = await withSnapshot(change);
    const done = store.refold(true);
    await asked(fake.calls, 1);
    assert.equal(fake.calls[0].args.snapshot, undefined);
    assert.equal(fake.calls[0].args.confirmed.length, 12);
    fake.calls[0].answer.resolve(folded(12, "whole"));
    await done;
    assert.equal(await getSnapshot(store.eventId), undefined, "the unusable snapshot is gone");
  });
}

test("a snapshot the log does not fold onto is forgotten and the fold starts again from operation 1", async () => {
  const { fake, store } = await withSnapshot({ state: { label: "bad" } });
  const done = store.refold(true);
  await asked(fake.calls, 1);
  fake.calls[0].answer.resolve({ snapshot_refused: true });
  await asked(fake.calls, 2);
  assert.equal(fake.calls[1].args.snapshot, undefined);
  assert.equal(fake.calls[1].args.reset, true);
  assert.equal(fake.calls[1].args.confirmed.length, 12);
  fake.calls[1].answer.resolve(folded(12, "whole"));
  await done;
  assert.equal(store.state.label, "whole");
  assert.equal(await getSnapshot(store.eventId), undefined);
});

test("a worker whose rules failed half-way through the new log folds again from operation 1, keeping the snapshot", async () => {
  const { fake, store } = await withSnapshot({});
  await pulled(store.eventId, 12);
  store.workerCursor = 11;  // the worker folded up to 11: the next fold brings 12
  store.session = await getSession(store.eventId);
  store.foldedWithBase = false;
  const done = store.refold();
  await asked(fake.calls, 1);
  assert.equal(fake.calls[0].args.reset, false);
  fake.calls[0].answer.resolve({ refold: true });
  await asked(fake.calls, 2);
  assert.equal(fake.calls[1].args.reset, true);
  assert.equal(fake.calls[1].args.confirmed.length, 12, "from operation 1");
  fake.calls[1].answer.resolve(folded(12, "whole"));
  await done;
  assert.equal(store.state.label, "whole");
  assert.equal((await getSnapshot(store.eventId))?.cursor, 10, "the snapshot is not what failed: it is kept");
});

test("a state the store holds is not sent again: the worker answers same_state to the revision it knows", async () => {
  const fake = fakeRules();
  const store = await storeWith(fake.call);
  await pulled(store.eventId, 2);
  const start = store.refold(true);
  await asked(fake.calls, 1);
  assert.equal(fake.calls[0].args.known, undefined, "a fold from the start always gets the state");
  fake.calls[0].answer.resolve({ ...folded(2, "big"), revision: "w:1" });
  await start;
  const version = store.snapshot.version;
  const sync = store.refold();
  await asked(fake.calls, 2);
  assert.equal(fake.calls[1].args.known, "w:1");
  fake.calls[1].answer.resolve({ cursor: 2, local_rejections: [], revision: "w:1", same_state: true });
  await sync;
  assert.equal(store.state.label, "big", "the state it held is kept");
  assert.equal(store.snapshot.version, version, "nothing to draw again");
  const reset = store.refold(true);
  await asked(fake.calls, 3);
  assert.equal(fake.calls[2].args.known, undefined);
  fake.calls[2].answer.resolve({ ...folded(2, "again"), revision: "w2:1" });
  await reset;
  assert.equal(store.state.label, "again");
});

test("once idle after a fold that left no spare and nothing waiting, the worker is asked for one", async () => {
  const asks = [];
  let spare = false;
  const call = async (fn, args) => {
    asks.push(fn);
    if (fn === "prepare") return { spare: true };
    return { ...folded(args.confirmed.at(-1)?.server_seq ?? 0, "folded"), spare };
  };
  const store = await storeWith(call, { spareDelayMs: 5 });
  await pulled(store.eventId, 3);
  await store.refold(true);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(asks, ["fold", "prepare"]);
  spare = true;  // the worker has one: not asked again
  await store.refold();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(asks, ["fold", "prepare", "fold"]);
  spare = false;  // a change waits: it has its working state, no spare is needed until the server takes it
  await outbox.enqueue(store.eventId, "result.report", { round: 1, table: 1 });
  await store.refold();
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(asks, ["fold", "prepare", "fold", "fold"]);
});

test("a change made before the idle timer fires cancels the spare: its working state is made already", async () => {
  const asks = [];
  const call = async (fn, args) => {
    asks.push(fn);
    if (fn === "prepare") return { spare: true };
    return { ...folded(args.confirmed.at(-1)?.server_seq ?? 0, "folded"), spare: false };
  };
  const store = await storeWith(call, { spareDelayMs: 20 });
  await pulled(store.eventId, 3);
  await store.refold(true);  // idle, no spare: one is asked for in 20 ms
  await outbox.enqueue(store.eventId, "result.report", { round: 1, table: 1 });
  await store.refold();  // a judge's change before then
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.deepEqual(asks, ["fold", "fold"], "no third copy of the state in the worker while a change waits");
});

test("a snapshot is saved once the log has grown enough past the last one, and only then", async () => {
  const asks = [];
  const call = async (fn, args) => {
    asks.push(fn);
    if (fn === "confirmed") {
      assert.equal(args.text, true, "the snapshot is asked for as JSON text");
      return { cursor: 12, state_json: JSON.stringify({ label: "confirmed at 12" }) };
    }
    return folded(args.confirmed.at(-1)?.server_seq ?? 0, "folded");
  };
  const store = await storeWith(call, { snapshotEvery: 10 });
  const session = await pulled(store.eventId, 9);
  await store.refold(true);
  await store.savingSnapshot;
  assert.deepEqual(asks, ["fold"], "9 operations: no snapshot yet");
  await pulled(store.eventId, 12);
  await store.refold();
  await store.savingSnapshot;
  assert.deepEqual(asks, ["fold", "fold", "confirmed"]);
  const saved = await getSnapshot(store.eventId);
  assert.deepEqual([saved.device, saved.rules_build, saved.with_base, saved.cursor, JSON.parse(saved.state_json).label],
                   [session.device, "build-1", false, 12, "confirmed at 12"]);
  assert.equal(saved.state, undefined, "kept as text only");
  await store.refold();
  await store.savingSnapshot;
  assert.deepEqual(asks, ["fold", "fold", "confirmed", "fold"], "no second snapshot at the same place");
});

/** A snapshot's state (saved or sent as JSON text, or as an object). */
const stateOf = (snapshot) => (typeof snapshot.state_json === "string" ? JSON.parse(snapshot.state_json) : snapshot.state);

/** rules_api.confirmed's answer: the state as JSON text when asked so. */
const confirmedAs = (args, cursor, state) => (args.text ? { cursor, state_json: JSON.stringify(state) } : { cursor, state });

/**
 * A model of pwa/rules/rules_api.py's fold, per event: ``{cursor, seqs}`` (the server_seqs folded). ``hold(args)``
 * true: the call is answered (and run in the worker) only when the test releases it.
 */
function modelRules(hold = () => false) {
  const entries = new Map();
  const held = [];
  const run = (fn, args) => {
    if (fn === "confirmed") {
      const e = entries.get(args.event_id);
      return confirmedAs(args, e.cursor, { seqs: [...e.seqs] });
    }
    let e = entries.get(args.event_id);
    if (args.reset || !e) {
      e = args.snapshot ? { cursor: args.snapshot.cursor, seqs: [...stateOf(args.snapshot).seqs] } : { cursor: 0, seqs: [] };
      entries.set(args.event_id, e);
    }
    const fresh = args.confirmed.filter((r) => r.server_seq > e.cursor);
    if (fresh.length) {
      e.seqs.push(...fresh.map((r) => r.server_seq));
      e.cursor = Math.max(...args.confirmed.map((r) => r.server_seq));
    }
    return { cursor: e.cursor, state: { seqs: [...e.seqs] }, local_rejections: [] };
  };
  const call = async (fn, args) => {
    if (hold(fn, args)) {
      const answer = deferred();
      held.push({ release: () => answer.resolve(run(fn, args)) });
      return answer.promise;
    }
    return run(fn, args);
  };
  return { call, held, entries };
}

test("a reset fold that lands after a rules restart's newer one makes the next fold start again", async () => {
  // The worker hangs on a reset fold (the event's starting document arrived); the restart's recovery folds the
  // newer log on the new worker, then the old call is sent again and resets the worker to the older log.
  let holding = false;
  const model = modelRules((fn, args) => holding && fn === "fold" && args.reset);
  const store = await storeWith(model.call, { snapshotEvery: 5 });
  await pulled(store.eventId, 10);
  await store.refold(true);
  assert.equal(store.workerCursor, 10);
  await updateSession(store.eventId, { base: { format: "topcut-event/1" } });
  holding = true;
  const queued = store.refold();  // a reset: the fold with the starting document
  for (let i = 0; i < 200 && !model.held.length; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(model.held.length, 1);
  holding = false;
  await pulled(store.eventId, 15);  // syncs go on while the worker hangs
  await store.refold(true, (fn, args) => model.call(fn, args));  // the restart's recovery, on the new worker
  assert.equal(store.workerCursor, 15);
  await pulled(store.eventId, 20);
  model.held[0].release();  // the old call, sent again to the new worker after the recovery
  await queued;
  await store.savingSnapshot;
  const all = Array.from({ length: 20 }, (_, i) => i + 1);
  assert.deepEqual(model.entries.get(store.eventId).seqs, all, "the worker lost operations of the log");
  const saved = await getSnapshot(store.eventId);
  if (saved) assert.deepEqual(stateOf(saved).seqs, all.slice(0, saved.cursor), "a snapshot with a hole was kept");
});

test("a device that joins the event again with another role folds the new role's log, and keeps no snapshot of the old", async () => {
  // The page keeps the event's store open while the device joins again (home screen, another code): the log
  // pulled as a judge must not stay under the player's session, folded or as a snapshot.
  const folds = [];
  const entries = new Map();
  const call = async (fn, args) => {
    if (fn === "confirmed") return confirmedAs(args, entries.get(args.event_id).cursor, { ops: [...entries.get(args.event_id).ops] });
    folds.push(args);
    let e = entries.get(args.event_id);
    if (args.reset || !e) {
      e = args.snapshot ? { cursor: args.snapshot.cursor, ops: [...stateOf(args.snapshot).ops] } : { cursor: 0, ops: [] };
      entries.set(args.event_id, e);
    }
    const fresh = args.confirmed.filter((r) => r.server_seq > e.cursor);
    if (fresh.length) {
      e.ops.push(...fresh.map((r) => `${r.server_seq}:${r.op.view}`));
      e.cursor = Math.max(...args.confirmed.map((r) => r.server_seq));
    }
    return { cursor: e.cursor, state: { ops: [...e.ops] }, local_rejections: [] };
  };
  const store = await storeWith(call, { snapshotEvery: 4 });
  const put = async (from, to, view) => {
    const tx = (await db()).transaction("log", "readwrite");
    for (let seq = from; seq <= to; seq += 1) await tx.store.put({ event_id: store.eventId, server_seq: seq, op: { type: "x", view } });
    await tx.done;
    return updateSession(store.eventId, { cursor: to });
  };
  await put(1, 12, "judge");
  await store.refold(true);
  await store.savingSnapshot;
  assert.equal(store.workerCursor, 12);
  const player = await saveSession({ event_id: store.eventId, token: "tc_player", role: "player", player: "p1" });
  assert.notEqual(player.device, store.session.device);
  await put(1, 8, "player");  // the player's first pull: the log stops before a round still in draft
  await store.refold();
  await store.savingSnapshot;
  const expected = Array.from({ length: 8 }, (_, i) => `${i + 1}:player`);
  assert.deepEqual(entries.get(store.eventId).ops, expected, "the judge's log is still folded for the player");
  const saved = await getSnapshot(store.eventId);
  if (saved) {
    assert.equal(saved.device, player.device);
    assert.deepEqual(stateOf(saved).ops, expected.slice(0, saved.cursor), "a snapshot of the judge's log for the player");
  }
  // And a start from it folds the same.
  const again = new EventStore(store.eventId, { call, build: async () => "build-1", snapshotEvery: 4 });
  again.session = player;
  await again.refold(true);
  assert.deepEqual(entries.get(store.eventId).ops, expected);
});

test("the sync timer syncs on each tick and waits while the app is out of sight", async () => {
  const store = await storeWith(async () => folded(0, "x"));
  let syncs = 0;
  store.syncNow = () => { syncs += 1; store.lastSyncAt = now; };
  let now = 1_000_000;
  const every = 5000;  // SYNC_MS: no topcut.syncMs in these tests
  store.session = { ...store.session, role: "judge" };
  for (let i = 0; i < 4; i += 1) { now += every; store.tick(now); }
  assert.equal(syncs, 4, "staff: every tick");
  globalThis.document = { visibilityState: "hidden" };
  try {
    syncs = 0;
    store.session = { ...store.session, role: "judge" };
    for (let i = 0; i < 4; i += 1) { now += every; store.tick(now); }
    assert.equal(syncs, 0, "out of sight: none");
  } finally {
    delete globalThis.document;
  }
});

test("many changes at once are stored and folded a chunk at a time, with progress and each one's refusal", async () => {
  const folds = [];
  let store;
  const call = async (fn, args) => {
    folds.push(args.pending.length);
    // The rules refuse the operation registering "dup" (as a repeated player id would be).
    const rejections = args.pending.filter((op) => op.payload.player.id === "dup")
      .map((op) => ({ op_id: op.op_id, reason: "player.register: player id dup is already registered", code: "operation-rejected" }));
    return folded(0, "folded", rejections);
  };
  store = await storeWith(call);
  let synced = 0;
  store.syncNow = () => { synced += 1; };
  const ops = Array.from({ length: 10 }, (_, i) => ({ type: "player.register", payload: { player: { id: i === 7 ? "dup" : `p${i}`, name: `P ${i}` } } }));
  const progress = [];
  let changes = 0;
  store.addEventListener("change", () => { changes += 1; });
  const out = await store.actMany(ops, { chunk: 4, onProgress: (done, total) => progress.push([done, total, changes]) });
  assert.deepEqual(progress, [[4, 10, 0], [8, 10, 0], [10, 10, 0]], "the screens wait while the batch runs");
  assert.equal(changes, 1, "and draw once after it");
  assert.deepEqual(folds, [4, 8, 10], "one fold per chunk, each with every change waiting so far");
  assert.equal(synced, 1, "the whole batch is synced once");
  assert.deepEqual(out.map((r) => r.row.seq), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(out.map((r) => Boolean(r.refused)), ops.map((_, i) => i === 7));
  assert.match(out[7].refused, /already registered/);
  assert.equal((await outbox.rows(store.eventId)).length, 10);
});

test("many changes on a closed event are refused on the device and none is queued", async () => {
  const store = await storeWith(async () => folded(0, "folded"));
  store.state = { closed: true };
  store.syncNow = () => assert.fail("nothing to sync");
  const out = await store.actMany([{ type: "player.register", payload: { player: { id: "a", name: "A" } } }]);
  assert.equal(out[0].code, "event-closed");
  assert.deepEqual(await outbox.rows(store.eventId), []);
});

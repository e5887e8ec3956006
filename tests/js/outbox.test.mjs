// pwa/data/outbox.js on IndexedDB (fake-indexeddb): gapless sequence numbers, the server's verdicts, settling
// after a pull, dismissing a refusal (the slot stays, as a void operation) and filling a hole.
import assert from "node:assert/strict";
import { test } from "node:test";
import { newEventId } from "./support/app.mjs";

const { getSession, saveSession } = await import("../../pwa/data/db.js");
const outbox = await import("../../pwa/data/outbox.js");

async function joined(extra = {}) {
  const eventId = newEventId("outbox");
  await saveSession({ event_id: eventId, token: "tc_test", role: "judge", clock_offset: 0, ...extra });
  return eventId;
}

const summary = (rows) => rows.map((r) => [r.seq, r.status, r.op.type]);

test("enqueue takes the next sequence number in the same transaction and stores the change as pending", async () => {
  const eventId = await joined();
  const a = await outbox.enqueue(eventId, "result.report", { round: 1, table: 1 });
  const b = await outbox.enqueue(eventId, "penalty.issue", { player: "p1" });
  assert.deepEqual([a.seq, b.seq], [1, 2]);
  assert.equal((await getSession(eventId)).next_seq, 3);
  assert.deepEqual(summary(await outbox.rows(eventId)), [[1, "pending", "result.report"], [2, "pending", "penalty.issue"]]);
  assert.deepEqual((await outbox.unsent(eventId)).map((r) => r.seq), [1, 2]);
});

test("enqueue stamps a change with the server's time, not this device's clock", async () => {
  const eventId = await joined({ clock_offset: 3_600_000 });
  const before = Date.now();
  const row = await outbox.enqueue(eventId, "round.start", { number: 1 });
  assert.ok(row.op.at >= before + 3_600_000 && row.op.at <= Date.now() + 3_600_000);
});

test("enqueueMany stores a whole roster in order with consecutive sequence numbers after the ones taken", async () => {
  const eventId = await joined();
  await outbox.enqueue(eventId, "player.register", { player: { id: "p0", name: "First" } });
  const ops = Array.from({ length: 300 }, (_, i) => ({ type: "player.register", payload: { player: { id: `p${i + 1}`, name: `P ${i + 1}` } } }));
  const made = await outbox.enqueueMany(eventId, ops);
  assert.deepEqual(made.map((r) => r.seq), Array.from({ length: 300 }, (_, i) => i + 2));
  assert.equal((await getSession(eventId)).next_seq, 302);
  const stored = await outbox.rows(eventId);
  assert.equal(stored.length, 301);
  assert.deepEqual(stored.slice(1).map((r) => r.op.payload.player.id), ops.map((o) => o.payload.player.id));
  assert.ok(stored.every((r) => r.status === "pending"));
  const next = await outbox.enqueue(eventId, "player.drop", { player: "p1" });
  assert.equal(next.seq, 302);
});

test("enqueueMany refuses an event this device has not joined and stores nothing", async () => {
  const eventId = newEventId("outbox");
  await assert.rejects(outbox.enqueueMany(eventId, [{ type: "player.register", payload: {} }]), /has not joined/);
  assert.deepEqual(await outbox.rows(eventId), []);
});

test("enqueue refuses an event this device has not joined and stores nothing", async () => {
  const eventId = newEventId("outbox");
  await assert.rejects(outbox.enqueue(eventId, "result.report", {}), /has not joined/);
  assert.deepEqual(await outbox.rows(eventId), []);
});

test("verdicts mark accepted rows sent and refused rows rejected with the reason and the error code", async () => {
  const eventId = await joined();
  for (let i = 0; i < 3; i += 1) await outbox.enqueue(eventId, "result.report", { table: i + 1 });
  await outbox.applyVerdicts(eventId, [
    { seq: 1, status: "accepted", server_seq: 40 },
    { seq: 2, status: "rejected", reason: "round 1's record cannot change", error: "round-frozen" },
    { seq: 9, status: "accepted", server_seq: 41 },  // no such row: ignored
  ]);
  const [first, second, third] = await outbox.rows(eventId);
  assert.deepEqual([first.status, first.server_seq], ["sent", 40]);
  assert.deepEqual([second.status, second.reason, second.error], ["rejected", "round 1's record cannot change", "round-frozen"]);
  assert.equal(third.status, "pending");
  assert.deepEqual((await outbox.waiting(eventId)).map((r) => r.seq), [1, 3]);
  assert.deepEqual((await outbox.rejected(eventId)).map((r) => r.seq), [2]);
  assert.deepEqual((await outbox.unsent(eventId)).map((r) => r.seq), [3]);
});

test("settling after a pull drops what the log holds and keeps each refusal, marked, where it happened", async () => {
  const eventId = await joined();
  for (let i = 0; i < 4; i += 1) await outbox.enqueue(eventId, "result.report", { table: i + 1 });
  await outbox.applyVerdicts(eventId, [{ seq: 1, status: "accepted", server_seq: 7 }]);
  await outbox.settle(eventId, 3, [{ seq: 2, reason: "a player may not do this", error: "not-authorized" }]);
  const rows = await outbox.rows(eventId);
  assert.deepEqual(summary(rows), [[2, "rejected", "result.report"], [4, "pending", "result.report"]]);
  assert.deepEqual([rows[0].reason, rows[0].error], ["a player may not do this", "not-authorized"]);
});

test("dismissing a refusal the server has processed forgets the row", async () => {
  const eventId = await joined();
  await outbox.enqueue(eventId, "result.report", { table: 1 });
  await outbox.applyVerdicts(eventId, [{ seq: 1, status: "rejected", reason: "no", error: "operation-rejected" }]);
  await outbox.dismiss(eventId, 1);
  assert.deepEqual(await outbox.rows(eventId), []);
});

test("dismissing a change not sent yet keeps its sequence slot as a void operation, so later changes still send", async () => {
  const eventId = await joined();
  await outbox.enqueue(eventId, "result.report", { table: 1 });
  await outbox.enqueue(eventId, "penalty.issue", { player: "p1" });
  await outbox.dismiss(eventId, 1);
  const rows = await outbox.rows(eventId);
  assert.deepEqual(summary(rows), [[1, "pending", "device.void"], [2, "pending", "penalty.issue"]]);
  assert.deepEqual(rows[0].op.payload, { dismissed: "result.report" });
  assert.deepEqual([rows[0].reason, rows[0].error], [null, null]);
  assert.deepEqual((await outbox.unsent(eventId)).map((r) => r.seq), [1, 2]);
});

test("a hole in the sequence is filled with void operations up to the first unsent change", async () => {
  const eventId = await joined();
  for (let i = 0; i < 5; i += 1) await outbox.enqueue(eventId, "result.report", { table: i + 1 });
  await outbox.settle(eventId, 1, []);  // seq 1 is in the log
  const { db } = await import("../../pwa/data/db.js");
  const store = (await db()).transaction("outbox", "readwrite").store;
  await store.delete([eventId, 2]);
  await store.delete([eventId, 3]);  // lost by an older version: a hole the server would wait on forever
  assert.equal(await outbox.fillGap(eventId, 2), 2);
  assert.deepEqual(summary(await outbox.rows(eventId)),
    [[2, "pending", "device.void"], [3, "pending", "device.void"], [4, "pending", "result.report"], [5, "pending", "result.report"]]);
  assert.equal(await outbox.fillGap(eventId, 2), 0);
});

// A closed event refuses changes on the device itself (pwa/app/store.js closedRefusal: nothing is queued to be
// refused later), but the tournament report's details, written after the event.
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { CLOSED_REASON, closedRefusal } = await import("../../pwa/app/store.js");

test("a closed event refuses every change but the tournament report's details", () => {
  const closed = { closed: true };
  for (const [type, payload] of [
    ["result.report", { round: 1, table: 1, outcomes: ["win", "loss"] }],
    ["penalty.issue", { player: "p1", kind: "warning", reason: "x" }],
    ["penalty.rescind", { penalty: "hj:1", reason: "x" }],
    ["player.register", { player: { id: "p9" } }],
    ["round.pair", { number: 4, matches: [] }],
    ["event.configure", { name: "Renamed" }],
    ["event.configure", { settings: { report: {}, rounds: 3 } }],
  ]) {
    assert.equal(closedRefusal(closed, type, payload), CLOSED_REASON, type);
  }
  assert.equal(closedRefusal(closed, "event.configure", { settings: { report: { region: "Bajor" } } }), null);
  assert.equal(closedRefusal({ closed: false }, "result.report", {}), null);
  assert.equal(closedRefusal(null, "result.report", {}), null);
  assert.match(CLOSED_REASON, /^The event is closed/);
});

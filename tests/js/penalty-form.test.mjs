// The penalty form foresees what the rules will make of a penalty (pwa/views/penalties.js foreseen, as
// shared_rules/state/penalties.py decide counts: a repeat upgraded, a warning that ejects, rescinded ones not
// counted) so it asks to confirm the ones with a consequence.
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { foreseen, standingPenalties } = await import("../../pwa/views/penalties.js");

const TREK = {
  system: "levels",
  choices: [["0", "Level 0"], ["1", "Level 1"], ["2", "Level 2"], ["3", "Level 3"], ["4", "Level 4"]],
  consequences: { 3: "game", 4: "dq" },
  source: "Star Trek OP Guide Appendix B",
};
const SHATTERPOINT = {
  system: "kinds",
  choices: [["warning", "Warning"], ["ejection", "Ejection"]],
  consequences: { ejection: "ejected" },
  ejection_warnings: 3,
  source: "Shatterpoint: Arbiters",
};

test("a repeat of the same infraction is foreseen upgraded, a rescinded one is not counted", () => {
  const state = { penalties: [
    { player: "p1", infraction: "C3", reason: "a", kind: "turn-loss", level: 2 },
    { player: "p1", infraction: "C3", reason: "b", kind: "game-loss", level: 3, rescinded: { reason: "appeal" } },
    { player: "p2", infraction: "C3", reason: "c", kind: "turn-loss", level: 2 },
  ] };
  assert.equal(standingPenalties(state).length, 2);
  const coming = foreseen(TREK, state, { player: "p1", level: 2, infraction: "C3", reason: "again" });
  assert.equal(coming.value, "3");
  assert.match(coming.why, /upgraded from level 2/);
  assert.deepEqual(foreseen(TREK, state, { player: "p3", level: 4, reason: "x" }), { value: "4", why: "" });
  assert.equal(foreseen(TREK, state, { player: "p1", level: 4, infraction: "C3", reason: "x" }).value, "4", "capped");
});

test("the warning that ejects is foreseen as an ejection (Shatterpoint: three warnings)", () => {
  const warned = (n) => ({ penalties: Array.from({ length: n }, () => ({ player: "p1", kind: "warning" })) });
  assert.equal(foreseen(SHATTERPOINT, warned(1), { player: "p1", kind: "warning" }).value, "warning");
  const third = foreseen(SHATTERPOINT, warned(2), { player: "p1", kind: "warning" });
  assert.equal(third.value, "ejection");
  assert.match(third.why, /warning number 3/);
  assert.equal(foreseen(SHATTERPOINT, warned(2), { player: "p2", kind: "warning" }).value, "warning");
});

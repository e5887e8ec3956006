// The day's smaller words: Doomtown's fixed warning respects the round's length (pwa/ui/timer.js warningNote),
// the league's coin flip shows the draw's order, never the raw number (pwa/views/league.js coinFlipText), and
// staff devices are named by their invitations (pwa/ui/dom.js withNames, pwa/ui/result-form.js reporterText).
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { warningNote } = await import("../../pwa/ui/timer.js");
const { coinFlipText } = await import("../../pwa/views/league.js");
const { withNames } = await import("../../pwa/ui/dom.js");
const { reporterText } = await import("../../pwa/ui/result-form.js");

const DOOMTOWN = { round_minutes: 60, warning_minute: 55 };
const minute = 60_000;

test("the 55-minute warning shows from minute 55 of a round long enough to reach it, and never under a 1-minute round", () => {
  const hour = { duration_s: 3600, extended_s: 0 };
  assert.equal(warningNote(DOOMTOWN, { ...hour, announced_ms: 6 * minute }), null, "minute 54");
  assert.equal(warningNote(DOOMTOWN, { ...hour, announced_ms: 5 * minute }), "55-minute warning");
  assert.equal(warningNote(DOOMTOWN, { ...hour, announced_ms: 0 }), null, "the announced hour is over");
  assert.equal(warningNote(DOOMTOWN, { duration_s: 60, extended_s: 0, announced_ms: 30_000 }), null, "a 1-minute round");
  const extended = { duration_s: 3600, extended_s: 300 };
  assert.equal(warningNote(DOOMTOWN, { ...extended, announced_ms: 11 * minute }), null, "five minutes added: minute 54 of play");
  assert.equal(warningNote(DOOMTOWN, { ...extended, announced_ms: 10 * minute }), "55-minute warning", "minute 55 of play");
  assert.equal(warningNote({ round_minutes: 50 }, { ...hour, announced_ms: minute }), null, "a game without one");
});

test("the coin flip column shows the order the draw put tied players in, not the number drawn", () => {
  const keys = [{ key: "points" }, { key: "coin_flip" }];
  const ranking = [
    { rank: 1, person: "a", tiebreakers: { points: 12, coin_flip: 8_123_456_789_012_345 }, decided_by: null },
    { rank: 2, person: "b", tiebreakers: { points: 9, coin_flip: 7_123_456_789_012_345 }, decided_by: "points" },
    { rank: 3, person: "c", tiebreakers: { points: 9, coin_flip: 1_123_456_789_012_345 }, decided_by: "coin_flip" },
  ];
  assert.deepEqual(ranking.map((r) => coinFlipText(ranking, keys, r)), ["—", "won the draw (of 2)", "2 of 2 in the draw"]);
});

test("a staff device is named by the name its invitation gave it", () => {
  const state = { players: [{ id: "p1", name: "Ash" }] };
  const staff = { "judge-ju3v9esnrd": "Floor Judge Bo" };
  assert.equal(withNames(state, "round 1 was already paired by judge-ju3v9esnrd", staff), "round 1 was already paired by Floor Judge Bo");
  const report = { device: "judge-ju3v9esnrd", actor: { role: "judge" } };
  assert.equal(reporterText(state, report, staff), "Floor Judge Bo (judge)");
  assert.equal(reporterText(state, report), "Judge on judge-ju3v9esnrd", "a device without a name keeps its id");
  const organizer = { device: "remote", actor: { role: "organizer" } };
  assert.equal(reporterText(state, organizer, { remote: "organizer" }), "Organizer", "named only by its role");
});

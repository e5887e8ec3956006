// pwa/ui/dom.js: players' names read once per folded state.
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { names, nameOf } = await import("../../pwa/ui/dom.js");

test("a state's names are one map, made once, and a new state gets its own", () => {
  const players = Array.from({ length: 2048 }, (_, i) => ({ id: `p${i}`, name: `Player ${i}` }));
  const state = { players };
  const map = names(state);
  assert.equal(names(state), map, "the same state: the same map");
  assert.equal(nameOf(state, "p2047"), "Player 2047");
  assert.equal(nameOf(state, "nobody"), "nobody", "an unknown id is shown as it is");
  const next = { players: [...players.slice(0, 2047), { id: "p2047", name: "Renamed" }] };
  assert.equal(nameOf(next, "p2047"), "Renamed", "the next fold's state: read afresh");
  assert.equal(names(null).size, 0);
});

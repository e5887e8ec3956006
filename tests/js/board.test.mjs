// pwa/ui/board.js on happy-dom: the hall board's rows and its pages across sections (pairings, standings).
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";
import { window } from "./support/dom.mjs";

globalThis.getComputedStyle ??= (el) => window.getComputedStyle(el);
globalThis.ResizeObserver ??= window.ResizeObserver ?? class { observe() {} disconnect() {} };
const { boardPager, boardRows, pageRange } = await import("../../pwa/ui/board.js");
const { document } = window;

const state = {
  players: [{ id: "a", name: "Zoë" }, { id: "b", name: "ada" }, { id: "c", name: "Émile" }, { id: "d", name: "Bo" }, { id: "e", name: "Cy" }],
};
const rnd = { number: 2, stage: "swiss", matches: [{ table: 2, players: ["a", "b"] }, { table: 1, players: ["c", "d"] }, { table: null, players: ["e"] }] };

test("pairings by name: one row per player, A to Z whatever the case and accents, with table and opponent", () => {
  const rows = boardRows(state, rnd, "name");
  assert.deepEqual(rows.map((r) => [r.name, r.table, r.opponent]),
    [["ada", 2, "Zoë"], ["Bo", 1, "Émile"], ["Cy", null, "bye"], ["Émile", 1, "Bo"], ["Zoë", 2, "ada"]]);
  assert.equal(pageRange(rows.slice(0, 3), "name"), "A–C");
});

test("pairings by table: one row per match, tables in order, the bye last", () => {
  const rows = boardRows(state, rnd, "table");
  assert.deepEqual(rows.map((r) => r.table), [1, 2, null]);
  assert.equal(pageRange(rows.slice(0, 2), "table"), "Tables 1–2");
  assert.equal(pageRange([{ rank: 1 }, { rank: 40 }], "standings"), "Ranks 1–40");
});

test("the pager runs through each section's pages in turn, then starts again", (t) => {
  const drawn = [];
  const pager = boardPager({ pageMs: 60_000, onDraw: (d) => drawn.push(`${d.section.kind}:${d.page}/${d.pages}`) });
  t.after(() => pager.destroy());
  document.body.replaceChildren(pager.area);
  // happy-dom lays nothing out: one row fits, so each row is a page.
  pager.show([{ kind: "name", title: "Round 2 pairings by name", rows: boardRows(state, rnd, "name") },
              { kind: "standings", title: "Standings after round 1", rows: [{ rank: 1, name: "Bo", points: 3, record: "1-0-0" }] }]);
  for (let i = 0; i < 6; i += 1) pager.turn(1);
  assert.deepEqual(drawn, ["name:1/6", "name:2/6", "name:3/6", "name:4/6", "name:5/6", "standings:6/6", "name:1/6"]);
  assert.equal(pager.area.dataset.kind, "name");
  pager.end();
  assert.equal(pager.area.querySelector(".board-row.standing .board-name").textContent, "Bo");
  // New data for the same sections keeps the page on screen; other sections start from the first page.
  pager.show([{ kind: "name", title: "Round 2 pairings by name", rows: boardRows(state, rnd, "name") },
              { kind: "standings", title: "Standings after round 1", rows: [{ rank: 1, name: "Bo", points: 3, record: "1-0-0" }] }],
  { keepPage: true });
  assert.equal(drawn.at(-1), "standings:6/6");
  pager.show([{ kind: "standings", title: "Standings after round 2", rows: [] , empty: "Soon." }], { keepPage: true });
  assert.equal(drawn.at(-1), "standings:1/1");
  assert.equal(pager.area.textContent, "Soon.");
});

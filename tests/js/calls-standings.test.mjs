// pwa/ui/calls.js and pwa/ui/standings.js on happy-dom: what staff, the big screen and a player's phone show.
import assert from "node:assert/strict";
import { test } from "node:test";
import { window } from "./support/dom.mjs";

const { agoLabel, callStrip, refreshAgo, openCalls, callPlace } = await import("../../pwa/ui/calls.js");
const { phoneStandings } = await import("../../pwa/ui/standings.js");
const { document } = window;

const call = (fields) => ({ id: "x:1", kind: "judge", by: { role: "player", player: "p1" }, player: "p1", table: 12,
  round: 2, reason: "Rules question", where: null, note: null, at: 0, on_my_way: null, answered_by: null,
  answered_at: null, ...fields });
const state = (calls) => ({ players: [{ id: "p1", name: "Annie Oakley" }, { id: "p2", name: "Bat Masterson" }], calls });

test("the big screen names the table of each open judge call and never the player who called", () => {
  const strip = callStrip(state([call({}), call({ id: "x:2", table: 3, answered_at: 5 })]));
  assert.equal(strip.textContent, "Judge called to table 12");
  assert.ok(!strip.textContent.includes("Annie"));
  assert.equal(callStrip(state([])), null);
});

test("a call answered as done is no longer open; on my way keeps it open and says so", () => {
  const coming = call({ on_my_way: { by: { role: "judge" }, at: 1 } });
  assert.deepEqual(openCalls(state([coming, call({ id: "x:2", answered_at: 9 })])).map((c) => c.id), ["x:1"]);
  assert.equal(callStrip(state([coming])).textContent, "Judge called to table 12 — on the way");
  assert.equal(callPlace(call({ kind: "player", table: null, where: "judge-station" })), "the judge station");
});

test("a phone's standings have four columns, the player's own row marked, tiebreakers behind a tap", () => {
  const rows = [
    { rank: 1, player: "p2", name: "Bat Masterson", record: "2-0-0", points: 6, tiebreakers: { owp: 0.5 } },
    { rank: 2, player: "p1", name: "Annie Oakley", record: "1-1-0", points: 3, tiebreakers: { owp: 0.6667 } },
  ];
  const table = phoneStandings(rows, { me: "p1", labels: { owp: "Op Win %" } });
  document.body.replaceChildren(table);
  assert.deepEqual([...table.querySelectorAll("thead th")].map((t) => t.textContent), ["#", "Player", "Record", "Pts"]);
  const mine = table.querySelector("tr.me");
  assert.equal(mine.dataset.player, "p1");
  assert.equal(mine.getAttribute("aria-current"), "true");
  const detail = table.querySelector("tr.tb-detail[data-player=p1]");
  assert.ok(detail.hidden);
  mine.querySelector("button").click();
  assert.ok(!detail.hidden);
  assert.equal(detail.textContent, "Op Win % 0.67");
  assert.equal(phoneStandings([], { note: "Standings after round 1 show once it is complete." }).textContent,
    "Standings after round 1 show once it is complete.");
});

test("a flat row (the player view's standings) shows its extra columns as the tiebreakers", () => {
  const table = phoneStandings([{ rank: 1, player: "p1", name: "Annie", record: "1-0-0", points: 3, owp: 0.5, oowp: 0.25 }],
    { labels: { owp: "Op Win %" } });
  assert.equal(table.querySelector("tr.tb-detail").textContent, "Op Win % 0.50 · oowp 0.25");
});

test("a call's \"min ago\" moves on while nothing else on the screen changes", () => {
  const label = agoLabel(1_000_000, 1_030_000);
  document.body.replaceChildren(label);
  assert.equal(label.textContent, "just now");
  refreshAgo(document, 1_000_000 + 5 * 60_000);
  assert.equal(label.textContent, "5 min ago");
});

test("a phone's standings say in their caption which round they follow, not \"Standings\" again", () => {
  const rows = [{ rank: 1, player: "p1", name: "Annie", record: "1-0-0", points: 3, tiebreakers: {} }];
  assert.equal(phoneStandings(rows, { note: "After round 3" }).querySelector("caption").textContent,
    "After round 3 — tap a name for the tiebreakers");
  assert.equal(phoneStandings(rows).querySelector("caption").textContent, "Tap a name for the tiebreakers");
});

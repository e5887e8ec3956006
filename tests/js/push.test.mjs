// pwa/sw/push.js notificationFor: news buzzes and replaces its slot; a re-sent copy of shown news does not buzz.
import assert from "node:assert/strict";
import { test } from "node:test";

const { notificationFor } = await import("../../pwa/sw/push.js");
const ORIGIN = "https://topcut.example";
const pairing = (id, body) => ({ v: 1, id, kind: "round.paired", event: "E1", title: "Cup", body,
  url: "/#/event/E1/player", tag: "E1:pairing:p1", data: { round: 2, table: 7 } });

test("news in a slot replaces the older notification and buzzes", () => {
  const shown = [{ tag: "E1:pairing:p1", data: { id: "round1" } }];
  const [title, options] = notificationFor(pairing("round2", "Round 2 — table 7 vs Misty W."), ORIGIN, shown);
  assert.equal(title, "Cup");
  assert.equal(options.tag, "E1:pairing:p1");
  assert.equal(options.renotify, true);
  assert.equal(options.silent, false);
  assert.equal(options.data.url, `${ORIGIN}/#/event/E1/player`);
  assert.equal(options.data.table, 7);
});

test("a re-sent copy of news already shown replaces it silently: no double buzz", () => {
  const shown = [{ tag: "E1:pairing:p1", data: { id: "round2" } }];
  const [, options] = notificationFor(pairing("round2", "Round 2 — table 7 vs Misty W."), ORIGIN, shown);
  assert.equal(options.renotify, false);
  assert.equal(options.silent, true);
});

test("the first notification of a slot buzzes; a payload from another site's URL opens the app's home", () => {
  const [, options] = notificationFor({ ...pairing("x", "hi"), url: "https://evil.example/" }, ORIGIN, []);
  assert.equal(options.renotify, true);
  assert.equal(options.data.url, `${ORIGIN}/`);
});

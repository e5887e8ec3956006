// pwa/ui/redraw.js on happy-dom: a data-driven redraw keeps what the user typed (values, focus, a section
// being typed in or pressed), and a redraw the user asked for does not.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import { settle } from "./support/app.mjs";
import { choose, type, window } from "./support/dom.mjs";

const { forgetEdits, isEdited, refresh, replace } = await import("../../pwa/ui/redraw.js");
const { field, h, select } = await import("../../pwa/ui/dom.js");
const { document } = window;

let section;
let outside;

beforeEach(() => {
  document.activeElement?.blur?.();
  section = h("section", { id: "sec" });
  outside = h("input", { id: "outside" });
  document.body.replaceChildren(section, outside);
});

/** A card per table, each with a score field, as the data has them (`values`: the data's scores). */
function cards(values) {
  return Object.entries(values).map(([table, value]) =>
    h("div", { dataset: { table } }, h("input", { name: "score", value: String(value) })));
}

const scoreAt = (table) => section.querySelector(`[data-table="${table}"] input[name=score]`);

test("replace draws the children given: nested arrays, text and numbers; null, undefined and false skipped", () => {
  replace(section, [h("b", {}, "a"), [null, 2, [undefined, false, "c"]]]);
  assert.equal(section.innerHTML, "<b>a</b>2c");
});

test("refresh gives each field the user changed its value back, in the same card after the data moved", () => {
  refresh(section, cards({ 1: 0, 2: 0 }));
  type(scoreAt(2), "17");
  refresh(section, cards({ 3: 5, 2: 9, 1: 4 }));  // a sync: a new table, new data everywhere
  assert.equal(scoreAt(2).value, "17");
  assert.ok(isEdited(scoreAt(2)), "a restored field is still the user's");
  assert.equal(scoreAt(1).value, "4");
  assert.equal(scoreAt(3).value, "5");
});

test("a field the user never touched takes the new data", () => {
  refresh(section, h("input", { name: "n", value: "1" }));
  refresh(section, h("input", { name: "n", value: "2" }));
  assert.equal(section.querySelector("[name=n]").value, "2");
});

test("fields without a name are told apart by their id, aria-label or label text", () => {
  const draw = (v) => [h("input", { "aria-label": "Score of Ada", value: v }), field("Reason", h("input", { value: v }))];
  refresh(section, draw("a"));
  const [aria, labelled] = section.querySelectorAll("input");
  type(aria, "typed aria");
  type(labelled, "typed label");
  refresh(section, draw("b"));
  assert.deepEqual([...section.querySelectorAll("input")].map((i) => i.value), ["typed aria", "typed label"]);
});

test("a section holding the focused typing field waits for the focus to leave, then draws the newest data", async () => {
  refresh(section, h("input", { name: "reason", value: "" }), h("p", {}, "v1"));
  const input = section.querySelector("[name=reason]");
  input.focus();
  type(input, "Slow pl");
  refresh(section, h("input", { name: "reason", value: "" }), h("p", {}, "v2"));
  refresh(section, h("input", { name: "reason", value: "" }), h("p", {}, "v3"));
  assert.equal(section.querySelector("[name=reason]"), input, "the field under the keyboard was replaced");
  assert.equal(section.dataset.redrawWaiting, "yes");
  assert.equal(section.querySelector("p").textContent, "v1");
  outside.focus();
  await settle();
  assert.equal(section.querySelector("p").textContent, "v3");
  assert.equal(section.querySelector("[name=reason]").value, "Slow pl");
  assert.equal(section.dataset.redrawWaiting, undefined);
});

test("a submitted form starts afresh: its values are sent, so the redraw neither waits nor gives them back", () => {
  const draw = () => h("form", {}, h("input", { name: "reason", value: "" }));
  refresh(section, draw());
  const input = section.querySelector("[name=reason]");
  input.focus();
  type(input, "Late");
  section.querySelector("form").dispatchEvent(new window.Event("submit", { bubbles: true, cancelable: true }));
  assert.equal(isEdited(input), false);
  refresh(section, draw());
  assert.notEqual(section.querySelector("[name=reason]"), input);
  assert.equal(section.querySelector("[name=reason]").value, "");
});

test("a select given back its value fires change marked restored, so what it drives follows it", () => {
  const seen = [];
  const draw = () => {
    const s = select([["a", "A"], ["b", "B"]], { name: "pick" });
    s.addEventListener("change", (event) => seen.push(event.detail?.restored ?? false));
    return s;
  };
  refresh(section, draw());
  choose(section.querySelector("[name=pick]"), "b");
  refresh(section, draw());
  assert.equal(section.querySelector("[name=pick]").value, "b");
  assert.deepEqual(seen, [false, true]);
});

test("a value the new options no longer offer is not forced onto a select", () => {
  refresh(section, select([["a", "A"], ["b", "B"]], { name: "pick" }));
  choose(section.querySelector("[name=pick]"), "b");
  refresh(section, select([["a", "A"], ["c", "C"]], { name: "pick" }));
  assert.equal(section.querySelector("[name=pick]").value, "a");
});

test("forgetEdits lets the next redraw bring the data's value", () => {
  refresh(section, h("input", { name: "minutes", value: "50" }));
  const minutes = section.querySelector("[name=minutes]");
  type(minutes, "45");
  forgetEdits(minutes);
  refresh(section, h("input", { name: "minutes", value: "55" }));
  assert.equal(section.querySelector("[name=minutes]").value, "55");
});

test("a press in a section holds its redraw until the click has landed", async () => {
  refresh(section, h("button", { type: "button" }, "Pair round 2"), h("p", {}, "v1"));
  const button = section.querySelector("button");
  button.dispatchEvent(new window.PointerEvent("pointerdown", { bubbles: true }));
  refresh(section, h("button", { type: "button" }, "Pair round 2"), h("p", {}, "v2"));
  assert.equal(section.querySelector("button"), button, "the pressed button was pulled away before the click");
  button.dispatchEvent(new window.PointerEvent("pointerup", { bubbles: true }));
  await settle();
  assert.equal(section.querySelector("p").textContent, "v2");
});

/** The rounds screen's next-step card as a sync redraws it: the cut button and the other sizes folded away. */
function cutCard(reason) {
  return h("div", { id: "next-step" }, h("p", {}, reason), h("button", { type: "button" }, "Make the top 8 cut"),
    h("details", { class: "other-cut" }, h("summary", {}, "Another cut size"), h("input", { id: "cut-size", value: "" })),
    h("details", { class: "help" }, h("summary", {}, "How cuts work"), h("p", {}, "…")));
}

test("a details the user opened stays open through a sync's redraw, and one left alone takes the data's state", async () => {
  refresh(section, cutCard("v1"));
  const summary = section.querySelector("details.other-cut summary");
  summary.dispatchEvent(new window.PointerEvent("pointerdown", { bubbles: true }));
  refresh(section, cutCard("v2"));  // a sync lands while the organizer's finger is down
  summary.dispatchEvent(new window.PointerEvent("pointerup", { bubbles: true }));
  summary.click();
  await settle();
  assert.equal(section.querySelector("p").textContent, "v2", "the held redraw never landed");
  assert.equal(section.querySelector("details.other-cut").open, true, "the opened details folded up under the organizer");
  assert.equal(section.querySelector("details.help").open, false);
  refresh(section, cutCard("v3"));  // and the next sync too
  assert.equal(section.querySelector("details.other-cut").open, true);
  section.querySelector("details.other-cut summary").click();  // closed again by the user: stays closed
  await settle();
  refresh(section, h("div", { id: "next-step" }, h("p", {}, "v4"),
    h("details", { class: "other-cut", open: true }, h("summary", {}, "Another cut size"))));
  assert.equal(section.querySelector("details.other-cut").open, false);
});

test("replace, a redraw the user asked for, resets a details the user opened", () => {
  refresh(section, cutCard("v1"));
  section.querySelector("details.other-cut summary").click();
  replace(section, cutCard("v2"));
  assert.equal(section.querySelector("details.other-cut").open, false);
});

test("replace, a redraw the user asked for, keeps nothing the user typed", () => {
  refresh(section, h("input", { name: "n", value: "1" }));
  type(section.querySelector("[name=n]"), "typed");
  replace(section, h("input", { name: "n", value: "2" }));
  assert.equal(section.querySelector("[name=n]").value, "2");
});

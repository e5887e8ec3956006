// The Rounds screen's "Next" card: the organizer's next step as the engine decides it (rules_api next_step:
// pair, publish, start, results, dispute, the cut once the Swiss is over, each elimination round by name, the
// champion, close), with the one primary button that does it (for publishing and starting, the Rounds screen
// hands the card the publish button and the start form).
import { may } from "../app/roles.js";
import { rules } from "../app/services.js";
import { field, h, numberInput } from "../ui/dom.js";

/** The cut form: a size (empty: the structure's), then cut.make. */
function cutForm({ store, run, act }, suggested) {
  const size = numberInput({ value: "", placeholder: suggested ? `${suggested} (the structure's)` : "from the structure", id: "cut-size" });
  return h("form", { class: "cut-form", onsubmit: (e) => {
    e.preventDefault();
    run(async () => {
      const cut = await rules("cut", { event_id: store.eventId, size: size.value ? Number(size.value) : null });
      await act("cut.make", cut, `Top ${cut.size} cut made`);
    });
  } }, field("Players in the cut", size, "Another size than the structure's, if the event announced one."),
  h("button", { type: "submit", id: "make-cut" }, "Make the cut"));
}

/** Pair the next Swiss round as a draft. */
function pairButton({ store, run, act }, next) {
  return h("button", { type: "button", class: "primary", id: "pair-next", onclick: () => run(async () => {
    const draft = await rules("pair_draft", { event_id: store.eventId });
    await act("round.pair", { number: draft.round, stage: draft.stage, matches: draft.matches }, `Round ${draft.round} paired as a draft`);
  }) }, `${next.label} (draft)`);
}

/** The cut's primary button: the structure's size, at once. */
function cutButton({ store, run, act }, next) {
  return h("button", { type: "button", class: "primary", id: "make-top-cut", onclick: () => run(async () => {
    const cut = await rules("cut", { event_id: store.eventId, size: next.cut });
    await act("cut.make", cut, `Top ${cut.size} cut made`);
  }) }, next.label);
}

function eliminationButton({ store, run, act }, next) {
  return h("button", { type: "button", class: "primary", id: "pair-elimination", onclick: () => run(async () => {
    const round = await rules("next_elimination", { event_id: store.eventId });
    await act("round.pair", { number: round.number, stage: "elimination", matches: round.matches }, `${next.label.replace(/^Pair /, "")} paired`);
  }) }, next.label);
}

/** Closing is for good: the first press asks, the second closes. */
function closeButtons(screen, next) {
  const { run, act, redraw, role } = screen;
  if (!may(role, "event.close")) {
    return h("p", { class: "hint", id: "close-by-organizer" }, "The organizer closes the event (Staff screen).");
  }
  if (!screen.closing) {
    return h("button", { type: "button", class: "primary", id: "close-event", onclick: () => { screen.closing = true; redraw("#confirm-close"); } },
      next.label);
  }
  return h("div", { class: "confirm-step" },
    h("p", { class: "warnings" }, "Closing is for good: no more rounds, results or changes, on any device."),
    h("button", { type: "button", class: "primary danger", id: "confirm-close", onclick: () => run(async () => {
      screen.closing = false;
      await act("event.close", {}, "The event is closed");
    }) }, "Confirm: close the event"),
    h("button", { type: "button", id: "keep-open", onclick: () => { screen.closing = false; redraw("#close-event"); } }, "Keep it open"));
}

/** Before the Swiss is over the cut is not offered, unless the organizer ends the Swiss early (asked first). */
function earlyCut(screen, next) {
  const { redraw } = screen;
  if (!screen.cuttingEarly) {
    return h("button", { type: "button", id: "cut-early", onclick: () => { screen.cuttingEarly = true; redraw("#cut-size"); } },
      "End the Swiss early and make the cut…");
  }
  const left = next.swiss_rounds ? next.swiss_rounds - next.round + 1 : null;
  return h("div", { class: "card" },
    h("p", { class: "warnings", id: "cut-early-warning" }, left
      ? `The structure plans ${next.swiss_rounds} Swiss rounds: ${left} more ${left === 1 ? "is" : "are"} still to play. `
        + "Cut now only if the event announced fewer rounds."
      : "Cut now only if the Swiss rounds the event announced are all played."),
    cutForm(screen, null),
    h("button", { type: "button", id: "cut-not-yet", onclick: () => { screen.cuttingEarly = false; redraw("#cut-early"); } }, "Not yet"));
}

/** What does the step: its primary button (or link), and what goes with it. */
function stepAction(screen, next) {
  const { store } = screen;
  const base = `#/event/${store.eventId}`;
  switch (next.step) {
    case "pair": return [pairButton(screen, next), next.can_cut ? earlyCut(screen, next) : null];
    case "cut": return [cutButton(screen, next), h("details", { class: "other-cut" }, h("summary", {}, "Another cut size"), cutForm(screen, next.cut))];
    case "elimination": return eliminationButton(screen, next);
    case "close": return [closeButtons(screen, next), next.can_cut
      ? h("details", { class: "other-cut" }, h("summary", {}, "Make a cut anyway"), cutForm(screen, null)) : null];
    case "results": return h("a", { class: "button primary", id: "enter-results", href: `${base}/judge` }, "Enter results");
    case "dispute": return h("a", { class: "button primary", id: "open-disputes", href: `${base}/disputes` }, "Open the disputes");
    case "register": return h("a", { class: "button primary", id: "register-players", href: `${base}/players` }, "Register players");
    default: return null;  // publish, start: the draft panel's and the start form's buttons below
  }
}

/** Steps whose action is a link to another screen: offered to every staff role, not only the leads. */
const LINKS = new Set(["results", "dispute", "register"]);

/** The "Next" card: the leads get the step's action; the other staff where the event is and its links. `here`: what does a publish or start step
 * (the publish button, the start form), drawn in the card so the next step is at the top of the screen. */
export function nextCard(screen, next, here = null) {
  if (!next) return null;
  const { lead } = screen;
  const champion = next.champion_name
    ? h("p", { class: "champion", id: "champion" }, `Champion: ${next.champion_name}`) : null;
  if (next.step === "closed") {
    return h("section", { class: "card next-step", id: "next-step", dataset: { step: next.step } }, champion,
      h("p", { class: "hint", id: "rounds-closed" }, "The event is closed: no more rounds are paired, started or changed."));
  }
  return h("section", { class: "card next-step", id: "next-step", dataset: { step: next.step }, "aria-labelledby": "next-step-label" },
    champion,
    h("h2", { id: "next-step-label" }, champion ? "Next: close the event" : `Next: ${next.label}`),
    h("p", { class: "hint", id: "next-step-reason" }, next.reason.replace(/^Champion: [^.]*\. /, "")),
    here ?? (lead || LINKS.has(next.step) ? stepAction(screen, next) : null));
}

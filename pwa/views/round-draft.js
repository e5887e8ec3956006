// The Rounds screen's draft tools: the draft's warnings, pairing it again from
// the roster as it is now or discarding it, swapping two players (with what the
// swap would break), and publishing it.
import { rules } from "../app/services.js";
import { field, h, nameOf, replace, select, withNames } from "../ui/dom.js";

// A draft is not final: a late entry or a drop since it was drafted is paired in by pairing it again from
// the roster as it is now (round.pair with replace), or the draft is thrown away (round.discard).
// `screen.discarding` is the draft ("number/stage") whose "Discard draft" was pressed once.
function redoPanel(screen, rnd) {
  const { store, run, act, redraw, root } = screen;
  const key = `${rnd.number}/${rnd.stage}`;
  const confirming = screen.discarding === key;
  const swaps = rnd.paired_by?.swaps ?? 0;
  const repairNow = () => run(async () => {
    screen.repairing = null;
    const draft = await rules("pair_draft", { event_id: store.eventId, replace: true });
    await act("round.pair", { number: draft.round, stage: draft.stage, matches: draft.matches, replace: true },
      `Round ${draft.round} paired again`);
  });
  // A re-pair throws the manual swaps away: with any, the first press asks and names how many.
  let repair = null;
  if (rnd.stage !== "elimination") {
    repair = screen.repairing === key && swaps
      ? h("div", { class: "confirm-step" },
        h("p", { class: "warnings", id: "repair-warning" },
          `Re-pairing throws away the ${swaps} manual swap${swaps === 1 ? "" : "s"} made in this draft.`),
        h("button", { type: "button", class: "danger", id: "confirm-repair", onclick: repairNow },
          `Confirm: re-pair and lose ${swaps} swap${swaps === 1 ? "" : "s"}`),
        h("button", { type: "button", id: "keep-swaps", onclick: () => { screen.repairing = null; redraw("#repair-round"); } }, "Keep the swaps"))
      : h("button", { type: "button", id: "repair-round", onclick: () => {
        if (!swaps) return repairNow();
        screen.repairing = key;
        return redraw("#confirm-repair");
      } }, `Re-pair round ${rnd.number}`);
  }
  const discard = confirming
    ? [h("button", { type: "button", class: "danger", id: "confirm-discard", onclick: () => run(async () => {
      screen.discarding = null;
      if (await act("round.discard", { number: rnd.number, stage: rnd.stage }, `Round ${rnd.number}'s draft discarded`)) {
        root.querySelector("#pair-next, #make-top-cut, #pair-elimination")?.focus();
      }
    }) }, `Confirm: discard round ${rnd.number}'s draft` + (swaps ? ` and its ${swaps} swap${swaps === 1 ? "" : "s"}` : "")),
    h("button", { type: "button", id: "keep-draft", onclick: () => { screen.discarding = null; redraw("#discard-round"); } }, "Keep it")]
    : h("button", { type: "button", id: "discard-round", onclick: () => { screen.discarding = key; redraw("#confirm-discard"); } }, "Discard draft");
  return h("section", { class: "card", "aria-labelledby": "redo-title" }, h("h3", { id: "redo-title" }, "Pair again or discard"),
    h("p", { class: "hint" }, rnd.stage === "elimination"
      ? "Discard this draft to make the cut or pair the elimination round again."
      : "Someone entered late or dropped since this draft? Re-pair from the roster as it is now, or discard the draft."),
    repair, discard);
}

/** Swap two players of the draft, with a preview of what the swap would break. */
function swapForm(screen, rnd, st) {
  const { store, run, act } = screen;
  const ids = rnd.matches.flatMap((m) => m.players);
  const opts = ids.map((id) => [id, nameOf(st, id)]);
  const a = select(opts, { "aria-label": "First player to swap", id: "swap-a" });
  const b = select(opts, { "aria-label": "Second player to swap", id: "swap-b" });
  if (opts.length > 1) b.value = opts[1][0];
  const preview = h("div", { "aria-live": "polite", class: "warnings" });
  const check = async () => {
    const w = await rules("swap_warnings", { event_id: store.eventId, number: rnd.number, stage: rnd.stage, a: a.value, b: b.value }).catch((e) => [e.message]);
    replace(preview, w.length ? h("ul", {}, w.map((x) => h("li", {}, withNames(store.state, x)))) : h("p", {}, "No problems with this swap."));
  };
  a.addEventListener("change", check);
  b.addEventListener("change", check);
  return h("form", {
    class: "card swap", onsubmit: (e) => {
      e.preventDefault();
      run(() => act("round.swap", { number: rnd.number, stage: rnd.stage, a: a.value, b: b.value }, "Players swapped"));
    },
  }, h("h3", {}, "Swap two players"), field("Player", a), field("With", b), preview,
  h("button", { type: "button", onclick: check }, "Check"), h("button", { type: "submit" }, "Swap"));
}

/** The button that publishes a drafted round (the primary one when publishing is the next step). */
export function publishButton(screen, rnd, primary = true) {
  const { run, act } = screen;
  return h("button", { type: "button", class: primary ? "primary" : null, id: "publish-round",
    onclick: () => run(() => act("round.publish", { number: rnd.number, stage: rnd.stage }, `Round ${rnd.number} published`)) },
  `Publish round ${rnd.number}`);
}

/** Everything about a drafted round: warnings, pair again or discard, swap (leads only), and its publish button
 * unless the next-step card holds it (`withPublish` false). */
export async function draftPanel(screen, rnd, st, withPublish = true) {
  const { store, lead } = screen;
  const warnings = await rules("round_warnings", { event_id: store.eventId, number: rnd.number, stage: rnd.stage }).catch((e) => [e.message]);
  return h("div", {},
    warnings.length ? h("div", { class: "warnings", role: "note" }, h("h3", {}, "Warnings"), h("ul", {}, warnings.map((w) => h("li", {}, withNames(st, w)))))
      : h("p", { class: "ok" }, "No pairing problems found."),
    lead && redoPanel(screen, rnd),
    lead && swapForm(screen, rnd, st),
    withPublish && publishButton(screen, rnd, false));
}

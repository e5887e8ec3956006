// Rounds: pair the next round as a draft, review and adjust it (swaps with
// warnings, fixed tables from the roster; pair it again from the roster as it is
// now, or discard it: round-draft.js), publish, start the clock (the ruleset's
// lengths, Doomtown's secret d6 once per event, attack dice where the ruleset
// rolls them: round-start.js), pause/extend, and above them the next step as one primary button
// (rules_api next_step: the next round, the cut once the Swiss is over, each elimination round, the champion
// and the close: round-next.js).
import { may } from "../app/roles.js";
import { rules } from "../app/services.js";
import { timerPanel } from "../ui/timer.js";
import {
  announce, h, latestRound, nameOf, problemsAt, problemNotice, refresh, refusalText, replace, statusBadge, withNames,
} from "../ui/dom.js";
import { draftPanel, publishButton } from "./round-draft.js";
import { nextCard } from "./round-next.js";
import { startForm } from "./round-start.js";

function matchesTable(rnd, st) {
  return h("table", { class: "matches" }, h("caption", {}, `Round ${rnd.number} (${rnd.stage}) — ${rnd.status}`),
    h("thead", {}, h("tr", {}, ["Table", "Players", "Result"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rnd.matches.map((m) => h("tr", {},
      h("td", {}, m.table ?? "bye"), h("td", {}, m.players.map((p) => nameOf(st, p)).join(" v ")),
      h("td", {}, statusBadge(m.status), m.outcomes ? ` ${m.outcomes.join(" / ")}` : "")))));
}

function clockActions({ run, act }, rnd) {
  if (!rnd?.timer || rnd.status !== "started" || !rnd.timer.duration_s) return null;
  const paused = rnd.timer.paused_at !== null;
  return h("div", { class: "row" },
    h("button", { type: "button", onclick: () => run(() => act(paused ? "timer.resume" : "timer.pause", { round: rnd.number, stage: rnd.stage })) },
      paused ? "Resume clock" : "Pause clock"),
    h("button", { type: "button", onclick: () => run(() => act("timer.extend", { round: rnd.number, stage: rnd.stage, seconds: 60 })) }, "+1 minute"),
    h("button", { type: "button", onclick: () => run(() => act("timer.extend", { round: rnd.number, stage: rnd.stage, seconds: 300 })) }, "+5 minutes"));
}

/** Round 1 once check-in is in use (shared_rules/state/checkin.py): it pairs the players who checked in. */
function checkInNote(st) {
  const active = st.players.filter((p) => p.dropped_after === null && !p.ejected);
  const checked = active.filter((p) => p.checked_in);
  if (!checked.length) return null;
  return h("p", { class: "hint", id: "check-in-note" }, `Check-in is in use: round 1 pairs the ${checked.length} `
    + `of ${active.length} players who checked in`
    + (checked.length < active.length ? `; the other ${active.length - checked.length} join from round 2 unless `
      + "they check in before you pair." : "."));
}

/** The round's progress line: results in, and how many are disputed. */
function progress(rnd, st) {
  const settled = rnd.matches.filter((m) => m.status === "confirmed" || m.status === "resolved").length;
  return h("p", { class: "progress", id: "round-progress" }, `${settled} of ${rnd.matches.length} results in`,
    st.disputes.length ? ` · ${st.disputes.length} disputed` : "");
}

async function mount(root, { store, role }) {
  const body = h("div");
  const message = h("p", { class: "error", role: "alert" });
  const clockBox = timerPanel(store, { reveal: true });
  replace(root, h("h1", {}, "Rounds"), message, h("section", { class: "card" }, h("h2", {}, "Clock"), clockBox.el), body);

  // What the screen's parts share: its store and role, its message line, and its redraws.
  const screen = {
    store,
    root,
    role,
    lead: may(role, "round.pair"),
    discarding: null,  // the draft ("number/stage") whose "Discard draft" was pressed once
    repairing: null,   // the draft ("number/stage") whose "Re-pair" was pressed once over manual swaps
    closing: false,    // "Close the event" pressed once
    cuttingEarly: false,  // "End the Swiss early and make the cut…" pressed
    async run(fn) {
      message.textContent = "";
      try {
        await fn();
      } catch (err) {
        message.textContent = withNames(store.state, refusalText(err.message), store.session?.staff_names);
      }
    },
    async act(type, payload, done) {
      const { refused } = await store.act(type, payload);
      if (refused) message.textContent = withNames(store.state, refusalText(refused), store.session?.staff_names);
      else if (done) announce(done);
      return !refused;
    },
    // A redraw the user asked for, then the focus on what it brought (the confirm button, or back).
    redraw: (focus) => update(store.snapshot).then(() => setTimeout(() => root.querySelector(focus)?.focus(), 0)),
  };

  // One drawing at a time, in the order they were asked for (the app's after a sync, this screen's own after
  // a button): each draws the snapshot current when it was asked, so an older one never lands last.
  let drawing = Promise.resolve();
  function update(snapshot = store.snapshot) {
    drawing = drawing.then(() => draw(snapshot), () => draw(snapshot));
    return drawing;
  }

  // Every part of one drawing reads the same snapshot's state (``st``), never store.state after an await.
  async function draw(snapshot) {
    const st = snapshot.state;
    if (!st) return;
    const rnd = latestRound(st);
    const draftKey = rnd && rnd.status === "draft" ? `${rnd.number}/${rnd.stage}` : null;
    if (screen.discarding && screen.discarding !== draftKey) screen.discarding = null;
    if (screen.repairing && screen.repairing !== draftKey) screen.repairing = null;
    const next = await rules("next_step", { event_id: store.eventId }).catch(() => null);
    if (next?.step !== "close") screen.closing = false;
    if (next?.step !== "pair") screen.cuttingEarly = false;
    const parts = [];
    if (rnd) parts.push(problemsAt(store, rnd.number).map((p) => problemNotice(store, p, store.session?.staff_names)));
    // Publishing and starting happen in the next-step card itself (at the top of the screen); a draft may also be
    // started at once, below its tools.
    const open = rnd && (rnd.status === "draft" || rnd.status === "published");
    const start = open ? await startForm(store, rnd, st,
      (payload) => screen.run(() => screen.act("round.start", payload, `Round ${rnd.number} started`)), next?.step === "start") : null;
    const publishHere = rnd?.status === "draft" && next?.step === "publish";
    const here = publishHere ? publishButton(screen, rnd) : next?.step === "start" ? start : null;
    parts.push(nextCard(screen, next, here));
    if (next?.step === "pair" && !rnd) parts.push(checkInNote(st));
    if (rnd) {
      if (rnd.status === "draft") parts.push(await draftPanel(screen, rnd, st, !publishHere));
      if (open && here !== start) parts.push(start);
      parts.push(clockActions(screen, rnd), progress(rnd, st));
    }
    if (rnd) parts.push(matchesTable(rnd, st));
    if (!st.players.length) parts.push(h("p", {}, "Register players first."));
    refresh(body, parts);
    clockBox.tick();
  }

  return {
    update,
    destroy() {
      clockBox.stop();
    },
  };
}

export default { mount };

// Rounds: pair the next round as a draft, review and adjust it (swaps with
// warnings, fixed tables from the roster; pair it again from the roster as it is
// now, or discard it: round-draft.js), publish, start the clock (the ruleset's
// lengths, Doomtown's secret d6 once per event, attack dice where the ruleset
// rolls them: round-start.js), pause/extend, the cut and the elimination rounds.
import { may } from "../app/roles.js";
import { rules } from "../app/services.js";
import { timerPanel } from "../ui/timer.js";
import { announce, field, h, latestRound, nameOf, numberInput, problemsAt, problemNotice, refresh, replace, statusBadge, withNames } from "../ui/dom.js";
import { draftPanel } from "./round-draft.js";
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

function cutForm({ store, run, act }) {
  const size = numberInput({ value: "", placeholder: "from the structure", id: "cut-size" });
  return h("form", { class: "card", onsubmit: (e) => {
    e.preventDefault();
    run(async () => {
      const cut = await rules("cut", { event_id: store.eventId, size: size.value ? Number(size.value) : null });
      await act("cut.make", cut, `Top ${cut.size} cut made`);
    });
  } }, h("h3", {}, "The cut"), field("Players in the cut", size), h("button", { type: "submit" }, "Make the cut"));
}

/** What the leads can do next: pair the next round (or say which dispute holds it), the cut, the next elimination round. */
function nextActions(screen, st) {
  const { store, lead, run, act } = screen;
  const rnd = latestRound(st);
  const out = [];
  if (st.closed) {
    return [h("p", { class: "hint", id: "rounds-closed" }, "The event is closed: no more rounds are paired, started or changed.")];
  }
  if (!lead) return out;
  const swissDone = !rnd || rnd.status === "complete";
  if (st.disputes.length && swissDone) {
    // The reducer refuses pairing past an open dispute (code open-dispute): say so instead of offering it.
    const d = st.disputes[0];
    out.push(h("p", { class: "warnings", id: "pairing-waits-for-disputes" },
      `Resolve the dispute at table ${d.table ?? "—"} of round ${d.round} before pairing round ${rnd.number + 1}. `,
      h("a", { href: `#/event/${store.eventId}/disputes` }, `Open the disputes (${st.disputes.length})`)));
    return out;
  }
  if (swissDone && (!rnd || rnd.stage !== "elimination")) {
    out.push(h("button", { type: "button", class: "primary", id: "pair-next", onclick: () => run(async () => {
      const draft = await rules("pair_draft", { event_id: store.eventId });
      await act("round.pair", { number: draft.round, stage: draft.stage, matches: draft.matches }, `Round ${draft.round} paired as a draft`);
    }) }, `Pair round ${rnd ? rnd.number + 1 : 1} (draft)`));
    out.push(rnd ? cutForm(screen) : checkInNote(st));
  }
  if (rnd && rnd.stage === "elimination" && rnd.status === "complete") {
    out.push(h("button", { type: "button", class: "primary", onclick: () => run(async () => {
      const next = await rules("next_elimination", { event_id: store.eventId });
      await act("round.pair", { number: next.number, stage: "elimination", matches: next.matches }, "Next elimination round paired");
    }) }, "Pair the next elimination round"));
  }
  return out;
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
    lead: may(role, "round.pair"),
    discarding: null,  // the draft ("number/stage") whose "Discard draft" was pressed once
    async run(fn) {
      message.textContent = "";
      try {
        await fn();
      } catch (err) {
        message.textContent = err.message;
      }
    },
    async act(type, payload, done) {
      const { refused } = await store.act(type, payload);
      if (refused) message.textContent = withNames(store.state, refused);
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
    if (screen.discarding && !(rnd && rnd.status === "draft" && screen.discarding === `${rnd.number}/${rnd.stage}`)) {
      screen.discarding = null;
    }
    const parts = [];
    if (rnd) {
      parts.push(problemsAt(store, rnd.number).map((p) => problemNotice(store, p)));
      if (rnd.status === "draft") parts.push(await draftPanel(screen, rnd, st));
      if (rnd.status === "draft" || rnd.status === "published") {
        parts.push(await startForm(store, rnd, st, (payload) => screen.run(() => screen.act("round.start", payload, `Round ${rnd.number} started`))));
      }
      parts.push(clockActions(screen, rnd), progress(rnd, st));
    }
    parts.push(nextActions(screen, st));
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

// Rounds: pair the next round as a draft, review and adjust it (swaps with
// warnings, fixed tables from the roster; pair it again from the roster as it is
// now, or discard it), publish, start the clock (per-ruleset
// lengths: Doomtown's secret d6 once per event, Shatterpoint's five dice), pause/extend, the cut
// and the elimination rounds.
import { rules } from "../rules-client.js";
import { rulesetInfo, timerPanel } from "../timer.js";
import { announce, field, forgetEdits, h, isEdited, latestRound, nameOf, numberInput, problemsAt, problemNotice, refresh, replace, select, statusBadge, withNames } from "../ui.js";

const FACES = [["failure", "Failure"], ["expertise", "Expertise"], ["strike", "Strike"], ["critical", "Critical"]];

async function mount(root, { store, role }) {
  const lead = role === "organizer" || role === "head-judge";
  const body = h("div");
  const message = h("p", { class: "error", role: "alert" });
  const clockBox = timerPanel(store, { reveal: true });
  replace(root, h("h1", {}, "Rounds"), message, h("section", { class: "card" }, h("h2", {}, "Clock"), clockBox.el), body);

  const run = async (fn) => {
    message.textContent = "";
    try {
      await fn();
    } catch (err) {
      message.textContent = err.message;
    }
  };

  const act = async (type, payload, done) => {
    const { refused } = await store.act(type, payload);
    if (refused) message.textContent = withNames(store.state, refused);
    else if (done) announce(done);
    return !refused;
  };

  let discarding = null;  // the draft ("number/stage") whose "Discard draft" was pressed once

  // A draft is not final: a late entry or a drop since it was drafted is paired in by pairing it again from
  // the roster as it is now (round.pair with replace), or the draft is thrown away (round.discard).
  function redoPanel(rnd) {
    const key = `${rnd.number}/${rnd.stage}`;
    const confirming = discarding === key;
    const repair = rnd.stage !== "elimination" && h("button", { type: "button", id: "repair-round", onclick: () => run(async () => {
      const draft = await rules("pair_draft", { event_id: store.eventId, replace: true });
      await act("round.pair", { number: draft.round, stage: draft.stage, matches: draft.matches, replace: true },
        `Round ${draft.round} paired again`);
    }) }, `Re-pair round ${rnd.number}`);
    const discard = confirming
      ? [h("button", { type: "button", class: "danger", id: "confirm-discard", onclick: () => run(async () => {
        discarding = null;
        if (await act("round.discard", { number: rnd.number, stage: rnd.stage }, `Round ${rnd.number}'s draft discarded`)) {
          root.querySelector("#pair-next")?.focus();
        }
      }) }, `Confirm: discard round ${rnd.number}'s draft`),
      h("button", { type: "button", id: "keep-draft", onclick: () => { discarding = null; redraw("#discard-round"); } }, "Keep it")]
      : h("button", { type: "button", id: "discard-round", onclick: () => { discarding = key; redraw("#confirm-discard"); } }, "Discard draft");
    return h("section", { class: "card", "aria-labelledby": "redo-title" }, h("h3", { id: "redo-title" }, "Pair again or discard"),
      h("p", { class: "hint" }, rnd.stage === "elimination"
        ? "Discard this draft to make the cut or pair the elimination round again."
        : "Someone entered late or dropped since this draft? Re-pair from the roster as it is now, or discard the draft."),
      repair, discard);
  }

  // A redraw the user asked for, then the focus on what it brought (the confirm button, or back).
  const redraw = (focus) => update(store.snapshot).then(() => setTimeout(() => root.querySelector(focus)?.focus(), 0));

  // Every part of one drawing reads the same snapshot's state (``st``), never store.state after an await.
  async function startForm(rnd, st) {
    const info = await rulesetInfo(st);
    const limits = info.time_limits || {};
    const minutes = numberInput({ value: String(limits.round_minutes || limits["in-person"] || 50), id: "round-minutes" });
    const extras = [];
    let dice = null;
    if (st.ruleset === "shatterpoint") {
      dice = Array.from({ length: 5 }, (_, i) => select(FACES, { "aria-label": `Attack die ${i + 1}` }));
      const total = h("output", {}, "");
      const recompute = async () => {
        const r = await rules("round_minutes", { dice_faces: dice.map((d) => d.value) });
        if (!r.error) {
          minutes.value = String(r.minutes);
          total.textContent = `${r.minutes} minutes; Mission Critical from minute ${r.mission_critical_minute}`;
        }
      };
      dice.forEach((d) => d.addEventListener("change", (event) => {
        if (event.detail?.restored && isEdited(minutes)) return;  // a redraw: the length typed in stays
        if (!event.detail?.restored) forgetEdits(minutes);        // a new die: the length follows the dice
        recompute();
      }));
      recompute();
      extras.push(h("fieldset", { class: "dice" }, h("legend", {}, "Five attack dice (+1 minute per critical or strike)"), dice, total));
    }
    let secret = null;
    const secretTime = await rules("secret_time", { event_id: store.eventId });
    if (secretTime.sides) {
      // Doomtown Floor Rules 3.A, 5.C: one d6 for the whole roundup (drawn from the event's seed, so every
      // staff device knows it offline), added to every round; players' devices are never told it.
      secret = h("input", { type: "checkbox", checked: true, id: "secret-d6" });
      const d6 = secretTime.minutes;
      extras.push(h("div", { class: "field inline" }, secret, h("label", { for: "secret-d6" },
        `Add the event's secret d6: ${d6 === null ? "unknown on this device" : `${d6} minute${d6 === 1 ? "" : "s"}`}`
        + " (rolled once for the whole event, the same every round; players are not told)")));
    }
    return h("form", {
      class: "card", onsubmit: (e) => {
        e.preventDefault();
        const payload = { number: rnd.number, stage: rnd.stage, duration_s: Number(minutes.value) * 60 };
        if (secret?.checked) payload.secret = true;
        run(() => act("round.start", payload, `Round ${rnd.number} started`));
      },
    }, h("h3", {}, `Start round ${rnd.number}`), field("Round length (minutes)", minutes), extras,
    h("button", { type: "submit", class: "primary", id: "start-round" }, `Start round ${rnd.number}`));
  }

  async function draftPanel(rnd, st) {
    const warnings = await rules("round_warnings", { event_id: store.eventId, number: rnd.number, stage: rnd.stage }).catch((e) => [e.message]);
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
    return h("div", {},
      warnings.length ? h("div", { class: "warnings", role: "note" }, h("h3", {}, "Warnings"), h("ul", {}, warnings.map((w) => h("li", {}, withNames(st, w)))))
        : h("p", { class: "ok" }, "No pairing problems found."),
      lead && redoPanel(rnd),
      lead && h("form", {
        class: "card swap", onsubmit: (e) => {
          e.preventDefault();
          run(() => act("round.swap", { number: rnd.number, stage: rnd.stage, a: a.value, b: b.value }, "Players swapped"));
        },
      }, h("h3", {}, "Swap two players"), field("Player", a), field("With", b), preview,
      h("button", { type: "button", onclick: check }, "Check"), h("button", { type: "submit" }, "Swap")),
      h("button", { type: "button", class: "primary", id: "publish-round",
        onclick: () => run(() => act("round.publish", { number: rnd.number, stage: rnd.stage }, `Round ${rnd.number} published`)) },
      `Publish round ${rnd.number}`));
  }

  function matchesTable(rnd, st) {
    return h("table", { class: "matches" }, h("caption", {}, `Round ${rnd.number} (${rnd.stage}) — ${rnd.status}`),
      h("thead", {}, h("tr", {}, ["Table", "Players", "Result"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, rnd.matches.map((m) => h("tr", {},
        h("td", {}, m.table ?? "bye"), h("td", {}, m.players.map((p) => nameOf(st, p)).join(" v ")),
        h("td", {}, statusBadge(m.status), m.outcomes ? ` ${m.outcomes.join(" / ")}` : "")))));
  }

  async function nextActions(st) {
    const rnd = latestRound(st);
    const out = [];
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
      if (!rnd) {
        // Check-in in use (shared_rules/state/checkin.py): round 1 pairs the players who checked in.
        const active = st.players.filter((p) => p.dropped_after === null && !p.ejected);
        const checked = active.filter((p) => p.checked_in);
        if (checked.length) {
          out.push(h("p", { class: "hint", id: "check-in-note" }, `Check-in is in use: round 1 pairs the ${checked.length} `
            + `of ${active.length} players who checked in`
            + (checked.length < active.length ? `; the other ${active.length - checked.length} join from round 2 unless `
              + "they check in before you pair." : ".")));
        }
      }
      if (rnd) {
        const size = numberInput({ value: "", placeholder: "from the structure", id: "cut-size" });
        out.push(h("form", { class: "card", onsubmit: (e) => {
          e.preventDefault();
          run(async () => {
            const cut = await rules("cut", { event_id: store.eventId, size: size.value ? Number(size.value) : null });
            await act("cut.make", cut, `Top ${cut.size} cut made`);
          });
        } }, h("h3", {}, "The cut"), field("Players in the cut", size), h("button", { type: "submit" }, "Make the cut")));
      }
    }
    if (rnd && rnd.stage === "elimination" && rnd.status === "complete") {
      out.push(h("button", { type: "button", class: "primary", onclick: () => run(async () => {
        const next = await rules("next_elimination", { event_id: store.eventId });
        await act("round.pair", { number: next.number, stage: "elimination", matches: next.matches }, "Next elimination round paired");
      }) }, "Pair the next elimination round"));
    }
    return out;
  }

  async function clockActions(rnd) {
    if (!rnd?.timer || rnd.status !== "started" || !rnd.timer.duration_s) return null;
    const paused = rnd.timer.paused_at !== null;
    return h("div", { class: "row" },
      h("button", { type: "button", onclick: () => run(() => act(paused ? "timer.resume" : "timer.pause", { round: rnd.number, stage: rnd.stage })) },
        paused ? "Resume clock" : "Pause clock"),
      h("button", { type: "button", onclick: () => run(() => act("timer.extend", { round: rnd.number, stage: rnd.stage, seconds: 60 })) }, "+1 minute"),
      h("button", { type: "button", onclick: () => run(() => act("timer.extend", { round: rnd.number, stage: rnd.stage, seconds: 300 })) }, "+5 minutes"));
  }

  // One drawing at a time, in the order they were asked for (the app's after a sync, this screen's own after
  // a button): each draws the snapshot current when it was asked, so an older one never lands last.
  let drawing = Promise.resolve();
  function update(snapshot = store.snapshot) {
    drawing = drawing.then(() => draw(snapshot), () => draw(snapshot));
    return drawing;
  }

  async function draw(snapshot) {
    const st = snapshot.state;
    if (!st) return;
    const rnd = latestRound(st);
    if (discarding && !(rnd && rnd.status === "draft" && discarding === `${rnd.number}/${rnd.stage}`)) discarding = null;
    const parts = [];
    if (rnd) {
      parts.push(problemsAt(store, rnd.number).map((p) => problemNotice(store, p)));
      if (rnd.status === "draft") parts.push(await draftPanel(rnd, st));
      if (rnd.status === "draft" || rnd.status === "published") parts.push(await startForm(rnd, st));
      parts.push(await clockActions(rnd));
      const settled = rnd.matches.filter((m) => m.status === "confirmed" || m.status === "resolved").length;
      parts.push(h("p", { class: "progress", id: "round-progress" }, `${settled} of ${rnd.matches.length} results in`,
        st.disputes.length ? ` · ${st.disputes.length} disputed` : ""));
    }
    parts.push(await nextActions(st));
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

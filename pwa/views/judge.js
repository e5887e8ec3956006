// Judge tablet: find a match by table or name, enter its result with the
// ruleset's fields, time-called helpers, penalties. Entries apply at once and
// wait in the outbox when offline; refusals show on the match they concern.
import { resultForm, resultText } from "../result-form.js";
import { timerPanel } from "../timer.js";
import { announce, field, h, label, latestRound, nameOf, numberInput, problemNotice, problemsAt, refresh, replace, select, statusBadge } from "../ui.js";

const SETTLED = new Set(["confirmed", "resolved"]);

async function mount(root, { store, role }) {
  const search = h("input", { type: "search", id: "find-match", placeholder: "Table number or player name", autocomplete: "off" });
  const roundPick = h("select", { id: "round-pick", "aria-label": "Round" });
  const list = h("div", { class: "match-list", id: "match-list" });
  const panel = h("section", { class: "card entry", id: "entry", "aria-live": "polite", hidden: true });
  const penalties = h("section", { class: "card" });
  const clockBox = timerPanel(store);
  let chosen = null;  // round number picked (null: latest)
  let penaltyNote = "";  // the last penalty's outcome, kept across redraws
  // The player and penalty last picked, kept across redraws and after issuing: a redraw must never move the
  // form to another player while the judge writes the reason (a penalty would go to the wrong person).
  const picked = { player: null, kind: null };

  search.addEventListener("input", () => renderList());
  roundPick.addEventListener("change", () => { chosen = Number(roundPick.value); renderList(); });

  replace(root, h("h1", {}, "Results"), clockBox.el,
    h("div", { class: "finder", role: "search" }, field("Find a match", search), field("Round", roundPick)),
    panel, list, penalties);

  const currentRound = () => {
    const st = store.state;
    const playable = st.rounds.filter((r) => r.status === "started" || r.status === "complete");
    return playable.find((r) => r.number === chosen) || playable[playable.length - 1] || null;
  };

  async function open(rnd, index) {
    const st = store.state;
    const match = rnd.matches[index];
    const target = match.table !== null ? { table: match.table } : { match: index };
    const settled = SETTLED.has(match.status);
    const reason = h("input", { type: "text", id: "correct-reason", placeholder: "Why the result changes" });
    const form = await resultForm(st, rnd, match, {
      submitLabel: settled ? "Correct result" : "Save result",
      initial: settled ? { outcomes: match.outcomes, scores: match.scores, stats: match.stats, ending: match.ending } : null,
      onSubmit: async (result, error) => {
        const type = settled ? "result.correct" : "result.report";
        const payload = { round: rnd.number, stage: rnd.stage, ...target, ...result };
        if (settled && reason.value.trim()) payload.reason = reason.value.trim();
        const { refused } = await store.act(type, payload);
        if (refused) {
          error.textContent = refused;
          return;
        }
        announce(`Result saved for ${match.table !== null ? `table ${match.table}` : "the bye"}`);
        panel.hidden = true;
        search.focus();
      },
    });
    replace(panel,
      h("h2", { id: "entry-title" }, `Round ${rnd.number} · ${match.table !== null ? `Table ${match.table}` : "Bye"}: `,
        match.players.map((p) => nameOf(st, p)).join(" v ")),
      settled && h("p", {}, "Current result: ", resultText(st, match, match), field("Reason for the correction", reason)),
      match.status === "disputed" && h("p", { class: "warn" }, "This match is disputed: the head judge resolves it on the Disputes screen."),
      form,
      h("button", { type: "button", onclick: () => { panel.hidden = true; search.focus(); } }, "Cancel"));
    panel.hidden = false;
    panel.querySelector("button.big, select")?.focus();
  }

  function renderList() {
    const st = store.state;
    const rnd = currentRound();
    if (!rnd) {
      replace(list, h("p", {}, "No round has started yet."));
      return;
    }
    const q = search.value.trim().toLowerCase();
    const shown = rnd.matches.map((m, i) => [m, i]).filter(([m]) =>
      !q || String(m.table) === q || m.players.some((p) => nameOf(st, p).toLowerCase().includes(q)));
    refresh(list,
      h("p", { class: "progress" }, `${rnd.matches.filter((m) => SETTLED.has(m.status)).length} of ${rnd.matches.length} results in`),
      h("ul", { class: "cards" }, shown.map(([m, i]) => {
        const problems = m.table !== null ? problemsAt(store, rnd.number, m.table) : [];
        const mine = store.rows.filter((r) => r.status !== "rejected" && r.op.payload?.round === rnd.number && r.op.payload?.table === m.table && m.table !== null);
        return h("li", { class: `match-card status-${m.status}`, dataset: { table: m.table ?? "bye", status: m.status } },
          h("button", { type: "button", class: "match-open", onclick: () => open(rnd, i),
            "aria-label": `${m.table !== null ? `Table ${m.table}` : "Bye"}: ${m.players.map((p) => nameOf(st, p)).join(" versus ")}, ${m.status}` },
            h("span", { class: "table-no" }, m.table ?? "bye"),
            h("span", { class: "players" }, m.players.map((p) => nameOf(st, p)).join(" v ")),
            statusBadge(m.status),
            mine.length ? h("span", { class: "badge waiting" }, "waiting to sync") : null),
          SETTLED.has(m.status) && h("p", { class: "result" }, resultText(st, m, m)),
          problems.map((p) => problemNotice(store, p)));
      })));
  }

  // Penalty systems (shared_rules/state/penalties.py): Star Trek OP Guide Appendix B levels,
  // Shatterpoint warnings and ejection, the rest warning / game loss / disqualification.
  // A floor judge (role "judge") may issue warnings only: nothing else is offered.
  const LEVELS = [["0", "Level 0 — verbal warning"], ["1", "Level 1 — written warning"], ["2", "Level 2 — turn loss"],
    ["3", "Level 3 — game loss"], ["4", "Level 4 — disqualification"]];
  const FLOOR_LEVELS = ["0", "1"];  // verbal and written warnings
  const KINDS = { shatterpoint: [["warning", "Warning"], ["ejection", "Ejection"]] };
  const GENERIC = [["warning", "Warning"], ["game-loss", "Game loss"], ["disqualification", "Disqualification"]];

  const penaltyText = (p) => (p.level !== null && p.level !== undefined
    ? `Level ${p.level} — ${label(p.kind)}` : label(p.kind).replace(/^./, (c) => c.toUpperCase()));

  function renderPenalties() {
    const st = store.state;
    const levels = ["startrek-1e", "startrek-2e", "tribbles"].includes(st.ruleset);
    const floor = role === "judge";
    const who = select(st.players.map((p) => [p.id, p.name]), { id: "penalty-player",
      onchange: () => { picked.player = who.value; } });
    if (picked.player && st.players.some((p) => p.id === picked.player)) who.value = picked.player;
    const choices = levels ? LEVELS.filter(([v]) => !floor || FLOOR_LEVELS.includes(v))
      : (KINDS[st.ruleset] || GENERIC).filter(([v]) => !floor || v === "warning");
    const kind = select(choices, { id: "penalty-kind", onchange: () => { picked.kind = kind.value; } });
    if (picked.kind && choices.some(([v]) => String(v) === picked.kind)) kind.value = picked.kind;
    const infraction = levels ? h("input", { type: "text", id: "penalty-infraction", placeholder: "e.g. A3", autocomplete: "off", class: "narrow" }) : null;
    const reason = h("input", { type: "text", required: true, id: "penalty-reason" });
    const msg = h("p", { role: "status", id: "penalty-msg" }, penaltyNote);
    refresh(penalties, h("h2", {}, "Penalties"),
      floor && h("p", { class: "hint" }, "Floor judges issue warnings; harsher penalties go to the head judge."),
      levels && h("p", { class: "hint" }, "Star Trek OP Guide Appendix B: a repeat of the same infraction is upgraded one level."),
      h("form", { onsubmit: async (e) => {
        e.preventDefault();
        const payload = { player: who.value, reason: reason.value.trim() };
        picked.player = who.value;
        picked.kind = kind.value;
        if (levels) payload.level = Number(kind.value); else payload.kind = kind.value;
        const code = infraction?.value.trim();
        if (code) payload.infraction = code;
        const { refused } = await store.act("penalty.issue", payload);
        if (refused) {
          penaltyNote = refused;
        } else {
          const given = store.state.penalties.filter((p) => p.player === payload.player).at(-1);
          const upgraded = levels && given && given.level !== payload.level;
          penaltyNote = given ? `Penalty recorded: ${nameOf(store.state, given.player)}, ${penaltyText(given)}`
            + (upgraded ? ` (a repeat infraction: upgraded from level ${payload.level})` : "") + "." : "Penalty recorded.";
        }
        // The section may have been redrawn meanwhile (the new penalty is data): write into what is on screen.
        const live = document.getElementById("penalty-msg");
        if (live) live.textContent = penaltyNote;
        if (!refused) document.getElementById("penalty-reason").value = "";
      } }, h("div", { class: "penalty-fields" }, field("Player", who), field("Penalty", kind),
        infraction && field("Infraction code (Appendix B)", infraction), field("Reason", reason)),
      h("button", { type: "submit" }, "Issue penalty"), msg),
      st.penalties.length ? h("ul", { class: "penalties" }, st.penalties.map((p) =>
        h("li", { dataset: { level: p.level ?? "", kind: p.kind } },
          `${nameOf(st, p.player)}: ${penaltyText(p)} (${p.round ? `round ${p.round}` : "before round 1"})${p.infraction ? ` [${p.infraction}]` : ""} — ${p.reason}`))) : null,
      store.problems().filter((p) => p.op.type === "penalty.issue").map((p) => problemNotice(store, p)));
  }

  return {
    update() {
      const st = store.state;
      const playable = st.rounds.filter((r) => r.status === "started" || r.status === "complete");
      const value = String(currentRound()?.number ?? "");
      replace(roundPick, playable.map((r) => h("option", { value: String(r.number) }, `Round ${r.number} (${r.stage})`)));
      roundPick.value = value;
      renderList();
      renderPenalties();  // refresh() keeps a penalty being written
    },
    destroy() {
      clockBox.stop();
    },
  };
}

export default { mount };

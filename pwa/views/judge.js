// Judge tablet: find a match by table or name, enter its result with the
// ruleset's fields, time-called helpers, penalties. Entries apply at once and
// wait in the outbox when offline; refusals show on the match they concern.
import { resultForm, resultText, versionsList } from "../ui/result-form.js";
import { callJudgeForm, callPlayerForm, callsPanel } from "../ui/calls.js";
import { timerPanel } from "../ui/timer.js";
import {
  announce, field, h, nameOf, problemNotice, problemsAt, refresh, refusalText, replace, statusBadge, withNames,
} from "../ui/dom.js";
import { penaltiesPanel } from "./penalties.js";

const SETTLED = new Set(["confirmed", "resolved"]);

const tableName = (match) => (match.table !== null ? `Table ${match.table}` : "Bye");

/** The rounds a judge enters results for: started or complete. */
const playable = (st) => st.rounds.filter((r) => r.status === "started" || r.status === "complete");

/** The result entry panel: `open(rnd, index)` shows the form for one match; `close()` hides it. */
function entryPanel(store, { onClose }) {
  const panel = h("section", { class: "card entry", id: "entry", "aria-live": "polite", hidden: true });
  const close = () => {
    panel.hidden = true;
    onClose();
  };

  async function open(rnd, index) {
    const st = store.state;
    if (st.closed) return;  // a closed event's results are final (the cards are disabled; the banner says why)
    const match = rnd.matches[index];
    const target = match.table !== null ? { table: match.table } : { match: index };
    const settled = SETTLED.has(match.status);
    const disputed = match.status === "disputed";
    const correcting = settled || disputed;  // a correction replaces the result, and ends a dispute
    const reason = h("input", { type: "text", id: "correct-reason", placeholder: "Why the result changes" });
    const form = await resultForm(st, rnd, match, {
      submitLabel: correcting ? "Correct result" : "Save result",
      initial: settled ? { outcomes: match.outcomes, scores: match.scores, stats: match.stats, ending: match.ending } : null,
      onSubmit: async (result, error) => {
        const type = correcting ? "result.correct" : "result.report";
        const payload = { round: rnd.number, stage: rnd.stage, ...target, ...result };
        if (correcting && reason.value.trim()) payload.reason = reason.value.trim();
        const { refused } = await store.act(type, payload, { checkFirst: true });
        if (refused) {
          error.textContent = withNames(st, refusalText(refused), store.session?.staff_names);
          return;
        }
        announce(`Result saved for ${match.table !== null ? `table ${match.table}` : "the bye"}`);
        close();
      },
    });
    replace(panel,
      h("h2", { id: "entry-title" }, `Round ${rnd.number} · ${tableName(match)}: `,
        match.players.map((p) => nameOf(st, p)).join(" v ")),
      settled && h("p", {}, "Current result: ", resultText(st, match, match), field("Reason for the correction", reason)),
      disputed && h("div", { class: "dispute-note", id: "entry-dispute" },
        h("p", { class: "warn" }, "The reports disagree. Talk to both players: a correction here ends the dispute, "
          + "or leave it to the head judge on the Disputes screen."),
        versionsList(st, rnd, match, store.session?.staff_names), field("Reason for the correction", reason)),
      form,
      h("p", { class: "call-links" }, "Call a player: ", match.players.map((p) => h("span", { class: "call-link" },
        `${nameOf(st, p)} `, callPlayerForm(store, p, match.table)))),
      match.table !== null && h("p", { class: "call-links" }, callJudgeForm(store, match.table)),
      h("p", { class: "deck-links" }, "Deck check: ", match.players.map((p, k) => [k ? " · " : "",
        h("a", { href: `#/event/${store.eventId}/decklists/${encodeURIComponent(p)}`, class: "deck-link", dataset: { player: p } },
          `${nameOf(st, p)}'s list`)])),
      h("button", { type: "button", onclick: close }, "Cancel"));
    panel.hidden = false;
    panel.querySelector("button.big, select")?.focus();
  }

  return { el: panel, open };
}

/** The round's refusals by table (``problemsAt``), and how many of this device's changes wait per table. */
function tableNotes(store, round) {
  const problems = new Map();
  for (const p of problemsAt(store, round)) {
    const table = p.op.payload?.table;
    if (!problems.has(table)) problems.set(table, []);
    problems.get(table).push(p);
  }
  const waiting = new Map();
  for (const r of store.rows) {
    if (r.status === "rejected" || r.op.payload?.round !== round) continue;
    const table = r.op.payload?.table;
    waiting.set(table, (waiting.get(table) || 0) + 1);
  }
  return { problems, waiting };
}

/** One match of the list: a button that opens it, its result once settled, and its refusals. */
function matchCard(store, rnd, m, i, open, { problems: allProblems, waiting }) {
  const st = store.state;
  const problems = m.table !== null ? allProblems.get(m.table) || [] : [];
  const mine = m.table !== null ? waiting.get(m.table) || 0 : 0;
  return h("li", { class: `match-card status-${m.status}`, dataset: { table: m.table ?? "bye", status: m.status } },
    h("button", { type: "button", class: "match-open", onclick: () => open(rnd, i), disabled: Boolean(st.closed),
      "aria-label": `${tableName(m)}: ${m.players.map((p) => nameOf(st, p)).join(" versus ")}, ${m.status}` },
      h("span", { class: "table-no" }, m.table ?? "bye"),
      h("span", { class: "players" }, m.players.map((p) => nameOf(st, p)).join(" v ")),
      statusBadge(m.status),
      mine ? h("span", { class: "badge waiting" }, "waiting to sync") : null),
    SETTLED.has(m.status) && h("p", { class: "result" }, resultText(st, m, m)),
    !SETTLED.has(m.status) && removedNote(st, m),
    m.status === "disputed" && h("div", { class: "dispute-note" },
      h("p", { class: "warn" }, "Disputed: the reports disagree"), versionsList(st, rnd, m, store.session?.staff_names)),
    problems.map((p) => problemNotice(store, p)));
}

/** A match waiting for its result whose player a penalty removed (a disqualification): the judge enters it. */
function removedNote(st, m) {
  const out = m.players.filter((pid) => st.players.find((p) => p.id === pid)?.ejected);
  return out.length ? h("p", { class: "warn removed" }, `${out.map((pid) => nameOf(st, pid)).join(", ")} removed by a `
    + "penalty: enter this match's result.") : null;
}

/** The match finder: a search box, a round picker and the matches of the chosen round. */
function matchFinder(store, open) {
  const search = h("input", { type: "search", id: "find-match", placeholder: "Table number or player name", autocomplete: "off" });
  const roundPick = h("select", { id: "round-pick", "aria-label": "Round" });
  const list = h("div", { class: "match-list", id: "match-list" });
  let chosen = null;  // round number picked (null: latest)

  const currentRound = () => {
    const rounds = playable(store.state);
    return rounds.find((r) => r.number === chosen) || rounds[rounds.length - 1] || null;
  };

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
    const byTable = tableNotes(store, rnd.number);  // read once for the round, not once per card
    refresh(list,
      h("p", { class: "progress" }, `${rnd.matches.filter((m) => SETTLED.has(m.status)).length} of ${rnd.matches.length} results in`),
      h("ul", { class: "cards" }, shown.map(([m, i]) => matchCard(store, rnd, m, i, open, byTable))));
  }

  search.addEventListener("input", () => renderList());
  roundPick.addEventListener("change", () => { chosen = Number(roundPick.value); renderList(); });

  function update() {
    const value = String(currentRound()?.number ?? "");
    replace(roundPick, playable(store.state).map((r) => h("option", { value: String(r.number) }, `Round ${r.number} (${r.stage})`)));
    roundPick.value = value;
    renderList();
  }

  const el = h("div", { class: "finder", role: "search" }, field("Find a match", search), field("Round", roundPick));
  return { el, list, update, focus: () => search.focus() };
}

async function mount(root, { store, role }) {
  const clockBox = timerPanel(store);
  const entry = entryPanel(store, { onClose: () => finder.focus() });  // called only once the screen is up
  const finder = matchFinder(store, entry.open);
  const penalties = penaltiesPanel(store, role);
  const calls = callsPanel(store);  // judge calls from players' phones, answered here

  replace(root, h("h1", {}, "Results"), calls.el, clockBox.el, finder.el, entry.el, finder.list, penalties.el);

  return {
    async update() {
      calls.update();
      finder.update();
      await penalties.update();  // refresh() keeps a penalty being written
    },
    destroy() {
      clockBox.stop();
    },
  };
}

export default { mount };

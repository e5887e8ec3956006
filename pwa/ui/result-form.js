// @ts-check
// The result form: exactly the fields the ruleset needs, drawn from the ruleset's
// screen descriptor (rules_api.ruleset_info()["ui"]["result"]): outcomes always;
// per-player stats (Shatterpoint's struggle cards and wounds) and how the game
// ended; scores (Star Trek final scores, Tribbles pod scores); best-of-three
// games; and the time-called helper of shared_rules.game_end with the inputs it asks for.
import { rules } from "../app/services.js";
import { rulesetInfo } from "./timer.js";
import { field, h, label, nameOf, numberInput, select } from "./dom.js";

// How a stat's accessible name reads per player: "Struggle cards claimed by Ada" (the descriptor gives the label).
const STAT_ACTION = { struggle: "claimed by", wounds: "inflicted by" };
const statAria = (stat, name) => `${stat.label} ${STAT_ACTION[stat.key] || "of"} ${name}`;
const optionalNumber = (value) => (value === null || value === undefined ? null : String(value));

/** The outcome words one two-player game can pair with `word` (the game's declared ``pairs``). */
function partnersOf(pairs, word) {
  const out = [];
  for (const { outcomes: [a, b] } of pairs) {
    if (a === word && !out.includes(b)) out.push(b);
    if (b === word && !out.includes(a)) out.push(a);
  }
  return out;
}

/** The quick buttons' pairs: each declared quick pair; a win for either seat, a draw-like pair once. */
function quickPairs(pairs) {
  const quick = pairs.filter((p) => p.quick);
  const wins = quick.filter((p) => p.outcomes[0] !== p.outcomes[1]);
  const even = quick.filter((p) => p.outcomes[0] === p.outcomes[1]);
  return { wins, even };
}

/**
 * Build a form for one match. `onSubmit(result)` gets {outcomes, scores?, stats?, ending?, games?}.
 * `initial`: a result to start from.
 *
 * A two-player table offers only the results its game declares (``ruleset_info().pairs``): the quick
 * buttons make the declared quick pairs, and when one seat's outcome changes the other takes a partner of
 * it (unless its choice still fits), so the selects cannot build a pair the game's document does not allow.
 */
export async function resultForm(state, rnd, match, { onSubmit, submitLabel = "Save result", initial = null, helpers = true, store = null }) {
  const info = await rulesetInfo(state, store);
  const players = match.players;
  const pairs = players.length === 2 ? info.pairs || [] : [];
  const words = pairs.length
    ? info.outcomes.filter((o) => pairs.some((p) => p.outcomes.includes(o.key))).map((o) => o.key)
    : info.outcomes.filter((o) => !o.solo).map((o) => o.key);
  const optionsOf = (keys) => [["", "—"], ...keys.map((k) => [k, label(k)])];
  const outcomeSelects = players.map((pid, i) =>
    select(optionsOf(words), { "aria-label": `Outcome for ${nameOf(state, pid)}`, name: `outcome-${i}`, required: true }));
  /** After seat `i`'s outcome changes, the other seat takes a partner of it unless its choice still fits. */
  const follow = (i) => {
    if (!pairs.length) return;
    const other = outcomeSelects[1 - i];
    const word = outcomeSelects[i].value;
    if (!word) return;
    const keys = partnersOf(pairs, word);
    if (!keys.includes(other.value)) other.value = keys[0] ?? "";
  };
  outcomeSelects.forEach((s, i) => s.addEventListener("change", () => follow(i)));
  const setOutcomes = (given) => given.forEach((w, i) => { if (outcomeSelects[i]) outcomeSelects[i].value = w; });
  const error = h("p", { class: "error", role: "alert" });
  const sections = [];
  const { wins, even } = quickPairs(pairs);

  // Quick buttons for a two-player table: the game's quick pairs, in its own words.
  if (players.length === 2 && (wins.length || even.length)) {
    sections.push(h("div", { class: "quick", role: "group", "aria-label": "Quick result" },
      wins.map((pair, k) => players.map((pid, i) => h("button", {
        type: "button", class: "big", dataset: { quick: k === 0 ? `win-${i}` : `${pair.outcomes[0]}-${i}` },
        title: pair.label, onclick: () => setOutcomes(i === 0 ? pair.outcomes : [pair.outcomes[1], pair.outcomes[0]]),
      }, k === 0 ? `${nameOf(state, pid)} wins` : `${nameOf(state, pid)}: ${label(pair.outcomes[0])}`))),
      even.map((pair, k) => h("button", {
        type: "button", class: "big", dataset: { quick: k === 0 ? "draw" : pair.outcomes[0] },
        onclick: () => setOutcomes(pair.outcomes),
      }, label(pair.outcomes[0])))));
  }
  sections.push(h("fieldset", {}, h("legend", {}, "Outcome per player"),
    players.map((pid, i) => field(nameOf(state, pid), outcomeSelects[i]))));

  const ui = info.ui.result;
  const stats = statsSection(state, players, ui.stats, sections);
  const scores = scoresSection(state, players, ui.scores, sections);
  let ending = null;
  let games = null;
  if (info.endings.length && players.length >= 2) {
    ending = select([["", "—"], ...info.endings.map((e) => [e, label(e)])], { name: "ending" });
    sections.push(field("How the game ended", ending));
  }
  const bestOfThree = players.length === 2 && eliminationBestOf(info, rnd) !== 1
    && (ui.best_of_three === "always" || rnd.stage === "elimination");
  if (bestOfThree) {
    const opts = [["", "not played"], ...players.map((p) => [p, nameOf(state, p)]), ["tie", "tie"]];
    games = [1, 2, 3].map((n) => select(opts, { "aria-label": `Winner of game ${n}` }));
    const fromGames = () => {
      const won = players.map((p) => games.filter((g) => g.value === p).length);
      const decided = wins[0]?.outcomes;
      if (!decided) return;
      // Games decide who won, not how: a winner's outcome the judge already chose (a modified win) stays.
      const winning = (i) => info.outcomes.find((o) => o.key === outcomeSelects[i].value)?.result === "win";
      if (won[0] >= 2 && !winning(0)) setOutcomes(decided);
      else if (won[1] >= 2 && !winning(1)) setOutcomes([decided[1], decided[0]]);
    };
    games.forEach((g) => g.addEventListener("change", fromGames));
    sections.push(h("fieldset", { class: "games" }, h("legend", {}, "Games (best of three)"), games.map((g, i) => field(`Game ${i + 1}`, g))));
  }

  const num = (input) => (input.value === "" ? null : Number(input.value));

  if (helpers) {
    const helper = timeCalledHelper(state, players, ui.time_called, { stats, scores, setOutcomes, ending });
    if (helper) sections.push(helper);
  }

  if (initial) {
    setOutcomes(initial.outcomes || []);
    initial.scores?.forEach((s, i) => { if (scores?.[i]) scores[i].value = s; });
    initial.stats?.forEach((s, i) => { if (stats?.[i]) for (const [key, input] of Object.entries(stats[i])) input.value = s[key]; });
    if (ending && initial.ending) ending.value = initial.ending;
  }

  const form = h("form", {
    class: "result-form", onsubmit: (e) => {
      e.preventDefault();
      const result = { outcomes: outcomeSelects.map((s) => s.value) };
      if (result.outcomes.some((o) => !o)) {
        error.textContent = "Choose an outcome for every player.";
        return;
      }
      const [a, b] = result.outcomes;
      if (pairs.length && !partnersOf(pairs, a).includes(b)) {
        error.textContent = `${label(a)} against ${label(b)} is not a result of one game: choose `
          + `${pairs.map((p) => p.label).join(", ")}.`;
        return;
      }
      if (stats && stats.some((s) => Object.values(s).some((input) => input.value !== ""))) {
        result.stats = stats.map((s) => Object.fromEntries(Object.entries(s).map(([key, input]) => [key, num(input) ?? 0])));
      }
      if (scores && scores.some((s) => s.value !== "")) {
        // A blank beside a typed score is a score not given, never a 0 the judge did not type.
        const missing = players.filter((_, i) => num(scores[i]) === null).map((pid) => nameOf(state, pid));
        if (missing.length) {
          error.textContent = `Enter the final score of ${missing.join(" and ")} too, or clear the scores.`;
          scores[players.findIndex((_, i) => num(scores[i]) === null)].focus();
          return;
        }
        result.scores = scores.map((s) => num(s));
      }
      if (ending?.value) result.ending = ending.value;
      if (games && games.some((g) => g.value)) result.games = games.filter((g) => g.value).map((g) => g.value);
      error.textContent = "";
      onSubmit(result, error);
    },
  }, sections, error, h("button", { type: "submit", class: "primary big", id: "save-result" }, submitLabel));
  return form;
}

/**
 * How many games an elimination match of this round is (``ruleset_info().bracket``; the final may differ),
 * or null where the document leaves it open or the round is not an elimination round.
 */
function eliminationBestOf(info, rnd) {
  if (rnd.stage !== "elimination" || !info.bracket) return null;
  const slots = rnd.extra?.bracket?.slots || rnd.matches.filter((m) => !m.extra?.playoff).length;
  return 2 * slots <= 2 ? info.bracket.final_best_of : info.bracket.best_of;
}

/** Per-player stats (``ui.result.stats``) for a table of its size: [{key: input}] per player, or null. */
function statsSection(state, players, desc, sections) {
  if (!desc || players.length !== desc.table_size) return null;
  const stats = players.map((pid) => Object.fromEntries(desc.fields.map((stat) =>
    [stat.key, numberInput({ "aria-label": statAria(stat, nameOf(state, pid)), max: optionalNumber(stat.max) })])));
  sections.push(h("fieldset", { class: "stats" }, h("legend", {}, desc.legend),
    players.map((pid, i) => h("div", { class: "row" }, h("span", { class: "who" }, nameOf(state, pid)),
      desc.fields.map((stat) => field(stat.label, stats[i][stat.key]))))));
  return stats;
}

/** One score per player (``ui.result.scores``), or null. */
function scoresSection(state, players, desc, sections) {
  if (!desc) return null;
  const scores = players.map((pid) => numberInput({ "aria-label": `Score of ${nameOf(state, pid)}`, min: optionalNumber(desc.min) }));
  sections.push(h("fieldset", { class: "scores" }, h("legend", {}, desc.legend),
    players.map((pid, i) => field(nameOf(state, pid), scores[i]))));
  return scores;
}

/**
 * "Time called" panel when the ruleset has a helper (``ui.result.time_called``: the extra inputs it asks
 * for, and whether it also reads the form's stats or scores); fills the form's outcomes.
 */
function timeCalledHelper(state, players, desc, { stats, scores, setOutcomes, ending }) {
  if (!desc || players.length !== 2) return null;
  const uses = { stats, scores }[desc.uses];
  if (desc.uses && !uses) return null;
  const out = h("p", { class: "helper-result", "aria-live": "polite" });
  const inputs = Object.fromEntries(desc.inputs.map((key) => [key, players.map(() => numberInput())]));
  const value = (input) => Number(input.value || 0);
  const gather = () => {
    const args = {};
    if (desc.uses === "stats") for (const key of Object.keys(stats[0])) args[key] = stats.map((s) => value(s[key]));
    if (desc.uses === "scores") args.scores = scores.map(value);
    for (const [key, pair] of Object.entries(inputs)) args[key] = pair.map(value);
    return args;
  };
  // Each input says what it is and whose ("Ash's control"): the game's own words for what it counts.
  const grid = Object.entries(inputs).map(([key, pair]) => h("div", { class: "row", dataset: { input: key } },
    h("span", { class: "who" }, label(key)),
    pair.map((input, i) => field(`${nameOf(state, players[i])}'s ${label(key)}`, input))));
  const apply = async () => {
    const r = await rules("time_called", { ruleset: state.ruleset, args: gather() });
    if (r.error) {
      out.textContent = r.error;
      return;
    }
    setOutcomes(r.outcomes);
    if (ending && [...ending.options].some((o) => o.value === "time")) ending.value = "time";
    out.textContent = r.winner === null ? `Draw (${label(r.reason)})` : `${nameOf(state, players[r.winner])} wins at time (${label(r.reason)})`;
  };
  return h("details", { class: "helper" }, h("summary", {}, "Time called? Work out the result"),
    grid, h("button", { type: "button", onclick: apply, class: "small" }, "Decide at time"), out);
}

export function resultText(state, match, result) {
  if (!result) return "";
  const parts = match.players.map((p, i) => `${nameOf(state, p)}: ${label(result.outcomes[i])}` +
    (result.scores ? ` (${result.scores[i]})` : "") +
    (result.stats ? ` (${result.stats[i].struggle} SC, ${result.stats[i].wounds} W)` : ""));
  return parts.join(" · ") + (result.ending ? ` · ${label(result.ending)}` : "") + (result.games ? ` · games: ${result.games.map((g) => (g === "tie" ? "tie" : nameOf(state, g))).join(", ")}` : "");
}

/** Who made a report, in words: "Ada (player)", "Floor Judge Bo (judge)" (`staff`: device -> the name its
 * invitation gave it), "Judge on tab-1" for a device without one. */
export function reporterText(state, report, staff = null) {
  const { role, player } = report.actor;
  if (role === "player") return `${nameOf(state, player)} (player)`;
  const who = label(role);
  const Who = `${who.charAt(0).toUpperCase()}${who.slice(1)}`;
  const named = staff?.[report.device];
  // A device named only by its role ("organizer", "organizer device": a token no invitation named) is the role.
  if (named && [who, `${who} device`].includes(named.toLowerCase())) return Who;
  if (named) return `${named} (${who})`;
  return `${Who} on ${report.device}`;
}

/** The versions of a disputed match: the conflicting reports its dispute names, in log order ([] if none). */
export function disputeVersions(state, rnd, match) {
  const index = rnd.matches.indexOf(match);
  // By table where the match has one: a player's view lists only the player's own matches, so the dispute's
  // index (into the whole round) is not the match's index there.
  const tabled = match.table !== null && match.table !== undefined;
  const dispute = (state.disputes || []).find((d) => d.round === rnd.number && d.stage === rnd.stage
    && (tabled ? d.table === match.table : d.match === index));
  return dispute ? match.reports.filter((r) => dispute.reports.includes(r.op_id)) : [];
}

/** A disputed match's versions as a list: who reported what (the judge's card, the correction form). */
export function versionsList(state, rnd, match, staff = null) {
  return h("ul", { class: "versions" }, disputeVersions(state, rnd, match).map((r) =>
    h("li", { class: "version", dataset: { role: r.actor.role } }, `${reporterText(state, r, staff)}: `, h("strong", {}, resultText(state, match, r.result)))));
}

// The result form: exactly the fields the ruleset needs (outcomes always;
// Shatterpoint struggle cards and wounds and how the game ended; Star Trek
// scores and how the game ended; Tribbles pod scores; best-of-three games in
// elimination and Pokémon), plus the time-called helpers of shared_rules.game_end.
import { rules } from "./rules-client.js";
import { rulesetInfo } from "./timer.js";
import { field, h, label, nameOf, numberInput, replace, select } from "./ui.js";

const STARTREK = ["startrek-1e", "startrek-2e"];

function firstOf(outcomes, result) {
  return outcomes.find((o) => !o.solo && o.result === result)?.key;
}

/**
 * Build a form for one match. `onSubmit(result)` gets {outcomes, scores?, stats?, ending?, games?}.
 * `initial`: a result to start from.
 */
export async function resultForm(state, rnd, match, { onSubmit, submitLabel = "Save result", initial = null, helpers = true }) {
  const info = await rulesetInfo(state);
  const ruleset = state.ruleset;
  const players = match.players;
  const paired = info.outcomes.filter((o) => !o.solo);
  const outcomeSelects = players.map((pid, i) =>
    select([["", "—"], ...paired.map((o) => [o.key, label(o.key)])], { "aria-label": `Outcome for ${nameOf(state, pid)}`, name: `outcome-${i}`, required: true }));
  const setOutcomes = (words) => words.forEach((w, i) => { if (outcomeSelects[i]) outcomeSelects[i].value = w; });
  const error = h("p", { class: "error", role: "alert" });
  const sections = [];

  // Quick buttons for a two-player table.
  if (players.length === 2) {
    const win = firstOf(paired, "win");
    const loss = firstOf(paired, "loss");
    const tie = firstOf(paired, "tie");
    sections.push(h("div", { class: "quick", role: "group", "aria-label": "Quick result" },
      players.map((pid, i) => h("button", { type: "button", class: "big", dataset: { quick: `win-${i}` },
        onclick: () => setOutcomes(i === 0 ? [win, loss] : [loss, win]) }, `${nameOf(state, pid)} wins`)),
      tie && h("button", { type: "button", class: "big", dataset: { quick: "draw" }, onclick: () => setOutcomes([tie, tie]) }, label(tie))));
  }
  sections.push(h("fieldset", {}, h("legend", {}, "Outcome per player"),
    players.map((pid, i) => field(nameOf(state, pid), outcomeSelects[i]))));

  let stats = null;
  let scores = null;
  let ending = null;
  let games = null;
  if (ruleset === "shatterpoint" && players.length === 2) {
    stats = players.map((pid) => ({
      struggle: numberInput({ "aria-label": `Struggle cards claimed by ${nameOf(state, pid)}`, max: "3" }),
      wounds: numberInput({ "aria-label": `Wounds inflicted by ${nameOf(state, pid)}` }),
    }));
    sections.push(h("fieldset", { class: "stats" }, h("legend", {}, "Struggle cards and wounds"),
      players.map((pid, i) => h("div", { class: "row" }, h("span", { class: "who" }, nameOf(state, pid)),
        field("Struggle cards", stats[i].struggle), field("Wounds", stats[i].wounds)))));
  }
  if (STARTREK.includes(ruleset) || ruleset === "tribbles") {
    scores = players.map((pid) => numberInput({ "aria-label": `Score of ${nameOf(state, pid)}`, min: ruleset === "tribbles" ? "0" : null }));
    sections.push(h("fieldset", { class: "scores" }, h("legend", {}, ruleset === "tribbles" ? "Pod scores (points this round)" : "Final scores"),
      players.map((pid, i) => field(nameOf(state, pid), scores[i]))));
  }
  if (info.endings.length && players.length >= 2) {
    ending = select([["", "—"], ...info.endings.map((e) => [e, label(e)])], { name: "ending" });
    sections.push(field("How the game ended", ending));
  }
  const bestOfThree = players.length === 2 && (rnd.stage === "elimination" || ruleset.startsWith("pokemon"));
  if (bestOfThree) {
    const opts = [["", "not played"], ...players.map((p) => [p, nameOf(state, p)]), ["tie", "tie"]];
    games = [1, 2, 3].map((n) => select(opts, { "aria-label": `Winner of game ${n}` }));
    const fromGames = () => {
      const won = players.map((p) => games.filter((g) => g.value === p).length);
      const win = firstOf(paired, "win");
      const loss = firstOf(paired, "loss");
      if (won[0] >= 2) setOutcomes([win, loss]);
      else if (won[1] >= 2) setOutcomes([loss, win]);
    };
    games.forEach((g) => g.addEventListener("change", fromGames));
    sections.push(h("fieldset", { class: "games" }, h("legend", {}, "Games (best of three)"), games.map((g, i) => field(`Game ${i + 1}`, g))));
  }

  const num = (input) => (input.value === "" ? null : Number(input.value));

  if (helpers) {
    const helper = await timeCalledHelper(state, players, { stats, scores, setOutcomes, ending });
    if (helper) sections.push(helper);
  }

  if (initial) {
    setOutcomes(initial.outcomes || []);
    initial.scores?.forEach((s, i) => { if (scores?.[i]) scores[i].value = s; });
    initial.stats?.forEach((s, i) => { if (stats?.[i]) { stats[i].struggle.value = s.struggle; stats[i].wounds.value = s.wounds; } });
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
      if (stats && stats.some((s) => s.struggle.value !== "" || s.wounds.value !== "")) {
        result.stats = stats.map((s) => ({ struggle: num(s.struggle) ?? 0, wounds: num(s.wounds) ?? 0 }));
      }
      if (scores && scores.some((s) => s.value !== "")) result.scores = scores.map((s) => num(s) ?? 0);
      if (ending?.value) result.ending = ending.value;
      if (games && games.some((g) => g.value)) result.games = games.filter((g) => g.value).map((g) => g.value);
      error.textContent = "";
      onSubmit(result, error);
    },
  }, sections, error, h("button", { type: "submit", class: "primary big", id: "save-result" }, submitLabel));
  return form;
}

/** "Time called" panel for the rulesets that have a helper; fills the form's outcomes. */
async function timeCalledHelper(state, players, { stats, scores, setOutcomes, ending }) {
  const ruleset = state.ruleset;
  if (players.length !== 2) return null;
  const out = h("p", { class: "helper-result", "aria-live": "polite" });
  const pairOf = (make) => players.map((pid) => make(pid));
  let inputs = {};
  let gather = null;
  if (ruleset === "doomtown") {
    inputs = { control: pairOf(() => numberInput()), influence: pairOf(() => numberInput()), bullets: pairOf(() => numberInput()) };
    gather = () => Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.map((x) => Number(x.value || 0))]));
  } else if (ruleset === "agot") {
    inputs = { power: pairOf(() => numberInput()) };
    gather = () => ({ power: inputs.power.map((x) => Number(x.value || 0)) });
  } else if (ruleset === "shatterpoint" && stats) {
    gather = () => ({ struggle: stats.map((s) => Number(s.struggle.value || 0)), wounds: stats.map((s) => Number(s.wounds.value || 0)) });
  } else if (STARTREK.includes(ruleset) && scores) {
    if (ruleset === "startrek-2e") inputs = { planet_missions: pairOf(() => numberInput()), space_missions: pairOf(() => numberInput()) };
    gather = () => ({ scores: scores.map((s) => Number(s.value || 0)),
                      ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, v.map((x) => Number(x.value || 0))])) });
  } else {
    return null;
  }
  const grid = Object.entries(inputs).map(([key, pair]) => h("div", { class: "row" }, h("span", { class: "who" }, label(key)),
    pair.map((input, i) => field(nameOf(state, players[i]), input))));
  const apply = async () => {
    const r = await rules("time_called", { ruleset, args: gather() });
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

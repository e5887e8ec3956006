// The judge screen's penalties panel, drawn from the ruleset's screen descriptor
// (rules_api.ruleset_info()["ui"]["penalties"]; the systems themselves are in
// shared_rules/state/penalties.py): Star Trek OP Guide Appendix B levels with an
// infraction code, Shatterpoint warnings and ejection, the rest warning / game
// loss / disqualification. A floor judge (role "judge") is offered only the
// descriptor's `floor` choices (the warnings).
import { rulesetInfo } from "../timer.js";
import { field, h, label, nameOf, problemNotice, refresh, select } from "../ui.js";

/** "Level 2 — turn loss" or "Game loss": a recorded penalty as the list shows it. */
export function penaltyText(p) {
  return p.level !== null && p.level !== undefined
    ? `Level ${p.level} — ${label(p.kind)}` : label(p.kind).replace(/^./, (c) => c.toUpperCase());
}

/** What the panel says once a penalty is issued (a repeat infraction upgraded by the levels system says so). */
function recordedNote(st, payload, levels) {
  const given = st.penalties.filter((p) => p.player === payload.player).at(-1);
  if (!given) return "Penalty recorded.";
  const upgraded = levels && given.level !== payload.level;
  return `Penalty recorded: ${nameOf(st, given.player)}, ${penaltyText(given)}`
    + (upgraded ? ` (a repeat infraction: upgraded from level ${payload.level})` : "") + ".";
}

/**
 * The panel: a section whose `update()` redraws it from the store (keeping a penalty being written).
 * The player and penalty last picked stay across redraws and after issuing: a redraw must never move the
 * form to another player while the judge writes the reason (a penalty would go to the wrong person).
 */
export function penaltiesPanel(store, role) {
  const section = h("section", { class: "card" });
  const picked = { player: null, kind: null };
  let note = "";  // the last penalty's outcome, kept across redraws

  async function issue(payload, levels) {
    const { refused } = await store.act("penalty.issue", payload);
    note = refused || recordedNote(store.state, payload, levels);
    // The section may have been redrawn meanwhile (the new penalty is data): write into what is on screen.
    const live = document.getElementById("penalty-msg");
    if (live) live.textContent = note;
    if (!refused) document.getElementById("penalty-reason").value = "";
  }

  async function update() {
    const desc = (await rulesetInfo(store.state)).ui.penalties;
    const st = store.state;  // read after the wait: the newest data is what draws
    const levels = desc.system === "levels";
    const floor = role === "judge";
    const who = select(st.players.map((p) => [p.id, p.name]), { id: "penalty-player",
      onchange: () => { picked.player = who.value; } });
    if (picked.player && st.players.some((p) => p.id === picked.player)) who.value = picked.player;
    const choices = desc.choices.filter(([v]) => !floor || desc.floor.includes(v));
    const kind = select(choices, { id: "penalty-kind", onchange: () => { picked.kind = kind.value; } });
    if (picked.kind && choices.some(([v]) => String(v) === picked.kind)) kind.value = picked.kind;
    const infraction = desc.infraction_field
      ? h("input", { type: "text", id: "penalty-infraction", placeholder: "e.g. A3", autocomplete: "off", class: "narrow" }) : null;
    const reason = h("input", { type: "text", required: true, id: "penalty-reason" });
    const onsubmit = (e) => {
      e.preventDefault();
      const payload = { player: who.value, reason: reason.value.trim() };
      picked.player = who.value;
      picked.kind = kind.value;
      if (levels) payload.level = Number(kind.value); else payload.kind = kind.value;
      const code = infraction?.value.trim();
      if (code) payload.infraction = code;
      return issue(payload, levels);
    };
    refresh(section, h("h2", {}, "Penalties"),
      floor && h("p", { class: "hint" }, "Floor judges issue warnings; harsher penalties go to the head judge."),
      desc.hint && h("p", { class: "hint" }, desc.hint),
      h("form", { onsubmit }, h("div", { class: "penalty-fields" }, field("Player", who), field("Penalty", kind),
        infraction && field("Infraction code (Appendix B)", infraction), field("Reason", reason)),
      h("button", { type: "submit" }, "Issue penalty"), h("p", { role: "status", id: "penalty-msg" }, note)),
      penaltyList(st),
      store.problems().filter((p) => p.op.type === "penalty.issue").map((p) => problemNotice(store, p)));
  }

  return { el: section, update };
}

function penaltyList(st) {
  if (!st.penalties.length) return null;
  return h("ul", { class: "penalties" }, st.penalties.map((p) =>
    h("li", { dataset: { level: p.level ?? "", kind: p.kind } },
      `${nameOf(st, p.player)}: ${penaltyText(p)} (${p.round ? `round ${p.round}` : "before round 1"})`
      + `${p.infraction ? ` [${p.infraction}]` : ""} — ${p.reason}`)));
}

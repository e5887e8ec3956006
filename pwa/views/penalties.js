// The judge screen's penalties panel, drawn from the ruleset's screen descriptor
// (rules_api.ruleset_info()["ui"]["penalties"]; the systems themselves are in
// shared_rules/state/penalties.py and each game's package): Star Trek OP Guide
// Appendix B levels with its index of infractions, Shatterpoint warnings and
// ejection, the rest warning / game loss / disqualification in each document's
// words. A floor judge (role "judge") is offered only the descriptor's `floor`
// choices (the warnings). A choice with a consequence (a game loss, a
// disqualification, an ejection, a repeat upgraded into one) is confirmed first,
// naming what it does; the head judge and the organizer rescind a penalty, with
// a reason (it stays listed, marked rescinded).
import { may } from "../app/roles.js";
import { rulesetInfo } from "../ui/timer.js";
import { field, h, label, nameOf, problemNotice, refresh, refusalText, select, withNames } from "../ui/dom.js";

/** Who may rescind a penalty (shared_rules/state/authorize.py). */

/** "Level 2 — turn loss" or "Game loss": a recorded penalty as the list shows it. */
export function penaltyText(p) {
  return p.level !== null && p.level !== undefined
    ? `Level ${p.level} — ${label(p.kind)}` : label(p.kind).replace(/^./, (c) => c.toUpperCase());
}

/** The penalties that count: not rescinded. */
export function standingPenalties(state) {
  return (state?.penalties || []).filter((p) => !p.rescinded);
}

/** What the panel says once a penalty is issued (a repeat infraction upgraded by the levels system says so). */
function recordedNote(st, payload, levels) {
  const given = st.penalties.filter((p) => p.player === payload.player).at(-1);
  if (!given) return "Penalty recorded.";
  const upgraded = levels && given.level !== payload.level;
  const then = given.effect === "game-loss" || given.effect === "disqualification" || given.effect === "ejection"
    ? ` Enter the result at ${nameOf(st, given.player)}'s table with Correct.` : "";
  return `Penalty recorded: ${nameOf(st, given.player)}, ${penaltyText(given)}`
    + (upgraded ? ` (a repeat infraction: upgraded from level ${payload.level})` : "") + "." + then;
}

/**
 * What the penalty about to be issued will be once the player's standing penalties are counted, as the rules
 * count them (shared_rules/state/penalties.py decide): `{value, label}` of the choice it becomes, and why.
 */
export function foreseen(desc, state, payload) {
  const mine = standingPenalties(state).filter((p) => p.player === payload.player);
  if (desc.system === "levels") {
    const key = payload.infraction || payload.reason;
    const repeats = mine.filter((p) => (p.infraction || p.reason) === key).length;
    const top = Math.max(...desc.choices.map(([v]) => Number(v)));
    const given = String(Math.min(top, payload.level + repeats));
    const why = repeats ? `A repeat of the same infraction at this event: upgraded from level ${payload.level}. ` : "";
    return { value: given, why };
  }
  if (desc.ejection_warnings && payload.kind === "warning") {
    const warnings = 1 + mine.filter((p) => p.kind === "warning").length;
    if (warnings >= desc.ejection_warnings) {
      const ejecting = desc.choices.find(([v]) => desc.consequences[v] && v !== "warning");
      return { value: ejecting?.[0] ?? "warning", why: `This is warning number ${warnings}: `
        + `${desc.ejection_warnings} warnings eject the player (${desc.source}). `, label: "Warning (ejects)" };
    }
  }
  return { value: desc.system === "levels" ? String(payload.level) : payload.kind, why: "" };
}

/** What a rescinded penalty leaves: on record, and a removed player still dropped until reinstated. */
function rescindedNote(state, penalty) {
  const who = nameOf(state, penalty.player);
  return `Rescinded: ${who}'s ${penaltyText(penalty).toLowerCase()}. It stays on record.`
    + (penalty.effect === "disqualification" || penalty.effect === "ejection"
      ? ` ${who} is still dropped: Reinstate them on the Players screen to pair them again.`
      : "");
}

/**
 * The panel: a section whose `update()` redraws it from the store (keeping a penalty being written).
 * The player and penalty last picked stay across redraws and after issuing: a redraw must never move the
 * form to another player while the judge writes the reason (a penalty would go to the wrong person).
 */
export function penaltiesPanel(store, role) {
  const section = h("section", { class: "card", id: "penalties" });
  const picked = { player: null, kind: null };
  const draft = { reason: "", infraction: "" };  // a penalty's text while its confirmation is asked (a redraw rebuilds the form)
  let note = "";  // the last penalty's outcome, kept across redraws
  let pending = null;  // a consequential penalty waiting for its confirmation: {payload, levels, label, text}
  let rescinding = null;  // the op_id of the penalty whose rescission is being written
  let rescindNote = "";

  async function issue(payload, levels) {
    pending = null;
    const { refused } = await store.act("penalty.issue", payload);
    note = refused ? withNames(store.state, refusalText(refused)) : recordedNote(store.state, payload, levels);
    if (!refused) {
      draft.reason = "";
      draft.infraction = "";
      const live = document.getElementById("penalty-reason");
      if (live) live.value = "";
    }
    await update();
    const live = document.getElementById("penalty-msg");  // the section may have been redrawn meanwhile
    if (live) live.textContent = note;
  }

  async function rescind(penalty, reason) {
    const text = reason.trim();
    if (!text) {
      rescindNote = "Give the reason for rescinding (an appeal upheld, a mistaken ruling…).";
      await update();
      document.getElementById("rescind-reason")?.focus();
      return;
    }
    const { refused } = await store.act("penalty.rescind", { penalty: penalty.op_id, reason: text });
    rescindNote = refused ? withNames(store.state, refusalText(refused)) : rescindedNote(store.state, penalty);
    if (!refused) rescinding = null;
    await update();
  }

  async function update() {
    const desc = (await rulesetInfo(store.state)).ui.penalties;
    const st = store.state;  // read after the wait: the newest data is what draws
    const levels = desc.system === "levels";
    const floor = role === "judge";
    const labels = new Map(desc.choices.map(([v, text]) => [String(v), text]));
    if (st.closed) {
      refresh(section, h("h2", {}, "Penalties"),
        h("p", { class: "closed-note", id: "penalty-closed" }, "The event is closed: penalties can no longer be issued or rescinded."),
        penaltyList(st, desc, null));
      return;
    }
    // Another player or penalty picked while a confirmation is asked: the question no longer stands.
    const withdraw = () => {
      if (!pending) return;
      pending = null;
      update();
    };
    const who = select(st.players.map((p) => [p.id, p.name]), { id: "penalty-player",
      onchange: (e) => { picked.player = who.value; if (!e.detail?.restored) withdraw(); } });
    if (picked.player && st.players.some((p) => p.id === picked.player)) who.value = picked.player;
    const choices = desc.choices.filter(([v]) => !floor || desc.floor.includes(v));
    const kind = select(choices, { id: "penalty-kind",
      onchange: (e) => { picked.kind = kind.value; if (!e.detail?.restored) withdraw(); } });
    if (picked.kind && choices.some(([v]) => String(v) === picked.kind)) kind.value = picked.kind;
    const { infraction, codes, infractionName } = infractionField(desc);
    const reason = h("input", { type: "text", required: true, id: "penalty-reason", value: draft.reason });
    if (infraction) infraction.value = draft.infraction;
    const onsubmit = (e) => {
      e.preventDefault();
      const payload = { player: who.value, reason: reason.value.trim() };
      picked.player = who.value;
      picked.kind = kind.value;
      if (levels) payload.level = Number(kind.value); else payload.kind = kind.value;
      const code = infraction?.value.trim();
      if (code) payload.infraction = code;
      const coming = foreseen(desc, store.state, payload);
      const consequence = desc.consequences[coming.value];
      if (!consequence) return issue(payload, levels);
      draft.reason = reason.value;
      draft.infraction = infraction?.value || "";
      // A game loss, a disqualification, an ejection: say what it does, and ask again.
      pending = { payload, levels, label: coming.label || labels.get(coming.value) || coming.value,
        text: `${coming.why}${consequence}`, player: nameOf(st, payload.player) };
      return update().then(() => document.getElementById("penalty-confirm")?.focus());
    };
    const confirmBox = pending && confirmPenalty(pending, {
      confirm: () => issue(pending.payload, pending.levels),
      back: () => { pending = null; update(); },
    });
    const rescinder = {  // the list's Rescind buttons and form (head judge and organizer)
      rescinding,
      note: rescindNote,
      rescind,
      open: (op) => {
        rescinding = op;
        rescindNote = "";
        update().then(() => document.getElementById("rescind-reason")?.focus());
      },
      cancel: () => {
        rescinding = null;
        rescindNote = "";
        update();
      },
    };
    refresh(section, h("h2", {}, "Penalties"),
      floor && h("p", { class: "hint" }, "Floor judges issue warnings; harsher penalties go to the head judge."),
      desc.hint && h("p", { class: "hint" }, desc.hint),
      h("form", { onsubmit }, h("div", { class: "penalty-fields" }, field("Player", who), field("Penalty", kind),
        infraction && h("div", { class: "field" }, h("label", { for: "penalty-infraction" }, "Infraction code (Appendix B)"),
          infraction, codes, infractionName),
        field("Reason", reason)),
      !pending && h("button", { type: "submit" }, "Issue penalty"), h("p", { role: "status", id: "penalty-msg" }, note)),
      confirmBox,
      penaltyList(st, desc, may(role, "penalty.rescind") ? rescinder : null),
      store.problems().filter((p) => p.op.type.startsWith("penalty.")).map((p) => problemNotice(store, p)));
  }

  return { el: section, update };
}

/** The infraction code input (with its index's codes offered, and the code's name and level shown as typed), or nulls. */
function infractionField(desc) {
  const codes = desc.infractions.length
    ? h("datalist", { id: "infraction-codes" }, desc.infractions.map(([code, name, level]) =>
      h("option", { value: code }, `${name} (Level ${level})`)))
    : null;
  const infractionName = h("small", { id: "infraction-name", "aria-live": "polite" });
  const nameInfraction = (value) => {
    const known = desc.infractions.find(([code]) => code === value.trim().toUpperCase());
    infractionName.textContent = known ? `${known[0]} ${known[1]}: ${desc.source} gives Level ${known[2]}` : "";
  };
  const infraction = desc.infraction_field
    ? h("input", { type: "text", id: "penalty-infraction", placeholder: "e.g. A3", autocomplete: "off", class: "narrow",
      list: codes ? "infraction-codes" : null, oninput: (e) => nameInfraction(e.target.value) }) : null;
  return { infraction, codes, infractionName };
}

/** The question a consequential penalty asks before it is issued: what it does, Confirm or Back. */
function confirmPenalty(pending, { confirm, back }) {
  return h("div", { class: "confirm-penalty danger-zone", role: "alertdialog", id: "penalty-confirm-box",
    "aria-labelledby": "penalty-confirm-title", "aria-describedby": "penalty-consequence" },
  h("p", { id: "penalty-confirm-title" }, h("strong", {}, `${pending.label} for ${pending.player}?`)),
  h("p", { id: "penalty-consequence" }, pending.text),
  h("button", { type: "button", class: "danger", id: "penalty-confirm", onclick: confirm }, `Confirm ${pending.label}`),
  h("button", { type: "button", id: "penalty-back", onclick: back }, "Back"));
}

/** The infraction as the list names it: "A3 Procedural error, severe" (the code alone when the index lacks it). */
function infractionText(desc, code) {
  const known = desc.infractions.find(([c]) => c === String(code).toUpperCase());
  return known ? `${known[0]} ${known[1]}` : code;
}

function penaltyList(st, desc, lead) {
  if (!st.penalties.length) return null;
  return [h("ul", { class: "penalties" }, st.penalties.map((p) => {
    const who = nameOf(st, p.player);
    const text = `${who}: ${penaltyText(p)} (${p.round ? `round ${p.round}` : "before round 1"})`
      + `${p.infraction ? ` [${infractionText(desc, p.infraction)}]` : ""} — ${p.reason}`;
    if (p.rescinded) {
      return h("li", { class: "rescinded", dataset: { level: p.level ?? "", kind: p.kind, op: p.op_id, rescinded: "yes" } },
        h("s", {}, text), ` Rescinded by the ${label(p.rescinded.by.role)}: ${p.rescinded.reason}`);
    }
    const open = lead && lead.rescinding === p.op_id;
    const input = open && h("input", { type: "text", id: "rescind-reason", autocomplete: "off", "aria-required": "true" });
    return h("li", { dataset: { level: p.level ?? "", kind: p.kind, op: p.op_id } }, text,
      lead && !open && h("button", { type: "button", class: "small", "aria-label": "Rescind",
        title: `Rescind ${who}'s ${penaltyText(p).toLowerCase()}`, onclick: () => lead.open(p.op_id) }, "Rescind"),
      open && h("form", { class: "rescind", onsubmit: (e) => { e.preventDefault(); lead.rescind(p, input.value); } },
        field("Reason for rescinding", input),
        h("button", { type: "submit", class: "danger" }, "Rescind penalty"),
        h("button", { type: "button", onclick: lead.cancel }, "Cancel"),
        lead.note && h("p", { role: "alert", class: "error" }, lead.note)));
  })), lead?.note && lead.rescinding === null ? h("p", { role: "status", id: "rescind-msg" }, lead.note) : null];
}

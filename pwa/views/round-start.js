// The Rounds screen's start form: the round's length (the ruleset's time limit,
// or what its attack dice give: ui.round_start.attack_dice, Shatterpoint's five)
// and Doomtown's secret d6, then round.start.
import { rules } from "../app/services.js";
import { rulesetInfo } from "../ui/timer.js";
import { field, forgetEdits, h, isEdited, numberInput, select } from "../ui/dom.js";

const FACES = [["failure", "Failure"], ["expertise", "Expertise"], ["strike", "Strike"], ["critical", "Critical"]];
const COUNTS = ["No", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];

/** The attack dice that set the round's length: a fieldset of `count` dice writing into `minutes`. */
function attackDice(count, minutes) {
  const dice = Array.from({ length: count }, (_, i) => select(FACES, { "aria-label": `Attack die ${i + 1}` }));
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
  return h("fieldset", { class: "dice" }, h("legend", {}, `${COUNTS[count] ?? count} attack dice (+1 minute per critical or strike)`),
    dice, total);
}

/** Doomtown Floor Rules 3.A, 5.C: the event's secret d6 checkbox, or null when the ruleset has none. */
async function secretD6(store) {
  const secretTime = await rules("secret_time", { event_id: store.eventId });
  if (!secretTime.sides) return null;
  // One d6 for the whole roundup (drawn from the event's seed, so every staff device knows it offline),
  // added to every round; players' devices are never told it.
  const box = h("input", { type: "checkbox", checked: true, id: "secret-d6" });
  const d6 = secretTime.minutes;
  const row = h("div", { class: "field inline" }, box, h("label", { for: "secret-d6" },
    `Add the event's secret d6: ${d6 === null ? "unknown on this device" : `${d6} minute${d6 === 1 ? "" : "s"}`}`
    + " (rolled once for the whole event, the same every round; players are not told)"));
  return { box, row };
}

/** The form that starts a drafted or published round; `start(payload)` sends round.start; its button is the
 * primary one when starting is the next step. */
export async function startForm(store, rnd, st, start, primary = true) {
  const info = await rulesetInfo(st);
  // The Settings screen's round length, else the document's; a round the game's declarations leave untimed
  // (an untimed cut chosen in the settings, a final the document leaves untimed) offers 0: no time limit.
  const offered = await rules("round_length", { event_id: store.eventId, number: rnd.number, stage: rnd.stage });
  const untimed = offered.untimed === true;
  const length = offered.minutes;
  const minutes = numberInput({ value: String(length), id: "round-minutes" });
  const extras = [];
  const diceCount = info.ui.round_start.attack_dice;
  if (diceCount) extras.push(attackDice(diceCount, minutes));
  const secret = await secretD6(store);
  if (secret) extras.push(secret.row);
  if (secret && untimed) secret.box.checked = false;  // an untimed round has no secret time
  return h("form", {
    class: "card", onsubmit: (e) => {
      e.preventDefault();
      const payload = { number: rnd.number, stage: rnd.stage, duration_s: Number(minutes.value) * 60 };
      if (secret?.box.checked) payload.secret = true;
      start(payload);
    },
  }, h("h3", {}, `Start round ${rnd.number}`), field("Round length (minutes)", minutes),
  untimed ? h("p", { class: "hint", id: "round-untimed" }, `No time limit (0 minutes): ${offered.why}.`) : null, extras,
  h("button", { type: "submit", class: primary ? "primary" : null, id: "start-round" }, `Start round ${rnd.number}`));
}

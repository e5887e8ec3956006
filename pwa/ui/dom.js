// Small DOM helpers shared by the views (no framework). Redraws (replace, and
// refresh that keeps what people type) live in redraw.js; re-exported here.
import { append, forgetEdits, isEdited, refresh, replace } from "./redraw.js";

export { forgetEdits, isEdited, refresh, replace };

/** h("button", {class: "big", onclick}, "Save") -> element. Attributes starting with "on" are listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "html") el.innerHTML = value;
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

/** Say something to screen readers (and show it briefly). */
export function announce(text) {
  const live = document.getElementById("announce");
  if (live) {
    live.textContent = "";
    setTimeout(() => { live.textContent = text; }, 30);
  }
}

// Each state's id -> name map, made once: a screen names every seat of a round, and making the map for each name
// drew a 2,048-player round's table in 0.45 s. A state is never changed once folded (a fold brings a new one).
const namesOf = new WeakMap();

/** The state's players' names by id (one map per state; do not change it). */
export function names(state) {
  if (!state) return new Map();
  let map = namesOf.get(state);
  if (!map) {
    map = new Map((state.players || []).map((p) => [p.id, p.name]));
    namesOf.set(state, map);
  }
  return map;
}

export function nameOf(state, id) {
  return names(state).get(id) || id;
}

/**
 * A rules message with each player id it names replaced by the player's name, and each staff device id by the
 * name the organizer gave its invitation (`staff`: device id -> name, from the sync: "Floor Judge Bo").
 */
export function withNames(state, text, staff = null) {
  const known = new Map(names(state));
  for (const [device, name] of Object.entries(staff || {})) if (name && !known.has(device)) known.set(device, name);
  const ids = [...known.keys()].sort((a, b) => b.length - a.length);
  if (!ids.length) return text;
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\w-])(${escaped.join("|")})(?![\\w-])`, "g");
  return String(text).replace(pattern, (id) => known.get(id) || id);
}

/** A staff device by the name the organizer gave it ("Floor Judge Bo"), else its id. */
export function deviceName(staff, device) {
  return (staff && staff[device]) || device;
}

/**
 * A refusal in an organizer's words: without the operation's name the rules put first ("round.swap: "), and
 * with the fields it names said plainly ("payload.scores: " -> "scores: ", "settings.cut" -> "the cut setting").
 */
export function refusalText(reason) {
  const text = String(reason ?? "");
  const type = text.match(/^([a-z]+\.[a-z_-]+):\s*/);
  return (type && type[1] in CHANGE_WORDS ? text.slice(type[0].length) : text)
    .replace(/\bpayload\.(?:result\.)?([a-z_]+)(?:\[\d+\]|\.[a-z_]+)*(:?)/g, (_, key, colon) => `${label(key.replace(/_/g, " "))}${colon}`)
    .replace(/\bsettings\.([a-z_0-9]+)/g, (_, key) => `the ${label(key.replace(/_/g, " "))} setting`);
}

/** The round people are playing (or about to): the last one, whatever its status. */
export function latestRound(state) {
  const rounds = state?.rounds || [];
  return rounds.length ? rounds[rounds.length - 1] : null;
}

export function clock(ms) {
  if (ms === null || ms === undefined) return "untimed";
  const sign = ms < 0 ? "−" : "";
  const total = Math.floor(Math.abs(ms) / 1000);
  const m = Math.floor(total / 60);
  const s = String(total % 60).padStart(2, "0");
  return `${sign}${m}:${s}`;
}

export function when(ms) {
  return ms ? new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "never";
}

export function label(key) {
  return String(key).replace(/-/g, " ");
}

/** A tiebreaker's value as standings show it: numbers to two decimals (0.6667 -> "0.67"). */
export function tiebreakerText(value) {
  return typeof value === "number" ? value.toFixed(2) : String(value ?? "");
}

export function statusBadge(status) {
  return h("span", { class: `badge status-${status}` }, label(status));
}

/** What each kind of change is called on the screens (shared_rules/state/operations.py's types). */
const CHANGE_WORDS = {
  "event.create": "Creating the event", "event.configure": "Event settings", "event.close": "Closing the event",
  "player.register": "Registration", "player.edit": "Player details", "player.check_in": "Check-in",
  "player.drop": "Drop", "player.reinstate": "Reinstatement", "player.remove": "Removing a player",
  "round.pair": "Pairing", "round.swap": "Swap", "round.publish": "Publishing", "round.discard": "Discarding a draft",
  "round.start": "Starting the round", "timer.pause": "Pausing the clock", "timer.resume": "Resuming the clock",
  "timer.extend": "Extra time", "result.report": "Result", "result.confirm": "Confirming a result",
  "result.correct": "Correction", "result.resolve": "Ruling", "cut.make": "The cut", "device.void": "Dismissed change",
  "penalty.issue": "Penalty", "penalty.rescind": "Rescinding a penalty",
  "call.judge": "Calling a judge", "call.player": "Calling a player", "call.answer": "Answering a call",
};

/** A change's kind in words ("round.swap" -> "Swap"). */
export function changeWords(type) {
  return CHANGE_WORDS[type] || label(String(type).replace(".", " "));
}

/** What to do about a refused operation, by its error code (and, for the round's own steps, its type). */
export function adviceFor(problem) {
  if (problem.error === "not-authorized") return "Your role may not do this: ask the head judge or the organizer.";
  if (problem.error === "round-frozen") return "This round is frozen: ask the head judge.";
  if (problem.error === "event-closed") {
    return "The event was closed before this change reached the server: it was not applied. Ask the organizer.";
  }
  if (problem.error === "list-locked") {
    return "The lists locked before this change reached the server: the list was not changed. Ask a judge or the "
      + "organizer to change it.";
  }
  if (problem.error === "already-paired") return "Someone else did this first: check the screen and try again if needed.";
  if (problem.error === "open-dispute") return "Resolve the open dispute first (Disputes screen), then do this again.";
  // Pairing, publishing, starting, the cut, the close: nothing to enter again; the Rounds screen shows the next step.
  const type = problem.op?.type || "";
  if (/^(round\.|cut\.|event\.close)/.test(type)) return "Nothing was changed: the Rounds screen shows where the round stands and what to do next.";
  if (type === "call.answer") return "Nothing was changed: the calls list shows who is still waiting.";
  if (type.startsWith("call.")) return "Nothing was sent: check the table, then call again (or find a judge at the judge station).";
  if (!problem.server) return "The rules refuse this on this device: correct it and enter it again.";
  return "Check the details, enter it again if needed, then dismiss this message.";
}

/** A refused-operation notice with a dismiss button; `staff` names the staff devices it mentions. */
export function problemNotice(store, problem, staff = null) {
  return h("div", { class: "problem", role: "alert", dataset: { seq: problem.seq } },
    h("strong", {}, problem.server ? "Refused by the server: " : "Not applied: "),
    `${changeWords(problem.op.type)} — ${withNames(store.state, refusalText(problem.reason), staff ?? store.session?.staff_names)}`,
    h("p", { class: "advice" }, adviceFor(problem)),
    h("button", { type: "button", class: "small", onclick: () => store.dismiss(problem.seq) }, "Dismiss"));
}

/** Problems whose payload names this round (and table, when given). */
export function problemsAt(store, round, table = undefined) {
  return store.problems().filter((p) => {
    const pl = p.op.payload || {};
    const r = pl.round ?? pl.number;
    return r === round && (table === undefined || pl.table === table);
  });
}

export function field(labelText, input, hint) {
  const id = input.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  input.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, labelText), input, hint ? h("small", {}, hint) : null);
}

export function numberInput(attrs = {}) {
  return h("input", { type: "number", inputmode: "numeric", min: "0", ...attrs });
}

export function select(options, attrs = {}) {
  return h("select", attrs, options.map(([value, text]) => h("option", { value }, text)));
}

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

/** A rules message with each player id it names replaced by the player's name. */
export function withNames(state, text) {
  const ids = [...names(state).keys()].sort((a, b) => b.length - a.length);
  if (!ids.length) return text;
  const escaped = ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`(?<![\\w-])(${escaped.join("|")})(?![\\w-])`, "g");
  return String(text).replace(pattern, (id) => nameOf(state, id));
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

/** What to do about a refused operation, by its error code. */
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
  if (!problem.server) return "The rules refuse this on this device: correct it and enter it again.";
  return "Check the details, enter it again if needed, then dismiss this message.";
}

/** A refused-operation notice with a dismiss button. */
export function problemNotice(store, problem) {
  return h("div", { class: "problem", role: "alert", dataset: { seq: problem.seq } },
    h("strong", {}, problem.server ? "Refused by the server: " : "Not applied: "),
    `${label(problem.op.type)} — ${problem.reason}`,
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

// Calls in the hall (shared_rules/state/calls.py): a judge called to a table, a player called to a table or
// the judge station. Staff see the open calls and answer them; the big screen shows a discreet strip;
// staff call a player from the roster or a match.
import { announce, h, nameOf, refresh, refusalText, withNames } from "./dom.js";

/** The calls not yet answered as done, oldest first. */
export function openCalls(state) {
  return (state?.calls || []).filter((c) => c.answered_at === null || c.answered_at === undefined);
}

/** "14:05" for a call's time (the device clock of whoever made it). */
export function callTime(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/** How long ago, in words: "just now", "4 min ago". */
export function ago(ms, now = Date.now()) {
  const minutes = Math.floor(Math.max(0, now - ms) / 60_000);
  return minutes < 1 ? "just now" : `${minutes} min ago`;
}

let ticker = null;

/** Bring every ``agoLabel`` under ``root`` up to ``now``. */
export function refreshAgo(root = globalThis.document, now = Date.now()) {
  for (const el of root?.querySelectorAll?.("[data-ago]") || []) el.textContent = ago(Number(el.dataset.ago), now);
}

/**
 * ``ago(ms)`` as an element that keeps itself current: a call stays on screen for minutes while nothing else
 * changes, and "just now" must become "6 min ago" without a redraw. One timer for every such element.
 */
export function agoLabel(ms, now = Date.now()) {
  if (ticker === null) {
    ticker = setInterval(() => refreshAgo(), 20_000);
    ticker.unref?.();  // under Node (the tests) the timer must not keep the process alive
  }
  return h("span", { class: "ago", dataset: { ago: String(ms) } }, ago(ms, now));
}

/** Where a call sends someone, in words. */
export function callPlace(call) {
  if (call.table !== null && call.table !== undefined) return `table ${call.table}`;
  return call.kind === "player" ? "the judge station" : "the player (no table)";
}

/** The staff list of open calls, answered from here: "On my way" (stays open) and "Done". */
export function callsPanel(store) {
  const el = h("section", { class: "card calls-panel", id: "calls", "aria-live": "polite", hidden: true });
  const out = h("p", { class: "call-error", role: "alert" });

  const answer = async (call, reply) => {
    const { refused } = await store.act("call.answer", { call: call.id, reply });
    out.textContent = refused ? withNames(store.state, refusalText(refused), store.session?.staff_names) : "";
    if (!refused) announce(reply === "done" ? "Call closed" : "On your way: the player's phone says so");
  };

  function row(st, call) {
    const coming = call.on_my_way;
    const who = call.player ? nameOf(st, call.player) : "Staff";
    const text = call.kind === "judge"
      ? [h("strong", { class: "call-place" }, callPlace(call).replace(/^t/, "T")), ` — ${call.reason || "judge needed"}`,
        h("span", { class: "hint" }, ` · ${who}`)]
      : [h("strong", { class: "call-place" }, `${who} called to ${callPlace(call)}`), call.note ? ` — ${call.note}` : ""];
    return h("li", { class: `call call-${call.kind}${coming ? " coming" : ""}`, dataset: { call: call.id, table: call.table ?? "" } },
      h("p", {}, ...text),
      h("p", { class: "hint" }, `${callTime(call.at)} (`, agoLabel(call.at), ")", coming ? " · a judge is on the way" : ""),
      h("div", { class: "call-actions" },
        call.kind === "judge" && !coming && h("button", { type: "button", class: "primary", onclick: () => answer(call, "on-my-way") },
          "On my way"),
        h("button", { type: "button", onclick: () => answer(call, "done") }, call.kind === "judge" ? "Done" : "Arrived")));
  }

  function update() {
    const st = store.state;
    const calls = openCalls(st);
    el.hidden = !calls.length && !out.textContent;
    const judges = calls.filter((c) => c.kind === "judge"), players = calls.filter((c) => c.kind === "player");
    refresh(el,
      h("h2", {}, judges.length ? `Judge calls (${judges.length})` : "Calls"),
      h("ul", { class: "calls", id: "judge-calls" }, judges.map((c) => row(st, c))),
      players.length ? [h("h3", {}, "Players called"), h("ul", { class: "calls", id: "player-calls" }, players.map((c) => row(st, c)))] : null,
      out);
  }

  return { el, update };
}

/** The big screen's strip: "Judge called to table 12" for each open judge call, no player names. */
export function callStrip(state) {
  const calls = openCalls(state);
  if (!calls.length) return null;
  return h("div", { class: "call-strip", id: "call-strip", role: "status" },
    calls.map((c) => h("span", { class: "call-chip", dataset: { call: c.id } },
      c.kind === "judge" ? `Judge called to ${callPlace(c)}` : `${nameOf(state, c.player)}: please come to ${callPlace(c)}`,
      c.on_my_way ? " — on the way" : "")));
}

/**
 * Staff call a player: a small form behind a "Call…" button, to their table (prefilled ``table``, changeable)
 * or to the judge station, with a short note.
 */
export function callPlayerForm(store, player, table = null) {
  const seat = typeof table === "number" ? table : "";  // a bye's seat ("bye") is no table
  const tableInput = h("input", { type: "number", min: "0", inputmode: "numeric", class: "narrow", value: seat,
    "aria-label": "Table number" });
  const note = h("input", { type: "text", maxlength: "200", placeholder: "Note (optional)", "aria-label": "Note" });
  const out = h("p", { class: "call-error", role: "alert" });
  const details = h("details", { class: "call-player", dataset: { player } });
  const send = async (where) => {
    const payload = { player, where };
    if (where === "table") {
      if (tableInput.value === "") {
        out.textContent = "Type the table number to call the player to (or call them to the judge station).";
        return;
      }
      payload.table = Number(tableInput.value);
    }
    if (note.value.trim()) payload.note = note.value.trim();
    const { refused } = await store.act("call.player", payload);
    if (refused) {
      out.textContent = withNames(store.state, refusalText(refused), store.session?.staff_names);
      return;
    }
    out.textContent = "";
    details.open = false;
    announce(`${nameOf(store.state, player)} is called: their phone shows it until you mark them arrived`);
  };
  details.append(
    h("summary", { class: "small" }, "Call…"),
    h("div", { class: "call-form" },
      h("label", {}, "Table ", tableInput),
      h("button", { type: "button", class: "small call-to-table", onclick: () => send("table") }, "Call to this table"),
      h("button", { type: "button", class: "small call-to-station", onclick: () => send("judge-station") }, "Call to the judge station"),
      note, out));
  return details;
}

/**
 * Staff call a judge to a table (a floor judge wants a second opinion or the head judge; the desk sends one to
 * a table a player reported): a reason behind a "Call a judge here" button. Every staff device's calls list
 * shows it, and the big screen's strip.
 */
export function callJudgeForm(store, table) {
  const reason = h("input", { type: "text", maxlength: "500", placeholder: "Why (e.g. appeal to the head judge)",
    "aria-label": "Why a judge is needed", class: "call-reason" });
  const out = h("p", { class: "call-error", role: "alert" });
  const details = h("details", { class: "call-judge", dataset: { table: String(table) } });
  const send = async () => {
    const why = reason.value.trim();
    if (!why) {
      out.textContent = "Say in a few words why a judge is needed: it shows on the judges' calls list.";
      reason.focus();
      return;
    }
    const { refused } = await store.act("call.judge", { table, reason: why });
    if (refused) {
      out.textContent = withNames(store.state, refusalText(refused), store.session?.staff_names);
      return;
    }
    out.textContent = "";
    reason.value = "";
    details.open = false;
    announce(`Judge called to table ${table}: the judges' calls list shows it until one answers`);
  };
  details.append(
    h("summary", { class: "small" }, "Call a judge here…"),
    h("div", { class: "call-form" }, reason,
      h("button", { type: "button", class: "small call-judge-send", onclick: send }, "Call a judge to this table"), out));
  return details;
}

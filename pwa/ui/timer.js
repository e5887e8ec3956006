// The round clock: derived from the round's `timer` in the state and this
// device's clock corrected to the server's (the offset measured at every sync;
// shared_rules' timer_remaining_ms in the worker), so it keeps running offline
// and every device shows the same time, however wrong its own clock is. Per-ruleset extras:
// Doomtown's secret d6 (players' devices never learn it: they see the clock to
// the hour, then "secret time"; staff screens with `reveal` see the real end),
// Doomtown's 55-minute warning (at minute 55 of the round as announced), and the notes the ruleset's screen descriptor
// names (Shatterpoint's Mission Critical).
import { rules } from "../app/services.js";
import { clock, h, replace } from "./dom.js";

const infoCache = new Map();

/** The ruleset's screen descriptor (rules_api.ruleset_info); a player's phone has it from the server's view. */
export async function rulesetInfo(state, store = null) {
  if (store?.light) return store.ask("ruleset_info", {});
  const key = `${state.ruleset}:${JSON.stringify(state.settings)}`;
  if (!infoCache.has(key)) infoCache.set(key, rules("ruleset_info", { ruleset: state.ruleset, settings: state.settings }));
  return infoCache.get(key);
}

/**
 * Doomtown Floor Rules 3.D's fixed warning ("55-minute warning") once minute 55 of the round as announced (its
 * length plus extensions) is reached, or null: before it, after the announced end, without a warning minute, and
 * under a round too short to reach it (a 1-minute round never shows it).
 */
export function warningNote(limits, c) {
  const warnMs = (limits.warning_minute || 0) * 60000;
  const lengthMs = ((c.duration_s || 0) + (c.extended_s || 0)) * 1000;
  const announced = c.announced_ms;
  if (!warnMs || lengthMs <= warnMs || announced === null || announced === undefined || announced <= 0) return null;
  return lengthMs - announced >= warnMs ? `${limits.warning_minute}-minute warning` : null;
}

/**
 * A live clock element for the latest started round; `reveal` shows Doomtown's secret end to staff.
 *
 * It redraws every second and at once whenever the store's data changes (a
 * round starting, pausing or getting more time shows without waiting for the
 * next second). Ticks are asynchronous (the clock comes from the worker), so
 * only the newest one draws: a tick that started before a sync brought the
 * round in can never paint "No round running" over a running clock.
 */
export function timerPanel(store, { reveal = false, big = false } = {}) {
  const el = h("div", { class: big ? "clock big" : "clock", role: "timer", "aria-live": "off" });
  let stopped = false;
  let started = 0;  // ticks begun
  let drawn = 0;    // the newest tick that has drawn
  let running = 0;  // ticks in flight
  const draw = (seq, ...children) => {
    if (stopped || seq < drawn) return false;
    drawn = seq;
    replace(el, ...children);
    return true;
  };
  const tick = async () => {
    if (stopped || !store.state) return;
    const seq = ++started;
    const args = { event_id: store.eventId, now_ms: store.now() };
    const clocks = await (store.light ? store.ask("timer", args) : rules("timer", args));
    const c = clocks[clocks.length - 1];
    if (!c || c.status === "complete") {
      if (draw(seq, c ? h("span", { class: "time done" }, `Round ${c.round} complete`) : h("span", { class: "time" }, "No round running"))) {
        el.dataset.remaining = "";
      }
      return;
    }
    const info = await rulesetInfo(store.state, store);
    const limits = info.time_limits || {};
    let shown = c.remaining_ms;
    let exposed = c.remaining_ms;  // what data-remaining carries: never more than this screen may show
    const notes = [];
    if (c.secret && c.remaining_ms !== null) {
      // Doomtown Floor Rules 3.A, 5.C: the announced hour, then the event's secret d6 minutes. Players'
      // devices never know the d6 (secret_s null): they count to the hour, then say "secret time".
      const known = c.secret_s !== null && c.secret_s !== undefined;
      const announced = c.announced_ms;
      if (announced > 0) {
        shown = announced;
        exposed = reveal && known ? c.remaining_ms : announced;
        if (reveal && known) notes.push(`Then secret time: ${c.secret_s / 60} minutes (the event's d6)`);
      } else if (reveal && known) {
        notes.push(c.remaining_ms > 0 ? `Secret time: ${clock(c.remaining_ms)} left (d6 = ${c.secret_s / 60})` : "Time! Finish the current turn");
      } else {
        notes.push("Secret time: the round ends at any moment");
        shown = null;
        exposed = null;
      }
      const warning = warningNote(limits, c);
      if (warning) notes.push(warning);
    }
    // The ruleset's own notes from a point of the round on (Shatterpoint's Mission Critical: ui.timer.notes).
    for (const note of info.ui.timer.notes) {
      if (c.remaining_ms !== null && c.remaining_ms <= note.at_or_below_ms && c.remaining_ms > 0) notes.push(note.text);
    }
    if (c.remaining_ms !== null && c.remaining_ms <= 0 && !notes.length) notes.push("Time! Finish the current turn");
    if (c.paused) notes.push("Paused");
    if (draw(seq, h("span", { class: "label" }, `Round ${c.round}`),
      h("span", { class: "time" }, shown === null ? "—:—" : clock(shown)),
      notes.map((n) => h("span", { class: "note" }, n)))) {
      el.dataset.remaining = exposed === null ? "" : String(exposed);
      el.dataset.secret = c.secret ? "yes" : "no";
      el.dataset.round = String(c.round);
    }
  };
  const safeTick = () => {
    running += 1;
    return tick().catch((error) => { el.dataset.error = error.message; }).finally(() => { running -= 1; });
  };
  // The once-a-second redraw skips a beat while a tick is still waiting for a busy worker.
  const interval = setInterval(() => { if (!running) safeTick(); }, 1000);
  const onChange = () => safeTick();
  store.addEventListener("change", onChange);
  safeTick();
  return {
    el,
    tick: safeTick,
    stop: () => {
      stopped = true;
      clearInterval(interval);
      store.removeEventListener("change", onChange);
    },
  };
}

// Big screen, the staff's view: the round clock and the posted round's pairings, by player name (or by
// table), in pages that fill the screen and turn by themselves (arrow keys and the buttons turn them too).
// From here the TO starts big-screen mode (views/kiosk.js): full screen, no staff control, for the projector.
import { boardPager, boardRows, pagingKeys } from "../ui/board.js";
import { postedRound } from "../ui/pairings.js";
import { callStrip } from "../ui/calls.js";
import { timerPanel } from "../ui/timer.js";
import { h, replace } from "../ui/dom.js";

const PAGE_MS = Number(globalThis.localStorage?.getItem("topcut.boardPageMs")) || 12_000;
const OPTIONS_KEY = "topcut.kioskOptions";
// {eventId, code} while big-screen mode is on: in sessionStorage (this browser tab) without an unlock code, in
// localStorage (every tab of this browser: a new tab on the screen laptop opens the board too) with one.
export const KIOSK_KEY = "topcut.kiosk";

/** The TO's big-screen choices, kept on this device. */
export function kioskOptions() {
  const saved = JSON.parse(globalThis.localStorage?.getItem(OPTIONS_KEY) || "{}");
  const screens = Number(saved.screens) || 1;
  return { byTable: Boolean(saved.byTable), standingsMidRound: Boolean(saved.standingsMidRound), seconds: Number(saved.seconds) || 12,
           screens, screen: Math.min(Number(saved.screen) || 1, screens) };
}

function check(id, text, checked) {
  return h("div", { class: "field check" }, h("label", { for: id }, h("input", { type: "checkbox", id, checked }), " ", text));
}

/** The dialog that starts big-screen mode: what it shows, how fast it pages, an optional unlock code. */
function kioskDialog(eventId, navigate) {
  const o = kioskOptions();
  const seconds = h("input", { type: "number", id: "kiosk-seconds", min: "4", max: "120", value: String(o.seconds), inputmode: "numeric" });
  const code = h("input", { type: "text", id: "kiosk-code", inputmode: "numeric", autocomplete: "off", maxlength: "12" });
  const screens = h("input", { type: "number", id: "kiosk-screens", min: "1", max: "8", value: String(o.screens), inputmode: "numeric" });
  const screen = h("input", { type: "number", id: "kiosk-screen", min: "1", max: "8", value: String(o.screen), inputmode: "numeric" });
  const error = h("p", { class: "error", id: "kiosk-error", role: "alert", hidden: true });
  const refuse = (text, input) => {
    error.textContent = text;
    error.hidden = false;
    input.focus();
  };
  const dialog = h("dialog", { id: "kiosk-dialog", "aria-labelledby": "kiosk-dialog-title" },
    h("h2", { id: "kiosk-dialog-title" }, "Big-screen mode"),
    h("p", {}, "Full screen for the hall's projector: no staff controls, and no way to the staff screens from it. "
      + "While a round is played: its pairings by name. Once its results are all in: the standings after it."),
    check("kiosk-by-table", "Also show the pairings by table", o.byTable),
    check("kiosk-standings", "During a round, also show the standings after the last complete round", o.standingsMidRound),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "kiosk-seconds" }, "Seconds per page"), seconds),
      h("div", { class: "field" }, h("label", { for: "kiosk-code" }, "Unlock code (optional)"), code)),
    h("div", { class: "row" },
      h("div", { class: "field" }, h("label", { for: "kiosk-screens" }, "Screens in the hall"), screens),
      h("div", { class: "field" }, h("label", { for: "kiosk-screen" }, "This one is screen"), screen)),
    h("p", { class: "hint" }, "Several screens split each list (screen 1 of 2: names A to about M). With an unlock code, "
      + "every tab of this browser shows the board until the code is given; without, leaving asks for a confirmation."),
    error,
    h("div", { class: "row" },
      h("button", { type: "button", id: "kiosk-start", class: "primary", onclick: () => {
        const s = Number(seconds.value);
        const of = Number(screens.value);
        const at = Number(screen.value);
        if (!Number.isInteger(s) || s < 4 || s > 120) return refuse("Seconds per page: a whole number from 4 to 120.", seconds);
        if (!Number.isInteger(of) || of < 1 || of > 8) return refuse("Screens in the hall: a whole number from 1 to 8.", screens);
        if (!Number.isInteger(at) || at < 1 || at > of) return refuse(`This one is screen: a number from 1 to ${of}.`, screen);
        const options = { byTable: dialog.querySelector("#kiosk-by-table").checked,
                          standingsMidRound: dialog.querySelector("#kiosk-standings").checked, seconds: s, screens: of, screen: at };
        globalThis.localStorage?.setItem(OPTIONS_KEY, JSON.stringify(options));
        const lock = { eventId, code: code.value.trim() };
        (lock.code ? globalThis.localStorage : globalThis.sessionStorage)?.setItem(KIOSK_KEY, JSON.stringify(lock));
        // Full screen needs this click (a user gesture); where it is refused the mode still hides everything.
        document.documentElement.requestFullscreen?.({ navigationUI: "hide" }).catch(() => {});
        dialog.close();
        navigate(`#/event/${encodeURIComponent(eventId)}/kiosk`);
      } }, "Start big-screen mode"),
      h("button", { type: "button", id: "kiosk-cancel", onclick: () => dialog.close() }, "Cancel")));
  return dialog;
}

async function mount(root, { store, eventId, navigate }) {
  document.body.classList.add("board-mode");
  const clockBox = timerPanel(store, { big: true });
  let mode = "name";
  let rnd = null;

  const title = h("span", { class: "board-title", id: "board-title" });
  const range = h("span", { class: "board-range", id: "board-range" });
  const counter = h("span", { class: "board-counter", id: "board-page" });
  const pause = h("button", { type: "button", class: "small", id: "board-pause", onclick: () => pager.pause(!pager.paused) }, "Pause");
  const modeButton = h("button", { type: "button", class: "small", id: "board-mode", onclick: () => {
    mode = mode === "name" ? "table" : "name";
    show();
  } }, "By table");
  const dialog = kioskDialog(eventId, navigate);
  const kioskButton = h("button", { type: "button", class: "small primary", id: "board-kiosk", onclick: () => dialog.showModal() },
    "Big-screen mode…");
  const bar = h("div", { class: "board-bar", id: "board-bar" }, title, range, counter);
  const pager = boardPager({ pageMs: PAGE_MS, onDraw: (d) => {
    title.textContent = d.section.title;
    range.textContent = d.range;
    counter.textContent = rnd ? `Page ${d.page} of ${d.pages}` : "";
    pause.textContent = d.paused ? "Resume" : "Pause";
    modeButton.textContent = mode === "name" ? "By table" : "By name";
    Object.assign(bar.dataset, { page: String(d.page), pages: String(d.pages), range: d.range, mode });
  } });
  bar.append(h("span", { class: "board-controls" },
    h("button", { type: "button", class: "small", id: "board-prev", "aria-label": "Previous page", onclick: () => pager.turn(-1, true) }, "◀"),
    pause,
    h("button", { type: "button", class: "small", id: "board-next", "aria-label": "Next page", onclick: () => pager.turn(1, true) }, "▶"),
    modeButton, kioskButton));
  const calls = h("div", { class: "call-strip-box" });  // judges called to tables (ui/calls.js)
  replace(root, h("h1", { class: "sr-only" }, "Big screen"), clockBox.el, calls, bar, pager.area, dialog);

  function show(keepPage = false) {
    const name = rnd ? `Round ${rnd.number} pairings ${mode === "name" ? "by name" : "by table"}` : "Pairings";
    pager.show([{ kind: mode, title: name, rows: rnd ? boardRows(store.state, rnd, mode) : [], empty: "Pairings are not posted yet." }],
      { keepPage });
  }

  const onKey = pagingKeys(pager);
  document.addEventListener("keydown", onKey);

  return {
    async update() {
      rnd = postedRound(store.state);
      replace(calls, callStrip(store.state));
      const key = rnd ? `${rnd.stage}:${rnd.number}` : "";
      const sameRound = pager.area.dataset.round === key;
      pager.area.dataset.round = key;
      show(sameRound);
    },
    destroy() {
      clockBox.stop();
      pager.destroy();
      document.removeEventListener("keydown", onKey);
      document.body.classList.remove("board-mode");
    },
  };
}

export default { mount };

// Big-screen mode, for the hall's projector: full screen (where the browser allows; the layout needs no
// header, tabs or footer either way), no staff control, and the staff screens out of reach from it: while it
// is on, this tab opens nothing else (main.js), and leaving takes the Exit corner plus a confirmation (or the
// unlock code the TO chose). It shows what the hall may see (ui/board.js hallSections): the posted round's
// pairings by name (and by table), the round clock, and standings only after a round's results are all in.
import { boardPager, hallSections, pagingKeys } from "../ui/board.js";
import { callStrip } from "../ui/calls.js";
import { timerPanel } from "../ui/timer.js";
import { h, replace, when } from "../ui/dom.js";
import { KIOSK_KEY, kioskOptions } from "./board.js";

/** The big-screen lock on this tab or, with an unlock code, on this browser ({eventId, code}), or null. */
export function kioskLock() {
  try {
    return JSON.parse(globalThis.sessionStorage?.getItem(KIOSK_KEY) || globalThis.localStorage?.getItem(KIOSK_KEY) || "null");
  } catch {
    return null;
  }
}

/** This tab is no big screen any more (the lock is released). */
export function releaseKiosk() {
  globalThis.sessionStorage?.removeItem(KIOSK_KEY);
  globalThis.localStorage?.removeItem(KIOSK_KEY);
}

/** The Exit corner's confirmation: leave with a press (or the unlock code), or keep showing. */
function exitDialog(lock, leave) {
  const error = h("p", { class: "error", id: "kiosk-exit-error", role: "alert", hidden: true });
  const code = lock?.code ? h("input", { type: "password", id: "kiosk-exit-code", inputmode: "numeric", autocomplete: "off" }) : null;
  const dialog = h("dialog", { id: "kiosk-exit-dialog", "aria-labelledby": "kiosk-exit-title" },
    h("h2", { id: "kiosk-exit-title" }, "Leave big-screen mode?"),
    h("p", {}, "This laptop will show the staff screens again."),
    code ? h("div", { class: "field" }, h("label", { for: "kiosk-exit-code" }, "Unlock code (the one chosen when big-screen mode started)"), code) : null,
    error,
    h("div", { class: "row" },
      h("button", { type: "button", id: "kiosk-leave", onclick: () => {
        if (code && code.value.trim() !== lock.code) {
          error.textContent = "That is not the unlock code. Ask the organizer who started big-screen mode.";
          error.hidden = false;
          code.value = "";
          code.focus();
          return;
        }
        dialog.close();
        leave();
      } }, "Leave big-screen mode"),
      h("button", { type: "button", class: "primary", id: "kiosk-stay", onclick: () => dialog.close() }, "Keep showing")));
  let closing = null;
  dialog.addEventListener("close", () => clearTimeout(closing));
  return {
    el: dialog,
    open() {
      if (dialog.open) return;
      error.hidden = true;
      if (code) code.value = "";
      dialog.showModal();
      clearTimeout(closing);
      closing = setTimeout(() => dialog.open && dialog.close(), 30_000);  // nobody answered: back to the board
    },
  };
}

async function mount(root, { store, eventId, navigate }) {
  const lock = kioskLock();
  const options = kioskOptions();
  const pageMs = Number(globalThis.localStorage?.getItem("topcut.boardPageMs")) || options.seconds * 1000;
  document.body.classList.add("board-mode");
  const clockBox = timerPanel(store, { big: true });
  const name = h("span", { class: "kiosk-event", id: "kiosk-event" });
  const title = h("span", { class: "board-title", id: "board-title" });
  const range = h("span", { class: "board-range", id: "board-range" });
  const counter = h("span", { class: "board-counter", id: "board-page" });
  const bar = h("div", { class: "board-bar kiosk-bar", id: "board-bar" }, title, range, counter);
  const pager = boardPager({ pageMs, onDraw: (d) => {
    title.textContent = d.section.title;
    range.textContent = d.range;
    counter.textContent = d.pages > 1 ? `Page ${d.page} of ${d.pages}` : "";
    Object.assign(bar.dataset, { page: String(d.page), pages: String(d.pages), range: d.range, kind: d.section.kind });
  } });

  const leave = () => {
    releaseKiosk();
    if (document.fullscreenElement) document.exitFullscreen?.().catch(() => {});
    navigate(`#/event/${encodeURIComponent(eventId)}/board`);
  };
  const exit = exitDialog(lock, leave);
  const exitButton = h("button", { type: "button", class: "kiosk-exit", id: "kiosk-exit", "aria-label": "Exit big-screen mode",
    onclick: (event) => { event.stopPropagation(); exit.open(); } }, "Exit");
  const head = h("div", { class: "kiosk-head" }, clockBox.el, h("div", { class: "kiosk-titles" }, name, bar));
  // The header's sync line is hidden: an unconnected board says so itself, small, for the TO walking by.
  const offline = h("p", { class: "kiosk-offline", id: "kiosk-offline", hidden: true });
  const watch = () => {
    const s = store.status();
    offline.hidden = s.online;
    offline.textContent = s.online ? "" : `Not connected since ${when(s.lastSync)}: showing what this laptop has`;
  };
  const watching = setInterval(watch, 5000);
  const calls = h("div", { class: "call-strip-box" });  // judges called to tables (ui/calls.js)
  replace(root, h("h1", { class: "sr-only" }, "Big-screen mode"), head, calls, pager.area, offline, exitButton, exit.el);

  // Esc (outside full screen: inside it the browser leaves full screen itself) asks to leave; a click on the
  // board goes back to full screen after someone left it.
  const onKey = (event) => {
    if (exit.el.open) return;
    if (event.key === "Escape") exit.open();
    else pagingKeys(pager)(event);
  };
  const onClick = (event) => {
    if (exit.el.open || event.target.closest?.("#kiosk-exit")) return;
    if (!document.fullscreenElement) document.documentElement.requestFullscreen?.({ navigationUI: "hide" }).catch(() => {});
  };
  document.addEventListener("keydown", onKey);
  root.addEventListener("click", onClick);
  let shown = "";

  return {
    async update() {
      name.textContent = store.state?.name || "";
      replace(calls, callStrip(store.state));
      watch();
      const sections = await hallSections(store, options);
      const key = sections.map((s) => `${s.title}:${s.rows.length}`).join("|");
      pager.show(sections, { keepPage: key === shown });
      shown = key;
    },
    destroy() {
      clearInterval(watching);
      clockBox.stop();
      pager.destroy();
      document.removeEventListener("keydown", onKey);
      root.removeEventListener("click", onClick);
      document.body.classList.remove("board-mode");
    },
  };
}

export default { mount };

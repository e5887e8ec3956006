// Big screen for the hall: the round clock and the posted round's pairings, by player name (or by table),
// in pages that fill the screen and turn by themselves (arrow keys and the buttons turn them too).
// Built for 500+ players: the page size comes from measuring a row against the space left under the
// clock, so the board never overflows the screen, whatever its size; a resize lays it out again.
import { postedRound } from "../ui/pairings.js";
import { timerPanel } from "../ui/timer.js";
import { h, nameOf, replace } from "../ui/dom.js";

const PAGE_MS = Number(globalThis.localStorage?.getItem("topcut.boardPageMs")) || 12_000;
const COLUMN_EMS = 24;  // a column is at least this wide (name, table, opponent)

const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });

/** One row per player (alphabetical), or one per match (by table). */
export function boardRows(state, rnd, mode) {
  const rows = [];
  if (mode === "table") {
    for (const m of rnd.matches) {
      rows.push({ key: m.table ?? "bye", table: m.table, name: nameOf(state, m.players[0]),
                  opponent: m.players.slice(1).map((p) => nameOf(state, p)).join(", ") || "bye" });
    }
    rows.sort((a, b) => (a.table ?? Infinity) - (b.table ?? Infinity));
    return rows;
  }
  for (const m of rnd.matches) {
    for (const p of m.players) {
      rows.push({ name: nameOf(state, p), table: m.table,
                  opponent: m.players.filter((q) => q !== p).map((q) => nameOf(state, q)).join(", ") || "bye" });
    }
  }
  rows.sort((a, b) => collator.compare(a.name, b.name));
  return rows;
}

function initial(name) {
  const ch = String(name || "").trim().charAt(0);
  return ch ? ch.toLocaleUpperCase() : "?";
}

/** "A–C" for a page of names; "Tables 1–40" for a page of tables. */
export function pageRange(rows, mode) {
  if (!rows.length) return "";
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (mode === "table") {
    const a = first.table ?? "bye";
    const b = last.table ?? "bye";
    return a === b ? `Table ${a}` : `Tables ${a}–${b}`;
  }
  const a = initial(first.name);
  const b = initial(last.name);
  return a === b ? a : `${a}–${b}`;
}

function rowElement(r, mode) {
  return h("div", { class: "board-row", role: "row" },
    h("span", { class: "board-name", role: "cell" }, r.name),
    h("span", { class: "board-table", role: "cell" }, r.table === null || r.table === undefined ? "bye" : `T${r.table}`),
    h("span", { class: "board-opponent", role: "cell" }, mode === "table" ? `vs ${r.opponent}` : r.opponent === "bye" ? "bye" : `vs ${r.opponent}`));
}

/** How many rows fit in the board's area: one row measured (its font follows the screen's height). */
function fitRows(area, mode) {
  const probe = rowElement({ name: "Mg", table: 888, opponent: "Mg" }, mode);
  probe.style.visibility = "hidden";
  for (const name of ["--board-rows", "--board-columns", "--board-row-height"]) area.style.removeProperty(name);
  replace(area, probe);
  const rowHeight = Math.max(1, probe.getBoundingClientRect().height);
  const em = parseFloat(getComputedStyle(probe).fontSize) || 16;
  const gap = parseFloat(getComputedStyle(area).columnGap) || 0;
  const perColumn = Math.max(1, Math.floor(area.clientHeight / rowHeight));
  const columns = Math.max(1, Math.floor((area.clientWidth + gap) / (COLUMN_EMS * em + gap)));
  area.style.setProperty("--board-rows", String(perColumn));
  area.style.setProperty("--board-columns", String(columns));
  area.style.setProperty("--board-row-height", `${rowHeight}px`);
  return perColumn * columns;
}

async function mount(root, { store }) {
  document.body.classList.add("board-mode");
  const clockBox = timerPanel(store, { big: true });
  let mode = "name";
  let rows = [];
  let rnd = null;
  let page = 0;
  let perPage = 1;
  let paused = false;
  let timer = null;

  const title = h("span", { class: "board-title", id: "board-title" });
  const range = h("span", { class: "board-range", id: "board-range" });
  const counter = h("span", { class: "board-counter", id: "board-page" });
  const prev = h("button", { type: "button", class: "small", id: "board-prev", "aria-label": "Previous page", onclick: () => turn(-1, true) }, "◀");
  const next = h("button", { type: "button", class: "small", id: "board-next", "aria-label": "Next page", onclick: () => turn(1, true) }, "▶");
  const pause = h("button", { type: "button", class: "small", id: "board-pause", onclick: () => { paused = !paused; schedule(); draw(); } }, "Pause");
  const modeButton = h("button", { type: "button", class: "small", id: "board-mode", onclick: () => {
    mode = mode === "name" ? "table" : "name";
    rows = rnd ? boardRows(store.state, rnd, mode) : [];
    page = 0;
    layout();
  } }, "By table");
  const bar = h("div", { class: "board-bar", id: "board-bar" }, title, range, counter, h("span", { class: "board-controls" }, prev, pause, next, modeButton));
  const area = h("div", { class: "board-page", id: "board-area", role: "table", "aria-live": "off" });
  replace(root, h("h1", { class: "sr-only" }, "Big screen"), clockBox.el, bar, area);

  const pages = () => Math.max(1, Math.ceil(rows.length / perPage));

  /** How many rows fit (the area's rows and columns are set for them). */
  function measure() {
    perPage = fitRows(area, mode);
  }

  function draw() {
    const count = pages();
    page = Math.min(Math.max(page, 0), count - 1);
    const slice = rows.slice(page * perPage, (page + 1) * perPage);
    title.textContent = rnd ? `Round ${rnd.number} pairings ${mode === "name" ? "by name" : "by table"}` : "Pairings";
    range.textContent = pageRange(slice, mode);
    counter.textContent = rnd ? `Page ${page + 1} of ${count}` : "";
    pause.textContent = paused ? "Resume" : "Pause";
    modeButton.textContent = mode === "name" ? "By table" : "By name";
    bar.dataset.page = String(page + 1);
    bar.dataset.pages = String(count);
    bar.dataset.range = range.textContent;
    bar.dataset.mode = mode;
    area.dataset.rows = String(slice.length);
    area.dataset.perPage = String(perPage);
    if (!rnd) {
      replace(area, h("p", { class: "board-empty" }, "Pairings are not posted yet."));
      return;
    }
    replace(area, slice.map((r) => rowElement(r, mode)));
  }

  function layout() {
    measure();
    draw();
  }

  function turn(step, byHand = false) {
    const count = pages();
    page = (page + step + count) % count;
    draw();
    if (byHand) schedule();  // a page turned by hand stays its full time
  }

  function schedule() {
    clearInterval(timer);
    timer = paused ? null : setInterval(() => { if (pages() > 1) turn(1); }, PAGE_MS);
  }

  const onKey = (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    const keys = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 };
    if (event.key in keys && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      turn(keys[event.key], true);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      page = event.key === "Home" ? 0 : pages() - 1;
      draw();
      schedule();
    }
  };
  document.addEventListener("keydown", onKey);
  const resized = new ResizeObserver(() => layout());
  resized.observe(area);
  schedule();

  return {
    async update() {
      rnd = postedRound(store.state);
      const sameRound = area.dataset.round === (rnd ? `${rnd.stage}:${rnd.number}` : "");
      area.dataset.round = rnd ? `${rnd.stage}:${rnd.number}` : "";
      rows = rnd ? boardRows(store.state, rnd, mode) : [];
      if (!sameRound) page = 0;
      layout();
    },
    destroy() {
      clockBox.stop();
      clearInterval(timer);
      resized.disconnect();
      document.removeEventListener("keydown", onKey);
      document.body.classList.remove("board-mode");
    },
  };
}

export default { mount };

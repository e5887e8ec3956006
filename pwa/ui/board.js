// The hall board: rows (pairings by name or by table, standings) in pages that fill their area and turn by
// themselves. Built for 2,000 players: the page size comes from measuring one row against the area (its font
// follows the screen's height), so a page never overflows, whatever the screen; a resize lays it out again.
// Several sections (pairings by name, by table, standings) follow each other, each in its own pages.
import { rules } from "../app/services.js";
import { h, nameOf, replace } from "./dom.js";
import { postedRound } from "./pairings.js";

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

/** "A–C" for a page of names; "Tables 1–40" for a page of tables; "Ranks 1–40" for standings. */
export function pageRange(rows, mode) {
  if (!rows.length) return "";
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (mode === "standings") return first.rank === last.rank ? `Rank ${first.rank}` : `Ranks ${first.rank}–${last.rank}`;
  if (mode === "table") {
    const a = first.table ?? "bye";
    const b = last.table ?? "bye";
    return a === b ? `Table ${a}` : `Tables ${a}–${b}`;
  }
  const a = initial(first.name);
  const b = initial(last.name);
  return a === b ? a : `${a}–${b}`;
}

/** A pairing row: name, table, opponent. */
export function pairingRow(r, mode) {
  return h("div", { class: "board-row", role: "row" },
    h("span", { class: "board-name", role: "cell" }, r.name),
    h("span", { class: "board-table", role: "cell" }, r.table === null || r.table === undefined ? "bye" : `T${r.table}`),
    h("span", { class: "board-opponent", role: "cell" }, mode === "table" ? `vs ${r.opponent}` : r.opponent === "bye" ? "bye" : `vs ${r.opponent}`));
}

/** A standings row: rank, name, points and record. */
export function standingRow(r) {
  return h("div", { class: "board-row standing", role: "row" },
    h("span", { class: "board-rank", role: "cell" }, String(r.rank)),
    h("span", { class: "board-name", role: "cell" }, r.name),
    h("span", { class: "board-points", role: "cell" }, `${r.points} pts`),
    h("span", { class: "board-record", role: "cell" }, r.record));
}

/** Rows of standings data (``rules("standings")``) for the board. */
export function standingRows(state, data) {
  return data.standings.map((s) => ({ rank: s.rank, name: nameOf(state, s.player), points: s.points, record: s.record }));
}

const COLUMN_EMS = { name: 24, table: 24, standings: 20 };  // a column is at least this wide
const PROBES = {
  name: () => pairingRow({ name: "Mg", table: 888, opponent: "Mg" }, "name"),
  table: () => pairingRow({ name: "Mg", table: 888, opponent: "Mg" }, "table"),
  standings: () => standingRow({ rank: 888, name: "Mg", points: 88, record: "8-8-8" }),
};

/** How many rows fit in the area for a kind of row (``name``, ``table``, ``standings``): one row measured. */
function fitRows(area, kind) {
  const probe = PROBES[kind]();
  probe.style.visibility = "hidden";
  for (const name of ["--board-rows", "--board-columns", "--board-row-height"]) area.style.removeProperty(name);
  replace(area, probe);
  const rowHeight = Math.max(1, probe.getBoundingClientRect().height);
  const em = parseFloat(getComputedStyle(probe).fontSize) || 16;
  const gap = parseFloat(getComputedStyle(area).columnGap) || 0;
  const perColumn = Math.max(1, Math.floor(area.clientHeight / rowHeight));
  const columns = Math.max(1, Math.floor((area.clientWidth + gap) / (COLUMN_EMS[kind] * em + gap)));
  area.style.setProperty("--board-rows", String(perColumn));
  area.style.setProperty("--board-columns", String(columns));
  area.style.setProperty("--board-row-height", `${rowHeight}px`);
  return perColumn * columns;
}

/**
 * A paged board. ``sections``: [{ kind: "name" | "table" | "standings", title, rows, empty? }]; the pages of
 * each follow those of the one before. ``onDraw({ title, range, page, pages, section })`` after each page.
 * Returns { area, show(sections, { keepPage }), turn(step), home(), end(), pause(on), paused, layout(), destroy() }.
 */
export function boardPager({ pageMs, onDraw }) {
  const area = h("div", { class: "board-page", id: "board-area", role: "table", "aria-live": "off" });
  let sections = [];
  let perPage = [];  // rows per page, per section (measured)
  let at = { section: 0, page: 0 };
  let paused = false;
  let timer = null;

  const pagesOf = (i) => Math.max(1, Math.ceil(sections[i].rows.length / perPage[i]));
  const total = () => sections.reduce((n, _, i) => n + pagesOf(i), 0);
  const index = () => sections.slice(0, at.section).reduce((n, _, i) => n + pagesOf(i), 0) + at.page;

  function goTo(n) {
    const count = total();
    let k = ((n % count) + count) % count;
    for (let i = 0; i < sections.length; i += 1) {
      if (k < pagesOf(i)) {
        at = { section: i, page: k };
        return;
      }
      k -= pagesOf(i);
    }
  }

  function draw() {
    if (!sections.length) return;
    at.section = Math.min(at.section, sections.length - 1);
    at.page = Math.min(at.page, pagesOf(at.section) - 1);
    const s = sections[at.section];
    const kind = s.kind;
    fitRows(area, kind);  // the grid of this section's rows (a standings row is laid out unlike a pairing)
    const slice = s.rows.slice(at.page * perPage[at.section], (at.page + 1) * perPage[at.section]);
    area.dataset.rows = String(slice.length);
    area.dataset.perPage = String(perPage[at.section]);
    area.dataset.kind = kind;
    if (!s.rows.length) replace(area, h("p", { class: "board-empty" }, s.empty || "Nothing to show yet."));
    else replace(area, slice.map((r) => (kind === "standings" ? standingRow(r) : pairingRow(r, kind))));
    onDraw({ title: s.title, range: pageRange(slice, kind), page: index() + 1, pages: total(), section: s, paused });
  }

  /** Measure again (a resize, new data); the page shown keeps its first row on screen. */
  function layout() {
    const first = sections.length && perPage.length === sections.length ? at.page * perPage[at.section] : 0;
    perPage = sections.map((s) => fitRows(area, s.kind));
    if (sections.length) at.page = Math.floor(first / perPage[Math.min(at.section, sections.length - 1)]);
    draw();
  }

  function schedule() {
    clearInterval(timer);
    timer = paused ? null : setInterval(() => { if (total() > 1) turn(1); }, pageMs);
  }

  /** Turn ``step`` pages (a page turned by hand stays its full time). */
  function turn(step, byHand = false) {
    if (!sections.length) return;
    goTo(index() + step);
    draw();
    if (byHand) schedule();
  }

  const resized = new ResizeObserver(() => layout());
  resized.observe(area);
  schedule();
  return {
    area,
    show(next, { keepPage = false } = {}) {
      const same = keepPage && next.length === sections.length && next.every((s, i) => s.title === sections[i].title);
      sections = next;
      if (!same) {
        at = { section: 0, page: 0 };
        perPage = [];
      }
      layout();
    },
    turn,
    home() { goTo(0); draw(); schedule(); },
    end() { goTo(total() - 1); draw(); schedule(); },
    pause(on) { paused = on; schedule(); draw(); },
    get paused() { return paused; },
    layout,
    destroy() {
      clearInterval(timer);
      resized.disconnect();
    },
  };
}

/** Arrow keys, Page Up/Down and space turn the board's pages; Home and End go to the first and last. */
export function pagingKeys(pager) {
  return (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
    const keys = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, " ": 1, ArrowLeft: -1, ArrowUp: -1, PageUp: -1 };
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key in keys) {
      event.preventDefault();
      pager.turn(keys[event.key], true);
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      if (event.key === "Home") pager.home();
      else pager.end();
    }
  };
}

function roundName(rnd) {
  return rnd.stage === "elimination" ? `Elimination round ${rnd.number}` : `Round ${rnd.number}`;
}

/**
 * What the hall's screen shows now. During a round: its pairings by name (and by table with ``byTable``), and
 * the standings after the last complete round only with ``standingsMidRound`` (the TO's choice). Once every
 * result of the round is in: the standings after it. Standings are never those of a round in play. With
 * ``screens`` above 1, several screens split the hall: this one (``screen``) shows its share of each list.
 */
export async function hallSections(store, { byTable = false, standingsMidRound = false, screen = 1, screens = 1 } = {}) {
  const state = store.state;
  const rnd = postedRound(state);
  if (!rnd) return [{ kind: "name", title: "Pairings", rows: [], empty: "Round 1 pairings will show here as soon as they are posted." }];
  const complete = rnd.status === "complete";
  const sections = [];
  if (!complete) {
    sections.push({ kind: "name", title: `${roundName(rnd)} pairings by name`, rows: boardRows(state, rnd, "name") });
    if (byTable) sections.push({ kind: "table", title: `${roundName(rnd)} pairings by table`, rows: boardRows(state, rnd, "table") });
  }
  if (complete || standingsMidRound) {
    const data = await rules("standings", { event_id: store.eventId, published: true });
    if (data.after && data.standings.length) {
      sections.push({ kind: "standings", title: `Standings after ${roundName(data.after).replace(/^R/, "r").replace(/^E/, "e")}`,
                      rows: standingRows(state, data) });
    }
  }
  if (!sections.length) sections.push({ kind: "standings", title: `${roundName(rnd)} complete`, rows: [], empty: "Standings will show here shortly." });
  return screens > 1 ? sections.map((section) => shareOf(section, screen, screens)) : sections;
}

/** This screen's share of a section when several screens split the hall (screen 1 of 3: the first third). */
export function shareOf(section, screen, screens) {
  const n = section.rows.length;
  const rows = section.rows.slice(Math.floor((n * (screen - 1)) / screens), Math.floor((n * screen) / screens));
  return { ...section, rows, title: rows.length ? `${section.title}, ${pageRange([rows[0], rows[rows.length - 1]], section.kind)}` : section.title };
}

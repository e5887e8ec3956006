// The standings on a player's phone: four columns that fit 360 px (rank, name, record, points), each row's
// tiebreakers behind a tap, the player's own row highlighted and brought into view.
import { h, tiebreakerText } from "./dom.js";

const COLUMNS = new Set(["rank", "player", "name", "record", "points", "dropped", "tiebreakers"]);

/** A row's tiebreakers: its ``tiebreakers`` object, else its columns beyond the four shown (a flat row). */
function tiebreakersOf(row) {
  if (row.tiebreakers) return row.tiebreakers;
  return Object.fromEntries(Object.entries(row).filter(([k]) => !COLUMNS.has(k)));
}

/**
 * ``rows``: ``[{rank, player, name, record, points, tiebreakers?: {key: value}, dropped?}]`` in rank order
 * (a flat row's other columns count as its tiebreakers);
 * ``labels``: tiebreaker key -> the document's name for it; ``me``: the player's id; ``note``: which round they
 * follow ("After round 3"), the caption, or why there are none. Returns the element.
 */
export function phoneStandings(rows, { me = null, labels = {}, note = "" } = {}) {
  if (!rows?.length) return h("p", {}, note || "No standings yet.");
  const body = h("tbody");
  const detail = (row) => {
    const values = tiebreakersOf(row);
    const keys = Object.keys(values);
    return keys.length ? keys.map((k) => `${labels[k] || k} ${tiebreakerText(values[k])}`).join(" · ") : "No tiebreakers yet.";
  };
  for (const row of rows) {
    const mine = row.player === me;
    const more = h("tr", { class: "tb-detail", hidden: true, dataset: { player: row.player } },
      h("td", { colspan: "4" }, detail(row)));
    const toggle = h("button", { type: "button", class: "name-button", "aria-expanded": "false",
      onclick: () => {
        more.hidden = !more.hidden;
        toggle.setAttribute("aria-expanded", String(!more.hidden));
      } }, row.name, row.dropped ? " (dropped)" : "", mine ? h("span", { class: "sr-only" }, " (you)") : null);
    body.append(h("tr", { class: `${mine ? "me" : ""}${row.dropped ? " dropped" : ""}`.trim() || null,
      dataset: { player: row.player }, "aria-current": mine ? "true" : null },
    h("td", { class: "rank" }, row.rank), h("th", { scope: "row" }, toggle), h("td", {}, row.record), h("td", { class: "points" }, row.points)),
    more);
  }
  const table = h("table", { class: "standings phone-standings", id: "standings-table" },
    // The page's heading already says "Standings": the caption says which round they follow, and the tap.
    h("caption", {}, note ? [note, h("span", { class: "hint" }, " — tap a name for the tiebreakers")]
      : h("span", { class: "hint" }, "Tap a name for the tiebreakers")),
    h("colgroup", {}, h("col", { class: "c-rank" }), h("col", { class: "c-name" }), h("col", { class: "c-record" }), h("col", { class: "c-points" })),
    h("thead", {}, h("tr", {}, ["#", "Player", "Record", "Pts"].map((t) => h("th", { scope: "col" }, t)))), body);
  return table;
}

/** Bring the player's own row into view (once, when the table is first shown). */
export function showMyRow(table) {
  const row = table.querySelector?.("tr.me");
  row?.scrollIntoView?.({ block: "center" });
}

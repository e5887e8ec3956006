// Standings, computed on this device by shared_rules (identical to the server's).
import { rules } from "../app/services.js";
import { h, label, nameOf, replace, tiebreakerText } from "../ui/dom.js";
import { downloadButton, fileName } from "../ui/downloads.js";
import { phoneStandings, showMyRow } from "../ui/standings.js";

export function standingsTable(state, data, { big = false } = {}) {
  if (!data.standings.length) return h("p", {}, data.note || "No standings yet.");
  const keys = Object.keys(data.standings[0].tiebreakers || {});
  const heading = (k) => data.labels?.[k] || label(k);  // the document's name for each tiebreaker
  return h("table", { class: big ? "standings big" : "standings", id: "standings-table" },
    h("caption", {}, "Standings"),
    h("thead", {}, h("tr", {}, ["Rank", "Player", "Points", "Record", ...keys.map(heading)].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, data.standings.map((s) => h("tr", { dataset: { player: s.player }, class: s.dropped ? "dropped" : "" },
      h("td", {}, s.rank), h("th", { scope: "row" }, nameOf(state, s.player), s.dropped ? " (dropped)" : ""),
      h("td", {}, s.points), h("td", {}, s.record),
      keys.map((k) => h("td", {}, tiebreakerText(s.tiebreakers[k])))))));
}

/** A player's standings: the phone's four columns, their own row highlighted (ui/standings.js). */
function mine(state, data, me) {
  return phoneStandings(data.standings.map((s) => ({ ...s, name: nameOf(state, s.player) })),
    { me, labels: data.labels || {}, note: data.note });
}

/**
 * A player's phone: the standings the server's player view carries (``{after, rows, labels, note}``: the rules'
 * standings rows with each player's name, or none while the organizer's policy holds them back) in the shape
 * standingsTable draws, with the names to draw them by (the view's state lists only this player's opponents).
 */
export function viewStandings(standings, state) {
  const rows = standings?.rows || [];
  const note = standings?.after ? `After round ${standings.after.number}` : (standings?.note || "No standings yet.");
  const named = rows.map((r) => ({ id: r.player, name: r.name ?? r.player }));
  return { data: { standings: rows, labels: standings?.labels || {}, note }, state: { ...state, players: [...(state?.players || []), ...named] } };
}

async function mount(root, { store }) {
  const body = h("div");
  const me = store.session?.role === "player" ? store.session.player : null;
  let shown = false;
  if (store.light) {  // a player's phone: what the server's view says, no rules engine
    replace(root, h("h1", {}, "Standings"), body);
    return {
      async update() {
        const { data, state } = viewStandings(await store.ask("standings", {}), store.state);
        const table = mine(state, data, me);
        replace(body, table);
        if (me && !shown && data.standings.length) { shown = true; showMyRow(table); }
      },
    };
  }
  replace(root, h("h1", {}, "Standings"),
    h("p", { class: "no-print" }, downloadButton("Download CSV", "standings-csv", () => rules("csv_standings", { event_id: store.eventId }),
      () => fileName(store.state?.name, "standings"))), body);
  return {
    async update() {
      const data = await rules("standings", { event_id: store.eventId });
      const table = me ? mine(store.state, data, me) : standingsTable(store.state, data);
      replace(body, table);
      if (me && !shown && data.standings.length) { shown = true; showMyRow(table); }
    },
  };
}

export default { mount };

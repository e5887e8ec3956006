// Pairings lists shared by the big screen and the printouts: by table and alphabetically.
import { h, nameOf } from "./dom.js";

export function byTable(state, rnd) {
  return h("table", { class: "pairings by-table" }, h("caption", {}, `Round ${rnd.number} pairings by table`),
    h("thead", {}, h("tr", {}, ["Table", "Player", "Opponent"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rnd.matches.map((m) => h("tr", {}, h("td", {}, m.table ?? "bye"),
      h("td", {}, nameOf(state, m.players[0])), h("td", {}, m.players.slice(1).map((p) => nameOf(state, p)).join(", ") || "bye")))));
}

export function alphabetical(state, rnd) {
  const rows = [];
  for (const m of rnd.matches) {
    for (const p of m.players) {
      rows.push({ name: nameOf(state, p), table: m.table, opponents: m.players.filter((q) => q !== p).map((q) => nameOf(state, q)) });
    }
  }
  rows.sort((a, b) => a.name.localeCompare(b.name));
  return h("table", { class: "pairings alpha" }, h("caption", {}, `Round ${rnd.number} pairings by name`),
    h("thead", {}, h("tr", {}, ["Player", "Table", "Opponent"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, h("th", { scope: "row" }, r.name), h("td", {}, r.table ?? "bye"), h("td", {}, r.opponents.join(", ") || "bye")))));
}

/** The round to post: the latest one that is published or further (never a draft). */
export function postedRound(state) {
  const posted = state.rounds.filter((r) => r.status !== "draft");
  return posted[posted.length - 1] || null;
}

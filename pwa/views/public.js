// The public page (no token): posted pairings and standings from the server's
// public endpoint (the same shared_rules code); the service worker keeps the last answer for offline.
import { publicView, publishedLists } from "../app/services.js";
import { listSheet } from "../ui/decklist.js";
import { rulesetInfo } from "../ui/timer.js";
import { h, label, replace, tiebreakerText } from "../ui/dom.js";

/** The lists published after the event, as the organizer chose (nothing during the event). */
async function listsSection(eventId, ruleset) {
  const published = await publishedLists(eventId).catch(() => null);
  if (!published?.lists.length) return null;
  const spec = (await rulesetInfo({ ruleset, settings: {} })).ui.decklists;
  return h("section", { id: "public-lists" }, h("h2", {}, "Deck lists"), h("p", {}, published.note),
    published.lists.map((l) => h("article", { class: "card", dataset: { player: l.player } }, h("h3", {}, l.name),
      listSheet(spec, l.sections))));
}

async function mount(root, { eventId }) {
  const body = h("div");
  replace(root, h("h1", { id: "public-title" }, "Standings"), body);
  const load = async () => {
    try {
      const data = await publicView(eventId);
      document.getElementById("public-title").textContent = `${data.name} — standings`;
      const names = new Map();
      data.rounds.forEach((r) => r.matches.forEach((m) => m.players.forEach((p) => names.set(p.id, p.name))));
      const rnd = data.rounds[data.rounds.length - 1];
      // The ruleset's order (a row's object arrives with sorted keys).
      const keys = data.tiebreakers || (data.standings.length ? Object.keys(data.standings[0].tiebreakers || {}) : []);
      const heading = (k) => data.tiebreaker_labels?.[k] || label(k);
      // Tables scroll sideways inside their box on a phone instead of widening the page.
      replace(body,
        data.standings.length ? h("div", { class: "table-wrap" }, h("table", { class: "standings", id: "public-standings" }, h("caption", {}, "Standings"),
          h("thead", {}, h("tr", {}, ["Rank", "Player", "Points", "Record", ...keys.map(heading)].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, data.standings.map((s) => h("tr", {}, h("td", {}, s.rank), h("th", { scope: "row" }, names.get(s.player) || s.player),
            h("td", {}, s.points), h("td", {}, s.record), keys.map((k) => h("td", {}, tiebreakerText(s.tiebreakers[k]))))))))
          : h("p", {}, data.note || "No standings yet."),
        rnd ? h("div", { class: "table-wrap" }, h("table", { class: "pairings" }, h("caption", {}, `Round ${rnd.number} pairings`),
          h("thead", {}, h("tr", {}, ["Table", "Players", "Result"].map((t) => h("th", { scope: "col" }, t)))),
          h("tbody", {}, rnd.matches.map((m) => h("tr", {}, h("td", {}, m.table ?? "bye"),
            h("td", {}, m.players.map((p) => p.name).join(" v ")), h("td", {}, m.outcomes ? m.outcomes.join(" / ") : m.status)))))) : null,
        await listsSection(eventId, data.ruleset));
    } catch (err) {
      replace(body, h("p", { class: "error" }, err.message));
    }
  };
  await load();
  const interval = setInterval(load, 15000);
  return { destroy: () => clearInterval(interval) };
}

export default { mount };

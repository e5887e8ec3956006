// Player records: a player's own history across events (player phones), and for staff the people this
// event's roster is linked to, each with their history (events, places, records; Star Trek ratings and
// their change per event). Needs the network: histories live on the server (docs/people.md).
import { eventPeople, gameIdsLine, myHistory, personHistory, personLine } from "../people-api.js";
import { h, replace } from "../ui.js";

const GAMES = { "startrek-1e": "Star Trek 1E", "startrek-2e": "Star Trek 2E", tribbles: "Tribbles" };

/** A rating change as people read it: "1514 (+14)". */
export function ratingText(r) {
  if (!r) return "—";
  const sign = r.change > 0 ? "+" : r.change < 0 ? "−" : "±";
  return `${r.after} (${sign}${Math.abs(r.change)})`;
}

function ratingCells(rating) {
  if (!rating) return [h("td", {}, "—"), h("td", {}, "—")];
  const kind = rating.constructed ? "constructed" : "sealed";
  return [h("td", { dataset: { rating: kind } }, `${kind}: ${ratingText(rating[kind])}`),
    h("td", { dataset: { rating: "overall" } }, ratingText(rating.overall))];
}

export function historyCard(body, { eventHref = null } = {}) {
  const ratings = Object.entries(body.ratings || {});
  const anyRated = body.events.some((e) => e.rating);
  return h("section", { class: "card", id: "person-history", dataset: { person: body.person.id } },
    h("h2", { id: "person-name" }, body.person.name),
    h("p", { class: "hint", id: "person-ids" }, gameIdsLine(body.person) || "No game id on record."),
    ratings.length ? h("div", { class: "table-wrap" }, h("table", { id: "person-ratings" }, h("caption", {}, "Star Trek ratings"),
      h("thead", {}, h("tr", {}, ["Game", "Constructed", "Sealed", "Overall", "Games"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, ratings.map(([game, r]) => h("tr", { dataset: { game } }, h("th", { scope: "row" }, GAMES[game] || game),
        h("td", {}, r.constructed), h("td", {}, r.sealed), h("td", {}, r.overall), h("td", {}, r.games)))))) : null,
    body.events.length
      ? h("div", { class: "table-wrap" }, h("table", { id: "person-events" }, h("caption", {}, `${body.events.length} event${body.events.length === 1 ? "" : "s"}, oldest first`),
        h("thead", {}, h("tr", {}, ["Date", "Event", "Game", "Place", "Record", ...(anyRated ? ["Rating (change)", "Overall (change)"] : [])]
          .map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, body.events.map((e) => h("tr", { dataset: { event: e.event_id } },
          h("td", {}, e.date),
          h("th", { scope: "row" }, eventHref ? h("a", { href: eventHref(e) }, e.name || e.event_id) : (e.name || e.event_id)),
          h("td", {}, GAMES[e.ruleset] || e.ruleset),
          h("td", { class: "place" }, e.place ? `${e.place} of ${e.players}${e.division ? ` (${e.division})` : ""}` : "—", e.dropped ? " (dropped)" : ""),
          h("td", { class: "record" }, e.record || "—"),
          ...(anyRated ? ratingCells(e.rating) : []))))))
      : h("p", {}, "No events yet."));
}

async function mount(root, { store, role, sub }) {
  const body = h("div", { "aria-live": "polite" });
  const player = role === "player";
  replace(root, h("h1", {}, player ? "My history" : "Player records"), body);
  const say = (text) => replace(body, h("p", { class: "error", role: "alert", id: "history-error" }, text));
  const load = async () => {
    replace(body, h("p", { class: "loading" }, "Loading…"));
    try {
      if (player) {
        replace(body, historyCard(await myHistory(store.session), { eventHref: (e) => `#/public/${encodeURIComponent(e.event_id)}` }));
      } else if (sub) {
        replace(body, h("p", {}, h("a", { href: `#/event/${store.eventId}/history` }, "← This event's player records")),
          historyCard(await personHistory(store.session, sub), { eventHref: (e) => `#/public/${encodeURIComponent(e.event_id)}` }));
      } else {
        const { links } = await eventPeople(store.session);
        replace(body, links.length
          ? h("ul", { id: "event-people" }, links.map((l) => h("li", {},
            h("a", { href: `#/event/${store.eventId}/history/${encodeURIComponent(l.person.id)}` }, l.name),
            ` — ${personLine(l.person)}`)))
          : h("p", {}, "No roster entry is linked to a player record yet (Players → Link to player record)."));
      }
    } catch (err) {
      say(err.code === "not-linked"
        ? "Your entry in this event is not linked to a player record yet: ask the organizer."
        : err.message);
    }
  };
  await load();
  return { update() {} };
}

export default { mount };

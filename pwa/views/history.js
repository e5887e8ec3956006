// Player records: a player's own history across events (player phones), and for staff the people this
// event's roster is linked to, each with their history (events, places, records; Star Trek ratings and
// their change per event). Needs the network: histories live on the server (docs/people.md).
import { rulesetTitle } from "../app/games.js";
import { allSessions, eventPeople, linkPlayer, myHistory, personHistory } from "../app/services.js";
import { gameIdsLine, personLine } from "../app/people.js";
import { h, replace } from "../ui/dom.js";


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
      h("tbody", {}, ratings.map(([game, r]) => h("tr", { dataset: { game } }, h("th", { scope: "row" }, rulesetTitle(game)),
        h("td", {}, r.constructed), h("td", {}, r.sealed), h("td", {}, r.overall), h("td", {}, r.games)))))) : null,
    body.events.length
      ? h("div", { class: "table-wrap" }, h("table", { id: "person-events" }, h("caption", {}, `${body.events.length} event${body.events.length === 1 ? "" : "s"}, oldest first`),
        h("thead", {}, h("tr", {}, ["Date", "Event", "Game", "Place", "Record", ...(anyRated ? ["Rating (change)", "Overall (change)"] : [])]
          .map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, body.events.map((e) => h("tr", { dataset: { event: e.event_id } },
          h("td", {}, e.date),
          h("th", { scope: "row" }, eventHref ? h("a", { href: eventHref(e) }, e.name || e.event_id) : (e.name || e.event_id)),
          h("td", {}, rulesetTitle(e.ruleset)),
          h("td", { class: "place" }, e.place ? `${e.place} of ${e.players}${e.division ? ` (${e.division})` : ""}` : "—", e.dropped ? " (dropped)" : ""),
          h("td", { class: "record" }, e.record || "—"),
          ...(anyRated ? ratingCells(e.rating) : []))))))
      : h("p", {}, "No events yet."));
}

/** The player's own code: what they read out at a new event's desk to have their entry linked to this record. */
function linkCodeCard(code) {
  return h("section", { class: "card", id: "link-code-card" },
    h("h2", {}, "Your player record code"),
    h("p", { class: "code", id: "link-code" }, code),
    h("p", { class: "hint" }, "At another event, give this code to the organizer so they can add that event to "
      + "your history. Keep it to yourself otherwise: whoever has it can link an event entry to your record."));
}

/**
 * The records of this phone's other events (`[{person, event}]`): a player who joined an earlier event on
 * this phone can link their entry here to their record themselves (their earlier entry proves it is them).
 */
async function myOtherRecords(session) {
  const found = new Map();
  for (const other of await allSessions().catch(() => [])) {
    if (other.event_id === session.event_id || other.role !== "player") continue;
    try {
      const body = await myHistory(other);
      if (!found.has(body.person.id)) found.set(body.person.id, { person: body.person, event: other.name || other.event_id });
    } catch {
      // not linked there, or offline: nothing to offer from it
    }
  }
  return [...found.values()];
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
        let mine;
        try {
          mine = await myHistory(store.session);
        } catch (err) {
          if (err.code !== "not-linked") throw err;
          const records = await myOtherRecords(store.session);
          if (!records.length) throw err;
          const message = h("p", { class: "error", role: "alert", id: "self-link-error" });
          replace(body, h("section", { class: "card", id: "self-link" },
            h("p", {}, "Your entry in this event is not linked to your player record yet. This phone knows it:"),
            h("ul", {}, records.map(({ person, event }) => h("li", {},
              h("button", { type: "button", dataset: { action: "link-me", person: person.id }, onclick: async () => {
                try {
                  await linkPlayer(store.session, store.session.player, person.id);
                  await load();
                } catch (e) {
                  message.textContent = e.message;
                }
              } }, `Link to my record: ${personLine(person)}`), ` (from ${event})`))),
            message));
          return;
        }
        replace(body, linkCodeCard(mine.link_code),
          historyCard(mine, { eventHref: (e) => `#/public/${encodeURIComponent(e.event_id)}` }));
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

// WCT leagues (Star Trek OP Guide 12), three screens:
//   #/leagues                 the leagues this device directs, and "Create a league";
//   #/league/ID               the director's page: season and playoff qualification, league events (an event
//                             joins with its organizer token: this device's own organizer events offer theirs),
//                             bonus points (12.5);
//   #/league/ID/table         the public league table: events' league points, season, lifetime and bonus kept
//                             apart, playoff qualification and ranking with the 12.6 tiebreakers, Champions
//                             League seeding (12.7); readable on a phone, printable.
// The league lives on the server (it needs the network); the director's token is kept in this browser's storage.
import { request } from "../api.js";
import { allSessions } from "../db.js";
import { announce, field, h, numberInput, replace, select } from "../ui.js";

const STORAGE_KEY = "topcut.leagues";
const STAR_TREK = ["startrek-1e", "startrek-2e", "tribbles"];
const SPRINTS = {
  standard: [["first-half", "First half"], ["second-half", "Second half"], ["playoffs", "Playoffs"]],
  truncated: [["regular", "Regular season"], ["playoffs", "Playoffs"]],
};
const SCHEMES = [["participation", "Participation (12.5.2)"], ["headquarters", "Headquarters / affiliation (12.5.1)"],
  ["new-mission", "New mission (12.5.3)"], ["", "The league's own"]];

// ---------------------------------------------------------------- the director's tokens on this device

/** The leagues this device directs: [{league_id, token, name}]. */
export function heldLeagues() {
  try {
    const list = JSON.parse(globalThis.localStorage?.getItem(STORAGE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((l) => l && typeof l.league_id === "string" && typeof l.token === "string") : [];
  } catch {
    return [];
  }
}

function keepLeague(grant) {
  const list = heldLeagues().filter((l) => l.league_id !== grant.league_id);
  list.push({ league_id: grant.league_id, token: grant.token, name: grant.name });
  localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
}

function renameHeld(leagueId, name) {
  const list = heldLeagues().map((l) => (l.league_id === leagueId ? { ...l, name } : l));
  localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
}

const grantOf = (leagueId) => heldLeagues().find((l) => l.league_id === leagueId) || null;

// ---------------------------------------------------------------- the server's league resource

const path = (leagueId, rest = "") => `/api/leagues/${encodeURIComponent(leagueId)}${rest}`;
export const createLeague = (body) => request("/api/leagues", { method: "POST", body });
export const leagueTable = (leagueId) => request(path(leagueId, "/table"));
const getLeague = (grant) => request(path(grant.league_id), { token: grant.token });
const patchLeague = (grant, body) => request(path(grant.league_id), { method: "PATCH", body, token: grant.token });
const addEvent = (grant, body) => request(path(grant.league_id, "/events"), { method: "POST", body, token: grant.token });
const removeEvent = (grant, eventId) =>
  request(path(grant.league_id, `/events/${encodeURIComponent(eventId)}`), { method: "DELETE", token: grant.token });
const addBonus = (grant, body) => request(path(grant.league_id, "/bonus"), { method: "POST", body, token: grant.token });
const removeBonus = (grant, bonusId) =>
  request(path(grant.league_id, `/bonus/${encodeURIComponent(bonusId)}`), { method: "DELETE", token: grant.token });

/** "person points" lines -> {points: {person: n}} or {error}. */
export function parseLifetime(text) {
  const points = {};
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (!line) continue;
    const found = /^(.+?)[\s,;:=]+(\d+)$/.exec(line);
    if (!found) return { error: `Lifetime points, line ${i + 1}: write the person id, then the points ("p-kira 120")` };
    points[found[1].trim()] = Number(found[2]);
  }
  return { points };
}

// ---------------------------------------------------------------- #/leagues

async function leaguesScreen(root, { navigate }) {
  const error = h("p", { class: "error", role: "alert", id: "league-create-error" });
  const name = h("input", { type: "text", name: "league-name", required: true, autocomplete: "off", placeholder: "Neutral Zone League" });
  const director = h("input", { type: "text", name: "director-name", required: true, autocomplete: "name" });
  const handle = h("input", { type: "text", name: "director-handle", autocomplete: "off" });
  const season = h("input", { type: "text", name: "season-name", autocomplete: "off", placeholder: "2026-27" });
  const schedule = select([["standard", "Standard: two regular halves and playoffs (4 + 4 + 4 events)"],
    ["truncated", "Truncated: regular season and playoffs (4 + 2 events)"]], { name: "schedule" });
  const qualifiers = numberInput({ name: "qualifiers", value: "4", min: "1", required: true });
  const form = h("form", {
    class: "card", id: "create-league", "aria-labelledby": "create-league-title",
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = "";
      const body = { name: name.value.trim(), director: { name: director.value.trim() },
        season: { name: season.value.trim(), schedule: schedule.value },
        qualification: { per_sprint: Number(qualifiers.value) } };
      if (handle.value.trim()) body.director.handle = handle.value.trim();
      try {
        const grant = await createLeague({ ...body, label: "league director device" });
        keepLeague(grant);
        announce(`League ${grant.name} created`);
        navigate(`#/league/${grant.league_id}`);
      } catch (err) {
        error.textContent = err.message;
      }
    },
  }, h("h2", { id: "create-league-title" }, "Create a league"),
  h("p", { class: "hint" }, "World Championship Trek (Star Trek OP Guide 12). You become its League Director on this "
    + "device. Needs the network."),
  field("League name", name), field("League Director", director), field("trekcc.org forum handle", handle),
  field("Season", season), field("Schedule (12.2)", schedule),
  field("Playoff qualifiers per regular sprint", qualifiers, "Announce it before the first league event (12.2, 12.6)."),
  h("button", { type: "submit", class: "primary", id: "create-league-submit" }, "Create league"), error);

  const held = heldLeagues();
  replace(root, h("h1", {}, "Leagues"),
    h("section", { class: "card", "aria-labelledby": "held-title" }, h("h2", { id: "held-title" }, "Leagues you direct on this device"),
      held.length ? h("ul", { class: "events", id: "held-leagues" }, held.map((l) => h("li", { dataset: { league: l.league_id } },
        h("a", { href: `#/league/${l.league_id}` }, l.name || l.league_id), " — ",
        h("a", { href: `#/league/${l.league_id}/table` }, "league table"))))
        : h("p", {}, "None yet.")),
    form);
  return {};
}

// ---------------------------------------------------------------- #/league/ID (director)

async function directorScreen(root, { leagueId }) {
  const grant = grantOf(leagueId);
  if (!grant) {
    replace(root, h("h1", {}, "League"), h("p", {}, "This device does not direct this league. "),
      h("p", {}, h("a", { href: `#/league/${leagueId}/table` }, "Open the league table")));
    return {};
  }
  const message = h("p", { class: "error", role: "alert", id: "league-error" });
  const body = h("div");
  replace(root, h("h1", { id: "league-title" }, grant.name || "League"),
    h("p", {}, h("a", { href: `#/league/${leagueId}/table`, id: "open-table" }, "Open the league table"),
      " — public: anyone with the link can read it (no token)."),
    message, body);

  let league = null;
  let persons = {};  // event id -> [[person, name]]
  let removing = null;  // the league event whose "Remove" was pressed once
  const run = async (fn, done) => {
    message.textContent = "";
    try {
      league = await fn();
      if (done) announce(done);
      await draw();
    } catch (err) {
      message.textContent = err.message;
    }
  };

  const seasonForm = () => {
    const doc = league.document;
    const name = h("input", { type: "text", name: "league-name", value: doc.name, required: true });
    const director = h("input", { type: "text", name: "director-name", value: doc.director?.name || "", required: true });
    const handle = h("input", { type: "text", name: "director-handle", value: doc.director?.handle || "" });
    const season = h("input", { type: "text", name: "season-name", value: doc.season?.name || "" });
    const schedule = select([["standard", "Standard (4 + 4 + 4)"], ["truncated", "Truncated (4 + 2)"]], { name: "schedule" });
    schedule.value = doc.season?.schedule || "standard";
    const byPlayers = Array.isArray(doc.qualification?.players);
    const mode = select([["per_sprint", "The top N of each regular sprint"], ["players", "These players, as announced"]],
      { name: "qualification-mode" });
    mode.value = byPlayers ? "players" : "per_sprint";
    const count = numberInput({ name: "qualifiers", min: "1", value: String(doc.qualification?.per_sprint ?? 4) });
    const listed = h("textarea", { name: "qualified-players", rows: "3", placeholder: "One person id per line" },
      byPlayers ? doc.qualification.players.join("\n") : "");
    const lifetime = h("textarea", { name: "lifetime", rows: "3", placeholder: "p-kira 120" },
      Object.entries(doc.lifetime || {}).map(([person, points]) => `${person} ${points}`).join("\n"));
    return h("form", {
      class: "card", id: "season-form", "aria-labelledby": "season-title",
      onsubmit: (e) => {
        e.preventDefault();
        const change = { name: name.value.trim(), director: { name: director.value.trim() },
          season: { name: season.value.trim(), schedule: schedule.value },
          qualification: mode.value === "players"
            ? { players: listed.value.split("\n").map((s) => s.trim()).filter(Boolean) }
            : { per_sprint: Number(count.value) } };
        if (handle.value.trim()) change.director.handle = handle.value.trim();
        const carried = parseLifetime(lifetime.value);
        if (carried.error) {
          message.textContent = carried.error;
          return;
        }
        change.lifetime = carried.points;
        run(() => patchLeague(grant, change), "League saved").then(() => {
          renameHeld(leagueId, change.name);
          document.getElementById("league-title").textContent = change.name;
        });
      },
    }, h("h2", { id: "season-title" }, "Season and playoff qualification"),
    field("League name", name), field("League Director", director), field("trekcc.org forum handle", handle),
    field("Season", season), field("Schedule (12.2)", schedule),
    field("Who qualifies for the playoffs (12.6)", mode), field("Qualifiers per regular sprint", count),
    field("Qualified players (person ids)", listed, "Only when the qualification is announced as a list."),
    field("Lifetime league points before this season", lifetime, "One player a line: their person id (trekcc.org id, "
      + "else player id) and points, from the trekcc.org league hub. Lifetime points seed the Champions League (12.7)."),
    h("button", { type: "submit", class: "primary", id: "save-league" }, "Save"));
  };

  const eventsSection = async () => {
    const schedule = league.document.season?.schedule || "standard";
    const sprintName = new Map(SPRINTS[schedule]);
    const rows = league.events.map((ev) => h("tr", { dataset: { event: ev.event_id } },
      h("th", { scope: "row" }, ev.present ? ev.name || ev.event_id : `${ev.event_id} (deleted)`),
      h("td", {}, sprintName.get(ev.sprint) || ev.sprint), h("td", {}, ev.ruleset || "—"),
      h("td", {}, removing === ev.event_id
        ? [h("button", { type: "button", class: "small danger", dataset: { action: "confirm-remove-event" },
          onclick: () => { removing = null; run(() => removeEvent(grant, ev.event_id), `${ev.name || ev.event_id} is no longer a league event`); } },
        `Confirm: stop counting ${ev.name || ev.event_id} (its bonus points go too)`),
        h("button", { type: "button", class: "small", onclick: () => { removing = null; draw(); } }, "Keep")]
        : h("button", { type: "button", class: "small", dataset: { action: "remove-event" },
          onclick: () => { removing = ev.event_id; draw(); } }, "Remove"))));
    // This device's own Star Trek events as organizer carry their organizer token: no typing.
    const inLeague = new Set(league.events.map((ev) => ev.event_id));
    const own = (await allSessions()).filter((s) => s.role === "organizer" && STAR_TREK.includes(s.ruleset)
      && !inLeague.has(s.event_id));
    const ownSelect = select([["", own.length ? "Choose one of this device's events…" : "No Star Trek event of yours on this device"],
      ...own.map((s) => [s.event_id, s.name || s.event_id])], { name: "own-event" });
    const eventId = h("input", { type: "text", name: "event-id", autocomplete: "off", spellcheck: false });
    const token = h("input", { type: "password", name: "organizer-token", autocomplete: "off" });
    ownSelect.addEventListener("change", () => {
      const chosen = own.find((s) => s.event_id === ownSelect.value);
      eventId.value = chosen ? chosen.event_id : "";
      token.value = chosen ? chosen.token : "";
    });
    const sprint = select(SPRINTS[schedule], { name: "sprint" });
    const form = h("form", {
      id: "add-event-form", "aria-labelledby": "add-event-title",
      onsubmit: (e) => {
        e.preventDefault();
        run(() => addEvent(grant, { event_id: eventId.value.trim(), sprint: sprint.value, organizer_token: token.value.trim() }),
          "League event added");
      },
    }, h("h3", { id: "add-event-title" }, "Add a league event"),
    field("This device's events", ownSelect),
    field("Event id", eventId, "From the event's Staff screen or its link."),
    field("The event's organizer token", token, "The organizer's consent: the organizer types it here, or picks the "
      + "event above on their own device."),
    field("Sprint", sprint),
    h("button", { type: "submit", class: "primary", id: "add-event" }, "Add event"));
    return h("section", { class: "card", "aria-labelledby": "league-events-title" },
      h("h2", { id: "league-events-title" }, "League events"),
      league.events.length ? h("div", { class: "table-wrap" }, h("table", { id: "league-events" },
        h("thead", {}, h("tr", {}, ["Event", "Sprint", "Game", ""].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows)))
        : h("p", {}, "No league events yet."),
      form);
  };

  const bonusSection = () => {
    const bonus = league.document.bonus || [];
    const eventName = new Map(league.events.map((ev) => [ev.event_id, ev.name || ev.event_id]));
    const nameOf = (ev, person) => (persons[ev] || []).find(([p]) => p === person)?.[1] || person;
    const list = bonus.length ? h("div", { class: "table-wrap" }, h("table", { id: "bonus-entries" },
      h("thead", {}, h("tr", {}, ["Player", "Event", "Points", "Scheme", "Note", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, bonus.map((b) => h("tr", { dataset: { bonus: b.id } },
        h("th", { scope: "row" }, nameOf(b.event, b.person)), h("td", {}, eventName.get(b.event) || b.event),
        h("td", {}, b.points), h("td", {}, b.scheme || "—"), h("td", {}, b.note || ""),
        h("td", {}, h("button", { type: "button", class: "small", dataset: { action: "remove-bonus" },
          onclick: () => run(() => removeBonus(grant, b.id), "Bonus entry removed") }, "Remove")))))))
      : h("p", {}, "No bonus points entered.");
    const present = league.events.filter((ev) => ev.present);
    if (!present.length) return h("section", { class: "card" }, h("h2", {}, "Bonus points"), list);
    const eventSelect = select(present.map((ev) => [ev.event_id, ev.name || ev.event_id]), { name: "bonus-event" });
    const person = h("select", { name: "bonus-person" });
    const fillPersons = () => replace(person, (persons[eventSelect.value] || []).map(([p, n]) => h("option", { value: p }, `${n} (${p})`)));
    eventSelect.addEventListener("change", fillPersons);
    fillPersons();
    const points = numberInput({ name: "bonus-points", min: "-1000", max: "1000", value: "1", required: true });
    const scheme = select(SCHEMES, { name: "bonus-scheme" });
    const note = h("input", { type: "text", name: "bonus-note", autocomplete: "off" });
    const form = h("form", {
      id: "bonus-form", "aria-labelledby": "bonus-form-title",
      onsubmit: (e) => {
        e.preventDefault();
        run(() => addBonus(grant, { event_id: eventSelect.value, person: person.value, points: Number(points.value),
          scheme: scheme.value, note: note.value.trim() }), "Bonus points entered");
      },
    }, h("h3", { id: "bonus-form-title" }, "Enter bonus points"), field("Event", eventSelect), field("Player", person),
    field("Points", points), field("Scheme", scheme), field("Note", note),
    h("button", { type: "submit", class: "primary", id: "add-bonus" }, "Enter bonus"));
    return h("section", { class: "card", "aria-labelledby": "bonus-title" }, h("h2", { id: "bonus-title" }, "Bonus points (12.5)"),
      h("p", { class: "hint" }, "Bonus points count only in this league's own table, never in season or lifetime league points."),
      list, form);
  };

  async function draw() {
    // The players of each event, as the league names them (from the public table).
    try {
      const table = await leagueTable(leagueId);
      const names = new Map([...table.table.season, ...table.table.lifetime].map((r) => [r.person, r.name]));
      persons = Object.fromEntries(table.table.events.map((ev) => [ev.id,
        Object.keys(ev.places).map((p) => [p, names.get(p) || p]).sort((a, b) => a[1].localeCompare(b[1]))]));
    } catch {
      persons = {};
    }
    replace(body, h("div", { class: "grid" }, seasonForm(), await eventsSection()), bonusSection());
    body.dataset.version = String(league.version);
  }

  await run(() => getLeague(grant));
  return {};
}

// ---------------------------------------------------------------- #/league/ID/table (public)

const num = (v) => (typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : String(v ?? ""));

function tableOf(id, caption, head, rows) {
  return h("div", { class: "table-wrap" }, h("table", { id, class: "standings league" }, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows)));
}

export function leagueTables(data) {
  const t = data.table;
  const sprints = t.league.sprints;
  const eventName = new Map(data.events.map((ev) => [ev.event_id, ev.name || ev.event_id]));
  const season = t.season.length ? tableOf("league-season", "Season league points (12.4)",
    ["Rank", "Player", "Events", ...sprints.map((s) => s.name || s.id), "Season", "Lifetime"],
    t.season.map((r) => h("tr", { dataset: { person: r.person } }, h("td", {}, r.rank), h("th", { scope: "row" }, r.name),
      h("td", {}, r.events), sprints.map((s) => h("td", {}, r.sprints[s.id] ?? 0)), h("td", { class: "total" }, r.points),
      h("td", {}, r.lifetime_points))))
    : h("p", {}, "No league points yet.");
  const lifetime = t.lifetime.length ? tableOf("league-lifetime", "Lifetime league points",
    ["Rank", "Player", "Before this season", "This season", "Lifetime"],
    t.lifetime.map((r) => h("tr", { dataset: { person: r.person } }, h("td", {}, r.rank), h("th", { scope: "row" }, r.name),
      h("td", {}, r.before), h("td", {}, r.season), h("td", { class: "total" }, r.points)))) : null;
  const bonus = t.bonus.length ? tableOf("league-bonus", "With bonus points (12.5), this league only",
    ["Rank", "Player", "League points", "Bonus", "Total", "Bonus entries"],
    t.bonus.map((r) => h("tr", { dataset: { person: r.person } }, h("td", {}, r.rank), h("th", { scope: "row" }, r.name),
      h("td", {}, r.points), h("td", {}, r.bonus), h("td", { class: "total" }, r.total),
      h("td", {}, r.entries.map((e) => `${e.points > 0 ? "+" : ""}${e.points} ${e.scheme || "bonus"} (${eventName.get(e.event) || e.event})${e.note ? `: ${e.note}` : ""}`).join("; ")))))
    : h("p", { class: "hint" }, "No bonus points.");
  const q = t.league.qualification;
  const qualified = t.playoffs.qualified.length ? h("ol", { id: "league-qualified" }, t.playoffs.qualified.map((p) =>
    h("li", { dataset: { person: p.person } }, p.name, p.sprint ? ` — ${sprints.find((s) => s.id === p.sprint)?.name || p.sprint}, rank ${p.rank}` : "")))
    : h("p", {}, "Nobody has qualified yet.");
  const keys = t.playoffs.tiebreakers;
  const ranking = t.playoffs.ranking.length ? tableOf("league-playoffs", "Playoff ranking (12.6)",
    ["Rank", "Player", ...keys.map((k) => k.label), "Decided by"],
    t.playoffs.ranking.map((r) => h("tr", { dataset: { person: r.person } }, h("td", {}, r.rank), h("th", { scope: "row" }, r.name),
      keys.map((k) => h("td", {}, k.key === "coin_flip" && r.decided_by !== "coin_flip" ? "—" : num(r.tiebreakers[k.key]))),
      h("td", {}, r.decided_by ? keys.find((k) => k.key === r.decided_by)?.label || r.decided_by : "—"))))
    : h("p", {}, "No playoff ranking yet.");
  const champions = t.champions_league_seeding.length ? tableOf("league-champions", "WCT Champions League seeding (12.7)",
    ["Seed", "Player", "Lifetime points", ""],
    t.champions_league_seeding.map((r) => h("tr", { dataset: { person: r.person } }, h("td", {}, r.seed), h("th", { scope: "row" }, r.name),
      h("td", {}, r.lifetime), h("td", {}, r.waived ? "minimum waived" : ""))))
    : h("p", {}, "Nobody has the lifetime points for the Champions League yet.");
  const events = t.events.length ? tableOf("league-events-points", "League events",
    ["Event", "Sprint", "Players", "League points"],
    t.events.map((ev) => h("tr", { dataset: { event: ev.id } }, h("th", { scope: "row" }, ev.name || ev.id, ev.complete ? "" : " (in progress)"),
      h("td", {}, sprints.find((s) => s.id === ev.sprint)?.name || ev.sprint), h("td", {}, ev.players),
      h("td", {}, Object.entries(ev.points).sort((a, b) => b[1] - a[1] || (ev.places[a[0]] - ev.places[b[0]]))
        .map(([p, pts]) => `${ev.places[p]}. ${t.season.find((r) => r.person === p)?.name || p} ${pts}`).join(", ")))))
    : h("p", {}, "No league events played yet.");
  const notes = [...t.warnings, ...data.problems.map((p) => `${eventName.get(p.event_id) || p.event_id}: ${p.problem}`)];
  return [
    h("p", { class: "league-meta" }, `League Director: ${t.league.director.name}`,
      t.league.director.handle ? ` (${t.league.director.handle})` : "",
      t.league.season ? ` · Season ${t.league.season}` : "", ` · ${t.league.schedule} schedule`,
      ` · Playoffs: ${q?.per_sprint ? `top ${q.per_sprint} of each regular sprint` : q ? "as announced" : "qualification not announced yet"}`),
    notes.length ? h("ul", { class: "warning", id: "league-warnings" }, notes.map((n) => h("li", {}, n))) : null,
    h("section", { "aria-labelledby": "season-heading" }, h("h2", { id: "season-heading" }, "Season"), season),
    h("section", { "aria-labelledby": "playoffs-heading" }, h("h2", { id: "playoffs-heading" }, "Playoffs"),
      h("h3", {}, "Qualified"), qualified, ranking),
    h("section", { "aria-labelledby": "bonus-heading" }, h("h2", { id: "bonus-heading" }, "Bonus points"),
      h("p", { class: "hint" }, "Bonus points count only in this league's own table: the season and lifetime points do not include them."), bonus),
    h("section", { "aria-labelledby": "lifetime-heading" }, h("h2", { id: "lifetime-heading" }, "Lifetime"), lifetime, champions),
    h("section", { "aria-labelledby": "events-heading" }, h("h2", { id: "events-heading" }, "Events"), events),
  ];
}

async function tableScreen(root, { leagueId }) {
  const body = h("div", { class: "printable", id: "league-table" });
  const title = h("h1", { id: "league-table-title" }, "League table");
  const held = grantOf(leagueId);
  replace(root, title,
    h("p", { class: "no-print" }, h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print"),
      held ? [" ", h("a", { href: `#/league/${leagueId}` }, "Director's page")] : null),
    body);
  const load = async () => {
    try {
      const data = await leagueTable(leagueId);
      title.textContent = `${data.table.league.name} — league table`;
      replace(body, leagueTables(data));
      body.dataset.version = String(data.version);
    } catch (err) {
      replace(body, h("p", { class: "error", role: "alert" }, err.message));
    }
  };
  await load();
  const interval = setInterval(load, 30000);
  return { destroy: () => clearInterval(interval) };
}

async function mount(root, { navigate, leagueId, sub }) {
  if (!leagueId) return leaguesScreen(root, { navigate });
  if (sub === "table") return tableScreen(root, { leagueId });
  return directorScreen(root, { leagueId });
}

export default { mount };

// WCT leagues (Star Trek OP Guide 12), three screens:
//   #/leagues                 the leagues this device directs, and "Create a league";
//   #/league/ID               the director's page: season and playoff qualification, league events (an event
//                             joins with its organizer token: this device's own organizer events offer theirs),
//                             bonus points (12.5);
//   #/league/ID/table         the public league table: events' league points, season, lifetime and bonus kept
//                             apart, playoff qualification and ranking with the 12.6 tiebreakers, Champions
//                             League seeding (12.7); readable on a phone, printable.
// The league lives on the server (it needs the network); the director's token is kept in this browser's storage.
// Each device or co-director has its own director token: the director's page lists them ("Director access"),
// adds one (shown once), replaces this device's (rotation: the old one works a few more minutes) and revokes
// them. A device whose token was revoked says so and offers to forget the league or to paste a new token;
// #/leagues adds a league from a director token someone gave this device.
import { countsInLeagues } from "../app/games.js";
import { adoptToken, grantOf, lostAccess } from "../app/leagues.js";
import { addBonus, addDirectorToken, addEvent, allSessions, createLeague, directorTokens, forgetHeld, getLeague, heldLeagues,
  keepLeague, leagueTable, patchLeague, removeBonus, removeEvent, renameHeld, revokeDirectorToken, rotateDirectorToken,
} from "../app/services.js";
import { announce, field, h, numberInput, replace, select, when } from "../ui/dom.js";

const SPRINTS = {
  standard: [["first-half", "First half"], ["second-half", "Second half"], ["playoffs", "Playoffs"]],
  truncated: [["regular", "Regular season"], ["playoffs", "Playoffs"]],
};
const SCHEMES = [["participation", "Participation (12.5.2)"], ["headquarters", "Headquarters / affiliation (12.5.1)"],
  ["new-mission", "New mission (12.5.3)"], ["", "The league's own"]];

/** "1 thing" / "2 things". */
const countOf = (n, noun) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Copy text to the clipboard; false when the browser refuses (the text stays selectable on screen). */
async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    input?.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    }
  }
}

const created = (ms) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

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
    pasteTokenForm({ navigate }),
    form);
  return {};
}

/**
 * "Add a league with a director token": a co-director, a new director or another device of the director's
 * pastes the league id and the token a director made for them ("Add a director token" on the director's page).
 * With `leagueId` (the director's page of a league this device cannot open) only the token is asked for.
 */
function pasteTokenForm({ navigate, leagueId = null, title = "Add a league with a director token" }) {
  const error = h("p", { class: "error", role: "alert", id: "paste-token-error" });
  const id = h("input", { type: "text", name: "paste-league-id", autocomplete: "off", spellcheck: false, required: true });
  const token = h("input", { type: "password", name: "paste-token", autocomplete: "off", spellcheck: false, required: true,
    placeholder: "tl_…" });
  return h("form", {
    class: "card", id: "paste-token-form", "aria-labelledby": "paste-token-title",
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = "";
      try {
        const grant = await adoptToken(leagueId ?? id.value, token.value);
        announce(`This device now directs ${grant.name}`);
        navigate(`#/league/${grant.league_id}`);
      } catch (err) {
        error.textContent = err.message;
      }
    },
  }, h("h2", { id: "paste-token-title" }, title),
  h("p", { class: "hint" }, "A league director makes a token for you on their director's page (Director access → Add a "
    + "director token) and gives it to you with the league id. Paste it here: this device then directs the league "
    + "too. Needs the network."),
  leagueId ? null : field("League id", id),
  field("Director token", token, "Keep it private: whoever holds it can change the league's table."),
  h("button", { type: "submit", class: "primary", id: "paste-token-submit" }, leagueId ? "Use this token" : "Add league"),
  error);
}

// ---------------------------------------------------------------- #/league/ID (director)

/** Why this device's stored director token no longer opens the league, in plain words. */
function lostAccessText(err, name) {
  if (err.code === "token-revoked") {
    return `This device's director token for ${name} was revoked by a league director. This device can no longer `
      + "change the league; its public table still opens.";
  }
  if (err.code === "token-expired") {
    return `This device's director token for ${name} was replaced by a newer one that did not reach this device, `
      + "and no longer works.";
  }
  return `The server no longer accepts this device's director token for ${name} (${err.message}).`;
}

/** A new director token, shown once in ``box``: the league id, the token, Copy and Done. */
function secretNotice(box, fresh, leagueId) {
  const secret = h("input", { type: "text", readOnly: true, value: fresh.token, id: "new-token-secret", class: "code",
    "aria-label": "The new director token", spellcheck: false });
  const copied = h("span", { class: "hint", id: "new-token-copied", "aria-live": "polite" });
  replace(box, h("div", { class: "notice", id: "new-token" },
    h("h3", {}, `New director token: ${fresh.label}`),
    h("p", {}, h("strong", {}, "Copy it now: it will not be shown again."),
      " Give it privately (not in a public chat): whoever holds it can change the league. On the other device: "
      + "Leagues → Add a league with a director token, with this league id."),
    field("League id", h("input", { type: "text", readOnly: true, value: leagueId, id: "new-token-league", class: "code" })),
    field("Director token", secret),
    h("p", {}, h("button", { type: "button", class: "primary", id: "copy-token", onclick: async () => {
      copied.textContent = (await copyText(fresh.token, secret)) ? "Copied." : "Select the token and copy it by hand.";
    } }, "Copy token"), " ", copied, " ",
    h("button", { type: "button", class: "small", id: "dismiss-token", onclick: () => replace(box) }, "Done, hide it"))));
}

/**
 * "Director access": the league's director tokens (add one, shown once; revoke, two presses; replace this
 * device's), as a section whose draw() and load() the director's page calls.
 */
function accessPanel(page) {
  const access = h("section", { class: "card", id: "director-access", "aria-labelledby": "access-title" });
  const accessMessage = h("p", { class: "error", role: "alert", id: "access-error" });
  const shownOnce = h("div", { id: "new-token-box", "aria-live": "polite" });
  let tokens = null;
  let confirming = null;  // the token whose "Revoke" was pressed once

  const statusOf = (t) => (t.revoked ? "revoked" : t.expired ? "expired" : t.replaced_by ? "replaced" : "active");

  const drawTokens = () => {
    if (!tokens) return h("p", {}, "Loading…");
    const shown = tokens.filter((t) => !t.revoked && !t.expired).sort((a, b) => Number(b.this_device) - Number(a.this_device));
    const gone = tokens.length - shown.length;
    const mine = tokens.find((t) => t.this_device)?.token_id;
    return [h("div", { class: "table-wrap" }, h("table", { id: "director-tokens" },
      h("caption", {}, countOf(shown.filter((t) => statusOf(t) === "active").length, "working director token")),
      h("thead", {}, h("tr", {}, ["Name", "Created", "Status", ""].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, shown.map((t) => {
        const status = statusOf(t);
        const name = t.label || "league director";
        const action = confirming === t.token_id
          ? h("span", { class: "confirm-step" },
            h("button", { type: "button", class: "small danger", dataset: { action: "confirm-revoke" }, onclick: () => revoke(t) },
              t.this_device ? "Yes, revoke this device's token" : `Yes, revoke ${name}`),
            " ", h("button", { type: "button", class: "small", dataset: { action: "cancel-revoke" },
              onclick: () => { confirming = null; drawAccess(); } }, "Cancel"))
          : h("button", { type: "button", class: "small", dataset: { action: "revoke" },
            onclick: () => { confirming = t.token_id; drawAccess(); } }, "Revoke");
        return h("tr", { dataset: { token: t.token_id, status, thisDevice: t.this_device ? "yes" : "no" } },
          h("th", { scope: "row" }, name, t.this_device ? [" ", h("span", { class: "badge this-device" }, "this device")] : null,
            mine && t.replaced_by === mine ? h("small", { class: "hint previous" }, " this device's previous token") : null),
          h("td", {}, created(t.created_at)),
          h("td", {}, status === "replaced" ? `replaced; works until ${when(t.expires_at)}` : status),
          h("td", {}, action));
      })))),
    gone ? h("p", { class: "hint", id: "tokens-gone" }, `${countOf(gone, "revoked or replaced token")} no longer ${gone === 1 ? "works" : "work"}.`) : null];
  };

  const label = h("input", { type: "text", name: "token-label", maxlength: "200", autocomplete: "off",
    placeholder: "Tablet, or Co-director Kira" });
  const addForm = h("form", {
    id: "add-token-form", "aria-labelledby": "add-token-title",
    onsubmit: async (e) => {
      e.preventDefault();
      accessMessage.textContent = "";
      try {
        const fresh = await addDirectorToken(page.grant, label.value.trim());
        label.value = "";
        showSecret(fresh);
        announce(`Director token ${fresh.label} added: copy it now, it will not be shown again`);
        await loadTokens();
      } catch (err) {
        page.failed(err, accessMessage);  // the name typed stays in the field
      }
    },
  }, h("h3", { id: "add-token-title" }, "Add a director token"),
  field("Who it is for", label, "Another device of yours, or a co-director. Each gets their own token, revocable alone."),
  h("button", { type: "submit", class: "primary", id: "add-token" }, "Add a director token"));

  const showSecret = (fresh) => secretNotice(shownOnce, fresh, page.leagueId);

  async function revoke(t) {
    accessMessage.textContent = "";
    try {
      await revokeDirectorToken(page.grant, t.token_id);
      confirming = null;
      announce(`${t.label || "Director token"} revoked`);
      if (t.this_device) {
        page.showLost({ code: "token-revoked", message: "this token was revoked" });
        return;
      }
      await loadTokens();
    } catch (err) {
      if (err.code === "last-director-token") accessMessage.textContent = `Not revoked: ${err.message}`;
      else if (lostAccess(err)) page.showLost(err);
      else accessMessage.textContent = `Not revoked: ${err.message}`;
    }
  }

  const rotate = async () => {
    accessMessage.textContent = "";
    try {
      const fresh = await rotateDirectorToken(page.grant);
      page.grant = { league_id: page.leagueId, token: fresh.token, name: page.grant.name };
      keepLeague(page.grant);  // this device goes on with the new token at once
      announce("This device has a new director token; the old one stops working in a few minutes");
      await loadTokens();
    } catch (err) {
      page.failed(err, accessMessage);
    }
  };

  const drawAccess = () => {
    if (page.closed) return;
    replace(access, h("h2", { id: "access-title" }, "Director access"),
      h("p", { class: "hint" }, "Every device or co-director that directs this league has its own director token. There are "
        + "no accounts: to hand the league over, add a token for the new director, then revoke yours. A token seen by "
        + "others (pasted in a public chat): revoke it. The last working token cannot be revoked."),
      accessMessage, drawTokens(), shownOnce, addForm,
      h("h3", {}, "Replace this device's token"),
      h("p", { class: "hint" }, "Gives this device a new token and retires the old one, which keeps working a few minutes "
        + "(for an answer lost on a bad network). A leaked token: revoke it in the list above, that stops it at once."),
      h("button", { type: "button", id: "rotate-token", onclick: rotate }, "Replace this device's token"));
  };

  const loadTokens = async () => {
    try {
      tokens = (await directorTokens(page.grant)).tokens;
      drawAccess();
    } catch (err) {
      page.failed(err, accessMessage);
    }
  };
  return { el: access, draw: drawAccess, load: loadTokens };
}

/** The league's name, director, season schedule, playoff qualification and carried lifetime points. */
function seasonForm(page) {
  const doc = page.league.document;
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
        page.message.textContent = carried.error;
        return;
      }
      change.lifetime = carried.points;
      page.run(() => patchLeague(page.grant, change), "League saved").then((saved) => {
        if (!saved) return;
        renameHeld(page.leagueId, change.name);
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
}

/** The league's events (each removable, two presses) and the form adding one with its organizer's token. */
async function eventsSection(page) {
  const schedule = page.league.document.season?.schedule || "standard";
  const sprintName = new Map(SPRINTS[schedule]);
  const rows = page.league.events.map((ev) => h("tr", { dataset: { event: ev.event_id } },
    h("th", { scope: "row" }, ev.present ? ev.name || ev.event_id : `${ev.event_id} (not on this server)`),
    h("td", {}, sprintName.get(ev.sprint) || ev.sprint), h("td", {}, ev.ruleset || "—"),
    h("td", {}, page.removing === ev.event_id
      ? [h("button", { type: "button", class: "small danger", dataset: { action: "confirm-remove-event" },
        onclick: () => { page.removing = null; page.run(() => removeEvent(page.grant, ev.event_id), `${ev.name || ev.event_id} is no longer a league event`); } },
      `Confirm: stop counting ${ev.name || ev.event_id} (its bonus points go too)`),
      h("button", { type: "button", class: "small", onclick: () => { page.removing = null; page.draw(); } }, "Keep")]
      : h("button", { type: "button", class: "small", dataset: { action: "remove-event" },
        onclick: () => { page.removing = ev.event_id; page.draw(); } }, "Remove"))));
  // This device's own Star Trek events as organizer carry their organizer token: no typing.
  const inLeague = new Set(page.league.events.map((ev) => ev.event_id));
  const own = (await allSessions()).filter((s) => s.role === "organizer" && countsInLeagues(s.ruleset)
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
      page.run(() => addEvent(page.grant, { event_id: eventId.value.trim(), sprint: sprint.value, organizer_token: token.value.trim() }),
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
    page.league.events.length ? h("div", { class: "table-wrap" }, h("table", { id: "league-events" },
      h("thead", {}, h("tr", {}, ["Event", "Sprint", "Game", ""].map((t) => h("th", { scope: "col" }, t)))), h("tbody", {}, rows)))
      : h("p", {}, "No league events yet."),
    form);
}

/** Bonus points (12.5): the entries, each removable, and the form entering one for a player of a league event. */
function bonusSection(page) {
  const bonus = page.league.document.bonus || [];
  const eventName = new Map(page.league.events.map((ev) => [ev.event_id, ev.name || ev.event_id]));
  const nameOf = (ev, person) => (page.persons[ev] || []).find(([p]) => p === person)?.[1] || person;
  const list = bonus.length ? h("div", { class: "table-wrap" }, h("table", { id: "bonus-entries" },
    h("thead", {}, h("tr", {}, ["Player", "Event", "Points", "Scheme", "Note", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, bonus.map((b) => h("tr", { dataset: { bonus: b.id } },
      h("th", { scope: "row" }, nameOf(b.event, b.person)), h("td", {}, eventName.get(b.event) || b.event),
      h("td", {}, b.points), h("td", {}, b.scheme || "—"), h("td", {}, b.note || ""),
      h("td", {}, h("button", { type: "button", class: "small", dataset: { action: "remove-bonus" },
        onclick: () => page.run(() => removeBonus(page.grant, b.id), "Bonus entry removed") }, "Remove")))))))
    : h("p", {}, "No bonus points entered.");
  const present = page.league.events.filter((ev) => ev.present);
  if (!present.length) return h("section", { class: "card" }, h("h2", {}, "Bonus points"), list);
  const eventSelect = select(present.map((ev) => [ev.event_id, ev.name || ev.event_id]), { name: "bonus-event" });
  const person = h("select", { name: "bonus-person" });
  const fillPersons = () => replace(person, (page.persons[eventSelect.value] || []).map(([p, n]) => h("option", { value: p }, `${n} (${p})`)));
  eventSelect.addEventListener("change", fillPersons);
  fillPersons();
  const points = numberInput({ name: "bonus-points", min: "-1000", max: "1000", value: "1", required: true });
  const scheme = select(SCHEMES, { name: "bonus-scheme" });
  const note = h("input", { type: "text", name: "bonus-note", autocomplete: "off" });
  const form = h("form", {
    id: "bonus-form", "aria-labelledby": "bonus-form-title",
    onsubmit: (e) => {
      e.preventDefault();
      page.run(() => addBonus(page.grant, { event_id: eventSelect.value, person: person.value, points: Number(points.value),
        scheme: scheme.value, note: note.value.trim() }), "Bonus points entered");
    },
  }, h("h3", { id: "bonus-form-title" }, "Enter bonus points"), field("Event", eventSelect), field("Player", person),
  field("Points", points), field("Scheme", scheme), field("Note", note),
  h("button", { type: "submit", class: "primary", id: "add-bonus" }, "Enter bonus"));
  return h("section", { class: "card", "aria-labelledby": "bonus-title" }, h("h2", { id: "bonus-title" }, "Bonus points (12.5)"),
    h("p", { class: "hint" }, "Bonus points count only in this league's own table, never in season or lifetime league points."),
    list, form);
}

async function directorScreen(root, { leagueId, navigate }) {
  const tableLink = () => h("p", {}, h("a", { href: `#/league/${leagueId}/table`, id: "open-table" }, "Open the league table"),
    " — public: anyone with the link can read it (no token).");
  const held = grantOf(leagueId);
  if (!held) {
    replace(root, h("h1", {}, "League"), h("p", { id: "not-held" }, "This device does not direct this league."),
      tableLink(), pasteTokenForm({ navigate, leagueId, title: "Direct this league from this device" }));
    return {};
  }
  const message = h("p", { class: "error", role: "alert", id: "league-error" });
  const body = h("div");
  replace(root, h("h1", { id: "league-title" }, held.name || "League"), tableLink(), message, body);

  /** What the page's sections share: the grant (replaced when this device's token is), the league as last read. */
  const page = {
    leagueId,
    grant: held,
    league: null,
    persons: {},  // event id -> [[person, name]]
    removing: null,  // the league event whose "Remove" was pressed once
    closed: false,
    message,
    showLost: (err) => showLost(err),
    failed: (err, where = message) => {
      if (lostAccess(err)) showLost(err);
      else where.textContent = err.message;
    },
    /** Send a change; true once it is made (a refusal is said, and the form keeps what was typed). */
    run: async (fn, done) => {
      message.textContent = "";
      try {
        page.league = await fn();
      } catch (err) {
        page.failed(err);
        return false;
      }
      if (done) announce(done);
      await draw();
      return true;
    },
    draw: () => draw(),
  };
  const access = accessPanel(page);

  /** This device's token no longer opens the league: say so, and offer to forget it or paste a new token. */
  function showLost(err) {
    page.closed = true;
    const name = page.grant.name;
    replace(root, h("h1", { id: "league-title" }, name || "League"),
      h("section", { class: "card", id: "league-access-lost", "aria-labelledby": "lost-title" },
        h("h2", { id: "lost-title" }, "This device no longer directs this league"),
        h("p", { class: "warning", id: "lost-reason", dataset: { code: err.code || "" } }, lostAccessText(err, name || leagueId)),
        h("p", {}, "Ask a league director for a new director token and paste it below, or forget the league on this device."),
        h("p", {}, h("button", { type: "button", class: "danger", id: "forget-league", onclick: () => {
          forgetHeld(leagueId);
          announce(`${name || leagueId} forgotten on this device`);
          navigate("#/leagues");
        } }, "Forget this league on this device"))),
      pasteTokenForm({ navigate, leagueId, title: "Paste a new director token" }),
      tableLink());
  }

  async function draw() {
    page.persons = await leaguePersons(leagueId);
    if (page.closed) return;
    replace(body, h("div", { class: "grid" }, seasonForm(page), await eventsSection(page)), bonusSection(page), access.el);
    body.dataset.version = String(page.league.version);
  }

  // The director's page is an online screen: offline, say so and open when the connection is back.
  const open = async () => {
    message.textContent = "";
    try {
      page.league = await getLeague(page.grant);
    } catch (err) {
      if (err.code === "offline" || !navigator.onLine) {
        replace(body, h("p", { class: "warning", id: "league-offline" }, "Offline: the director's page needs the network. "
          + "This league stays on this device and opens when the connection is back."),
        h("button", { type: "button", id: "retry-league", onclick: open }, "Try again"));
        return;
      }
      page.failed(err);
      return;
    }
    access.draw();
    await draw();
    await access.load();
  };
  const reopen = () => { if (!page.league && !page.closed) open(); };
  globalThis.addEventListener("online", reopen);
  await open();
  return { destroy: () => globalThis.removeEventListener("online", reopen) };
}

/** The players of each league event, as the league names them (from the public table): event id -> [[person, name]]. */
async function leaguePersons(leagueId) {
  try {
    const table = await leagueTable(leagueId);
    const names = new Map([...table.table.season, ...table.table.lifetime].map((r) => [r.person, r.name]));
    return Object.fromEntries(table.table.events.map((ev) => [ev.id,
      Object.keys(ev.places).map((p) => [p, names.get(p) || p]).sort((a, b) => a[1].localeCompare(b[1]))]));
  } catch {
    return {};
  }
}

// ---------------------------------------------------------------- #/league/ID/table (public)

const num = (v) => (typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : String(v ?? ""));


/**
 * The coin flip (OP Guide 12.6 (7)) as the order the draw put the tied players in ("2 of 3 in the draw"), never
 * the raw number drawn from the league's seed; "—" where the flip did not decide the place.
 */
export function coinFlipText(ranking, keys, row) {
  const others = keys.filter((k) => k.key !== "coin_flip").map((k) => k.key);
  // The players tied on every other tiebreaker: the draw put them in rank order (the top one's place was set
  // by what separated it from the player above, so its own decided_by is not the flip).
  const tied = ranking.filter((r) => others.every((k) => r.tiebreakers[k] === row.tiebreakers[k])).sort((a, b) => a.rank - b.rank);
  if (tied.length < 2) return "—";
  const place = tied.indexOf(row) + 1;
  return place === 1 ? `won the draw (of ${tied.length})` : `${place} of ${tied.length} in the draw`;
}

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
      keys.map((k) => h("td", {}, k.key === "coin_flip" ? coinFlipText(t.playoffs.ranking, keys, r) : num(r.tiebreakers[k.key]))),
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
  return directorScreen(root, { leagueId, navigate });
}

export default { mount };

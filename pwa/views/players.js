// Registration: add players (late entries too), check in, drop, reinstate, fixed tables, rename, remove a
// mistyped entry nothing refers to yet, find a player in the roster (name, id or table), claim codes
// (listed from the server on every organizer, head judge and scorekeeper device; new code, revoke, print),
// player records across events (while online: pick a returning player, link a roster entry; docs/people.md).
import { may } from "../app/roles.js";
import { claims, dropLink, eventPeople, flushLinks, linkPlayer, pendingLinks, queueLink, randomId, reissueClaim, revokeClaim, rules, searchPeople, unlinkPlayer } from "../app/services.js";
import { gameIdFor, gameIdOf, personLine } from "../app/people.js";
import { announce, field, h, latestRound, numberInput, problemNotice, refresh, refusalText, replace, withNames } from "../ui/dom.js";
import { batchProgress } from "../ui/progress.js";
import { callPlayerForm } from "../ui/calls.js";
import { csvImportCard } from "./csv-import.js";

/** The longest name a player may have (shared_rules/state/caps.py: a name is at most 200 characters). */
const NAME_CHARS = 200;

/**
 * The division a birth year gives, from rules_api ``age_divisions`` (``bands``: each division's birth years, oldest
 * first); a sentence for the registration form.
 */
export function divisionHint(ages, text) {
  if (!ages) return "";
  const year = Number(text);
  if (!text || !Number.isInteger(year) || year < 1900) return "";
  if (!ages.season) return "The event has no season yet, so the division cannot be told (set the event's season or date).";
  const band = ages.bands.find((b) => (b.from === null || year >= b.from) && (b.to === null || year <= b.to));
  if (!band) return `Born ${year}: after the ${ages.season.label} season, so in no division. Check the year.`;
  return `Born ${year}: ${band.label} division in the ${ages.season.label} season.`;
}

/** "Masters born 2010 or earlier · Senior 2011–2014 · Junior 2015 or later" for a season's bands. */
export function bandsLine(bands) {
  return bands.map((b) => (b.from === null ? `${b.label} born ${b.to} or earlier`
    : b === bands[bands.length - 1] ? `${b.label} ${b.from} or later` : `${b.label} ${b.from}–${b.to}`)).join(" · ");
}

/** Text as the roster search compares it: no accents, no case, single spaces. */
export function searchKey(text) {
  return String(text).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * Whether a roster row matches the search: a number finds the players at that table (this round's or their
 * fixed table), with that id, or whose game ID (a Play! Pokémon ID) is or, from four digits on, contains it;
 * anything else finds names, ids and game IDs containing it.
 */
export function rowMatches(query, { name, id, gameId = "", tables }) {
  if (!query) return true;
  const own = searchKey(gameId);
  if (/^\d+$/.test(query)) {
    return tables.includes(Number(query)) || searchKey(id) === query || own === query || (query.length >= 4 && own.includes(query));
  }
  return searchKey(name).includes(query) || searchKey(id).includes(query) || own.includes(query);
}

/**
 * The roster's ID columns: the game's own player ID (headed "Play! Pokémon ID", "trekcc.org forum handle"…) and,
 * for a game without age divisions (whose column shows it), the birth year when any player has one.
 */
function idColumns(st, ages, act) {
  const born = !ages && st.players.some((p) => p.birth_year !== null && p.birth_year !== undefined);
  const label = gameIdFor(st.ruleset)?.label || "Player ID";
  const idCell = (p) => {
    if (!act) return h("td", { class: "game-id" }, gameIdOf(p) || "—");
    // Typed or corrected here (player.edit; the rules check its form and that nobody else holds it).
    const input = h("input", { type: "text", name: "game-id", value: gameIdOf(p), "aria-label": `${label} of ${p.name}`,
      class: "game-id-input", autocomplete: "off", spellcheck: false, placeholder: "—" });
    input.addEventListener("change", () => {
      const fields = { game_id: input.value.trim() || null };
      for (const older of ["pop_id", "rating_id"]) if (older in (p.extra || {})) fields[older] = null;
      act("player.edit", { player: p.id, fields });
    });
    return h("td", { class: "game-id", dataset: { gameId: gameIdOf(p) } }, input);
  };
  return {
    headings: [label, born && "Birth year"],
    cells: (p) => [idCell(p), born && h("td", { class: "birth-year" }, p.birth_year ?? "—")],
  };
}

/** The document's structure for the active players, under Structure. */
async function suggestStructure(st, suggestion) {
  const active = st.players.filter((p) => p.dropped_after === null).length;
  const s = await rules("structure", { ruleset: st.ruleset, players: active });
  suggestion.textContent = s.error ? s.error : `${active} players: ${s.swiss_rounds} Swiss rounds`
    + (s.cut ? `, top ${s.cut} cut` : ", no cut") + (s.source ? ` (${s.source})` : "");
}

/** What the roster shows of the state (a change to anything else, a sync or a timer, leaves it as drawn). */
function rosterKey(st, extra) {
  const rnd = latestRound(st);
  return JSON.stringify([st.players, rnd?.number, rnd?.matches.map((m) => [m.table, m.players]), (st.penalties || []).length,
    st.settings?.seeds, st.closed, st.ruleset, extra]);
}

/** Players something refers to (a pairing, a penalty, a seed): they can be dropped, not removed. */
export function referencedPlayers(state) {
  const out = new Set();
  for (const rnd of state.rounds || []) for (const m of rnd.matches) for (const pid of m.players) out.add(pid);
  for (const penalty of state.penalties || []) out.add(penalty.player);
  const seeds = state.settings?.seeds;
  if (Array.isArray(seeds)) for (const pid of seeds) out.add(pid);
  return out;
}

/**
 * Claim codes (organizer, head judge, scorekeeper: this screen's roles): each player's code while it can
 * be used, a new code for a lost slip or another phone, revoke (the code and the player's phones). Drawn in
 * ``codes``; returns what (re)draws them.
 */
function claimCodes(store, codes) {
  const STATUS = { waiting: "not joined yet", joined: "joined", revoked: "revoked", unreadable: "unreadable: issue a new code",
                   none: "no code yet" };
  let confirming = null;  // the player whose "Revoke" was pressed once
  const claimAction = async (fn, done) => {
    try {
      const out = await fn();
      confirming = null;
      await showCodes();
      announce(done(out));
    } catch (err) {
      codes.prepend(h("p", { class: "error", role: "alert" }, err.message));
    }
  };
  const codeRow = (c) => {
    const revoke = confirming === c.player
      ? h("button", { type: "button", class: "small danger", dataset: { action: "confirm-revoke" },
        onclick: () => claimAction(() => revokeClaim(store.session, c.player),
          (r) => `${c.name}'s code is revoked${r.devices_revoked ? ` and ${r.devices_revoked} phone${r.devices_revoked === 1 ? "" : "s"} signed out` : ""}`) },
        `Confirm: revoke ${c.name}'s code and sign out their phones`)
      : h("button", { type: "button", class: "small", dataset: { action: "revoke" },
        onclick: () => { confirming = c.player; showCodes(); } }, "Revoke");
    return h("tr", { dataset: { player: c.player, status: c.status } },
      h("td", {}, c.name), h("td", { class: "code" }, c.code || "—"),
      h("td", {}, STATUS[c.status] || c.status, c.devices ? ` (${c.devices} phone${c.devices === 1 ? "" : "s"})` : ""),
      h("td", { class: "actions" },
        h("button", { type: "button", class: "small", dataset: { action: "reissue" },
          onclick: () => claimAction(() => reissueClaim(store.session, c.player),
            (r) => `New code for ${c.name}: ${r.code}. Their old code no longer works; phones already joined keep working.`) },
        c.code || c.status === "joined" ? "New code" : "Issue a code"),
        c.status !== "revoked" && c.status !== "none" && revoke));
  };
  const showCodes = async () => {
    try {
      const data = await claims(store.session);
      replace(codes, h("p", {}, h("a", { href: `#/event/${store.eventId}/print/claims`, id: "print-claims" }, "Print claim slips with QR codes"),
        " — one slip per player not joined yet; each code works once."),
      h("div", { class: "table-wrap" }, h("table", { class: "codes" }, h("caption", {}, "Hand each player theirs. A new code replaces the old one; phones already joined keep working. Revoke signs their phones out."),
        h("thead", {}, h("tr", {}, ["Player", "Code", "Status", "Actions"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, data.claims.map(codeRow)))));
    } catch (err) {
      replace(codes, h("p", { class: "error", role: "alert" }, err.message));
    }
  };
  return showCodes;
}

/** The event's age divisions above the registration form (Pokémon TOP 3.1.1), or nothing. */
function renderAges(agesBox, ages) {
  if (!ages) {
    replace(agesBox);
    return;
  }
  const basis = { "settings.season": "the event's season", date: "from the event's date", "settings.date": "from the event's date" };
  replace(agesBox,
    h("p", { id: "age-season" }, ages.season
      ? [h("strong", {}, `Age divisions, ${ages.season.label} season`), ` (${basis[ages.season.basis] || ages.season.basis}): `,
        bandsLine(ages.bands), "."]
      : h("strong", {}, "Age divisions: the event has no season or date, so divisions cannot be told from birth years.")),
    ages.note ? h("p", { class: "hint", id: "age-note" }, ages.note) : h("p", { id: "age-counts" }, "Players: ",
      ages.counts.filter(([d, n]) => n || d).map(([d, n]) => `${d ? ages.labels[d] : "no division yet"} ${n}`).join(" · ")),
    ages.problems.length ? h("div", { class: "warnings", id: "division-problems", role: "status" },
      h("p", {}, "Pairing is refused until this is fixed:"), h("ul", {}, ages.problems.map((t) => h("li", {}, t)))) : null);
}

/**
 * Player records at registration: while online, typing a name or game id offers the people the server
 * knows; picking one fills the form. ``picked`` is the chosen person (or null), ``reset()`` forgets it.
 */
function personPicker(store, { name, gameId, birthYear }) {
  const suggestions = h("ul", { id: "person-suggestions", class: "suggestions", "aria-live": "polite" });
  const pickedNote = h("p", { id: "picked-person", class: "hint", role: "status" });
  const makeRecord = h("input", { type: "checkbox", id: "make-record", checked: true });
  const recordNote = h("p", { id: "record-note", class: "hint" });
  let picked = null;      // the person chosen from the suggestions
  let searchTimer = null;
  let searchSeq = 0;
  const showPicked = () => {
    replace(pickedNote, picked ? [`Returning player: ${personLine(picked)}. This entry is linked to their record once it syncs. `,
      h("button", { type: "button", class: "small", id: "unpick", onclick: () => { picked = null; showPicked(); } }, "Not this person")] : []);
    makeRecord.closest(".check").hidden = Boolean(picked) || !navigator.onLine;
    recordNote.textContent = navigator.onLine ? ""
      : "Offline: the player is registered as a new entry; link it to a player record later (Link to player record, in the roster).";
  };
  const pick = (person) => {
    picked = person;
    name.value = person.name;
    const wanted = gameIdFor(store.state?.ruleset);
    if (wanted?.personField) gameId.value = person[wanted.personField] || gameId.value;
    if (wanted?.birthYear && person.birth_year) birthYear.value = String(person.birth_year);
    replace(suggestions);
    showPicked();
    name.focus();
  };
  const offer = () => {
    clearTimeout(searchTimer);
    const q = (gameId.value.trim().length >= 2 ? gameId.value : name.value).trim();
    if (!navigator.onLine || q.length < 2 || picked) {
      replace(suggestions);
      showPicked();
      return;
    }
    searchTimer = setTimeout(async () => {
      const seq = ++searchSeq;
      try {
        const { people } = await searchPeople(store.session, q);
        if (seq !== searchSeq) return;
        replace(suggestions, people.length ? h("li", { class: "hint" }, "Returning player? Pick their record:") : null,
          people.map((p) => h("li", {}, h("button", { type: "button", class: "small suggestion-pick",
          dataset: { person: p.id }, onclick: () => pick(p) }, personLine(p)))));
      } catch {
        if (seq === searchSeq) replace(suggestions);  // offline or refused: the form works as without records
      }
    }, 250);
  };
  name.addEventListener("input", offer);
  gameId.addEventListener("input", offer);
  return {
    suggestions, pickedNote, makeRecord, recordNote, showPicked,
    get picked() { return picked; },
    reset() {
      picked = null;
      replace(suggestions);
      showPicked();
    },
  };
}

/**
 * Register the names as one batch (a chunk at a time: one IndexedDB write and one fold each, with the count on
 * the button), then say how many were registered and which lines were not, and why; those lines go back into
 * the box (``bulk``) to be corrected. ``playerFor(name, first)`` makes each line's player; the first may carry
 * the single-name field's game id and player record.
 */
async function registerNames(store, names, { playerFor, key, progress, outcome, duplicates, bulk, done: after }) {
  // Two people may share a name, so a repeated name is registered, but said loudly: the same person
  // twice would get two pairings (drop one); two people need telling apart (add an initial).
  const seen = new Set((store.state?.players || []).map((p) => key(p.name)));
  const repeated = [];
  const bad = [];  // [line, why]: not sent at all
  const ops = [];
  const lines = [];
  for (const [i, n] of names.entries()) {
    if (n.length > NAME_CHARS) {
      bad.push([n, `longer than ${NAME_CHARS} characters: is it one name?`]);
      continue;
    }
    if (seen.has(key(n))) repeated.push(n);
    seen.add(key(n));
    ops.push({ type: "player.register", payload: { player: playerFor(n, i === 0) } });
    lines.push(n);
  }
  replace(outcome);
  progress.start(ops.length);
  let results;
  try {
    results = await store.actMany(ops, { onProgress: (count, total) => progress.step(count, total) });
  } finally {
    progress.finish();
  }
  const refused = [...bad, ...results.flatMap((r, i) => (r.refused
    ? [[lines[i], withNames(store.state, r.refused).replace(/^player\.register:\s*/, "")]] : []))];
  const done = results.filter((r) => !r.refused).length;
  after();
  if (refused.length) bulk.value = refused.map(([line]) => line).join("\n");  // nothing typed is lost
  announce(`${done} player${done === 1 ? "" : "s"} registered${refused.length ? `, ${refused.length} not` : ""}`);
  replace(outcome, h("p", { class: "notice", id: "register-done" },
    `${done} player${done === 1 ? "" : "s"} registered${store.state ? `; ${store.state.players.length} in the event` : ""}.`),
  refused.length ? h("div", { class: "warnings", id: "register-refused" },
    h("p", {}, `${refused.length} line${refused.length === 1 ? " was" : "s were"} not registered (back in the box below to correct):`),
    h("ul", {}, refused.map(([line, why]) => h("li", {}, h("strong", {}, line.length > 60 ? `${line.slice(0, 60)}…` : line), `: ${why}`)))) : null);
  duplicates.hidden = !repeated.length;
  duplicates.textContent = repeated.length
    ? `Registered twice: ${repeated.join(", ")}. If it is the same person, remove (or drop one entry once paired); `
      + "if they are different people, rename one (add an initial) so judges and players can tell them apart."
    : "";
}

/**
 * "Register players": a name (with its game id and birth year where the game asks, and a returning player's
 * record offered while online) or several names. ``update(state)`` follows the event; ``setAges`` shows
 * its age divisions (Pokémon TOP 3.1.1).
 */
function registerCard(store) {
  const name = h("input", { type: "text", autocomplete: "off" });
  const bulk = h("textarea", { rows: "4", placeholder: "One name per line" });

  const duplicates = h("p", { class: "warning", id: "duplicate-warning", role: "status", hidden: true });
  const key = (n) => n.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

  // ---- player records: while online, typing a name or game id offers the people the server knows
  const gameId = h("input", { type: "text", id: "game-id", autocomplete: "off", spellcheck: false });
  const birthYear = numberInput({ id: "birth-year", min: "1900", max: "2100", class: "narrow" });
  const gameIdField = field("Game id", gameId);
  const birthField = field("Birth year", birthYear);
  // Pokémon TOP 3.1.1: the division a typed birth year gives, and the event's divisions (rules_api age_divisions).
  let ages = null;
  const birthDivision = h("p", { class: "hint", id: "birth-division", "aria-live": "polite" });
  const showBirthDivision = () => { birthDivision.textContent = divisionHint(ages, birthYear.value.trim()); };
  birthYear.addEventListener("input", showBirthDivision);
  birthField.append(birthDivision);
  const agesBox = h("div", { id: "age-divisions" });
  const showAges = () => renderAges(agesBox, ages);
  const records = personPicker(store, { name, gameId, birthYear });
  const ids = () => gameIdFor(store.state?.ruleset);
  const submit = h("button", { type: "submit", class: "primary", id: "register" }, "Register");
  const reminder = recoveryReminder(store);
  const progress = batchProgress(submit);
  const outcome = h("div", { id: "register-outcome", role: "status" });
  /** The player a line registers (the single-name field also carries the game id and the chosen record). */
  const playerFor = (n, single, wanted) => {
    const player = { id: `p-${randomId(6)}`, name: n };
    if (!single) return player;
    const typedId = gameId.value.trim();
    const year = Number(birthYear.value);
    if (wanted && typedId) player[wanted.field] = typedId;
    if (wanted?.birthYear && Number.isInteger(year) && year >= 1900 && year <= 2100) player.birth_year = year;
    const { picked } = records;
    if (picked) queueLink(store.eventId, { player: player.id, person: picked.id, name: picked.name });
    else if (records.makeRecord.checked && navigator.onLine) {
      const create = { name: n };
      if (wanted?.personField && typedId) create[wanted.personField] = typedId;
      if (player.birth_year && wanted?.birthYear) create.birth_year = player.birth_year;
      queueLink(store.eventId, { player: player.id, create });
    }
    return player;
  };
  const register = (names, single) => registerNames(store, names, {
    playerFor: (n, first) => playerFor(n, first && single, ids()), key, progress, outcome, duplicates, bulk,
    done: () => {
      gameId.value = "";
      birthYear.value = "";
      showBirthDivision();
      records.reset();
    },
  });

  const form = h("form", {
    class: "card", onsubmit: async (e) => {
      e.preventDefault();
      const names = [name.value, ...bulk.value.split("\n")].map((s) => s.trim()).filter(Boolean);
      if (!names.length) return;
      const single = Boolean(name.value.trim());
      name.value = "";
      bulk.value = "";
      await register(names, single);
      name.focus();
    },
  }, h("h2", {}, "Register players"), reminder, field("Player name", name), gameIdField, birthField, records.suggestions, records.pickedNote,
  h("div", { class: "field check" }, h("label", {}, records.makeRecord, " Keep a player record (their history across events)")),
  records.recordNote, field("Or several names", bulk, "One per line: paste a whole list (hundreds at once) from a spreadsheet column."),
  submit, progress.el, outcome, duplicates);
  return {
    form,
    agesBox,
    update(st) {
      // A closed event takes no more registrations (the rules refuse them; say so before anyone types).
      for (const el of form.elements) el.disabled = Boolean(st.closed) || (el === submit && progress.busy);
      form.hidden = Boolean(st.closed);
      const wanted = gameIdFor(st.ruleset);
      gameIdField.hidden = !wanted;
      birthField.hidden = !wanted?.birthYear;
      if (wanted) gameIdField.querySelector("label").textContent = wanted.label;
      records.showPicked();
      reminder.hidden = !(store.role === "organizer" && store.session?.recovery_code);
    },
    setAges(found) {
      ages = found;
      showAges();
      showBirthDivision();
    },
  };
}

/**
 * The roster's player records: which entry is whose (from the server, while online), linking one (with the
 * person's player record code when they have played elsewhere), links waiting for their register op to sync.
 * ``redraw`` redraws the roster, ``fail`` says what went wrong there.
 */
/**
 * The roster's player records: which entry is whose (from the server, while online), linking one (with the
 * person's player record code when they have played elsewhere), links waiting for their register op to sync.
 * ``redraw`` redraws the roster, ``fail`` says what went wrong there.
 */
function rosterRecords(store, hooks) {
  const ui = {
    links: new Map(),  // player id -> person
    linking: null,     // the roster entry whose "Link to player record" is open
    linkFound: [],     // the people its search found
    linkMessage: "",
    consentFor: null,  // {player, person, name}: the link waits for the person's player record code
  };
  const act = recordActions(store, ui, hooks);
  return {
    cell: (p) => recordCell(store, ui, act, hooks, p),
    load: act.loadLinks,
    flush: act.flush,
    loadedAt: act.loadedAt,
    /** What the record cells show beside the roster: their redraw draws the roster only when it changed. */
    key: () => [[...ui.links], ui.linking, ui.linkFound, ui.linkMessage, ui.consentFor, pendingLinks(store.eventId), navigator.onLine],
    /** The entries whose record cell is open (kept visible whatever the search). */
    open: () => [ui.linking, ui.consentFor?.player],
  };
}

/** What the roster's record cells do: load the links, send the waiting ones, link (with a code), unlink, search. */
function recordActions(store, ui, { redraw, focusLater, fail }) {
  let flushing = false;
  let linksLoaded = 0;
  const loadLinks = async () => {
    linksLoaded = Date.now();
    try {
      const body = await eventPeople(store.session);
      ui.links = new Map(body.links.map((l) => [l.player, l.person]));
      for (const entry of pendingLinks(store.eventId)) {  // linked meanwhile (by the player's own phone, say)
        if (entry.consent && ui.links.has(entry.player)) dropLink(store.eventId, entry.player);
      }
    } catch {
      return;  // offline: the roster shows what it knew
    }
    redraw();
  };
  /** Whether the server has the entry: on the roster, and its register op not waiting in this device's outbox. */
  const synced = (pid) => (store.state?.players || []).some((p) => p.id === pid)
    && !store.rows.some((r) => r.status === "pending" && r.op.type === "player.register" && r.op.payload?.player?.id === pid);
  const flush = async () => {
    if (flushing || !pendingLinks(store.eventId).length || !navigator.onLine) return;
    flushing = true;
    try {
      if (await flushLinks(store.session, synced)) await loadLinks();
      else redraw();  // a link may now wait for a player's consent
    } finally {
      flushing = false;
    }
  };
  const linkTo = async (p, person) => {
    if (!synced(p.id)) {  // the entry is not on the server yet: linked once its register op has synced
      queueLink(store.eventId, { player: p.id, person: person.id });
      ui.linking = null;
      ui.linkFound = [];
      ui.linkMessage = "";
      announce(`${p.name} is linked to the player record ${person.name} once this device has synced`);
      redraw();
      return;
    }
    try {
      await linkPlayer(store.session, p.id, person.id);
      ui.linking = null;
      ui.linkFound = [];
      ui.linkMessage = "";
      announce(`${p.name} is linked to the player record ${person.name}`);
      await loadLinks();
      focusLater(`tr[data-player="${CSS.escape(p.id)}"] [data-action=unlink]`);
    } catch (err) {
      if (err.code === "consent-needed") {  // a returning player: their code says they agree
        ui.linking = null;
        ui.linkFound = [];
        askCode(p, { player: p.id, person: person.id, name: person.name });
        return;
      }
      ui.linkMessage = err.message;
      redraw();
    }
  };
  const askCode = (p, wanted) => {
    ui.consentFor = wanted;
    ui.linkMessage = "";
    redraw();
    focusLater(`tr[data-player="${CSS.escape(p.id)}"] input[name=person-code]`);
  };
  const linkWithCode = async (p, input) => {
    const code = input.value.trim();
    if (!code) return;
    try {
      await linkPlayer(store.session, p.id, ui.consentFor.person, { code });
      const name = ui.consentFor.name;
      ui.consentFor = null;
      ui.linkMessage = "";
      dropLink(store.eventId, p.id);
      announce(`${p.name} is linked to the player record ${name}`);
      await loadLinks();
      focusLater(`tr[data-player="${CSS.escape(p.id)}"] [data-action=unlink]`);
    } catch (err) {
      ui.linkMessage = err.message;
      redraw();
    }
  };
  const unlink = async (p) => {
    try {
      await unlinkPlayer(store.session, p.id);
      announce(`${p.name} is linked to no player record any more`);
      await loadLinks();
    } catch (err) {
      fail(err.message);
    }
  };
  const findForLink = async (input) => {
    const q = input.value.trim();
    if (q.length < 2) return;
    try {
      ui.linkFound = (await searchPeople(store.session, q)).people;
      ui.linkMessage = ui.linkFound.length ? "" : `No player record matches “${q}”.`;
    } catch (err) {
      ui.linkFound = [];
      ui.linkMessage = err.message;
    }
    redraw();
  };
  return { loadLinks, flush, linkTo, askCode, linkWithCode, unlink, findForLink, loadedAt: () => linksLoaded };
}

/** One entry's record cell: its person, a link waiting (for sync or for consent), the code form or the search. */
function recordCell(store, ui, act, { redraw, focusLater }, p) {
  const { linkTo, askCode, linkWithCode, unlink, findForLink } = act;
  const person = ui.links.get(p.id);
  const pending = pendingLinks(store.eventId).find((e) => e.player === p.id);
  const queued = Boolean(pending) && !pending.consent;
  if (ui.consentFor?.player === p.id && !person) {
    const input = h("input", { type: "text", name: "person-code", autocomplete: "off", spellcheck: false,
      autocapitalize: "characters", placeholder: "ABCD-EFGH-JKLM", "aria-label": `Player record code of ${ui.consentFor.name}` });
    return h("td", { class: "record" },
      h("p", { class: "hint" }, `${ui.consentFor.name} has played in other events: ask for their player record code `
        + "(on their phone, under My history) to link this entry to their record."),
      h("form", { class: "link-person", onsubmit: (e) => { e.preventDefault(); linkWithCode(p, input); } },
        input, h("button", { type: "submit", class: "small", dataset: { action: "link-with-code" } }, "Link"),
        h("button", { type: "button", class: "small", dataset: { action: "cancel-code" },
          onclick: () => { ui.consentFor = null; ui.linkMessage = ""; redraw(); } }, "Cancel")),
      ui.linkMessage && h("p", { class: "error", role: "alert" }, ui.linkMessage));
  }
  if (pending?.consent && !person && ui.linking !== p.id) {
    return h("td", { class: "record" }, `${pending.consent}: consent needed `,
      h("button", { type: "button", class: "small", dataset: { action: "enter-code" },
        onclick: () => askCode(p, { player: p.id, person: pending.person, name: pending.consent }) }, "Enter their code"),
      " ",
      h("button", { type: "button", class: "small", dataset: { action: "forget-link" },
        onclick: () => { dropLink(store.eventId, p.id); redraw(); } }, "Don't link"));
  }
  if (ui.linking === p.id) {
    const input = h("input", { type: "search", name: "link-search", autocomplete: "off", "aria-label": `Find the player record of ${p.name}`,
      placeholder: "Name or game id" });
    return h("td", { class: "record" }, h("form", { class: "link-person", onsubmit: (e) => { e.preventDefault(); findForLink(input); } },
      input, h("button", { type: "submit", class: "small", dataset: { action: "find-person" } }, "Find"),
      h("button", { type: "button", class: "small", dataset: { action: "cancel-link" },
        onclick: () => { ui.linking = null; ui.linkFound = []; ui.linkMessage = ""; redraw(); } }, "Cancel")),
    ui.linkMessage && h("p", { class: "error", role: "alert" }, ui.linkMessage),
    h("ul", { class: "suggestions" }, ui.linkFound.map((person) => h("li", {}, h("button", { type: "button", class: "small",
      dataset: { action: "pick-person", person: person.id }, onclick: () => linkTo(p, person) }, personLine(person))))));
  }
  return h("td", { class: "record" },
    person ? [h("a", { href: `#/event/${store.eventId}/history/${encodeURIComponent(person.id)}`, dataset: { person: person.id } }, person.name), " "]
      : queued ? "links after sync " : "",
    person ? h("button", { type: "button", class: "small", dataset: { action: "unlink" }, onclick: () => unlink(p) }, "Unlink")
      : !queued && h("button", { type: "button", class: "small", dataset: { action: "link-person" },
        title: "Needs the network", onclick: () => {
          ui.linking = p.id; ui.linkFound = []; ui.linkMessage = navigator.onLine ? "" : "Offline: linking needs the network.";
          redraw(); focusLater(`tr[data-player="${CSS.escape(p.id)}"] input[name=link-search]`);
        } }, "Link to player record"));
}

/** The event's age divisions asked again after a change: when they differ, ``set`` them, and fill in the rows'
 * Division cells (the same season) or ``redraw`` the roster (a new season, or the first divisions). */
async function followAges(store, st, before, { set, redraw, rows }) {
  const found = st.ruleset ? await rules("age_divisions", { event_id: store.eventId }) : null;
  if (JSON.stringify(found) === JSON.stringify(before)) return;
  const shape = (a) => JSON.stringify(a && [a.season, a.bands, a.labels]);
  set(found);
  if (before && found && shape(before) === shape(found)) patchDivisions(rows(), store.state, found);
  else redraw(true);
}

/** The Division cells of drawn rows brought up to new age divisions (same season): only those that changed. */
function patchDivisions(rows, st, ages) {
  const years = new Map(st.players.map((p) => [p.id, p.birth_year]));
  for (const tr of new Set(rows)) {
    const td = tr.querySelector("td.division");
    const division = ages.players[tr.dataset.player] || "";
    if (!td || td.dataset.division === division) continue;
    td.dataset.division = division;
    td.querySelector(".division-name").textContent = divisionName(ages, division, years.get(tr.dataset.player));
  }
}

const divisionName = (ages, division, year) => (division ? ages.labels[division] : year ? "—" : "no birth year");

/** Pokémon TOP 3.1.1: a player's division, and their birth year to enter or correct (player.edit). */
function divisionCell(store, ages, p, closed) {
  const year = numberInput({ value: p.birth_year ?? "", "aria-label": `Birth year of ${p.name}`, class: "narrow",
                             name: "birth-year", min: "1900", max: "2100", placeholder: "year", disabled: closed });
  year.addEventListener("change", () => {
    const value = Number(year.value);
    if (Number.isInteger(value) && value >= 1900 && value <= 2100 && value !== p.birth_year) {
      store.act("player.edit", { player: p.id, birth_year: value });
    }
  });
  const division = ages.players[p.id];
  return h("td", { class: "division", dataset: { division: division || "" } },
    h("span", { class: "division-name" }, divisionName(ages, division, p.birth_year)), " ", year);
}

/**
 * Reinstating a player a penalty removed (a disqualification, an ejection): the head judge or organizer
 * rescinds that penalty, with the reason, and reinstates them, in one confirmed step. ``buttons(p)`` is
 * what a dropped player's row offers.
 */
function reinstateControls(store, { lead, redraw, focusLater, message }) {
  const act = (type, payload) => store.act(type, payload);
  let reinstating = null;  // the id of the ejected player whose reinstatement is being confirmed
  let reinstateError = "";
  const removingPenalty = (st, pid) => (st.penalties || [])
    .filter((x) => x.player === pid && !x.rescinded && (x.effect === "disqualification" || x.effect === "ejection")).at(-1);
  const reinstateEjected = async (p, input) => {
    const reason = input.value.trim();
    if (!reason) {
      reinstateError = "Give the reason for rescinding the penalty (an appeal upheld, a mistaken ruling…).";
      redraw();
      focusLater(`tr[data-player="${CSS.escape(p.id)}"] input[name=rescind-reason]`);
      return;
    }
    const penalty = removingPenalty(store.state, p.id);
    const rescinded = penalty ? await act("penalty.rescind", { penalty: penalty.op_id, reason }) : { refused: null };
    const { refused } = rescinded.refused ? rescinded : await act("player.reinstate", { player: p.id });
    reinstateError = refused ? withNames(store.state, refusalText(refused)) : "";
    if (!refused) {
      reinstating = null;
      message("");
      announce(`${p.name} is reinstated and will be paired in the next round`);
    }
    redraw();
  };

  const reinstateButtons = (p) => {
    const row = `tr[data-player="${CSS.escape(p.id)}"]`;
    if (!p.ejected) {
      return h("button", { type: "button", class: "small", onclick: () => act("player.reinstate", { player: p.id }) }, "Reinstate");
    }
    if (!lead) return null;
    if (reinstating !== p.id) {
      return h("button", { type: "button", class: "small", dataset: { action: "reinstate-ejected" },
        onclick: () => { reinstating = p.id; reinstateError = ""; redraw(); focusLater(`${row} input[name=rescind-reason]`); } }, "Reinstate");
    }
    const penalty = removingPenalty(store.state, p.id);
    const input = h("input", { type: "text", name: "rescind-reason", autocomplete: "off", "aria-required": "true",
      "aria-label": "Reason for rescinding", "aria-invalid": reinstateError ? "true" : null });
    return h("form", { class: "reinstate-ejected", onsubmit: (e) => { e.preventDefault(); reinstateEjected(p, input); } },
      h("p", { class: "warn" }, penalty
        ? `${p.name} was removed by a penalty (${penalty.kind.replace(/-/g, " ")}, round ${penalty.round}): reinstating rescinds it. `
          + "It stays on record, marked rescinded, and they are paired again from the next round."
        : `${p.name} was removed from the event: reinstating brings them back from the next round.`),
      h("label", {}, "Reason for rescinding ", input),
      h("button", { type: "submit", class: "small danger", dataset: { action: "confirm-reinstate" } }, `Rescind and reinstate ${p.name}`),
      h("button", { type: "button", class: "small", onclick: () => { reinstating = null; reinstateError = ""; redraw(); } }, "Cancel"),
      reinstateError && h("p", { class: "error", role: "alert" }, reinstateError));
  };

  return { buttons: reinstateButtons };
}

/**
 * The roster's edits by the registration desk: Rename (a name fixed everywhere) and Remove (a mistyped or
 * doubled entry nobody has been paired with), each confirmed in its row. ``open()`` names the rows in the middle of one.
 */
function rosterEdits(store, { redraw, focusLater, message, focusSearch }) {
  const act = (type, payload) => store.act(type, payload);
  let renaming = null;    // the player whose name is being edited
  let renameError = "";
  let removing = null;    // the player whose "Remove" was pressed once
  const rename = async (p, input) => {
    const value = input.value.trim();
    if (!value) {
      renameError = "A name cannot be empty: type the player's name, or Cancel.";
      redraw();
      focusLater(`tr[data-player="${CSS.escape(p.id)}"] input[name=rename]`);
      return;
    }
    renaming = null;
    renameError = "";
    if (value !== p.name) {
      const { refused } = await act("player.edit", { player: p.id, name: value });
      message(refused ? withNames(store.state, refusalText(refused)) : "");
      if (!refused) announce(`${p.name} is now ${value}`);
    }
    redraw();
    focusLater(`tr[data-player="${CSS.escape(p.id)}"] [data-action=rename]`);
  };

  const remove = async (p) => {
    removing = null;
    const { refused } = await act("player.remove", { player: p.id });
    message(refused ? `${p.name} was not removed: ${withNames(store.state, refusalText(refused))}` : "");
    if (!refused) announce(`${p.name} removed from the event`);
    redraw();
    focusSearch();
  };

  const nameCell = (p) => {
    if (renaming !== p.id) return h("th", { scope: "row" }, p.name);
    const input = h("input", { type: "text", name: "rename", value: p.name, autocomplete: "off", required: true,
      "aria-label": "New name", "aria-invalid": renameError ? "true" : null,
      "aria-describedby": renameError ? "rename-error" : null });
    return h("th", { scope: "row" }, h("form", { class: "rename", onsubmit: (e) => { e.preventDefault(); rename(p, input); } },
      input,
      h("button", { type: "submit", class: "small primary", dataset: { action: "save-name" } }, "Save"),
      h("button", { type: "button", class: "small", dataset: { action: "cancel-rename" },
        onclick: () => { renaming = null; renameError = ""; redraw(); focusLater(`tr[data-player="${CSS.escape(p.id)}"] [data-action=rename]`); } }, "Cancel"),
      renameError && h("p", { class: "error", id: "rename-error" }, renameError)));
  };

  const removeButtons = (p) => {
    if (removing !== p.id) {
      return h("button", { type: "button", class: "small", dataset: { action: "remove" },
        title: "A mistyped or doubled entry: nobody has played or been paired with them yet",
        onclick: () => { removing = p.id; redraw(); focusLater(`tr[data-player="${CSS.escape(p.id)}"] [data-action=confirm-remove]`); } }, "Remove");
    }
    return [h("button", { type: "button", class: "small danger", dataset: { action: "confirm-remove" }, onclick: () => remove(p) },
      `Confirm: remove ${p.name} from the event`),
    h("button", { type: "button", class: "small", dataset: { action: "keep" },
      onclick: () => { removing = null; redraw(); focusLater(`tr[data-player="${CSS.escape(p.id)}"] [data-action=remove]`); } }, "Keep")];
  };

  const renameButton = (p) => renaming !== p.id && h("button", { type: "button", class: "small", dataset: { action: "rename" },
    onclick: () => { renaming = p.id; renameError = ""; redraw(); focusLater(`tr[data-player="${CSS.escape(p.id)}"] input[name=rename]`); } }, "Rename");
  return {
    nameCell, renameButton, removeButtons,
    open: () => [renaming, removing],
    /** Forget an edit whose player is gone (or, for Remove, has been paired since). */
    prune(st, referenced) {
      if (renaming && !st.players.some((p) => p.id === renaming)) renaming = null;
      if (removing && (referenced.has(removing) || !st.players.some((p) => p.id === removing))) removing = null;
    },
  };
}

/** Right after the event is made: its recovery code waits on the Staff screen to be printed (a way back in). */
function recoveryReminder(store) {
  return h("p", { class: "notice", id: "recovery-notice", role: "status", hidden: true },
    h("strong", {}, "Print your recovery code: "), "it gets you back into this event from another device if this one is lost. ",
    h("a", { href: `#/event/${store.eventId}/staff` }, "Staff screen: A way back in"), ".");
}

async function mount(root, { store, role }) {
  // The shared_rules authorization table: registration's changes are the organizer's and scorekeeper's.
  const registrar = may(role, "player.register");
  const lead = may(role, "player.reinstate");  // rescinding and re-admissions
  const list = h("div", { class: "table-wrap" });
  const problems = h("div");
  const suggestion = h("p", { class: "suggestion", "aria-live": "polite" });
  const codes = h("div", { id: "claim-codes", "aria-live": "polite" });
  const registration = registerCard(store);
  let ages = null;  // the event's age divisions (rules_api age_divisions), for the roster's Division column

  const showCodes = claimCodes(store, codes);

  // ---- the roster: find, rename, remove
  const search = h("input", { type: "search", id: "roster-search", autocomplete: "off", spellcheck: false,
    placeholder: "Name, player ID or table number", "aria-controls": "roster-table", "aria-describedby": "roster-count" });
  const count = h("p", { id: "roster-count", class: "hint", role: "status" });
  const rosterMessage = h("p", { id: "roster-message", class: "error", role: "alert" });
  let builtRows = [];     // the rows of the latest build (on screen, or waiting for the focus to leave the table)

  const hooks = { redraw: () => drawRoster(), focusLater: (selector) => focusLater(selector),
    message: (text) => { rosterMessage.textContent = text; }, focusSearch: () => search.focus() };
  const records = rosterRecords(store, { ...hooks, redraw: () => drawRoster(false), fail: hooks.message });
  const edits = rosterEdits(store, hooks);
  const reinstate = reinstateControls(store, { ...hooks, lead });

  const applyFilter = () => {
    const query = searchKey(search.value);
    let shown = 0;
    const onScreen = [...list.querySelectorAll("tbody tr[data-player]")];
    for (const tr of new Set([...onScreen, ...builtRows])) {
      const match = rowMatches(query, tr.roster) || [...edits.open(), ...records.open()].includes(tr.dataset.player);
      tr.hidden = !match;
    }
    for (const tr of builtRows) if (!tr.hidden) shown += 1;
    const said = query ? `${shown} of ${builtRows.length} player${builtRows.length === 1 ? "" : "s"} match “${search.value.trim()}”` : "";
    if (count.textContent !== said) count.textContent = said;  // a sync redraw says nothing new to screen readers
  };
  search.addEventListener("input", applyFilter);

  const act = (type, payload) => store.act(type, payload);
  const focusLater = (selector) => setTimeout(() => list.querySelector(selector)?.focus(), 0);

  let drawnKey = null;  // what the roster on screen was drawn from (rosterKey)
  /** Draw the roster; ``force``: even when what it shows did not change (an edit opened, records loaded). */
  function drawRoster(force = true) {
    const st = store.state;
    if (!st) return;
    const rnd = latestRound(st);
    const key = rosterKey(st, [ages && [ages.season, ages.bands, ages.labels], edits.open(), records.key()]);
    if (!force && key === drawnKey) return;
    drawnKey = key;
    const active = st.players.filter((p) => p.dropped_after === null).length;
    const referenced = referencedPlayers(st);
    const seats = new Map();
    for (const m of rnd?.matches || []) for (const pid of m.players) seats.set(pid, m.table ?? "bye");
    edits.prune(st, referenced);
    const query = searchKey(search.value);
    const closed = Boolean(st.closed), ids = idColumns(st, ages, registrar && !closed && act);  // closed: the roster is final (shown, not changed)
    builtRows = st.players.map((p) => {
      const dropped = p.dropped_after !== null;
      const fixed = numberInput({ value: p.extra.fixed_table ?? "", "aria-label": `Fixed table for ${p.name}`, class: "narrow",
        disabled: closed });
      fixed.addEventListener("change", () =>
        act("player.edit", { player: p.id, fields: { fixed_table: fixed.value ? Number(fixed.value) : null } }));
      const seat = seats.get(p.id);
      const tr = h("tr", { dataset: { player: p.id } },
        h("td", {}, p.entry), edits.nameCell(p), ids.cells(p), h("td", {}, p.ejected ? `removed by a penalty (round ${p.dropped_after})`
          : dropped ? `dropped after round ${p.dropped_after}` : p.checked_in ? "checked in" : "registered", p.late ? " (late)" : ""),
        ages && divisionCell(store, ages, p, closed),
        h("td", {}, seat ?? "—"),
        h("td", {}, fixed),
        records.cell(p),
        h("td", { class: "actions" },
          !dropped && !closed && h("button", { type: "button", class: "small", onclick: () => act("player.check_in", { player: p.id, checked_in: !p.checked_in }) },
            p.checked_in ? "Undo check-in" : "Check in"),
          !dropped && !closed && [h("button", { type: "button", class: "small", onclick: () => act("player.drop", { player: p.id }) }, "Drop"), callPlayerForm(store, p.id, seat)],
          dropped && !closed && reinstate.buttons(p),
          registrar && !closed && edits.renameButton(p),
          registrar && !closed && !referenced.has(p.id) && edits.removeButtons(p)));
      tr.roster = { name: p.name, id: p.id, gameId: gameIdOf(p), tables: [typeof seat === "number" ? seat : null, p.extra.fixed_table ?? null] };
      tr.hidden = !rowMatches(query, tr.roster) && ![...edits.open(), ...records.open()].includes(p.id);
      return tr;
    });
    refresh(list, h("table", { id: "roster-table" }, h("caption", {}, `${st.players.length} registered, ${active} active`),
      h("thead", {}, h("tr", {}, ["#", "Name", ...ids.headings, "Status", ages && "Division (birth year)", rnd ? `Table (round ${rnd.number})` : "Table", "Fixed table", "Player record", "Actions"]
        .filter(Boolean).map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, builtRows)));
    applyFilter();
  }

  replace(root, h("h1", {}, "Players"), problems,
    h("div", { class: "grid" }, registration.form, h("section", { class: "card" }, h("h2", {}, "Structure"), suggestion, registration.agesBox)),
    registrar && csvImportCard(store),
    h("section", { class: "card", "aria-labelledby": "claims-title" }, h("h2", { id: "claims-title" }, "Claim codes"),
      h("p", { class: "hint" }, "Each player joins on their phone with their own code (or its QR code). Needs the network."),
      h("button", { type: "button", onclick: showCodes, id: "show-codes" }, "Show claim codes"), codes),
    h("section", { "aria-labelledby": "roster" }, h("h2", { id: "roster" }, "Roster"),
      h("div", { class: "field roster-search", role: "search" }, h("label", { for: "roster-search" }, "Find a player"), search, count),
      registrar && h("p", { class: "hint" }, "Rename fixes a name everywhere. Remove takes a mistyped or doubled entry off the "
        + "roster while nobody has been paired with them; after that, Drop."),
      rosterMessage, list));

  return {
    async update() {
      const st = store.state;
      if (!st) return;
      registration.update(st);
      replace(problems, store.problems().filter((p) => p.op.type.startsWith("player."))
        .map((p) => problemNotice(store, { ...p, reason: withNames(st, p.reason) })));
      // The roster once, then the Division cells the age divisions changed (a second whole roster took 1 s at 512).
      drawRoster(false);
      await followAges(store, st, ages, { set: (found) => registration.setAges(ages = found), redraw: drawRoster,
        rows: () => [...list.querySelectorAll("tbody tr[data-player]"), ...builtRows] });
      if (navigator.onLine && Date.now() - records.loadedAt() > 30_000) records.load();
      records.flush();
      if (st.ruleset) await suggestStructure(st, suggestion);
    },
  };
}

export default { mount };

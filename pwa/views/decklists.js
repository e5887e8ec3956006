// Staff: deck lists. The organizer's choices (required, deadline — the start of round 1 unless set —, what is
// published after the event, sizes and copies the documents leave open), every player's list with its
// problems (an empty list after the lock is a warning, never a pass), a list typed in from paper (after the
// lock only with the reason, kept with who), and the judge's deck check: players picked at random from the
// event's seed (the same pick on every device) or by table, the locked list to compare with the deck, and
// the check and any penalty recorded (Star Trek D1/D2 offered with Appendix B cited). Sub-routes: a player
// id opens their list; "print" lays every list out one per page.
import { may } from "../app/roles.js";
import { rules } from "../app/services.js";
import { rulesetInfo } from "../ui/timer.js";
import { listForm, listSheet, lockWords, problemList } from "../ui/decklist.js";
import { announce, field, h, label, nameOf, numberInput, problemNotice, refresh, replace, select } from "../ui/dom.js";

const STATUS_TEXT = { submitted: "Submitted", problems: "Problems", missing: "Missing", empty: "No list (locked)" };
const PUBLISH = [["never", "Never"], ["top-cut", "The top cut's lists"], ["all", "All lists"]];
const when = (ms) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
const localInput = (ms) => (ms ? new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16) : "");
const cap = (text) => text.replace(/^./, (c) => c.toUpperCase());

/** The organizer's deck-list settings, as a form (others read them). */
function settingsCard(store, role, view, spec, kept) {
  const s = view.settings;
  const editable = may(role, "event.configure") && !view.closed;
  if (!editable) {
    const set = ["min_cards", "max_cards", "copies", "points"].filter((k) => s[k] !== null)
      .map((k) => `${k.replace("_", " ")}: ${s[k]}`);
    return h("section", { class: "card", id: "dl-settings" }, h("h2", {}, "Settings"),
      h("p", { id: "dl-settings-summary" }, s.required ? `Lists required. ` : "Lists not required. ",
        `Lists ${lockWords(view)}. Published after the event: ${PUBLISH.find(([v]) => v === s.publish)[1].toLowerCase()}.`,
        set.length ? ` Set by the organizer: ${set.join(", ")}.` : ""),
      h("p", { class: "muted" }, "The organizer changes these."), spec.source ? h("p", { class: "muted" }, spec.source) : null);
  }
  const required = h("input", { type: "checkbox", id: "dl-required", checked: s.required, disabled: !editable });
  const deadline = h("input", { type: "datetime-local", id: "dl-deadline", value: localInput(s.deadline), disabled: !editable });
  const publish = select(PUBLISH, { id: "dl-publish", disabled: !editable });
  publish.value = s.publish;
  const numbers = ["min_cards", "max_cards", "copies", "points"].map((key) => [key, numberInput({ id: `dl-${key}`,
    value: s[key] ?? "", disabled: !editable, placeholder: "not set" })]);
  const pointsOnly = spec.sections.some((x) => x.points);
  const msg = h("p", { role: "status", id: "dl-settings-msg" }, kept.settingsMsg);
  const say = (text) => { kept.settingsMsg = text; msg.textContent = text; };
  const save = async (event) => {
    event.preventDefault();
    const decklists = { required: required.checked, publish: publish.value };
    if (deadline.value) decklists.deadline = new Date(deadline.value).getTime();
    for (const [key, input] of numbers) if (input.value !== "") decklists[key] = Number(input.value);
    if (decklists.min_cards !== undefined && decklists.max_cards !== undefined && decklists.min_cards > decklists.max_cards) {
      say(`The fewest cards (${decklists.min_cards}) is more than the most cards (${decklists.max_cards}): `
        + "correct one of them.");
      return;
    }
    const { refused } = await store.act("event.configure", { settings: { decklists } });
    say(refused || "Deck-list settings saved.");
  };
  const labels = { min_cards: "Fewest cards in the main deck", max_cards: "Most cards in the main deck",
    copies: "Most copies of one title", points: "Most points per squad" };
  return h("section", { class: "card", id: "dl-settings" }, h("h2", {}, "Settings"),
    h("form", { onsubmit: save },
      h("label", { class: "check" }, required, ` Players must submit a ${spec.noun}`),
      field("Deadline", deadline, "Empty: the lists lock when round 1 starts."),
      field("Publish", publish, "Lists are never shown to other players during the event."),
      numbers.filter(([key]) => (key === "points") === pointsOnly).map(([key, input]) =>
        field(labels[key], input, "Only where the game's documents leave it to the organizer.")),
      editable ? h("button", { type: "submit", class: "primary", id: "dl-save" }, "Save settings") : null, msg),
    spec.source ? h("p", { class: "muted" }, spec.source) : null);
}

/** Every player's list status, with a button opening it. */
function overview(store, view, open) {
  const st = store.state;
  const c = view.counts;
  return h("section", { class: "card", id: "dl-overview" },
    h("h2", {}, "Lists"),
    h("p", { id: "dl-counts" }, `${c.submitted} submitted, ${c.problems} with problems, ${c.missing} missing`
      + (c.empty ? `, ${c.empty} with no list although the lists are locked` : "") + `. Lists ${lockWords(view)}.`),
    c.empty ? h("p", { class: "warn", id: "dl-empty-warning" }, `${c.empty} player${c.empty === 1 ? " has" : "s have"} no list `
      + "and the lists are locked: type their paper list in (with the reason) or deal with it under your penalty rules.") : null,
    h("table", { class: "dl-table" }, h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Table"),
      h("th", {}, "List"), h("th", {}, ""))),
    h("tbody", {}, view.players.map((p) => h("tr", { dataset: { player: p.id, status: p.status } },
      h("td", {}, nameOf(st, p.id), p.dropped ? h("small", {}, " (dropped)") : null),
      h("td", {}, p.table ?? "—"),
      h("td", {}, h("span", { class: `badge dl-${p.status}` }, STATUS_TEXT[p.status]),
        p.problems.length ? h("small", {}, ` ${p.problems.length} problem${p.problems.length === 1 ? "" : "s"}`) : null),
      h("td", {}, h("button", { type: "button", class: "dl-open", onclick: () => open(p.id) }, "Open")))))));
}

/** Pick players for a deck check: at random (seeded: the same on every device) or by table. */
function pickCard(store, view, open, pick) {
  const st = store.state;
  const posted = st.rounds.filter((r) => r.status !== "draft");
  const roundPick = select(posted.map((r) => [String(r.number), `Round ${r.number}`]), { id: "dc-round" });
  if (pick.round) roundPick.value = String(pick.round);
  else if (posted.length) roundPick.value = String(posted.at(-1).number);
  const count = numberInput({ id: "dc-count", value: String(pick.count), min: "1" });
  const table = numberInput({ id: "dc-table", placeholder: "Table number" });
  const found = h("div", { id: "dc-picked", "aria-live": "polite" });
  const show = (rows, why) => replace(found, h("p", {}, why), h("ul", { class: "dc-picked" }, rows.map((r) =>
    h("li", {}, h("button", { type: "button", class: "dc-open", onclick: () => open(r.id, r.table) },
      `Table ${r.table ?? "—"}: ${nameOf(st, r.id)}`)))));
  const random = async (again) => {
    pick.round = Number(roundPick.value);
    pick.count = Number(count.value) || 1;
    pick.draw = again ? pick.draw + 1 : 0;
    try {
      const rows = await rules("deckcheck_pick", { event_id: store.eventId, round: pick.round, count: pick.count, draw: pick.draw });
      show(rows, `Round ${pick.round}, draw ${pick.draw + 1} (from the event's seed: any device picks the same):`);
    } catch (err) {
      replace(found, h("p", { class: "error", role: "alert" }, err.message));
    }
  };
  const byTable = (event) => {
    event.preventDefault();
    const rnd = posted.find((r) => r.number === Number(roundPick.value));
    const m = rnd?.matches.find((x) => String(x.table) === table.value.trim());
    if (!m) return replace(found, h("p", { class: "error", role: "alert" }, `No table ${table.value} in round ${roundPick.value}.`));
    return show(m.players.map((id) => ({ id, table: m.table })), `Table ${m.table}, round ${rnd.number}:`);
  };
  if (!posted.length) return h("section", { class: "card", id: "deck-check" }, h("h2", {}, "Deck check"),
    h("p", {}, "Pick players for a deck check once round 1 is posted."));
  return h("section", { class: "card", id: "deck-check" }, h("h2", {}, "Deck check"),
    h("div", { class: "row" }, field("Round", roundPick), field("How many players", count)),
    h("button", { type: "button", class: "primary", id: "dc-pick", onclick: () => random(false) }, "Pick at random"), " ",
    h("button", { type: "button", id: "dc-again", onclick: () => random(true) }, "Pick again"),
    h("form", { class: "row", onsubmit: byTable }, field("Or by table", table), h("button", { type: "submit", id: "dc-by-table" }, "Show")),
    found);
}

/** The penalty choices a deck check offers: the game's list infractions (Star Trek D2, D1) or its penalties. */
function penaltyChoices(info, role) {
  const desc = info.ui.penalties;
  const floor = role === "judge";
  const codes = info.ui.decklists.infractions;
  if (codes.length) {
    return codes.map((code) => desc.infractions.find(([c]) => c === code)).filter(Boolean)
      .map(([code, name, level]) => [`infraction:${code}:${level}`, `${code}. ${name} — Level ${level} (${desc.source} ${code})`])
      .filter(([value]) => !floor || desc.floor.includes(value.split(":")[2]));
  }
  return desc.choices.filter(([v]) => !floor || desc.floor.includes(v)).map(([v, text]) => [`kind:${v}`, text]);
}

/** What the penalty field says: the fix's deadline (Star Trek D1, D2), and what a floor judge leaves to the head judge. */
function penaltyHint(info, role) {
  const spec = info.ui.decklists;
  const offered = penaltyChoices(info, role).length;
  const floor = role === "judge" && offered < (spec.infractions.length || info.ui.penalties.choices.length);
  return [spec.infractions.length ? `The fix is due by the beginning of the next round (${info.ui.penalties.source}). ` : "",
    floor ? "Harsher penalties are the head judge's: record the check and call them." : ""].join("") || null;
}

/** Record a deck check (and its penalty first, so the check names it). */
async function recordCheck(store, info, { player, round, table, outcome, note, penalty }) {
  const payload = { player, outcome, note };
  if (round) payload.round = round;
  if (table !== null && table !== undefined) payload.table = table;
  if (penalty) {
    const [how, a, b] = penalty.split(":");
    const reason = note || `Deck check: ${outcome === "ok" ? "no problem" : "problem"}`;
    const pen = how === "infraction"
      ? { player, level: Number(b), infraction: a, reason } : { player, kind: a, reason };
    if (round) pen.round = round;
    const given = await store.act("penalty.issue", pen);
    if (given.refused) return given.refused;
    payload.penalty = `${store.session.device}:${given.row.seq}`;
  }
  const { refused } = await store.act("deckcheck.record", payload);
  return refused;
}

/** One player's list: to compare with the deck, change (staff; after the lock with a reason), and check. */
function playerPanel(store, role, view, info, target, close) {
  const st = store.state;
  const row = view.players.find((p) => p.id === target.player);
  if (!row) return h("section", { class: "card", id: "dl-player" }, h("p", {}, "That player is not in this event."));
  const spec = info.ui.decklists;
  const msg = h("p", { role: "status", id: "dl-player-msg" }, target.msg || "");
  const say = (text) => {
    target.msg = text;  // kept across the redraw the change itself brings
    msg.textContent = text;
    announce(text);
  };
  const editor = h("div");
  const stopEditing = () => { target.editing = false; target.draft = null; target.reason = ""; replace(editor); };
  const edit = () => {
    target.editing = true;  // kept across redraws: a refusal or a sync must not close the form being typed
    // What is typed is kept until it is saved (a refusal redraws the panel: nothing typed may be lost).
    const form = listForm(spec, target.draft || row.sections, { idPrefix: "staff-list",
      onInput: () => { target.draft = form.values(); } });
    const reason = h("input", { type: "text", id: "dl-reason", value: target.reason || "",
      placeholder: view.locked ? "Why it changes (required)" : "Optional",
      oninput: () => { target.reason = reason.value; } });
    replace(editor, h("form", { id: "dl-edit", onsubmit: async (event) => {
      event.preventDefault();
      const payload = { player: row.id, sections: form.values() };
      if (reason.value.trim()) payload.reason = reason.value.trim();
      else if (view.locked) {
        say("The lists are locked: give the reason for this change (it is kept with your name).");
        reason.focus();
        return;
      }
      const { refused } = await store.act("decklist.submit", payload);
      say(refused || "List saved.");
      if (!refused) stopEditing();
    } }, form.el, field(view.locked ? "Reason for the change (the lists are locked)" : "Reason", reason),
    h("button", { type: "submit", class: "primary" }, "Save the list"), " ",
    h("button", { type: "button", onclick: stopEditing }, "Cancel")));
  };
  if (target.editing) edit();
  const outcome = select([["ok", "Deck matches the list"], ["problem", "Problem found"]], { id: "dc-outcome" });
  const note = h("input", { type: "text", id: "dc-note", placeholder: "What was checked or found" });
  const penalty = select([["", "No penalty"], ...penaltyChoices(info, role)], { id: "dc-penalty" });
  const record = async (event) => {
    event.preventDefault();
    const refused = await recordCheck(store, info, { player: row.id, round: target.round, table: target.table ?? row.table,
      outcome: outcome.value, note: note.value.trim(), penalty: penalty.value });
    say(refused || "Deck check recorded.");
  };
  return h("section", { class: "card", id: "dl-player", dataset: { player: row.id } },
    h("h2", {}, `${nameOf(st, row.id)}${row.table ? ` · table ${row.table}` : ""}`),
    h("p", {}, h("span", { class: `badge dl-${row.status}` }, STATUS_TEXT[row.status])),
    row.status === "empty" ? h("p", { class: "warn" }, `No ${spec.noun} although the lists are locked.`) : null,
    listSheet(spec, row.sections, { id: "dl-sheet" }), problemList(row.problems, "dl-problems"),
    row.changes.length ? h("details", {}, h("summary", {}, `${row.changes.length} change${row.changes.length === 1 ? "" : "s"}`),
      h("ul", { id: "dl-changes" }, row.changes.map((c) => h("li", {}, `${when(c.at)}: ${cap(label(c.by.role))}`,
        c.locked ? " after the lock" : "", c.reason ? ` — ${c.reason}` : "")))) : null,
    row.checks.length ? h("ul", { id: "dl-checks" }, row.checks.map((c) => h("li", {}, `Deck check, round ${c.round ?? "—"}`
      + `${c.table ? `, table ${c.table}` : ""}: ${c.outcome === "ok" ? "matches the list" : "problem"}${c.note ? ` — ${c.note}` : ""}`
      + (c.penalty ? " (penalty issued)" : "")))) : null,
    view.closed ? null : [
      h("button", { type: "button", id: "dl-edit-open", onclick: edit }, row.status === "missing" || row.status === "empty"
        ? "Type in a paper list" : "Change the list"), editor,
      h("form", { id: "dc-form", onsubmit: record }, h("h3", {}, "Record a deck check"),
        field("Outcome", outcome), field("Note", note), field("Penalty", penalty, penaltyHint(info, role)),
        h("button", { type: "submit", class: "primary", id: "dc-record" }, "Record the check"))],
    store.problems().filter((p) => LIST_OPS.has(p.op.type) && p.op.payload?.player === row.id).map((p) => problemNotice(store, p)),
    msg, h("button", { type: "button", onclick: close }, "Close"));
}

const LIST_OPS = new Set(["decklist.submit", "deckcheck.record"]);

/** Every list, one per page (print CSS). */
function printout(store, view, spec) {
  const st = store.state;
  const lists = view.players.filter((p) => p.status !== "missing" && p.status !== "empty");
  return lists.length ? lists.map((p) => h("section", { class: "page dl-print", dataset: { player: p.id } },
    h("h2", {}, `${st.name} · ${cap(spec.noun)}`), h("p", {}, h("strong", {}, nameOf(st, p.id))),
    listSheet(spec, p.sections)))
    : [h("p", {}, "No list to print yet.")];
}

async function mount(root, { store, role, sub }) {
  const printing = sub === "print";
  const target = { player: printing ? null : sub || null, round: null, table: null, msg: "" };
  const pick = { round: null, count: 2, draw: 0, settingsMsg: "" };
  const top = h("div");
  const panel = h("div");
  const rest = h("div");
  const open = (player, table = null) => {
    target.player = player;
    target.table = table;
    target.msg = "";
    target.editing = false;
    target.draft = null;
    target.reason = "";
    target.round = pick.round;
    update().then(() => document.getElementById("dl-player")?.scrollIntoView({ block: "start" }));
  };
  const close = () => { target.player = null; replace(panel); update(); };
  replace(root, h("h1", { class: "no-print" }, printing ? "Print deck lists" : "Deck lists"),
    h("p", { class: "no-print" }, printing
      ? [h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print"), " ",
        h("a", { href: `#/event/${store.eventId}/decklists` }, "Back to the lists")]
      : h("a", { href: `#/event/${store.eventId}/decklists/print`, id: "dl-print-link" }, "Print every list, one per page")),
    panel, top, rest);

  async function update() {
    const info = await rulesetInfo(store.state);
    const view = await rules("decklists", { event_id: store.eventId, now_ms: store.now() });
    const spec = info.ui.decklists;
    if (printing) return replace(rest, ...printout(store, view, spec));
    if (target.player) refresh(panel, playerPanel(store, role, view, info, target, close));
    refresh(top, pickCard(store, view, open, pick));
    return refresh(rest, overview(store, view, open), settingsCard(store, role, view, spec, pick));
  }
  return { update };
}

export default { mount };

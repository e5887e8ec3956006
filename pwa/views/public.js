// The public page (no token): the posted round's pairings by name and the published standings, from the
// server's public endpoint (the same shared_rules code); the service worker keeps the last answer for offline.
// Built for a 2,000-player hall on a phone: a search for one's name, and pages of PAGE_ROWS rows, never one
// endless page. During a round the pairings come first; once its results are all in, the standings after it
// (the server never publishes standings of a round in play: backend/public.py).
import { publicView, publishedLists } from "../app/services.js";
import { listSheet } from "../ui/decklist.js";
import { rulesetInfo } from "../ui/timer.js";
import { h, label, replace, tiebreakerText } from "../ui/dom.js";

const PAGE_ROWS = 50;
const collator = new Intl.Collator(undefined, { sensitivity: "base", numeric: true });
const fold = (text) => String(text).normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();

function roundName(rnd) {
  return rnd.stage === "elimination" ? `elimination round ${rnd.number}` : `round ${rnd.number}`;
}

/** One row per player of the round, by name: table, opponent(s) and the result once in. */
function pairingRows(rnd) {
  const rows = [];
  for (const m of rnd.matches) {
    m.players.forEach((p, i) => {
      const others = m.players.filter((q) => q.id !== p.id).map((q) => q.name);
      const result = m.outcomes ? label(m.outcomes[i]) : m.status === "disputed" ? "disputed" : "";
      rows.push({ name: p.name, table: m.table, opponent: others.join(", ") || "bye", result });
    });
  }
  return rows.sort((a, b) => collator.compare(a.name, b.name));
}

function pairingsTable(rows, rnd) {
  return h("div", { class: "table-wrap" }, h("table", { class: "pairings public-list", id: "public-pairings" },
    h("caption", {}, `Round ${rnd.number} pairings by name`),
    h("thead", {}, h("tr", {}, ["Player", "Table", "Opponent", "Result"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, h("th", { scope: "row" }, r.name), h("td", { class: "public-table" }, r.table ?? "bye"),
      h("td", {}, r.opponent), h("td", {}, r.result))))));
}

function standingsTable(rows, data) {
  const keys = data.tiebreakers || [];  // the ruleset's order (a row's object arrives with sorted keys)
  const heading = (k) => data.tiebreaker_labels?.[k] || label(k);
  return h("div", { class: "table-wrap" }, h("table", { class: "standings public-list", id: "public-standings" },
    h("caption", {}, `Standings after ${roundName(data.standings_after)}`),
    h("thead", {}, h("tr", {}, ["Rank", "Player", "Points", "Record", ...keys.map(heading)].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((s) => h("tr", {}, h("td", {}, s.rank), h("th", { scope: "row" }, s.name),
      h("td", {}, s.points), h("td", {}, s.record), keys.map((k) => h("td", {}, tiebreakerText(s.tiebreakers[k]))))))));
}

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
  const title = h("h1", { id: "public-title" }, "Pairings and standings");
  const status = h("p", { id: "public-status", class: "hint" });
  const tabs = h("div", { class: "public-tabs", role: "group", "aria-label": "Show" });
  const search = h("input", { type: "search", id: "public-search", autocomplete: "off", placeholder: "Type part of your name",
    oninput: () => { page = 0; draw(); } });
  const found = h("p", { id: "public-found", role: "status", class: "hint" });
  const list = h("div", { id: "public-list" });
  const pager = h("nav", { class: "public-pager", "aria-label": "Pages" });
  const lists = h("div", { id: "public-lists-box" });
  replace(root, title, status, tabs, h("div", { class: "field" }, h("label", { for: "public-search" }, "Find your name"), search),
    found, list, pager, lists);
  let data = null;
  let view = null;  // "pairings" | "standings": the reader's choice, else what the moment calls for
  let page = 0;

  function draw() {
    const rnd = data.rounds[data.rounds.length - 1] || null;
    const hasStandings = data.standings.length > 0;
    const inPlay = rnd && rnd.status !== "complete";
    const showing = view && (view === "pairings" ? rnd : hasStandings) ? view : inPlay || !hasStandings ? "pairings" : "standings";
    replace(tabs, [["pairings", "Pairings"], ["standings", "Standings"]].map(([key, text]) => h("button", {
      type: "button", class: "small", id: `public-show-${key}`, "aria-pressed": String(key === showing),
      disabled: key === "pairings" ? !rnd : !hasStandings,
      onclick: () => { view = key; page = 0; draw(); } }, text)));
    status.textContent = !rnd ? "No pairings posted yet."
      : `${roundName(rnd).replace(/^./, (c) => c.toUpperCase())}: ${inPlay ? "in play" : "complete"}`
        + (hasStandings ? ` · standings after ${roundName(data.standings_after)}` : ` · ${data.note || "no standings yet"}`);
    let rows = showing === "pairings" ? (rnd ? pairingRows(rnd) : []) : data.standings;
    const query = fold(search.value.trim());
    if (query) rows = rows.filter((r) => fold(r.name).includes(query));
    found.textContent = query ? (rows.length ? `${rows.length} found for “${search.value.trim()}”` : `Nobody named “${search.value.trim()}” in this list.`) : "";
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_ROWS));
    page = Math.min(page, pages - 1);
    const slice = rows.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS);
    list.dataset.showing = showing;
    if (showing === "pairings") replace(list, rnd ? pairingsTable(slice, rnd) : h("p", {}, "No pairings posted yet."));
    else replace(list, standingsTable(slice, data));
    const go = (n) => { page = n; draw(); list.scrollIntoView?.({ block: "start" }); };
    replace(pager, pages > 1 ? [
      h("button", { type: "button", class: "small", id: "public-prev", disabled: page === 0, onclick: () => go(page - 1) }, "◀ Previous"),
      h("span", { id: "public-page", "data-page": String(page + 1), "data-pages": String(pages) }, `Page ${page + 1} of ${pages}`),
      h("button", { type: "button", class: "small", id: "public-next", disabled: page === pages - 1, onclick: () => go(page + 1) }, "Next ▶"),
    ] : []);
  }

  const load = async () => {
    try {
      const fresh = await publicView(eventId);
      const names = new Map();
      fresh.rounds.forEach((r) => r.matches.forEach((m) => m.players.forEach((p) => names.set(p.id, p.name))));
      fresh.standings = fresh.standings.map((s) => ({ ...s, name: names.get(s.player) || s.player }));
      data = fresh;
      title.textContent = data.name;
      draw();
      replace(lists, await listsSection(eventId, data.ruleset));
    } catch (err) {
      replace(list, h("p", { class: "error" }, err.message));
    }
  };
  await load();
  const interval = setInterval(load, 15000);
  return { destroy: () => clearInterval(interval) };
}

export default { mount };

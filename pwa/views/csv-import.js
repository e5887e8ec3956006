// CSV on the device: a registration file read on this tablet (works offline: the rules worker's csv_roster
// parses it and names each bad row), its column mapping (editable), and the good rows registered as
// player.register operations through the store, like the register form; and the downloads the rules worker
// writes (standings, a round's pairings).
import { gameIdFor } from "../app/games.js";
import { rules } from "../app/services.js";
import { announce, h, replace, withNames } from "../ui/dom.js";
import { batchProgress } from "../ui/progress.js";

/**
 * Every field a column may fill (shared_rules/importers/csv_roster.py FIELDS), with what the screen calls it; the
 * game ID under the game's own name for it (a Play! Pokémon ID, a trekcc.org forum handle).
 */
export function csvFields(idLabel = "Player ID") {
  return [["name", "Name"], ["first_name", "First name"], ["last_name", "Last name"], ["game_id", idLabel],
    ["birth_year", "Birth year / date of birth"], ["division", "Division (Pokémon)"], ["earned_byes", "Earned byes"],
    ["ignore", "Leave out"]];
}
/** The preview's optional columns (player field, heading), shown when the file fills them. */
const previewColumns = (idLabel) => [["game_id", idLabel], ["birth_year", "Birth year"], ["division", "Division"],
  ["earned_byes", "Earned byes"]];
const MAX_BYTES = 2 * 1024 * 1024;

/** The roster screen's "Import CSV" card (organizer and scorekeeper). */
export function csvImportCard(store, { onRegistered } = {}) {
  const file = h("input", { type: "file", id: "csv-file", accept: ".csv,text/csv,text/plain" });
  const message = h("p", { class: "error", role: "alert", id: "csv-error" });
  const preview = h("div", { id: "csv-preview", "aria-live": "polite" });
  let text = null;
  let mapping = {};   // heading -> field, as the user set it (the rest: read from the headings)
  const idLabel = () => gameIdFor(store.state?.ruleset)?.label || "Player ID";

  const readFile = async () => {
    message.textContent = "";
    replace(preview);
    text = null;
    mapping = {};
    const chosen = file.files?.[0];
    if (!chosen) return;
    if (chosen.size > MAX_BYTES) {
      message.textContent = `${chosen.name} is larger than 2 MiB: is it really a roster?`;
      return;
    }
    text = await chosen.text();
    await show();
  };

  const show = async () => {
    let out;
    try {
      out = await rules("csv_roster", { event_id: store.eventId, text, mapping: Object.keys(mapping).length ? mapping : null });
    } catch (err) {
      message.textContent = err.message;
      replace(preview, mappingTable(Object.keys(mapping).map((k) => [k, mapping[k]]), []));
      return;
    }
    message.textContent = "";
    const columns = Object.entries(out.columns || {});
    const ignored = out.ignored || [];
    const bad = new Set(out.errors.map((e) => e.row));
    // Optional columns only when some player to register has them (a game without divisions: no Division column).
    const shown = previewColumns(idLabel()).filter(([field]) => out.players.some((p) => p[field] != null && p[field] !== ""));
    replace(preview,
      mappingTable(columns, ignored),
      (out.warnings || []).map((w) => h("p", { class: "warning" }, w)),
      out.errors.length ? h("div", { class: "table-wrap" }, h("table", { id: "csv-errors" },
        h("caption", {}, `${bad.size} row${bad.size === 1 ? "" : "s"} not imported: correct the file and read it again, or register them by hand`),
        h("thead", {}, h("tr", {}, ["Row", "Column", "Problem"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, out.errors.map((e) => h("tr", { dataset: { row: String(e.row) } },
          h("td", {}, e.row), h("td", {}, e.column || "—"), h("td", {}, e.problem)))))) : null,
      out.players.length ? h("div", { class: "table-wrap" }, h("table", { id: "csv-players" },
        h("caption", {}, `${out.players.length} player${out.players.length === 1 ? "" : "s"} ready to register`),
        h("thead", {}, h("tr", {}, ["Name", ...shown.map(([, title]) => title)].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, out.players.map((p) => h("tr", {}, h("th", { scope: "row" }, p.name),
          shown.map(([field]) => h("td", {}, p[field] ?? ""))))))) : h("p", {}, "No player to register from this file."),
      out.players.length ? h("button", { type: "button", class: "primary", id: "csv-register",
        onclick: (e) => register(e.currentTarget, out.players) }, `Register ${out.players.length} player${out.players.length === 1 ? "" : "s"}`) : null);
  };

  const mappingTable = (columns, ignored) => h("div", { class: "table-wrap" }, h("table", { id: "csv-mapping" },
    h("caption", {}, "Columns: what each one holds (change it if the heading was read wrongly)"),
    h("thead", {}, h("tr", {}, ["Column in the file", "Read as"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, [...columns, ...ignored.map((heading) => [heading, "ignore"])].map(([heading, field]) => {
      const choice = h("select", { "aria-label": `Column ${heading}`, dataset: { heading } },
        csvFields(idLabel()).map(([value, text]) => h("option", { value, selected: value === field }, text)));
      choice.addEventListener("change", () => {
        mapping = { ...mapping, [heading]: choice.value };
        show();
      });
      return h("tr", {}, h("th", { scope: "row" }, heading), h("td", {}, choice));
    }))));

  const register = async (button, players) => {
    // One batch: a chunk at a time (one IndexedDB write and one fold each), the count on the button.
    const progress = batchProgress(button);
    button.after(progress.el);
    progress.start(players.length);
    let results;
    try {
      results = await store.actMany(players.map((player) => ({ type: "player.register", payload: { player } })),
        { onProgress: (done, total) => progress.step(done, total) });
    } catch (err) {
      progress.finish();
      message.textContent = `Nothing more was registered: ${err.message}`;
      return;
    }
    progress.finish();
    const refused = results.flatMap((r, i) => (r.refused
      ? [[players[i], withNames(store.state, r.refused).replace(/^player\.register:\s*/, "")]] : []));
    const done = players.length - refused.length;
    announce(`${done} player${done === 1 ? "" : "s"} registered from the file`);
    replace(preview, h("p", { class: "notice", role: "status", id: "csv-done" },
      `${done} player${done === 1 ? "" : "s"} registered from ${file.files?.[0]?.name || "the file"}`
      + (refused.length ? `; ${refused.length} not registered:` : ".")),
    refused.length ? h("ul", { id: "csv-refused", class: "warnings" },
      refused.map(([p, why]) => h("li", {}, h("strong", {}, p.name), ` (${p.id}): ${why}`))) : null);
    file.value = "";
    text = null;
    onRegistered?.(done);
  };

  file.addEventListener("change", readFile);
  return h("section", { class: "card", id: "csv-import", "aria-labelledby": "csv-title" },
    h("h2", { id: "csv-title" }, "Import CSV"),
    h("p", { class: "hint" }, `A spreadsheet saved as CSV: a heading row (Name, ${idLabel()}, Date of birth…), `
      + "then one row per player. Read on this device: it works offline."),
    h("div", { class: "field" }, h("label", { for: "csv-file" }, "Roster file (.csv)"), file), message, preview);
}

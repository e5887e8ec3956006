// Exports (#/event/ID/exports): every file the event gives, made on this device from its own copy of the log by
// the rules worker (so all of it works offline): the event itself (topcut-event/1 JSON), standings and any round's
// pairings as CSV, the TOM save file (.tdf) for games TOM runs, the Star Trek tournament report; and the roster
// CSV import for those who register players; and a TOM file made a new event (as on the Home screen).
import { gameIdFor, gameIdOf, hasReport, writesTom } from "../app/games.js";
import { may } from "../app/roles.js";
import { rules } from "../app/services.js";
import { h, refresh, replace } from "../ui/dom.js";
import { downloadButton, downloadText, fileName } from "../ui/downloads.js";
import { csvImportCard } from "./csv-import.js";
import { tomImportForm } from "./tom-import.js";

/** The rounds a pairings CSV can be made of, newest first: [value, label, {number, stage}]. */
function roundChoices(st) {
  return [...st.rounds].reverse().map((r) => [`${r.stage}:${r.number}`,
    `Round ${r.number}${r.stage === "elimination" ? " (top cut)" : r.stage === "swiss-day2" ? " (day two)" : ""} · ${r.status}`,
    { number: r.number, stage: r.stage }]);
}

function eventCard(store) {
  return h("section", { class: "card", id: "export-event", "aria-labelledby": "export-event-title" },
    h("h2", { id: "export-event-title" }, "The whole event"),
    h("p", { class: "hint" }, "Everything the event holds, as a topcut-event/1 file: keep it as a backup, or import it "
      + "on another device or server (Home → Import an event file)."),
    downloadButton("Download the event (topcut-event/1 JSON)", "export-json",
      async () => JSON.stringify(await rules("export", { event_id: store.eventId }), null, 1),
      () => fileName(store.state?.name, "event", "topcut.json"), "application/json"),
    h("p", {}, "Public page for players and spectators: ", h("a", { href: `#/public/${store.eventId}` }, "standings and pairings")));
}

function csvCard(store) {
  const rounds = h("select", { id: "export-round", "aria-label": "Round" });
  const pairingsBox = h("div", { class: "download-row" });
  const label = () => gameIdFor(store.state?.ruleset)?.label || "Player ID";
  const hint = h("p", { class: "hint", id: "export-csv-hint" });
  const card = h("section", { class: "card", id: "export-csv", "aria-labelledby": "export-csv-title" },
    h("h2", { id: "export-csv-title" }, "Spreadsheets (CSV)"), hint,
    h("p", {}, downloadButton("Download standings CSV", "export-standings-csv", () => rules("csv_standings", { event_id: store.eventId }),
      () => fileName(store.state?.name, "standings"))),
    pairingsBox);
  const chosen = () => roundChoices(store.state).find(([value]) => value === rounds.value)?.[2];
  const pairings = downloadButton("Download pairings CSV", "export-pairings-csv", () => {
    const rnd = chosen();
    if (!rnd) throw new Error("No round is paired yet: pair round 1 on the Rounds screen first.");
    return rules("csv_pairings", { event_id: store.eventId, round: rnd.number, stage: rnd.stage });
  }, () => {
    const rnd = chosen();
    return fileName(store.state?.name, `round-${rnd?.number ?? 0}${rnd?.stage === "elimination" ? "-top-cut" : ""}-pairings`);
  });
  return {
    el: card,
    update(st) {
      hint.textContent = `Rank, name, ${label()} and every tiebreaker, for a spreadsheet or a results post; `
        + "a round's tables with both players and the result.";
      const choices = roundChoices(st);
      const keep = rounds.value;
      replace(rounds, choices.map(([value, text]) => h("option", { value, selected: value === keep }, text)));
      if (!choices.some(([value]) => value === keep) && choices.length) rounds.value = choices[0][0];
      refresh(pairingsBox, choices.length
        ? h("p", {}, h("label", { for: "export-round" }, "Pairings of "), rounds, " ", pairings)
        : h("p", { class: "hint", id: "export-no-rounds" }, "Pairings CSV: no round is paired yet."));
    },
  };
}

/** TOM's save file, for the games TOM runs: what Play! Pokémon's reporting takes. */
/** Who TOM would name by the app's own id: the players without a game ID (Play! Pokémon ID), by name. */
function missingIds(st) {
  const without = (st?.players || []).filter((p) => !gameIdOf(p)).map((p) => p.name);
  if (!without.length) return null;
  const label = gameIdFor(st.ruleset)?.label || "Player ID";
  return `${without.length} player${without.length === 1 ? " has" : "s have"} no ${label}: ${without.slice(0, 8).join(", ")}`
    + `${without.length > 8 ? ", …" : ""}. Type it in the roster (Players) before reporting.`;
}

function tomCard(store, navigate, missing) {
  const said = h("p", { class: "error", role: "alert", id: "export-tdf-error" });
  const button = h("button", { type: "button", id: "export-tdf", class: "primary", onclick: async () => {
    said.textContent = "";
    try {
      const text = await rules("tdf_export", { event_id: store.eventId });
      downloadText(fileName(store.state?.name, "tom", "tdf"), text, "application/xml;charset=utf-8");
    } catch (err) {
      said.textContent = `The TOM file could not be made: ${err.message}`;
    }
  } }, "Download TOM file (.tdf)");
  missing.textContent = missingIds(store.state) || "";
  missing.hidden = !missing.textContent;
  return h("section", { class: "card", id: "export-tom", "aria-labelledby": "export-tom-title" },
    h("h2", { id: "export-tom-title" }, "TOM file (.tdf)"),
    h("p", { class: "hint" }, "The event as a Tournament Operations Manager save: open it in TOM, or upload it to report the "
      + "event's results. Players are named by their Play! Pokémon ID (a player without one, by the app's own id)."),
    missing, button, said,
    h("p", { class: "hint" }, "An event TOM saved becomes a new event of this device (read here, so offline too): "
      + "this event stays as it is."),
    tomImportForm({ navigate }));
}

function reportCard(store) {
  return h("section", { class: "card", id: "export-report", "aria-labelledby": "export-report-title" },
    h("h2", { id: "export-report-title" }, "Tournament report (trekcc.org)"),
    h("p", { class: "hint" }, "What to enter at www.trekcc.org after the event (Star Trek OP Guide 8, Appendix A)."),
    h("p", {}, h("a", { href: `#/event/${store.eventId}/report`, id: "export-report-link" }, "Open the tournament report"), " · ",
      downloadButton("Download it as text", "export-report-text", async () => (await rules("startrek_report", { event_id: store.eventId })).text,
        () => fileName(store.state?.name, "trekcc-report", "txt"), "text/plain;charset=utf-8")));
}

async function mount(root, { store, role, navigate }) {
  const csv = csvCard(store);
  const event = eventCard(store);
  const grid = h("div", { class: "grid" });
  const missing = h("p", { class: "warning", id: "export-tdf-missing", "aria-live": "polite" });
  let drawnFor;  // the game the cards were drawn for (known once the event's first state is folded)
  const drawCards = () => {
    const ruleset = store.state?.ruleset ?? null;
    if (ruleset === drawnFor) return;
    drawnFor = ruleset;
    replace(grid, writesTom(ruleset) ? tomCard(store, navigate, missing) : null, hasReport(ruleset) ? reportCard(store) : null,
      csv.el, event);
  };
  drawCards();
  replace(root, h("h1", {}, "Exports"),
    h("p", { class: "hint" }, "Every file here is made on this device from its copy of the event: it works offline."),
    grid, may(role, "player.register") ? csvImportCard(store) : null);
  return {
    update() {
      drawCards();
      if (store.state) csv.update(store.state);
      const note = missingIds(store.state) || "";
      if (missing.textContent !== note) missing.textContent = note;
      missing.hidden = !note;
    },
  };
}

export default { mount };

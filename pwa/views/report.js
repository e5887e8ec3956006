// The Star Trek tournament report (#/event/ID/report): what the director enters at www.trekcc.org after the
// event (OP Guide 8, Appendix A), in the order the site's forms ask for it, made on this device by the rules
// worker's startrek_report (other games: its refusal is shown). Printable (print CSS), and downloadable as text.
// The organizer fills in what the event cannot know (date, venue, TDs…): saved in settings.report by
// event.configure, so every device's report has it.
import { eventSummary, rules } from "../app/services.js";
import { announce, field, h, refresh, refusalText, replace } from "../ui/dom.js";
import { downloadText, fileName } from "../ui/downloads.js";

/** settings.report's text fields the organizer fills in (shared_rules/exporters/startrek_report.py REPORT_FIELDS). */
const FILL_IN = ["date", "time", "time_zone", "tournament_format", "card_pool", "rules_set", "primary_td", "secondary_td",
  "region", "host", "address", "phone", "email", "discussion_thread", "entry_fee", "special_rules"];

const dash = (v) => (v === null || v === undefined || v === "" ? "—" : String(v));
const signed = (v) => (typeof v === "number" && v > 0 ? `+${v}` : dash(v));

function sectionTable(section) {
  return h("section", { class: "report-section", dataset: { section: section.id } }, h("h3", {}, section.title),
    h("dl", { class: "report-fields" }, section.fields.map((f) => [h("dt", {}, f.label),
      h("dd", { dataset: { key: f.key }, class: f.value === "" || f.value === null ? "missing" : null }, dash(f.value))])));
}

function roundsTable(tournament) {
  const hasVp = tournament.rounds.some((r) => r.tables.some((t) => t.seats.some((s) => "vp" in s)));
  const head = ["Table", "Player", "Result", "Score", ...(hasVp ? ["VP", "Differential"] : [])];
  return tournament.rounds.map((rnd) => h("div", { class: "table-wrap" }, h("table", { class: "report-round", dataset: { round: String(rnd.round) } },
    h("caption", {}, `Round ${rnd.round}${rnd.stage === "elimination" ? " (match play)" : ""}`),
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rnd.tables.flatMap((table) => table.seats.map((s, k) => h("tr", { class: k === 0 ? "first-seat" : null },
      k === 0 ? h("td", { rowspan: String(table.seats.length) }, dash(table.table)) : null,
      h("th", { scope: "row" }, s.name), h("td", {}, s.result, s.note ? ` (${s.note})` : ""), h("td", {}, dash(s.score)),
      hasVp ? [h("td", {}, dash(s.vp)), h("td", {}, signed(s.differential))] : null)))))));
}

function totalsTable(tournament) {
  const rows = tournament.totals;
  if (!rows.length) return null;
  const kind = "vp" in rows[0] ? "swiss" : "rounds_won" in rows[0] ? "scored" : "elimination";
  const head = { swiss: ["Rank", "Player", "Record", "Victory Points", "Differential"],
    scored: ["Rank", "Player", "Total score", "Rounds won"], elimination: ["Rank", "Player", "Seed", "Out in round"] }[kind];
  return h("div", { class: "table-wrap" }, h("table", { class: "report-totals" },
    h("caption", {}, "Final check: compare with the site's totals before submitting"),
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, rows.map((r) => h("tr", {}, h("td", {}, r.rank), h("th", { scope: "row" }, r.name),
      kind === "swiss" ? [h("td", {}, r.record), h("td", {}, r.vp), h("td", {}, signed(r.differential))]
        : kind === "scored" ? [h("td", {}, r.score), h("td", {}, r.rounds_won)]
          : [h("td", {}, dash(r.seed)), h("td", {}, r.eliminated_in ?? "—")])))));
}

function tournamentPart(tournament, i) {
  const seeded = tournament.players.some((p) => "seed" in p);
  return h("article", { class: "report-tournament page", dataset: { tournament: String(i) } },
    h("h2", {}, tournament.title),
    tournament.sections.map(sectionTable),
    h("section", { class: "report-section" }, h("h3", {}, "Players (Add / Remove Players)"),
      h("div", { class: "table-wrap" }, h("table", { class: "report-players" },
        h("thead", {}, h("tr", {}, ["Name", "Forum handle / trekcc.org id", ...(seeded ? ["Seed"] : [])].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, tournament.players.map((p) => h("tr", {}, h("th", { scope: "row" }, p.name), h("td", {}, dash(p.handle)),
          seeded ? h("td", {}, dash(p.seed)) : null)))))),
    h("section", { class: "report-section" }, h("h3", {}, "Results, round by round"), roundsTable(tournament)),
    tournament.final_confrontation ? h("section", { class: "report-section", id: `final-${i}` }, h("h3", {}, "Final confrontation"),
      h("p", {}, tournament.final_confrontation.players.map((p) => p.name).join(" v "), ": ",
        h("strong", {}, tournament.final_confrontation.winner_name || "not played yet"))) : null,
    h("section", { class: "report-section" }, h("h3", {}, "Totals"), totalsTable(tournament)));
}

async function mount(root, { store, role }) {
  const body = h("div", { class: "printable", id: "report" });
  const message = h("p", { class: "error", role: "alert", id: "report-error" });
  const fillBox = h("div", { class: "no-print" });
  let text = "";
  const download = h("button", { type: "button", id: "report-text", disabled: true,
    onclick: () => downloadText(fileName(store.state?.name, "trekcc-report", "txt"), text, "text/plain;charset=utf-8") },
  "Download as text");
  replace(root, h("h1", { class: "no-print" }, "Star Trek tournament report"),
    h("p", { class: "no-print hint" }, "What to enter at www.trekcc.org (Tournaments → My Tournaments), in the site's order "
      + "(Star Trek OP Guide, Appendix A)."),
    h("p", { class: "no-print" }, h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print"), " ", download),
    message, fillBox, body);

  // The WCT leagues of this server that count the event (asked once, online only; offline the form is the same
  // without the hint): "League Event?" starts at Yes for such an event until the organizer saves an answer.
  let leagues = [];
  let lastReport = null;

  // The organizer fills in what the event cannot know; saved in the event (settings.report) for every device,
  // also once the event is closed (the report is written after the event: the rules accept these details then).
  const fillForm = (report) => {
    if (role !== "organizer") return null;
    const given = store.state?.settings?.report || {};
    const labels = new Map(report.tournaments[0]?.sections.flatMap((s) => s.fields.map((f) => [f.key, f.label])) || []);
    const inputs = FILL_IN.map((key) => [key, h("input", { type: key === "date" ? "date" : "text", name: `report-${key}`,
      value: given[key] || "", autocomplete: "off" })]);
    const leagueEvent = given.league_event ?? (leagues.length ? true : undefined);
    const league = h("select", { name: "report-league_event" }, [["", "—"], ["yes", "Yes"], ["no", "No"]].map(([v, t]) =>
      h("option", { value: v, selected: (leagueEvent === true && v === "yes") || (leagueEvent === false && v === "no") }, t)));
    const leagueHint = leagues.length ? h("p", { class: "hint", id: "report-leagues" },
      `On this server the event counts in ${leagues.map((l) => l.name || l.league_id).join(", ")}`
      + (given.league_event === undefined ? ": League Event? is set to Yes until you save." : ".")) : null;
    return h("details", { class: "card", open: report.missing.length ? true : null },
      h("summary", {}, report.missing.length ? `Fill in what the event cannot know (${report.missing.length} missing)` : "Edit the report's details"),
      h("form", { id: "report-form", onsubmit: async (e) => {
        e.preventDefault();
        const values = {};
        for (const [key, input] of inputs) if (input.value.trim()) values[key] = input.value.trim();
        if (league.value) values.league_event = league.value === "yes";
        const { refused } = await store.act("event.configure", { settings: { report: values } });
        message.textContent = refused ? refusalText(refused) : "";
        if (!refused) announce("Report details saved");
      } }, leagueHint, h("div", { class: "grid" }, inputs.map(([key, input]) => field(labels.get(key) || key, input)),
        field("League Event?", league)),
      h("button", { type: "submit", class: "primary", id: "save-report" }, "Save")));
  };

  if (role === "organizer" && store.session) {
    eventSummary(store.session).then((summary) => {
      leagues = summary?.leagues || [];
      if (leagues.length && lastReport) refresh(fillBox, fillForm(lastReport));
    }, () => {});  // offline or refused: the form without the hint
  }

  return {
    async update() {
      let out;
      try {
        out = await rules("startrek_report", { event_id: store.eventId });
      } catch (err) {
        message.textContent = err.message;
        replace(body);
        replace(fillBox);
        download.disabled = true;
        return;
      }
      const report = out.report || out;
      lastReport = report;
      text = out.text || "";
      download.disabled = !text;
      message.textContent = "";
      refresh(fillBox, fillForm(report));  // a sync's redraw keeps what the organizer is typing
      refresh(body,
        h("p", { class: "report-head" }, h("strong", {}, report.event), ` · ${report.edition}`,
          report.complete ? "" : " · not finished: results are still missing"),
        report.missing.length ? h("p", { class: "warning", id: "report-missing" }, `Still to fill in: ${report.missing.join(", ")}.`) : null,
        report.warnings.length ? h("ul", { class: "warning", id: "report-warnings" }, report.warnings.map((w) => h("li", {}, w))) : null,
        report.tournaments.map(tournamentPart));
    },
  };
}

export default { mount };

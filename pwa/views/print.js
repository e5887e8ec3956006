// Printouts: pairings by table and alphabetically, and one match slip per table (print CSS); and, for the
// organizer, head judge and scorekeeper, players' claim slips with a QR code (#/event/ID/print/claims).
import { isIn } from "../app/roles.js";
import { claims, rules } from "../app/services.js";
import { alphabetical, byTable, postedRound } from "../ui/pairings.js";
import { h, nameOf, replace } from "../ui/dom.js";
import { downloadButton, fileName } from "../ui/downloads.js";


function roundPrintout(st) {
  const rnd = postedRound(st) || st.rounds[st.rounds.length - 1];
  if (!rnd) return [h("p", {}, "Nothing to print yet.")];
  const slips = rnd.matches.filter((m) => m.players.length > 1).map((m) => h("div", { class: "slip" },
    h("h3", {}, `${st.name} · Round ${rnd.number} · Table ${m.table}`),
    m.players.map((p) => h("p", { class: "slip-line" }, `${nameOf(st, p)}`, h("span", { class: "blank" }, "Result: ________  Signature: ____________"))),
    h("p", { class: "slip-line" }, "Judge: ____________")));
  return [h("section", { class: "page" }, h("h2", {}, `${st.name}`), byTable(st, rnd)),
    h("section", { class: "page" }, alphabetical(st, rnd)),
    h("section", { class: "page slips" }, h("h2", {}, "Match slips"), slips)];
}

function claimSlip(st, c) {
  // The server's join link names the address phones reach (the hall's, when printed on the server laptop).
  const origin = c.link ? new URL(c.link).origin : location.origin;
  return h("div", { class: "claim-slip", dataset: { player: c.player, code: c.code } },
    h("h3", {}, st.name),
    h("p", { class: "claim-name" }, c.name),
    h("div", { class: "qr", html: c.qr_svg, role: "img", "aria-label": `QR code to join as ${c.name}` }),
    h("p", { class: "code" }, c.code),
    h("p", { class: "hint" }, "Scan with your phone's camera to see your table, report results and get notified. "
      + `Or open ${origin} and type the code under "Join an event". It works once: keep it to yourself.`));
}

async function mount(root, { store, role, sub }) {
  const body = h("div", { class: "printable" });
  const readers = isIn(role, "desk")  // the desk reads players' claim codes;
  const claimMode = sub === "claims";
  const note = h("p", { class: "no-print", "aria-live": "polite" });
  const modes = readers ? h("p", { class: "no-print" },
    h("a", { href: `#/event/${store.eventId}/print`, "aria-current": claimMode ? null : "page" }, "Round printouts"), " · ",
    h("a", { href: `#/event/${store.eventId}/print/claims`, "aria-current": claimMode ? "page" : null, id: "claim-slips-mode" }, "Player claim slips")) : null;
  replace(root, h("h1", { class: "no-print" }, claimMode ? "Print claim slips" : "Print"), modes,
    h("p", { class: "no-print" }, h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print"),
      claimMode ? null : [" ", downloadButton("Download pairings CSV", "pairings-csv", () => {
        const rnd = postedRound(store.state) || store.state.rounds[store.state.rounds.length - 1];
        if (!rnd) throw new Error("No round is paired yet.");
        return rules("csv_pairings", { event_id: store.eventId, round: rnd.number, stage: rnd.stage });
      }, () => {
        const rnd = postedRound(store.state) || store.state.rounds[store.state.rounds.length - 1];
        return fileName(store.state?.name, `round-${rnd?.number ?? 0}-pairings`);
      })]),
    note, body);

  const loadClaims = async () => {
    if (!readers) {
      replace(body, h("p", { class: "error", role: "alert" },
        "Only the organizer, head judge or scorekeeper can print players' claim codes: ask one of them."));
      return;
    }
    note.textContent = "Loading the codes from the server…";
    try {
      const data = await claims(store.session, { qr: true });
      const ready = data.claims.filter((c) => c.code);
      const left = data.claims.length - ready.length;
      note.textContent = `${ready.length} slip${ready.length === 1 ? "" : "s"} for players not joined yet`
        + (left ? `; ${left} player${left === 1 ? " has" : "s have"} joined or no usable code (issue a new code on the Players screen)` : "") + ".";
      replace(body, ready.length ? h("section", { class: "claim-slips", id: "claim-slips" }, ready.map((c) => claimSlip(store.state, c)))
        : h("p", {}, "No codes to print: every player has joined, or has no usable code."));
    } catch (err) {
      note.textContent = "";
      replace(body, h("p", { class: "error", role: "alert" }, `The claim codes could not be loaded: ${err.message}`));
    }
  };
  if (claimMode) await loadClaims();
  // Star Trek events: the tournament report to enter at www.trekcc.org (the rules worker knows the game).
  if (!claimMode) {
    rules("startrek_report", { event_id: store.eventId }).then(() => {
      if (!note.isConnected) return;
      note.before(h("p", { class: "no-print" }, h("a", { href: `#/event/${store.eventId}/report`, id: "report-link" },
        "Star Trek tournament report"), " — what to enter at www.trekcc.org after the event."));
    }, () => {});
  }
  return {
    update() {
      if (!claimMode) replace(body, ...roundPrintout(store.state));
    },
  };
}

export default { mount };

// Player phone: my table and opponent, report my result, confirm my opponent's
// report, my matches, notifications.
import { disputeVersions, resultForm, resultText } from "../ui/result-form.js";
import { timerPanel } from "../ui/timer.js";
import { deviceCards } from "../ui/notify.js";
import { announce, h, nameOf, problemNotice, problemsAt, refresh, refusalText, replace, statusBadge, withNames } from "../ui/dom.js";
import { penaltyText } from "./penalties.js";
import { myDecklist } from "./decklist-player.js";
import { playerActions } from "./player-actions.js";

const REMOVING = new Set(["disqualification", "ejection"]);

/**
 * What the player's phone says about their own penalties (their pull carries no one else's: backend/ledger.py):
 * a disqualification or ejection, a game loss at their table, a rescission; null when there is nothing to say.
 */
export function myPenaltyNotice(st, me, rnd) {
  const mine = (st.penalties || []).filter((p) => p.player === me);
  const player = st.players.find((p) => p.id === me);
  const removing = mine.filter((p) => REMOVING.has(p.effect) && !p.rescinded).at(-1);
  if (removing && player?.ejected) {
    return h("div", { class: "penalty-notice", id: "my-penalty", role: "alert" },
      h("p", {}, h("strong", {}, `You were removed from the event: ${penaltyText(removing)}`),
        ` (${removing.round ? `round ${removing.round}` : "before round 1"}). Reason: ${removing.reason}`),
      h("p", {}, "You will not be paired again. A judge enters the result of your match; ask the head judge if you "
        + "want to appeal."));
  }
  const rescinded = mine.filter((p) => REMOVING.has(p.effect) && p.rescinded).at(-1);
  if (rescinded && player && player.dropped_after !== null && !player.ejected) {
    return h("div", { class: "penalty-notice", id: "my-penalty", role: "status" },
      h("p", {}, h("strong", {}, `Your ${penaltyText(rescinded).toLowerCase()} was rescinded`), `: ${rescinded.rescinded.reason}`),
      h("p", {}, "You are still dropped until the organizer or head judge reinstates you."));
  }
  const lost = rnd && mine.filter((p) => p.effect === "game-loss" && !p.rescinded && p.round === rnd.number).at(-1);
  if (lost) {
    return h("div", { class: "penalty-notice", id: "my-penalty", role: "alert" },
      h("p", {}, h("strong", {}, `Penalty: ${penaltyText(lost)}`), ` in round ${lost.round}. Reason: ${lost.reason}`),
      h("p", {}, "A judge enters the result of your match."));
  }
  return null;
}

/** The player's own penalties, as the judges recorded them (a rescinded one says so). */
function myPenalties(st, me) {
  const mine = (st.penalties || []).filter((p) => p.player === me);
  if (!mine.length) return null;
  return [h("h2", {}, "My penalties"), h("ul", { class: "penalties", id: "my-penalties" }, mine.map((p) =>
    h("li", { dataset: { kind: p.kind, rescinded: p.rescinded ? "yes" : "no" } },
      `${penaltyText(p)} (${p.round ? `round ${p.round}` : "before round 1"}): ${p.reason}`,
      p.rescinded ? ` — rescinded: ${p.rescinded.reason}` : "")))];
}

/** Whether an opponent has left the event (dropped or removed) while this match still waits for its result. */
function opponentLeft(st, m, me) {
  const theirs = m.reports.some((r) => r.actor.role === "player" && r.actor.player !== me);
  if (m.status !== "pending" && !(m.status === "reported" && !theirs)) return [];  // their report: confirm it
  return m.players.filter((pid) => pid !== me)
    .filter((pid) => st.players.find((p) => p.id === pid)?.dropped_after !== null);
}

const sameResult = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** A disputed match on the player's phone: what the judge (or the opponent) recorded, what this player did. */
function disputeNote(st, rnd, m, me) {
  const versions = disputeVersions(st, rnd, m);
  const staff = [...versions].reverse().find((r) => r.actor.role !== "player");
  const mine = [...versions].reverse().find((r) => r.actor.player === me);
  const other = [...versions].reverse().find((r) => r.actor.role === "player" && r.actor.player !== me);
  const lines = [];
  if (staff) lines.push(h("p", { id: "judge-recorded" }, "The judge recorded: ", h("strong", {}, resultText(st, m, staff.result)), "."));
  else if (other) lines.push(h("p", { id: "their-report" }, "Your opponent reported: ", h("strong", {}, resultText(st, m, other.result)), "."));
  if (mine) lines.push(h("p", { id: "my-report" }, "You reported: ", h("strong", {}, resultText(st, m, mine.result)), "."));
  return h("div", { class: "dispute-note", id: "dispute-note" }, lines,
    h("p", { class: "warn" }, "The results disagree: a judge will come to your table."));
}

/**
 * A settled match: its result, what this player reported if it differs, and (when a judge's entry or
 * correction decided it and this player has not reported the same) a way to report a different result.
 */
function settledNote(st, m, myReport, report) {
  const out = [h("p", { id: "final-result" }, "Result: ", resultText(st, m, m))];
  const finals = m.reports.filter((r) => FINAL.has(r.kind));
  const deciding = finals[finals.length - 1] || null;
  const byStaff = deciding ? deciding.kind === "correct" : m.reports.some((r) => r.actor.role !== "player");
  const agreed = myReport && sameResult(myReport.result.outcomes, m.outcomes);
  if (myReport && !agreed) {
    out.push(h("p", { id: "my-report" }, "You reported: ", h("strong", {}, resultText(st, m, myReport.result)),
      "; the judge's result stands."));
  }
  if (byStaff && !agreed) {
    out.push(h("button", { type: "button", id: "contest-result", onclick: report }, "That is not right — report mine"));
  }
  return out;
}

// Report kinds that decide a match outright (shared_rules/state/state.py FINAL_KINDS).
const FINAL_STATUS = new Set(["confirmed", "resolved"]);
const FINAL = new Set(["correct", "resolve", "pairing", "late", "missed", "import", "import-disputed"]);

/**
 * A player's phone (no rules engine: store.light): an action of this table queued on the phone and not yet taken
 * by the server, said as such (it goes when the phone is online; the server's verdict then shows), or null.
 */
function waitingAt(store, rnd, m) {
  if (!store.light) return null;
  const queued = store.waiting().filter((r) => r.op.payload?.round === rnd.number && r.op.payload?.table === m.table);
  if (!queued.length) return null;
  const what = queued.at(-1).op.type === "result.confirm" ? "Your confirmation" : "Your result";
  return h("p", { class: "waiting", id: "waiting-to-send", role: "status" },
    `${what} is waiting to send: it goes to the judges as soon as this phone is online.`);
}

async function mount(root, { store }) {
  const me = store.session.player;
  const clockBox = timerPanel(store);
  const current = h("section", { class: "card my-table", id: "my-table", "aria-live": "polite" });
  const history = h("section", { class: "card" });
  const reportBox = h("div");
  let reportOpen = false;
  const decklist = myDecklist(store);
  const actions = playerActions(store);  // call a judge, check in, drop; a staff call shown until answered
  replace(root, h("h1", { id: "player-name" }, "My table"), actions.alerts, clockBox.el, current, reportBox, actions.el, decklist.el, history,
    deviceCards(store));  // notifications and the way into the installed app (ui/notify.js)

  const act = async (type, payload, done) => {
    const { refused } = await store.act(type, payload, { checkFirst: true });
    announce(refused || done);
    return refused;
  };

  let reportOn = null;  // the match the open form reports: {number, stage, table, settled, reports} when it opened

  /** The open report form closes when the match is settled by someone else meanwhile, saying what was recorded. */
  function closeSettledReport(st) {
    const rnd = reportOn && st.rounds.find((r) => r.number === reportOn.number && r.stage === reportOn.stage);
    const m = rnd?.matches.find((x) => x.table === reportOn.table);
    if (!m || !FINAL_STATUS.has(m.status) || (reportOn.settled && m.reports.length === reportOn.reports)) return;
    const last = m.reports[m.reports.length - 1];
    const who = last?.actor.role === "player" ? "Your opponent confirmed the result" : "A judge recorded the result";
    reportOpen = false;
    reportOn = null;
    replace(reportBox, h("p", { class: "card settled-note", id: "report-closed", role: "status", dataset: { round: String(rnd.number) } },
      `${who}: `, h("strong", {}, resultText(st, m, m)), ". Your report form was closed; nothing more to send.",
      h("button", { type: "button", class: "small", onclick: () => replace(reportBox) }, "OK")));
  }

  async function openReport(rnd, match) {
    reportOpen = true;
    reportOn = { number: rnd.number, stage: rnd.stage, table: match.table, settled: FINAL_STATUS.has(match.status),
      reports: match.reports.length };
    const form = await resultForm(store.state, rnd, match, { submitLabel: "Send my result", helpers: false, store,
      onSubmit: async (result, error) => {
        const refused = await act("result.report", { round: rnd.number, stage: rnd.stage, table: match.table, ...result }, "Result sent");
        if (refused) error.textContent = withNames(store.state, refusalText(refused));
        else { reportOpen = false; reportOn = null; replace(reportBox); }
      } });
    replace(reportBox, h("section", { class: "card", id: "report" }, h("h2", {}, "Report the result"), form,
      h("button", { type: "button", onclick: () => { reportOpen = false; replace(reportBox); } }, "Cancel")));
    reportBox.querySelector("button.big")?.focus();
  }

  return {
    update() {
      const st = store.state;
      document.getElementById("player-name").textContent = `My table — ${nameOf(st, me)}`;
      const mine = [];
      for (const rnd of st.rounds) {
        if (rnd.status === "draft") continue;
        rnd.matches.forEach((m) => { if (m.players.includes(me)) mine.push([rnd, m]); });
      }
      const last = mine[mine.length - 1];
      if (!last) {
        replace(current, h("h2", {}, "Waiting for pairings"), myPenaltyNotice(st, me, null)
          || h("p", {}, "Your table shows here as soon as the round is posted."));
      } else {
        const [rnd, m] = last;
        const opponents = m.players.filter((p) => p !== me);
        const myReport = [...m.reports].reverse().find((r) => r.actor.player === me);
        const theirs = [...m.reports].reverse().find((r) => r.actor.role === "player" && r.actor.player !== me);
        const actions = [];
        const notice = myPenaltyNotice(st, me, rnd);
        const left = opponentLeft(st, m, me);
        const removed = Boolean(st.players.find((p) => p.id === me)?.ejected);
        if (st.closed) {
          actions.push(h("p", { id: "event-closed" }, "The event is closed: these are the final results."),
            m.outcomes ? h("p", { id: "final-result" }, "Result: ", resultText(st, m, m)) : null);
        } else if (removed) {
          // Nothing to report: a judge enters the match of a player removed from the event.
        } else if (left.length && (rnd.status === "started" || rnd.status === "complete")) {
          actions.push(h("p", { class: "warn", id: "opponent-left" },
            `Your opponent ${left.map((pid) => nameOf(st, pid)).join(", ")} has left the event. A judge will enter the `
            + "result of this match: stay at your table or go to the judges' desk."));
        } else if (rnd.status === "started" || rnd.status === "complete") {
          if (m.status === "reported" && theirs && !myReport) {
            actions.push(h("p", {}, "Your opponent reported: ", h("strong", { id: "their-report" }, resultText(st, m, theirs.result))),
              h("button", { type: "button", class: "primary big", id: "confirm-result",
                onclick: () => act("result.confirm", { round: rnd.number, stage: rnd.stage, table: m.table }, "Result confirmed") }, "Confirm"),
              h("button", { type: "button", onclick: () => openReport(rnd, m) }, "That is not right — report mine"));
          } else if (m.status === "reported" && myReport) {
            actions.push(h("p", { id: "awaiting" }, "Waiting for your opponent to confirm: ", resultText(st, m, myReport.result)));
          } else if (m.status === "pending" && m.players.length > 1) {
            actions.push(h("button", { type: "button", class: "primary big", id: "report-result", onclick: () => openReport(rnd, m) }, "Report the result"));
          } else if (m.status === "disputed") {
            actions.push(disputeNote(st, rnd, m, me));
          } else if (m.outcomes) {
            actions.push(...settledNote(st, m, myReport, () => openReport(rnd, m)));
          }
        }
        const queued = waitingAt(store, rnd, m);
        if (queued) actions.splice(0, actions.length, queued);
        refresh(current,
          h("h2", {}, `Round ${rnd.number}`),
          h("p", { class: "table-big", id: "table-number" }, m.table !== null ? `Table ${m.table}` : "Bye"),
          opponents.length ? h("p", { class: "opponent", id: "opponent" }, "Opponent: ", h("strong", {}, opponents.map((p) => nameOf(st, p)).join(", "))) : null,
          statusBadge(m.status), notice, problemsAt(store, rnd.number, m.table).map((p) => problemNotice(store, p)), actions);
      }
      replace(history, h("h2", {}, "My matches"), h("ol", { class: "history" }, mine.map(([rnd, m]) =>
        h("li", {}, `Round ${rnd.number}: `, m.players.filter((p) => p !== me).map((p) => nameOf(st, p)).join(", ") || "bye", " — ",
          statusBadge(m.status), m.outcomes ? ` ${m.outcomes[m.players.indexOf(me)]}` : ""))),
      myPenalties(st, me));
      if (reportOpen) closeSettledReport(st);
      else if (reportBox.querySelector("#report-closed")?.dataset.round !== String(last?.[0].number)) replace(reportBox);  // a new round: the note is old
      decklist.update();
      actions.update();
    },
    destroy() {
      clockBox.stop();
    },
  };
}

export default { mount };

// The player acts from the phone: a staff call shown until answered, call a judge to my table, check in,
// drop (with what it means). Reads only store.state and store.session, writes through store.act: the
// server's verdict decides (shared_rules/state/calls.py, authorize.py).
import { agoLabel, callPlace, callTime, openCalls } from "../ui/calls.js";
import { announce, h, problemNotice, refresh, refusalText, replace, withNames } from "../ui/dom.js";

/** The reasons a player picks from (free text adds to any of them). */
const REASONS = ["Rules question", "We disagree about the game", "Time extension", "Card or deck problem", "Other"];

/** The player's table in the latest posted round: {round, table} (table null for a bye), or null. */
function myTable(st, me) {
  for (const rnd of [...st.rounds].reverse()) {
    if (rnd.status === "draft") continue;
    const m = rnd.matches.find((x) => x.players.includes(me));
    return m ? { round: rnd.number, table: m.table } : null;
  }
  return null;
}

/** The call-a-judge form: the table shown (it is the player's own), a reason from the list, more in words. */
function judgeForm(store, st, me, close) {
  const seat = myTable(st, me);
  const other = h("textarea", { id: "call-detail", rows: "2", maxlength: "300", placeholder: "More detail (optional)" });
  const out = h("p", { class: "error", role: "alert" });
  const choices = REASONS.map((reason, i) => h("label", { class: "choice" },
    h("input", { type: "radio", name: "call-reason", value: reason, checked: i === 0 }), ` ${reason}`));
  const send = async (event) => {
    event.preventDefault();
    const picked = event.target.closest("form").querySelector("input[name=call-reason]:checked")?.value || REASONS[0];
    const detail = other.value.trim();
    if (picked === "Other" && !detail) {
      out.textContent = "Say in a few words what the judge is needed for.";
      return;
    }
    const reason = detail ? (picked === "Other" ? detail : `${picked}: ${detail}`) : picked;
    const payload = { reason };
    if (seat?.table !== null && seat?.table !== undefined) payload.table = seat.table;
    const { refused } = await store.act("call.judge", payload, { checkFirst: true });
    if (refused) {
      out.textContent = withNames(store.state, refusalText(refused));
      return;
    }
    announce("A judge is called to your table");
    close();
  };
  return h("form", { class: "card call-form", id: "call-judge-form", onsubmit: send },
    h("h2", {}, "Call a judge"),
    h("p", {}, seat?.table !== null && seat?.table !== undefined ? ["To ", h("strong", { id: "call-table" }, `table ${seat.table}`),
      ` (round ${seat.round}). Stay at your table.`] : "You have no table this round: the judge finds you by your name."),
    h("fieldset", {}, h("legend", {}, "What for?"), choices),
    h("label", { for: "call-detail" }, "Details"), other, out,
    h("div", { class: "form-actions" },
      h("button", { type: "submit", class: "primary big", id: "send-call" }, "Call a judge"),
      h("button", { type: "button", onclick: close }, "Cancel")));
}

/** What dropping means, and the step that does it. */
function dropConfirm(store, me, close) {
  const out = h("p", { class: "error", role: "alert" });
  const yes = async () => {
    const { refused } = await store.act("player.drop", { player: me }, { checkFirst: true });
    if (refused) {
      out.textContent = withNames(store.state, refusalText(refused));
      return;
    }
    announce("You dropped from the event");
    close();
  };
  return h("section", { class: "card drop-confirm", id: "drop-confirm", role: "alertdialog", "aria-labelledby": "drop-title" },
    h("h2", { id: "drop-title" }, "Drop from the event?"),
    h("ul", {},
      h("li", {}, "You will not be paired in any later round."),
      h("li", {}, "Your results so far stay in the standings (your opponents keep their points too)."),
      h("li", {}, "If your match this round is not finished, finish it or tell your opponent and a judge.")),
    h("p", {}, "Only the organizer or head judge can bring you back."), out,
    h("div", { class: "form-actions" },
      h("button", { type: "button", class: "danger big", id: "confirm-drop", onclick: yes }, "Yes, drop me"),
      h("button", { type: "button", id: "keep-playing", onclick: close }, "Keep playing")));
}

/** The staff's call to this player, shown until a judge marks it answered. */
function calledNotice(st, call) {
  return h("div", { class: "called-notice", id: "called-notice", role: "alert", dataset: { call: call.id } },
    h("p", { class: "called-big" }, `Please come to ${callPlace(call)}`),
    call.note ? h("p", {}, call.note) : null,
    h("p", { class: "hint" }, `Called at ${callTime(call.at)} (`, agoLabel(call.at), "). A judge closes this when you arrive."));
}

/** My open judge call: where, why, and whether a judge is on the way. */
function myCallNote(call) {
  return h("div", { class: "my-call", id: "my-call", role: "status", dataset: { call: call.id } },
    h("p", {}, h("strong", {}, call.on_my_way ? "A judge is on the way" : "Judge called"),
      ` — ${call.table !== null ? `table ${call.table}` : "no table"}: ${call.reason}`),
    h("p", { class: "hint" }, `${callTime(call.at)} (`, agoLabel(call.at), `)${call.on_my_way ? "" : ". Stay where you are."}`));
}

/** The phone's actions (``el``) and the calls it shows (``alerts``): mounted by player.js, redrawn on each change. */
export function playerActions(store) {
  const alerts = h("div", { class: "player-alerts", id: "player-alerts" });  // shown above the table
  const info = h("div");
  const panel = h("div");
  const el = h("div", { class: "player-actions", id: "player-actions" }, info, panel);
  let open = null;  // "judge" | "drop" | null
  const close = () => { open = null; update(); };

  function update() {
    const st = store.state;
    const me = store.session?.player;
    if (!st || !me) return;
    const player = st.players.find((p) => p.id === me);
    const calls = openCalls(st);
    const calledMe = calls.filter((c) => c.kind === "player" && c.player === me);
    const mine = calls.find((c) => c.kind === "judge" && c.player === me);
    const dropped = player?.dropped_after !== null && player?.dropped_after !== undefined;
    const posted = st.rounds.some((r) => r.status !== "draft");
    const problems = store.problems?.().filter((p) => p.op.type.startsWith("call.") || ["player.drop", "player.check_in"].includes(p.op.type)) || [];
    const buttons = [];
    if (!st.closed && player && !dropped) {
      if (!mine) buttons.push(h("button", { type: "button", class: "primary", id: "call-judge", onclick: () => { open = "judge"; update(); } }, "Call a judge"));
      if (!posted && !player.checked_in) {
        buttons.push(h("button", { type: "button", id: "check-in", onclick: async () => {
          const { refused } = await store.act("player.check_in", { player: me }, { checkFirst: true });
          announce(refused ? refusalText(refused) : "You are checked in");
        } }, "I'm here — check in"));
      }
      buttons.push(h("button", { type: "button", class: "danger", id: "drop", onclick: () => { open = "drop"; update(); } }, "Drop from the event"));
    }
    if (dropped || st.closed) open = null;
    if (open === "judge" && mine) open = null;  // the call went out (or came in from another device)
    refresh(alerts, calledMe.map((c) => calledNotice(st, c)), mine ? myCallNote(mine) : null);
    refresh(info,
      player?.checked_in && !posted ? h("p", { class: "checked-in", id: "checked-in" }, "✓ You are checked in") : null,
      dropped && !player?.ejected ? h("p", { class: "dropped", id: "dropped-note" },
        `You dropped after ${player.dropped_after ? `round ${player.dropped_after}` : "registration"}: you will not be paired again.`) : null,
      problems.map((p) => problemNotice(store, p)),
      open ? null : buttons.length ? h("div", { class: "action-row" }, buttons) : null);
    if (!open) replace(panel);
    else if (!panel.firstChild || panel.firstChild.dataset.open !== open) {
      const form = open === "judge" ? judgeForm(store, st, me, close) : dropConfirm(store, me, close);
      form.dataset.open = open;
      replace(panel, form);
      form.querySelector("button, input")?.focus();
    }
  }

  return { alerts, el, update };
}

// The player's phone: my deck list (or strike team). Typed or pasted per section, checked by the server once sent
// (the player view's problems: a player's phone runs no rules engine; on a device that does, checked as it is
// typed by rules_api decklist_check), sent like any other change (the outbox holds it until the phone is
// online), locked at the organizer's deadline or when round 1 starts.
import { rules } from "../app/services.js";
import { rulesetInfo } from "../ui/timer.js";
import { listForm, listSheet, lockWords, problemList } from "../ui/decklist.js";
import { announce, h, problemNotice, replace } from "../ui/dom.js";

/** When a change was made, in this device's time. */
const at = (ms) => new Date(ms).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

/** Whether this phone still holds a list it has not sent (offline). */
const waiting = (store) => store.rows.some((r) => r.status !== "rejected" && r.op.type === "decklist.submit");

/** The card: `el`, and `update()` to call when the store changes (it keeps what the player is typing). */
export function myDecklist(store) {
  const me = store.session.player;
  const el = h("section", { class: "card my-decklist", id: "my-decklist" });
  const head = h("div");
  const body = h("div");
  const problems = h("div", { "aria-live": "polite" });
  const out = h("p", { role: "status", id: "decklist-msg" });
  const refusals = h("div", { id: "decklist-refusals" });
  let form = null;
  let dirty = false;
  let shown = null;  // the sections the form was built from
  let spec = null;
  let timer = null;
  replace(el, head, refusals, body, out);

  let serverProblems = null;  // a player's phone: the server's check of the list it holds (the view's)

  async function check() {
    if (!form) return;
    if (store.light) {
      // No rules engine on a player's phone: the server checks the list once it has it (the player view's).
      replace(problems, dirty || !serverProblems
        ? h("p", { class: "muted", id: "my-list-problems" }, "The list is checked (counts, sections, repeated lines) once it is sent.")
        : problemList(serverProblems, "my-list-problems"));
      return;
    }
    const found = await rules("decklist_check", { ruleset: store.state.ruleset, settings: store.state.settings,
      sections: form.values() });
    replace(problems, problemList(found, "my-list-problems"));
  }

  async function send(event) {
    event.preventDefault();
    const { refused } = await store.act("decklist.submit", { player: me, sections: form.values() });
    const held = !refused && waiting(store);
    out.dataset.held = held ? "yes" : "no";
    out.textContent = refused || (held
      ? "Saved on this phone: it is sent to the organizer as soon as the phone is online."
      : `Sent: the organizer has your ${spec.noun}.`);
    if (!refused) dirty = false;
    announce(out.textContent);
  }

  function editForm(sections) {
    form = listForm(spec, sections, { idPrefix: "my-list", onInput: () => {
      dirty = true;
      clearTimeout(timer);
      timer = setTimeout(check, 300);
    } });
    shown = JSON.stringify(sections || {});
    replace(body, h("form", { id: "decklist-form", onsubmit: send }, form.el, problems,
      h("button", { type: "submit", class: "primary big", id: "send-decklist" }, `Send my ${spec.noun}`)));
    check();
  }

  async function update() {
    if (!store.state?.ruleset) {  // nothing folded yet, or this phone's access was withdrawn: no list to show
      el.hidden = true;
      return;
    }
    spec = (await rulesetInfo(store.state, store)).ui.decklists;
    const args = { event_id: store.eventId, now_ms: store.now() };
    const view = await (store.light ? store.ask("decklists", args) : rules("decklists", args));
    const mine = view.players.find((p) => p.id === me);
    const sections = mine?.sections || {};
    if (store.light) serverProblems = mine && !waiting(store) ? mine.problems || [] : null;
    // An event that asks for no lists shows no list card (unless staff typed one in for this player).
    el.hidden = !view.settings.required && !mine?.changes.length;
    if (el.hidden) return;
    if (out.dataset.held === "yes" && !waiting(store)) {  // the phone came back online and sent it
      out.dataset.held = "no";
      out.textContent = `Sent: the organizer has your ${spec.noun}.`;
    }
    // A list refused by the server (it reached it after the lock): said here, never lost silently.
    replace(refusals, store.problems().filter((p) => p.op.type === "decklist.submit").map((p) => problemNotice(store, p)));
    const title = `My ${spec.noun}`;
    const last = mine?.changes.at(-1);
    replace(head, h("h2", {}, title.replace(/^./, (c) => c.toUpperCase())),
      h("p", { id: "decklist-rule" }, view.settings.required ? `The organizer requires a ${spec.noun}. ` : "",
        `Lists ${lockWords(view)}.`),
      last ? h("p", { id: "decklist-status" }, `Last change: ${at(last.at)}`,
        last.by.role !== "player" ? ` by the ${last.by.role.replace("-", " ")}${last.reason ? ` (${last.reason})` : ""}` : "",
        waiting(store) ? " — waiting to be sent" : "") : null);
    if (view.locked || view.closed) {
      form = null;
      replace(body, mine && mine.status !== "empty"
        ? [h("p", { class: "warn", id: "decklist-locked" }, `Your ${spec.noun} was ${lockWords(view)}: `
          + "only a judge or the organizer can change it now. Ask one if it must change."), listSheet(spec, sections, { id: "my-list-sheet" })]
        : h("p", { class: "warn", id: "decklist-locked" }, `You have no ${spec.noun} and the lists are locked: go to the judges' `
          + "desk with your list."));
      return;
    }
    if (!form || (!dirty && JSON.stringify(sections) !== shown)) editForm(sections);
    else if (store.light) check();
  }

  return { el, update };
}

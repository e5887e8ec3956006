// Home: create an event from a ruleset (structure suggested from the player count),
// join one with a code (staff invitation or player claim code), or open one held on this device.
import { redeem } from "../api.js";
import { allSessions, saveSession } from "../db.js";
import { createLocalEvent } from "../local-events.js";
import { rules } from "../rules-client.js";
import { syncEvent } from "../sync.js";
import { announce, field, h, numberInput, replace } from "../ui.js";

async function mount(root, { navigate, join }) {
  const error = h("p", { class: "error", role: "alert" });
  const sessions = await allSessions();

  // ---- create
  const name = h("input", { type: "text", required: true, autocomplete: "off", placeholder: "Saturday Showdown" });
  const ruleset = h("select", { required: true }, h("option", { value: "" }, "Loading rulesets…"));
  const expected = numberInput({ value: "16", min: "2" });
  const suggestion = h("p", { class: "suggestion", "aria-live": "polite" });
  const suggest = async () => {
    if (!ruleset.value) return;
    const s = await rules("structure", { ruleset: ruleset.value, players: Number(expected.value) || 0 });
    suggestion.textContent = s.error ? s.error
      : `Suggested: ${s.swiss_rounds} Swiss rounds` + (s.cut ? `, top ${s.cut} cut` : ", no cut")
        + ` (${s.structure}; ${s.source || ""})`;
  };
  rules("rulesets").then((list) => {
    replace(ruleset, list.map((r) => h("option", { value: r.id }, r.title)));
    suggest();
  });
  ruleset.addEventListener("change", suggest);
  expected.addEventListener("input", suggest);
  const createForm = h("form", {
    class: "card", "aria-labelledby": "create-title",
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = "";
      try {
        // Made on this device first (it works offline), then registered with the server by a sync.
        const eventName = name.value.trim();
        const eventId = await createLocalEvent({ name: eventName, ruleset: ruleset.value });
        try {
          await syncEvent(eventId);
          announce(`Event ${eventName} created`);
        } catch (err) {
          announce(err.offline ? `Event ${eventName} created on this device: it reaches the server when the network is back`
            : `Event ${eventName} created on this device; the server has not taken it yet (${err.message})`);
        }
        navigate(`#/event/${eventId}/players`);
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  h("h2", { id: "create-title" }, "Create an event"),
  field("Event name", name), field("Game", ruleset), field("Expected players", expected), suggestion,
  h("button", { type: "submit", class: "primary" }, "Create event"));

  // ---- join
  const code = h("input", { type: "text", required: true, autocomplete: "off", autocapitalize: "characters",
                            placeholder: "ABCD-EFGH-JKLM", value: join || "" });
  const joinForm = h("form", {
    class: "card", "aria-labelledby": "join-title",
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = "";
      try {
        const grant = await redeem(code.value.trim(), navigator.userAgent.includes("Mobile") ? "phone" : "tablet");
        await saveSession(grant);
        announce(`Joined as ${grant.role}`);
        navigate(`#/event/${grant.event_id}`);
      } catch (err) {
        error.textContent = err.message;
      }
    },
  },
  h("h2", { id: "join-title" }, "Join an event"),
  field("Invitation or claim code", code, "Staff invitations and players' claim codes both work."),
  h("button", { type: "submit", class: "primary" }, "Join"));

  const mine = sessions.length
    ? h("ul", { class: "events" }, sessions.map((s) => h("li", {}, h("a", { href: `#/event/${s.event_id}` },
        `${s.name || s.event_id}`), ` — ${s.role}${s.player ? ` (${s.player})` : ""}`)))
    : h("p", {}, "No events on this device yet.");

  replace(root,
    h("h1", {}, "Topcut"),
    error,
    h("div", { class: "grid" }, joinForm, createForm),
    h("section", { class: "card", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, "Events on this device"), mine));
  if (join) joinForm.requestSubmit();
  return {};
}

export default { mount };

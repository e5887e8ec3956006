// Home: create an event from a ruleset (structure suggested from the player count; made on this device,
// so it works offline), import one from a topcut-event/1 file, join one with a code (staff invitation or
// player claim code), or open one held on this device (or remove it from this device).
import { allSessions, createEvent, createLocalEvent, engineTables, eventBase, recover, redeem, rules, saveSession, syncEvent } from "../app/services.js";
import { importTom } from "./tom-import.js";
import { forgetHere, takeNotice, unsentCount } from "../app/event-tools.js";
import { announce, field, h, numberInput, replace } from "../ui/dom.js";

/** The "Create an event" form: made on this device (works offline), then synced. */
function createCard({ navigate, error, light }) {
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
  // "Create event" waits for the games list (a click before it would be stopped by the empty required select).
  const createButton = h("button", { type: "submit", class: "primary", disabled: true, title: "Loading the games…" }, "Create event");
  // The games from the engine's tables (built with the app): no rules engine needed to list them. The structure
  // suggestion asks the engine; a player's phone (``light``) asks only once someone uses the form.
  replace(ruleset, engineTables.rulesets.map((r) => h("option", { value: r.id }, r.title)));
  createButton.disabled = false;
  createButton.removeAttribute("title");
  if (!light) suggest();
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
  createButton);
  return createForm;
}

/** The "Join an event" form: a staff invitation or a player's claim code. */
function joinCard({ navigate, error, join }) {
  const code = h("input", { type: "text", required: true, autocomplete: "off", autocapitalize: "characters",
                            placeholder: "ABCD-EFGH-JKLM", value: join || "" });
  const joinForm = h("form", {
    class: "card", "aria-labelledby": "join-title",
    onsubmit: async (e) => {
      e.preventDefault();
      error.textContent = "";
      try {
        const grant = await redeem(code.value.trim(), navigator.userAgent.includes("Mobile") ? "phone" : "tablet");
        // An imported event's document, before the first fold (see the import form).
        const base = await eventBase(grant).catch(() => null);
        await saveSession(grant, base ? { base } : {});
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
  return joinForm;
}

/**
 * "I'm the organizer: recover with a code": the event's printed recovery code gives this device organizer
 * access (a lost or dead laptop). Needs the network; the code is used up, so a new one is printed after.
 */
function recoverCard({ navigate }) {
  const code = h("input", { type: "text", id: "recovery-code-input", required: true, autocomplete: "off", spellcheck: false,
    autocapitalize: "characters", placeholder: "ABCD-EFGH-JKLM-NPQR" });
  const deviceName = h("input", { type: "text", id: "recovery-device", maxlength: "200", autocomplete: "off",
    placeholder: "Spare laptop" });
  const message = h("p", { class: "error", role: "alert", id: "recover-error" });
  const form = h("form", {
    class: "card", id: "recover", "aria-labelledby": "recover-title",
    onsubmit: async (e) => {
      e.preventDefault();
      message.textContent = "";
      if (!navigator.onLine) {
        message.textContent = "Recovering needs the network: connect this device to the server (the hall address), then try again.";
        return;
      }
      try {
        const grant = await recover(code.value.trim(), deviceName.value.trim());
        const base = await eventBase(grant).catch(() => null);
        await saveSession(grant, base ? { base } : {});
        announce(`Organizer access to ${grant.name || "the event"} restored on this device`);
        navigate(`#/event/${grant.event_id}/staff`);
      } catch (err) {
        const text = String(err.message);
        message.textContent = text.charAt(0).toUpperCase() + text.slice(1);
      }
    },
  },
  h("h2", { id: "recover-title" }, "I'm the organizer: recover with a code"),
  h("p", { class: "hint" }, "Lost or broken the device you ran the event on? Type the recovery code you printed "
    + "or wrote down when you created it. This device becomes an organizer device; the code is then used up, so print a new one."),
  field("Recovery code", code), field("Name for this device", deviceName, "Shown on the Staff screen's device list."),
  h("button", { type: "submit", id: "recover-submit" }, "Recover organizer access"), message);
  return form;
}

/** The "Import an event file" form: a topcut-event/1 file becomes a new event with this device its organizer. */
function importCard({ navigate }) {
  const file = h("input", { type: "file", id: "import-file", accept: ".json,application/json,.tdf", required: true });
  const importError = h("p", { class: "error", role: "alert", id: "import-error" });
  const importForm = h("form", {
    class: "card", "aria-labelledby": "import-title",
    onsubmit: async (e) => {
      e.preventDefault();
      importError.textContent = "";
      const chosen = file.files?.[0];
      if (!chosen) {
        importError.textContent = "Choose an event file (.json or a TOM .tdf) first.";
        return;
      }
      if (/\.tdf$/i.test(chosen.name)) {
        await importTom(chosen, navigate, importError);
        return;
      }
      try {
        const grant = await createEvent({ document: await readEventFile(chosen), label: "organizer device" });
        // The event starts from the server's copy of the document (its seed, its normal form), in hand
        // before the first fold: a base arriving with a later sync would not be folded in.
        await saveSession(grant, { name: grant.name, ruleset: grant.ruleset, base: await eventBase(grant),
          recovery_code: grant.recovery_code ?? null });
        announce(`Event ${grant.name} imported`);
        navigate(`#/event/${grant.event_id}/players`);
      } catch (err) {
        importError.textContent = `${chosen.name}: ${err.message}`;
      }
    },
  },
  h("h2", { id: "import-title" }, "Import an event file"),
  field("Event file (topcut-event/1 JSON, or a TOM save .tdf)", file, "A file downloaded from Topcut's Exports screen, "
    + "a TOM save file (.tdf) or a file written by other software. It becomes a new event with you as its organizer; "
    + "a TOM file is read on this device, so it works offline."),
  h("button", { type: "submit", id: "import-submit" }, "Import"), importError);
  return importForm;
}

async function mount(root, { navigate, join, light = false }) {
  const error = h("p", { class: "error", role: "alert" });
  const sessions = await allSessions();
  const createForm = createCard({ navigate, error, light });
  const joinForm = joinCard({ navigate, error, join });
  const importForm = importCard({ navigate });

  const mine = sessions.length
    ? h("ul", { class: "events" }, sessions.map((s) => eventItem(s, navigate)))
    : h("p", {}, "No events on this device yet.");
  const notice = takeNotice();

  replace(root,
    h("h1", {}, "Topcut"),
    notice ? h("p", { class: "notice", role: "status", id: "home-notice" }, notice) : null,
    error,
    h("div", { class: "grid" }, joinForm, createForm),
    h("section", { class: "card", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, "Events on this device"), mine),
    h("div", { class: "grid" }, importForm, recoverCard({ navigate })),
    h("p", {}, h("a", { href: "#/leagues", id: "leagues-link" }, "WCT leagues"), " — Star Trek league points, playoffs and tables."));
  if (join) joinForm.requestSubmit();
  return {};
}

/** The file's JSON, or an error naming what is wrong with it (the server names what is wrong inside). */
async function readEventFile(chosen) {
  if (chosen.size > 8 * 1024 * 1024) throw new Error("the file is larger than 8 MiB, more than the server accepts");
  let doc;
  try {
    doc = JSON.parse(await chosen.text());
  } catch (err) {
    throw new Error(`not a JSON file (${err.message})`, { cause: err });
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) {
    throw new Error("expected a topcut-event/1 document (a JSON object)");
  }
  if (doc.format === "topcut-backup/1") {
    throw new Error("this is a server backup (topcut-backup/1), not an event file: restore it on the server "
      + "(flask --app backend topcut-restore FILE, README: Backups)");
  }
  return doc;
}

/** An event held on this device: open it, or remove it from this device (with a confirm step). */
function eventItem(s, navigate) {
  const item = h("li", { dataset: { event: s.event_id } });
  const draw = async (asking) => {
    const open = [h("a", { href: `#/event/${s.event_id}` }, `${s.name || s.event_id}`),
      ` — ${s.role}${s.player ? ` (${s.player})` : ""} `];
    if (!asking) {
      replace(item, open, h("button", { type: "button", class: "small", dataset: { action: "remove-local" },
        onclick: () => draw(true) }, "Remove from this device"));
      return;
    }
    const waiting = await unsentCount(s.event_id);
    replace(item, open, h("p", { class: "warning" },
      `Remove “${s.name || s.event_id}” from this device? It stays on the server. `,
      waiting ? h("strong", {}, `${waiting} change${waiting === 1 ? "" : "s"} not yet synced will be lost. `) : null,
      s.role === "organizer" ? "Without another organizer device nobody can manage it any more. " : null,
      h("button", { type: "button", class: "small danger", dataset: { action: "confirm-remove-local" },
        onclick: () => forgetHere(s.event_id, `Event “${s.name || s.event_id}” was removed from this device.`, navigate) }, "Remove"), " ",
      h("button", { type: "button", class: "small", onclick: () => draw(false) }, "Cancel")));
  };
  draw(false);
  return item;
}

export default { mount };

// The event's settings (#/event/ID/settings), for the organizer: drawn from what the event's game declares
// (rules_api ruleset_info()["settings"], shared_rules/games/settings.py): each setting's label, hint, limits and
// document section, with the documents' warnings beside it and the document's structure table beside the
// organizer's choice (rules_api settings_review). Saving sends one event.configure with the changed keys;
// a refusal is shown here, in words naming the field, and what the organizer typed stays.
import { rulesetTitle } from "../app/games.js";
import { engineTables, rules } from "../app/services.js";
import { announce, h, refresh, replace } from "../ui/dom.js";

const REVIEW_DELAY_MS = 250;
const same = (a, b) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
/** A value no choice lists (an imported TOM kind, say), in words: "type 1, mode PREMIER". */
const shown = (v) => (v && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${k} ${x}`).join(", ") : String(v));
const words = (text) => String(text || "").replace(/^event\.configure:\s*/, "");

/** One setting's input; `read()` gives its value (undefined: not set), `el` is the labelled field. */
function control(f, value, disabled, idPrefix = "setting", bare = false) {
  const id = `${idPrefix}-${f.key}`;
  const source = f.source ? h("span", { class: "source" }, ` (${f.source})`) : null;
  const hint = h("small", {}, f.hint, source);
  const notices = h("ul", { class: "notices", dataset: { key: f.key } });
  if (f.kind === "group") return groupControl(f, value, disabled, id, notices, bare);
  if (f.kind === "points") return pointsControl(f, value, disabled, id, hint, notices);
  if (f.kind === "order") return orderControl(f, value, disabled, id, hint, notices);
  let input;
  let read;
  if (f.kind === "toggle") {
    input = h("input", { type: "checkbox", id, checked: value === true, disabled });
    read = () => (input.checked ? true : value === undefined ? undefined : false);
    return { read, notices, el: h("div", { class: "field check", dataset: { setting: f.key } },
      h("label", { for: id }, input, f.label), hint, notices) };
  }
  if (f.kind === "choice") {
    const choices = f.choices.map((c) => c.value);
    const listed = value === undefined || choices.some((c) => same(c, value));
    const options = [h("option", { value: "" }, f.unset ? `Not set: ${f.unset}` : "Not set"),
      ...f.choices.map((c, i) => h("option", { value: String(i), selected: same(c.value, value) }, c.label))];
    if (!listed) options.push(h("option", { value: "kept", selected: true }, `As it is: ${shown(value)}`));
    input = h("select", { id, disabled }, options);
    read = () => (input.value === "" ? undefined : input.value === "kept" ? value : choices[Number(input.value)]);
  } else if (f.kind === "number") {
    input = h("input", { type: "number", inputmode: "numeric", id, disabled, step: "1", value: value ?? "",
      min: f.min ?? null, max: f.max ?? null, placeholder: f.unset || "" });
    read = () => (input.value.trim() === "" ? undefined : Number(input.value));
  } else {
    input = h("input", { type: f.kind === "date" ? "date" : "text", id, disabled, value: value ?? "", maxlength: "200",
      placeholder: f.unset || "" });
    read = () => (input.value.trim() === "" ? undefined : input.value.trim());
  }
  return { read, notices, el: h("div", { class: "field", dataset: { setting: f.key } }, h("label", { for: id }, f.label),
    input, hint, notices) };
}

/** A table of whole numbers by word (settings.points): one number per offered word, and any other word it holds. */
function pointsControl(f, value, disabled, id, hint, notices) {
  const given = value && typeof value === "object" ? value : {};
  const words = [...f.choices.map((c) => [c.value, c.label]),
    ...Object.keys(given).filter((k) => !f.choices.some((c) => c.value === k)).map((k) => [k, k.replace(/-/g, " ")])];
  const inputs = words.map(([key, label]) => [key, label, h("input", { type: "number", inputmode: "numeric", step: "1",
    id: `${id}-${key}`, disabled, value: given[key] ?? "", min: f.min ?? null, max: f.max ?? null, class: "narrow" })]);
  const read = () => {
    const out = {};
    for (const [key, , input] of inputs) if (input.value.trim() !== "") out[key] = Number(input.value);
    return Object.keys(out).length ? out : undefined;
  };
  return { read, notices, el: h("fieldset", { class: "setting-group points-table", dataset: { setting: f.key } },
    h("legend", {}, f.label), hint, notices, f.unset ? h("p", { class: "hint" }, `All empty: ${f.unset}.`) : null,
    h("div", { class: "points-grid" }, inputs.map(([key, label, input]) =>
      h("div", { class: "field", dataset: { outcome: key } }, h("label", { for: input.id }, label), input)))) };
}

/** An ordered list of some of a setting's choices (settings.tiebreakers): add one, move it up or down, take it out. */
function orderControl(f, value, disabled, id, hint, notices) {
  let chosen = Array.isArray(value) ? [...value] : [];
  const labelOf = (key) => f.choices.find((c) => c.value === key)?.label ?? String(key);
  const list = h("ol", { id: `${id}-list`, class: "order-list" });
  const adder = h("select", { id: `${id}-add`, disabled });
  const el = h("fieldset", { class: "setting-group order-setting", dataset: { setting: f.key } }, h("legend", {}, f.label),
    hint, notices, list,
    h("div", { class: "field inline" }, h("label", { for: adder.id }, "Add"), adder,
      h("button", { type: "button", class: "small", id: `${id}-add-button`, disabled, onclick: () => {
        if (adder.value === "") return;
        chosen.push(f.choices[Number(adder.value)].value);
        changed();
      } }, "Add")));
  const changed = () => {
    draw();
    el.dispatchEvent(new Event("change", { bubbles: true }));  // the form reviews the settings again
  };
  const move = (i, by) => {
    const [key] = chosen.splice(i, 1);
    chosen.splice(i + by, 0, key);
    changed();
  };
  const draw = () => {
    replace(list, chosen.length ? chosen.map((key, i) => h("li", { dataset: { key } }, h("span", {}, labelOf(key)), " ",
      h("button", { type: "button", class: "small", disabled: disabled || i === 0, "aria-label": `Move ${labelOf(key)} up`,
        onclick: () => move(i, -1) }, "Up"),
      h("button", { type: "button", class: "small", disabled: disabled || i === chosen.length - 1,
        "aria-label": `Move ${labelOf(key)} down`, onclick: () => move(i, 1) }, "Down"),
      h("button", { type: "button", class: "small", disabled, "aria-label": `Take out ${labelOf(key)}`,
        onclick: () => { chosen = chosen.filter((_, j) => j !== i); changed(); } }, "Take out")))
      : h("li", { class: "hint" }, f.unset ? `None chosen: ${f.unset}.` : "None chosen."));
    replace(adder, h("option", { value: "" }, "Choose one…"),
      f.choices.map((c, i) => (chosen.includes(c.value) ? null : h("option", { value: String(i) }, c.label))));
  };
  draw();
  return { read: () => (chosen.length ? [...chosen] : undefined), notices, el };
}

/** A group of settings kept in one object (settings.rating): its own keys beside what the screen offers stay. */
function groupControl(f, value, disabled, id, notices, bare) {
  const given = value && typeof value === "object" ? value : {};
  const parts = f.fields.map((sub) => [sub.key, control(sub, given[sub.key], disabled, id)]);
  const read = () => {
    const out = { ...given };
    for (const [key, part] of parts) {
      const v = part.read();
      if (v === undefined) delete out[key]; else out[key] = v;
    }
    return Object.keys(out).length ? out : undefined;
  };
  // A section holding this group alone already has its title: no second legend (bare).
  return { read, notices, el: h(bare ? "div" : "fieldset", { class: "setting-group", dataset: { setting: f.key } },
    bare ? null : h("legend", {}, f.label), f.hint ? h("p", { class: "hint" }, f.hint, f.source ? ` (${f.source})` : "") : null,
    notices, parts.map(([, part]) => part.el)) };
}

/** The document's table for the players who count, beside the structure the organizer chooses. */
function tableView(review) {
  const t = review.table || {};
  if (t.error) return h("p", { class: "hint", id: "settings-table" }, "The document's table: none for so few players.");
  const n = t.shown_for ?? review.players;
  const few = n > review.players ? ` (${review.players} registered so far; the table starts at ${n})` : "";
  const cut = t.cut ? `, then a top ${t.cut}` : ", no cut";
  const elim = t.elimination?.rounds ? ` (${t.elimination.rounds} elimination round${t.elimination.rounds === 1 ? "" : "s"})` : "";
  return h("aside", { class: "structure-table", id: "settings-table" },
    h("strong", {}, `The document's table for ${n} player${n === 1 ? "" : "s"}${few}: `),
    `${t.swiss_rounds} Swiss round${t.swiss_rounds === 1 ? "" : "s"}${cut}${elim}.`,
    t.pods?.length ? ` Pods of ${t.pods.join(", ")}.` : "",
    t.source ? h("small", {}, ` ${t.source}`) : null,
    divisionLines(review.divisions),
    t.notes?.length ? h("ul", { class: "hint" }, t.notes.map((n) => h("li", {}, n))) : null);
}

/** Each age division's own table, when the season splits the players (Age-Separated pods or Age-Modified). */
function divisionLines(divisions) {
  if (!divisions?.length) return null;
  return h("div", {}, h("p", { class: "hint" }, "In this season each age division has its own table:"),
    h("ul", { id: "settings-divisions" }, divisions.map((d) => h("li", { dataset: { division: d.division } },
    h("strong", {}, `${d.label} (${d.players}): `),
    `${d.swiss_rounds} Swiss round${d.swiss_rounds === 1 ? "" : "s"}${d.cut ? `, top ${d.cut}` : ", no cut"}`))));
}

function noticeItem(n) {
  return h("li", { class: n.level === "info" ? "info" : "warning" }, n.text, n.source ? h("small", {}, ` (${n.source})`) : null);
}

/** The form for one ruleset and settings: the event's name and game, then the game's sections. */
function buildForm(state, info, review, disabledAll) {
  const locked = review.locked || {};
  const parts = new Map();
  const name = h("input", { type: "text", id: "setting-name", value: state.name || "", maxlength: "200", disabled: disabledAll });
  const game = h("select", { id: "setting-ruleset", disabled: disabledAll || Boolean(locked.ruleset) },
    engineTables.rulesets.map((r) => h("option", { value: r.id, selected: r.id === review.ruleset }, r.title)));
  const head = h("fieldset", { class: "card", dataset: { section: "event-name" } }, h("legend", {}, "Name and game"),
    h("div", { class: "field" }, h("label", { for: "setting-name" }, "Event name"), name),
    h("div", { class: "field", dataset: { setting: "ruleset" } }, h("label", { for: "setting-ruleset" }, "Game"), game,
      h("small", {}, locked.ruleset || "Changing the game starts its own settings; possible until round 1 is paired.")));
  const table = h("div", { class: "table-slot" });
  const sections = (info.settings?.sections || []).map((section) => {
    const fields = section.fields.map((f) => {
      const reason = locked[f.key];
      const bare = section.fields.length === 1 && f.kind === "group";
      const part = control(f, state.settings?.[f.key], disabledAll || Boolean(reason), "setting", bare);
      parts.set(f.key, part);
      return [part.el, reason ? h("p", { class: "hint locked" }, reason) : null];
    });
    const hasStructure = section.fields.some((f) => f.key === "rounds" || f.key === "structure");
    return h("fieldset", { class: "card settings-section", dataset: { section: section.title } }, h("legend", {}, section.title),
      section.hint ? h("p", { class: "hint" }, section.hint) : null,
      hasStructure ? h("div", { class: "structure-pair" }, h("div", {}, fields), table) : fields);
  });
  const changes = () => {
    const out = {};
    for (const [key, part] of parts) {
      const now = part.read();
      const before = state.settings?.[key];
      if (!same(now, before)) out[key] = now === undefined ? null : now;
    }
    return out;
  };
  const labels = new Map((info.settings?.sections || []).flatMap((sec) => sec.fields.map((f) => [f.key, f.label])));
  return { els: [head, ...sections], name, game, parts, table, changes, labels };
}

/** The one event.configure payload: the changed settings, the name and the game where they changed. */
function payloadOf(form, state) {
  const payload = {};
  const changes = form.changes();
  if (Object.keys(changes).length) payload.settings = changes;
  const name = form.name.value.trim();
  if (name && name !== state.name) payload.name = name;
  if (form.game.value !== state.ruleset) payload.ruleset = form.game.value;
  return payload;
}

/** "6 players count for the tables; round 1 is not paired yet." */
function progressText(out) {
  const s = (n) => (n === 1 ? "" : "s");
  return `${out.players} player${s(out.players)} count for the tables`
    + (out.rounds_paired ? `; ${out.rounds_paired} Swiss round${s(out.rounds_paired)} paired.` : "; round 1 is not paired yet.")
    + (out.locked["*"] ? ` ${out.locked["*"]}` : "");
}

async function mount(root, { store }) {
  const error = h("p", { class: "error", role: "alert", id: "settings-error" });
  const general = h("ul", { class: "warnings", id: "settings-warnings" });
  const formBox = h("div", {});
  const status = h("p", { class: "hint", id: "settings-status" });
  const saved = h("p", { class: "ok", role: "status", id: "settings-saved" });
  const save = h("button", { type: "submit", class: "primary", id: "save-settings" }, "Save settings");
  let built = null;  // {key, form}: the form drawn for one ruleset and settings
  let timer = null;

  const draw = async (force) => {
    const state = store.state;
    const key = JSON.stringify([state.ruleset, state.settings, state.name, state.rounds.length > 0, state.closed]);
    const edited = built && (Object.keys(built.form.changes()).length || built.form.name.value !== (state.name || "")
      || built.form.game.value !== state.ruleset);
    if (built && !force && (built.key === key || edited)) return review();
    const info = await rules("ruleset_info", { ruleset: state.ruleset, settings: state.settings });
    const first = await rules("settings_review", { event_id: store.eventId });
    const form = buildForm(state, info, first, Boolean(state.closed));
    built = { key, form };
    form.game.addEventListener("change", () => switchGame(form.game.value));
    replace(formBox, ...form.els);
    save.disabled = Boolean(state.closed);
    return review();
  };

  /** Another game chosen (before round 1): its own settings, drawn from its descriptor. */
  const switchGame = async (ruleset) => {
    const state = store.state;
    const info = await rules("ruleset_info", { ruleset, settings: {} });
    const first = await rules("settings_review", { event_id: store.eventId, ruleset });
    const name = built.form.name.value;
    const form = buildForm({ ...state, name, settings: state.settings }, info, first, false);
    form.game.value = ruleset;
    form.game.addEventListener("change", () => switchGame(form.game.value));
    built = { key: built.key, form };
    replace(formBox, ...form.els);
    review();
  };

  const review = async () => {
    if (!built) return null;
    const { form } = built;
    const out = await rules("settings_review", { event_id: store.eventId, changes: form.changes(), ruleset: form.game.value });
    refresh(form.table, tableView(out));
    const byKey = new Map();
    const rest = [];
    for (const n of out.warnings) (form.parts.has(n.key) ? (byKey.get(n.key) || byKey.set(n.key, []).get(n.key)) : rest).push(n);
    for (const [key, part] of form.parts) replace(part.notices, (byKey.get(key) || []).map(noticeItem));
    replace(general, rest.map(noticeItem));
    for (const [key, part] of form.parts) part.el.classList.toggle("invalid", key === out.error_key);
    for (const [key, words] of Object.entries(out.defaults || {})) {
      const input = form.parts.get(key)?.el.querySelector("input[type=number]");
      if (input) input.placeholder = words;
    }
    status.textContent = progressText(out);
    return out;
  };

  /** What the organizer types is reviewed a moment later (warnings, the table); a saved note no longer holds. */
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(review, REVIEW_DELAY_MS);
    saved.textContent = "";
  };

  const onSave = async (e) => {
    e.preventDefault();
    if (!built) return;
    const { form } = built;
    const payload = payloadOf(form, store.state);
    if (!Object.keys(payload).length) {
      error.textContent = "";
      announce("Nothing changed");
      saved.textContent = "Nothing to save: no setting was changed.";
      return;
    }
    const out = await review();
    if (out?.error) {
      error.textContent = `Not saved: ${words(out.error)}`;
      const wrong = out.error_key && form.parts.get(out.error_key);
      wrong?.el.querySelector("input, select")?.focus();
      return;
    }
    // Asked of the rules first, so a refusal leaves nothing in the outbox to be refused again by the server.
    const s = store.session;
    const check = await rules("check_op", { event_id: store.eventId, op: {
      type: "event.configure", op_id: `${s.device}:${s.next_seq}`, device: s.device, actor: store.actor(), at: store.now(), payload,
    } });
    if (!check.ok) {
      error.textContent = `Not saved: ${words(check.reason)}`;
      return;
    }
    const { refused } = await store.act("event.configure", payload);
    if (refused) {
      error.textContent = `Not saved: ${words(refused)}`;
      return;
    }
    error.textContent = "";
    announce("Settings saved");
    const named = Object.keys(payload.settings || {}).map((key) => form.labels.get(key) || key);
    await draw(true);
    saved.textContent = `Saved: ${[...named, ...(payload.name ? ["event name"] : []),
      ...(payload.ruleset ? [`game (${rulesetTitle(payload.ruleset)})`] : [])].join(", ")}.`;
  };

  const form = h("form", { id: "settings-form", novalidate: true, onsubmit: onSave,
    oninput: later, onchange: later },
  general, formBox, error, h("p", { class: "actions save-bar" }, save), saved, status);
  replace(root, h("h1", {}, "Event settings"),
    h("p", { class: "hint" }, "What the rules use for this event, as its game's documents describe it. Saved for every "
      + "device; empty fields follow the documents."), form);
  // A rules engine that fails (restarting, say) leaves the form as it is, and says so.
  const update = () => draw(false).catch((err) => {
    error.textContent = `The settings cannot be checked on this device right now (${err.message}); try again in a moment.`;
  });
  return { update };
}

export default { mount };

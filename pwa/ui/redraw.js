// Redraws, with no framework: replace() for the redraws the user asked for (open,
// close, cancel) and refresh() for the ones the data asks for, which keep what
// people type.
//
// Screens redraw whole sections when the data changes (a sync brings someone
// else's entries every few seconds), and a redraw builds fresh inputs. So that
// nobody loses what they are typing, data-driven redraws go through refresh():
//   * a section holding the focused field is not redrawn until the focus leaves
//     it (the newest content waits; an on-screen keyboard stays up);
//   * a section being pressed (mouse, finger, pen) is not redrawn until the
//     click has landed;
//   * in a redrawn section, every field the user changed and did not submit
//     gets its value back in its counterpart (found by the field's name, id,
//     label or aria-label, within the cards around it), and so does the cursor;
//     a select given back its value fires "change" with `detail.restored`;
//   * a <details> the user opened or closed (its summary clicked or keyed) is
//     drawn open or closed as they left it, so "Another cut size" does not
//     fold up under the organizer when a sync arrives.
//
// The document-wide listeners that notice edits, submits and presses are set up
// when the module loads in a page (tests/js/redraw.test.mjs runs it on happy-dom).

/** Append children (nested arrays, strings, numbers, nodes; null, undefined and false skipped). */
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Put these children in place of the element's own (a redraw the user asked for). */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

const edited = new WeakSet();
const toggled = new WeakSet();  // <details> the user opened or closed
const submitted = new WeakSet();  // forms just sent: their section may redraw under the focus (it starts afresh)
const TEXT_TYPES = new Set(["text", "search", "number", "email", "tel", "url", "password", "date", "time", "datetime-local"]);

function isField(el) {
  return el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement
    || (el instanceof HTMLInputElement && !["button", "submit", "reset", "hidden", "image", "file"].includes(el.type));
}

/** Typing fields: the ones a redraw must not pull out from under the keyboard. */
function isTyping(el) {
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
    || (el instanceof HTMLInputElement && TEXT_TYPES.has(el.type));
}

if (typeof document !== "undefined") {
  const mark = (event) => {
    if (!isField(event.target)) return;
    edited.add(event.target);
    if (event.target.form) submitted.delete(event.target.form);
  };
  document.addEventListener("input", mark, true);
  document.addEventListener("change", mark, true);
  // A summary clicked (or keyed: Enter and Space click it): its <details> is open or closed as the user wants.
  document.addEventListener("click", (event) => {
    const summary = /** @type {any} */ (event.target)?.closest?.("summary");
    if (summary?.parentElement?.tagName === "DETAILS") toggled.add(summary.parentElement);
  }, true);
  // Submitted: the form's values are on their way (a redraw after it starts afresh).
  document.addEventListener("submit", (event) => {
    for (const el of /** @type {any} */ (event.target).elements || []) edited.delete(el);
    submitted.add(event.target);
  }, true);
}

// A press (mouse, finger, pen) in a section holds its redraw until the click
// has landed: a redraw between press and release would swallow the tap.
let pressed = null;
const heldForPress = new Map();
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", (event) => { pressed = event.target; }, true);
  const release = () => setTimeout(() => {
    pressed = null;
    const held = [...heldForPress];
    heldForPress.clear();
    for (const [el, children] of held) if (el.isConnected) refresh(el, ...children);
  }, 0);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);
}

/** Whether the user changed this field since it was drawn (or last submitted). */
export function isEdited(el) {
  return edited.has(el);
}

/** Treat the field as not changed by the user: the next redraw does not give its value back. */
export function forgetEdits(el) {
  edited.delete(el);
}

const RANDOM_ID = /^f-[a-z0-9]{7}$/;  // field()'s made-up ids say nothing
const IDENTITY = ["table", "round", "player", "seq", "code"];  // data-* that name a thing (not its status)

function ownKey(el) {
  if (el.name) return `name=${el.name}`;
  if (el.id && !RANDOM_ID.test(el.id)) return `id=${el.id}`;
  if (el.getAttribute("aria-label")) return `aria=${el.getAttribute("aria-label")}`;
  const text = el.labels?.[0]?.textContent?.trim();
  if (text) return `label=${text}`;
  return `${el.tagName}:${el.type || ""}`;
}

function scopeKey(el, root) {
  const parts = [];
  for (let node = el.parentElement; node && node !== root; node = node.parentElement) {
    if (node.id && !RANDOM_ID.test(node.id)) parts.push(`#${node.id}`);
    else if (IDENTITY.some((k) => k in node.dataset)) parts.push(IDENTITY.map((k) => node.dataset[k] ?? "").join("/"));
    else if (node.tagName === "FORM" || node.tagName === "FIELDSET" || node.tagName === "SECTION") {
      const heading = node.querySelector(":scope > h2, :scope > h3, :scope > legend");
      if (heading) parts.push(heading.textContent.trim());
    }
  }
  return parts.reverse().join(" > ");
}

function buttonKey(el) {
  if (el.id && !RANDOM_ID.test(el.id)) return `id=${el.id}`;
  return `button=${el.getAttribute("aria-label") || el.textContent.trim()}`;
}

/** The elements, each keyed by its place under `root` and `keyOf`, numbered where that key repeats: the key
 * its counterpart in a redraw has too. */
function keyed(root, elements, keyOf) {
  const seen = new Map();
  const out = [];
  for (const el of elements) {
    const base = `${scopeKey(el, root)} | ${keyOf(el)}`;
    const n = seen.get(base) || 0;
    seen.set(base, n + 1);
    out.push([`${base} | ${n}`, el]);
  }
  return out;
}

/** Each <details> under `root`, keyed by its id, or its class and summary. */
function keyedDetails(root) {
  return keyed(root, root.querySelectorAll("details"), (el) => (el.id && !RANDOM_ID.test(el.id) ? `id=${el.id}`
    : `details=${el.className} ${el.querySelector(":scope > summary")?.textContent.trim() ?? ""}`));
}

/** Each field (and button, for the focus) under `root`, keyed. */
function keyedFields(root) {
  const elements = [...root.querySelectorAll("input, select, textarea, button")]
    .filter((el) => el instanceof HTMLButtonElement || isField(el));
  return keyed(root, elements, (el) => (el instanceof HTMLButtonElement ? buttonKey(el) : ownKey(el)));
}

function redraw(el, children) {
  const saved = new Map();
  const active = document.activeElement;
  let focusKey = null;
  for (const [key, field] of keyedFields(el)) {
    if (!(field instanceof HTMLButtonElement) && edited.has(field)) {
      saved.set(key, { value: field.value, checked: field.checked,
                       selection: isTyping(field) && field === active && typeof field.selectionStart === "number"
                         ? [field.selectionStart, field.selectionEnd] : null });
    }
    if (field === active) focusKey = key;
  }
  const opened = new Map();
  for (const [key, details] of keyedDetails(el)) if (toggled.has(details)) opened.set(key, details.open);
  replace(el, ...children);
  if (opened.size) {
    for (const [key, details] of keyedDetails(el)) {
      if (!opened.has(key)) continue;
      details.open = opened.get(key);
      toggled.add(details);
    }
  }
  for (const [key, field] of keyedFields(el)) {
    const old = saved.get(key);
    if (old) {
      if (field.type === "checkbox" || field.type === "radio") field.checked = old.checked;
      else if (!(field instanceof HTMLSelectElement) || [...field.options].some((o) => o.value === old.value)) field.value = old.value;
      edited.add(field);
      // What a select drives (a preview, a total) follows it again; marked so handlers can tell.
      if (field instanceof HTMLSelectElement) field.dispatchEvent(new CustomEvent("change", { detail: { restored: true } }));
    }
    if (key === focusKey && document.activeElement !== field) {
      field.focus({ preventScroll: true });
      if (old?.selection) {
        try { field.setSelectionRange(...old.selection); } catch { /* not every type has a selection */ }
      }
    }
  }
  return el;
}

const pending = new WeakMap();

function cancelPending(el) {
  const waiting = pending.get(el);
  if (!waiting) return;
  el.removeEventListener("focusout", waiting.listener);
  pending.delete(el);
  delete el.dataset.redrawWaiting;
}

/**
 * Redraw a section because the data changed, keeping what the user typed in it
 * (see above). Use replace() for redraws the user asked for (open, close, cancel).
 */
export function refresh(el, ...children) {
  if (pressed && el.contains(pressed)) {
    heldForPress.set(el, children);
    return el;
  }
  heldForPress.delete(el);
  const active = document.activeElement;
  if (active && el.contains(active) && isTyping(active) && !(/** @type {any} */ (active).form && submitted.has(/** @type {any} */ (active).form))) {
    const waiting = pending.get(el);
    if (waiting) {
      waiting.children = children;
      return el;
    }
    const entry = { children };
    entry.listener = (event) => {
      // Still inside (the next field, or the form's button: its click must find it where it was).
      if (event.relatedTarget && el.contains(event.relatedTarget)) return;
      cancelPending(el);
      setTimeout(() => { if (el.isConnected && !pending.has(el)) redraw(el, entry.children); }, 0);
    };
    pending.set(el, entry);
    el.addEventListener("focusout", entry.listener);
    el.dataset.redrawWaiting = "yes";
    return el;
  }
  cancelPending(el);
  return redraw(el, children);
}


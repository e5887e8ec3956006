// Deck lists on screen and on paper: the typed form (one box per section the game declares,
// rules_api.ruleset_info()["ui"]["decklists"]), the problems the rules found, a list read-only to compare
// with the deck on the table, and the printable page. No game is named here: the sections come from the engine.
import { h } from "./dom.js";

/** The lines of a section that count (blank lines and # or // comments skipped). */
const lines = (text) => String(text || "").split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#") && !l.startsWith("//"));

/** What a section's lines add up to: cards (or points) as "60 cards", "14 points". */
export function sectionTotal(section, text) {
  let total = 0;
  for (const line of lines(text)) {
    const m = /^(\d{1,4})\s*[xX×]?\s+\S/.exec(line);
    total += m ? Number(m[1]) : 1;
  }
  if (section.points) return `${lines(text).length} unit${lines(text).length === 1 ? "" : "s"}, ${total} points`;
  return `${total} card${total === 1 ? "" : "s"}`;
}

/** When the lists lock, in words ("when round 1 starts", or the deadline in this device's time). */
export function lockWords(view) {
  if (view.settings.deadline) {
    const at = new Date(view.settings.deadline).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    return view.locked ? `locked at the deadline (${at})` : `lock at ${at}`;
  }
  if (view.lock_at !== null) return "locked when round 1 started";
  return "lock when round 1 starts";
}

/**
 * The list form: a labelled box per section (its hint and the document's counts beside it), with the current
 * totals. ``idPrefix`` keeps two forms on one page apart. Returns {el, values(), boxes}.
 */
export function listForm(spec, sections, { idPrefix = "list", onInput = null, disabled = false } = {}) {
  const boxes = new Map();
  const rows = spec.sections.map((s) => {
    const total = h("small", { class: "list-total", id: `${idPrefix}-${s.key}-total` }, sectionTotal(s, sections?.[s.key]));
    const box = h("textarea", { id: `${idPrefix}-${s.key}`, name: `${idPrefix}-${s.key}`, rows: s.maximum === 1 ? 1 : 6,
      disabled, spellcheck: false, autocapitalize: "words", oninput: () => {
        total.textContent = sectionTotal(s, box.value);
        onInput?.();
      } });
    box.value = sections?.[s.key] || "";
    boxes.set(s.key, box);
    const counts = countsText(s);
    return h("div", { class: "field list-section", dataset: { section: s.key } },
      h("label", { for: box.id }, s.label, s.required ? "" : " (optional)"), box,
      h("small", {}, s.hint, counts ? ` ${counts}` : ""), total);
  });
  const values = () => Object.fromEntries([...boxes].map(([key, box]) => [key, box.value]));
  return { el: h("div", { class: "list-form" }, rows), values, boxes };
}

/** The document's counts for a section, in words with the source ("Exactly 7 (AGoT Deck Building)."). */
function countsText(s) {
  let text = "";
  if (s.minimum !== null && s.minimum === s.maximum) text = `Exactly ${s.minimum}.`;
  else if (s.minimum !== null && s.maximum !== null) text = `${s.minimum} to ${s.maximum}.`;
  else if (s.minimum !== null) text = `At least ${s.minimum}.`;
  else if (s.maximum !== null) text = `At most ${s.maximum}.`;
  if (s.copies !== null) text += ` At most ${s.copies} copies of a title.`;
  return text && s.source ? `${text.trim()} (${s.source})` : text.trim();
}

/** The problems the rules found in a list, each with the document section (or "set by the organizer"). */
export function problemList(problems, id = "list-problems") {
  if (!problems.length) return h("p", { class: "ok", id }, "No problem found (counts, sections, repeated lines).");
  return h("ul", { class: "list-problems", id }, problems.map((p) => h("li", { class: "warn", dataset: { code: p.code } },
    p.message, p.source ? h("small", {}, ` — ${p.source === "organizer" ? "set by the organizer" : p.source}`) : null)));
}

/** A list read-only, section by section with its totals: to compare with the deck on the table, or to print. */
export function listSheet(spec, sections, attrs = {}) {
  return h("div", { class: "list-sheet", ...attrs }, spec.sections.map((s) => {
    const rows = lines(sections?.[s.key]);
    return h("section", { class: "list-part", dataset: { section: s.key } },
      h("h3", {}, s.label, h("small", {}, ` · ${sectionTotal(s, sections?.[s.key])}`)),
      rows.length ? h("ul", {}, rows.map((l) => h("li", {}, l))) : h("p", { class: "muted" }, "— none —"));
  }));
}

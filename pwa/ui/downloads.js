// Files made on this device and saved through the browser (no network): CSV standings and pairings, the
// Star Trek report, claim slips.
import { announce, h } from "./dom.js";

/** Let the browser save ``text`` as a file called ``name`` (made on this device, no network). */
export function downloadText(name, text, type = "text/csv;charset=utf-8") {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from an event name: letters, digits and dashes. */
export function fileName(eventName, what, ext = "csv") {
  const base = String(eventName || "event").normalize("NFKD").replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-").replace(/^-+|-+$/g, "").toLowerCase() || "event";
  return `${base}-${what}.${ext}`;
}

/** A "Download CSV" button: ``make()`` resolves to the file's text (from the rules worker), CSV unless ``type`` says. */
export function downloadButton(label, id, make, filename, type = undefined) {
  const said = h("span", { class: "error", role: "alert" });
  const button = h("button", { type: "button", id, onclick: async () => {
    said.textContent = "";
    try {
      downloadText(filename(), await make(), type);
      announce(`${label}: saved`);
    } catch (err) {
      said.textContent = err.message;
    }
  } }, label);
  return h("span", { class: "download" }, button, " ", said);
}

// A TOM save file (.tdf) as a new event (Home's import, and the Exports tab of a Pokémon event): read by the rules
// worker on this device (rules_api tdf_import: no network), made an event of this device with it as organizer,
// sent to the server at the next sync like an event created here.
import { importLocalEvent, rules } from "../app/services.js";
import { announce, h } from "../ui/dom.js";

/**
 * A TOM save file (.tdf) read by the rules worker on this device (no network): a new event with this device its
 * organizer, sent to the server at the next sync, like an event created here.
 */
export async function importTom(chosen, navigate, importError) {
  try {
    if (chosen.size > 8 * 1024 * 1024) throw new Error("the file is larger than 8 MiB: is it really a TOM save?");
    const document = await rules("tdf_import", { text: await chosen.text(), at: Date.now() });
    const eventId = await importLocalEvent({ document });
    announce(`Event ${document.name} imported from ${chosen.name}`);
    navigate(`#/event/${eventId}/players`);
  } catch (err) {
    importError.textContent = `${chosen.name} could not be imported: ${err.message}`;
  }
}

/** "Start an event from a TOM file": a .tdf picked here becomes a new event (it opens on its Players screen). */
export function tomImportForm({ navigate }) {
  const file = h("input", { type: "file", id: "tom-import-file", accept: ".tdf" });
  const said = h("p", { class: "error", role: "alert", id: "tom-import-error" });
  return h("form", { class: "tom-import", onsubmit: async (e) => {
    e.preventDefault();
    said.textContent = "";
    const chosen = file.files?.[0];
    if (!chosen) {
      said.textContent = "Choose the .tdf file TOM saved first.";
      return;
    }
    await importTom(chosen, navigate, said);
  } }, h("div", { class: "field" }, h("label", { for: "tom-import-file" }, "Start a new event from a TOM file (.tdf)"), file),
  h("button", { type: "submit", id: "tom-import-submit" }, "Import as a new event"), said);
}

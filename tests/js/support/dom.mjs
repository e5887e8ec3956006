// A page for the DOM tests (happy-dom): the globals the app's modules use, set before they are imported.
import { Window } from "happy-dom";

export const window = new Window({ url: "http://localhost/" });

for (const name of ["document", "Node", "HTMLElement", "HTMLInputElement", "HTMLSelectElement", "HTMLTextAreaElement",
  "HTMLButtonElement", "CustomEvent"]) {
  globalThis[name] = window[name];
}

/** What a person's typing does to a field: the value, then the input event (which bubbles to the document). */
export function type(field, value) {
  field.value = value;
  field.dispatchEvent(new window.Event("input", { bubbles: true }));
}

export function choose(select, value) {
  select.value = value;
  select.dispatchEvent(new window.Event("change", { bubbles: true }));
}

// Progress of a long batch on one screen (a pasted or imported roster): a bar, a count in words, and the
// button that started it saying the same ("Registering 192 of 512…") while it is disabled.
import { h } from "./dom.js";

/**
 * A progress line for batches started by ``button``. ``start(total)`` shows it, ``step(done, total)`` moves it,
 * ``finish()`` hides it and gives the button its text back. ``verb``: what the batch does ("Registering").
 */
export function batchProgress(button, verb = "Registering") {
  const bar = h("progress", { max: "1", value: "0", "aria-hidden": "true" });
  const text = h("span", { class: "progress-text" });
  const el = h("p", { class: "batch-progress", role: "status", "aria-live": "polite", hidden: true }, bar, " ", text);
  let label = null;
  const show = (done, total) => {
    bar.max = total;
    bar.value = done;
    text.textContent = `${done} of ${total} done on this device; the server gets them with the next sync.`;
    button.textContent = `${verb} ${done} of ${total}…`;
  };
  return {
    el,
    get busy() { return label !== null; },
    start(total) {
      label = label ?? button.textContent;
      button.disabled = true;
      el.hidden = false;
      show(0, total);
    },
    step: show,
    finish() {
      if (label !== null) button.textContent = label;
      label = null;
      button.disabled = false;
      el.hidden = true;
    },
  };
}

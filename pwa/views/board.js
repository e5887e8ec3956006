// Big screen for the hall: the clock, pairings by table and by name, standings.
import { alphabetical, byTable, postedRound } from "../pairings.js";
import { rules } from "../rules-client.js";
import { timerPanel } from "../timer.js";
import { h, replace } from "../ui.js";
import { standingsTable } from "./standings.js";

async function mount(root, { store }) {
  document.body.classList.add("board-mode");
  const clockBox = timerPanel(store, { big: true });
  const body = h("div", { class: "board" });
  replace(root, h("h1", { class: "sr-only" }, "Big screen"), clockBox.el, body);
  return {
    async update() {
      const st = store.state;
      const rnd = postedRound(st);
      const data = await rules("standings", { event_id: store.eventId });
      replace(body, rnd ? h("div", { class: "board-cols" }, byTable(st, rnd), alphabetical(st, rnd)) : h("p", {}, "Pairings are not posted yet."),
        standingsTable(st, data, { big: true }));
    },
    destroy() {
      clockBox.stop();
      document.body.classList.remove("board-mode");
    },
  };
}

export default { mount };

// The elimination bracket, from shared_rules.brackets.bracket_view.
import { rules } from "../app/services.js";
import { h, nameOf, replace } from "../ui/dom.js";

async function mount(root, { store }) {
  const body = h("div", { class: "bracket" });
  replace(root, h("h1", {}, "Bracket"), body);
  return {
    async update() {
      const st = store.state;
      // A player's phone runs no rules engine: its matches (the cut's too) are on "My table".
      const view = store.light ? { rounds: [], note: "The bracket is on the big screen and the organizer's screens; your own "
        + "cut matches show on My table." }
        : await rules("bracket", { event_id: store.eventId }).catch((e) => ({ rounds: [], note: e.message }));
      if (!view.rounds.length) {
        replace(body, h("p", {}, view.note || "No cut yet."));
        return;
      }
      replace(body, h("div", { class: "bracket-rounds" }, view.rounds.map((r) => h("section", { class: "bracket-round" },
        h("h2", {}, `${r.name}${r.best_of ? ` (best of ${r.best_of})` : ""}`),
        h("ol", {}, r.slots.map((s) => h("li", { class: s.decided ? "decided" : "" },
          s.players.length ? s.players.map((p) => h("div", { class: p.player === s.winner ? "winner" : "" }, `(${p.seed}) ${nameOf(st, p.player)}`))
            : (s.from || [null, null]).map((k) => h("div", { class: "to-come" }, k ? `Winner of match ${k}` : "To be decided")),
          s.bye ? h("small", {}, "bye") : null)))))),
      view.champion ? h("p", { class: "champion" }, `Champion: ${nameOf(st, view.champion)}`) : null);
    },
  };
}

export default { mount };

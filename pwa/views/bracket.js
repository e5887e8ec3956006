// The elimination bracket, from shared_rules.brackets.bracket_view.
import { rules } from "../app/services.js";
import { h, nameOf, replace } from "../ui/dom.js";

async function mount(root, { store }) {
  const body = h("div", { class: "bracket" });
  replace(root, h("h1", {}, "Bracket"), body);
  return {
    async update() {
      // A player's phone runs no rules engine: the server's view carries the posted bracket and its names.
      const view = await (store.light ? store.ask("bracket") : rules("bracket", { event_id: store.eventId }))
        .catch((e) => ({ rounds: [], note: e.message }));
      const named = Object.entries(view.names || {}).map(([id, name]) => ({ id, name }));
      const st = named.length ? { ...store.state, players: [...(store.state?.players || []), ...named] } : store.state;
      if (!view.rounds.length) {
        replace(body, h("p", {}, view.note || "No cut yet."));
        return;
      }
      replace(body, h("div", { class: "bracket-rounds" }, view.rounds.map((r) => h("section", { class: "bracket-round" },
        h("h2", {}, `${r.name}${r.best_of ? ` (best of ${r.best_of})` : ""}`),
        h("ol", {}, r.slots.map((s) => h("li", { class: s.decided ? "decided" : "" },
          s.players.length ? s.players.map((p) => h("div", { class: p.player === s.winner ? "winner" : "" }, `${p.seed === null || p.seed === undefined ? "" : `(${p.seed}) `}${nameOf(st, p.player)}`))
            : (s.from || [null, null]).map((k) => h("div", { class: "to-come" }, k ? `Winner of match ${k}` : "To be decided")),
          s.bye ? h("small", {}, "bye") : null)))))),
      view.champion ? h("p", { class: "champion" }, `Champion: ${nameOf(st, view.champion)}`) : null);
    },
  };
}

export default { mount };

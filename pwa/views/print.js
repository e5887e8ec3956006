// Printouts: pairings by table and alphabetically, and one match slip per table (print CSS).
import { alphabetical, byTable, postedRound } from "../pairings.js";
import { h, nameOf, replace } from "../ui.js";

async function mount(root, { store }) {
  const body = h("div", { class: "printable" });
  replace(root, h("h1", { class: "no-print" }, "Print"),
    h("p", { class: "no-print" }, h("button", { type: "button", class: "primary", onclick: () => window.print() }, "Print")),
    body);
  return {
    update() {
      const st = store.state;
      const rnd = postedRound(st) || st.rounds[st.rounds.length - 1];
      if (!rnd) {
        replace(body, h("p", {}, "Nothing to print yet."));
        return;
      }
      const slips = rnd.matches.filter((m) => m.players.length > 1).map((m) => h("div", { class: "slip" },
        h("h3", {}, `${st.name} · Round ${rnd.number} · Table ${m.table}`),
        m.players.map((p) => h("p", { class: "slip-line" }, `${nameOf(st, p)}`, h("span", { class: "blank" }, "Result: ________  Signature: ____________"))),
        h("p", { class: "slip-line" }, "Judge: ____________")));
      replace(body, h("section", { class: "page" }, h("h2", {}, `${st.name}`), byTable(st, rnd)),
        h("section", { class: "page" }, alphabetical(st, rnd)),
        h("section", { class: "page slips" }, h("h2", {}, "Match slips"), slips));
    },
  };
}

export default { mount };

// Registration: add players (late entries too), check in, drop, reinstate, fixed tables, claim codes.
import { claims } from "../api.js";
import { randomId } from "../db.js";
import { rules } from "../rules-client.js";
import { announce, field, h, numberInput, problemNotice, refresh, replace } from "../ui.js";

async function mount(root, { store }) {
  const list = h("div", { class: "table-wrap" });
  const problems = h("div");
  const suggestion = h("p", { class: "suggestion", "aria-live": "polite" });
  const codes = h("div");
  const name = h("input", { type: "text", autocomplete: "off" });
  const bulk = h("textarea", { rows: "4", placeholder: "One name per line" });

  const register = async (names) => {
    for (const n of names) {
      await store.act("player.register", { player: { id: `p-${randomId(6)}`, name: n } });
    }
    announce(`${names.length} player${names.length === 1 ? "" : "s"} registered`);
  };

  const form = h("form", {
    class: "card", onsubmit: async (e) => {
      e.preventDefault();
      const names = [name.value, ...bulk.value.split("\n")].map((s) => s.trim()).filter(Boolean);
      if (!names.length) return;
      name.value = "";
      bulk.value = "";
      await register(names);
      name.focus();
    },
  }, h("h2", {}, "Register players"), field("Player name", name), field("Or several names", bulk),
  h("button", { type: "submit", class: "primary", id: "register" }, "Register"));

  const showCodes = async () => {
    try {
      const data = await claims(store.session);
      replace(codes, h("table", { class: "codes" }, h("caption", {}, "Claim codes (hand each player theirs)"),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Code"), h("th", { scope: "col" }, "Joined"))),
        h("tbody", {}, data.claims.map((c) => h("tr", { dataset: { player: c.player } }, h("td", {}, c.name),
          h("td", { class: "code" }, c.code), h("td", {}, c.redeemed ? "yes" : "no"))))));
    } catch (err) {
      replace(codes, h("p", { class: "error" }, err.message));
    }
  };

  replace(root, h("h1", {}, "Players"), problems,
    h("div", { class: "grid" }, form, h("section", { class: "card" }, h("h2", {}, "Structure"), suggestion,
      h("button", { type: "button", onclick: showCodes, id: "show-codes" }, "Show claim codes"), codes)),
    h("section", { "aria-labelledby": "roster" }, h("h2", { id: "roster" }, "Roster"), list));

  const act = (type, payload) => store.act(type, payload);

  return {
    async update() {
      const st = store.state;
      if (!st) return;
      replace(problems, store.problems().filter((p) => p.op.type.startsWith("player.")).map((p) => problemNotice(store, p)));
      const active = st.players.filter((p) => p.dropped_after === null).length;
      const rows = st.players.map((p) => {
        const dropped = p.dropped_after !== null;
        const fixed = numberInput({ value: p.extra.fixed_table ?? "", "aria-label": `Fixed table for ${p.name}`, class: "narrow" });
        fixed.addEventListener("change", () =>
          act("player.edit", { player: p.id, fields: { fixed_table: fixed.value ? Number(fixed.value) : null } }));
        return h("tr", { dataset: { player: p.id } },
          h("td", {}, p.entry), h("th", { scope: "row" }, p.name), h("td", {}, dropped ? `dropped after round ${p.dropped_after}` : p.checked_in ? "checked in" : "registered", p.late ? " (late)" : ""),
          h("td", {}, fixed),
          h("td", { class: "actions" },
            !dropped && h("button", { type: "button", class: "small", onclick: () => act("player.check_in", { player: p.id, checked_in: !p.checked_in }) },
              p.checked_in ? "Undo check-in" : "Check in"),
            !dropped && h("button", { type: "button", class: "small", onclick: () => act("player.drop", { player: p.id }) }, "Drop"),
            dropped && !p.ejected && h("button", { type: "button", class: "small", onclick: () => act("player.reinstate", { player: p.id }) }, "Reinstate")));
      });
      refresh(list, h("table", {}, h("caption", {}, `${st.players.length} registered, ${active} active`),
        h("thead", {}, h("tr", {}, ["#", "Name", "Status", "Fixed table", "Actions"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, rows)));
      if (st.ruleset) {
        const s = await rules("structure", { ruleset: st.ruleset, players: active });
        suggestion.textContent = s.error ? s.error : `${active} players: ${s.swiss_rounds} Swiss rounds`
          + (s.cut ? `, top ${s.cut} cut` : ", no cut") + (s.source ? ` (${s.source})` : "");
      }
    },
  };
}

export default { mount };

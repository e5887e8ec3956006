// Registration: add players (late entries too), check in, drop, reinstate, fixed tables, claim codes
// (listed from the server on every organizer, head judge and scorekeeper device; new code, revoke, print).
import { claims, reissueClaim, revokeClaim } from "../api.js";
import { randomId } from "../db.js";
import { rules } from "../rules-client.js";
import { announce, field, h, numberInput, problemNotice, refresh, replace } from "../ui.js";

async function mount(root, { store }) {
  const list = h("div", { class: "table-wrap" });
  const problems = h("div");
  const suggestion = h("p", { class: "suggestion", "aria-live": "polite" });
  const codes = h("div", { id: "claim-codes", "aria-live": "polite" });
  const name = h("input", { type: "text", autocomplete: "off" });
  const bulk = h("textarea", { rows: "4", placeholder: "One name per line" });

  const duplicates = h("p", { class: "warning", id: "duplicate-warning", role: "status", hidden: true });
  const key = (n) => n.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

  const register = async (names) => {
    // Two people may share a name, so a repeated name is registered, but said loudly: the same person
    // twice would get two pairings (drop one); two people need telling apart (add an initial).
    const seen = new Set((store.state?.players || []).map((p) => key(p.name)));
    const repeated = [];
    for (const n of names) {
      if (seen.has(key(n))) repeated.push(n);
      seen.add(key(n));
      await store.act("player.register", { player: { id: `p-${randomId(6)}`, name: n } });
    }
    announce(`${names.length} player${names.length === 1 ? "" : "s"} registered`);
    duplicates.hidden = !repeated.length;
    duplicates.textContent = repeated.length
      ? `Registered twice: ${repeated.join(", ")}. If it is the same person, drop one entry; if they are different `
        + "people, rename one (add an initial) so judges and players can tell them apart."
      : "";
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
  h("button", { type: "submit", class: "primary", id: "register" }, "Register"), duplicates);

  // Claim codes (organizer, head judge, scorekeeper: this screen's roles): each player's code while it can
  // be used, a new code for a lost slip or another phone, revoke (the code and the player's phones).
  const STATUS = { waiting: "not joined yet", joined: "joined", revoked: "revoked", unreadable: "unreadable: issue a new code",
                   none: "no code yet" };
  let confirming = null;  // the player whose "Revoke" was pressed once
  const claimAction = async (fn, done) => {
    try {
      const out = await fn();
      confirming = null;
      await showCodes();
      announce(done(out));
    } catch (err) {
      codes.prepend(h("p", { class: "error", role: "alert" }, err.message));
    }
  };
  const codeRow = (c) => {
    const revoke = confirming === c.player
      ? h("button", { type: "button", class: "small danger", dataset: { action: "confirm-revoke" },
        onclick: () => claimAction(() => revokeClaim(store.session, c.player),
          (r) => `${c.name}'s code is revoked${r.devices_revoked ? ` and ${r.devices_revoked} phone${r.devices_revoked === 1 ? "" : "s"} signed out` : ""}`) },
        `Confirm: revoke ${c.name}'s code and sign out their phones`)
      : h("button", { type: "button", class: "small", dataset: { action: "revoke" },
        onclick: () => { confirming = c.player; showCodes(); } }, "Revoke");
    return h("tr", { dataset: { player: c.player, status: c.status } },
      h("td", {}, c.name), h("td", { class: "code" }, c.code || "—"),
      h("td", {}, STATUS[c.status] || c.status, c.devices ? ` (${c.devices} phone${c.devices === 1 ? "" : "s"})` : ""),
      h("td", { class: "actions" },
        h("button", { type: "button", class: "small", dataset: { action: "reissue" },
          onclick: () => claimAction(() => reissueClaim(store.session, c.player),
            (r) => `New code for ${c.name}: ${r.code}. Their old code no longer works; phones already joined keep working.`) },
        c.code || c.status === "joined" ? "New code" : "Issue a code"),
        c.status !== "revoked" && c.status !== "none" && revoke));
  };
  const showCodes = async () => {
    try {
      const data = await claims(store.session);
      replace(codes, h("p", {}, h("a", { href: `#/event/${store.eventId}/print/claims`, id: "print-claims" }, "Print claim slips with QR codes"),
        " — one slip per player not joined yet; each code works once."),
      h("div", { class: "table-wrap" }, h("table", { class: "codes" }, h("caption", {}, "Hand each player theirs. A new code replaces the old one; phones already joined keep working. Revoke signs their phones out."),
        h("thead", {}, h("tr", {}, ["Player", "Code", "Status", "Actions"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, data.claims.map(codeRow)))));
    } catch (err) {
      replace(codes, h("p", { class: "error", role: "alert" }, err.message));
    }
  };

  replace(root, h("h1", {}, "Players"), problems,
    h("div", { class: "grid" }, form, h("section", { class: "card" }, h("h2", {}, "Structure"), suggestion)),
    h("section", { class: "card", "aria-labelledby": "claims-title" }, h("h2", { id: "claims-title" }, "Claim codes"),
      h("p", { class: "hint" }, "Each player joins on their phone with their own code (or its QR code). Needs the network."),
      h("button", { type: "button", onclick: showCodes, id: "show-codes" }, "Show claim codes"), codes),
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

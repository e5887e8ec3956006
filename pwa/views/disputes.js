// The dispute queue: matches whose reports disagree. The head judge (or the
// organizer) upholds one report or rules a different result.
import { may } from "../app/roles.js";
import { reporterText, resultForm, resultText } from "../ui/result-form.js";
import { announce, h, nameOf, problemNotice, refresh, replace } from "../ui/dom.js";
import { deviceCards } from "../ui/notify.js";

async function mount(root, { store, role }) {
  const lead = may(role, "result.resolve");
  const ruling = new Set();  // disputes whose "different ruling" form is open (kept open across redraws)
  const keyOf = (d) => `${d.stage}:${d.round}:${d.match}`;
  const body = h("div", { id: "dispute-list" });
  replace(root, h("h1", {}, "Disputes"),
    h("p", { class: "hint" }, lead ? "Talk to both reporters, then uphold the right result or enter the ruling."
      : "Only the head judge resolves disputes: send them here."), body,
    deviceCards(store, { audience: "staff" }));  // staff devices opt in to disputes and judge calls (ui/notify.js)

  const resolve = async (d, result, reason) => {
    const target = d.table !== null ? { table: d.table } : { match: d.match };
    const { refused } = await store.act("result.resolve", { round: d.round, stage: d.stage, ...target, result, reason },
      { checkFirst: true });
    announce(refused || `Dispute at table ${d.table} resolved`);
  };

  return {
    async update() {
      const st = store.state;
      const problems = store.problems().filter((p) => p.op.type === "result.resolve");
      if (!st.disputes.length) {
        ruling.clear();
        refresh(body, problems.map((p) => problemNotice(store, p)), h("p", { class: "ok", id: "no-disputes" }, "No disputes."));
        return;
      }
      const cards = [];
      // The project's rule (shared_rules/state/reducer.py): no round is paired, and the event is not closed,
      // while a dispute is open; a dispute can always be resolved, even in an older round.
      const next = Math.max(0, ...st.rounds.map((r) => r.number)) + 1;
      const first = st.disputes[0];
      const blocking = h("p", { class: "warnings", id: "disputes-block-pairing" },
        `Resolve the dispute at table ${first.table ?? "—"} of round ${first.round} before pairing round ${next}: `
        + "pairing waits until every dispute is resolved. A late report from an older round can always be resolved; "
        + "later pairings stand and the standings are recomputed.");
      for (const d of st.disputes) {
        const rnd = st.rounds.find((r) => r.number === d.round && r.stage === d.stage);
        const match = rnd.matches[d.match];
        const reports = match.reports.filter((r) => d.reports.includes(r.op_id));
        const custom = h("div");
        const ruleForm = () => resultForm(st, rnd, match, { submitLabel: "Rule this result", helpers: false,
          onSubmit: (result) => { ruling.delete(keyOf(d)); return resolve(d, result, "head judge's ruling"); } });
        if (lead && ruling.has(keyOf(d))) custom.append(await ruleForm());
        cards.push(h("li", { class: "card dispute", dataset: { table: d.table ?? "bye", round: d.round } },
          h("h2", {}, `Round ${d.round} · Table ${d.table ?? "—"}: ${d.players.map((p) => nameOf(st, p)).join(" v ")}`),
          h("ul", {}, reports.map((r) => h("li", { class: "report" },
            h("span", {}, `${reporterText(st, r, store.session?.staff_names)}${r.kind === "correct" ? " (correction)" : ""}: `),
            h("strong", {}, resultText(st, match, r.result)),
            lead && h("button", { type: "button", class: "small uphold", onclick: () => resolve(d, r.result, `upheld the report from ${reporterText(st, r, store.session?.staff_names)}`) }, "Uphold this")))),
          lead && h("button", { type: "button", class: "small", onclick: async () => {
            ruling.add(keyOf(d));
            replace(custom, await ruleForm());
          } }, "Enter a different ruling"),
          custom));
      }
      refresh(body, problems.map((p) => problemNotice(store, p)), blocking, h("ul", { class: "disputes" }, cards));
    },
  };
}

export default { mount };

// pwa/ui/dom.js adviceFor: what to do about a refused change, decided by its error code only.
import assert from "node:assert/strict";
import { test } from "node:test";
import "./support/app.mjs";

const { adviceFor } = await import("../../pwa/ui/dom.js");

test("advice follows the refusal's code, whatever its reason says", () => {
  const cases = [
    [{ error: "not-authorized", server: true }, "Your role may not do this: ask the head judge or the organizer."],
    [{ error: "round-frozen", server: true }, "This round is frozen: ask the head judge."],
    [{ error: "round-frozen", server: false }, "This round is frozen: ask the head judge."],
    [{ error: "already-paired", server: true }, "Someone else did this first: check the screen and try again if needed."],
    [{ error: "operation-rejected", server: false }, "The rules refuse this on this device: correct it and enter it again."],
    [{ error: "open-dispute", server: true }, "Resolve the open dispute first (Disputes screen), then do this again."],
    [{ error: "operation-rejected", server: false, op: { type: "round.discard" } },
      "Nothing was changed: the Rounds screen shows where the round stands and what to do next."],
  ];
  for (const [problem, advice] of cases) assert.equal(adviceFor({ reason: "anything", ...problem }), advice);
});

test("a reason's words alone no longer decide the advice", () => {
  const reason = "round 1's record cannot change after round 3 is paired; already paired, reload";
  assert.equal(adviceFor({ error: "operation-rejected", reason, server: true }),
    "Check the details, enter it again if needed, then dismiss this message.");
});

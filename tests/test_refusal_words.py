"""Refusals a TO or judge meets, as the screens show them (pwa/ui/dom.js refusalText, withNames, adviceFor):
no operation name, no payload path, staff devices by their invitations' names, advice with the right next step."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.rules.test_state_reducer import Event

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import "./tests/js/support/app.mjs";
const { adviceFor, refusalText, withNames } = await import("./pwa/ui/dom.js");
const cases = JSON.parse(process.argv[1]);
const state = { players: [{ id: "p1", name: "Ash" }, { id: "p2", name: "Bea" }, { id: "p3", name: "Cy" }, { id: "p4", name: "Di" }] };
const staff = { "judge-ju3v9esnrd": "Floor Judge Bo" };
console.log(JSON.stringify(cases.map(([type, code, reason]) => ({
  shown: withNames(state, refusalText(reason), staff),
  advice: adviceFor({ op: { type }, error: code, reason, server: false }),
}))));
"""


def _refusals() -> list[tuple[str, str, str]]:
    """(operation type, code, reason) of refusals a TO or judge can meet at the desk."""
    out = []

    def refuse(ev: Event, op_type: str, payload: dict, **kw) -> None:
        reason = ev.why(op_type, payload, **kw)
        assert reason is not None, (op_type, payload)
        out.append((op_type, ev.refusal_code(op_type, payload, **kw) or "operation-rejected", reason))

    ev = Event(4)
    pairing = {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]}
    ev.do("round.pair", pairing, device="judge-ju3v9esnrd", role="head-judge")
    refuse(ev, "round.swap", {"number": 1, "a": "p1", "b": "p2"})
    refuse(ev, "round.pair", pairing)
    ev.do("round.publish", {"number": 1})
    refuse(ev, "round.discard", {"number": 1})
    ev.do("round.start", {"number": 1, "duration_s": 3000})
    refuse(ev, "round.swap", {"number": 1, "a": "p1", "b": "p3"})
    refuse(ev, "round.publish", {"number": 1})
    refuse(ev, "event.close", {})
    refuse(ev, "result.report", {"round": 1, "table": 1, "outcomes": ["win"]})
    refuse(ev, "result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"], "scores": [3]})
    refuse(ev, "event.configure", {"settings": {"points": []}})
    refuse(ev, "round.discard", {"number": 1}, role="scorekeeper")
    refuse(ev, "call.player", {"player": "p1", "where": "table"}, role="judge")
    ev.do("call.judge", {"table": 1, "reason": "Rules question"}, role="player", player="p1", device="phone-1")
    ev.do("call.answer", {"call": "phone-1:1"}, role="judge")
    refuse(ev, "call.answer", {"call": "phone-1:1"}, role="judge")
    refuse(ev, "call.judge", {"table": 2, "reason": "Rules question"}, role="player", player="p1", device="phone-1")
    return out


def test_refusals_are_shown_without_operation_names_or_payload_paths_and_with_a_next_step():
    cases = _refusals()
    run = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, json.dumps(cases)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    shown = json.loads(run.stdout)
    for (op_type, _, reason), out in zip(cases, shown, strict=True):
        text = out["shown"]
        assert not text.startswith(op_type), (reason, text)
        assert "payload." not in text and "settings." not in text, (reason, text)
        assert (
            out["advice"]
            and "enter it again" not in out["advice"]
            or op_type.startswith(("result.", "event.configure"))
        ), out
    by_reason = {reason: out["shown"] for (_, _, reason), out in zip(cases, shown, strict=True)}
    # A device is named by its invitation, a player by name.
    assert any("Floor Judge Bo" in text for text in by_reason.values()), by_reason
    assert any("Ash" in text and "p1" not in text for text in by_reason.values()), by_reason
    # A published round is no longer "entered again": the advice points at the Rounds screen.
    discard = next(
        out for (t, _, r), out in zip(cases, shown, strict=True) if t == "round.discard" and "published" in r
    )
    assert "Rounds screen" in discard["advice"]
    assert "can no longer be discarded" in discard["shown"]

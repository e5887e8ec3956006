"""A player's contrary report against a judge's entry is never dropped silently (SQLite and PostgreSQL).

Either order, online: the match becomes a dispute with both versions, on the server, on staff devices
and on the player's phone; the head judge's resolution or a judge's correction ends it.
"""

from __future__ import annotations

import pytest

from tests.backend.helpers import bearer, pair_ops, register_ops, report


def _event(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    codes = api.claims(eid, org)
    return eid, org, api.staff_token(eid, org, "judge"), api.redeem(codes["p2"])["token"]


@pytest.mark.parametrize("judge_first", [True, False], ids=["judge-then-player", "player-then-judge"])
def test_a_contrary_self_report_and_a_judges_entry_make_a_dispute_with_both_versions(api, judge_first):
    eid, org, judge, p2 = _event(api)
    entries = [
        lambda: api.push_ok(eid, judge, "tab-1", [report(1, 1, ["win", "loss"])]),  # the judge: p1 won
        lambda: api.push_ok(eid, p2, "phone-2", [report(1, 1, ["loss", "win"])]),  # p2: I won
    ]
    for entry in entries if judge_first else reversed(entries):
        entry()

    state = api.state(eid, org)
    match = state["rounds"][0]["matches"][0]
    assert (match["status"], match["outcomes"]) == ("disputed", None)
    [dispute] = state["disputes"]
    versions = {r["device"]: r["result"]["outcomes"] for r in match["reports"] if r["op_id"] in dispute["reports"]}
    assert versions == {"tab-1": ["win", "loss"], "phone-2": ["loss", "win"]}

    # The player's phone folds the same dispute, with the judge's version in its pull.
    phone = api.folded(eid, p2)
    mine = phone["rounds"][0]["matches"][0]
    assert mine["status"] == "disputed"
    [seen] = phone["disputes"]  # other devices' names are masked in a player's pull
    assert len(seen["reports"]) == 2 and "phone-2:1" in seen["reports"]
    assert {r["actor"]["role"] for r in mine["reports"]} == {"judge", "player"}
    me = api.client.get(f"/api/events/{eid}/me", headers=bearer(p2)).get_json()
    assert me["matches"][0]["status"] == "disputed"

    # Nothing counts while it is open; the head judge's ruling ends it.
    head = api.staff_token(eid, org, "head-judge")
    ruling = {"round": 1, "table": 1, "result": {"outcomes": ["win", "loss"]}, "reason": "scoresheet"}
    api.push_ok(eid, head, "hj", [{"type": "result.resolve", "payload": ruling}])
    state = api.state(eid, org)
    assert state["disputes"] == []
    assert (state["rounds"][0]["matches"][0]["status"], state["rounds"][0]["matches"][0]["outcomes"]) == (
        "resolved",
        ["win", "loss"],
    )


def test_a_judges_correction_ends_the_dispute_and_a_later_contrary_report_reopens_it(api):
    eid, org, judge, p2 = _event(api)
    api.push_ok(eid, judge, "tab-1", [report(1, 1, ["win", "loss"])])
    api.push_ok(eid, p2, "phone-2", [report(1, 1, ["loss", "win"])])
    fix = {
        "type": "result.correct",
        "payload": {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "mis-keyed"},
    }
    api.push_ok(eid, judge, "tab-1", [fix], first_seq=2)
    match = api.state(eid, org)["rounds"][0]["matches"][0]
    assert (match["status"], match["outcomes"]) == ("resolved", ["loss", "win"])
    # p1 saw the correction and says it is wrong: the judge hears of it.
    p1 = api.redeem(api.claims(eid, org)["p1"])["token"]
    api.push_ok(eid, p1, "phone-1", [report(1, 1, ["win", "loss"])])
    state = api.state(eid, org)
    assert state["rounds"][0]["matches"][0]["status"] == "disputed"
    assert len(state["disputes"][0]["reports"]) == 2

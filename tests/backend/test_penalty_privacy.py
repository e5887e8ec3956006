"""Penalties stay private (issue 22, item 4): a player's pull carries their own penalties only, public pages
none; a disqualification reaches everyone's phone only as the drop it made, and a rescission and
reinstatement fold the same on every phone."""

from __future__ import annotations

import json

from shared_rules.state import initial_state, replay
from tests.backend.helpers import bearer, pair_ops, register_ops, report

REASONS = ("slow play at table 2", "marked sleeves", "deck swap between games")


def _event(api):
    created = api.create(ruleset="agot", name="Kingsroad")
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    hj = api.staff_token(eid, org, "head-judge")
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(
        eid,
        judge,
        "floor-tab",
        [{"type": "penalty.issue", "payload": {"player": "p3", "kind": "warning", "reason": REASONS[0]}}],
    )
    api.push_ok(
        eid,
        hj,
        "hj-tab",
        [
            {"type": "penalty.issue", "payload": {"player": "p3", "kind": "game-loss", "reason": REASONS[1]}},
            {"type": "penalty.issue", "payload": {"player": "p1", "kind": "disqualification", "reason": REASONS[2]}},
        ],
    )
    tokens = {pid: api.redeem(code)["token"] for pid, code in api.claims(eid, org).items()}
    return eid, org, hj, tokens


def _ops(api, eid, token):
    return [o["op"] for o in api.pull(eid, token)["ops"]]


def test_a_third_players_pull_holds_no_other_players_penalty(api):
    eid, org, _, tokens = _event(api)
    ops = _ops(api, eid, tokens["p5"])
    text = json.dumps(ops)
    assert not any(op["type"].startswith("penalty.") for op in ops)
    assert not any(reason in text for reason in REASONS)
    assert "disqualification" not in text and "game-loss" not in text
    # the disqualification reaches p5's phone as the drop it made; the warnings and game loss as nothing
    drops = [op for op in ops if op["type"] == "player.drop"]
    assert [(d["payload"], d["actor"]) for d in drops] == [({"player": "p1", "after": 1}, {"role": "head-judge"})]
    assert sum(op["type"] == "device.void" for op in ops) == 2
    folded = replay(ops, initial_state())
    assert folded["penalties"] == []
    staff = api.folded(eid, org)
    assert [(p["id"], p["dropped_after"]) for p in folded["players"]] == [
        (p["id"], p["dropped_after"]) for p in staff["players"]
    ]
    assert [r["matches"] for r in folded["rounds"]] == [r["matches"] for r in staff["rounds"]]


def test_a_players_pull_holds_their_own_penalties_whole(api):
    eid, _, _, tokens = _event(api)
    p3 = replay(_ops(api, eid, tokens["p3"]), initial_state())
    assert [(p["kind"], p["reason"]) for p in p3["penalties"]] == [("warning", REASONS[0]), ("game-loss", REASONS[1])]
    p1 = replay(_ops(api, eid, tokens["p1"]), initial_state())
    assert [(p["player"], p["kind"], p["reason"]) for p in p1["penalties"]] == [("p1", "disqualification", REASONS[2])]
    assert p1["players"][0]["ejected"] is True
    # p1's opponent learns the player left the event, not the penalty
    p2 = _ops(api, eid, tokens["p2"])
    assert not any(op["type"].startswith("penalty.") for op in p2)
    assert replay(p2, initial_state())["players"][0]["dropped_after"] == 1


def test_disqualified_rescinded_and_reinstated_folds_the_same_on_every_phone(api):
    eid, org, hj, tokens = _event(api)
    staff = api.folded(eid, org)
    dq = next(p for p in staff["penalties"] if p["kind"] == "disqualification")["op_id"]
    api.push_ok(
        eid,
        hj,
        "hj-tab",
        [
            {
                "type": "result.correct",
                "payload": {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "DQ"},
            },
            {"type": "penalty.rescind", "payload": {"penalty": dq, "reason": "appeal upheld"}},
            {"type": "player.reinstate", "payload": {"player": "p1"}},
        ],
        first_seq=3,
    )
    p1_ops = _ops(api, eid, tokens["p1"])
    issued = next(op for op in p1_ops if op["type"] == "penalty.issue")
    rescind = next(op for op in p1_ops if op["type"] == "penalty.rescind")
    assert issued["op_id"].startswith("dev-") and rescind["payload"]["penalty"] == issued["op_id"]
    p1 = replay(p1_ops, initial_state())
    assert p1["penalties"][0]["rescinded"]["reason"] == "appeal upheld"
    assert (p1["players"][0]["dropped_after"], p1["players"][0]["ejected"]) == (None, False)
    p5_ops = _ops(api, eid, tokens["p5"])
    assert "appeal upheld" not in json.dumps(p5_ops)
    p5 = replay(p5_ops, initial_state())
    assert p5["penalties"] == [] and p5["players"][0]["dropped_after"] is None
    # and round 2 pairs p1 again, as every phone sees it
    for table in (2, 3, 4):
        api.push_ok(eid, org, "desk", [report(1, table, ["win", "loss"])], first_seq=9 + table)
    matches = [{"table": 1, "players": ["p1", "p3"]}, {"table": 2, "players": ["p2", "p4"]}]
    matches += [{"table": 3, "players": ["p5", "p7"]}, {"table": 4, "players": ["p6", "p8"]}]
    api.push_ok(
        eid,
        org,
        "desk",
        [
            {"type": "round.pair", "payload": {"number": 2, "matches": matches}},
            {"type": "round.publish", "payload": {"number": 2}},
        ],
        first_seq=14,
    )
    p5 = replay(_ops(api, eid, tokens["p5"]), initial_state())
    assert p5["rounds"][1]["matches"][0]["players"] == ["p1", "p3"]


def test_public_pages_carry_no_penalty(api):
    eid, _, _, _ = _event(api)
    for page in ("public", "pairings", "standings"):
        r = api.client.get(f"/api/events/{eid}/{page}")
        assert r.status_code == 200, page
        text = r.get_data(as_text=True)
        assert "penalt" not in text and not any(reason in text for reason in REASONS), page
        assert "disqualification" not in text and "game-loss" not in text, page


def test_a_players_pull_of_an_imported_event_keeps_only_their_own_penalties(api):
    eid, org, _, tokens = _event(api)
    exported = api.client.get(f"/api/events/{eid}/export", headers=bearer(org)).get_json()
    assert exported["state"]["penalties"], "the export keeps the penalties (an organizer's document)"
    created = api.client.post("/api/events", json={"document": exported})
    assert created.status_code == 201, created.get_json()
    new_id, new_org = created.get_json()["event_id"], created.get_json()["token"]
    codes = api.claims(new_id, new_org)
    p5 = api.redeem(codes["p5"])["token"]
    p3 = api.redeem(codes["p3"])["token"]
    base5 = api.pull(new_id, p5)["base"]
    base3 = api.pull(new_id, p3)["base"]
    assert base5["state"]["penalties"] == []
    assert [p["reason"] for p in base3["state"]["penalties"]] == [REASONS[0], REASONS[1]]
    assert not any(reason in json.dumps(base5) for reason in REASONS)

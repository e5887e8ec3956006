"""Players' pulls splice cached shared views of the log: the same answer as rendering every operation.

The shared view (every device aliased, no penalty shown) is cached per operation; a
player's own operations (their devices, their penalties, confirmations of their reports) and the
event's creation (its seed may be secret) are rendered for them. Whatever order players pull in,
whatever the cache holds, each player gets exactly their own view.
"""

from __future__ import annotations

import json

from tests.backend.helpers import bearer, pair_ops, register_ops, report


def _pull(api, eid, token, cursor=0):
    r = api.client.get(f"/api/events/{eid}/pull?cursor={cursor}", headers=bearer(token))
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    body.pop("server_time")
    return body


def _player(api, eid, org, pid):
    return api.redeem(api.claims(eid, org)[pid])["token"]


def _busy_event(api):
    created = api.create(ruleset="doomtown", name="Gomorra")  # Doomtown: the seed is secret from players
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1) + [report(1, t, ["win", "loss"]) for t in (2, 3)])
    p1, p2 = _player(api, eid, org, "p1"), _player(api, eid, org, "p2")
    hj = api.staff_token(eid, org, "head-judge")
    api.push_ok(
        eid,
        hj,
        "hj-tablet",
        [
            {"type": "penalty.issue", "payload": {"player": who, "kind": "warning", "reason": why}}
            for who, why in (("p1", "marked sleeves"), ("p3", "slow play"))
        ],
    )
    api.push_ok(eid, p1, "p1-phone", [report(1, 1, ["win", "loss"])])
    shown = [
        o["op"]
        for o in _pull(api, eid, p2)["ops"]
        if o["op"]["type"] == "result.report" and o["op"]["actor"]["role"] == "player"
    ]
    api.push_ok(
        eid,
        p2,
        "p2-phone",
        [{"type": "result.confirm", "payload": {"round": 1, "table": 1, "report": shown[0]["op_id"]}}],
    )
    return eid, org, p1, p2


def test_each_player_gets_their_own_view_whatever_the_cache_holds(app, api) -> None:
    eid, org, p1, p2 = _busy_event(api)
    app.extensions.pop("topcut_player_views", None)
    cold = {who: _pull(api, eid, tok) for who, tok in (("p1", p1), ("p2", p2))}  # p1 fills the cache, p2 reads it
    app.extensions.pop("topcut_player_views", None)
    reverse = {who: _pull(api, eid, tok) for who, tok in (("p2", p2), ("p1", p1))}
    warm = {who: _pull(api, eid, tok) for who, tok in (("p1", p1), ("p2", p2))}
    assert cold == reverse == warm

    ops = {who: [o["op"] for o in body["ops"]] for who, body in cold.items()}
    reasons = {
        who: {op["payload"]["player"]: op["payload"]["reason"] for op in o if op["type"] == "penalty.issue"}
        for who, o in ops.items()
    }
    assert reasons == {"p1": {"p1": "marked sleeves"}, "p2": {}}  # only one's own penalties
    own = {
        who: {op["device"] for op in o if not op["device"].startswith("dev-") and op["device"] != "server"}
        for who, o in ops.items()
    }
    assert own == {"p1": {"p1-phone"}, "p2": {"p2-phone"}}
    confirm = {
        who: next(op for op in o if op["type"] == "result.confirm")["payload"]["report"] for who, o in ops.items()
    }
    assert confirm["p1"].startswith("p1-phone:") and confirm["p2"].startswith("dev-")
    assert all(
        "seed" not in json.dumps(o[0]["payload"]) or o[0]["payload"]["seed"].startswith("withheld-")
        for o in ops.values()
    )


def test_pulls_from_a_cursor_use_the_cache_too(app, api) -> None:
    eid, org, p1, _ = _busy_event(api)
    whole = _pull(api, eid, p1)
    tail = _pull(api, eid, p1, cursor=5)
    assert tail["ops"] == [o for o in whole["ops"] if o["server_seq"] > 5]

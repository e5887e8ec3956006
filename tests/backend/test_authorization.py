"""Every role tries every operation and endpoint it must not use, and is refused; nothing changes."""

from __future__ import annotations

import pytest

from shared_rules.state import ALLOWED, OPERATION_TYPES
from tests.backend.helpers import PLAYERS, bearer, pair_ops, register_ops, report

#: A payload for every operation type that parses, so that authorization is what refuses it.
PAYLOADS = {
    "event.create": {"ruleset": "pokemon-tcg"},
    "event.configure": {"name": "Renamed"},
    "event.close": {},
    "player.register": {"player": {"id": "new", "name": "New"}},
    "player.edit": {"player": "p2", "name": "Renamed"},
    "player.check_in": {"player": "p2"},
    "player.drop": {"player": "p2"},
    "player.reinstate": {"player": "p2"},
    "player.remove": {"player": "p2"},
    "round.pair": {"number": 2, "matches": [{"players": ["p1", "p2"]}]},
    "round.swap": {"number": 1, "a": "p1", "b": "p3"},
    "round.publish": {"number": 1},
    "round.discard": {"number": 1},
    "round.start": {"number": 1},
    "timer.pause": {},
    "timer.resume": {},
    "timer.extend": {"seconds": 60},
    "result.report": {"round": 1, "table": 2, "outcomes": ["win", "loss"]},
    "result.confirm": {"round": 1, "table": 2},
    "result.correct": {"round": 1, "table": 1, "outcomes": ["win", "loss"]},
    "result.resolve": {"round": 1, "table": 1, "result": {"outcomes": ["win", "loss"]}},
    "cut.make": {"size": 2, "matches": [{"players": ["p1", "p2"]}]},
    "penalty.issue": {"player": "p2", "reason": "slow play", "kind": "game-loss"},
    "device.void": {"dismissed": "timer.resume"},
}
#: Beyond the role table: what a role may do only for itself (the player is p1, at table 1).
OWNERSHIP_REFUSALS = {
    "player": ["player.check_in", "player.drop", "result.report", "result.confirm"],
    "judge": ["penalty.issue"],
}
ROLES = ["head-judge", "judge", "scorekeeper", "player"]


def forbidden(role: str) -> list[str]:
    by_table = [t for t in OPERATION_TYPES if role not in ALLOWED[t]]
    return by_table + [t for t in OWNERSHIP_REFUSALS.get(role, []) if t not in by_table]


CASES = [(role, op_type) for role in ROLES for op_type in forbidden(role)]


def test_every_operation_type_has_a_payload():
    assert set(PAYLOADS) == set(OPERATION_TYPES)


@pytest.fixture
def event(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    tokens = {"organizer": org}
    for role in ("head-judge", "judge", "scorekeeper"):
        tokens[role] = api.staff_token(eid, org, role)
    tokens["player"] = api.redeem(api.claims(eid, org)["p1"])["token"]
    return eid, tokens


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize("role", ROLES)
def test_roles_are_refused_forbidden_operations(api, event, role):
    eid, tokens = event
    before = api.state(eid, tokens["organizer"])
    ops = [{"type": op_type, "payload": PAYLOADS[op_type], "actor": {"role": "organizer"}}
           for op_type in forbidden(role)]
    result = api.push(eid, tokens[role], f"dev-{role}", ops).get_json()
    for op_type, verdict in zip(forbidden(role), result["results"]):
        assert verdict["status"] == "rejected", (role, op_type, verdict)
        assert verdict["error"] == "not-authorized", (role, op_type, verdict)
    after = api.state(eid, tokens["organizer"])
    assert {k: v for k, v in after.items() if k != "devices"} == {k: v for k, v in before.items() if k != "devices"}


def test_authorization_table_covers_the_roles():
    assert len(CASES) > 40
    assert "result.resolve" in forbidden("judge") and "round.pair" in forbidden("scorekeeper")


ENDPOINTS = [
    # (method, path template, body, roles allowed)
    ("post", "/api/events/{eid}/invitations", {"role": "judge"}, {"organizer"}),
    ("get", "/api/events/{eid}/tokens", None, {"organizer"}),
    ("delete", "/api/events/{eid}/tokens/{tid}", None, {"organizer"}),
    ("get", "/api/events/{eid}/players/claims", None, {"organizer", "head-judge", "scorekeeper"}),
    ("post", "/api/events/{eid}/players/p2/claim", None, {"organizer", "head-judge", "scorekeeper"}),
    ("delete", "/api/events/{eid}/players/p2/claim", None, {"organizer", "head-judge", "scorekeeper"}),
    ("get", "/api/events/{eid}/state", None, {"organizer", "head-judge", "judge", "scorekeeper"}),
    ("get", "/api/events/{eid}/export", None, {"organizer", "head-judge", "judge", "scorekeeper"}),
    ("get", "/api/events/{eid}/me", None, {"player"}),
]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_endpoints_refuse_other_roles(api, event):
    eid, tokens = event
    tid = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(tokens["organizer"])).get_json()["tokens"][1]
    checked = 0
    for method, template, body, allowed in ENDPOINTS:
        for role in ["organizer", *ROLES]:
            if role in allowed:
                continue
            path = template.format(eid=eid, tid=tid["token_id"])
            kwargs = {"headers": bearer(tokens[role])}
            if body is not None:
                kwargs["json"] = body
            r = getattr(api.client, method)(path, **kwargs)
            assert r.status_code == 403, (method, path, role, r.get_json())
            assert r.get_json()["error"] == "forbidden"
            checked += 1
    assert checked >= 15
    # nothing was revoked, invited or reissued
    listed = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(tokens["organizer"])).get_json()["tokens"]
    assert not any(t["revoked"] for t in listed) and len(listed) == 5


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_tokens_of_another_event_are_refused(api, event):
    eid, tokens = event
    other = api.create()
    r = api.push(eid, other["token"], "desk-x", [report(1, 1, ["win", "loss"])])
    assert r.status_code == 403 and r.get_json()["error"] == "wrong-event"
    r = api.client.get(f"/api/events/{other['event_id']}/state", headers=bearer(tokens["judge"]))
    assert r.status_code == 403
    assert len(PLAYERS) == 8

"""Doomtown's secret d6 on the server: once per event from the seed, kept from players (Floor Rules 3.A, 5.C)."""

from __future__ import annotations

import json

from shared_rules.games.doomtown.ruleset import secret_d6
from shared_rules.state import timer_remaining_ms
from tests.backend.helpers import PLAYERS, bearer, register_ops

T0 = 1_700_000_000_000


def _doomtown(api, **extra):
    created = api.create("doomtown", "Gomorra", **extra)
    eid, org = created["event_id"], created["token"]
    players = [dict(p, entry=i + 1) for i, p in enumerate(PLAYERS[:4])]
    api.push_ok(eid, org, "desk", register_ops(players))
    return eid, org


def _round(number):
    matches = [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]
    return [
        {"type": "round.pair", "payload": {"number": number, "matches": matches}},
        {"type": "round.publish", "payload": {"number": number}},
        {"type": "round.start", "payload": {"number": number, "duration_s": 3600, "secret": True, "at": T0}},
    ]


def _results(number):
    return [
        {"type": "result.report", "payload": {"round": number, "table": t, "outcomes": ["win", "loss"]}} for t in (1, 2)
    ]


def _player(api, eid, org, pid):
    r = api.client.post(f"/api/events/{eid}/players/{pid}/claim", headers=bearer(org))
    assert r.status_code == 201, r.get_json()
    return api.redeem(r.get_json()["code"])["token"]


def test_the_d6_is_rolled_once_per_event_and_players_never_get_it(api):
    eid, org = _doomtown(api)
    ops = _round(1) + _results(1) + _round(2) + _results(2) + _round(3)
    api.push_ok(eid, org, "desk", ops, first_seq=5)

    staff = api.state(eid, org)
    d6 = secret_d6(staff["seed"])
    lengths = [timer_remaining_ms(r["timer"], T0) // 1000 for r in staff["rounds"]]
    assert lengths == [3600 + 60 * d6] * 3  # not re-rolled each round

    player = _player(api, eid, org, "p1")
    pulled = api.pull(eid, player)
    text = json.dumps(pulled)
    assert staff["seed"] not in text
    create = pulled["ops"][0]["op"]
    assert create["type"] == "event.create" and create["payload"]["seed"].startswith("withheld-")
    starts = [e["op"]["payload"] for e in pulled["ops"] if e["op"]["type"] == "round.start"]
    assert {s["duration_s"] for s in starts} == {3600}  # only the announced hour travels
    folded = api.folded(eid, player)
    for rnd in folded["rounds"]:
        assert rnd["timer"]["secret_s"] is None
        assert timer_remaining_ms(rnd["timer"], T0) == 3_600_000

    me = api.client.get(f"/api/events/{eid}/me", headers=bearer(player)).get_json()
    assert staff["seed"] not in json.dumps(me) and "secret" not in json.dumps(me)

    # staff devices fold the real end
    assert api.folded(eid, org)["rounds"][2]["timer"]["secret_s"] == 60 * d6


def test_every_event_gets_its_own_random_seed(api):
    seeds = set()
    for _ in range(3):
        created = api.create("doomtown")
        seeds.add(api.state(created["event_id"], created["token"])["seed"])
    assert len(seeds) == 3 and all(len(s) >= 32 for s in seeds)
    given = api.create("doomtown", seed="cup-2024")
    assert api.state(given["event_id"], given["token"])["seed"] == "cup-2024"


def test_a_reserved_seed_is_refused(api):
    r = api.client.post("/api/events", json={"ruleset": "doomtown", "seed": "withheld-abc"})
    assert r.status_code == 422
    assert "withheld-" in r.get_json()["message"] and "seed" in r.get_json()["message"]


def test_other_rulesets_keep_the_seed_for_players(api):
    created = api.create("tribbles")  # tribbles' standings draw from the seed on the player's phone
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops(PLAYERS[:2]))
    player = _player(api, eid, org, "p1")
    assert api.pull(eid, player)["ops"][0]["op"]["payload"]["seed"] == api.state(eid, org)["seed"]


def test_an_imported_doomtown_event_hides_its_seed_from_players(api):
    eid, org = _doomtown(api, seed="known-seed")
    exported = api.client.get(f"/api/events/{eid}/export", headers=bearer(org)).get_json()
    created = api.client.post("/api/events", json={"document": exported}).get_json()
    player = api.redeem(created["claims"][0]["code"])["token"]
    base = api.pull(created["event_id"], player)["base"]
    assert base["seed"].startswith("withheld-")
    unseeded = dict(exported)
    unseeded.pop("seed", None)
    again = api.client.post("/api/events", json={"document": unseeded}).get_json()
    assert len(api.state(again["event_id"], again["token"])["seed"]) >= 32  # a random one, not ""

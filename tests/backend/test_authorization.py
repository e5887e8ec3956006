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
    "penalty.rescind": {"penalty": "desk:1", "reason": "appeal upheld"},
    "decklist.submit": {"player": "p2", "sections": {"deck": "4 Pikachu"}},
    "deckcheck.record": {"player": "p1", "outcome": "ok"},
    "device.void": {"dismissed": "timer.resume"},
    "call.judge": {"table": 2, "reason": "Rules question"},
    "call.player": {"player": "p2", "where": "judge-station"},
    "call.answer": {"call": "desk:1"},
}
#: Beyond the role table: what a role may do only for itself (the player is p1, at table 1).
OWNERSHIP_REFUSALS = {
    "player": ["player.check_in", "player.drop", "result.report", "result.confirm", "call.judge"],
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
    ops = [
        {"type": op_type, "payload": PAYLOADS[op_type], "actor": {"role": "organizer"}} for op_type in forbidden(role)
    ]
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


# ------------------------------------------------------------------ people (players across events)

#: Who calls: the event's five roles, an organizer of another event, and nobody (no token).
CALLERS = ["organizer", *ROLES, "other-event", "no-token"]
STAFF_ROLES = {"organizer", "head-judge", "judge", "scorekeeper"}
LINKER_ROLES = {"organizer", "head-judge", "scorekeeper"}
PEOPLE_ENDPOINTS = [
    # (method, path template, body, callers allowed)
    ("get", "/api/people?q=Ada", None, STAFF_ROLES | {"other-event"}),
    ("post", "/api/people", {"name": "New Person"}, LINKER_ROLES | {"other-event"}),
    ("get", "/api/events/{eid}/people", None, STAFF_ROLES),
    ("put", "/api/events/{eid}/players/p3/person", {"person": "{ada}"}, LINKER_ROLES),
    ("delete", "/api/events/{eid}/players/p1/person", None, LINKER_ROLES),
    ("get", "/api/people/{ada}", None, STAFF_ROLES | {"player"}),
    ("get", "/api/people/me", None, {"player"}),
    ("post", "/api/people/{bob}/merge", {"into": "{ada}"}, {"organizer"}),
    ("get", "/api/ratings?game=startrek-1e", None, set(CALLERS)),
]


def _people_snapshot(app) -> tuple:
    from sqlalchemy import select

    from backend.db import db
    from backend.models import Person, RosterLink

    with app.app_context():
        people = db.session.execute(
            select(Person.id, Person.name, Person.merged_into, Person.trekcc_id).order_by(Person.id)
        ).all()
        links = db.session.execute(
            select(RosterLink.event_id, RosterLink.player_id, RosterLink.person_id).order_by(RosterLink.id)
        ).all()
    return [tuple(p) for p in people], [tuple(link) for link in links]


@pytest.fixture
def people_event(api, event):
    eid, tokens = event
    org = tokens["organizer"]
    ids = {}
    for key, name, player in (("ada", "Ada", "p1"), ("bob", "Bob", "p2")):
        r = api.client.post("/api/people", json={"name": name}, headers=bearer(org))
        ids[key] = r.get_json()["id"]
        r = api.client.put(f"/api/events/{eid}/players/{player}/person", json={"person": ids[key]}, headers=bearer(org))
        assert r.status_code == 200, r.get_json()
    tokens = {**tokens, "other-event": api.create()["token"]}
    return eid, tokens, ids


def _call(api, method, template, body, eid, ids, token):
    path = template.format(eid=eid, **ids)
    kwargs = {"headers": bearer(token)} if token else {}
    if body is not None:
        kwargs["json"] = {k: v.format(**ids) for k, v in body.items()}
    return getattr(api.client, method)(path, **kwargs)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_people_endpoints_refuse_every_other_caller_and_change_nothing(app, api, people_event):
    eid, tokens, ids = people_event
    before = _people_snapshot(app)
    refused = 0
    for method, template, body, allowed in PEOPLE_ENDPOINTS:
        for caller in CALLERS:
            if caller in allowed:
                continue
            r = _call(api, method, template, body, eid, ids, tokens.get(caller))
            expected = 401 if caller == "no-token" else 403
            assert r.status_code == expected, (method, template, caller, r.get_json())
            assert set(r.get_json()) >= {"error", "message"}
            refused += 1
    assert refused >= 25
    assert _people_snapshot(app) == before


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_people_endpoints_answer_every_allowed_caller(api, people_event):
    eid, tokens, ids = people_event
    answered = 0
    for method, template, body, allowed in PEOPLE_ENDPOINTS:
        if method != "get":
            continue  # the changes are checked one by one in tests/backend/test_people.py
        for caller in sorted(allowed):
            r = _call(api, method, template, body, eid, ids, tokens.get(caller))
            assert r.status_code == 200, (template, caller, r.get_json())
            answered += 1
    assert answered >= 15
    for caller in sorted(LINKER_ROLES):  # each linker links and unlinks
        r = _call(
            api,
            "put",
            "/api/events/{eid}/players/p3/person",
            {"person": "{ada}"},
            eid,
            {**ids, "ada": ids["ada"]},
            tokens[caller],
        )
        assert r.status_code == 409 and r.get_json()["error"] == "person-linked"  # Ada is p1's
        r = _call(api, "delete", "/api/events/{eid}/players/p3/person", None, eid, ids, tokens[caller])
        assert r.status_code == 200 and r.get_json()["unlinked"] is False
    r = _call(api, "post", "/api/people/{bob}/merge", {"into": "{ada}"}, eid, ids, tokens["organizer"])
    assert r.status_code == 200 and r.get_json()["links_moved"] == 1


# ------------------------------------------------------------------ leagues (backend/startrek/leagues.py)

#: Who holds a token in the league matrix: the league's director, another league's director, and every role of
#: the league event (its organizer included: an event's organizer is not the league's director), or nobody.
LEAGUE_HOLDERS = ["director", "other-director", "organizer", "head-judge", "judge", "scorekeeper", "player", None]


@pytest.fixture
def league(api):
    """A league with one finished Star Trek event, and a token of every kind."""
    from tests.backend.helpers import trek_ops

    created = api.create("startrek-2e", "Trek")
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", trek_ops())
    spare = api.create("startrek-1e", "Spare")
    tokens = {"organizer": org}
    for role in ("head-judge", "judge", "scorekeeper"):
        tokens[role] = api.staff_token(eid, org, role)
    tokens["player"] = api.redeem(api.claims(eid, org)["p1"])["token"]
    body = {"name": "League", "director": {"name": "Q"}, "season": {"schedule": "truncated"}}
    grant = api.client.post("/api/leagues", json=body).get_json()
    tokens["director"] = grant["token"]
    tokens["other-director"] = api.client.post("/api/leagues", json=body).get_json()["token"]
    r = api.client.post(
        f"/api/leagues/{grant['league_id']}/events",
        headers=bearer(grant["token"]),
        json={"event_id": eid, "sprint": "regular", "organizer_token": org},
    )
    assert r.status_code == 201, r.get_json()
    r = api.client.post(
        f"/api/leagues/{grant['league_id']}/tokens", headers=bearer(grant["token"]), json={"label": "Tablet"}
    )
    assert r.status_code == 201, r.get_json()
    spare["director_token_id"] = r.get_json()["token_id"]
    return grant["league_id"], eid, spare, tokens


def league_endpoints(lid: str, eid: str, spare: dict) -> list[tuple[str, str, dict | None, set, int]]:
    """(method, path, body, holders allowed, success status) for every league endpoint (``spare``: an event
    the league may add, and a second director token of the league, ``director_token_id``, to revoke)."""
    everyone = set(LEAGUE_HOLDERS)
    return [
        ("post", "/api/leagues", {"name": "Another", "director": {"name": "Q"}}, everyone, 201),
        ("get", f"/api/leagues/{lid}/table", None, everyone, 200),
        ("get", f"/api/leagues/{lid}", None, {"director"}, 200),
        ("patch", f"/api/leagues/{lid}", {"qualification": {"per_sprint": 3}}, {"director"}, 200),
        ("post", f"/api/leagues/{lid}/bonus", {"event_id": eid, "person": "p2", "points": 1}, {"director"}, 201),
        ("delete", f"/api/leagues/{lid}/bonus/missing", None, {"director"}, 404),
        (
            "post",
            f"/api/leagues/{lid}/events",
            {"event_id": spare["event_id"], "sprint": "playoffs", "organizer_token": spare["token"]},
            {"director"},
            201,
        ),
        ("delete", f"/api/leagues/{lid}/events/{eid}", None, {"director"}, 200),
        ("get", f"/api/leagues/{lid}/tokens", None, {"director"}, 200),
        ("post", f"/api/leagues/{lid}/tokens", {"label": "Co-director"}, {"director"}, 201),
        ("delete", f"/api/leagues/{lid}/tokens/{spare['director_token_id']}", None, {"director"}, 200),
        ("post", f"/api/leagues/{lid}/tokens/rotate", None, {"director"}, 201),  # last: the director's token rotates
    ]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_league_endpoints_refuse_every_token_but_the_directors(api, league):
    lid, eid, spare, tokens = league
    director = bearer(tokens["director"])
    before = api.client.get(f"/api/leagues/{lid}", headers=director).get_json()
    tokens_before = api.client.get(f"/api/leagues/{lid}/tokens", headers=director).get_json()
    checked = 0
    for method, path, body, allowed, _ in league_endpoints(lid, eid, spare):
        for holder in LEAGUE_HOLDERS:
            if holder in allowed:
                continue
            kwargs = {"headers": bearer(tokens[holder])} if holder else {}
            if body is not None:
                kwargs["json"] = body
            r = getattr(api.client, method)(path, **kwargs)
            expected = 401 if holder is None else 403
            assert r.status_code == expected, (method, path, holder, r.get_json())
            assert r.get_json()["error"] == ("missing-token" if holder is None else "forbidden"), r.get_json()
            checked += 1
    assert checked == 10 * 7
    after = api.client.get(f"/api/leagues/{lid}", headers=director).get_json()
    assert after == before  # nothing changed
    assert api.client.get(f"/api/leagues/{lid}/tokens", headers=director).get_json() == tokens_before
    assert len(tokens_before["tokens"]) == 2  # no token added, none revoked or rotated


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_league_endpoints_serve_their_holders(api, league):
    lid, eid, spare, tokens = league
    for method, path, body, allowed, status in league_endpoints(lid, eid, spare):
        for holder in sorted(allowed, key=str):
            kwargs = {"headers": bearer(tokens[holder])} if holder else {}
            if body is not None:
                kwargs["json"] = body
            r = getattr(api.client, method)(path, **kwargs)
            if method == "post" and path.endswith("/events") and r.status_code == 409:
                continue  # added once already
            assert r.status_code == status, (method, path, holder, r.get_json())
            if path == "/api/leagues" or path.endswith("/table"):
                continue
            break  # a director's change is made once


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_revoked_or_unknown_league_token_is_refused(api, league):
    from backend.db import db
    from backend.models import LeagueToken

    lid, _, _, tokens = league
    r = api.client.get(f"/api/leagues/{lid}", headers=bearer("tl_unknown"))
    assert r.status_code == 401 and r.get_json()["error"] == "invalid-token"
    with api.client.application.app_context():
        for row in db.session.query(LeagueToken).filter_by(league_id=lid):
            row.revoked_at = 1
        db.session.commit()
    r = api.client.get(f"/api/leagues/{lid}", headers=bearer(tokens["director"]))
    assert r.status_code == 401 and r.get_json()["error"] == "token-revoked"

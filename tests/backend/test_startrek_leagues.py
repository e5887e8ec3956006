"""The league resource (backend/startrek/leagues.py): a director's WCT league of this server's Star Trek events and its
public table (Star Trek OP Guide 12); bad requests name the field and change nothing."""

from __future__ import annotations

import pytest

from tests.backend.helpers import PLAYERS, bearer, trek_ops


@pytest.fixture
def trek(api):
    """Make a finished four-player Star Trek event; returns its grant (event_id, organizer token)."""

    def make(name: str = "Trek", ruleset: str = "startrek-2e", players=PLAYERS[:4], closed: bool = True) -> dict:
        created = api.create(ruleset, name)
        ops = trek_ops(players)
        api.push_ok(created["event_id"], created["token"], "desk", ops if closed else ops[:-1])
        return created

    return make


def new_league(client, **extra) -> dict:
    body = {
        "name": "Neutral Zone League",
        "director": {"name": "Q", "handle": "q-continuum"},
        "season": {"name": "2026-27", "schedule": "truncated"},
        "qualification": {"per_sprint": 2},
        **extra,
    }
    r = client.post("/api/leagues", json=body)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def add(client, league: dict, event: dict, sprint: str, token: str | None = None):
    return client.post(
        f"/api/leagues/{league['league_id']}/events",
        headers=bearer(league["token"]),
        json={
            "event_id": event["event_id"],
            "sprint": sprint,
            "organizer_token": token if token is not None else event["token"],
        },
    )


def league_of(client, league: dict) -> dict:
    r = client.get(f"/api/leagues/{league['league_id']}", headers=bearer(league["token"]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def table_of(client, league: dict) -> dict:
    r = client.get(f"/api/leagues/{league['league_id']}/table")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_creating_a_league_returns_the_director_token_once_and_an_empty_public_table(client):
    league = new_league(client)
    assert league["role"] == "director" and league["token"].startswith("tl_")
    body = league_of(client, league)
    assert body["name"] == "Neutral Zone League" and body["events"] == []
    assert [s["id"] for s in body["document"]["season"]["sprints"]] == ["regular", "playoffs"]
    table = table_of(client, league)
    assert table["table"]["season"] == [] and table["problems"] == []
    assert table["table"]["league"]["director"] == {"name": "Q", "handle": "q-continuum"}


def test_a_league_table_scores_two_events_keeps_bonus_apart_and_ranks_the_playoffs(client, trek):
    league = new_league(client, lifetime={"p1": 90, "p4": 120})
    regular, playoff = trek("Regular 1"), trek("Playoff 1")
    assert add(client, league, regular, "regular").status_code == 201
    assert add(client, league, playoff, "playoffs").status_code == 201
    r = client.post(
        f"/api/leagues/{league['league_id']}/bonus",
        headers=bearer(league["token"]),
        json={"event_id": regular["event_id"], "person": "p3", "points": 4, "scheme": "participation"},
    )
    assert r.status_code == 201, r.get_json()
    table = table_of(client, league)["table"]
    # Table 12.4.1, four players: 12, 8, 6, 6 (3rd-4th share a band).
    assert [ev["points"] for ev in table["events"]] == [{"p1": 12, "p2": 8, "p3": 6, "p4": 6}] * 2
    season = {row["person"]: row for row in table["season"]}
    assert {p: row["points"] for p, row in season.items()} == {"p1": 24, "p2": 16, "p3": 12, "p4": 12}
    assert season["p3"]["bonus"] == 4  # shown beside, never added in (12.5)
    lifetime = {row["person"]: row["points"] for row in table["lifetime"]}
    assert lifetime == {"p1": 114, "p2": 16, "p3": 12, "p4": 132}
    assert [(row["person"], row["bonus"], row["total"]) for row in table["bonus"]] == [("p3", 4, 16)]
    # Two qualify from the regular sprint (12.6); p1 wins the playoff event.
    assert [q["person"] for q in table["playoffs"]["qualified"]] == ["p1", "p2"]
    ranking = table["playoffs"]["ranking"]
    assert [(row["person"], row["points"]) for row in ranking] == [("p1", 12), ("p2", 8)]
    assert ranking[0]["tiebreakers"]["playoff_wins"] == 1
    assert [t["key"] for t in table["playoffs"]["tiebreakers"]][:3] == [
        "playoff_points",
        "playoff_wins",
        "season_points",
    ]
    # 12.7: 100 lifetime points or more, seeded by lifetime points.
    assert [(s["seed"], s["person"]) for s in table["champions_league_seeding"]] == [(1, "p4"), (2, "p1")]


def test_the_table_follows_an_event_as_it_is_played(api, client):
    league = new_league(client)
    event = api.create("startrek-1e", "Still playing")
    ops = trek_ops()
    api.push_ok(event["event_id"], event["token"], "desk", ops[:-3])  # round 3 paired, not reported
    add(client, league, event, "regular")
    before = table_of(client, league)
    assert before["table"]["events"][0]["complete"] is False
    assert any("not finished" in w for w in before["table"]["warnings"])
    # Round 3: p4 beats p1, p3 beats p2; the table reads the event's new head.
    api.push_ok(
        event["event_id"],
        event["token"],
        "desk2",
        [
            {
                "type": "result.report",
                "payload": {"round": 3, "table": table, "outcomes": ["full-loss", "full-win"], "scores": [35, 100]},
            }
            for table in (1, 2)
        ],
    )
    after = table_of(client, league)
    assert after["events"][0]["cursor"] > before["events"][0]["cursor"]
    assert after["table"]["events"][0]["complete"] is True
    assert after["table"]["events"][0]["places"] == {"p1": 1, "p3": 2, "p2": 3, "p4": 4}


def test_adding_an_event_needs_its_organizer_token_and_bad_requests_change_nothing(api, client, trek):
    league = new_league(client)
    event, other = trek("Mine"), trek("Someone else's")
    judge = api.staff_token(event["event_id"], event["token"], "judge")
    version = league_of(client, league)["version"]
    cases = [
        (add(client, league, event, "regular", token=judge), 403, "not-organizer"),
        (add(client, league, event, "regular", token=other["token"]), 403, "not-organizer"),
        (add(client, league, event, "regular", token="tc_not-a-token"), 403, "not-organizer"),
        (add(client, league, {**event, "event_id": "nope"}, "regular"), 404, "unknown-event"),
        (add(client, league, event, "first-half"), 422, "invalid-request"),  # not a sprint of a truncated season
        (add(client, league, event, "semifinals"), 422, "invalid-request"),
    ]
    pokemon = api.create("pokemon-tcg", "Not Trek")
    cases.append((add(client, league, pokemon, "regular"), 422, "not-star-trek"))
    r = client.post(
        f"/api/leagues/{league['league_id']}/events",
        headers=bearer(league["token"]),
        json={"event_id": event["event_id"], "sprint": "regular"},
    )
    cases.append((r, 422, "invalid-request"))
    for response, status, code in cases:
        assert response.status_code == status, response.get_json()
        body = response.get_json()
        assert body["error"] == code and body["message"], body
    assert "organizer_token" in r.get_json()["message"]
    assert league_of(client, league)["version"] == version and league_of(client, league)["events"] == []
    assert add(client, league, event, "regular").status_code == 201
    again = add(client, league, event, "playoffs")
    assert again.status_code == 409 and again.get_json()["error"] == "already-in-league"
    assert [e["sprint"] for e in league_of(client, league)["events"]] == ["regular"]


def test_changing_the_league_is_checked_whole_and_names_the_field(client, trek):
    league = new_league(client)
    path, auth = f"/api/leagues/{league['league_id']}", bearer(league["token"])
    version = league_of(client, league)["version"]
    for body, field in (
        ({"qualification": {"per_sprint": 0}}, "qualification.per_sprint"),
        ({"qualification": {"per_sprint": 2, "players": ["p1"]}}, "qualification"),
        ({"director": {"handle": "no name"}}, "director.name"),
        ({"season": {"schedule": "marathon"}}, "season.schedule"),
        ({"lifetime": {"p1": -3}}, "lifetime.p1"),
        ({}, "name"),
    ):
        r = client.patch(path, json=body, headers=auth)
        assert r.status_code == 422, (body, r.get_json())
        assert field in r.get_json()["message"], (field, r.get_json())
    assert league_of(client, league)["version"] == version
    r = client.patch(path, json={"qualification": {"players": ["p1", "p3"]}, "name": "Badlands League"}, headers=auth)
    assert r.status_code == 200 and r.get_json()["name"] == "Badlands League"
    assert r.get_json()["version"] == version + 1
    event = trek()
    add(client, league, event, "regular")
    table = table_of(client, league)["table"]
    assert [q["person"] for q in table["playoffs"]["qualified"]] == ["p1", "p3"]  # as announced
    # A standard season has no 'regular' sprint: the event would be stranded.
    r = client.patch(path, json={"season": {"schedule": "standard"}}, headers=auth)
    assert r.status_code == 409 and r.get_json()["error"] == "sprints-in-use"
    assert league_of(client, league)["document"]["season"]["schedule"] == "truncated"


def test_bonus_points_name_a_participant_of_a_league_event_and_can_be_removed(client, trek):
    league = new_league(client)
    event, outside = trek("In"), trek("Out")
    add(client, league, event, "regular")
    path, auth = f"/api/leagues/{league['league_id']}/bonus", bearer(league["token"])
    for body, status, code in (
        ({"event_id": event["event_id"], "person": "p9", "points": 2}, 422, "not-a-participant"),
        ({"event_id": outside["event_id"], "person": "p1", "points": 2}, 422, "not-in-league"),
        ({"event_id": event["event_id"], "person": "p1", "points": 2.5}, 422, "invalid-request"),
        ({"event_id": event["event_id"], "person": "p1"}, 422, "invalid-request"),
    ):
        r = client.post(path, json=body, headers=auth)
        assert (r.status_code, r.get_json()["error"]) == (status, code), r.get_json()
    assert league_of(client, league)["document"]["bonus"] == []
    r = client.post(
        path,
        json={
            "event_id": event["event_id"],
            "person": "p2",
            "points": 3,
            "scheme": "new-mission",
            "note": "Earth first",
        },
        headers=auth,
    )
    entry = r.get_json()["document"]["bonus"][0]
    assert entry["person"] == "p2" and entry["scheme"] == "new-mission" and entry["id"]
    assert table_of(client, league)["table"]["bonus"][0]["entries"][0]["note"] == "Earth first"
    assert client.delete(f"{path}/nope", headers=auth).status_code == 404
    r = client.delete(f"{path}/{entry['id']}", headers=auth)
    assert r.status_code == 200 and r.get_json()["document"]["bonus"] == []
    assert table_of(client, league)["table"]["bonus"] == []


def test_removing_an_event_takes_its_bonus_points_and_a_deleted_event_is_reported(client, trek):
    league = new_league(client)
    first, second = trek("First"), trek("Second")
    add(client, league, first, "regular")
    add(client, league, second, "regular")
    auth = bearer(league["token"])
    client.post(
        f"/api/leagues/{league['league_id']}/bonus",
        headers=auth,
        json={"event_id": first["event_id"], "person": "p1", "points": 1},
    )
    r = client.delete(f"/api/leagues/{league['league_id']}/events/{first['event_id']}", headers=auth)
    assert r.status_code == 200, r.get_json()
    assert [e["event_id"] for e in r.get_json()["events"]] == [second["event_id"]]
    assert r.get_json()["document"]["bonus"] == []
    assert (
        client.delete(f"/api/leagues/{league['league_id']}/events/{first['event_id']}", headers=auth).status_code == 404
    )
    r = client.delete(
        f"/api/events/{second['event_id']}", json={"confirm": second["event_id"]}, headers=bearer(second["token"])
    )
    assert r.status_code == 200
    body = table_of(client, league)
    assert body["problems"] == [
        {
            "event_id": second["event_id"],
            "problem": "the event is not on this server (deleted, or its backup not restored yet)",
        }
    ]
    assert body["events"][0]["present"] is False and body["table"]["season"] == []


def test_league_errors_are_json_and_unknown_leagues_are_404(client):
    for method, path in (
        ("get", "/api/leagues/nope/table"),
        ("get", "/api/leagues/nope"),
        ("patch", "/api/leagues/nope"),
        ("delete", "/api/leagues/nope/events/x"),
        ("get", "/api/leagues/bad%20id/table"),
    ):
        r = getattr(client, method)(path, json={"name": "x"} if method == "patch" else None)
        assert r.status_code == 404 and r.get_json()["error"] == "unknown-league", (path, r.get_json())
    for body, field in (
        ({"director": {"name": "Q"}}, "name"),
        ({"name": "L"}, "director"),
        ({"name": "L", "director": {"name": "Q"}, "season": {"schedule": "weekly"}}, "season"),
        ({"name": "L", "director": {"name": "Q"}, "qualification": {"per_sprint": "four"}}, "qualification.per_sprint"),
    ):
        r = client.post("/api/leagues", json=body)
        assert r.status_code == 422 and field in r.get_json()["message"], (body, r.get_json())
    r = client.post("/api/leagues", data="{", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"] == "malformed-json"


def test_a_bonus_whose_player_changed_identity_is_left_out_and_said(api, client):
    league = new_league(client)
    event = api.create("startrek-2e", "Renamed ids")
    api.push_ok(event["event_id"], event["token"], "desk", trek_ops()[:-1])
    add(client, league, event, "regular")
    r = client.post(
        f"/api/leagues/{league['league_id']}/bonus",
        headers=bearer(league["token"]),
        json={"event_id": event["event_id"], "person": "p2", "points": 2},
    )
    assert r.status_code == 201
    # The organizer gives p2 their trekcc.org id afterwards: the league now knows them as 'kira'.
    api.push_ok(
        event["event_id"],
        event["token"],
        "desk2",
        [{"type": "player.edit", "payload": {"player": "p2", "fields": {"rating_id": "kira"}}}],
    )
    body = table_of(client, league)
    assert body["table"]["bonus"] == [] and "kira" in {row["person"] for row in body["table"]["season"]}
    assert [p["problem"].split(":")[0] for p in body["problems"]] == [
        f"bonus entry {r.get_json()['document']['bonus'][0]['id']}"
    ]


def test_an_event_summary_names_the_leagues_that_count_it(client, trek):
    event = trek("Badlands Regional")
    summary = client.get(f"/api/events/{event['event_id']}", headers=bearer(event["token"])).get_json()
    assert summary["leagues"] == []
    first, second = new_league(client, name="Neutral Zone League"), new_league(client, name="Badlands League")
    for league in (first, second):
        assert add(client, league, event, "regular").status_code == 201
    summary = client.get(f"/api/events/{event['event_id']}", headers=bearer(event["token"])).get_json()
    assert summary["leagues"] == [
        {"league_id": second["league_id"], "name": "Badlands League"},
        {"league_id": first["league_id"], "name": "Neutral Zone League"},
    ]
    r = client.delete(f"/api/leagues/{first['league_id']}/events/{event['event_id']}", headers=bearer(first["token"]))
    assert r.status_code == 200
    summary = client.get(f"/api/events/{event['event_id']}", headers=bearer(event["token"])).get_json()
    assert summary["leagues"] == [{"league_id": second["league_id"], "name": "Badlands League"}]

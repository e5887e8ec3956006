"""Players across events: people, roster links (by staff and automatic), history, merge and Star Trek ratings."""

from __future__ import annotations

import pytest

from tests.backend.helpers import bearer, pair_ops, register_ops, report

RATED = {"rating": {"sanctioned": True, "level": 2, "format": "constructed"}}


def person(api, token, **fields):
    r = api.client.post("/api/people", json=fields, headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def link(api, eid, token, player, person_id, **consent):
    """Link a roster entry to a person; ``consent``: ``code`` or ``proof_tokens`` (backend/consent.py)."""
    return api.client.put(
        f"/api/events/{eid}/players/{player}/person", json={"person": person_id, **consent}, headers=bearer(token)
    )


def history(api, token, person_id):
    return api.client.get(f"/api/people/{person_id}", headers=bearer(token))


def trek_event(api, name, date, players, results):
    """A rated Star Trek 1E event: ``players`` registered, one round paired in order, ``results`` per table."""
    created = api.create("startrek-1e", name, settings={**RATED, "rating": {**RATED["rating"], "date": date}})
    eid, org = created["event_id"], created["token"]
    ops = (
        register_ops(players)
        + pair_ops(1, players)
        + [
            {**report(1, t + 1, o), "payload": {**report(1, t + 1, o)["payload"], "scores": [100, 40]}}
            for t, o in enumerate(results)
        ]
    )
    api.push_ok(eid, org, "desk", ops)
    return eid, org


def test_staff_search_a_person_by_name_or_game_id_and_see_no_history(api):
    created = api.create()
    org = created["token"]
    ada = person(api, org, name="Zoë  López", pokemon_id="1234567", birth_year=2001)
    person(api, org, name="Ash Ketchum")
    found = api.client.get("/api/people?q=zoe lo", headers=bearer(org)).get_json()["people"]
    assert [p["id"] for p in found] == [ada["id"]]
    assert found[0]["name"] == "Zoë López" and found[0]["birth_year"] is None  # a name search shows no birth year
    by_id = api.client.get("/api/people?q=1234567", headers=bearer(org)).get_json()["people"]
    assert by_id == [{**ada, "birth_year": 2001}]
    assert set(by_id[0]) == {"id", "name", "pokemon_id", "birth_year", "trekcc_handle", "trekcc_id", "other_ids"}


def test_a_game_id_someone_holds_is_refused_naming_the_field_and_the_person(api):
    org = api.create()["token"]
    kirk = person(api, org, name="James Kirk", trekcc_id="4711", trekcc_handle="captain")
    r = api.client.post("/api/people", json={"name": "J. Kirk", "trekcc_id": "4711"}, headers=bearer(org))
    assert r.status_code == 409 and r.get_json()["error"] == "duplicate-id"
    assert r.get_json()["message"].startswith("trekcc_id: 4711") and r.get_json()["person"] == kirk["id"]
    assert api.client.get("/api/people?q=Captain", headers=bearer(org)).get_json()["people"] == [kirk]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "body, field",
    [
        ({"name": "x" * 201}, "name"),
        ({"name": "   "}, "name"),
        ({}, "name"),
        ({"name": "Ada", "birth_year": 1800}, "birth_year"),
        ({"name": "Ada", "pokemon_id": "12 34"}, "pokemon_id"),
        ({"name": "Ada", "trekcc_id": "x" * 65}, "trekcc_id"),
        ({"name": "Ada", "other_ids": {"Bad Key": "1"}}, "other_ids"),
        ({"name": "Ada", "other_ids": {f"g{i}": "1" for i in range(17)}}, "other_ids"),
    ],
)
def test_bad_people_are_refused_naming_the_field(api, body, field):
    org = api.create()["token"]
    r = api.client.post("/api/people", json=body, headers=bearer(org))
    assert r.status_code == 422 and r.get_json()["message"].startswith(field), r.get_json()
    assert api.client.get("/api/people?q=Ada", headers=bearer(org)).get_json()["people"] == []


def test_staff_link_and_unlink_a_roster_entry(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    ada = person(api, org, name="Ada")
    r = link(api, eid, org, "p1", ada["id"])
    assert r.status_code == 200 and r.get_json()["person"]["id"] == ada["id"] and r.get_json()["name"] == "Player 1"
    listed = api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"]
    assert [(row["player"], row["person"]["id"]) for row in listed] == [("p1", ada["id"])]
    # one person, one entry per event
    r = link(api, eid, org, "p2", ada["id"])
    assert r.status_code == 409 and r.get_json()["error"] == "person-linked"
    assert link(api, eid, org, "nobody", ada["id"]).get_json()["error"] == "unknown-player"
    r = link(api, eid, org, "p2", "nope")
    assert r.status_code == 404 and r.get_json()["error"] == "unknown-person" and "person" in r.get_json()["message"]
    r = api.client.delete(f"/api/events/{eid}/players/p1/person", headers=bearer(org))
    assert r.get_json() == {"event_id": eid, "player": "p1", "unlinked": True}
    assert api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"] == []
    assert link(api, eid, org, "p2", ada["id"]).status_code == 200


def test_a_register_op_with_a_known_game_id_links_its_entry_and_never_guesses_on_names(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    ash = person(api, org, name="Ash", pokemon_id="111", birth_year=2001)
    kirk = person(api, org, name="Kirk", trekcc_id="4711")
    person(api, org, name="Misty")
    players = [
        {"id": "a", "name": "Ash K.", "entry": 1, "pop_id": "111", "birth_year": 2001},
        {"id": "b", "name": "Someone", "rating_id": "4711"},
        {"id": "c", "name": "Misty"},  # a name alone links nobody
        {"id": "d", "name": "Ash Again", "pop_id": "111", "birth_year": 2001},  # Ash is linked already
        {"id": "e", "name": "Other", "pop_id": "111", "birth_year": 1999},
    ]  # another birth year
    api.push_ok(eid, org, "desk", register_ops(players))
    links = {
        row["player"]: row["person"]["id"]
        for row in api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"]
    }
    assert links == {"a": ash["id"], "b": kirk["id"]}
    # a removed entry is linked to nobody
    api.push_ok(eid, org, "desk", [{"type": "player.remove", "payload": {"player": "b"}}], first_seq=6)
    links = [
        row["player"] for row in api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"]
    ]
    assert links == ["a"]


def test_a_player_sees_their_own_history_with_place_and_record(api):
    first = api.create("pokemon-tcg", "Autumn Cup")
    eid, org = first["event_id"], first["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1) + [report(1, t, ["win", "loss"]) for t in range(1, 5)])
    ada = person(api, org, name="Ada")
    assert link(api, eid, org, "p1", ada["id"]).status_code == 200
    me = api.redeem(api.claims(eid, org)["p1"])["token"]
    body = api.client.get("/api/people/me", headers=bearer(me)).get_json()
    assert body["person"]["id"] == ada["id"] and body["merged"] == []
    [entry] = body["events"]
    assert entry["name"] == "Autumn Cup" and entry["ruleset"] == "pokemon-tcg" and entry["player"] == "p1"
    assert entry["place"] == 1 and entry["record"] and entry["players"] == 8 and entry["rating"] is None
    assert history(api, me, ada["id"]).get_json() == body
    # another player of the same event sees only their own
    other = api.redeem(api.claims(eid, org)["p2"])["token"]
    r = history(api, other, ada["id"])
    assert r.status_code == 403 and r.get_json()["error"] == "not-your-person"
    r = api.client.get("/api/people/me", headers=bearer(other))
    assert r.status_code == 404 and r.get_json()["error"] == "not-linked"


def test_star_trek_history_shows_the_rating_and_its_change_per_event(api):
    players = [{"id": "k", "name": "Kirk"}, {"id": "s", "name": "Spock"}]
    one, org1 = trek_event(api, "Regional I", "2026-03-01", players, [["full-win", "full-loss"]])
    two, org2 = trek_event(api, "Regional II", "2026-04-01", players, [["full-win", "full-loss"]])
    kirk, spock = person(api, org1, name="James Kirk"), person(api, org1, name="Spock")
    for eid, org in ((one, org1), (two, org2)):  # the second: the organizer of the first vouches
        assert link(api, eid, org, "k", kirk["id"], proof_tokens=[org1]).status_code == 200
        assert link(api, eid, org, "s", spock["id"], proof_tokens=[org1]).status_code == 200
    body = history(api, org2, kirk["id"]).get_json()
    assert [e["name"] for e in body["events"]] == ["Regional I", "Regional II"]
    assert [e["date"] for e in body["events"]] == ["2026-03-01", "2026-04-01"]
    first, second = (e["rating"] for e in body["events"])
    assert first["constructed"] == {"before": 1500, "after": 1514, "change": 14}  # k 28, expected 1/2
    assert second["constructed"]["before"] == 1514 and second["constructed"]["change"] > 0
    assert body["ratings"]["startrek-1e"]["constructed"] == second["constructed"]["after"]
    assert body["ratings"]["startrek-1e"]["games"] == 2
    # public ratings: names and ratings only, best first
    listed = api.client.get("/api/ratings?game=startrek-1e").get_json()
    assert [row["name"] for row in listed["ratings"]] == ["James Kirk", "Spock"]
    assert set(listed["ratings"][0]) == {"name", "constructed", "sealed", "overall", "games"}
    assert api.client.get("/api/ratings?game=chess").status_code == 422
    assert api.client.get("/api/ratings").status_code == 422


def test_merging_a_duplicate_keeps_both_histories_and_redirects(api):
    first = api.create("pokemon-tcg", "Cup One")
    eid, org = first["event_id"], first["token"]
    api.push_ok(eid, org, "desk", register_ops())
    ada = person(api, org, name="Ada", pokemon_id="42")
    dup = person(api, org, name="Ada L.", trekcc_id="ada-l")
    assert link(api, eid, org, "p1", ada["id"]).status_code == 200
    assert link(api, eid, org, "p2", dup["id"]).status_code == 200  # the same person entered twice
    r = api.client.post(f"/api/people/{dup['id']}/merge", json={"into": dup["id"]}, headers=bearer(org))
    assert r.status_code == 422 and r.get_json()["error"] == "merge-into-itself"
    r = api.client.post(f"/api/people/{dup['id']}/merge", json={"into": ada["id"]}, headers=bearer(org))
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["links_moved"] == 1 and r.get_json()["person"]["trekcc_id"] == "ada-l"
    body = history(api, org, ada["id"]).get_json()
    assert body["merged"] == [dup["id"]] and sorted(e["player"] for e in body["events"]) == ["p1", "p2"]
    r = history(api, org, dup["id"])
    assert r.status_code == 308 and r.headers["Location"].endswith(f"/api/people/{ada['id']}")
    assert api.client.get("/api/people?q=Ada", headers=bearer(org)).get_json()["people"][0]["id"] == ada["id"]
    assert len(api.client.get("/api/people?q=Ada", headers=bearer(org)).get_json()["people"]) == 1
    r = api.client.post(f"/api/people/{dup['id']}/merge", json={"into": ada["id"]}, headers=bearer(org))
    assert r.status_code == 409 and r.get_json()["error"] == "already-merged"


def test_merge_needs_an_organizer_of_an_event_linking_both(api):
    first, second = api.create(), api.create()
    api.push_ok(first["event_id"], first["token"], "desk", register_ops())
    a = person(api, first["token"], name="A")
    b = person(api, first["token"], name="B")
    assert link(api, first["event_id"], first["token"], "p1", a["id"]).status_code == 200
    r = api.client.post(f"/api/people/{a['id']}/merge", json={"into": b["id"]}, headers=bearer(first["token"]))
    assert r.status_code == 403 and r.get_json()["error"] == "not-linked-here"
    r = api.client.post(f"/api/people/{a['id']}/merge", json={"into": b["id"]}, headers=bearer(second["token"]))
    assert r.status_code == 403
    r = api.client.post(f"/api/people/{a['id']}/merge", json={"into": "missing"}, headers=bearer(first["token"]))
    assert r.status_code == 404 and r.get_json()["message"].startswith("into:")
    assert history(api, first["token"], a["id"]).status_code == 200  # nothing merged


def test_deleting_an_event_deletes_its_links_and_keeps_the_people(api):
    created = api.create(name="Gone")
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    keep = api.create()["token"]
    ada = person(api, org, name="Ada")
    assert link(api, eid, org, "p1", ada["id"]).status_code == 200
    r = api.client.delete(f"/api/events/{eid}", json={"confirm": "Gone"}, headers=bearer(org))
    assert r.status_code == 200 and r.get_json()["deleted"]["roster_links"] == 1
    assert [p["id"] for p in api.client.get("/api/people?q=Ada", headers=bearer(keep)).get_json()["people"]] == [
        ada["id"]
    ]


def test_an_imported_document_links_its_players_by_game_id(api):
    org = api.create()["token"]
    ash = person(api, org, name="Ash", pokemon_id="111", birth_year=2001)
    document = {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "name": "Imported",
        "players": [
            {"id": "a", "name": "Ash K.", "entry": 1, "pop_id": "111", "birth_year": 2001},
            {"id": "b", "name": "Brock", "entry": 2},
        ],
        "rounds": [],
    }
    r = api.client.post("/api/events", json={"document": document})
    assert r.status_code == 201, r.get_json()
    eid, token = r.get_json()["event_id"], r.get_json()["token"]
    links = api.client.get(f"/api/events/{eid}/people", headers=bearer(token)).get_json()["links"]
    assert [(row["player"], row["person"]["id"]) for row in links] == [("a", ash["id"])]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_searches_are_rate_limited_per_token(database_url, tmp_path):
    from backend import create_app
    from tests.backend.conftest import dispose
    from tests.backend.helpers import Api

    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "i",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "PEOPLE_SEARCH_LIMIT": "3 per minute",
        }
    )
    try:
        api = Api(app.test_client())
        first, second = api.create()["token"], api.create()["token"]
        for _ in range(3):
            assert api.client.get("/api/people?q=Ada", headers=bearer(first)).status_code == 200
        r = api.client.get("/api/people?q=Ada", headers=bearer(first))
        assert r.status_code == 429 and r.get_json()["error"] == "rate-limited" and r.headers["Retry-After"]
        assert api.client.get("/api/people?q=Ada", headers=bearer(second)).status_code == 200
    finally:
        dispose(app)


def test_an_unlinked_star_trek_player_is_rated_across_events_by_their_trekcc_handle(app, api):
    from backend.startrek.ratings import game_ratings

    # The desk typed each handle (players[].game_id): no player record, yet one rating across both events.
    first = [{"id": "k1", "name": "Kirk", "game_id": "jtkirk"}, {"id": "s1", "name": "Spock", "game_id": "spock"}]
    second = [{"id": "k2", "name": "J. Kirk", "game_id": "jtkirk"}, {"id": "s2", "name": "Spock", "rating_id": "spock"}]
    trek_event(api, "Regional I", "2026-03-01", first, [["full-win", "full-loss"]])
    trek_event(api, "Regional II", "2026-04-01", second, [["full-win", "full-loss"]])
    with app.app_context():
        ratings = game_ratings("startrek-1e")["ratings"]
    assert ratings["rating:jtkirk"]["games"] == 2 and ratings["rating:spock"]["games"] == 2
    assert ratings["rating:jtkirk"]["constructed"] > 1514  # won both

"""Linking a roster entry to a person another event links needs the person's consent (backend/consent.py).

Anyone can make an event (``POST /api/events`` needs no token) and so become its organizer: without consent
that organizer could link a stranger found by name, read their whole history and move their Star Trek rating.
"""

from __future__ import annotations

import copy

import pytest

from tests.backend.helpers import Api, bearer, register_ops
from tests.backend.test_people import history, link, person, trek_event

PLAYERS = [{"id": "k", "name": "Kirk"}, {"id": "s", "name": "Spock"}]


@pytest.fixture
def victim(api):
    """Kirk, trekcc 4711, who played a rated event run by its organizer."""
    eid, org = trek_event(api, "Regional I", "2026-03-01", PLAYERS, [["full-win", "full-loss"]])
    kirk = person(api, org, name="James Kirk", trekcc_id="4711")
    assert link(api, eid, org, "k", kirk["id"]).status_code == 200
    phone = api.redeem(api.claims(eid, org)["k"])["token"]
    return {"event": eid, "organizer": org, "person": kirk, "phone": phone}


def _refused(r, status, code):
    assert r.status_code == status, (r.status_code, r.get_json())
    assert r.get_json()["error"] == code and "\n" not in r.get_json()["message"]
    return r.get_json()["message"]


def _rating(api, name):
    rows = api.client.get("/api/ratings?game=startrek-1e").get_json()["ratings"]
    return next((row for row in rows if row["name"] == name), None)


def test_a_stranger_cannot_link_someone_elses_person_nor_read_their_history(api, victim):
    kirk = victim["person"]
    rating = _rating(api, "James Kirk")
    # Anyone: a fresh event of their own, a self-declared sanctioned one, with an entry of their own.
    eid, org = trek_event(api, "Fake Regional", "2026-05-01", PLAYERS, [["full-loss", "full-win"]])
    found = api.client.get("/api/people?q=kirk", headers=bearer(org)).get_json()["people"]
    assert [p["id"] for p in found] == [kirk["id"]]  # search still finds names (no history)
    message = _refused(link(api, eid, org, "k", kirk["id"]), 403, "consent-needed")
    assert "James Kirk has played in other events" in message and "player record code" in message
    _refused(link(api, eid, org, "k", kirk["id"], code="AAAA-BBBB-CCCC"), 403, "wrong-person-code")
    _refused(link(api, eid, org, "k", kirk["id"], proof_tokens=[org, "made-up"]), 403, "consent-needed")
    _refused(history(api, org, kirk["id"]), 403, "not-your-person")
    assert api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"] == []
    assert _rating(api, "James Kirk") == rating  # his rating did not move
    # Nor by his game id: a register op carrying it links nobody with a history.
    api.push_ok(
        eid,
        org,
        "desk-2",
        [{"type": "player.register", "payload": {"player": {"id": "x", "name": "Kirk?", "rating_id": "4711"}}}],
    )
    assert api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"] == []
    assert _rating(api, "James Kirk") == rating


def test_the_players_code_an_organizer_of_their_past_event_or_their_own_phone_consents(api, victim):
    kirk = victim["person"]
    code = api.client.get("/api/people/me", headers=bearer(victim["phone"])).get_json()["link_code"]
    assert len(code) == 14 and code.count("-") == 2
    assert "link_code" not in history(api, victim["organizer"], kirk["id"]).get_json()  # staff never see it
    # 1. The code the player reads out at a new event's desk (any case, dashes or not).
    eid, org = trek_event(api, "Regional II", "2026-04-01", PLAYERS, [["full-win", "full-loss"]])
    assert link(api, eid, org, "k", kirk["id"], code=code.lower().replace("-", "")).status_code == 200
    assert [e["name"] for e in history(api, org, kirk["id"]).get_json()["events"]] == ["Regional I", "Regional II"]
    # 2. The organizer of an event he played in, from their device (its token as proof).
    eid3, org3 = trek_event(api, "Regional III", "2026-05-01", PLAYERS, [["full-win", "full-loss"]])
    assert link(api, eid3, org3, "k", kirk["id"], proof_tokens=[victim["organizer"]]).status_code == 200
    # 3. His own phone: claimed in a new event, it links his entry with the token of his earlier entry.
    eid4, org4 = trek_event(api, "Regional IV", "2026-06-01", PLAYERS, [["full-win", "full-loss"]])
    mine = api.redeem(api.claims(eid4, org4)["k"])["token"]
    _refused(link(api, eid4, mine, "s", kirk["id"], proof_tokens=[victim["phone"]]), 403, "forbidden")
    _refused(link(api, eid4, mine, "k", kirk["id"]), 403, "consent-needed")
    assert link(api, eid4, mine, "k", kirk["id"], proof_tokens=[victim["phone"]]).status_code == 200
    assert len(api.client.get("/api/people/me", headers=bearer(mine)).get_json()["events"]) == 4
    # Another player's phone of his past event proves nothing.
    spock_phone = api.redeem(api.claims(victim["event"], victim["organizer"])["s"])["token"]
    eid5, org5 = trek_event(api, "Regional V", "2026-07-01", PLAYERS, [["full-win", "full-loss"]])
    _refused(link(api, eid5, org5, "k", kirk["id"], proof_tokens=[spock_phone]), 403, "consent-needed")


def test_a_new_record_needs_no_consent_and_a_game_id_links_it(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    ash = person(api, org, name="Ash", pokemon_id="111", birth_year=2001)
    api.push_ok(eid, org, "desk", register_ops([{"id": "a", "name": "Ash", "pop_id": "111", "birth_year": 2001}]))
    links = api.client.get(f"/api/events/{eid}/people", headers=bearer(org)).get_json()["links"]
    assert [(row["player"], row["person"]["id"]) for row in links] == [("a", ash["id"])]


def test_wrong_player_record_codes_count_as_wrong_codes_from_the_address(database_url, tmp_path):
    from backend import create_app
    from tests.backend.conftest import dispose

    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "i",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "REDEEM_FAILURES_LIMIT": "3 per minute",
        }
    )
    try:
        api = Api(app.test_client())
        eid, org = trek_event(api, "Regional I", "2026-03-01", PLAYERS, [["full-win", "full-loss"]])
        kirk = person(api, org, name="James Kirk")
        assert link(api, eid, org, "k", kirk["id"]).status_code == 200
        other, org2 = trek_event(api, "Regional II", "2026-04-01", PLAYERS, [["full-win", "full-loss"]])
        for _ in range(3):
            _refused(link(api, other, org2, "k", kirk["id"], code="AAAA-BBBB-CCCC"), 403, "wrong-person-code")
        _refused(link(api, other, org2, "k", kirk["id"], code="AAAA-BBBB-CCCC"), 429, "rate-limited")
    finally:
        dispose(app)


def test_a_made_up_backup_cannot_link_a_stranger_with_a_history(api, victim):
    kirk = victim["person"]
    eid, org = trek_event(api, "Mine", "2026-05-01", PLAYERS, [["full-loss", "full-win"]])
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    assert api.client.delete(f"/api/events/{eid}", json={"confirm": "Mine"}, headers=bearer(org)).status_code == 200
    forged = copy.deepcopy(backup)
    forged["people"] = [{"id": kirk["id"], "name": "James Kirk", "trekcc_id": "4711"}]
    forged["roster_links"] = [{"player_id": "k", "person_id": kirk["id"], "proof": "0" * 40}]
    r = api.client.post("/api/events/restore", json=forged, headers=bearer(org))
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["links"] == 0 and "does not prove their consent" in r.get_json()["notes"][0]
    _refused(history(api, org, kirk["id"]), 403, "not-your-person")
    # The same link with a real proof (a backup of a link made here with consent) is restored.
    api.client.delete(f"/api/events/{eid}", json={"confirm": "Mine"}, headers=bearer(org))
    code = api.client.get("/api/people/me", headers=bearer(victim["phone"])).get_json()["link_code"]
    api.client.post("/api/events/restore", json=backup, headers=bearer(org))
    assert link(api, eid, org, "k", kirk["id"], code=code).status_code == 200
    real = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    api.client.delete(f"/api/events/{eid}", json={"confirm": "Mine"}, headers=bearer(org))
    r = api.client.post("/api/events/restore", json=real, headers=bearer(org))
    assert (r.get_json()["links"], r.get_json()["notes"]) == (1, [])

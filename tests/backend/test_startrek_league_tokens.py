"""A league's director tokens (backend/startrek/leagues.py): listed, added for another device or a co-director, rotated
with the event tokens' grace period, revoked, never the last working one; every refusal changes nothing."""

from __future__ import annotations

import pytest
from sqlalchemy import select

import backend.auth
import backend.startrek.leagues
from backend.db import db
from backend.models import LeagueToken
from tests.backend.helpers import bearer
from tests.backend.test_startrek_leagues import league_of, new_league


def tokens_path(league: dict, rest: str = "") -> str:
    return f"/api/leagues/{league['league_id']}/tokens{rest}"


def listed(client, league: dict, token: str | None = None) -> list[dict]:
    r = client.get(tokens_path(league), headers=bearer(token or league["token"]))
    assert r.status_code == 200, r.get_json()
    return r.get_json()["tokens"]


def add_token(client, league: dict, label: str | None = "Tablet", token: str | None = None) -> dict:
    kwargs = {"json": {"label": label}} if label is not None else {}
    r = client.post(tokens_path(league), headers=bearer(token or league["token"]), **kwargs)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def rows(app, league_id: str) -> list[tuple]:
    """Every column of the league's token rows, to show that a refusal changed nothing."""
    with app.app_context():
        found = db.session.execute(
            select(LeagueToken).where(LeagueToken.league_id == league_id).order_by(LeagueToken.id)
        ).scalars()
        return [(t.id, t.token_hash, t.label, t.created_at, t.revoked_at, t.expires_at, t.replaced_by) for t in found]


def refused(response, status: int, code: str) -> dict:
    body = response.get_json()
    assert (response.status_code, body["error"]) == (status, code), body
    assert body["message"], body
    return body


class Clock:
    """A clock the league module and the token checks read instead of the real one (``now_ms``)."""

    def __init__(self, start: int) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    fake = Clock(1_800_000_000_000)
    monkeypatch.setattr(backend.startrek.leagues, "now_ms", fake)
    monkeypatch.setattr(backend.auth, "now_ms", fake)  # a token's expiry: the checks the league shares
    return fake


def test_the_token_list_names_each_token_marks_the_callers_and_never_shows_a_secret(client):
    league = new_league(client, label="Laptop")
    tablet = add_token(client, league, "Tablet")
    assert tablet["token"].startswith("tl_") and tablet["token"] != league["token"]
    assert (tablet["role"], tablet["label"], tablet["league_id"]) == ("director", "Tablet", league["league_id"])
    seen = listed(client, league)
    assert [(t["label"], t["this_device"], t["revoked"]) for t in seen] == [
        ("Laptop", True, False),
        ("Tablet", False, False),
    ]
    assert [t["token_id"] for t in seen] == [league["token_id"], tablet["token_id"]]
    assert all(t["created_at"] > 0 and t["expires_at"] is None and not t["expired"] for t in seen)
    # From the tablet, the tablet's token is this device's.
    assert [t["this_device"] for t in listed(client, league, tablet["token"])] == [False, True]
    text = client.get(tokens_path(league), headers=bearer(league["token"])).get_data(as_text=True)
    with client.application.app_context():
        hashes = [t.token_hash for t in db.session.execute(select(LeagueToken)).scalars()]
    for secret in (league["token"], tablet["token"], *hashes):
        assert secret not in text
    # The new token directs the league as the first one does.
    r = client.patch(f"/api/leagues/{league['league_id']}", json={"name": "Renamed"}, headers=bearer(tablet["token"]))
    assert r.status_code == 200 and league_of(client, league)["name"] == "Renamed"


def test_a_token_added_without_a_body_gets_the_default_label(client):
    league = new_league(client)
    grant = add_token(client, league, label=None)
    assert grant["label"] == "league director"
    assert league_of(client, {**league, "token": grant["token"]})["league_id"] == league["league_id"]


def test_rotation_keeps_the_old_token_for_the_grace_period_then_refuses_it(app, client, clock):
    app.config["TOKEN_ROTATION_GRACE_S"] = 600
    league = new_league(client)
    r = client.post(tokens_path(league, "/rotate"), headers=bearer(league["token"]))
    assert r.status_code == 201, r.get_json()
    fresh = r.get_json()
    assert fresh["token"].startswith("tl_") and fresh["token"] != league["token"]
    assert fresh["label"] == "league director" and fresh["role"] == "director"
    new = {**league, "token": fresh["token"]}
    # An answer lost on the way: the old token still works for the grace period ...
    clock.now += 599_999
    assert league_of(client, league)["league_id"] == league["league_id"]
    by_id = {t["token_id"]: t for t in listed(client, new)}
    assert by_id[league["token_id"]]["replaced_by"] == fresh["token_id"]
    assert by_id[league["token_id"]]["expires_at"] == clock.now + 1 and not by_id[league["token_id"]]["expired"]
    # ... then not.
    clock.now += 1
    refused(client.get(f"/api/leagues/{league['league_id']}", headers=bearer(league["token"])), 401, "token-expired")
    refused(client.post(tokens_path(league, "/rotate"), headers=bearer(league["token"])), 401, "token-expired")
    assert league_of(client, new)["league_id"] == league["league_id"]
    by_id = {t["token_id"]: t for t in listed(client, new)}
    assert by_id[league["token_id"]]["expired"] is True and by_id[fresh["token_id"]]["this_device"] is True


def test_the_grace_period_follows_the_event_tokens_setting(app, client, clock):
    app.config["TOKEN_ROTATION_GRACE_S"] = 30
    league = new_league(client)
    client.post(tokens_path(league, "/rotate"), headers=bearer(league["token"]))
    clock.now += 29_999
    assert client.get(f"/api/leagues/{league['league_id']}", headers=bearer(league["token"])).status_code == 200
    clock.now += 1
    refused(client.get(f"/api/leagues/{league['league_id']}", headers=bearer(league["token"])), 401, "token-expired")


def test_revoking_a_token_refuses_it_at_once_and_the_last_working_one_cannot_be_revoked(app, client):
    league = new_league(client)
    tablet = add_token(client, league, "Tablet")
    auth = bearer(league["token"])
    r = client.delete(tokens_path(league, f"/{tablet['token_id']}"), headers=auth)
    assert r.status_code == 200 and r.get_json() == {"token_id": tablet["token_id"], "revoked": True}
    refused(client.get(f"/api/leagues/{league['league_id']}", headers=bearer(tablet["token"])), 401, "token-revoked")
    # Revoking it again answers the same, and changes nothing.
    before = rows(app, league["league_id"])
    assert client.delete(tokens_path(league, f"/{tablet['token_id']}"), headers=auth).status_code == 200
    assert rows(app, league["league_id"]) == before
    # The laptop's token is now the only working one: revoking it would orphan the league.
    body = refused(
        client.delete(tokens_path(league, f"/{league['token_id']}"), headers=auth), 409, "last-director-token"
    )
    assert "last working director token" in body["message"]
    assert rows(app, league["league_id"]) == before
    assert league_of(client, league)["league_id"] == league["league_id"]


def test_a_director_may_revoke_their_own_token_when_another_works(app, client):
    league = new_league(client)
    successor = add_token(client, league, "New director")
    r = client.delete(tokens_path(league, f"/{league['token_id']}"), headers=bearer(league["token"]))
    assert r.status_code == 200, r.get_json()
    refused(client.get(tokens_path(league), headers=bearer(league["token"])), 401, "token-revoked")
    handed = {**league, "token": successor["token"]}
    assert [(t["label"], t["revoked"]) for t in listed(client, handed)] == [
        ("league director", True),
        ("New director", False),
    ]
    # The successor now holds the last working token.
    refused(
        client.delete(tokens_path(league, f"/{successor['token_id']}"), headers=bearer(successor["token"])),
        409,
        "last-director-token",
    )


def test_a_token_in_its_grace_period_does_not_count_as_a_working_one(app, client):
    league = new_league(client)
    fresh = client.post(tokens_path(league, "/rotate"), headers=bearer(league["token"])).get_json()
    before = rows(app, league["league_id"])
    # The old token still works for a few minutes, but it is on its way out: the new one is the last that lasts.
    refused(
        client.delete(tokens_path(league, f"/{fresh['token_id']}"), headers=bearer(league["token"])),
        409,
        "last-director-token",
    )
    assert rows(app, league["league_id"]) == before
    # The rotated-away token itself may be revoked at once (a leaked token: revoke, do not wait out the grace).
    r = client.delete(tokens_path(league, f"/{league['token_id']}"), headers=bearer(fresh["token"]))
    assert r.status_code == 200
    refused(client.get(f"/api/leagues/{league['league_id']}", headers=bearer(league["token"])), 401, "token-revoked")


def test_refused_token_requests_change_nothing(app, client, monkeypatch):
    league, other = new_league(client), new_league(client)
    add_token(client, league, "Tablet")
    auth = bearer(league["token"])
    before, other_before = rows(app, league["league_id"]), rows(app, other["league_id"])
    cases = [
        (client.delete(tokens_path(league, "/nope"), headers=auth), 404, "unknown-token"),
        (client.delete(tokens_path(league, "/bad%20id"), headers=auth), 404, "unknown-token"),
        # Another league's token id is not this league's.
        (client.delete(tokens_path(league, f"/{other['token_id']}"), headers=auth), 404, "unknown-token"),
        # Another league's director may not touch this league's tokens.
        (
            client.delete(tokens_path(league, f"/{league['token_id']}"), headers=bearer(other["token"])),
            403,
            "forbidden",
        ),
        (client.post(tokens_path(league), json={"label": "x"}, headers=bearer(other["token"])), 403, "forbidden"),
        (client.post(tokens_path(league, "/rotate"), headers=bearer(other["token"])), 403, "forbidden"),
        (client.post(tokens_path(league), json={"label": "x" * 201}, headers=auth), 422, "invalid-request"),
        (client.post(tokens_path(league), json={"label": "a\u0000b"}, headers=auth), 400, "malformed-json"),
        (client.post(tokens_path(league), json={"label": 7}, headers=auth), 422, "invalid-request"),
        (
            client.post(tokens_path(league), data="{", content_type="application/json", headers=auth),
            400,
            "malformed-json",
        ),
        (
            client.post(tokens_path(league), data="label=x", content_type="text/plain", headers=auth),
            415,
            "unsupported-media-type",
        ),
        (client.post(tokens_path(league), json={"label": "x"}, headers=bearer("tl_unknown")), 401, "invalid-token"),
        (client.post(tokens_path(league, "/rotate")), 401, "missing-token"),
        (client.get("/api/leagues/nope/tokens", headers=auth), 404, "unknown-league"),
        (client.post("/api/leagues/nope/tokens/rotate", headers=auth), 404, "unknown-league"),
    ]
    for response, status, code in cases:
        refused(response, status, code)
    monkeypatch.setattr(backend.startrek.leagues, "MAX_DIRECTOR_TOKENS", 2)
    refused(client.post(tokens_path(league), json={"label": "Third"}, headers=auth), 409, "too-many-tokens")
    assert rows(app, league["league_id"]) == before and rows(app, other["league_id"]) == other_before
    # A revoked token frees its place.
    tablet = next(t for t in listed(client, league) if t["label"] == "Tablet")
    client.delete(tokens_path(league, f"/{tablet['token_id']}"), headers=auth)
    assert add_token(client, league, "Third")["label"] == "Third"


def test_the_openapi_description_lists_the_token_endpoints_and_their_errors(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    base = "/api/leagues/{league_id}/tokens"
    assert set(paths[base]) >= {"get", "post"}
    assert "post" in paths[base + "/rotate"] and "delete" in paths[base + "/{token_id}"]
    assert {"401", "403", "404", "409"} <= set(paths[base + "/{token_id}"]["delete"]["responses"])
    assert "422" not in paths[base + "/rotate"]["post"]["responses"]
    assert paths[base]["post"]["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/LeagueGrant"
    }


def test_two_directors_revoking_their_own_tokens_at_once_leave_the_league_one(app, client, monkeypatch):
    """The league row's lock makes concurrent revocations take turns: the second sees the first's and is refused.
    (The check is slowed down so that, without the lock, both would pass it before either wrote.)"""
    import threading
    import time

    league = new_league(client)
    second = add_token(client, league, "Tablet")
    lasting = backend.startrek.leagues._lasting

    def slow_lasting(league_id, now):
        time.sleep(0.3)
        return lasting(league_id, now)

    monkeypatch.setattr(backend.startrek.leagues, "_lasting", slow_lasting)
    answers: list[tuple[int, str | None]] = []
    start = threading.Barrier(2)

    def revoke_own(token: str, token_id: str) -> None:
        start.wait(timeout=10)
        r = app.test_client().delete(tokens_path(league, f"/{token_id}"), headers=bearer(token))
        answers.append((r.status_code, r.get_json().get("error")))

    threads = [
        threading.Thread(target=revoke_own, args=(league["token"], league["token_id"])),
        threading.Thread(target=revoke_own, args=(second["token"], second["token_id"])),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(answers, key=str) == [(200, None), (409, "last-director-token")]
    with app.app_context():
        left = db.session.execute(
            select(LeagueToken.id).where(LeagueToken.league_id == league["league_id"], LeagueToken.revoked_at.is_(None))
        ).all()
    assert len(left) == 1

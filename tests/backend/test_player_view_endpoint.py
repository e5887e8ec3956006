"""``GET /api/events/<id>/view``: a player's view rendered on the server (issue 26), on SQLite and PostgreSQL:
the player's own matches, ETag/304, the pull's privacy, drafts held back, refusals in words."""

from __future__ import annotations

import json

from tests.backend.helpers import PLAYERS, bearer, register_ops

T0 = 1_700_000_000_000


def _event(api, ruleset: str = "pokemon-tcg", **extra):
    created = api.create(ruleset, "Cup", **extra)
    eid, org = created["event_id"], created["token"]
    players = [dict(p, entry=i + 1, birth_year=1980 + i) for i, p in enumerate(PLAYERS)]
    api.push_ok(eid, org, "desk", register_ops(players))
    return eid, org


def _round(number: int, secret: bool = False) -> list[dict]:
    shift = number - 1
    ids = [PLAYERS[(i + shift) % 8]["id"] for i in range(8)]
    matches = [{"table": t + 1, "players": ids[2 * t : 2 * t + 2]} for t in range(4)]
    start = {"number": number, "duration_s": 3600, "at": T0, **({"secret": True} if secret else {})}
    return [
        {"type": "round.pair", "payload": {"number": number, "matches": matches}},
        {"type": "round.publish", "payload": {"number": number}},
        {"type": "round.start", "payload": start},
    ]


def _results(number: int, tables=(1, 2, 3, 4)) -> list[dict]:
    return [
        {"type": "result.report", "payload": {"round": number, "table": t, "outcomes": ["win", "loss"]}} for t in tables
    ]


def _player(api, eid, org, pid):
    r = api.client.post(f"/api/events/{eid}/players/{pid}/claim", headers=bearer(org))
    assert r.status_code == 201, r.get_json()
    return api.redeem(r.get_json()["code"])["token"]


def _view(api, eid, token, **headers):
    return api.client.get(f"/api/events/{eid}/view", headers={**bearer(token), **headers})


def test_a_player_gets_their_own_matches_opponents_and_the_published_standings(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1) + _round(2) + _results(2, (1,)), first_seq=9)
    token = _player(api, eid, org, "p1")
    r = _view(api, eid, token)
    assert r.status_code == 200, r.get_json()
    assert r.headers["Cache-Control"] == "no-cache"
    body = r.get_json()
    assert body["version"] == 1 and body["me"] == "p1"
    assert body["cursor"] == api.pull(eid, org)["cursor"]
    assert isinstance(body["server_ms"], int)
    rounds = body["state"]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2]
    assert all(len(r["matches"]) == 1 and "p1" in r["matches"][0]["players"] for r in rounds)
    opponents = {p for r in rounds for p in r["matches"][0]["players"]}
    assert {p["id"] for p in body["state"]["players"]} == opponents
    assert body["info"]["id"] == "pokemon-tcg"
    assert [c["round"] for c in body["clock"]] == [1, 2]
    assert body["standings"]["after"] == {"number": 1, "stage": "swiss"}, "round 2 is in play"
    assert len(body["standings"]["rows"]) == 8 and body["standings"]["rows"][0]["name"].startswith("Player")
    assert body["decklist"]["players"][0]["id"] == "p1"
    assert body["calls"] == []


def test_an_up_to_date_view_is_a_304_without_a_body_until_the_log_moves(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1), first_seq=9)
    token = _player(api, eid, org, "p2")
    first = _view(api, eid, token)
    etag = first.headers["ETag"]
    again = _view(api, eid, token, **{"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    api.push_ok(eid, org, "desk", _results(1, (1,)), first_seq=12)
    moved = _view(api, eid, token, **{"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["ETag"] != etag
    assert moved.get_json()["state"]["rounds"][0]["matches"][0]["status"] != "pending"


def test_players_views_of_the_same_position_have_different_etags(api):
    eid, org = _event(api)
    one, two = _player(api, eid, org, "p1"), _player(api, eid, org, "p2")
    assert _view(api, eid, one).headers["ETag"] != _view(api, eid, two).headers["ETag"]
    assert _view(api, eid, two, **{"If-None-Match": _view(api, eid, one).headers["ETag"]}).status_code == 200


def test_a_drafted_round_is_held_back_until_it_is_published(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1), first_seq=9)
    api.push_ok(eid, org, "desk", [_round(2)[0]], first_seq=16)
    token = _player(api, eid, org, "p3")
    body = _view(api, eid, token).get_json()
    assert [r["number"] for r in body["state"]["rounds"]] == [1]
    api.push_ok(eid, org, "desk", [_round(2)[1]], first_seq=17)
    assert [r["number"] for r in _view(api, eid, token).get_json()["state"]["rounds"]] == [1, 2]


def test_other_players_penalties_birth_years_and_devices_are_not_in_the_view(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1), first_seq=9)
    judge = api.staff_token(eid, org, "judge")
    warnings = [
        {"type": "penalty.issue", "payload": {"player": pid, "kind": "warning", "reason": f"slow play by {pid}"}}
        for pid in ("p1", "p2")
    ]
    api.push_ok(eid, org, "tablet-ju", warnings)
    api.push_ok(eid, org, "desk", _results(1, (1,)), first_seq=12)
    token = _player(api, eid, org, "p1")
    body = _view(api, eid, token).get_json()
    text = json.dumps(body)
    assert [p["player"] for p in body["state"]["penalties"]] == ["p1"]
    assert "slow play by p2" not in text
    assert "1981" not in text, "the opponent's birth year"
    assert "tablet-ju" not in text and '"desk"' not in text, "other devices go by their aliases"
    me = next(p for p in body["state"]["players"] if p["id"] == "p1")
    assert me["birth_year"] == 1980
    assert judge


def test_doomtown_players_never_learn_the_secret_time_from_the_view(api):
    eid, org = _event(api, "doomtown")
    api.push_ok(eid, org, "desk", _round(1, secret=True), first_seq=9)
    staff = api.state(eid, org)
    secret_s = staff["rounds"][0]["timer"]["secret_s"]
    assert secret_s
    body = _view(api, eid, _player(api, eid, org, "p4")).get_json()
    assert body["state"]["rounds"][0]["timer"]["secret_s"] is None
    clock = body["clock"][0]
    assert clock["secret"] is True and clock["secret_s"] is None
    assert clock["remaining_ms"] == clock["announced_ms"]
    assert clock["remaining_ms"] <= 3600 * 1000 - (body["server_ms"] - T0)
    assert staff["seed"] not in json.dumps(body)


def test_staff_name_the_player_whose_view_to_show(api):
    eid, org = _event(api)
    r = _view(api, eid, org)
    assert r.status_code == 403
    assert r.get_json()["error"] == "staff-token" and "?player=" in r.get_json()["message"]
    shown = api.client.get(f"/api/events/{eid}/view?player=p5", headers=bearer(org))
    assert shown.status_code == 200 and shown.get_json()["me"] == "p5"
    unknown = api.client.get(f"/api/events/{eid}/view?player=nobody", headers=bearer(org))
    assert unknown.status_code == 404 and unknown.get_json()["error"] == "unknown-player"
    assert "nobody" in unknown.get_json()["message"]


def test_a_player_may_not_read_another_players_view(api):
    eid, org = _event(api)
    token = _player(api, eid, org, "p1")
    r = api.client.get(f"/api/events/{eid}/view?player=p2", headers=bearer(token))
    assert r.status_code == 403 and r.get_json()["error"] == "not-your-view"


def test_a_revoked_claim_or_a_missing_token_gets_no_view(api):
    eid, org = _event(api)
    token = _player(api, eid, org, "p6")
    assert _view(api, eid, token).status_code == 200
    revoked = api.client.delete(f"/api/events/{eid}/players/p6/claim", headers=bearer(org))
    assert revoked.status_code in (200, 204), revoked.get_json()
    r = _view(api, eid, token)
    assert r.status_code == 401 and r.get_json()["error"]
    etag_free = api.client.get(f"/api/events/{eid}/view")
    assert etag_free.status_code == 401 and etag_free.get_json()["error"] == "missing-token"
    assert api.client.get("/api/events/nope/view", headers=bearer(token)).status_code == 404


def test_a_cold_worker_gives_the_same_view_from_the_snapshot_and_the_shared_parts(api, app, tmp_path):
    from backend import create_app
    from backend.db import db
    from backend.models import ViewParts

    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1) + _round(2), first_seq=9)
    with app.app_context():
        row = db.session.get(ViewParts, eid)
        assert row is not None, "the round's completion made the shared parts for every worker"
        assert json.loads(row.standings)["after"] == {"number": 1, "stage": "swiss"}
        assert row.state_seq == api.pull(eid, org)["cursor"], "round 2 posted: the state kept for cold workers"
    token = _player(api, eid, org, "p2")
    warm = _view(api, eid, token)
    other = create_app(dict(app.config, TESTING=True))  # another worker: nothing in memory
    try:
        cold = other.test_client().get(f"/api/events/{eid}/view", headers=bearer(token))
        assert cold.status_code == 200
        assert cold.headers["ETag"] == warm.headers["ETag"]
        strip = lambda body: {k: v for k, v in body.items() if k not in ("server_ms", "clock")}  # noqa: E731
        assert strip(cold.get_json()) == strip(warm.get_json())
        again = other.test_client().get(
            f"/api/events/{eid}/view", headers={**bearer(token), "If-None-Match": warm.headers["ETag"]}
        )
        assert again.status_code == 304
    finally:
        with other.app_context():
            db.engine.dispose()


def test_standings_follow_the_policy_on_the_view_and_the_public_page(api):
    eid, org = _event(api)
    policy = {"type": "event.configure", "payload": {"settings": {"standings_policy": "end"}}}
    api.push_ok(eid, org, "desk", [policy, *_round(1), *_results(1)], first_seq=9)
    body = _view(api, eid, _player(api, eid, org, "p1")).get_json()
    assert body["standings"] is None and "end of the event" in body["standings_note"]
    public = api.client.get(f"/api/events/{eid}/standings").get_json()
    assert public["standings"] == [] and "end of the event" in public["note"]


def test_a_gzipped_view_is_the_same_json_and_its_etag_still_answers_304(api):
    import gzip

    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1) + _round(2), first_seq=9)
    token = _player(api, eid, org, "p7")
    first = _view(api, eid, token, **{"Accept-Encoding": "gzip"})
    assert first.status_code == 200 and first.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in first.headers["Vary"]
    plain = _view(api, eid, token)
    assert "Content-Encoding" not in plain.headers
    unzipped = json.loads(gzip.decompress(first.data))
    timeless = lambda body: {k: v for k, v in body.items() if k not in ("server_ms", "clock")}  # noqa: E731
    assert timeless(unzipped) == timeless(plain.get_json())
    assert len(unzipped["standings"]["rows"]) == 8
    assert _view(api, eid, token, **{"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_a_corrected_result_in_a_complete_round_moves_the_published_standings(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1), first_seq=9)
    token = _player(api, eid, org, "p1")
    before = _view(api, eid, token).get_json()["standings"]["rows"]
    assert next(r for r in before if r["player"] == "p1")["record"].startswith("1-0")
    correct = {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "the players swapped seats"}
    api.push_ok(eid, org, "desk", [{"type": "result.correct", "payload": correct}], first_seq=16)
    after = _view(api, eid, token).get_json()["standings"]["rows"]
    assert next(r for r in after if r["player"] == "p1")["record"].startswith("0-1")


def test_a_correction_in_a_counted_round_leaves_the_ranking_to_the_next_view(api, app):
    # The push of a correction ranks nothing (a judge's request, not a phone's): the shared parts go stale and the
    # first view that needs them makes them again, for every worker.
    from backend import create_app
    from backend.db import db
    from backend.models import ViewParts

    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1), first_seq=9)
    with app.app_context():
        made = db.session.get(ViewParts, eid).parts_key
    correct = {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "the players swapped seats"}
    api.push_ok(eid, org, "desk", [{"type": "result.correct", "payload": correct}], first_seq=16)
    with app.app_context():
        assert db.session.get(ViewParts, eid).parts_key == made, "the pushing request made no parts"
    token = _player(api, eid, org, "p1")
    rows = _view(api, eid, token).get_json()["standings"]["rows"]
    assert next(r for r in rows if r["player"] == "p1")["record"].startswith("0-1")
    with app.app_context():
        assert db.session.get(ViewParts, eid).parts_key != made, "the view made them again for the other workers"
    other = create_app(dict(app.config, TESTING=True))  # another worker: nothing in memory
    try:
        cold = other.test_client().get(f"/api/events/{eid}/view", headers=bearer(token)).get_json()
        assert next(r for r in cold["standings"]["rows"] if r["player"] == "p1")["record"].startswith("0-1")
    finally:
        with other.app_context():
            db.engine.dispose()


def test_only_the_push_that_moves_the_published_round_makes_the_parts(api, app):
    # Another worker's first push of a result in play ranks nothing, even though the parts are stale there.
    from backend import create_app
    from backend.db import db
    from backend.models import ViewParts
    from tests.backend.helpers import Api

    eid, org = _event(api)
    api.push_ok(eid, org, "desk", _round(1) + _results(1) + _round(2), first_seq=9)  # round 1 complete: made
    correct = {"round": 1, "table": 1, "outcomes": ["loss", "win"], "reason": "the players swapped seats"}
    api.push_ok(eid, org, "desk", [{"type": "result.correct", "payload": correct}], first_seq=19)
    with app.app_context():
        stale = db.session.get(ViewParts, eid).parts_key
    other = create_app(dict(app.config, TESTING=True))  # another worker, nothing in memory
    try:
        Api(other.test_client()).push_ok(eid, org, "desk", _results(2, (1,)), first_seq=20)
    finally:
        with other.app_context():
            db.engine.dispose()
    with app.app_context():
        assert db.session.get(ViewParts, eid).parts_key == stale, "round 2 in play: no ranking in the push"
    api.push_ok(eid, org, "desk", _results(2, (2, 3, 4)), first_seq=21)  # round 2 complete: made again
    with app.app_context():
        row = db.session.get(ViewParts, eid)
        assert row.parts_key != stale and json.loads(row.standings)["after"] == {"number": 2, "stage": "swiss"}


def test_a_view_opened_before_round_one_shows_the_table_once_the_round_is_posted(api):
    # Phones open at check-in, long before pairings: the shared parts made then (no standings, no rounds) stay
    # valid for the standings, but the player's seat must come from the posted round.
    eid, org = _event(api, "doomtown")
    token = _player(api, eid, org, "p1")
    before = _view(api, eid, token)
    assert before.get_json()["state"]["rounds"] == []
    api.push_ok(eid, org, "desk", _round(1), first_seq=9)
    after = _view(api, eid, token, **{"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200
    (rnd,) = after.get_json()["state"]["rounds"]
    assert [m["players"] for m in rnd["matches"]] == [["p1", "p2"]]
    api.push_ok(eid, org, "desk", _results(1) + _round(2), first_seq=12)  # the next round's seat too
    rounds = _view(api, eid, token).get_json()["state"]["rounds"]
    assert [m["players"] for r in rounds for m in r["matches"]] == [["p1", "p2"], ["p8", "p1"]]


def test_the_posted_cut_comes_with_its_bracket_and_names_a_drafted_one_does_not(api):
    eid, org = _event(api, "doomtown")
    token = _player(api, eid, org, "p1")
    api.push_ok(eid, org, "desk", _round(1) + _results(1), first_seq=9)
    cut = {"type": "cut.make", "payload": {"size": 2, "matches": [{"players": ["p1", "p3"]}]}}
    api.push_ok(eid, org, "desk", [cut], first_seq=16)
    assert _view(api, eid, token).get_json()["bracket"] is None  # drafted: not posted yet
    api.push_ok(eid, org, "desk", [{"type": "round.publish", "payload": {"number": 2}}], first_seq=17)
    bracket = _view(api, eid, token).get_json()["bracket"]
    assert bracket["names"] == {"p1": "Player 1", "p3": "Player 3"}
    assert [p["player"] for r in bracket["rounds"] for s in r["slots"] for p in s["players"]] == ["p1", "p3"]

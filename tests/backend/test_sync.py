"""Push, pull, idempotency, gaps, conflicts, roles and import/export (SQLite and PostgreSQL)."""

from __future__ import annotations

import json

from shared_rules.state import to_event_document
from tests.backend.helpers import PLAYERS, bearer, pair_ops, register_ops, report


def _event(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    return eid, org


def test_create_push_pull_roundtrip(api):
    created = api.create(name="Spring Cup")
    assert created["role"] == "organizer" and created["cursor"] == 1
    eid, org = created["event_id"], created["token"]
    result = api.push_ok(eid, org, "desk", register_ops())
    assert [v["server_seq"] for v in result["results"]] == list(range(2, 2 + len(PLAYERS)))
    pulled = api.pull(eid, org)
    assert [o["server_seq"] for o in pulled["ops"]] == list(range(1, 2 + len(PLAYERS)))
    assert pulled["devices"]["desk"] == {"last_seq": len(PLAYERS), "last_accepted": len(PLAYERS)}
    # the token's role is the actor, whatever the body claimed
    assert all(o["op"]["actor"] == {"role": "organizer"} for o in pulled["ops"])
    assert api.folded(eid, org) == api.state(eid, org)
    later = api.pull(eid, org, cursor=3)
    assert [o["server_seq"] for o in later["ops"]] == list(range(4, 2 + len(PLAYERS)))
    limited = api.pull(eid, org, cursor=0, limit=2)
    assert limited["more"] is True and limited["cursor"] == 2


def test_push_is_idempotent_and_rejections_are_recorded(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    ops = register_ops(PLAYERS[:2]) + register_ops(PLAYERS[:1])  # the third is a duplicate player
    first = api.push(eid, org, "desk", ops).get_json()
    assert [v["status"] for v in first["results"]] == ["accepted", "accepted", "rejected"]
    assert "already registered" in first["results"][2]["reason"]
    again = api.push(eid, org, "desk", ops).get_json()
    assert again["results"] == first["results"]
    # a replay overlapping new operations: old verdicts + new ones (the replayed seq with the same body)
    more = api.push(eid, org, "desk", register_ops(PLAYERS[:1]) + register_ops(PLAYERS[2:3]), first_seq=3).get_json()
    assert more["results"][0] == first["results"][2]
    assert more["results"][1]["status"] == "accepted"
    pulled = api.pull(eid, org, device="desk")
    op_ids = [o["op"]["op_id"] for o in pulled["ops"]]
    assert len(op_ids) == len(set(op_ids)) == 4
    assert pulled["rejections"] == [{"seq": 3, "reason": first["results"][2]["reason"], "error": "operation-rejected"}]
    assert pulled["devices"]["desk"] == {"last_seq": 4, "last_accepted": 4}


def test_gap_is_refused_with_expected_seq(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops(PLAYERS[:1]))
    r = api.push(eid, org, "desk", register_ops(PLAYERS[1:2]), first_seq=5)
    assert r.status_code == 409
    assert r.get_json()["error"] == "sequence-gap" and r.get_json()["expected_seq"] == 2
    assert len(api.pull(eid, org)["ops"]) == 2


def test_conflicting_results_make_a_dispute_and_block_pairing(api):
    eid, org = _event(api)
    judge1 = api.staff_token(eid, org, "judge")
    judge2 = api.staff_token(eid, org, "judge")
    api.push_ok(eid, judge1, "tab-1", [report(1, 1, ["win", "loss"])])
    api.push_ok(eid, judge2, "tab-2", [report(1, 1, ["loss", "win"])])
    state = api.state(eid, org)
    assert state["rounds"][0]["matches"][0]["status"] == "disputed"
    assert [d["table"] for d in state["disputes"]] == [1]
    for table in (2, 3, 4):
        api.push_ok(eid, judge1, "tab-1", [report(1, table, ["win", "loss"])], first_seq=table)
    r = api.push(eid, org, "desk", pair_ops(2)[:1], first_seq=len(PLAYERS) + 3).get_json()
    assert r["results"][0]["status"] == "rejected"
    assert r["results"][0]["error"] == "open-dispute"
    assert "resolve the dispute at round 1 table 1" in r["results"][0]["reason"]
    head = api.staff_token(eid, org, "head-judge")
    api.push_ok(
        eid,
        head,
        "hj",
        [{"type": "result.resolve", "payload": {"round": 1, "table": 1, "result": {"outcomes": ["win", "loss"]}}}],
    )
    assert api.state(eid, org)["disputes"] == []


def test_tablet_offline_for_an_hour_reopens_an_old_round_and_the_dispute_can_be_settled(api):
    eid, org = _event(api)
    desk_seq = len(PLAYERS) + 3
    for number in (1, 2):
        if number == 2:
            api.push_ok(eid, org, "desk", pair_ops(2), first_seq=desk_seq)
            desk_seq += 2
        api.push_ok(eid, org, "desk", [report(number, t, ["win", "loss"]) for t in (1, 2, 3, 4)], first_seq=desk_seq)
        desk_seq += 4
    # The judge tablet was offline since round 1: its report of round 1 table 3 disagrees.
    offline = api.staff_token(eid, org, "judge")
    late = api.push_ok(eid, offline, "tab-offline", [report(1, 3, ["loss", "win"])])
    assert late["results"][0]["status"] == "accepted"
    state = api.state(eid, org)
    assert [(d["round"], d["table"]) for d in state["disputes"]] == [(1, 3)]
    refused = api.push(eid, org, "desk", pair_ops(3)[:1], first_seq=desk_seq).get_json()["results"][0]
    assert (refused["status"], refused["error"]) == ("rejected", "open-dispute")
    assert "round 1 table 3" in refused["reason"] and "round 3" in refused["reason"]
    closing = api.push(eid, org, "desk", [{"type": "event.close", "payload": {}}], first_seq=desk_seq + 1)
    assert closing.get_json()["results"][0]["error"] == "open-dispute"
    api.push_ok(
        eid,
        org,
        "desk",
        [
            {
                "type": "result.resolve",
                "payload": {"round": 1, "table": 3, "result": {"outcomes": ["win", "loss"]}, "reason": "scoresheet"},
            }
        ],
        first_seq=desk_seq + 2,
    )
    api.push_ok(eid, org, "desk", pair_ops(3), first_seq=desk_seq + 3)
    assert api.state(eid, org)["rounds"][2]["status"] == "started"


def test_only_one_pairing_per_round_wins(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    head = api.staff_token(eid, org, "head-judge")
    api.push_ok(eid, org, "desk", pair_ops(1)[:1], first_seq=len(PLAYERS) + 1)
    stale = api.push(eid, head, "hj", pair_ops(1)[:1]).get_json()["results"][0]
    assert stale["status"] == "rejected"
    assert "already paired by desk" in stale["reason"]
    assert stale["error"] == "already-paired"


def test_player_claims_self_report_and_confirm(api):
    eid, org = _event(api)
    codes = api.claims(eid, org)
    assert set(codes) == {p["id"] for p in PLAYERS}
    p1 = api.redeem(codes["p1"])
    assert p1["role"] == "player" and p1["player"] == "p1"
    again = api.client.post("/api/invitations/redeem", json={"code": codes["p1"]})
    assert again.status_code == 410 and again.get_json()["error"] == "code-used"
    p2 = api.redeem(codes["p2"])["token"]
    p3 = api.redeem(codes["p3"])["token"]
    # p3 may not report p1's match; p1 reports (claiming to be organizer changes nothing)
    bad = api.push(eid, p3, "phone-3", [report(1, 1, ["win", "loss"])]).get_json()["results"][0]
    assert bad["status"] == "rejected" and bad["error"] == "not-authorized"
    op = dict(report(1, 1, ["win", "loss"]), actor={"role": "organizer"})
    api.push_ok(eid, p1["token"], "phone-1", [op])
    me = api.client.get(f"/api/events/{eid}/me", headers=bearer(p1["token"])).get_json()
    assert me["matches"][0]["status"] == "reported"
    assert me["matches"][0]["reports"][0]["actor"] == {"role": "player", "player": "p1"}
    api.push_ok(eid, p2, "phone-2", [{"type": "result.confirm", "payload": {"round": 1, "table": 1}}])
    public = api.client.get(f"/api/events/{eid}/public").get_json()
    assert public["rounds"][0]["matches"][0]["status"] == "confirmed"
    assert public["rounds"][0]["matches"][0]["outcomes"] == ["win", "loss"]
    # a judge overrides
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(
        eid,
        judge,
        "tab-1",
        [{"type": "result.correct", "payload": {"round": 1, "table": 1, "outcomes": ["loss", "win"]}}],
    )
    pairings = api.client.get(f"/api/events/{eid}/pairings").get_json()
    assert pairings["rounds"][0]["matches"][0]["outcomes"] == ["loss", "win"]
    # a new claim code leaves the phone that joined working; revoking the claim signs it out
    r = api.client.post(f"/api/events/{eid}/players/p1/claim", headers=bearer(org))
    assert r.status_code == 201 and r.get_json()["code"] != codes["p1"]
    assert api.client.get(f"/api/events/{eid}/me", headers=bearer(p1["token"])).status_code == 200
    assert api.client.delete(f"/api/events/{eid}/players/p1/claim", headers=bearer(org)).status_code == 200
    assert api.client.get(f"/api/events/{eid}/me", headers=bearer(p1["token"])).status_code == 401


def test_standings_after_a_complete_round(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", [report(1, t, ["win", "loss"]) for t in (1, 2, 3, 4)], first_seq=len(PLAYERS) + 3)
    standings = api.client.get(f"/api/events/{eid}/standings").get_json()
    assert len(standings["standings"]) == len(PLAYERS), standings
    public = api.client.get(f"/api/events/{eid}/public").get_json()
    assert public["standings"] == standings["standings"]
    # Columns in the document's order (Pokémon TOP: OWP, then OOWP), though each row's object is sorted.
    assert public["tiebreakers"] == standings["tiebreakers"] == ["owp", "oowp"]


def test_public_standings_are_only_those_of_complete_rounds(api):
    eid, org = _event(api)
    # Round 1 in play, three results in: no standings for the hall yet (players see pairings).
    api.push_ok(eid, org, "desk", [report(1, t, ["win", "loss"]) for t in (1, 2, 3)], first_seq=len(PLAYERS) + 3)
    public = api.client.get(f"/api/events/{eid}/public").get_json()
    assert public["standings"] == [] and public["standings_after"] is None
    assert "round 1" in public["note"]
    assert api.client.get(f"/api/events/{eid}/standings").get_json()["standings"] == []
    # The last result: round 1's standings are published, after round 1.
    api.push_ok(eid, org, "desk", [report(1, 4, ["win", "loss"])], first_seq=len(PLAYERS) + 6)
    public = api.client.get(f"/api/events/{eid}/public").get_json()
    assert public["standings_after"] == {"number": 1, "stage": "swiss"} and len(public["standings"]) == len(PLAYERS)
    assert api.client.get(f"/api/events/{eid}/standings").get_json()["standings_after"] == public["standings_after"]


def test_export_and_import_round_trip(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", [report(1, t, ["win", "loss"]) for t in (1, 2)], first_seq=len(PLAYERS) + 3)
    exported = api.client.get(f"/api/events/{eid}/export", headers=bearer(org)).get_json()
    assert exported["format"] == "topcut-event/1"
    r = api.client.post("/api/events", json={"document": exported})
    assert r.status_code == 201, r.get_json()
    new_id, new_org = r.get_json()["event_id"], r.get_json()["token"]
    assert to_event_document(api.state(new_id, new_org)) == exported
    assert api.folded(new_id, new_org) == api.state(new_id, new_org)
    assert set(api.claims(new_id, new_org)) == {p["id"] for p in PLAYERS}
    # the imported event goes on: report the rest of round 1
    api.push_ok(new_id, new_org, "desk2", [report(1, t, ["win", "loss"]) for t in (3, 4)])
    assert api.state(new_id, new_org)["rounds"][0]["status"] == "complete"


def test_revoked_token_is_refused_and_device_can_be_reinvited(api):
    eid, org = _event(api)
    judge = api.redeem(api.invite(eid, org, "judge")["code"])
    api.push_ok(eid, judge["token"], "tab-1", [report(1, 1, ["win", "loss"])])
    r = api.client.delete(f"/api/events/{eid}/tokens/{judge['token_id']}", headers=bearer(org))
    assert r.status_code == 200
    r = api.push(eid, judge["token"], "tab-1", [report(1, 2, ["win", "loss"])], first_seq=2)
    assert r.status_code == 401 and r.get_json()["error"] == "token-revoked"
    listed = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(org)).get_json()["tokens"]
    assert {t["token_id"]: t["revoked"] for t in listed}[judge["token_id"]] is True
    fresh = api.staff_token(eid, org, "judge")
    api.push_ok(eid, fresh, "tab-1", [report(1, 2, ["win", "loss"])], first_seq=2)
    # another live token may not take over a device
    other = api.staff_token(eid, org, "judge")
    r = api.push(eid, other, "tab-1", [report(1, 3, ["win", "loss"])], first_seq=3)
    assert r.status_code == 403 and r.get_json()["error"] == "device-taken"
    # the last organizer token cannot be revoked
    org_id = [t for t in listed if t["role"] == "organizer"][0]["token_id"]
    r = api.client.delete(f"/api/events/{eid}/tokens/{org_id}", headers=bearer(org))
    assert r.status_code == 409 and r.get_json()["error"] == "last-organizer"


def test_invitation_qr_code_is_svg(api):
    created = api.create()
    inv = api.invite(created["event_id"], created["token"], "scorekeeper")
    assert inv["qr_svg"].startswith("<svg") and inv["code"] in inv["link"]


def test_snapshot_and_restart_fold_the_same_state(app, api, tmp_path, database_url):
    from backend.ledger import SNAPSHOT_EVERY
    from tests.backend.conftest import dispose, make_app

    created = api.create()
    eid, org = created["event_id"], created["token"]
    players = [{"id": f"x{i}", "name": f"X {i}"} for i in range(SNAPSHOT_EVERY + 10)]
    api.push_ok(eid, org, "desk", register_ops(players[:200]))
    api.push_ok(eid, org, "desk", register_ops(players[200:]), first_seq=201)
    before = api.state(eid, org)
    restarted = make_app(database_url, tmp_path / "instance2")
    try:
        from tests.backend.helpers import Api

        again = Api(restarted.test_client())
        assert again.state(eid, org) == before == again.folded(eid, org)
        with restarted.app_context():
            from backend.db import db
            from backend.models import Event

            assert db.session.get(Event, eid).snapshot_seq >= SNAPSHOT_EVERY
    finally:
        dispose(restarted)


def test_openapi_description(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    for path in (
        "/api/events",
        "/api/events/{event_id}/push",
        "/api/events/{event_id}/pull",
        "/api/events/{event_id}/invitations",
        "/api/invitations/redeem",
        "/api/events/{event_id}/tokens/{token_id}",
        "/api/events/{event_id}/public",
        "/api/events/{event_id}/export",
    ):
        assert path in spec["paths"], path
    assert json.dumps(spec)


def test_a_draft_round_is_hidden_from_me_and_a_players_own_change_stays_on_their_phone(api):
    eid, org = _event(api)
    desk_seq = len(PLAYERS) + 3
    api.push_ok(eid, org, "desk", [report(1, t, ["win", "loss"]) for t in (1, 2, 3, 4)], first_seq=desk_seq)
    p1 = api.redeem(api.claims(eid, org)["p1"])["token"]
    api.push_ok(eid, org, "desk", pair_ops(2)[:1], first_seq=desk_seq + 4)  # round 2: a draft only
    me = api.client.get(f"/api/events/{eid}/me", headers=bearer(p1)).get_json()
    assert [m["round"] for m in me["matches"]] == [1]
    # The player checks in while round 2 is in draft: accepted, but held back with the draft.
    api.push_ok(eid, p1, "phone-1", [{"type": "player.check_in", "payload": {"player": "p1"}}])
    pulled = api.pull(eid, p1, device="phone-1")
    assert all(o["op"]["type"] != "player.check_in" for o in pulled["ops"])
    assert pulled["devices"]["phone-1"]["last_seq"] == 0  # so the phone keeps (and shows) its change
    api.push_ok(eid, org, "desk", [{"type": "round.publish", "payload": {"number": 2}}], first_seq=desk_seq + 5)
    pulled = api.pull(eid, p1, device="phone-1")
    assert any(o["op"]["type"] == "player.check_in" for o in pulled["ops"])
    assert pulled["devices"]["phone-1"]["last_seq"] == 1
    me = api.client.get(f"/api/events/{eid}/me", headers=bearer(p1)).get_json()
    assert [m["round"] for m in me["matches"]] == [1, 2]


def test_a_device_joining_by_code_learns_the_events_name_and_game(api):
    created = api.create("doomtown", name="Gomorra Showdown")
    eid, org = created["event_id"], created["token"]
    grant = api.redeem(api.invite(eid, org, "judge")["code"])
    assert (grant["name"], grant["ruleset"], grant["event_id"]) == ("Gomorra Showdown", "doomtown", eid)


def test_a_staff_change_comes_back_in_the_log_as_the_tablet_folded_it(api):
    """pwa/app/store.js folds a waiting change as ``{type, op_id, device, actor, at, payload}``; the log gives it back
    the same, so the tablet's working state becomes the server's without folding again (pwa/rules/rules_api.py)."""
    eid, org = _event(api)
    judge = api.staff_token(eid, org, "judge")
    change = {**report(1, 1, ["win", "loss"]), "at": 1_790_000_000_000}
    api.push_ok(eid, judge, "tab-1", [change])
    folded_on_the_tablet = {
        "type": change["type"],
        "op_id": "tab-1:1",
        "device": "tab-1",
        "actor": {"role": "judge"},
        "at": change["at"],
        "payload": change["payload"],
    }
    assert api.pull(eid, judge)["ops"][-1]["op"] == folded_on_the_tablet

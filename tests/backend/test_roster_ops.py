"""Issue 11, roster tools on the server: ``player.remove`` (a mistyped entry nothing refers to) and
``round.discard`` (a drafted round) are accepted, or refused with a reason and an error code; a removed
player's claim code stops working and their phones are signed out."""

from __future__ import annotations

from tests.backend.helpers import PLAYERS, bearer, register_ops


def _refused(r, status, code):
    assert r.status_code == status, (r.status_code, r.get_json())
    body = r.get_json()
    assert set(body) >= {"error", "message"} and body["error"] == code and body["message"], body
    return body["message"]


def _verdicts(api, eid, token, device, ops, first_seq=1):
    r = api.push(eid, token, device, ops, first_seq)
    assert r.status_code == 200, r.get_json()
    return r.get_json()["results"]


def _event(api, players=PLAYERS[:4]):
    created = api.create("custom", "Roster Cup")
    eid, org = created["event_id"], created["token"]
    typo = {"id": "p9", "name": "Ahs Ketchum"}
    pushed = api.push_ok(eid, org, "desk", register_ops([*players, typo]))
    return eid, org, {c["player"]: c["code"] for c in pushed["claims"]}


def test_a_removed_player_s_code_no_longer_redeems_and_their_phone_is_signed_out(api):
    eid, org, codes = _event(api)
    phone = api.redeem(codes["p9"])["token"]  # the typo'd entry had already joined on a phone
    assert api.client.get(f"/api/events/{eid}/me", headers=bearer(phone)).status_code == 200
    reissued = api.client.post(f"/api/events/{eid}/players/p9/claim", headers=bearer(org)).get_json()["code"]
    [verdict] = _verdicts(api, eid, org, "desk", [{"type": "player.remove", "payload": {"player": "p9"}}], 6)
    assert verdict["status"] == "accepted", verdict
    assert [p["id"] for p in api.state(eid, org)["players"]] == ["p1", "p2", "p3", "p4"]
    message = _refused(api.client.post("/api/invitations/redeem", json={"code": reissued}), 410, "code-revoked")
    assert "revoked" in message
    _refused(api.client.get(f"/api/events/{eid}/me", headers=bearer(phone)), 401, "token-revoked")
    assert "p9" not in {c["player"] for c in api.claim_list(eid, org)}
    _refused(api.client.post(f"/api/events/{eid}/players/p9/claim", headers=bearer(org)), 404, "unknown-player")
    # the id registered again (the right spelling this time) gets a fresh code that works; the old ones stay dead
    pushed = api.push_ok(eid, org, "desk", register_ops([{"id": "p9", "name": "Ash Ketchum"}]), 7)
    [fresh] = pushed["claims"]
    assert fresh["player"] == "p9" and api.redeem(fresh["code"])["player"] == "p9"
    _refused(api.client.post("/api/invitations/redeem", json={"code": reissued}), 410, "code-revoked")
    # the other players' codes were left alone
    assert api.redeem(codes["p1"])["player"] == "p1"


def test_registered_and_removed_in_one_batch_gets_no_code(api):
    created = api.create("custom", "Batch Cup")
    eid, org = created["event_id"], created["token"]
    pushed = api.push_ok(
        eid, org, "desk", register_ops(PLAYERS[:2]) + [{"type": "player.remove", "payload": {"player": "p2"}}]
    )
    assert [c["player"] for c in pushed["claims"]] == ["p1"]
    assert [c["player"] for c in api.claim_list(eid, org)] == ["p1"]


def test_remove_is_refused_for_a_paired_player_and_for_a_player_or_head_judge(api):
    eid, org, codes = _event(api)
    player = api.redeem(codes["p1"])["token"]
    head_judge = api.staff_token(eid, org, "head-judge")
    scorekeeper = api.staff_token(eid, org, "scorekeeper")
    pair = {
        "type": "round.pair",
        "payload": {
            "number": 1,
            "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}],
        },
    }
    api.push_ok(eid, org, "desk", [pair], 6)
    [paired] = _verdicts(api, eid, scorekeeper, "sk", [{"type": "player.remove", "payload": {"player": "p2"}}])
    assert (paired["status"], paired["error"]) == ("rejected", "operation-rejected"), paired
    assert paired["reason"].startswith("player.remove: p2 is paired in round 1, still a draft")
    assert "drop the player instead (player.drop)" in paired["reason"]
    [unknown] = _verdicts(api, eid, scorekeeper, "sk", [{"type": "player.remove", "payload": {"player": "p7"}}], 2)
    assert (unknown["error"], unknown["reason"]) == ("operation-rejected", "player.remove: unknown player 'p7'")
    [malformed] = _verdicts(api, eid, scorekeeper, "sk", [{"type": "player.remove", "payload": {"player": 7}}], 3)
    assert malformed["reason"] == "player.remove: payload.player: expected a string, got a number"
    for token, device in ((player, "phone"), (head_judge, "hj")):
        [refused] = _verdicts(api, eid, token, device, [{"type": "player.remove", "payload": {"player": "p9"}}])
        assert refused["error"] == "not-authorized", refused
        assert (
            refused["reason"].startswith("player.remove: a ") and "allowed: organizer, scorekeeper" in refused["reason"]
        )
    [removed] = _verdicts(api, eid, scorekeeper, "sk", [{"type": "player.remove", "payload": {"player": "p9"}}], 4)
    assert removed["status"] == "accepted", removed


def test_discard_throws_away_a_draft_and_is_refused_once_the_round_started(api):
    eid, org, _ = _event(api)
    scorekeeper = api.staff_token(eid, org, "scorekeeper")
    pair = {
        "type": "round.pair",
        "payload": {
            "number": 1,
            "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}],
        },
    }
    api.push_ok(eid, org, "desk", [pair], 6)
    [by_scorekeeper] = _verdicts(api, eid, scorekeeper, "sk", [{"type": "round.discard", "payload": {"number": 1}}])
    assert by_scorekeeper["error"] == "not-authorized", by_scorekeeper
    api.push_ok(eid, org, "desk", [{"type": "round.discard", "payload": {"number": 1, "stage": "swiss"}}], 7)
    assert api.state(eid, org)["rounds"] == []
    # paired again, now with the typo'd entry removed first, then started: no more discarding
    api.push_ok(
        eid,
        org,
        "desk",
        [
            {"type": "player.remove", "payload": {"player": "p9"}},
            pair,
            {"type": "round.start", "payload": {"number": 1}},
        ],
        8,
    )
    [started] = _verdicts(api, eid, org, "desk", [{"type": "round.discard", "payload": {"number": 1}}], 11)
    assert (started["status"], started["error"]) == ("rejected", "operation-rejected")
    assert started["reason"] == "round.discard: round 1 has started; its pairings and results stay (Pokémon TOP 4)"
    [missing] = _verdicts(api, eid, org, "desk", [{"type": "round.discard", "payload": {"number": 2}}], 12)
    assert missing["reason"] == "round.discard: round 2 is not paired"
    [bad] = _verdicts(api, eid, org, "desk", [{"type": "round.discard", "payload": {"number": "1"}}], 13)
    assert bad["reason"] == "round.discard: payload.number: expected a whole number, got a string"
    assert len(api.state(eid, org)["rounds"]) == 1

"""Bad input gets a clear 4xx JSON error and changes nothing."""

from __future__ import annotations

import pytest

from tests.backend.helpers import PLAYERS, bearer, pair_ops, register_ops, report


@pytest.fixture
def event(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    return eid, org


def _snapshot(api, eid, org):
    pulled = api.pull(eid, org)
    return pulled["ops"], pulled["devices"], api.claim_list(eid, org)


def _assert_error(r, status, code=None):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    body = r.get_json()
    assert set(body) >= {"error", "message"} and body["message"] and "\n" not in body["message"]
    if code:
        assert body["error"] == code, body


def test_bad_requests_change_nothing(app, api, event):
    eid, org = event
    before = _snapshot(api, eid, org)
    c = api.client
    push = f"/api/events/{eid}/push"
    H = bearer(org)
    _assert_error(c.post(push, data="{not json", headers=H, content_type="application/json"), 400, "malformed-json")
    _assert_error(
        c.post(
            push,
            data='{"device": "x", "ops": [{"seq": 1, "op": {"type": "t", "at": NaN}}]}',
            headers=H,
            content_type="application/json",
        ),
        400,
        "malformed-json",
    )
    _assert_error(
        c.post(push, data='{"device": "a\\u0000b", "ops": []}', headers=H, content_type="application/json"),
        400,
        "malformed-json",
    )
    _assert_error(
        c.post(push, data='{"device": "\\ud800", "ops": []}', headers=H, content_type="application/json"),
        400,
        "malformed-json",
    )
    _assert_error(c.post(push, data="device=x", headers=H, content_type="application/x-www-form-urlencoded"), 415)
    _assert_error(c.post(push, json=[1, 2], headers=H), 422, "invalid-request")
    _assert_error(c.post(push, json={"device": 5, "ops": "x"}, headers=H), 422, "invalid-request")
    _assert_error(c.post(push, json={"device": "tab", "ops": [{"seq": "1", "op": {"type": "x"}}]}, headers=H), 422)
    _assert_error(c.post(push, json={"device": "tab", "ops": [{"seq": 0, "op": {"type": "x"}}]}, headers=H), 422)
    _assert_error(c.post(push, json={"device": "tab", "ops": [{"seq": 2**70, "op": {"type": "x"}}]}, headers=H), 422)
    _assert_error(c.post(push, json={"device": "tab", "ops": []}, headers=H), 422)
    _assert_error(c.post(push, json={"device": "server", "ops": [{"seq": 1, "op": {"type": "x"}}]}, headers=H), 422)
    _assert_error(
        c.post(
            push,
            json={"device": "tab", "ops": [{"seq": 1, "op": {"type": "x"}}, {"seq": 3, "op": {"type": "x"}}]},
            headers=H,
        ),
        422,
    )
    big = {
        "device": "tab",
        "ops": [{"seq": 1, "op": {"type": "event.configure", "payload": {"name": "x" * 9_000_000}}}],
    }
    _assert_error(c.post(push, json=big, headers=H), 413, "body-too-large")
    # no token, forged token, malformed header
    _assert_error(c.post(push, json={"device": "tab", "ops": [{"seq": 1, "op": {"type": "x"}}]}), 401, "missing-token")
    _assert_error(
        c.post(push, json={"device": "tab", "ops": [{"seq": 1, "op": {"type": "x"}}]}, headers=bearer(org[:-2] + "xx")),
        401,
        "invalid-token",
    )
    _assert_error(
        c.post(
            push,
            json={"device": "tab", "ops": [{"seq": 1, "op": {"type": "x"}}]},
            headers={"Authorization": "Basic abc"},
        ),
        401,
        "missing-token",
    )
    # unknown event, unknown token id, unknown player, bad query parameters, NUL in URL
    _assert_error(c.get("/api/events/nope/pull", headers=H), 404, "unknown-event")
    _assert_error(c.get("/api/events/%00/public"), 400, "invalid-text")
    _assert_error(c.get(f"/api/events/{eid}/pull?cursor=abc", headers=H), 422)
    _assert_error(c.get(f"/api/events/{eid}/pull?cursor=-1", headers=H), 422)
    _assert_error(c.get(f"/api/events/{eid}/pull?bogus=1", headers=H), 422)
    _assert_error(c.delete(f"/api/events/{eid}/tokens/nope", headers=H), 404, "unknown-token")
    _assert_error(c.post(f"/api/events/{eid}/players/nobody/claim", headers=H), 404, "unknown-player")
    _assert_error(c.post(f"/api/events/{eid}/invitations", json={"role": "player"}, headers=H), 422)
    _assert_error(c.post(f"/api/events/{eid}/invitations", json={"role": "emperor"}, headers=H), 422)
    _assert_error(c.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 404, "unknown-code")
    _assert_error(c.post("/api/invitations/redeem", json={"code": 7}), 422)
    _assert_error(c.put(push, json={}), 405, "method-not-allowed")
    _assert_error(c.get("/api/nothing-here"), 404, "not-found")
    # bad events
    _assert_error(c.post("/api/events", json={}), 422)
    _assert_error(c.post("/api/events", json={"ruleset": "chess-boxing"}), 422, "invalid-event")
    _assert_error(c.post("/api/events", json={"document": {"format": "nope"}}), 422, "invalid-document")
    _assert_error(
        c.post(
            "/api/events",
            json={
                "document": {
                    "format": "topcut-event/1",
                    "ruleset": "pokemon-tcg",
                    "players": [{"id": "a"}],
                    "rounds": "x",
                }
            },
        ),
        422,
    )
    assert _snapshot(api, eid, org) == before


def test_operations_on_unknown_players_and_matches_are_rejected(api, event):
    eid, org = event
    ops = [
        report(1, 99, ["win", "loss"]),  # no such table
        report(7, 1, ["win", "loss"]),  # no such round
        report(1, 1, ["victory", "loss"]),  # not an outcome
        {"type": "player.check_in", "payload": {"player": "ghost"}},
        {"type": "player.drop", "payload": {"player": "ghost"}},
        {"type": "no.such.type", "payload": {}},
        {"type": "result.report", "payload": {"round": "one", "table": 1, "outcomes": []}},
    ]
    before = api.state(eid, org)
    result = api.push(eid, org, "desk", ops, first_seq=len(register_ops()) + 3).get_json()
    assert [v["status"] for v in result["results"]] == ["rejected"] * len(ops)
    assert all(v["reason"] and "\n" not in v["reason"] for v in result["results"])
    after = api.state(eid, org)
    assert {k: v for k, v in after.items() if k != "devices"} == {k: v for k, v in before.items() if k != "devices"}


def test_replayed_invitation_code_and_forged_tokens(api, event):
    eid, org = event
    invitation = api.invite(eid, org, "judge")
    first = api.client.post("/api/invitations/redeem", json={"code": invitation["code"].lower().replace("-", "")})
    assert first.status_code == 201
    second = api.client.post("/api/invitations/redeem", json={"code": invitation["code"]})
    _assert_error(second, 410, "code-used")
    tokens = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(org)).get_json()["tokens"]
    assert len(tokens) == 2
    for forged in ("tc_" + "A" * 43, "", "x" * 5000, first.get_json()["token_id"]):
        r = api.client.get(f"/api/events/{eid}/state", headers={"Authorization": f"Bearer {forged}"})
        assert r.status_code == 401, forged


def test_integers_beyond_2_53_are_refused_naming_the_field(api, event):
    eid, org = event
    before = _snapshot(api, eid, org)
    op = {"type": "timer.extend", "payload": {"round": 1, "seconds": 2**53 + 1}}
    r = api.client.post(
        f"/api/events/{eid}/push", json={"device": "desk", "ops": [{"seq": 99, "op": op}]}, headers=bearer(org)
    )
    _assert_error(r, 422, "invalid-request")
    assert "body.ops[0].op.payload.seconds" in r.get_json()["message"] and "2^53" in r.get_json()["message"]
    assert _snapshot(api, eid, org) == before


def test_a_chunked_body_beyond_the_limit_gets_413(api, event):
    import io

    eid, org = event
    before = _snapshot(api, eid, org)
    body = b'{"device": "desk", "ops": [], "pad": "' + b"x" * (9 * 1024 * 1024) + b'"}'
    r = api.client.post(
        f"/api/events/{eid}/push",
        input_stream=io.BytesIO(body),
        headers={**bearer(org), "Content-Type": "application/json", "Transfer-Encoding": "chunked"},
    )
    _assert_error(r, 413, "too-large")
    with_length = api.client.post(
        f"/api/events/{eid}/push", data=body, headers=bearer(org), content_type="application/json"
    )
    _assert_error(with_length, 413)
    assert _snapshot(api, eid, org) == before


def test_a_player_cannot_swell_the_event_with_oversized_fields(api, event):
    """One player token once filled the state to 12 MB with 48 kB ``games`` lists: each field has a cap."""
    eid, org = event
    first = PLAYERS[0]["id"]
    player = api.redeem(api.claims(eid, org)[first])["token"]
    before = api.state(eid, org)
    games = [{"notes": "x" * 1000} for _ in range(48)]
    big_result = report(1, 1, ["win", "loss"])
    big_result["payload"]["games"] = games
    long_reason = {"type": "penalty.issue", "payload": {"player": first, "kind": "warning", "reason": "r" * 5000}}
    result = api.push(eid, player, "phone", [big_result]).get_json()
    assert [v["error"] for v in result["results"]] == ["field-too-large"], result
    assert result["results"][0]["reason"] == "result.report: payload.games: 48 items; the most allowed is 16"
    staff = api.push(eid, org, "desk", [long_reason], first_seq=len(register_ops()) + 3).get_json()
    assert "payload.reason: 5,000 characters" in staff["results"][0]["reason"], staff
    after = api.state(eid, org)
    assert {k: v for k, v in after.items() if k != "devices"} == {k: v for k, v in before.items() if k != "devices"}

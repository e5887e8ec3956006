"""The sync API guards its log: deep values, junk pushes, reused seqs, cursors, devices, codes and errors."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import pytest
from sqlalchemy import select, text, update

from backend import ledger
from backend.db import db
from backend.ledger import log as ledger_log
from backend.models import Event, Invitation, Operation
from shared_rules.state import initial_state, replay
from tests.backend.helpers import PLAYERS, bearer, pair_ops, register_ops, report


def _event(api, players=PLAYERS):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops(players))
    return eid, org


def _player(api, eid, org, pid):
    r = api.client.post(f"/api/events/{eid}/players/{pid}/claim", headers=bearer(org))
    assert r.status_code == 201, r.get_json()
    return api.redeem(r.get_json()["code"])["token"]


def _nested(depth):
    value = 0
    for _ in range(depth):
        value = [value]
    return value


def _assert_error(r, status, code=None):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    body = r.get_json()
    assert body["message"] and "\n" not in body["message"]
    if code is not None:
        assert body["error"] == code, body
    return body


@contextmanager
def holding_write_lock(app, eid):
    """Hold the event's write lock (SQLite: the write flock + BEGIN IMMEDIATE; PostgreSQL: the row lock)."""
    with app.app_context():
        conn = db.engine.connect().execution_options(topcut_write=True)
        trans = conn.begin()
        conn.execute(select(Event.id).where(Event.id == eid).with_for_update())
        try:
            yield
        finally:
            trans.rollback()
            conn.close()


def _call_while_locked(app, eid, call):
    """Run ``call(client)`` in a thread while the lock is held; it must answer without waiting for it."""
    out = {}
    with holding_write_lock(app, eid):
        worker = threading.Thread(target=lambda: out.setdefault("r", call(app.test_client())))
        worker.start()
        worker.join(timeout=8)
        answered = not worker.is_alive()
    worker.join()
    assert answered, "the request waited for the write lock"
    return out["r"]


# nesting ------------------------------------------------------------------------------------------


def test_deep_values_are_refused_and_the_event_stays_usable(api):
    eid, org = _event(api)
    deep = {"type": "event.configure", "payload": {"settings": {"z": _nested(600)}}}
    r = api.push(eid, org, "desk", [deep], first_seq=9)
    _assert_error(r, 400, "malformed-json")
    r = api.client.post("/api/events", json={"ruleset": "pokemon-tcg", "settings": {"z": _nested(600)}})
    _assert_error(r, 400, "malformed-json")
    r = api.client.post("/api/events", json={"ruleset": "pokemon-tcg", "settings": {"z": _nested(40)}})
    assert "nested more than 32" in _assert_error(r, 400, "malformed-json")["message"]
    api.push_ok(eid, org, "desk", pair_ops(1), first_seq=9)  # later operations still fold
    assert api.client.get(f"/api/events/{eid}/export", headers=bearer(org)).status_code == 200


def test_export_of_a_too_deep_stored_value_is_a_409_not_a_500(app, api, monkeypatch):
    eid, org = _event(api)
    monkeypatch.setattr("backend.api.MAX_JSON_DEPTH", 10_000)  # as before the fix
    api.push(eid, org, "desk", [{"type": "event.configure", "payload": {"settings": {"z": _nested(600)}}}], first_seq=9)
    app.extensions.pop("topcut_state_cache", None)
    r = api.client.get(f"/api/events/{eid}/export", headers=bearer(org))
    assert r.status_code == 409, r.get_data(as_text=True)[:200]


# a player's junk pushes -----------------------------------------------------------------------------


def test_unauthorized_ops_cost_no_state_copy_and_rejections_are_capped(app, api, monkeypatch):
    eid, org = _event(api)
    p1 = _player(api, eid, org, "p1")
    calls = []
    real_apply = ledger_log.apply
    monkeypatch.setattr(ledger_log, "apply", lambda state, op: calls.append(op) or real_apply(state, op))
    junk = [{"type": "round.pair", "payload": {"number": 1, "matches": [], "junk": "x" * 15_000}}] * 200
    body = api.push(eid, p1, "phone", junk).get_json()
    assert calls == []  # refused by the role check alone
    assert len(body["results"]) == ledger.MAX_REJECTIONS_PER_PUSH == body["last_seq"]
    assert {v["error"] for v in body["results"]} == {"not-authorized"}
    with app.app_context():
        sizes = (
            db.session.execute(
                select(db.func.length(Operation.op)).where(Operation.event_id == eid, Operation.device == "phone")
            )
            .scalars()
            .all()
        )
    assert len(sizes) == ledger.MAX_REJECTIONS_PER_PUSH and max(sizes) < 1000  # digests, not 15 KB bodies
    # the same junk replayed gets the stored verdicts (the digest matches), not seq-reused
    again = api.push(eid, p1, "phone", junk[:3]).get_json()
    assert again["results"] == body["results"][:3]
    # an operation larger than MAX_OP_BYTES is refused whoever sends it
    huge = {"type": "player.edit", "payload": {"player": "p1", "name": "x" * (ledger.MAX_OP_BYTES + 1)}}
    verdict = api.push(eid, org, "desk", [huge], first_seq=9).get_json()["results"][0]
    assert verdict["status"] == "rejected" and verdict["error"] == "operation-too-large"


# import parsed before the lock ----------------------------------------------------------------------


def test_import_is_validated_before_the_write_lock(app, api):
    eid, org = _event(api)
    r = _call_while_locked(app, eid, lambda c: c.post("/api/events", json={"document": {"format": "nope"}}))
    assert r.status_code == 422


def test_import_inserts_claims_and_lists_them_for_staff(api):
    eid, org = _event(api)
    exported = api.client.get(f"/api/events/{eid}/export", headers=bearer(org)).get_json()
    created = api.client.post("/api/events", json={"document": exported}).get_json()
    codes = {c["player"]: c["code"] for c in created["claims"]}
    assert set(codes) == {p["id"] for p in PLAYERS}
    assert api.redeem(codes["p3"])["player"] == "p3"
    listed = {c["player"]: c["code"] for c in api.claim_list(created["event_id"], created["token"])}
    assert listed == dict(codes, p3=None)  # a used code is not listed


# seq reused with another body -----------------------------------------------------------------------


def test_a_reused_seq_with_another_op_is_a_409(app, api):
    eid, org = _event(api)
    first = api.push(
        eid, org, "desk", [{"type": "player.check_in", "payload": {"player": "p1"}, "at": 5}], first_seq=9
    ).get_json()
    r = api.push(eid, org, "desk", [{"type": "player.check_in", "payload": {"player": "p2"}, "at": 5}], first_seq=9)
    body = _assert_error(r, 409, "seq-reused")
    assert body["expected_seq"] == 10
    r = api.push(eid, org, "desk", [{"type": "player.check_in", "payload": {"player": "p1"}, "at": 6}], first_seq=9)
    _assert_error(r, 409, "seq-reused")
    same = api.push(
        eid, org, "desk", [{"type": "player.check_in", "payload": {"player": "p1"}, "at": 5}], first_seq=9
    ).get_json()
    assert same["results"] == first["results"]
    state = api.state(eid, org)
    assert [p["checked_in"] for p in state["players"][:2]] == [True, False]


# snapshot and snapshot_seq read together ---------------------------------------------------------


def test_a_snapshot_written_meanwhile_is_not_paired_with_an_older_seq(app, api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", pair_ops(1), first_seq=9)  # head 11
    later = api.state(eid, org)
    with app.app_context():
        db.session.execute(update(Event).where(Event.id == eid).values(head_seq=9, snapshot=None, snapshot_seq=0))
        db.session.commit()
        ops = [
            json.loads(t)
            for t in db.session.execute(
                select(Operation.op)
                .where(Operation.event_id == eid, Operation.server_seq <= 9)
                .order_by(Operation.server_seq)
            ).scalars()
        ]
    app.extensions.pop("topcut_state_cache", None)
    with app.test_request_context():
        event = db.session.get(Event, eid)  # head 9, snapshot_seq 0 (snapshot deferred)
        with db.engine.begin() as other:  # a push commits 10-11 and a new snapshot
            other.execute(
                update(Event).where(Event.id == eid).values(head_seq=11, snapshot=json.dumps(later), snapshot_seq=11)
            )
        seq, state = ledger.event_state(event)
        assert seq == 9 and state == replay(ops, initial_state())


# the player's view of pull --------------------------------------------------------------------------


def test_player_pull_hides_drafts_other_devices_and_other_players_penalties(api):
    eid, org = _event(api)
    api.push_ok(eid, org, "desk", pair_ops(1) + [report(1, t, ["win", "loss"]) for t in (2, 3, 4)], first_seq=9)
    p1, p2 = _player(api, eid, org, "p1"), _player(api, eid, org, "p2")
    hj = api.staff_token(eid, org, "head-judge")
    warn = [
        {"type": "penalty.issue", "payload": {"player": who, "kind": "warning", "reason": why}}
        for who, why in (("p3", "slow play"), ("p3", "slow play"), ("p1", "marked sleeves"))
    ]
    api.push_ok(eid, hj, "hj-tablet", warn)
    api.push_ok(eid, p1, "p1-phone", [report(1, 1, ["win", "loss"])])
    head = api.pull(eid, org)["cursor"]
    # p2 confirms p1's report by the (aliased) op_id the player's pull shows
    pulled = api.pull(eid, p2)
    reports = [
        o["op"] for o in pulled["ops"] if o["op"]["type"] == "result.report" and o["op"]["actor"]["role"] == "player"
    ]
    assert reports and reports[0]["op_id"].startswith("dev-")
    api.push_ok(
        eid,
        p2,
        "p2-phone",
        [{"type": "result.confirm", "payload": {"round": 1, "table": 1, "report": reports[0]["op_id"]}}],
    )
    api.push_ok(
        eid,
        org,
        "desk",
        [
            {
                "type": "round.pair",
                "payload": {
                    "number": 2,
                    "matches": [
                        {"table": 1, "players": ["p1", "p3"]},
                        {"table": 2, "players": ["p2", "p4"]},
                        {"table": 3, "players": ["p5", "p7"]},
                        {"table": 4, "players": ["p6", "p8"]},
                    ],
                },
            },
            {"type": "player.check_in", "payload": {"player": "p5"}},
        ],
        first_seq=14,
    )

    view = api.pull(eid, p1)
    assert view["cursor"] == head + 1  # the draft round.pair and everything after it is held back
    ops = [o["op"] for o in view["ops"]]
    assert all(op["type"] != "round.pair" or op["payload"]["number"] == 1 for op in ops)
    assert {op["device"] for op in ops} <= {"server", "p1-phone"} | {
        op["device"] for op in ops if op["device"].startswith("dev-")
    }
    assert not any("desk" in op["op_id"] or "hj-tablet" in op["op_id"] for op in ops)
    assert set(view["devices"]) == {"p1-phone"}
    reasons = [op["payload"]["reason"] for op in ops if op["type"] == "penalty.issue"]
    assert reasons == ["marked sleeves"]  # p3's penalties are not p1's to hold (issue 22)
    assert "slow play" not in json.dumps(ops)
    # it folds: same rounds and players as the server at that cursor, and p1's own penalties
    folded = replay(ops, initial_state())
    staff = replay([o["op"] for o in api.pull(eid, org)["ops"][: view["cursor"]]], initial_state())
    assert folded["players"] == staff["players"] and len(folded["rounds"]) == len(staff["rounds"]) == 1
    mine = [dict(p, op_id=None) for p in staff["penalties"] if p["player"] == "p1"]
    assert [dict(p, op_id=None) for p in folded["penalties"]] == mine != []  # up to the device's alias
    assert folded["rounds"][0]["matches"][0]["status"] == staff["rounds"][0]["matches"][0]["status"]
    # another device's rejections are not the player's to read; their own device's are
    _assert_error(api.client.get(f"/api/events/{eid}/pull?device=desk", headers=bearer(p1)), 403, "not-your-device")
    assert api.pull(eid, p1, device="p1-phone")["rejections"] == []
    # once published, the round (and what followed) comes through
    api.push_ok(eid, org, "desk", [{"type": "round.publish", "payload": {"number": 2}}], first_seq=16)
    after = api.pull(eid, p1, cursor=view["cursor"])
    assert any(o["op"]["type"] == "round.pair" for o in after["ops"]) and after["cursor"] == head + 4
    # staff still see everything
    assert "desk" in api.pull(eid, org)["devices"]


# cursor ahead ---------------------------------------------------------------------------------------


def test_a_cursor_beyond_the_head_is_a_409(api):
    eid, org = _event(api)
    head = api.pull(eid, org)["cursor"]
    r = api.client.get(f"/api/events/{eid}/pull?cursor={head + 1}", headers=bearer(org))
    _assert_error(r, 409, "cursor-ahead")
    assert api.pull(eid, org, cursor=head)["ops"] == []


# device takeover ------------------------------------------------------------------------------------


def test_only_the_same_role_and_player_take_over_a_revoked_device(app, api):
    eid, org = _event(api)
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(eid, judge, "tab-1", [{"type": "player.check_in", "payload": {"player": "p1"}}])
    with app.app_context():
        judge_id = db.session.execute(text("SELECT token_id FROM devices WHERE device = 'tab-1'")).scalar_one()
    assert api.client.delete(f"/api/events/{eid}/tokens/{judge_id}", headers=bearer(org)).status_code == 200
    p1 = _player(api, eid, org, "p1")
    r = api.push(eid, p1, "tab-1", [{"type": "player.check_in", "payload": {"player": "p1"}}], first_seq=2)
    _assert_error(r, 403, "device-taken")
    scorekeeper = api.staff_token(eid, org, "scorekeeper")
    _assert_error(
        api.push(eid, scorekeeper, "tab-1", [{"type": "player.check_in", "payload": {"player": "p2"}}], first_seq=2),
        403,
        "device-taken",
    )
    again = api.staff_token(eid, org, "judge")
    api.push_ok(eid, again, "tab-1", [{"type": "player.check_in", "payload": {"player": "p2"}}], first_seq=2)


# claim codes ----------------------------------------------------------------------------------------


def test_claim_codes_are_not_stored_in_clear_and_not_for_judges(app, api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    registered = api.push_ok(eid, org, "desk", register_ops(PLAYERS[:2]))
    shown = {c["player"]: c["code"] for c in registered["claims"]}
    assert set(shown) == {"p1", "p2"}
    judge = api.staff_token(eid, org, "judge")
    _assert_error(api.client.get(f"/api/events/{eid}/players/claims", headers=bearer(judge)), 403)
    _assert_error(api.client.post(f"/api/events/{eid}/players/p1/claim", headers=bearer(judge)), 403)
    assert [c["code"] for c in api.claim_list(eid, org)] == [shown["p1"], shown["p2"]]
    with app.app_context():
        stored = db.session.execute(select(Invitation.code).where(Invitation.event_id == eid)).scalars().all()
    assert stored and not any(code in (value or "") for value in stored for code in shown.values())
    assert api.redeem(shown["p2"])["player"] == "p2"
    fresh = api.client.post(f"/api/events/{eid}/players/p1/claim", headers=bearer(org)).get_json()["code"]
    _assert_error(api.client.post("/api/invitations/redeem", json={"code": shown["p1"]}), 410, "code-revoked")
    assert api.redeem(fresh)["player"] == "p1"
    scorekeeper = api.staff_token(eid, org, "scorekeeper")
    assert api.claim_list(eid, scorekeeper)


# authenticate before the lock ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "method,path",
    [
        ("post", "/api/events/{eid}/invitations"),
        ("delete", "/api/events/{eid}/tokens/abc"),
        ("post", "/api/events/{eid}/players/p1/claim"),
    ],
)
def test_no_token_is_refused_without_waiting_for_the_lock(app, api, method, path):
    eid, org = _event(api)
    url = path.format(eid=eid)
    r = _call_while_locked(
        app, eid, lambda c: getattr(c, method)(url, json={"role": "judge"}, headers=bearer("tc_nope"))
    )
    _assert_error(r, 401, "invalid-token")
    assert api.invite(eid, org, "judge")["code"]  # and with a token it still works


# error messages, query integers, authentication first --------------------------------------------


def test_fixed_messages_strict_integers_and_auth_before_body(api):
    eid, org = _event(api)
    headers = {**bearer(org), "Content-Type": "application/json"}
    for raw in (b'{"device": "\xff"}', b'{"device": 1' + b"1" * 5000 + b"}", b'{"device": '):
        body = _assert_error(
            api.client.post(f"/api/events/{eid}/push", data=raw, headers=headers), 400, "malformed-json"
        )
        assert body["message"] == "the request body is not valid UTF-8 JSON"
    for query in ("cursor=1_0", "cursor=%2B1", "cursor=%D9%A1", "cursor=1&cursor=2", "limit=%201"):
        _assert_error(api.client.get(f"/api/events/{eid}/pull?{query}", headers=bearer(org)), 422, "invalid-request")
    _assert_error(api.client.post(f"/api/events/{eid}/push", json={"nonsense": True}), 401, "missing-token")
    _assert_error(api.client.get(f"/api/events/{eid}/pull?cursor=x"), 401, "missing-token")


# OpenAPI --------------------------------------------------------------------------------------------


def test_openapi_lists_each_operations_own_errors_and_real_id_patterns(api):
    doc = api.client.get("/api/openapi.json").get_json()
    paths = doc["paths"]
    public = paths["/api/events/{event_id}/public"]["get"]["responses"]
    assert not {"401", "403", "410", "415"} & set(public) and {"404", "503"} <= set(public)
    create = paths["/api/events"]["post"]["responses"]
    assert not {"401", "403", "404", "410"} & set(create) and "422" in create
    assert "410" in paths["/api/invitations/redeem"]["post"]["responses"]
    assert "410" not in paths["/api/events/{event_id}/push"]["post"]["responses"]
    busy = paths["/api/events/{event_id}/push"]["post"]["responses"]["503"]
    assert "Retry-After" in busy["headers"]
    params = {p["name"]: p["schema"] for p in paths["/api/events/{event_id}/players/{player_id}/claim"]["parameters"]}
    assert params["event_id"]["pattern"] == "^[A-Za-z0-9_-]{1,32}$" and "pattern" not in params["player_id"]

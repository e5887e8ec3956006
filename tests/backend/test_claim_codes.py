"""Players' claim codes for staff (issue 11, defect 1): listed with QR codes on every claim reader's device,
reissued and revoked per player; a revoked code is refused naming why; a joined phone keeps working."""

from __future__ import annotations

from sqlalchemy import select

from backend.claims import seal, unseal
from backend.db import db
from backend.models import Invitation
from tests.backend.helpers import PLAYERS, bearer, register_ops


def _event(api, players=PLAYERS[:3]):
    created = api.create("custom", "Claim Cup")
    eid, org = created["event_id"], created["token"]
    pushed = api.push_ok(eid, org, "desk", register_ops(players))
    return eid, org, {c["player"]: c["code"] for c in pushed["claims"]}


def _refused(r, status, code):
    assert r.status_code == status, (r.status_code, r.get_json())
    body = r.get_json()
    assert body["error"] == code and body["message"], body
    return body["message"]


def test_every_claim_reader_device_lists_the_same_codes_with_qr(api):
    eid, org, issued = _event(api)
    scorekeeper = api.staff_token(eid, org, "scorekeeper")
    head_judge = api.staff_token(eid, org, "head-judge")
    lists = [api.claim_list(eid, token, qr=True) for token in (org, scorekeeper, head_judge)]
    assert lists[0] == lists[1] == lists[2]
    rows = {c["player"]: c for c in lists[0]}
    assert {pid: row["code"] for pid, row in rows.items()} == issued
    for row in rows.values():
        assert row["status"] == "waiting" and not row["redeemed"] and not row["revoked"] and row["devices"] == 0
        assert row["link"].endswith(f"/#join={row['code']}")
        assert row["qr_svg"].startswith("<svg") and "</svg>" in row["qr_svg"]
    assert all(c["qr_svg"] is None for c in api.claim_list(eid, org))  # QR codes only when asked for
    assert api.redeem(rows["p2"]["code"])["player"] == "p2"


def test_a_code_is_sealed_at_rest_and_wiped_once_used(app, api):
    eid, org, issued = _event(api)
    with app.app_context():
        stored = {
            row.player: row
            for row in db.session.execute(select(Invitation).where(Invitation.event_id == eid)).scalars()
        }
        for pid, code in issued.items():
            assert code not in stored[pid].code and len(stored[pid].code) <= 64
            assert unseal(stored[pid].code, eid, pid, stored[pid].id) == code
            assert unseal(stored[pid].code, eid, "p9", stored[pid].id) is None  # bound to its row
    api.redeem(issued["p1"])
    with app.app_context():
        used = db.session.execute(
            select(Invitation.code).where(Invitation.player == "p1", Invitation.event_id == eid)
        ).scalar_one()
    assert used is None
    row = {c["player"]: c for c in api.claim_list(eid, org)}["p1"]
    assert (row["status"], row["code"], row["redeemed"], row["devices"]) == ("joined", None, True, 1)


def test_reissue_refuses_the_old_code_and_keeps_a_joined_phone(api):
    eid, org, issued = _event(api)
    phone = api.redeem(issued["p1"])["token"]
    r = api.client.post(f"/api/events/{eid}/players/p1/claim", headers=bearer(org))
    assert r.status_code == 201
    fresh = r.get_json()
    assert fresh["code"] != issued["p1"] and fresh["status"] == "waiting" and fresh["qr_svg"].startswith("<svg")
    assert api.client.get(f"/api/events/{eid}/me", headers=bearer(phone)).status_code == 200  # still in
    # a code not yet used, replaced: refused, saying so
    r2 = api.client.post(f"/api/events/{eid}/players/p2/claim", headers=bearer(org))
    message = _refused(api.client.post("/api/invitations/redeem", json={"code": issued["p2"]}), 410, "code-revoked")
    assert "revoked" in message and "ask the organizer for a new one" in message
    assert api.redeem(r2.get_json()["code"])["player"] == "p2"
    # the list shows the new codes
    listed = {c["player"]: c["code"] for c in api.claim_list(eid, org)}
    assert listed == {"p1": fresh["code"], "p2": None, "p3": issued["p3"]}


def test_reissue_can_sign_the_phones_out(api):
    eid, org, issued = _event(api)
    phone = api.redeem(issued["p1"])["token"]
    r = api.client.post(f"/api/events/{eid}/players/p1/claim", json={"revoke_devices": True}, headers=bearer(org))
    assert r.status_code == 201 and r.get_json()["devices"] == 0
    _refused(api.client.get(f"/api/events/{eid}/me", headers=bearer(phone)), 401, "token-revoked")
    assert api.redeem(r.get_json()["code"])["player"] == "p1"


def test_revoke_refuses_the_code_and_signs_the_player_out(api):
    eid, org, issued = _event(api)
    phone = api.redeem(issued["p1"])["token"]
    scorekeeper = api.staff_token(eid, org, "scorekeeper")
    r = api.client.delete(f"/api/events/{eid}/players/p1/claim", headers=bearer(scorekeeper))
    assert r.status_code == 200
    assert r.get_json() == {"player": "p1", "name": "Player 1", "revoked": True, "devices_revoked": 1}
    _refused(api.client.get(f"/api/events/{eid}/me", headers=bearer(phone)), 401, "token-revoked")
    r = api.client.delete(f"/api/events/{eid}/players/p2/claim", headers=bearer(org))
    assert r.get_json()["devices_revoked"] == 0
    message = _refused(api.client.post("/api/invitations/redeem", json={"code": issued["p2"]}), 410, "code-revoked")
    assert message.startswith("this claim code was revoked")
    rows = {c["player"]: c for c in api.claim_list(eid, org)}
    assert (rows["p2"]["status"], rows["p2"]["code"], rows["p2"]["revoked"]) == ("revoked", None, True)
    assert rows["p1"]["status"] == "revoked" and rows["p1"]["devices"] == 0
    assert rows["p3"]["status"] == "waiting"
    # a new code lets them back in
    again = api.client.post(f"/api/events/{eid}/players/p2/claim", headers=bearer(org)).get_json()["code"]
    assert api.redeem(again)["player"] == "p2"
    assert {c["player"]: c for c in api.claim_list(eid, org)}["p2"]["status"] == "joined"


def test_bad_claim_requests_name_the_problem(api):
    eid, org, _ = _event(api)
    _refused(api.client.delete(f"/api/events/{eid}/players/nobody/claim", headers=bearer(org)), 404, "unknown-player")
    judge = api.staff_token(eid, org, "judge")
    _refused(api.client.delete(f"/api/events/{eid}/players/p1/claim", headers=bearer(judge)), 403, "forbidden")
    message = _refused(
        api.client.post(f"/api/events/{eid}/players/p1/claim", json={"revoke_devices": "yes"}, headers=bearer(org)),
        422,
        "invalid-request",
    )
    assert "revoke_devices" in message
    message = _refused(
        api.client.get(f"/api/events/{eid}/players/claims?qr=maybe", headers=bearer(org)), 422, "invalid-request"
    )
    assert "qr" in message
    _refused(api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 404, "unknown-code")


def test_a_code_sealed_under_another_key_is_listed_as_unreadable_but_still_works(app, api):
    eid, org, issued = _event(api)
    with app.app_context():
        row = db.session.execute(
            select(Invitation).where(Invitation.event_id == eid, Invitation.player == "p1")
        ).scalar_one()
        app.config["SECRET_KEY"], real = "another-key-" + "x" * 32, app.config["SECRET_KEY"]
        row.code = seal(issued["p1"], eid, "p1", row.id)
        db.session.commit()
        app.config["SECRET_KEY"] = real
    listed = {c["player"]: c for c in api.claim_list(eid, org)}["p1"]
    assert (listed["status"], listed["code"]) == ("unreadable", None)
    assert api.redeem(issued["p1"])["player"] == "p1"

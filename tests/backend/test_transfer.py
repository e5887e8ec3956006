"""The one-time transfer code: a claimed browser signs its installed app in as itself, without a desk visit."""

from __future__ import annotations

from sqlalchemy import select, update

from backend.db import db
from backend.models import Token, TransferCode
from tests.backend.helpers import PLAYERS, Api, bearer, register_ops
from tests.backend.test_push_delivery import player_tokens


def setup_event(app, client):
    api = Api(client)
    created = api.create(name="Pallet Town Cup")
    eid, org = created["event_id"], created["token"]
    registered = api.push_ok(eid, org, "desk", register_ops())
    players = player_tokens(app, api, eid, org, {**registered, "_players": PLAYERS})
    return api, eid, org, players


def make(client, eid, token):
    return client.post(f"/api/events/{eid}/transfer", headers=bearer(token))


def redeem(client, code, label="phone"):
    return client.post("/api/invitations/redeem", json={"code": code, "label": label})


def test_a_player_carries_their_seat_into_the_installed_app_and_the_browser_keeps_working(app, client):
    api, eid, org, players = setup_event(app, client)
    safari = players["p1"]
    made = make(client, eid, safari)
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    assert body["role"] == "player" and body["player"] == "p1" and body["expires_in_s"] == 600
    assert body["link"].endswith(f"/#join={body['code']}") and body["qr_svg"].startswith("<svg")
    with app.app_context():  # kept only as a keyed hash, like the claim codes
        (row,) = db.session.execute(select(TransferCode)).scalars()
        assert body["code"] not in (row.code_hash, row.label)
    # The installed app types the code (lower case, without dashes, as people do).
    grant = redeem(client, body["code"].replace("-", "").lower(), "installed app")
    assert grant.status_code == 201, grant.get_json()
    installed = grant.get_json()
    assert (installed["event_id"], installed["role"], installed["player"]) == (eid, "player", "p1")
    assert installed["name"] == "Pallet Town Cup" and installed["token"] != safari
    for token in (installed["token"], safari):  # both devices are the player
        assert "ops" in api.pull(eid, token)
    report = {"type": "result.report", "payload": {"round": 1, "table": 1, "outcomes": ["win", "loss"]}}
    r = api.push(eid, installed["token"], "installed", [report])
    assert r.status_code == 200  # refused by the rules (no round yet), not by access
    assert r.get_json()["results"][0]["error"] != "not-authorized"


def test_a_transfer_code_works_once(app, client):
    _, eid, _, players = setup_event(app, client)
    code = make(client, eid, players["p2"]).get_json()["code"]
    assert redeem(client, code).status_code == 201
    again = redeem(client, code)
    assert again.status_code == 410 and again.get_json()["error"] == "code-used"
    assert "make a new one" in again.get_json()["message"]


def test_a_transfer_code_expires_after_ten_minutes(app, client):
    _, eid, _, players = setup_event(app, client)
    code = make(client, eid, players["p2"]).get_json()["code"]
    with app.app_context():
        db.session.execute(update(TransferCode).values(expires_at=TransferCode.created_at + 1))
        db.session.commit()
    late = redeem(client, code)
    assert late.status_code == 410 and late.get_json()["error"] == "code-expired"
    assert "10 minutes" in late.get_json()["message"]


def test_a_new_code_voids_the_older_one(app, client):
    _, eid, _, players = setup_event(app, client)
    old = make(client, eid, players["p1"]).get_json()["code"]
    new = make(client, eid, players["p1"]).get_json()["code"]
    assert redeem(client, old).get_json()["error"] == "code-expired"
    assert redeem(client, new).status_code == 201


def test_a_transfer_needs_this_events_token(app, client):
    api, eid, org, players = setup_event(app, client)
    other = api.create(name="Another Cup")
    wrong = make(client, other["event_id"], players["p1"])
    assert wrong.status_code in (401, 403) and wrong.get_json()["error"] in ("invalid-token", "wrong-event")
    assert make(client, eid, "tc_nonsense").status_code == 401
    assert client.post(f"/api/events/{eid}/transfer").get_json()["error"] == "missing-token"
    unknown = make(client, "NoSuchEvent", players["p1"])
    assert unknown.status_code == 404


def test_a_staff_device_transfers_its_role(app, client):
    api, eid, org, _ = setup_event(app, client)
    judge = api.staff_token(eid, org, "judge")
    code = make(client, eid, judge).get_json()["code"]
    grant = redeem(client, code).get_json()
    assert grant["role"] == "judge" and grant["player"] is None


def test_a_code_from_a_device_whose_access_was_withdrawn_is_refused(app, client):
    _, eid, org, players = setup_event(app, client)
    code = make(client, eid, players["p3"]).get_json()["code"]
    with app.app_context():
        db.session.execute(update(Token).where(Token.player == "p3").values(revoked_at=1))
        db.session.commit()
    refused = redeem(client, code)
    assert refused.status_code == 410 and refused.get_json()["error"] == "code-revoked"


def test_making_codes_is_limited_per_device(app, client):
    app.config["TRANSFER_LIMIT"] = "3 per hour"
    _, eid, _, players = setup_event(app, client)
    answers = [make(client, eid, players["p4"]).status_code for _ in range(4)]
    assert answers == [201, 201, 201, 429]
    assert make(client, eid, players["p1"]).status_code == 201  # another device is not held back


def test_deleting_the_event_deletes_its_transfer_codes(app, client):
    _, eid, org, players = setup_event(app, client)
    code = make(client, eid, players["p1"]).get_json()["code"]
    r = client.delete(f"/api/events/{eid}", json={"confirm": "Pallet Town Cup"}, headers=bearer(org))
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["deleted"]["transfer_codes"] == 1
    assert redeem(client, code).status_code == 404

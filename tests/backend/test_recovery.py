"""A way back in for the organizer: the event's printed recovery code (shown once, stored as a keyed hash,
used once, replaceable) gives a new device organizer access; wrong codes count like wrong invitation codes."""

from __future__ import annotations

from sqlalchemy import select

from backend.db import db
from backend.models import RecoveryCode
from backend.recovery import recovery_hash
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, register_ops
from tests.backend.test_backups import _rebuilt_server
from tests.backend.test_offline_create import EVENT_ID, made_offline


def test_a_new_event_comes_with_a_recovery_code_stored_only_as_its_keyed_hash(app, client, api) -> None:
    grant = api.create()
    code = grant["recovery_code"]
    assert len(code) == 19 and code.count("-") == 3
    with app.app_context():
        row = db.session.scalars(select(RecoveryCode).where(RecoveryCode.event_id == grant["event_id"])).one()
        assert row.code_hash == recovery_hash(code) and code not in row.code_hash
    status = client.get(f"/api/events/{grant['event_id']}/recovery", headers=bearer(grant["token"])).get_json()
    assert (status["issued"], status["acknowledged_at"]) == (True, None)
    assert "code" not in status  # never shown again


def test_the_recovery_code_gives_a_new_device_organizer_access_once(client, api) -> None:
    grant = api.create(name="Regional")
    event_id = grant["event_id"]
    api.push_ok(event_id, grant["token"], "laptop", register_ops())
    typed = grant["recovery_code"].lower().replace("-", " ")  # typed from paper, any case and spacing
    r = client.post("/api/recover", json={"code": typed, "label": "Spare laptop"})
    assert r.status_code == 201, r.get_json()
    new = r.get_json()
    assert (new["event_id"], new["role"], new["name"]) == (event_id, "organizer", "Regional")
    assert new["token"] != grant["token"]
    # The new device is an organizer: it pulls the log and may invite staff.
    assert len(api.pull(event_id, new["token"])["ops"]) == 1 + len(register_ops())
    assert api.invite(event_id, new["token"], "judge")["code"]
    # The old laptop's access is not taken away (a flat battery is not a theft): the organizer may revoke it.
    tokens = client.get(f"/api/events/{event_id}/tokens?staff=true", headers=bearer(new["token"])).get_json()
    assert {t["label"] for t in tokens["tokens"] if t["role"] == "organizer"} == {"organizer", "Spare laptop"}
    # Used up: the same code again is unknown, and the event now has none until a new one is made.
    again = client.post("/api/recover", json={"code": grant["recovery_code"]})
    assert again.status_code == 404 and again.get_json()["error"] == "unknown-code"
    status = client.get(f"/api/events/{event_id}/recovery", headers=bearer(new["token"])).get_json()
    assert status["issued"] is False


def test_a_new_recovery_code_replaces_the_old_one_and_can_be_acknowledged(client, api) -> None:
    grant = api.create()
    event_id, headers = grant["event_id"], bearer(grant["token"])
    refused = client.post(
        f"/api/events/{event_id}/recovery", headers=bearer(api.staff_token(event_id, grant["token"], "judge"))
    )
    assert refused.status_code == 403  # only an organizer
    r = client.post(f"/api/events/{event_id}/recovery", headers=headers)
    assert r.status_code == 201, r.get_json()
    fresh = r.get_json()["code"]
    assert fresh != grant["recovery_code"]
    assert client.post("/api/recover", json={"code": grant["recovery_code"]}).status_code == 404
    ack = client.post(f"/api/events/{event_id}/recovery/acknowledge", headers=headers)
    assert ack.status_code == 200 and ack.get_json()["acknowledged_at"] is not None
    assert client.post("/api/recover", json={"code": fresh}).status_code == 201


def test_acknowledging_without_a_code_is_refused_with_the_next_step(client, api) -> None:
    grant = api.create()
    event_id, headers = grant["event_id"], bearer(grant["token"])
    assert client.post("/api/recover", json={"code": grant["recovery_code"]}).status_code == 201
    r = client.post(f"/api/events/{event_id}/recovery/acknowledge", headers=headers)
    assert r.status_code == 409
    assert r.get_json()["error"] == "no-recovery-code" and "make one" in r.get_json()["message"]


def test_wrong_recovery_codes_are_rate_limited_per_address_but_a_right_one_still_works(app, client, api) -> None:
    app.config["REDEEM_FAILURES_LIMIT"] = "3/minute"
    grant = api.create()
    statuses = [client.post("/api/recover", json={"code": "AAAA-BBBB-CCCC-DDDD"}).status_code for _ in range(5)]
    assert statuses[:3] == [404, 404, 404] and statuses[3:] == [429, 429]
    limited = client.post("/api/recover", json={"code": "AAAA-BBBB-CCCC-DDDD"})
    assert limited.headers.get("Retry-After") and limited.get_json()["error"] == "rate-limited"
    assert client.post("/api/recover", json={"code": grant["recovery_code"]}).status_code == 201


def test_a_bad_recover_request_names_the_problem(client) -> None:
    r = client.post("/api/recover", json={})
    assert r.status_code == 422 and "code" in r.get_json()["message"]


def test_an_event_made_offline_gets_its_recovery_code_when_it_reaches_the_server(client) -> None:
    first = client.post("/api/events", json=made_offline())
    assert first.status_code == 201 and first.get_json()["recovery_code"]
    # The answer was lost: the device sends the registration again and gets a code (a new one: the first was
    # never shown, and only the newest works).
    again = client.post("/api/events", json=made_offline())
    assert again.status_code == 200
    code = again.get_json()["recovery_code"]
    assert code and code != first.get_json()["recovery_code"]
    assert client.post("/api/recover", json={"code": first.get_json()["recovery_code"]}).status_code == 404
    # Once an organizer said the code is kept, a late retry does not replace it.
    token = again.get_json()["token"]
    assert client.post(f"/api/events/{EVENT_ID}/recovery/acknowledge", headers=bearer(token)).status_code == 200
    assert client.post("/api/events", json=made_offline()).get_json()["recovery_code"] is None
    assert client.post("/api/recover", json={"code": code}).status_code == 201


def test_deleting_the_event_deletes_its_recovery_code(client, api) -> None:
    grant = api.create(name="Gone")
    r = client.delete(f"/api/events/{grant['event_id']}", json={"confirm": "Gone"}, headers=bearer(grant["token"]))
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["deleted"]["recovery_codes"] == 1
    assert client.post("/api/recover", json={"code": grant["recovery_code"]}).status_code == 404


def test_a_restored_event_keeps_its_recovery_code_and_an_older_backup_restores_without_one(
    app, api, database_url, tmp_path
):
    grant = api.create()
    event_id, headers = grant["event_id"], bearer(grant["token"])
    backup = api.client.get(f"/api/events/{event_id}/backup", headers=headers).get_json()
    assert [set(row) for row in backup["recovery_codes"]] == [
        {"code_hash", "created_at", "created_by", "acknowledged_at"}
    ]
    older = {k: v for k, v in backup.items() if k != "recovery_codes"}
    for kept, document in ((True, backup), (False, older)):
        rebuilt = _rebuilt_server(database_url, tmp_path / str(kept), app.config["SECRET_KEY"])
        client = Api(rebuilt.test_client()).client
        r = client.post("/api/events/restore", json=document, headers=headers)
        assert r.status_code == 201, r.get_json()
        assert (client.post("/api/recover", json={"code": grant["recovery_code"]}).status_code == 201) is kept
        dispose(rebuilt)

"""A backup restores the event under its own id on a rebuilt server, and its tablets and phones carry on."""

from __future__ import annotations

import copy
import json

from backend import create_app
from tests.backend.conftest import dispose, fresh_postgres_database
from tests.backend.helpers import PLAYERS, Api, bearer, pair_ops, register_ops, report, timeless


def _rebuilt_server(database_url, tmp_path, secret_key=None):
    """An empty server on a new database of the same kind (the old machine is gone; its configuration,
    TOPCUT_SECRET_KEY included, is set up again)."""
    if database_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'rebuilt.sqlite'}"
    else:
        url = fresh_postgres_database(database_url.rsplit("/", 1)[0] + "/postgres")
    config = {"TESTING": True, "INSTANCE_PATH": tmp_path / "rebuilt", "SQLALCHEMY_DATABASE_URI": url}
    if secret_key:
        config["SECRET_KEY"] = secret_key
    return create_app(config)


def _event(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(eid, judge, "tab-1", [report(1, 1, ["win", "loss"])])
    refused = api.push(eid, judge, "tab-1", [report(9, 1, ["win", "loss"])], first_seq=2).get_json()
    assert refused["results"][0]["status"] == "rejected"
    player = api.redeem(api.claims(eid, org)[PLAYERS[2]["id"]])["token"]
    return eid, org, judge, player


def test_a_restored_event_carries_on_for_every_device(app, api, database_url, tmp_path):
    eid, org, judge, player = _event(api)
    r = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org))
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    backup = r.get_json()
    assert backup["format"] == "topcut-backup/1" and backup["event_id"] == eid
    before_state, before_pull = api.state(eid, org), timeless(api.pull(eid, org))
    player_pull = timeless(api.pull(eid, player))

    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        r = new.client.post("/api/events/restore", json=backup, headers=bearer(org))
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["event_id"] == eid and r.get_json()["cursor"] == before_pull["cursor"]
        # The same log, the same state, for the same tokens.
        assert new.state(eid, org) == before_state
        assert timeless(new.pull(eid, org)) == before_pull
        assert timeless(new.pull(eid, player)) == player_pull
        # A push whose answer was lost before the crash gets the same verdicts again ...
        again = new.push(eid, judge, "tab-1", [report(1, 1, ["win", "loss"]), report(9, 1, ["win", "loss"])]).get_json()
        assert [v["status"] for v in again["results"]] == ["accepted", "rejected"]
        # ... and the tablet goes on from its next sequence number; the phone too.
        new.push_ok(eid, judge, "tab-1", [report(1, 2, ["loss", "win"])], first_seq=3)
        assert new.pull(eid, player, cursor=player_pull["cursor"])["cursor"] > player_pull["cursor"]
    finally:
        dispose(rebuilt)


def test_a_restore_is_refused_without_an_organizer_token_or_over_an_existing_event(app, api):
    eid, org, judge, _ = _event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    assert api.client.get(f"/api/events/{eid}/backup", headers=bearer(judge)).status_code == 403
    r = api.client.post("/api/events/restore", json=backup)
    assert r.status_code == 401 and r.get_json()["error"] == "missing-token"
    r = api.client.post("/api/events/restore", json=backup, headers=bearer(judge))
    assert r.status_code == 403 and "organizer" in r.get_json()["message"]
    r = api.client.post("/api/events/restore", json=backup, headers=bearer(org))
    assert r.status_code == 409 and r.get_json()["error"] == "event-exists"


def test_a_damaged_backup_is_refused_naming_the_problem_and_writes_nothing(app, api, database_url, tmp_path):
    eid, org, _, _ = _event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    rebuilt = _rebuilt_server(database_url, tmp_path)
    try:
        new = Api(rebuilt.test_client())
        gap = copy.deepcopy(backup)
        gap["operations"] = [row for row in gap["operations"] if row["server_seq"] != 3]
        wrong_type = copy.deepcopy(backup)
        wrong_type["devices"][0]["last_seq"] = "7"
        bad_op = copy.deepcopy(backup)
        row = next(r for r in bad_op["operations"] if r["server_seq"] == 2)
        row["op"] = json.dumps({**json.loads(row["op"]), "type": "timer.pause"})
        for damaged, message in ((gap, "operations: server_seq 3 is missing"),
                                 (wrong_type, "devices[0].last_seq: expected int, got str"),
                                 (bad_op, "operations: server_seq 2 does not apply"),
                                 ({**backup, "format": "topcut-event/1"}, "format: expected 'topcut-backup/1'")):
            r = new.client.post("/api/events/restore", json=damaged, headers=bearer(org))
            assert r.status_code == 422 and r.get_json()["error"] == "invalid-backup", r.get_json()
            assert r.get_json()["message"].startswith(message), r.get_json()
            assert new.client.get(f"/api/events/{eid}/state", headers=bearer(org)).status_code == 404
    finally:
        dispose(rebuilt)


def test_the_server_commands_back_up_and_restore(app, api, database_url, tmp_path):
    eid, org, _, _ = _event(api)
    path = tmp_path / "event.backup.json"
    result = app.test_cli_runner().invoke(args=["topcut-backup", eid, "--output", str(path)])
    assert result.exit_code == 0, result.output
    before = timeless(api.pull(eid, org))
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        result = rebuilt.test_cli_runner().invoke(args=["topcut-restore", str(path)])
        assert result.exit_code == 0 and f"restored event {eid}" in result.output, result.output
        assert timeless(Api(rebuilt.test_client()).pull(eid, org)) == before
        again = rebuilt.test_cli_runner().invoke(args=["topcut-restore", str(path)])
        assert again.exit_code == 1 and "already exists" in again.output
    finally:
        dispose(rebuilt)

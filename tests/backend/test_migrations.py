"""Schema migrations: a database made by an earlier revision (or by create_all before migrations) upgrades
on start with its events intact; the models and the newest revision agree."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, select, text

from backend import create_app
from backend.db import db
from backend.models import Token
from backend.schema import FIRST_REVISION, _config, current_revision, upgrade_database
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, pair_ops, register_ops


def _app(database_url, instance, **config):
    return create_app({"TESTING": True, "INSTANCE_PATH": instance, "SQLALCHEMY_DATABASE_URI": database_url, **config})


def _at_every_head() -> bool:
    """The database is at every newest revision (several when parallel branches each added one)."""
    with db.engine.connect() as connection:
        current = set(MigrationContext.configure(connection).get_current_heads())
        newest = set(ScriptDirectory.from_config(_config(connection)).get_heads())
    return bool(current) and current == newest


def _old_server_event(database_url, tmp_path, keep_alembic_table: bool):
    """An event recorded by a server whose schema stopped at the first revision (the previous release)."""
    old = _app(database_url, tmp_path / "old", AUTO_MIGRATE=False)
    with old.app_context():
        upgrade_database(FIRST_REVISION)
        assert current_revision() == FIRST_REVISION
        assert "expires_at" not in {c["name"] for c in inspect(db.engine).get_columns("tokens")}
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO events (id, name, ruleset, created_at, head_seq, snapshot_seq) "
                    "VALUES ('ev1', 'Old Cup', 'pokemon-tcg', 1, 1, 0)"
                )
            )
            conn.execute(
                text(
                    "INSERT INTO operations (event_id, device, device_seq, server_seq, accepted, op, "
                    "received_at) VALUES ('ev1', 'server', 1, 1, true, :op, 1)"
                ),
                {
                    "op": '{"type": "event.create", "op_id": "server:1", "device": "server", '
                    '"actor": {"role": "organizer"}, "at": 1, "payload": {"ruleset": "pokemon-tcg", '
                    '"name": "Old Cup"}}'
                },
            )
            for tid, role in (("tok-org", "organizer"), ("tok-judge", "judge"), ("tok-player", "player")):
                conn.execute(
                    text(
                        "INSERT INTO tokens (id, event_id, token_hash, role, label, created_at) "
                        "VALUES (:id, 'ev1', :hash, :role, '', 1)"
                    ),
                    {"id": tid, "hash": tid.ljust(64, "0"), "role": role},
                )
            if not keep_alembic_table:
                conn.execute(text("DROP TABLE alembic_version"))  # as create_all left it
    dispose(old)


def _check_upgraded(database_url, tmp_path):
    new = _app(database_url, tmp_path / "new")  # starting the new release upgrades the database
    try:
        with new.app_context():
            assert _at_every_head()
            assert inspect(db.engine).has_table("transfer_codes")
            assert current_revision() == "0012_audience_version"
            assert inspect(db.engine).has_table("view_parts")
            outbox = {i["name"] for i in inspect(db.engine).get_indexes("push_outbox")}
            assert "ix_push_outbox_event_kind_ref_player" in outbox and "ix_push_outbox_event_kind_ref" not in outbox
            tokens = {t.id: t for t in db.session.execute(select(Token)).scalars()}
            assert tokens["tok-org"].expires_at is not None and tokens["tok-judge"].expires_at is not None
            assert tokens["tok-player"].expires_at is None  # players' tokens never expire
            assert inspect(db.engine).has_table("rate_limits")
            assert inspect(db.engine).has_table("people") and inspect(db.engine).has_table("roster_links")
            assert all(inspect(db.engine).has_table(t) for t in ("leagues", "league_events", "league_tokens"))
        from backend.auth import hash_secret  # noqa: F401  (the event still folds and serves)

        with new.app_context():
            from backend.ledger import event_state
            from backend.models import Event

            assert event_state(db.session.get(Event, "ev1"))[1]["name"] == "Old Cup"
        # ... and the new release works on it.
        api = Api(new.test_client())
        created = api.create()
        api.push_ok(created["event_id"], created["token"], "desk", register_ops() + pair_ops(1))
        assert (
            api.client.post(
                f"/api/events/{created['event_id']}/tokens/rotate", headers=bearer(created["token"])
            ).status_code
            == 201
        )
        person = api.client.post("/api/people", json={"name": "Ada"}, headers=bearer(created["token"])).get_json()
        assert (
            api.client.put(
                f"/api/events/{created['event_id']}/players/p1/person",
                json={"person": person["id"]},
                headers=bearer(created["token"]),
            ).status_code
            == 200
        )
    finally:
        dispose(new)


def test_a_database_of_the_previous_revision_upgrades_on_start(database_url, tmp_path):
    _old_server_event(database_url, tmp_path, keep_alembic_table=True)
    _check_upgraded(database_url, tmp_path)


def test_a_database_made_before_migrations_is_recognised_and_upgraded(database_url, tmp_path):
    _old_server_event(database_url, tmp_path, keep_alembic_table=False)
    _check_upgraded(database_url, tmp_path)


def test_the_models_and_the_newest_revision_agree(database_url, tmp_path):
    app = _app(database_url, tmp_path / "i")
    try:
        with app.app_context(), db.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), db.metadata)
        assert diff == [], "a model changed without a migration: flask --app backend db migrate -m '...'"
    finally:
        dispose(app)


def test_a_second_start_finds_the_database_current(database_url, tmp_path):
    first = _app(database_url, tmp_path / "a")
    second = _app(database_url, tmp_path / "b")
    try:
        with second.app_context():
            assert _at_every_head()
            assert current_revision() == "0012_audience_version"
    finally:
        dispose(first)
        dispose(second)


def test_sqlite_syncs_every_commit_unless_told_otherwise(sqlite_url, tmp_path):
    """README "Operations": FULL by default (an accepted change survives a power cut), NORMAL on request."""
    import pytest

    for configured, expected in ((None, 2), ("normal", 1)):
        extra = {} if configured is None else {"SQLITE_SYNCHRONOUS": configured}
        app = _app(sqlite_url, tmp_path / f"s{expected}", **extra)
        try:
            with app.app_context(), db.engine.connect() as conn:
                assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == expected
        finally:
            dispose(app)
    with pytest.raises(RuntimeError, match="SQLITE_SYNCHRONOUS must be one of FULL, NORMAL, EXTRA"):
        _app(sqlite_url, tmp_path / "bad", SQLITE_SYNCHRONOUS="OFF")


def test_a_league_of_the_leagues_revision_keeps_its_director_token_after_the_upgrade(database_url, tmp_path):
    """0006_league_token_rotation: a director token made before rotation existed keeps working, and rotates."""
    from backend.auth import hash_secret

    old = _app(database_url, tmp_path / "old", AUTO_MIGRATE=False)
    with old.app_context():
        upgrade_database("0005_leagues")
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO leagues (id, name, document, created_at, version) VALUES ('lg1', 'Old League', "
                    ":doc, 1, 1)"
                ),
                {
                    "doc": '{"name": "Old League", "director": {"name": "Q"}, "season": {"name": "", '
                    '"schedule": "truncated"}, "qualification": {"per_sprint": 2}, "bonus": []}'
                },
            )
            conn.execute(
                text(
                    "INSERT INTO league_tokens (id, league_id, token_hash, role, label, created_at) "
                    "VALUES ('lt1', 'lg1', :hash, 'director', 'league director', 1)"
                ),
                {"hash": hash_secret("tl_old")},
            )
    dispose(old)
    new = _app(database_url, tmp_path / "new")
    try:
        client = new.test_client()
        assert client.get("/api/leagues/lg1", headers=bearer("tl_old")).get_json()["name"] == "Old League"
        listed = client.get("/api/leagues/lg1/tokens", headers=bearer("tl_old")).get_json()["tokens"]
        assert [(t["token_id"], t["expires_at"], t["replaced_by"], t["this_device"]) for t in listed] == [
            ("lt1", None, None, True)
        ]
        r = client.post("/api/leagues/lg1/tokens/rotate", headers=bearer("tl_old"))
        assert r.status_code == 201, r.get_json()
        assert client.get("/api/leagues/lg1", headers=bearer(r.get_json()["token"])).status_code == 200
    finally:
        dispose(new)

"""The database schema: Alembic migrations (Flask-Migrate), applied when the app starts.

``backend/migrations/versions`` holds one revision per schema change. Every start
(``make run``, each gunicorn worker, the tests) brings the database to the newest
revision before serving, under a lock so that workers starting together migrate
once: PostgreSQL's advisory lock, an ``flock`` beside an SQLite file. A database
made before migrations existed (``create_all``) is recognised by its tables and
stamped with the first revision, then upgraded. Operators can also run the steps
by hand: ``flask --app backend db upgrade`` (``--sql`` prints them), ``db current``,
``db history``. A new model change gets its revision with ``flask --app backend db migrate -m "..."``.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

from alembic import command
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask, current_app
from flask_migrate import Migrate
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection

from backend.db import db

__all__ = ["MIGRATIONS_DIR", "FIRST_REVISION", "migrate", "init_app", "upgrade_database", "current_revision"]

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The schema as ``create_all`` made it before migrations existed.
FIRST_REVISION = "0001_initial"
#: PostgreSQL advisory lock key for "migrating Topcut's schema" (any constant shared by all workers).
_PG_LOCK_KEY = 0x70C07C


migrate = Migrate(compare_type=True, render_as_batch=True)


def init_app(app: Flask) -> None:
    migrate.init_app(app, db, directory=str(MIGRATIONS_DIR))
    if app.config.get("AUTO_MIGRATE", True):
        with app.app_context():
            upgrade_database()


def _config(connection: Connection):
    cfg = current_app.extensions["migrate"].migrate.get_config(str(MIGRATIONS_DIR))
    cfg.attributes["quiet"] = True  # the app's logging stays as it is
    cfg.attributes["connection"] = connection
    return cfg


@contextlib.contextmanager
def _locked_transaction() -> Iterator[Connection]:
    engine = db.engine
    if engine.dialect.name == "postgresql":
        with engine.begin() as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_LOCK_KEY})
            yield connection
        return
    database = engine.url.database
    lock_fd = None
    if database and database != ":memory:" and not database.startswith("file:"):
        lock_fd = os.open(database + ".migrate-lock", os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(lock_fd, fcntl.LOCK_EX)
    try:
        with engine.begin() as connection:
            yield connection
    finally:
        if lock_fd is not None:
            os.close(lock_fd)


def current_revision() -> str | None:
    """The database's revision (None: no migration applied)."""
    with db.engine.connect() as connection:
        heads = MigrationContext.configure(connection).get_current_heads()
    return heads[0] if heads else None


def upgrade_database(revision: str = "head") -> None:
    """Bring the database to ``revision`` (default the newest), once, whoever else is starting."""
    with _locked_transaction() as connection:
        cfg = _config(connection)
        current = set(MigrationContext.configure(connection).get_current_heads())
        target = set(ScriptDirectory.from_config(cfg).get_heads()) if revision == "head" else {revision}
        if current == target:
            return
        if not current and inspect(connection).has_table("events"):
            command.stamp(cfg, FIRST_REVISION)  # made by create_all before migrations existed
        # "heads": branches merged from parallel work each add a revision after the same one; apply them all.
        command.upgrade(cfg, "heads" if revision == "head" else revision)

"""The database handle shared by the app's models, and the engine set-up.

SQLite (the default) runs in WAL mode with a busy timeout; the pysqlite
driver's own transaction handling is switched off so that a writer can start
with ``BEGIN IMMEDIATE`` (see :func:`begin_write`). PostgreSQL writers lock the
event row with ``SELECT ... FOR UPDATE`` instead.
"""

from __future__ import annotations

import fcntl
import os
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import CursorResult, Engine
from sqlalchemy.sql import Executable

db = SQLAlchemy()

SQLITE_BUSY_TIMEOUT_MS = 30_000
#: SQLite's ``synchronous`` setting (``SQLITE_SYNCHRONOUS`` in the config): FULL syncs the write-ahead log
#: on every commit, so an accepted change survives a power cut; NORMAL syncs only at checkpoints (faster,
#: and a power cut may undo the last moments' commits). The README's "Operations" section has the details.
SQLITE_SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA")


def _lock_path(engine: Engine) -> str | None:
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database + ".writelock"


def _release(record_info: dict) -> None:
    fd = record_info.pop("topcut_write_lock", None)
    if fd is not None:
        os.close(fd)  # closing the descriptor drops the flock


def configure_engine(engine: Engine, synchronous: str = "FULL") -> None:
    """Attach the SQLite pragmas and the BEGIN / BEGIN IMMEDIATE switch (no-op on other databases).

    SQLite writers queue on an ``flock`` of ``<database>.writelock`` before
    ``BEGIN IMMEDIATE``: the kernel wakes the next writer the moment the lock
    is released, where SQLite's own busy handler would sleep and poll (several
    gunicorn workers pushing at once). The lock is dropped when the connection
    goes back to the pool, after its COMMIT or ROLLBACK.
    """
    if engine.dialect.name != "sqlite":
        return
    if synchronous not in SQLITE_SYNCHRONOUS:
        raise RuntimeError(f"SQLITE_SYNCHRONOUS must be one of {', '.join(SQLITE_SYNCHRONOUS)}, not {synchronous!r}")
    lock_path = _lock_path(engine)

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection, _record):  # pragma: no cover - exercised by every test
        dbapi_connection.isolation_level = None  # we emit BEGIN ourselves
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection):
        if connection.get_execution_options().get("topcut_write"):
            info = connection.connection.info
            if lock_path is not None and "topcut_write_lock" not in info:
                fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                except BaseException:
                    os.close(fd)
                    raise
                info["topcut_write_lock"] = fd
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            connection.exec_driver_sql("BEGIN")

    @event.listens_for(engine, "checkin")
    def _checkin(_dbapi_connection, record):
        _release(record.info)

    @event.listens_for(engine, "invalidate")
    def _invalidate(_dbapi_connection, record, _exception):
        _release(record.info)


def begin_write() -> None:
    """Start the request's transaction as a writer (SQLite: BEGIN IMMEDIATE).

    Call before the request touches the database; a transaction already open
    (a read) is rolled back first so the write lock is taken up front.
    """
    if db.session().in_transaction():
        db.session.rollback()
    db.session.connection(execution_options={"topcut_write": True})


def changed(statement: Executable) -> int:
    """Run an UPDATE or DELETE in the session; the number of rows it changed."""
    result: CursorResult[Any] = db.session.execute(statement)  # type: ignore[assignment]
    return result.rowcount

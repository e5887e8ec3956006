"""Backend fixtures: every ``app`` test runs on SQLite and on PostgreSQL.

PostgreSQL comes from ``TOPCUT_TEST_POSTGRES_URL`` (an existing server; each
test gets its own database) or else from a throwaway cluster started by
scripts/postgres_for_tests.py for the session. Without PostgreSQL the
``postgresql`` variants are skipped with the install hint — except in CI
(``CI=true``), where that is a failure.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from backend import create_app
from backend.db import db
from tests.backend.helpers import Api

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("postgres_for_tests", ROOT / "scripts" / "postgres_for_tests.py")
pg_script = importlib.util.module_from_spec(_spec)
sys.modules["postgres_for_tests"] = pg_script
_spec.loader.exec_module(pg_script)

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL server URL (admin database) for the session."""
    url = os.environ.get("TOPCUT_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    directory = tmp_path_factory.mktemp("postgres")
    try:
        cluster = pg_script.start(directory)
    except pg_script.PostgresUnavailable as exc:
        if IN_CI:
            pytest.fail(f"CI=true but PostgreSQL cannot start: {exc}")
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        yield cluster.url
    finally:
        cluster.stop()
        shutil.rmtree(directory, ignore_errors=True)


def fresh_postgres_database(server_url: str) -> str:
    """Create an empty database on the server; return its SQLAlchemy URL."""
    import psycopg

    base, _, _ = server_url.rpartition("/")
    name = "t_" + secrets.token_hex(6)
    with psycopg.connect(server_url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    return fresh_postgres_database(request.getfixturevalue("postgres_server"))


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite'}"


def make_app(database_url: str, instance: Path):
    return create_app({"TESTING": True, "INSTANCE_PATH": instance, "SQLALCHEMY_DATABASE_URI": database_url})


def dispose(app) -> None:
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def app(database_url: str, tmp_path: Path):
    """The app on each database (overrides tests/conftest.py's SQLite-only app)."""
    app = make_app(database_url, tmp_path / "instance")
    yield app
    dispose(app)


@pytest.fixture
def api(client) -> Api:
    return Api(client)

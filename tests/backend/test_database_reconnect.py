"""A PostgreSQL server that dropped its connections (restarted, failed over): pooled connections are not pinged
before each use (an up-to-date phone's view would pay a round trip for it), so the first request on a dead
connection is told the database is busy (503, which every device retries) and the next one is served."""

from __future__ import annotations

import psycopg
import pytest

from tests.backend.test_player_view_endpoint import _event, _player, _view


def _drop_every_connection(database_url: str) -> None:
    name = database_url.rpartition("/")[2]
    with psycopg.connect(database_url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            (name,),
        )


def test_after_the_database_dropped_its_connections_a_retry_is_served(api, database_url):
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no connections to drop")
    eid, org = _event(api)
    token = _player(api, eid, org, "p1")
    assert _view(api, eid, token).status_code == 200
    _drop_every_connection(database_url)
    first = _view(api, eid, token)
    assert first.status_code in (200, 503), first.get_json()
    if first.status_code == 503:
        assert first.get_json()["error"] == "busy"
    assert _view(api, eid, token).status_code == 200
    api.push_ok(eid, org, "desk", [{"type": "player.drop", "payload": {"player": "p8"}}], first_seq=9)

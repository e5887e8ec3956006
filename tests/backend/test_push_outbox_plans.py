"""The push outbox's hot statements find their rows by index (issue 27): a settled match cancels its two players'
pending notices without walking the round's other pending time warnings (migration 0011), and news of several tags
finds their older pending sends by tag, not by walking every pending notification."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Executable, insert, text

from backend.db import db
from backend.models import PushOutbox
from backend.push.notifications import _pending_of_topics, _update_notices, pending_notices
from tests.backend.conftest import dispose, make_app

INDEX = "ix_push_outbox_event_kind_ref_player"


def _fill_round(players: int) -> None:
    """The round's pending time warning and "confirm it" per player, the earlier rounds' sent ones, another event's."""
    rows = []
    for event, ref, state in (("ev1", "swiss:4", "pending"), ("ev2", "swiss:4", "pending")) + tuple(
        ("ev1", f"swiss:{n}", "sent") for n in (1, 2, 3)
    ):
        for kind in ("time.warning", "result.reported"):
            for n in range(players):
                rows.append(
                    {
                        "key": f"{event}:{kind}:{ref}:{n}",
                        "event_id": event,
                        "subscription_id": f"s{n}",
                        "kind": kind,
                        "ref": ref,
                        "player": f"p{n}",
                        "payload": "{}",
                        "ttl": 60,
                        "urgency": "normal",
                        "topic": f"t{n}",
                        "state": state,
                        "attempts": 0,
                        "next_attempt_at": 1,
                        "expires_at": 2,
                    }
                )
    db.session.execute(insert(PushOutbox), rows)
    db.session.commit()


def _plan(statement: Executable) -> str:
    """The database's plan of ``statement`` (its literal values inlined), as one string."""
    sql = str(statement.compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": True}))
    prefix = "EXPLAIN QUERY PLAN " if db.engine.dialect.name == "sqlite" else "EXPLAIN "
    return "\n".join(" ".join(str(v) for v in row) for row in db.session.execute(text(prefix + sql)).all())


def _statements() -> dict[str, Executable]:
    """The cancelling UPDATEs of a settled match (one per kind) and the rescheduling of a round's warnings."""
    match = {"event_id": "ev1", "ref": "swiss:4", "players": ["p3", "p4"]}
    return {
        "cancel warnings": pending_notices({**match, "kind": "time.warning"}).values(state="cancelled"),
        "cancel confirm-it": pending_notices({**match, "kind": "result.reported"}).values(state="cancelled"),
        "reschedule": pending_notices({"event_id": "ev1", "kind": "time.warning", "ref": "swiss:4"}).values(
            next_attempt_at=5, expires_at=6
        ),
    }


@contextmanager
def _round_of_400(database_url: str, tmp_path: Path) -> Iterator[None]:
    """An app context over a round of 400 players' notices, the store's statistics up to date."""
    app = make_app(database_url, tmp_path / "i")
    try:
        with app.app_context():
            _fill_round(400)
            if db.engine.dialect.name == "postgresql":
                db.session.execute(text("ANALYZE push_outbox"))
            yield
            db.session.rollback()
    finally:
        dispose(app)


def test_a_settled_match_cancels_its_notices_by_the_players_index(database_url, tmp_path):
    with _round_of_400(database_url, tmp_path):
        for name, statement in _statements().items():
            plan = _plan(statement)
            assert INDEX in plan, f"{name}: {plan}"
            assert "SCAN push_outbox" not in plan and "Seq Scan" not in plan, f"{name}: {plan}"
        if db.engine.dialect.name == "sqlite":  # all four columns are the lookup's, not three and a filter
            assert "player=?" in _plan(_statements()["cancel warnings"])


def test_older_sends_of_several_tags_are_found_by_the_topic_index(database_url, tmp_path):
    with _round_of_400(database_url, tmp_path):
        connection = db.session.connection()
        for topics in (["t3"], ["t3", "t4"], [f"t{n}" for n in range(40)]):
            sql = _pending_of_topics(connection.dialect, len(topics))
            prefix = "EXPLAIN QUERY PLAN " if connection.dialect.name == "sqlite" else "EXPLAIN "
            plan = "\n".join(
                " ".join(str(v) for v in row)
                for row in connection.exec_driver_sql(prefix + sql, (*topics, "ev1")).all()
            )
            if connection.dialect.name == "sqlite":  # PostgreSQL weighs both indexes by its statistics
                assert "ix_push_outbox_topic" in plan and "ix_push_outbox_due" not in plan, plan
            elif len(topics) < 40:  # here a fifth of the rows are pending: 40 tags' history is not small
                assert "ix_push_outbox_topic" in plan and "Seq Scan" not in plan, plan
            found = connection.exec_driver_sql(sql, (*topics, "ev1")).all()
            assert sorted(row[3] for row in found) == sorted(topics * 2)  # the pending warning and "confirm it"
            assert {row[1].split(":")[0] for row in found} == {"ev1"}


def test_the_cancelling_update_changes_only_the_match_players_pending_notices(sqlite_url, tmp_path):
    app = make_app(sqlite_url, tmp_path / "i")
    try:
        with app.app_context():
            _fill_round(10)
            for statement in list(_statements().values())[:2]:
                db.session.execute(statement)
            db.session.commit()
            cancelled = db.session.execute(
                text("SELECT event_id, kind, player FROM push_outbox WHERE state = 'cancelled' ORDER BY 1, 2, 3")
            ).all()
            assert [tuple(row) for row in cancelled] == [
                ("ev1", "result.reported", "p3"),
                ("ev1", "result.reported", "p4"),
                ("ev1", "time.warning", "p3"),
                ("ev1", "time.warning", "p4"),
            ]
    finally:
        dispose(app)


def test_the_statements_made_once_change_what_the_reference_changes(sqlite_url, tmp_path):
    """The prepared UPDATEs the push runs (bound at execution) do what ``pending_notices`` builds per call."""
    cases = [
        (
            {"event_id": "ev1", "ref": "swiss:4", "players": ["p3", "p4"], "kind": "time.warning"},
            {"state": "cancelled"},
        ),
        ({"event_id": "ev1", "ref": "swiss:4", "players": ["p5"], "kind": "result.reported"}, {"state": "cancelled"}),
        ({"event_id": "ev1", "kind": "time.warning", "ref": "swiss:4"}, {"next_attempt_at": 5, "expires_at": 6}),
    ]
    outcomes = []
    for prepared in (False, True):
        app = make_app(sqlite_url.replace(".sqlite", f"{prepared}.sqlite"), tmp_path / f"i{prepared}")
        try:
            with app.app_context():
                _fill_round(10)
                for where, values in cases:
                    if prepared:
                        _update_notices(where, values)
                    else:
                        db.session.execute(pending_notices(where).values(**values))
                db.session.commit()
                outcomes.append(
                    db.session.execute(
                        text("SELECT key, state, next_attempt_at, expires_at FROM push_outbox ORDER BY key")
                    ).all()
                )
        finally:
            dispose(app)
    assert outcomes[0] == outcomes[1]
    assert sum(1 for row in outcomes[1] if row[1] == "cancelled") == 3
    assert sum(1 for row in outcomes[1] if row[2] == 5) == 8

"""The event's audience version: one number that moves whenever its live push subscriptions may change.

Each app server keeps an event's subscriptions grouped for the push path (backend/push/notifications.py
``_audience``) and checks its copy against ``events.audience_version`` on every push: one row by its key, where an
aggregate over the event's subscriptions and revoked tokens walked thousands of rows (issue 27). Every writer that
makes, renews, replaces or removes a subscription, or revokes, retires or moves a token, bumps the version in its
own transaction, and bumps it before it writes any subscription or token row: the event's row is the first lock
each of them takes (the push path holds it when it revokes a removed player's tokens), so PostgreSQL sees one lock
order and no deadlock. No database trigger: one on the token's row would lock the event after the token.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import bindparam, select, update

from backend.db import db
from backend.models import Event

_EVENTS = Event.__table__
#: The statements, made once (the event is bound at execution); Core, so the session's Event objects are untouched.
_BUMP = (
    update(_EVENTS).where(_EVENTS.c.id == bindparam("event_id")).values(audience_version=_EVENTS.c.audience_version + 1)
)
_VERSION = select(_EVENTS.c.audience_version).where(_EVENTS.c.id == bindparam("event_id"))


def bump_audience(event_ids: Iterable[str]) -> None:
    """Move the events' audience versions in the session's transaction (sorted: one lock order among events)."""
    for event_id in sorted(set(event_ids)):
        db.session.execute(_BUMP, {"event_id": event_id})


def audience_version(event_id: str) -> int | None:
    """The event's audience version as the session's transaction sees it (None: no such event)."""
    return db.session.execute(_VERSION, {"event_id": event_id}).scalar_one_or_none()


__all__ = ["audience_version", "bump_audience"]

"""The opening an event route repeats, in one place (as flaskr's ``get_post``): token, body, lock, token.

A route that changes an event checks the caller's token before reading the body or waiting for the
event's write lock (no token, no wait for anyone), loads the body, takes the lock, and checks the token
again under it (it may have been revoked meanwhile). ``open_event`` does exactly that; a league's
opening is ``backend.startrek.leagues.open_league``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import request
from marshmallow import Schema

from backend.api import load_body
from backend.auth import Principal, authenticate
from backend.ledger import lock_event
from backend.models import Event

__all__ = ["Opened", "open_event"]


@dataclass(frozen=True)
class Opened:
    """An event locked for a write, the caller's token as checked under the lock, and the request's body."""

    event: Event
    principal: Principal
    data: dict[str, Any] = field(default_factory=dict)


def open_event(
    event_id: str,
    roles: frozenset[str] | None = None,
    schema: Schema | None = None,
    *,
    empty: dict[str, Any] | None = None,
) -> Opened:
    """Check the token (``roles``; None: any role), load the body (``empty`` stands for a missing one), lock
    the event and check the token again: 404 unknown event, 401/403 token, 422 body."""
    authenticate(event_id, roles)  # before the body and the lock: no token, no wait for anyone
    data: dict[str, Any] = {}
    if schema is not None:
        data = dict(empty) if empty is not None and not request.get_data() else load_body(schema)
    event = lock_event(event_id)
    return Opened(event, authenticate(event_id, roles), data)  # still valid under the lock

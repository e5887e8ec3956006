"""A way back in: an event's printed recovery code gives a new device organizer access.

An organizer's access is a token held in one browser; a laptop that dies, is lost or is wiped takes it along.
Each event has at most one recovery code, shown once (when the event is created, or when an organizer makes a
new one on the Staff screen), stored only as a keyed hash (``auth.keyed_mac``). Typed on a new device
(``POST /api/recover``), it gives that device a new organizer token and is used up: the organizer then prints a
new one. A wrong code counts against the address like a wrong invitation code (``REDEEM_FAILURES_LIMIT``).
The other way back in is a spare organizer device (an organizer invitation, backend/invitations.py).
"""

from __future__ import annotations

import secrets

from flask import Blueprint, current_app
from sqlalchemy import delete

from backend.api import load_body, respond
from backend.auth import ORGANIZER, authenticate, keyed_mac, new_token, token_lifetime_s
from backend.db import begin_write, changed, db
from backend.errors import ApiError
from backend.limits import refuse_wrong_code
from backend.models import Event, RecoveryCode, now_ms
from backend.resources import open_event
from backend.schemas import (
    RecoverRequestSchema,
    RecoveryCodeSchema,
    RecoveryStatusSchema,
    TokenGrantSchema,
)

bp = Blueprint("recovery", __name__, url_prefix="/api")

#: An unambiguous alphabet (no 0/O, 1/I): 16 characters of it are 80 bits, in four groups.
ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
GROUPS = 4


def new_recovery_code() -> str:
    """A recovery code people can type from paper: ``ABCD-EFGH-JKLM-NPQR`` (80 bits)."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(4 * GROUPS))
    return "-".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def normalise(code: str) -> str:
    """The code as issued, from what was typed (any case, spaces or dashes anywhere)."""
    clean = "".join(ch for ch in code.upper() if ch.isalnum())
    return "-".join(clean[i : i + 4] for i in range(0, len(clean), 4))


def recovery_hash(code: str) -> str:
    """A recovery code's stored hash (keyed by the server's ``SECRET_KEY``, its own purpose)."""
    return keyed_mac(b"topcut recovery codes v1", code).hex()


def issue(event_id: str, created_by: str | None) -> str:
    """Make the event's recovery code (replacing any earlier one) in the current transaction; the code."""
    code = new_recovery_code()
    db.session.execute(delete(RecoveryCode).where(RecoveryCode.event_id == event_id))
    db.session.add(
        RecoveryCode(event_id=event_id, code_hash=recovery_hash(code), created_at=now_ms(), created_by=created_by)
    )
    return code


def unacknowledged(event_id: str) -> bool:
    """Whether the event has no recovery code an organizer has said is kept (none, or one never acknowledged)."""
    row = db.session.get(RecoveryCode, event_id)
    return row is None or row.acknowledged_at is None


def _status(event_id: str) -> dict:
    row = db.session.get(RecoveryCode, event_id)
    return {
        "event_id": event_id,
        "issued": row is not None,
        "created_at": row.created_at if row else None,
        "acknowledged_at": row.acknowledged_at if row else None,
    }


@bp.get("/events/<event_id>/recovery")
def recovery_status(event_id: str):
    """Whether the event has a recovery code.
    ---
    get:
      summary: Whether the event has a recovery code and whether it was acknowledged as kept (organizer token;
        the code itself is never shown again)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: RecoveryStatusSchema
    """
    authenticate(event_id, ORGANIZER)
    return respond(RecoveryStatusSchema(), _status(event_id))


@bp.post("/events/<event_id>/recovery")
def make_recovery_code(event_id: str):
    """Make a new recovery code.
    ---
    post:
      summary: Make the event's recovery code (organizer token), shown once; any earlier code stops working
      security: [{bearer: []}]
      responses:
        201:
          content:
            application/json:
              schema: RecoveryCodeSchema
    """
    principal = open_event(event_id, ORGANIZER).principal
    code = issue(event_id, principal.token_id)
    out = {**_status(event_id), "code": code}
    db.session.commit()
    current_app.logger.info("event %s: new recovery code made by organizer token %s", event_id, principal.token_id)
    return respond(RecoveryCodeSchema(), out, 201)


@bp.post("/events/<event_id>/recovery/acknowledge")
def acknowledge_recovery_code(event_id: str):
    """Say the recovery code is printed or written down.
    ---
    post:
      summary: Mark the event's recovery code as kept (printed or written down; organizer token)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: RecoveryStatusSchema
    """
    open_event(event_id, ORGANIZER)
    row = db.session.get(RecoveryCode, event_id)
    if row is None:
        db.session.rollback()
        raise ApiError(409, "no-recovery-code", "the event has no recovery code: make one first")
    if row.acknowledged_at is None:
        row.acknowledged_at = now_ms()
    out = _status(event_id)
    db.session.commit()
    return respond(RecoveryStatusSchema(), out)


@bp.post("/recover")
def recover():
    """Recover organizer access with a recovery code.
    ---
    post:
      summary: Exchange an event's recovery code for a new organizer token (shown once); the code is used up
      requestBody:
        required: true
        content:
          application/json:
            schema: RecoverRequestSchema
      responses:
        201:
          content:
            application/json:
              schema: TokenGrantSchema
    """
    data = load_body(RecoverRequestSchema())
    begin_write()
    digest = recovery_hash(normalise(data["code"]))
    row = db.session.query(RecoveryCode).filter(RecoveryCode.code_hash == digest).first()
    if row is None:
        db.session.rollback()
        refuse_wrong_code("this recovery code")
        raise ApiError(
            404,
            "unknown-code",
            "this recovery code is not valid: check it letter by letter (it looks like ABCD-EFGH-JKLM-NPQR). "
            "A code that was used, or replaced by a newer one on the Staff screen, no longer works.",
        )
    event_id = row.event_id
    # The conditional delete is the one-time guarantee, whatever else runs at the same time.
    if changed(delete(RecoveryCode).where(RecoveryCode.event_id == event_id, RecoveryCode.code_hash == digest)) != 1:
        db.session.rollback()
        raise ApiError(410, "code-used", "this recovery code was just used on another device")
    token, secret = new_token(event_id, "organizer", None, data["label"].strip() or "Organizer (recovered)")
    event = db.session.get_one(Event, event_id)
    db.session.commit()
    current_app.logger.warning(
        "event %s: organizer access recovered with the recovery code (token %s)", event_id, token.id
    )
    return respond(
        TokenGrantSchema(),
        {
            "event_id": event_id,
            "token": secret,
            "token_id": token.id,
            "role": token.role,
            "player": None,
            "name": event.name,
            "ruleset": event.ruleset,
            "server_time": now_ms(),
            "expires_in_s": token_lifetime_s(token.role),
        },
        201,
    )


__all__ = ["bp", "issue", "unacknowledged"]

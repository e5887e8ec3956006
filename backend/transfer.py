"""One-time transfer codes: a claimed device signs its installed app in as itself, without a desk visit.

An iPhone's home-screen app does not share Safari's storage, so a player who claimed their seat in Safari
and then installed the app would arrive in it as nobody. The claimed screen makes a transfer code
(``POST /api/events/<id>/transfer``): 12 letters, shown with a link and its QR code, stored as a keyed hash
like the claim codes, usable once, for ``TRANSFER_TTL_S`` (10 minutes). Typed in the installed app's
"Join an event" (or opened from the link), ``POST /api/invitations/redeem`` gives that app a token of its
own with the same role and player (:func:`redeem_transfer`); the device that made the code keeps working.
Wrong codes count against the same per-address limit as wrong claim codes; making codes is limited per token.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app
from marshmallow import Schema, fields
from sqlalchemy import select, update

from backend.api import respond
from backend.auth import authenticate, hash_code, new_code, new_id, new_token
from backend.db import begin_write, changed, db
from backend.errors import ApiError
from backend.invitations import join_link, qr_svg, token_grant
from backend.limits import by_token, limiter
from backend.models import Event, Token, TransferCode, now_ms

__all__ = ["bp", "redeem_transfer", "TRANSFER_TTL_S"]

bp = Blueprint("transfer", __name__, url_prefix="/api")

#: How long a transfer code works: long enough to install the app and type it, short enough to be harmless.
TRANSFER_TTL_S = 600


class TransferSchema(Schema):
    code = fields.String(required=True, metadata={"description": "type it in the installed app (shown once)"})
    link = fields.String(required=True, metadata={"description": "opens the app with the code filled in"})
    qr_svg = fields.String(required=True, metadata={"description": "the link as a QR code (SVG)"})
    role = fields.String(required=True)
    player = fields.String(allow_none=True)
    expires_at = fields.Integer(required=True, metadata={"description": "when the code stops working (ms)"})
    expires_in_s = fields.Integer(required=True)


_limit = limiter.limit(
    lambda: str(current_app.config.get("TRANSFER_LIMIT", "10 per hour")),
    key_func=by_token,
    scope="transfer",
    error_message="too many transfer codes from this device: use the last one, or wait a few minutes",
)


@bp.post("/events/<event_id>/transfer")
@_limit
def make_transfer(event_id: str):
    """Make a one-time code that signs another copy of the app in as this device.
    ---
    post:
      summary: A transfer code, link and QR code into the installed app (any claimed device; 10 minutes, once)
      security: [{bearer: []}]
      responses:
        201:
          content:
            application/json:
              schema: TransferSchema
    """
    principal = authenticate(event_id)
    begin_write()
    now = now_ms()
    # One live code per device: a new one voids the older (a photo of an old QR code is worth nothing).
    db.session.execute(
        update(TransferCode)
        .where(TransferCode.source_token == principal.token_id, TransferCode.used_at.is_(None))
        .values(expires_at=now)
    )
    code = new_code()
    expires_at = now + TRANSFER_TTL_S * 1000
    db.session.add(
        TransferCode(
            id=new_id(),
            event_id=event_id,
            code_hash=hash_code(code),
            source_token=principal.token_id,
            role=principal.role,
            player=principal.player,
            label="installed app",
            created_at=now,
            expires_at=expires_at,
        )
    )
    db.session.commit()
    link = join_link(code)
    return respond(
        TransferSchema(),
        {
            "code": code,
            "link": link,
            "qr_svg": qr_svg(link),
            "role": principal.role,
            "player": principal.player,
            "expires_at": expires_at,
            "expires_in_s": TRANSFER_TTL_S,
        },
        201,
    )


def redeem_transfer(digests: tuple[str, ...], label: str) -> Any:
    """The answer to redeeming a transfer code (a new token like the source's), or None if no code matches.

    Called by ``POST /api/invitations/redeem`` inside its write transaction, before it says "unknown code".
    """
    row = db.session.execute(select(TransferCode).where(TransferCode.code_hash.in_(digests))).scalar_one_or_none()
    if row is None:
        return None
    now = now_ms()
    if row.used_at is not None:
        raise ApiError(
            410,
            "code-used",
            "this transfer code was already used; make a new one on the device you are signed in on",
        )
    if row.expires_at <= now:
        raise ApiError(
            410,
            "code-expired",
            "this transfer code expired (they work for 10 minutes); make a new one on the device you are signed in on",
        )
    source = db.session.get(Token, row.source_token)
    if source is None or source.revoked_at is not None or (source.expires_at is not None and source.expires_at <= now):
        raise ApiError(
            410,
            "code-revoked",
            "the device that made this code no longer has access; ask the event's staff for a new claim code",
        )
    token, secret = new_token(row.event_id, row.role, row.player, source.label or label or row.label)
    claimed = changed(
        update(TransferCode)
        .where(TransferCode.id == row.id, TransferCode.used_at.is_(None))
        .values(used_at=now, token_id=token.id)
    )
    if claimed != 1:
        db.session.rollback()
        raise ApiError(410, "code-used", "this transfer code was already used; make a new one")
    event = db.session.get_one(Event, row.event_id)
    db.session.commit()
    return token_grant(token, secret, event)

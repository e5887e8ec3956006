"""Tokens: the organizer lists and revokes an event's device tokens; every device rotates its own.

Staff tokens expire (backend/auth.py ``token_lifetime_s``) unless rotated: the app
rotates its token on a sync past half the token's life, so a device in use never
expires, and one left in a drawer stops working by itself. Rotation hands the
device's progress and push subscriptions to the new token; the old one keeps
working for ``TOKEN_ROTATION_GRACE_S`` (an answer lost on a bad network is retried
with it), then expires.
"""

from __future__ import annotations

from flask import Blueprint
from sqlalchemy import or_, select, update
from sqlalchemy.exc import OperationalError

from backend.api import load_args, respond
from backend.audience import bump_audience
from backend.auth import (
    ORGANIZER,
    STAFF,
    Principal,
    authenticate,
    new_token,
    retire_token,
    token_info,
    token_lifetime_s,
)
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.models import Device, PushSubscription, Token, now_ms
from backend.resources import open_event
from backend.schemas import RevokeResponseSchema, TokenGrantSchema, TokenListQuerySchema, TokenListSchema

bp = Blueprint("tokens", __name__, url_prefix="/api/events")

#: A staff token's ``last_seen_at`` is written at most this often (a pull every few seconds writes nothing).
SEEN_EVERY_MS = 60_000


def note_seen(principal: Principal) -> None:
    """Remember that a staff device synced now (to the minute), for the Staff screen's device list.

    Best effort, after the request's own work: a busy database skips it (the next minute's sync writes it).
    Players' tokens are not tracked (hundreds of phones; nobody lists them).
    """
    if principal.role not in STAFF:
        return
    now = now_ms()
    if principal.last_seen_at is not None and now - principal.last_seen_at < SEEN_EVERY_MS:
        return
    try:
        begin_write()
        db.session.execute(
            update(Token)
            .where(
                Token.id == principal.token_id,
                or_(Token.last_seen_at.is_(None), Token.last_seen_at < now - SEEN_EVERY_MS),
            )
            .values(last_seen_at=now)
        )
        db.session.commit()
    except OperationalError:
        db.session.rollback()


@bp.get("/<event_id>/tokens")
def list_tokens(event_id: str):
    """List tokens.
    ---
    get:
      summary: The event's tokens (organizer token), with each device's name (label) and last sync; secrets are
        never shown again
      security: [{bearer: []}]
      parameters:
      - in: query
        schema: TokenListQuerySchema
      responses:
        200:
          content:
            application/json:
              schema: TokenListSchema
    """
    principal = authenticate(event_id, ORGANIZER)
    args = load_args(TokenListQuerySchema())
    query = select(Token).where(Token.event_id == event_id)
    if args["staff"]:
        query = query.where(Token.role.in_(sorted(STAFF)), Token.replaced_by.is_(None))
    rows = db.session.execute(query.order_by(Token.created_at, Token.id)).scalars()
    now = now_ms()
    return respond(
        TokenListSchema(),
        {"tokens": [token_info(t, principal.token_id, now) for t in rows]},
    )


@bp.post("/<event_id>/tokens/rotate")
def rotate_token(event_id: str):
    """Rotate this device's token.
    ---
    post:
      summary: Exchange the request's token for a new one (shown once); the old one works a few more minutes
      security: [{bearer: []}]
      responses:
        201:
          content:
            application/json:
              schema: TokenGrantSchema
    """
    principal = open_event(event_id).principal
    bump_audience([event_id])  # its phones' subscriptions move to the new token
    old = db.session.get_one(Token, principal.token_id)
    token, secret = new_token(event_id, old.role, old.player, old.label)
    if old.role in STAFF:
        token.last_seen_at = now_ms()  # rotation happens during a sync
    db.session.flush()
    retire_token(old, token.id, now_ms())
    db.session.execute(
        update(Device).where(Device.event_id == event_id, Device.token_id == old.id).values(token_id=token.id)
    )
    db.session.execute(
        update(PushSubscription)
        .where(PushSubscription.event_id == event_id, PushSubscription.token_id == old.id)
        .values(token_id=token.id)
    )
    db.session.commit()
    return respond(
        TokenGrantSchema(),
        {
            "event_id": event_id,
            "token": secret,
            "token_id": token.id,
            "role": token.role,
            "player": token.player,
            "expires_in_s": token_lifetime_s(token.role),
        },
        201,
    )


@bp.delete("/<event_id>/tokens/<token_id>")
def revoke_token(event_id: str, token_id: str):
    """Revoke a token.
    ---
    delete:
      summary: Revoke a token (organizer token); its devices can push no more
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: RevokeResponseSchema
    """
    open_event(event_id, ORGANIZER)
    token = db.session.get(Token, token_id)
    if token is None or token.event_id != event_id:
        raise ApiError(404, "unknown-token", f"there is no token '{token_id}' in this event")
    if token.revoked_at is None:
        if token.role == "organizer":
            others = db.session.execute(
                select(Token.id).where(
                    Token.event_id == event_id,
                    Token.role == "organizer",
                    Token.revoked_at.is_(None),
                    Token.id != token.id,
                )
            ).first()
            if others is None:
                raise ApiError(409, "last-organizer", "this is the event's last organizer token")
        bump_audience([event_id])  # its phones are no longer addressed
        token.revoked_at = now_ms()
    db.session.commit()
    return respond(RevokeResponseSchema(), {"token_id": token_id, "revoked": True})


__all__ = ["bp"]

"""Tokens: the organizer lists and revokes an event's device tokens."""

from __future__ import annotations

from flask import Blueprint
from sqlalchemy import select

from backend.api import respond
from backend.auth import authenticate
from backend.db import db
from backend.errors import ApiError
from backend.ledger import lock_event
from backend.models import Token, now_ms
from backend.schemas import RevokeResponseSchema, TokenListSchema

bp = Blueprint("tokens", __name__, url_prefix="/api/events")


@bp.get("/<event_id>/tokens")
def list_tokens(event_id: str):
    """List tokens.
    ---
    get:
      summary: The event's tokens (organizer token); secrets are never shown again
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: TokenListSchema
    """
    authenticate(event_id, {"organizer"})
    rows = db.session.execute(select(Token).where(Token.event_id == event_id).order_by(Token.created_at)).scalars()
    return respond(TokenListSchema(), {"tokens": [
        {"token_id": t.id, "role": t.role, "player": t.player, "label": t.label, "created_at": t.created_at,
         "revoked": t.revoked_at is not None} for t in rows]})


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
    authenticate(event_id, {"organizer"})  # before the lock: no token, no wait for anyone
    lock_event(event_id)
    authenticate(event_id, {"organizer"})  # still valid under the lock
    token = db.session.get(Token, token_id)
    if token is None or token.event_id != event_id:
        raise ApiError(404, "unknown-token", f"there is no token '{token_id}' in this event")
    if token.revoked_at is None:
        if token.role == "organizer":
            others = db.session.execute(select(Token.id).where(
                Token.event_id == event_id, Token.role == "organizer", Token.revoked_at.is_(None),
                Token.id != token.id)).first()
            if others is None:
                raise ApiError(409, "last-organizer", "this is the event's last organizer token")
        token.revoked_at = now_ms()
    db.session.commit()
    return respond(RevokeResponseSchema(), {"token_id": token_id, "revoked": True})


__all__ = ["bp"]

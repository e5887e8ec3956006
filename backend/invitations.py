"""Invitations: the organizer invites staff devices with a one-time code (link + QR code)."""

from __future__ import annotations

import io
from urllib.parse import quote

import segno
from flask import Blueprint, Response
from sqlalchemy import select, update

from backend.api import load_body, respond
from backend.auth import (
    ORGANIZER,
    authenticate,
    code_hashes,
    hash_code,
    new_code,
    new_id,
    new_token,
    normalise_code,
    token_lifetime_s,
)
from backend.db import begin_write, changed, db
from backend.errors import ApiError
from backend.hall import public_origin
from backend.limits import refuse_wrong_code
from backend.models import Event, Invitation, Token, now_ms
from backend.resources import open_event
from backend.schemas import (
    InvitationListSchema,
    InvitationRequestSchema,
    InvitationResponseSchema,
    RedeemRequestSchema,
    TokenGrantSchema,
)

bp = Blueprint("invitations", __name__, url_prefix="/api")


def qr_svg(text: str) -> str:
    buffer = io.BytesIO()
    segno.make(text, error="m").save(buffer, kind="svg", scale=4, border=2, xmldecl=False, omitsize=True)
    return buffer.getvalue().decode("utf-8")


def join_link(code: str) -> str:
    """The link (and QR code) that joins with ``code``, at an address the other device can reach."""
    return f"{public_origin()}/#join={quote(code)}"


@bp.post("/events/<event_id>/invitations")
def invite(event_id: str):
    """Invite a staff device.
    ---
    post:
      summary: Invite a head judge, judge, scorekeeper or co-organizer device (organizer token)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: InvitationRequestSchema
      responses:
        201:
          content:
            application/json:
              schema: InvitationResponseSchema
    """
    opened = open_event(event_id, ORGANIZER, InvitationRequestSchema())
    data, principal = opened.data, opened.principal
    code = new_code()
    invitation = Invitation(
        id=new_id(),
        event_id=event_id,
        code_hash=hash_code(code),
        code=None,
        role=data["role"],
        label=data["label"].strip(),
        created_by=principal.token_id,
        created_at=now_ms(),
    )
    db.session.add(invitation)
    db.session.commit()
    link = join_link(code)
    return respond(
        InvitationResponseSchema(),
        {
            "invitation_id": invitation.id,
            "event_id": event_id,
            "role": invitation.role,
            "label": invitation.label,
            "code": code,
            "link": link,
            "qr_svg": qr_svg(link),
        },
        201,
    )


@bp.get("/events/<event_id>/invitations")
def list_invitations(event_id: str):
    """List staff invitations.
    ---
    get:
      summary: The event's staff invitations (organizer token), each with whether it was used (when, and the
        name of the device it gave access to) or revoked; codes are never shown again
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: InvitationListSchema
    """
    authenticate(event_id, ORGANIZER)
    rows = db.session.execute(
        select(Invitation, Token)
        .join(Token, Token.id == Invitation.token_id, isouter=True)
        .where(Invitation.event_id == event_id, Invitation.player.is_(None))
        .order_by(Invitation.created_at, Invitation.id)
    ).all()
    return respond(
        InvitationListSchema(),
        {
            "invitations": [
                {
                    "invitation_id": inv.id,
                    "role": inv.role,
                    "label": inv.label,
                    "created_at": inv.created_at,
                    "used_at": inv.redeemed_at,
                    "used_by": (token.label if token is not None else None) if inv.redeemed_at is not None else None,
                    "revoked": inv.revoked_at is not None,
                }
                for inv, token in rows
            ]
        },
    )


@bp.post("/invitations/redeem")
def redeem():
    """Redeem a one-time code (staff invitation or player claim code) for a token.
    ---
    post:
      summary: Redeem a one-time code for a device token (shown once)
      requestBody:
        required: true
        content:
          application/json:
            schema: RedeemRequestSchema
      responses:
        201:
          content:
            application/json:
              schema: TokenGrantSchema
    """
    data = load_body(RedeemRequestSchema())
    begin_write()
    digests = code_hashes(normalise_code(data["code"]))
    invitation = db.session.query(Invitation).filter(Invitation.code_hash.in_(digests)).first()
    if invitation is None:
        from backend.transfer import redeem_transfer  # a transfer code into the installed app (backend/transfer.py)

        moved = redeem_transfer(digests, data["label"])
        if moved is not None:
            return moved
        db.session.rollback()
        refuse_wrong_code("this code")
        raise ApiError(
            404, "unknown-code", "this code is not valid: check it letter by letter (it looks like ABCD-EFGH-JKLM)"
        )
    if invitation.revoked_at is not None:
        whose = "claim code" if invitation.player is not None else "invitation"
        raise ApiError(
            410, "code-revoked", f"this {whose} was revoked by the event's staff; ask the organizer for a new one"
        )
    if invitation.redeemed_at is not None:
        raise ApiError(410, "code-used", "this code was already used; ask for a new one")
    # The name the organizer gave the invitation ("Judge Ada") is the device's name on the Staff screen;
    # the device's own label ("tablet") only when the invitation has none.
    token, secret = new_token(
        invitation.event_id,
        invitation.role,
        invitation.player,
        invitation.label or data["label"] or f"{invitation.role} device",
    )
    # The conditional update is the one-time guarantee, whatever else runs at the same time.
    claimed = changed(
        update(Invitation)
        .where(Invitation.id == invitation.id, Invitation.redeemed_at.is_(None))
        .values(redeemed_at=now_ms(), token_id=token.id, code=None)  # a used code is no longer kept
    )
    if claimed != 1:
        db.session.rollback()
        raise ApiError(410, "code-used", "this code was already used; ask for a new one")
    event = db.session.get_one(Event, invitation.event_id)
    db.session.commit()
    return token_grant(token, secret, event)


def token_grant(token: Token, secret: str, event: Event) -> Response:
    """The 201 answer that hands a device its new token (a redeemed invitation, claim or transfer code)."""
    return respond(
        TokenGrantSchema(),
        {
            "event_id": token.event_id,
            "token": secret,
            "token_id": token.id,
            "role": token.role,
            "player": token.player,
            "name": event.name,
            "ruleset": event.ruleset,
            "server_time": now_ms(),
            "expires_in_s": token_lifetime_s(token.role),
        },
        201,
    )

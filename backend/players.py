"""Players: claim codes (created when a player is registered; listed, reissued and revoked by the organizer,
head judge and scorekeeper on any of their devices) and "my matches"."""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from sqlalchemy import func, select, update

from backend.api import load_args, respond
from backend.audience import bump_audience
from backend.auth import STAFF, authenticate, require_event
from backend.claims import unseal
from backend.db import changed, db
from backend.errors import ApiError
from backend.invitations import join_link, qr_svg
from backend.ledger import CLAIM_READERS, create_claim, event_state
from backend.models import Event, Invitation, Token, now_ms
from backend.resources import open_event
from backend.schemas import (
    ClaimListSchema,
    ClaimQuerySchema,
    ClaimRevokedSchema,
    ClaimSchema,
    MeSchema,
    ReissueRequestSchema,
)

bp = Blueprint("players", __name__, url_prefix="/api/events")


def _names(state) -> dict[str, str]:
    return {p["id"]: p["name"] for p in state["players"]}


def _claim_row(event_id: str, pid: str, name: str, row: Invitation | None, live: int, qr: bool) -> dict:
    """One player's claim as staff see it: the code while it can still be used, its link and QR code."""
    revoked = row is None or row.revoked_at is not None
    redeemed = row is not None and row.redeemed_at is not None
    code = None if row is None or revoked or redeemed else unseal(row.code, event_id, pid, row.id)
    if revoked:
        status = "revoked" if row is not None else "none"
    else:
        status = "joined" if redeemed else ("waiting" if code is not None else "unreadable")
    body: dict[str, Any] = {
        "player": pid,
        "name": name,
        "code": code,
        "redeemed": redeemed,
        "revoked": revoked,
        "status": status,
        "devices": live,
        "link": None,
        "qr_svg": None,
    }
    if code is not None:
        body["link"] = join_link(code)
        if qr:
            body["qr_svg"] = qr_svg(body["link"])
    return body


def _live_devices(event_id: str) -> dict[str, int]:
    rows = db.session.execute(
        select(Token.player, func.count())
        .where(Token.event_id == event_id, Token.role == "player", Token.revoked_at.is_(None))
        .group_by(Token.player)
    ).all()
    return {player: count for player, count in rows if player is not None}


@bp.get("/<event_id>/players/claims")
def list_claims(event_id: str):
    """Players' claim codes.
    ---
    get:
      summary: Every player's claim code, its join link (and QR code with ?qr=1) while it can be used, and
        whether the player joined (organizer, head judge, scorekeeper)
      description: >-
        Codes are sealed at rest and shown to these roles on any of their devices. `status`: `waiting`
        (the code is ready to hand out), `joined` (used; the player's phones keep working; issue a new code
        for another phone), `revoked` (revoked with the player's phones; issue a new code), `unreadable` (sealed
        under another SECRET_KEY: it still works, but issue a new one to see a code), `none`.
      security: [{bearer: []}]
      parameters:
      - in: query
        schema: ClaimQuerySchema
      responses:
        200:
          content:
            application/json:
              schema: ClaimListSchema
    """
    authenticate(event_id, CLAIM_READERS)
    args = load_args(ClaimQuerySchema())
    event = require_event(event_id)
    _, state = event_state(event)
    rows = db.session.execute(
        select(Invitation)
        .where(Invitation.event_id == event_id, Invitation.role == "player")
        .order_by(Invitation.created_at, Invitation.revoked_at.is_(None))
    ).scalars()
    latest: dict[str, Invitation] = {}
    for row in rows:  # the newest code of each player (a live one before a revoked one issued at once)
        if row.player is not None:
            latest[row.player] = row
    live = _live_devices(event_id)
    claims = [
        _claim_row(event_id, p["id"], p["name"], latest.get(p["id"]), live.get(p["id"], 0), args["qr"])
        for p in state["players"]
    ]
    return respond(ClaimListSchema(), {"claims": claims})


def _player_name(event: Event, player_id: str) -> str:
    _, state = event_state(event)
    names = _names(state)
    if player_id not in names:
        raise ApiError(404, "unknown-player", f"there is no player '{player_id[:40]}' in this event")
    return names[player_id]


def _revoke(event_id: str, player_id: str, stamp: int, devices: bool) -> int:
    """Revoke the player's codes not yet used (and, with ``devices``, their tokens); how many tokens."""
    db.session.execute(
        update(Invitation)
        .where(
            Invitation.event_id == event_id,
            Invitation.player == player_id,
            Invitation.revoked_at.is_(None),
            Invitation.redeemed_at.is_(None),
        )
        .values(revoked_at=stamp, code=None)
    )
    if not devices:
        return 0
    bump_audience([event_id])  # under the event's lock: the tokens' phones are no longer addressed
    db.session.execute(
        update(Invitation)
        .where(Invitation.event_id == event_id, Invitation.player == player_id, Invitation.revoked_at.is_(None))
        .values(revoked_at=stamp, code=None)
    )
    return changed(
        update(Token)
        .where(
            Token.event_id == event_id, Token.player == player_id, Token.role == "player", Token.revoked_at.is_(None)
        )
        .values(revoked_at=stamp)
    )


@bp.post("/<event_id>/players/<player_id>/claim")
def reissue_claim(event_id: str, player_id: str):
    """Issue a player a new claim code: the code not yet used stops working; phones already joined keep working.
    ---
    post:
      summary: Replace a player's claim code (organizer, head judge, scorekeeper); with revoke_devices, the
        player's phones are signed out too
      security: [{bearer: []}]
      requestBody:
        required: false
        content:
          application/json:
            schema: ReissueRequestSchema
      responses:
        201:
          content:
            application/json:
              schema: ClaimSchema
    """
    opened = open_event(event_id, CLAIM_READERS, ReissueRequestSchema(), empty={"revoke_devices": False})
    event, principal, data = opened.event, opened.principal, opened.data
    name = _player_name(event, player_id)
    _revoke(event_id, player_id, now_ms(), data["revoke_devices"])
    invitation, _ = create_claim(event_id, player_id, principal.token_id)
    db.session.flush()
    live = _live_devices(event_id).get(player_id, 0)
    body = _claim_row(event_id, player_id, name, invitation, live, True)
    db.session.commit()
    return respond(ClaimSchema(), body, 201)


@bp.delete("/<event_id>/players/<player_id>/claim")
def revoke_claim(event_id: str, player_id: str):
    """Revoke a player's claim: their code is refused from now on and their phones are signed out.
    ---
    delete:
      summary: Revoke a player's claim code and their phones' tokens (organizer, head judge, scorekeeper);
        issue a new code to let them in again
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: ClaimRevokedSchema
    """
    event = open_event(event_id, CLAIM_READERS).event
    name = _player_name(event, player_id)
    devices = _revoke(event_id, player_id, now_ms(), True)
    db.session.commit()
    return respond(
        ClaimRevokedSchema(), {"player": player_id, "name": name, "revoked": True, "devices_revoked": devices}
    )


@bp.get("/<event_id>/me")
def my_matches(event_id: str):
    """A player's own matches.
    ---
    get:
      summary: The calling player's matches, with reports awaiting confirmation (player tokens); a round still
        in draft is not shown
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: MeSchema
    """
    principal = authenticate(event_id, {"player"})
    event = require_event(event_id)
    seq, state = event_state(event)
    names = _names(state)
    pid = principal.player
    matches = []
    for rnd in state["rounds"]:
        if rnd["status"] == "draft":
            continue  # drafted pairings are not posted yet (as in the player's pull and the public pages)
        for index, match in enumerate(rnd["matches"]):
            if pid in match["players"]:
                matches.append(
                    {
                        "round": rnd["number"],
                        "stage": rnd["stage"],
                        "match": index,
                        "table": match["table"],
                        "players": match["players"],
                        "status": match["status"],
                        "outcomes": match["outcomes"],
                        "reports": match["reports"],
                    }
                )
    return respond(
        MeSchema(),
        {"event_id": event_id, "player": pid, "name": names.get(pid or "", pid), "cursor": seq, "matches": matches},
    )


__all__ = ["bp", "STAFF", "CLAIM_READERS"]

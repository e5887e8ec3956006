"""Players: claim codes (created when a player is registered; listed for staff) and "my matches"."""

from __future__ import annotations

from flask import Blueprint
from sqlalchemy import select, update

from backend.api import respond
from backend.auth import STAFF, authenticate, require_event
from backend.db import db
from backend.errors import ApiError
from backend.ledger import CLAIM_READERS, create_claim, event_state, lock_event
from backend.models import Invitation, Token, now_ms
from backend.schemas import ClaimListSchema, ClaimSchema, MeSchema

bp = Blueprint("players", __name__, url_prefix="/api/events")


def _names(state) -> dict[str, str]:
    return {p["id"]: p["name"] for p in state["players"]}


@bp.get("/<event_id>/players/claims")
def list_claims(event_id: str):
    """Players' claim codes.
    ---
    get:
      summary: Every player's claim and whether it was redeemed (organizer, head judge, scorekeeper); codes are
        stored hashed, so ``code`` is null here (a code is shown when issued; reissue to show a new one)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: ClaimListSchema
    """
    authenticate(event_id, CLAIM_READERS)
    event = require_event(event_id)
    _, state = event_state(event)
    names = _names(state)
    rows = db.session.execute(select(Invitation).where(
        Invitation.event_id == event_id, Invitation.role == "player", Invitation.revoked_at.is_(None))
        .order_by(Invitation.created_at)).scalars()
    latest = {row.player: row for row in rows}
    claims = [{"player": pid, "name": names.get(pid, pid), "code": None, "redeemed": row.redeemed_at is not None}
              for pid, row in latest.items() if pid in names]
    return respond(ClaimListSchema(), {"claims": claims})


@bp.post("/<event_id>/players/<player_id>/claim")
def reissue_claim(event_id: str, player_id: str):
    """Issue a player a new claim code (the old code and the player's tokens stop working).
    ---
    post:
      summary: Replace a player's claim code and revoke their tokens (organizer, head judge, scorekeeper)
      security: [{bearer: []}]
      responses:
        201:
          content:
            application/json:
              schema: ClaimSchema
    """
    authenticate(event_id, CLAIM_READERS)  # before the lock: no token, no wait for anyone
    event = lock_event(event_id)
    principal = authenticate(event_id, CLAIM_READERS)  # still valid under the lock
    _, state = event_state(event)
    names = _names(state)
    if player_id not in names:
        raise ApiError(404, "unknown-player", f"there is no player '{player_id}' in this event")
    stamp = now_ms()
    db.session.execute(update(Invitation).where(Invitation.event_id == event_id, Invitation.player == player_id,
                                                Invitation.revoked_at.is_(None)).values(revoked_at=stamp))
    db.session.execute(update(Token).where(Token.event_id == event_id, Token.player == player_id,
                                           Token.revoked_at.is_(None)).values(revoked_at=stamp))
    _, code = create_claim(event_id, player_id, principal.token_id)
    db.session.commit()
    return respond(ClaimSchema(), {"player": player_id, "name": names[player_id], "code": code,
                                   "redeemed": False}, 201)


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
                matches.append({"round": rnd["number"], "stage": rnd["stage"], "match": index, "table": match["table"],
                                "players": match["players"], "status": match["status"],
                                "outcomes": match["outcomes"], "reports": match["reports"]})
    return respond(MeSchema(), {"event_id": event_id, "player": pid, "name": names.get(pid, pid), "cursor": seq,
                                "matches": matches})


__all__ = ["bp", "STAFF", "CLAIM_READERS"]

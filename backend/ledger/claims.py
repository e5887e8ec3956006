"""Players' claim codes and access: made for the players a push registers, revoked for those it removes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import insert, update

from backend.audience import bump_audience
from backend.auth import hash_code, new_code, new_id
from backend.claims import seal
from backend.db import db
from backend.ledger.log import Accepted
from backend.models import Invitation, Token, now_ms
from backend.roster_links import auto_link, unlink_removed
from shared_rules.state.roles import holders

#: Roles that see, print, reissue and revoke players' claim codes (sealed at rest: backend/claims.py).
CLAIM_READERS = holders("claim-codes")


def create_claim(event_id: str, player: str, created_by: str | None) -> tuple[Invitation, str]:
    """A player's claim code: found by its hash, kept sealed for CLAIM_READERS (backend/claims.py)."""
    code, invitation_id = new_code(), new_id()
    invitation = Invitation(
        id=invitation_id,
        event_id=event_id,
        code_hash=hash_code(code),
        code=seal(code, event_id, player, invitation_id),
        role="player",
        player=player,
        created_by=created_by,
        created_at=now_ms(),
    )
    db.session.add(invitation)
    return invitation, code


def claim_rows_for(
    event_id: str, players: list[str], created_by: str | None
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Rows for a bulk insert of players' claim codes (hashed, and sealed for staff), and the codes."""
    stamp = now_ms()
    rows, shown = [], []
    for pid in players:
        code, invitation_id = new_code(), new_id()
        rows.append(
            {
                "id": invitation_id,
                "event_id": event_id,
                "code_hash": hash_code(code),
                "code": seal(code, event_id, pid, invitation_id),
                "role": "player",
                "player": pid,
                "created_by": created_by,
                "created_at": stamp,
                "redeemed_at": None,
                "token_id": None,
                "revoked_at": None,
            }
        )
        shown.append({"player": pid, "code": code})
    return rows, shown


def _registered_player(op: dict[str, Any]) -> str | None:
    if op["type"] != "player.register":
        return None
    player = (op.get("payload") or {}).get("player") or {}
    pid = player.get("id") if isinstance(player, dict) else None
    return pid if isinstance(pid, str) else None


def _removed_player(op: dict[str, Any]) -> str | None:
    if op["type"] != "player.remove":
        return None
    pid = (op.get("payload") or {}).get("player")
    return pid if isinstance(pid, str) else None


def revoke_player_access(event_id: str, players: Iterable[str], stamp: int) -> None:
    """A removed player's claim codes stop working (wiped) and their phones' tokens are revoked."""
    players = list(players)
    if not players:
        return
    bump_audience([event_id])  # under the event's lock (the push path): their phones are no longer addressed
    db.session.execute(
        update(Invitation)
        .where(Invitation.event_id == event_id, Invitation.player.in_(players), Invitation.revoked_at.is_(None))
        .values(revoked_at=stamp, code=None)
    )
    db.session.execute(
        update(Token)
        .where(
            Token.event_id == event_id, Token.player.in_(players), Token.role == "player", Token.revoked_at.is_(None)
        )
        .values(revoked_at=stamp)
    )


def roster_access(accepted: Accepted) -> None:
    """After-accept hook: removed players lose their codes and phones, registered ones get codes and links."""
    new_claims: list[str] = []
    registered: list[dict[str, Any]] = []  # the players of accepted player.register ops (automatic links)
    removed: set[str] = set()
    for op in accepted.ops:
        pid = _registered_player(op)
        if pid is not None:
            new_claims.append(pid)
            registered.append(op["payload"]["player"])
        gone = _removed_player(op)
        if gone is not None:
            removed.add(gone)
            new_claims = [p for p in new_claims if p != gone]  # registered and removed in one batch
            registered = [p for p in registered if p.get("id") != gone]
    event_id, principal = accepted.event.id, accepted.principal
    revoke_player_access(
        event_id, removed, accepted.received
    )  # before new codes: an id registered again keeps its new one
    unlink_removed(event_id, removed)  # before new links, for the same reason
    auto_link(
        event_id, registered, accepted.event.ruleset
    )  # roster entries carrying a known game id (backend/roster_links.py)
    if new_claims:
        claim_rows, codes = claim_rows_for(event_id, new_claims, principal.token_id)
        db.session.execute(insert(Invitation), claim_rows)
        if principal.role in CLAIM_READERS:
            accepted.claims.extend(codes)

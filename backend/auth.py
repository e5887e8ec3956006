"""Bearer tokens and one-time codes: random (``secrets``), stored as sha256, revocable.

A token belongs to one event and carries a role (and, for a player, their
player id); that role and player become the ``actor`` of every operation the
token pushes — an actor claimed in a request body is ignored.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from flask import current_app, request
from sqlalchemy import select

from backend.db import db
from backend.errors import ApiError
from backend.models import Event, LeagueToken, Token, now_ms
from shared_rules.state.roles import holders

__all__ = [
    "Principal",
    "hash_secret",
    "new_token",
    "new_code",
    "new_id",
    "authenticate",
    "authenticate_pusher",
    "require_event",
    "token_lifetime_s",
    "rotation_grace_ms",
    "retire_token",
    "TOKEN_DEFAULTS",
]

#: Roles from the shared role table (shared_rules/state/roles.py): every staff role, and the event's manager.
STAFF = holders("staff")
ORGANIZER = holders("manage-event")

#: How long a staff token works unless the app rotates it first (it does, on a sync past half its life).
#: Judges and scorekeepers are invited for an event; an organizer prepares events weeks ahead.
#: Players' tokens do not expire (a phone is its owner's; the organizer revokes a claim if needed).
TOKEN_DEFAULTS = {
    "STAFF_TOKEN_TTL_S": 14 * 24 * 3600,
    "ORGANIZER_TOKEN_TTL_S": 90 * 24 * 3600,
    "TOKEN_ROTATION_GRACE_S": 10 * 60,
}


def token_lifetime_s(role: str) -> int | None:
    """Seconds a new token of ``role`` works before it must be rotated; None: no expiry."""
    if role not in STAFF:
        return None
    key = "ORGANIZER_TOKEN_TTL_S" if role == "organizer" else "STAFF_TOKEN_TTL_S"
    return int(current_app.config.get(key) or TOKEN_DEFAULTS[key])


def rotation_grace_ms() -> int:
    """Milliseconds a rotated token keeps working (an answer lost on a bad network is retried with it)."""
    key = "TOKEN_ROTATION_GRACE_S"
    return int(current_app.config.get(key) or TOKEN_DEFAULTS[key]) * 1000


def retire_token(old: Token | LeagueToken, successor_id: str, now: int) -> None:
    """Mark ``old`` replaced by its successor at ``now``: it works for the rotation grace period more, never
    longer than it would have."""
    grace_end = now + rotation_grace_ms()
    old.replaced_by = successor_id
    old.expires_at = min(old.expires_at, grace_end) if old.expires_at is not None else grace_end


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def keyed_mac(purpose: bytes, *parts: str) -> bytes:
    """HMAC-SHA256 of ``parts`` (NUL-separated) under a key made from the server's ``SECRET_KEY`` for ``purpose``.

    One key per purpose: a code's hash, a person's code and a league event's proof can never stand for
    one another.
    """
    key = hmac.new(str(current_app.config["SECRET_KEY"]).encode("utf-8", "surrogatepass"), purpose, "sha256").digest()
    return hmac.new(key, "\x00".join(parts).encode("utf-8", "surrogatepass"), hashlib.sha256).digest()


def hash_code(code: str) -> str:
    """A one-time code's hash as stored: HMAC-SHA256 keyed by the server's ``SECRET_KEY``.

    A code has 60 bits, few enough to search offline from a plain sha256; keyed, a leaked database or
    backup gives nothing to guess against without the key.
    """
    return keyed_mac(b"topcut one-time codes v1", code).hex()


def code_hashes(code: str) -> tuple[str, str]:
    """The hashes a stored code may have: keyed (``hash_code``), or a plain sha256 made before codes were keyed."""
    return hash_code(code), hash_secret(code)


def new_id(nbytes: int = 9) -> str:
    """A random id (URL-safe base64) that never starts with '-', so a command line never reads it as an option."""
    while True:
        text = secrets.token_urlsafe(nbytes)
        if not text.startswith("-"):
            return text


def new_code() -> str:
    """A one-time code people can type: 12 characters of an unambiguous alphabet, in three groups."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    raw = "".join(secrets.choice(alphabet) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def normalise_code(code: str) -> str:
    clean = "".join(ch for ch in code.upper() if ch.isalnum())
    return f"{clean[:4]}-{clean[4:8]}-{clean[8:]}" if len(clean) == 12 else code


@dataclass(frozen=True)
class Principal:
    token_id: str
    event_id: str
    role: str
    player: str | None
    #: When the token stops working (ms since the epoch), or None.
    expires_at: int | None = None
    #: When a staff device last synced with this token (ms), or None (backend/tokens.py ``note_seen``).
    last_seen_at: int | None = None

    @property
    def actor(self) -> dict:
        return {"role": self.role, "player": self.player} if self.player is not None else {"role": self.role}

    @property
    def is_staff(self) -> bool:
        return self.role in STAFF


def new_token(
    event_id: str, role: str, player: str | None = None, label: str = "", secret: str | None = None
) -> tuple[Token, str]:
    """A new token row (added to the session) and its secret, shown once (``secret``: one a device chose)."""
    secret = secret or "tc_" + secrets.token_urlsafe(32)
    created = now_ms()
    lifetime = token_lifetime_s(role)
    token = Token(
        id=new_id(),
        event_id=event_id,
        token_hash=hash_secret(secret),
        role=role,
        player=player,
        label=label,
        created_at=created,
        expires_at=created + lifetime * 1000 if lifetime else None,
    )
    db.session.add(token)
    return token, secret


_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")


def bearer() -> str | None:
    """The request's bearer token, or None when it sends none."""
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def valid_id(value: str) -> bool:
    """Whether a path's id (event, league) has the shape ids have: 1-32 letters, digits, '-' or '_'."""
    return _ID.match(value) is not None


def check_live(revoked_at: int | None, expires_at: int | None, expired: str) -> None:
    """401 for a token row that was revoked, or that expired (``expired`` says what to do next)."""
    if revoked_at is not None:
        raise ApiError(401, "token-revoked", "this token was revoked")
    if expires_at is not None and expires_at <= now_ms():
        raise ApiError(401, "token-expired", expired)


def require_event(event_id: str) -> Event:
    """The event of a path; 404 for an unknown one."""
    event = db.session.get(Event, event_id) if valid_id(event_id) else None
    if event is None:
        raise ApiError(404, "unknown-event", f"there is no event '{event_id[:40]}'")
    return event


#: Tokens a process remembers for :func:`authenticate_pusher` (the oldest half is forgotten past this).
TOKEN_MEMO_SIZE = 4096


def authenticate_pusher(event_id: str) -> Principal:
    """:func:`authenticate` for a push, from this process's memory after the token's first push.

    What is remembered never changes for a token (its id, event, role and player). Whether it still works
    is NOT taken from memory: the push reads the token's revocation and expiry under the event's write lock
    (backend/ledger/log.py ``_device_progress``), so a token revoked, rotated or expired since, by this app
    server or another, pushes nothing. Such a token's malformed body may then be told its fault before the
    401 is.
    """
    secret = bearer() if valid_id(event_id) else None
    if secret is None:
        return authenticate(event_id)
    memo: dict[str, Principal] = current_app.extensions.setdefault("topcut_token_memo", {})
    digest = hash_secret(secret)
    known = memo.get(digest)
    if known is not None and known.event_id == event_id:
        return known
    principal = authenticate(event_id)
    if len(memo) >= TOKEN_MEMO_SIZE:
        for stale in list(memo)[: TOKEN_MEMO_SIZE // 2]:
            memo.pop(stale, None)
    memo[digest] = Principal(principal.token_id, principal.event_id, principal.role, principal.player)
    return principal


def authenticate(event_id: str, roles: frozenset[str] | set[str] | None = None) -> Principal:
    """The request's token for ``event_id``: 404 for an unknown event, 401 if the token is missing,
    unknown or revoked, 403 if it belongs to another event or its role is not in ``roles``."""
    secret = bearer() if valid_id(event_id) else None
    digest = hash_secret(secret) if secret is not None else ""
    row = (
        db.session.execute(
            select(
                Token.id,
                Token.event_id,
                Token.role,
                Token.player,
                Token.revoked_at,
                Token.expires_at,
                Token.last_seen_at,
            ).where(Token.token_hash == digest)
        ).first()
        if secret is not None
        else None
    )
    if row is None or row.event_id != event_id:
        require_event(event_id)  # an unknown event is a 404 whatever the token
        if secret is None:
            raise ApiError(401, "missing-token", "send 'Authorization: Bearer <token>'")
        if row is None:
            raise ApiError(401, "invalid-token", "this token is not valid")
    check_live(
        row.revoked_at,
        row.expires_at,
        "this device's access expired (it was not used for a long time): "
        "join the event again with a new code from the organizer; changes on the device are kept",
    )
    if row.event_id != event_id:
        raise ApiError(403, "wrong-event", "this token belongs to another event")
    principal = Principal(row.id, row.event_id, row.role, row.player, row.expires_at, row.last_seen_at)
    if roles is not None and principal.role not in roles:
        raise ApiError(403, "forbidden", f"a {principal.role} may not do this (allowed: {', '.join(sorted(roles))})")
    return principal


def token_info(token: Token | LeagueToken, caller_id: str, now: int) -> dict[str, object]:
    """One row of a token list (TokenInfoSchema) for an event's token or a league director's: never the
    secret nor its hash; ``this_device`` marks the caller's own token."""
    return {
        "token_id": token.id,
        "role": token.role,
        "player": getattr(token, "player", None),
        "label": token.label,
        "created_at": token.created_at,
        "revoked": token.revoked_at is not None,
        "expires_at": token.expires_at,
        "expired": token.expires_at is not None and token.expires_at <= now,
        "replaced_by": token.replaced_by,
        "last_seen_at": getattr(token, "last_seen_at", None),
        "this_device": token.id == caller_id,
    }

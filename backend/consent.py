"""A person's consent to a link: what lets a roster entry be linked to a person who has played elsewhere.

Anyone can make an event and so become its staff, and a link shows that event's staff the person's whole
history (and puts the event in their Star Trek rating). So linking an entry to a person another event links
already needs proof the person agrees (docs/people.md: Consent), one of:

* **their player record code**: ``person_code``, shown only to the person, on their own phone (``GET
  /api/people/me``); they read it out at the desk;
* **a token of an event they played in**, sent as one of ``proof_tokens``: an organizer token of such an
  event (the organizer who ran it vouches), or the player token whose entry there is linked to them (their
  own phone);
* for a restore, the backup's ``proof`` of the link, this server's signature (``link_proof``): the link was
  made here with consent before.

A person no other event links yet (a record just made for this entry) needs none: there is nothing to see.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from sqlalchemy import select

from backend.auth import hash_secret, keyed_mac, normalise_code
from backend.db import db
from backend.models import RosterLink, Token, now_ms
from shared_rules.state.roles import holders

__all__ = ["person_code", "link_proof", "linked_elsewhere", "vouched", "code_matches"]

#: The alphabet of one-time codes (backend/auth.py ``new_code``): 32 letters, 5 bits each; 12 of them.
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: Whose token of another event consents to a link (the shared role table, shared_rules/state/roles.py).
VOUCHERS = holders("vouch")


def person_code(person_id: str) -> str:
    """The person's player record code (``ABCD-EFGH-JKLM``, 60 bits), made from the server's key: never stored."""
    number = int.from_bytes(keyed_mac(b"topcut person codes v1", person_id)[:8], "big")
    raw = "".join(_ALPHABET[(number >> (5 * i)) & 31] for i in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def code_matches(person_id: str, code: str) -> bool:
    """Whether ``code`` (any case, with or without dashes) is the person's player record code."""
    return hmac.compare_digest(normalise_code(code).encode(), person_code(person_id).encode())


def link_proof(event_id: str, player_id: str, person_id: str) -> str:
    """This server's signature of a link, for a backup (a restore believes it only with the same ``SECRET_KEY``)."""
    return keyed_mac(b"topcut roster links v1", event_id, player_id, person_id).hex()[:40]


def proof_matches(proof: object, event_id: str, player_id: str, person_id: str) -> bool:
    """Whether a backup's ``proof`` is this server's signature of that link."""
    return isinstance(proof, str) and hmac.compare_digest(
        proof.encode(), link_proof(event_id, player_id, person_id).encode()
    )


def linked_elsewhere(person_id: str, event_id: str) -> bool:
    """Whether an event other than ``event_id`` links the person (then linking here needs consent)."""
    query = select(RosterLink.id).where(RosterLink.person_id == person_id, RosterLink.event_id != event_id)
    return db.session.execute(query.limit(1)).first() is not None


def vouched(person_id: str, event_id: str, secrets: Iterable[str]) -> bool:
    """Whether one of ``secrets`` is a working token of another event linking the person: an organizer's, or the
    player token of the entry linked to them."""
    hashes = list({hash_secret(s) for s in secrets if isinstance(s, str) and s})
    if not hashes:
        return False
    now = now_ms()
    rows = db.session.execute(
        select(Token.event_id, Token.role, Token.player, Token.revoked_at, Token.expires_at).where(
            Token.token_hash.in_(hashes), Token.event_id != event_id
        )
    ).all()
    for row in rows:
        if row.revoked_at is not None or (row.expires_at is not None and row.expires_at <= now):
            continue
        if row.role not in VOUCHERS:
            continue
        query = select(RosterLink.id).where(RosterLink.event_id == row.event_id, RosterLink.person_id == person_id)
        if row.role == "player":
            query = query.where(RosterLink.player_id == row.player)
        if db.session.execute(query.limit(1)).first() is not None:
            return True
    return False

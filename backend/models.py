"""The tables: events, their append-only operation log, devices, tokens and invitations; leagues.

The operation log is the truth: an event's state is ``replay`` of its accepted
operations (on top of the imported document, if it was created by import).
``events.snapshot`` caches the folded state at ``snapshot_seq`` for speed.
Rejected operations are logged too (``server_seq`` NULL) so a device's
sequence stays gapless and a replayed (device, seq) gets the same verdict.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import BigInteger, Float, Index, Integer, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from backend.db import db

#: The declarative base Flask-SQLAlchemy makes at run time (its type is not known to mypy).
Model: Any = db.Model


def now_ms() -> int:
    return int(time.time() * 1000)


class Event(Model):
    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(Text, default="")
    ruleset: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    #: The last server sequence number handed out (0: none yet); guarded by the row lock.
    head_seq: Mapped[int] = mapped_column(BigInteger, default=0)
    #: The imported topcut-event/1 document the log starts from (JSON), or NULL.
    base_document: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    #: Cached folded state (JSON) after ``snapshot_seq``; NULL: fold from the start.
    snapshot: Mapped[str | None] = mapped_column(Text, nullable=True, deferred=True)
    snapshot_seq: Mapped[int] = mapped_column(BigInteger, default=0)
    #: Moves whenever the event's live push subscriptions may change (one made, renewed, replaced or removed; a
    #: token revoked, retired or moved); each writer bumps it, event row first (backend/audience.py). It starts at
    #: the clock, so an app server's copy kept for a deleted event never matches a new or restored one of its id.
    audience_version: Mapped[int] = mapped_column(BigInteger, default=now_ms, server_default="0")


class ViewParts(Model):
    """What every player's view of an event holds alike (backend/view.py), made once for the whole cluster:
    the ruleset's info and the published standings as JSON text, valid while the event's ``parts_key`` (its
    standings policy, the round they are after, the roster and settings) is the same. One row per event."""

    __tablename__ = "view_parts"

    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"), primary_key=True)
    parts_key: Mapped[str] = mapped_column(String(64))
    #: The log position they were made at.
    seq: Mapped[int] = mapped_column(BigInteger)
    info: Mapped[str] = mapped_column(Text)
    standings: Mapped[str] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    made_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    #: The folded state at ``state_seq``, written when a round is posted or completes, in Python's ``marshal``
    #: format (``state_format`` names the interpreter's: another reads the log's JSON snapshot instead), so a
    #: cold worker loads it in a fraction of the JSON's time and folds only the operations after it.
    state_seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    state: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True, deferred=True)
    state_format: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Operation(Model):
    __tablename__ = "operations"
    __table_args__ = (
        UniqueConstraint("event_id", "server_seq", name="uq_operations_event_server_seq"),
        UniqueConstraint("event_id", "device", "device_seq", name="uq_operations_event_device_seq"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"))
    device: Mapped[str] = mapped_column(String(128))
    device_seq: Mapped[int] = mapped_column(BigInteger)
    #: NULL for a rejected operation.
    server_seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    accepted: Mapped[bool] = mapped_column(db.Boolean)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The operation as applied (JSON text; the actor is the token's, never the body's).
    op: Mapped[str] = mapped_column(Text)
    token_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    received_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)


class Device(Model):
    """A device's progress in one event, and the token it belongs to."""

    __tablename__ = "devices"

    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"), primary_key=True)
    device: Mapped[str] = mapped_column(String(128), primary_key=True)
    token_id: Mapped[str] = mapped_column(String(32))
    last_seq: Mapped[int] = mapped_column(BigInteger, default=0)
    last_accepted: Mapped[int] = mapped_column(BigInteger, default=0)


class Token(Model):
    """A bearer token: random, stored as its sha256, revocable."""

    __tablename__ = "tokens"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(32))
    player: Mapped[str | None] = mapped_column(Text, nullable=True)
    label: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    revoked_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: A staff token stops working at this instant (ms) unless rotated before; NULL: never (players' tokens).
    expires_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: The token this one was rotated into (it keeps working for a short grace period, then expires).
    replaced_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: When a staff device last synced with this token (ms; written at most once a minute), or NULL.
    last_seen_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class Invitation(Model):
    """A one-time code: a staff invitation, or a player's claim code (``player`` set)."""

    __tablename__ = "invitations"
    __table_args__ = (Index("ix_invitations_event_player", "event_id", "player"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"))
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: A player's claim code sealed for the staff who may show it again (backend/claims.py); NULL for staff
    #: invitations (shown once), and once the code is used or revoked.
    code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    role: Mapped[str] = mapped_column(String(32))
    player: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: A staff invitation's name for the device ("Judge Ada"); the token redeemed from it keeps it.
    label: Mapped[str] = mapped_column(Text, default="", server_default="")
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    redeemed_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    token_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    revoked_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class TransferCode(Model):
    """A one-time code a claimed device makes to sign its installed app in as itself (backend/transfer.py)."""

    __tablename__ = "transfer_codes"
    __table_args__ = (Index("ix_transfer_codes_source", "source_token"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"))
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The token of the device that made it: the new token gets its role and player.
    source_token: Mapped[str] = mapped_column(String(32))
    role: Mapped[str] = mapped_column(String(32))
    player: Mapped[str | None] = mapped_column(Text, nullable=True)
    label: Mapped[str] = mapped_column(Text, default="", server_default="")
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    expires_at: Mapped[int] = mapped_column(BigInteger)
    used_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    token_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class RecoveryCode(Model):
    """An event's printed recovery code (at most one): a new device that types it gets an organizer token.

    Stored as a keyed hash (backend/recovery.py); used once (the row goes), replaced by a new one.
    """

    __tablename__ = "recovery_codes"

    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    #: The organizer token that asked for it (NULL: made with the event).
    created_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: When an organizer said it is printed or written down (ms), or NULL.
    acknowledged_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class RateLimit(Model):
    """A rate limit's fixed-window counter, when the counts live in the database (backend/limits.py)."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(255), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    expires_at: Mapped[float] = mapped_column(Float)


class PushSubscription(Model):
    """A browser's Web Push subscription, tied to a token of one event (a player's, or a staff device's)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (
        UniqueConstraint("event_id", "endpoint_hash", name="uq_push_subscriptions_event_endpoint"),
        Index("ix_push_subscriptions_event_player", "event_id", "player"),
        Index("ix_push_subscriptions_endpoint_hash", "endpoint_hash"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"))
    token_id: Mapped[str] = mapped_column(String(32))
    role: Mapped[str] = mapped_column(String(32))
    player: Mapped[str | None] = mapped_column(Text, nullable=True)
    endpoint: Mapped[str] = mapped_column(Text)
    #: sha256 of the endpoint (endpoints are long URLs: the unique constraint is on the digest).
    endpoint_hash: Mapped[str] = mapped_column(String(64))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    updated_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)


class PushOutbox(Model):
    """The durable outbox: one row per (notification, subscription), written in the transaction that
    accepted the operation; a drainer claims rows atomically and sends them (see backend/push/queue.py)."""

    __tablename__ = "push_outbox"
    __table_args__ = (
        Index("ix_push_outbox_due", "state", "next_attempt_at"),
        # Migration 0011: a settled match cancels its two players' notices by index, not by walking the round's
        # pending ones (every player's time warning shares one (event, kind, ref)).
        Index("ix_push_outbox_event_kind_ref_player", "event_id", "kind", "ref", "player"),
        Index("ix_push_outbox_subscription", "subscription_id"),
        Index("ix_push_outbox_topic", "topic", "state"),  # migration 0009: older news of a tag, by index
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True)
    #: Unique per notification and subscription (event, what, which op or round, player, subscription).
    key: Mapped[str] = mapped_column(String(255), unique=True)
    event_id: Mapped[str] = mapped_column(String(32))
    subscription_id: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(32))
    #: What the notification is about, for rescheduling/cancelling (e.g. "swiss:3" for a round).
    ref: Mapped[str] = mapped_column(String(64), default="")
    player: Mapped[str | None] = mapped_column(Text, nullable=True)
    payload: Mapped[str] = mapped_column(Text)
    ttl: Mapped[int] = mapped_column(Integer)
    urgency: Mapped[str] = mapped_column(String(16))
    topic: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: pending | sending | sent | failed | gone | expired | cancelled | superseded
    state: Mapped[str] = mapped_column(String(16), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[int] = mapped_column(BigInteger)
    #: When a claimed ('sending') row may be taken over by another drainer (the claimer died).
    lease_until: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    claimed_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    #: Give up (state 'expired') after this instant: a notification is useless once stale.
    expires_at: Mapped[int] = mapped_column(BigInteger)
    sent_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)


class Person(Model):
    """A player known to this server across events: a name and the games' own ids (backend/people.py).

    ``merged_into`` is set on a duplicate merged into another person: its links moved to the survivor,
    and its id answers with a redirect to the survivor's.
    """

    __tablename__ = "people"
    __table_args__ = (
        Index("ix_people_pokemon_id", "pokemon_id"),
        Index("ix_people_trekcc_id", "trekcc_id"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    #: The name as search compares it: no accents, no case, single spaces.
    name_key: Mapped[str] = mapped_column(Text, index=True)
    #: Play! Pokémon ID (TOM's userid) and the birth year that goes with it.
    pokemon_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    birth_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: trekcc.org forum handle and member id (the id is the Star Trek ``rating_id``).
    trekcc_handle: Mapped[str | None] = mapped_column(String(64), nullable=True)
    trekcc_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: Other games' ids, a small JSON object of name -> id.
    other_ids: Mapped[str] = mapped_column(Text, default="{}", server_default="{}")
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    merged_into: Mapped[str | None] = mapped_column(String(32), nullable=True)


class RosterLink(Model):
    """An event's roster entry (its player id) linked to a person; one person per entry."""

    __tablename__ = "roster_links"
    __table_args__ = (
        UniqueConstraint("event_id", "player_id", name="uq_roster_links_event_player"),
        Index("ix_roster_links_person", "person_id"),
    )

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("events.id"))
    player_id: Mapped[str] = mapped_column(Text)
    person_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("people.id"))
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)


class League(Model):
    """A WCT league (Star Trek OP Guide 12): its document, less the events (``league_events``)."""

    __tablename__ = "leagues"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(Text, default="")
    #: The league document (JSON, without ``events``): director, season, bonus points, playoff qualification.
    document: Mapped[str] = mapped_column(Text)
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    #: Bumped by every change (the league table's cache key, with the events' head sequence numbers).
    version: Mapped[int] = mapped_column(Integer, default=1)


class LeagueEvent(Model):
    """An event of this server flagged as a league event (no foreign key: a deleted event is reported gone)."""

    __tablename__ = "league_events"

    league_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("leagues.id"), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    #: The sprint it belongs to (OP Guide 12.2), as the league document names them.
    sprint: Mapped[str] = mapped_column(String(32))
    #: The order the director added the events in (the league's event order).
    position: Mapped[int] = mapped_column(Integer)
    added_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    #: The organizer token that proved the event may join (its id), for the record.
    proved_by: Mapped[str] = mapped_column(String(32))


class LeagueToken(Model):
    """A league director's bearer token: random, stored as its sha256, revocable."""

    __tablename__ = "league_tokens"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    league_id: Mapped[str] = mapped_column(String(32), db.ForeignKey("leagues.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(32))
    label: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[int] = mapped_column(BigInteger, default=now_ms)
    revoked_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: A rotated token stops working at this instant (ms, the rotation grace period); NULL: it does not expire.
    expires_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: The token this one was rotated into.
    replaced_by: Mapped[str | None] = mapped_column(String(32), nullable=True)

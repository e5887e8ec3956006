"""Push subscriptions: the VAPID public key, subscribe, renew (``pushsubscriptionchange``), unsubscribe.

A subscription belongs to the token that registered it: a player's token (got
by redeeming their claim code) subscribes that player's phone; a staff token
subscribes a staff device. Subscribing the same endpoint again for the same
event replaces its keys and owner. Renewal needs no token (a service worker
has none): it proves possession of the old subscription with its ``auth``
secret, which only the browser and this server know.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from flask import Blueprint, current_app
from marshmallow import EXCLUDE, Schema, fields, validate
from sqlalchemy import delete, func, select

from backend.api import load_body, respond
from backend.audience import bump_audience
from backend.auth import authenticate, new_id
from backend.db import begin_write, changed, db
from backend.errors import ApiError
from backend.models import PushOutbox, PushSubscription, Token, now_ms
from backend.push import security, vapid
from shared_rules.state.roles import holders

bp = Blueprint("push", __name__, url_prefix="/api")

STAFF_READERS = holders("staff-push")  # the shared role table (shared_rules/state/roles.py)


class PushKeysSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    p256dh = fields.String(
        required=True,
        validate=validate.Length(1, 128),
        metadata={"description": "base64url P-256 public key of the browser"},
    )
    auth = fields.String(
        required=True, validate=validate.Length(1, 64), metadata={"description": "base64url 16-byte auth secret"}
    )


class PushSubscriptionInfoSchema(Schema):
    """``PushSubscription.toJSON()``."""

    class Meta:
        unknown = EXCLUDE

    endpoint = fields.String(required=True, validate=validate.Length(1, security.MAX_ENDPOINT_LENGTH))
    keys = fields.Nested(PushKeysSchema, required=True)
    expirationTime = fields.Integer(allow_none=True, load_default=None)


class SubscribeRequestSchema(Schema):
    subscription = fields.Nested(PushSubscriptionInfoSchema, required=True)


class RenewRequestSchema(Schema):
    old_endpoint = fields.String(required=True, validate=validate.Length(1, security.MAX_ENDPOINT_LENGTH))
    old_auth = fields.String(
        required=True,
        validate=validate.Length(1, 64),
        metadata={"description": "the old subscription's auth secret (proof of possession)"},
    )
    subscription = fields.Nested(PushSubscriptionInfoSchema, required=True)


class UnsubscribeRequestSchema(Schema):
    endpoint = fields.String(required=True, validate=validate.Length(1, security.MAX_ENDPOINT_LENGTH))


class VapidKeySchema(Schema):
    public_key = fields.String(required=True, metadata={"description": "applicationServerKey (base64url)"})
    enabled = fields.Boolean(
        required=True, metadata={"description": "whether this server sends notifications (a real VAPID_SUBJECT)"}
    )
    message = fields.String(
        allow_none=True, required=True, metadata={"description": "why notifications are off, in words for the user"}
    )


class SubscriptionSchema(Schema):
    subscription_id = fields.String(required=True)
    event_id = fields.String(required=True)
    role = fields.String(required=True)
    player = fields.String(allow_none=True)


class RenewResponseSchema(Schema):
    renewed = fields.Integer(required=True, metadata={"description": "how many events' subscriptions moved"})


class UnsubscribeResponseSchema(Schema):
    removed = fields.Boolean(required=True)


class PushProblemSchema(Schema):
    status_code = fields.Integer(allow_none=True, required=True)
    cause = fields.String(required=True, metadata={"description": "what the push service answered"})
    advice = fields.String(required=True, metadata={"description": "what the organizer does about it"})
    count = fields.Integer(required=True, metadata={"description": "notifications refused this way"})
    devices = fields.Integer(required=True, metadata={"description": "devices whose notifications were refused"})
    last_at = fields.Integer(required=True, metadata={"description": "when the latest was refused (ms)"})


class PushStatusSchema(Schema):
    enabled = fields.Boolean(required=True)
    message = fields.String(allow_none=True, required=True)
    problems = fields.List(
        fields.Nested(PushProblemSchema),
        required=True,
        metadata={"description": "notifications a push service refused for good, grouped by cause"},
    )
    subscriptions = fields.Integer(required=True)
    players_subscribed = fields.Integer(required=True)
    outbox = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        required=True,
        metadata={"description": "notification count by state"},
    )


def endpoint_hash(endpoint: str) -> str:
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()


def _checked(info: dict) -> tuple[str, str, str]:
    endpoint, keys = info["endpoint"], info["keys"]
    cfg = current_app.config
    try:
        security.check_endpoint(endpoint, cfg["PUSH_ALLOWED_HOSTS"], cfg["PUSH_RESOLVER"])
        security.check_keys(keys["p256dh"], keys["auth"])
    except security.BlockedEndpoint as exc:
        raise ApiError(422, exc.code, str(exc)) from None
    return endpoint, keys["p256dh"], keys["auth"]


@bp.get("/push/vapid-public-key")
def vapid_public_key():
    """The server's VAPID public key.
    ---
    get:
      summary: The applicationServerKey to pass to PushManager.subscribe
      responses:
        200:
          content:
            application/json:
              schema: VapidKeySchema
    """
    from backend.push import push_off_reason

    off = push_off_reason()
    return respond(VapidKeySchema(), {"public_key": vapid.keys().public_key, "enabled": off is None, "message": off})


def _refuse_when_off() -> None:
    from backend.push import push_off_reason

    off = push_off_reason()
    if off is not None:
        raise ApiError(503, "push-off", off)


@bp.post("/events/<event_id>/push/subscriptions")
def subscribe(event_id: str):
    """Register (or replace) this browser's push subscription for the event.
    ---
    post:
      summary: Subscribe a player's phone (player token) or a staff device (staff token)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: SubscribeRequestSchema
      responses:
        201:
          content:
            application/json:
              schema: SubscriptionSchema
    """
    data = load_body(SubscribeRequestSchema())
    principal = authenticate(event_id)
    _refuse_when_off()
    endpoint, p256dh, auth = _checked(data["subscription"])  # DNS before taking the write lock
    begin_write()
    bump_audience([event_id])  # the event's row first (backend/audience.py)
    digest = endpoint_hash(endpoint)
    row = db.session.execute(
        select(PushSubscription).where(PushSubscription.event_id == event_id, PushSubscription.endpoint_hash == digest)
    ).scalar_one_or_none()
    stamp = now_ms()
    if row is None:
        row = PushSubscription(
            id=new_id(), event_id=event_id, endpoint=endpoint, endpoint_hash=digest, created_at=stamp
        )
        db.session.add(row)
    row.token_id, row.role, row.player = principal.token_id, principal.role, principal.player
    row.p256dh, row.auth, row.updated_at = p256dh, auth, stamp
    subscription_id = row.id
    db.session.commit()
    return respond(
        SubscriptionSchema(),
        {"subscription_id": subscription_id, "event_id": event_id, "role": principal.role, "player": principal.player},
        201,
    )


@bp.post("/events/<event_id>/push/unsubscribe")
def unsubscribe(event_id: str):
    """Remove this browser's subscription (the token's own, or any for the organizer).
    ---
    post:
      summary: Unsubscribe an endpoint from the event's notifications
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: UnsubscribeRequestSchema
      responses:
        200:
          content:
            application/json:
              schema: UnsubscribeResponseSchema
    """
    data = load_body(UnsubscribeRequestSchema())
    principal = authenticate(event_id)
    begin_write()
    bump_audience([event_id])  # the event's row first (backend/audience.py)
    query = delete(PushSubscription).where(
        PushSubscription.event_id == event_id, PushSubscription.endpoint_hash == endpoint_hash(data["endpoint"])
    )
    if principal.role != "organizer":
        if principal.player is not None:
            owners = select(Token.id).where(Token.event_id == event_id, Token.player == principal.player)
            query = query.where(PushSubscription.token_id.in_(owners))
        else:
            query = query.where(PushSubscription.token_id == principal.token_id)
    removed = changed(query)
    db.session.commit()
    return respond(UnsubscribeResponseSchema(), {"removed": bool(removed)})


@bp.post("/push/renew")
def renew():
    """Move subscriptions to the browser's new endpoint (``pushsubscriptionchange``).
    ---
    post:
      summary: Replace an expired subscription, proven by its old auth secret (no token needed)
      requestBody:
        required: true
        content:
          application/json:
            schema: RenewRequestSchema
      responses:
        200:
          content:
            application/json:
              schema: RenewResponseSchema
    """
    data = load_body(RenewRequestSchema())
    endpoint, p256dh, auth = _checked(data["subscription"])
    begin_write()
    rows = (
        db.session.execute(
            select(PushSubscription).where(PushSubscription.endpoint_hash == endpoint_hash(data["old_endpoint"]))
        )
        .scalars()
        .all()
    )
    rows = [
        r
        for r in rows
        if r.endpoint == data["old_endpoint"] and hmac.compare_digest(r.auth.encode(), data["old_auth"].encode())
    ]
    if not rows:
        raise ApiError(404, "unknown-subscription", "no subscription has that endpoint and auth secret")
    bump_audience(row.event_id for row in rows)  # the events' rows before any subscription's
    digest, stamp = endpoint_hash(endpoint), now_ms()
    for row in rows:
        clash = db.session.execute(
            select(PushSubscription).where(
                PushSubscription.event_id == row.event_id,
                PushSubscription.endpoint_hash == digest,
                PushSubscription.id != row.id,
            )
        ).scalar_one_or_none()
        if clash is not None:
            db.session.delete(clash)
            db.session.flush()
        row.endpoint, row.endpoint_hash, row.p256dh, row.auth, row.updated_at = endpoint, digest, p256dh, auth, stamp
    db.session.commit()
    return respond(RenewResponseSchema(), {"renewed": len(rows)})


@bp.get("/events/<event_id>/push/status")
def status(event_id: str):
    """How many devices are subscribed and where the event's notifications are.
    ---
    get:
      summary: Subscription and outbox counts (organizer, head judge, scorekeeper)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: PushStatusSchema
    """
    from backend.push import push_off_reason

    authenticate(event_id, STAFF_READERS)
    off = push_off_reason()
    subscriptions = db.session.execute(
        select(func.count()).select_from(PushSubscription).where(PushSubscription.event_id == event_id)
    ).scalar_one()
    players = db.session.execute(
        select(func.count(func.distinct(PushSubscription.player))).where(
            PushSubscription.event_id == event_id, PushSubscription.player.is_not(None)
        )
    ).scalar_one()
    outbox = {
        state: count
        for state, count in db.session.execute(
            select(PushOutbox.state, func.count()).where(PushOutbox.event_id == event_id).group_by(PushOutbox.state)
        ).all()
    }
    return respond(
        PushStatusSchema(),
        {
            "enabled": off is None,
            "message": off,
            "problems": refusals(event_id),
            "subscriptions": subscriptions,
            "players_subscribed": players,
            "outbox": outbox,
        },
    )


def advice_for(status: int | None, cause: str) -> str:
    """What the organizer does about a push service's permanent refusal, in words for them."""
    if status in (401, 403):
        return (
            "The push service refused this server's signature (VAPID): set VAPID_SUBJECT to a real "
            "mailto: address or https: site, and give every server the same VAPID key (docs/deploy.md, Push)."
        )
    if status == 413:
        return "A notification was too large for the push service; tell Topcut's maintainers."
    if status is None and cause.startswith(("blocked", "invalid-endpoint")):
        return "The device's push address is not allowed from this server; the player turns notifications on again."
    return "The push service refused these notifications; the devices turn notifications off and on again."


def refusals(event_id: str) -> list[dict[str, Any]]:
    """Notifications a push service refused for good (state ``failed``), grouped by answer, newest first."""
    rows = db.session.execute(
        select(
            PushOutbox.status_code,
            PushOutbox.last_error,
            func.count(),
            func.count(func.distinct(PushOutbox.subscription_id)),
            func.max(PushOutbox.next_attempt_at),
        )
        .where(PushOutbox.event_id == event_id, PushOutbox.state == "failed")
        .group_by(PushOutbox.status_code, PushOutbox.last_error)
    ).all()
    out: list[dict[str, Any]] = [
        {
            "status_code": status,
            "cause": (error or "no answer")[:300],
            "advice": advice_for(status, error or ""),
            "count": count,
            "devices": devices,
            "last_at": last or 0,
        }
        for status, error, count, devices, last in rows
    ]
    return sorted(out, key=lambda p: -int(p["last_at"]))[:10]

"""Events: create (new or imported), read, state, export, delete."""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from sqlalchemy import delete, insert, select

from backend.api import load_body, respond
from backend.auth import ORGANIZER, STAFF, authenticate, hash_secret, new_id, new_token, require_event, token_lifetime_s
from backend.db import begin_write, changed, db
from backend.errors import ApiError
from backend.ledger import SERVER_DEVICE, append_server_op, claim_rows_for, dumps, event_state, lock_event
from backend.limits import create_limit
from backend.models import (
    Device,
    Event,
    Invitation,
    League,
    LeagueEvent,
    Operation,
    PushOutbox,
    PushSubscription,
    RecoveryCode,
    RosterLink,
    Token,
    TransferCode,
    ViewParts,
    now_ms,
)
from backend.recovery import issue as issue_recovery_code
from backend.recovery import unacknowledged
from backend.roster_links import auto_link
from backend.schemas import (
    CreateEventResponseSchema,
    CreateEventSchema,
    DeleteEventResponseSchema,
    DeleteEventSchema,
    EventSummarySchema,
    StateResponseSchema,
)
from shared_rules.errors import DocumentError, RulesError
from shared_rules.games import game_of
from shared_rules.run import load_event
from shared_rules.state import WITHHELD_PREFIX, apply, from_event_document, initial_state, to_event_document


def _new_seed() -> str:
    """An event's seed when none is given: random, so that no two events draw alike and players cannot
    work out a draw kept from them (Doomtown's secret d6 comes from the seed, Floor Rules 3.A)."""
    return secrets.token_hex(16)


def _check_seed(seed: str, field: str, code: str = "invalid-event") -> None:
    if seed.startswith(WITHHELD_PREFIX):
        raise ApiError(
            422,
            code,
            f"{field}: a seed may not start with '{WITHHELD_PREFIX}' (reserved for values withheld from players)",
        )


bp = Blueprint("events", __name__, url_prefix="/api/events")


def _made_before(data: dict):
    """An event a device made offline, sent again: the same grant if the token is the one it was made with."""
    event = db.session.get_one(Event, data["event_id"])
    token = db.session.scalar(
        select(Token).where(
            Token.event_id == event.id, Token.role == "organizer", Token.token_hash == hash_secret(data["token"] or "")
        )
    )
    if token is None or token.revoked_at is not None:
        raise ApiError(
            409, "event-exists", f"event_id: {data['event_id']} is already an event; the device must choose another id"
        )
    # The first answer (with the recovery code) may have been lost: a code nobody said is kept is made again.
    recovery_code = None
    if unacknowledged(event.id):
        begin_write()
        recovery_code = issue_recovery_code(event.id, token.id)
        db.session.commit()
    return respond(
        CreateEventResponseSchema(),
        {
            "event_id": event.id,
            "token": data["token"],
            "token_id": token.id,
            "role": "organizer",
            "player": None,
            "server_time": now_ms(),
            "name": event.name,
            "ruleset": event.ruleset,
            "cursor": event.head_seq,
            "claims": [],
            "expires_in_s": token_lifetime_s("organizer"),
            "recovery_code": recovery_code,
        },
        200,
    )


def _starting_settings(state: dict) -> None:
    """What the game adds to an imported event's settings (a Pokémon season for birth years, TOP 3.1.1)."""
    start = game_of(state["ruleset"]).import_settings
    if start is not None:
        settings = start(load_event(to_event_document(state, operational=False)), now_ms())
        if settings is not None:
            state["settings"] = settings


def _imported_state(document: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An imported document's state (with its game's starting settings and a seed) and its base document."""
    try:
        state = from_event_document(document)
        _starting_settings(state)
        if not state["seed"]:
            state["seed"] = _new_seed()
        _check_seed(state["seed"], "document.seed", "invalid-document")
        base = to_event_document(state)
        from_event_document(json.loads(dumps(base)))  # must survive the round trip devices will do
    except DocumentError:
        raise
    except RulesError as exc:
        raise DocumentError("", str(exc)) from None
    except RecursionError:
        raise ApiError(422, "invalid-document", "the document is nested too deeply") from None
    return state, base


def _taken_meanwhile(data: dict[str, Any], event_id: str) -> bool:
    """Under the write lock: the device's chosen event id was made by its own earlier try (then roll back)."""
    if data["event_id"] is not None and db.session.get(Event, event_id) is not None:
        db.session.rollback()
        return True
    return False


def _insert_import(event_id: str, data: dict[str, Any]) -> tuple[Event, list[dict[str, str]]] | None:
    """Insert an imported event with its players' claim codes and people links; None: made before."""
    state, base = _imported_state(data["document"])
    event = Event(
        id=event_id,
        name=state["name"],
        ruleset=state["ruleset"],
        head_seq=0,
        base_document=dumps(base),
        created_at=now_ms(),
        snapshot_seq=0,
    )
    claim_rows, claims = claim_rows_for(event_id, [player["id"] for player in state["players"]], None)
    begin_write()
    if _taken_meanwhile(data, event_id):
        return None
    db.session.add(event)
    db.session.flush()
    if claim_rows:
        db.session.execute(insert(Invitation), claim_rows)
    auto_link(
        event_id,
        [
            {**p["extra"], "id": p["id"], "birth_year": p["birth_year"]}  # backend/roster_links.py
            for p in state["players"]
        ],
        state["ruleset"],
    )
    return event, claims


def _insert_new(event_id: str, data: dict[str, Any]) -> Event | None:
    """Insert a new event and its event.create operation (checked before the lock); None: made before."""
    event = Event(
        id=event_id, name=data["name"], ruleset=data["ruleset"], head_seq=0, created_at=now_ms(), snapshot_seq=0
    )
    payload = {"ruleset": data["ruleset"], "name": data["name"]}
    if data["settings"] is not None:
        payload["settings"] = data["settings"]
    if data["seed"]:
        _check_seed(data["seed"], "seed")
    payload["seed"] = data["seed"] or _new_seed()
    op = {
        "type": "event.create",
        "op_id": f"{SERVER_DEVICE}:1",
        "device": SERVER_DEVICE,
        "actor": {"role": "organizer"},
        "at": now_ms(),
        "payload": payload,
    }
    try:
        apply(initial_state(), op)  # refuse a bad event before taking the lock
    except RulesError as exc:
        raise ApiError(422, "invalid-event", str(exc)) from None
    begin_write()
    if _taken_meanwhile(data, event_id):
        return None
    db.session.add(event)
    try:
        append_server_op(event, initial_state(), op)
    except RulesError as exc:
        raise ApiError(422, "invalid-event", str(exc)) from None
    return event


@bp.post("")
@create_limit
def create_event():
    """Create an event from a ruleset, or import a whole topcut-event/1 document.
    ---
    post:
      summary: Create or import an event; returns the organizer's token (shown once)
      requestBody:
        required: true
        content:
          application/json:
            schema: CreateEventSchema
      responses:
        201:
          content:
            application/json:
              schema: CreateEventResponseSchema
    """
    data = load_body(CreateEventSchema())
    if data["event_id"] is not None and db.session.get(Event, data["event_id"]) is not None:
        return _made_before(data)
    # Everything that needs no database is checked before the write lock is taken (imports can be large).
    event_id = data["event_id"] or new_id(12)
    claims: list[dict[str, str]] = []
    if data["document"] is not None:
        made = _insert_import(event_id, data)
        if made is None:
            return _made_before(data)  # the same device's retry got here first
        event, claims = made
    else:
        created = _insert_new(event_id, data)
        if created is None:
            return _made_before(data)
        event = created
    if (
        data["token"] is not None
        and db.session.scalar(select(Token.id).where(Token.token_hash == hash_secret(data["token"]))) is not None
    ):
        db.session.rollback()
        raise ApiError(409, "token-taken", "token: already in use; the device must choose a new one")
    token, secret = new_token(event_id, "organizer", None, data["label"] or "organizer", secret=data["token"])
    recovery_code = issue_recovery_code(event_id, None)  # shown once, in this answer
    db.session.commit()
    return respond(
        CreateEventResponseSchema(),
        {
            "event_id": event_id,
            "token": secret,
            "token_id": token.id,
            "role": "organizer",
            "player": None,
            "server_time": now_ms(),
            "name": event.name,
            "ruleset": event.ruleset,
            "cursor": event.head_seq,
            "claims": claims,
            "expires_in_s": token_lifetime_s("organizer"),
            "recovery_code": recovery_code,
        },
        201,
    )


@bp.get("/<event_id>")
def get_event(event_id: str):
    """The event's name, ruleset and cursor, and the caller's role.
    ---
    get:
      summary: Event summary (any token of the event), with the WCT leagues of this server that count it
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: EventSummarySchema
    """
    principal = authenticate(event_id)
    event = require_event(event_id)
    return respond(
        EventSummarySchema(),
        {
            "event_id": event.id,
            "name": event.name,
            "ruleset": event.ruleset,
            "cursor": event.head_seq,
            "role": principal.role,
            "player": principal.player,
            "leagues": [
                {"league_id": league_id, "name": name}
                for league_id, name in db.session.execute(
                    select(League.id, League.name)
                    .join(LeagueEvent, LeagueEvent.league_id == League.id)
                    .where(LeagueEvent.event_id == event_id)
                    .order_by(League.name, League.id)
                )
            ],
        },
    )


@bp.get("/<event_id>/state")
def get_state(event_id: str):
    """The folded state (staff).
    ---
    get:
      summary: The event's current state, the fold of its log (staff tokens)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: StateResponseSchema
    """
    authenticate(event_id, STAFF)
    event = require_event(event_id)
    seq, state = event_state(event)
    return respond(StateResponseSchema(), {"cursor": seq, "state": state})


@bp.get("/<event_id>/export")
def export_event(event_id: str):
    """The whole event as a topcut-event/1 document (staff).
    ---
    get:
      summary: Export the event as a topcut-event/1 document (staff tokens)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: ExportResponseSchema
    """
    authenticate(event_id, STAFF)
    event = require_event(event_id)
    _, state = event_state(event)
    try:
        document = to_event_document(state)
        body = jsonify(document)
    except RulesError as exc:
        raise ApiError(409, "nothing-to-export", str(exc)) from None
    except RecursionError:  # a value nested too deeply (stored before bodies were depth-limited)
        raise ApiError(409, "nothing-to-export", "the event holds a value nested too deeply to export") from None
    return body


#: Every table holding an event's rows, children before the event itself (foreign keys).
EVENT_TABLES = (
    ("roster_links", RosterLink),
    ("push_outbox", PushOutbox),
    ("push_subscriptions", PushSubscription),
    ("devices", Device),
    ("operations", Operation),
    ("invitations", Invitation),
    ("recovery_codes", RecoveryCode),
    ("transfer_codes", TransferCode),
    ("view_parts", ViewParts),
    ("tokens", Token),
)


def _confirmed(event: Event, typed: str) -> bool:
    """The organizer typed the event's id or its name (as created, or as renamed since)."""
    typed = " ".join(typed.split())
    if typed == event.id or (event.name and typed.casefold() == " ".join(event.name.split()).casefold()):
        return True
    name = event_state(event)[1].get("name") or ""
    return bool(name) and typed.casefold() == " ".join(name.split()).casefold()


@bp.delete("/<event_id>")
def delete_event(event_id: str):
    """Delete the event and everything the server holds of it (organizer).
    ---
    delete:
      summary: Delete the event for good (organizer token; `confirm` is the event's name or id); afterwards every
        request about it is a 404
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: DeleteEventSchema
      responses:
        200:
          content:
            application/json:
              schema: DeleteEventResponseSchema
    """
    authenticate(event_id, ORGANIZER)  # before the body and the lock
    if not request.get_data(cache=True).strip():
        raise ApiError(
            422,
            "confirm-required",
            'confirm: required: send {"confirm": "<the event\'s name or id>"} to delete the event; nothing was deleted',
        )
    data = load_body(DeleteEventSchema())
    event = lock_event(event_id)
    principal = authenticate(event_id, ORGANIZER)  # still valid under the lock
    if not _confirmed(event, data["confirm"]):
        db.session.rollback()
        raise ApiError(
            422,
            "confirm-mismatch",
            f"confirm: '{data['confirm'][:60]}' is neither this event's name "
            f"('{event.name[:60]}') nor its id ('{event.id}'); nothing was deleted",
        )
    deleted = {}
    for table, model in EVENT_TABLES:
        deleted[table] = changed(delete(model).where(model.event_id == event_id))
    db.session.execute(delete(Event).where(Event.id == event_id))
    db.session.commit()
    current_app.logger.warning(
        "event %s (%r) deleted by organizer token %s: %s",
        event_id,
        event.name,
        principal.token_id,
        ", ".join(f"{n} {t}" for t, n in deleted.items()),
    )
    return respond(DeleteEventResponseSchema(), {"event_id": event_id, "name": event.name, "deleted": deleted})

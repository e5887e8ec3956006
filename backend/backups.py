"""Backups that tablets can carry on from: one event's log, devices, tokens and codes, restored under its own id.

An export (``topcut-event/1``) is the event as a document: importing it makes a
*new* event, and the tablets of the old one cannot sync with it. A backup
(``topcut-backup/1``) is the event as the server holds it: the operation log with
its server sequence numbers (rejected operations too, so a replayed push gets the
same verdict), every device's progress, the tokens (as their hashes: the
devices' own tokens keep working), the invitations and claim codes (hashed) and
the push subscriptions. Restored on a rebuilt server under the same event id,
every tablet and phone carries on: same cursor, same sequence, same token.
Give the rebuilt server the old ``SECRET_KEY`` (``TOPCUT_SECRET_KEY``, or the old
instance folder's ``secret_key`` file): players' pulls name other devices by
aliases keyed with it, and a phone's later pulls should use the same names.

``GET /api/events/<id>/backup`` (organizer) and ``POST /api/events/restore`` (the
request's token must be one of the backup's organizer tokens) over HTTP;
``flask --app backend topcut-backup EVENT_ID`` and ``topcut-restore FILE`` on the
server itself.
"""

from __future__ import annotations

import json
from typing import Any

import click
from flask import Blueprint, Flask, current_app, jsonify, request
from sqlalchemy import insert, select

from backend.api import load_body, respond
from backend.auth import _bearer, authenticate, hash_secret, require_event
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.ledger import SNAPSHOT_EVERY, dumps
from backend.models import Device, Event, Invitation, Operation, PushSubscription, Token
from backend.schemas import BackupSchema, RestoreResponseSchema
from shared_rules.errors import RulesError
from shared_rules.state import apply_in_place, from_event_document, initial_state

__all__ = ["bp", "FORMAT", "backup_of", "restore", "init_app"]

FORMAT = "topcut-backup/1"
#: A backup carries the whole log: far more than an ordinary request may.
RESTORE_MAX_BYTES = 512 * 1024 * 1024

bp = Blueprint("backups", __name__, url_prefix="/api/events")

#: Table -> (model, the columns a backup carries, in order).
_TABLES: dict[str, tuple[type, tuple[str, ...]]] = {
    "operations": (Operation, ("device", "device_seq", "server_seq", "accepted", "reason", "error", "op", "token_id",
                               "received_at")),
    "devices": (Device, ("device", "token_id", "last_seq", "last_accepted")),
    "tokens": (Token, ("id", "token_hash", "role", "player", "label", "created_at", "revoked_at", "expires_at",
                       "replaced_by", "last_seen_at")),
    "invitations": (Invitation, ("id", "code_hash", "code", "role", "player", "label", "created_by", "created_at",
                                 "redeemed_at", "token_id", "revoked_at")),
    "push_subscriptions": (PushSubscription, ("id", "token_id", "role", "player", "endpoint", "endpoint_hash",
                                              "p256dh", "auth", "created_at", "updated_at")),
}
_ORDER = {"operations": Operation.id, "devices": Device.device, "tokens": Token.created_at,
          "invitations": Invitation.created_at, "push_subscriptions": PushSubscription.created_at}
_REQUIRED = {"operations": {"device", "device_seq", "accepted", "op"}, "devices": {"device", "token_id", "last_seq"},
             "tokens": {"id", "token_hash", "role"}, "invitations": {"id", "code_hash", "role"},
             "push_subscriptions": {"id", "token_id", "role", "endpoint", "endpoint_hash", "p256dh", "auth"}}


#: Columns that hold whole numbers or true/false (every other one holds text).
_INTS = {"device_seq", "server_seq", "received_at", "last_seq", "last_accepted", "created_at", "revoked_at",
         "expires_at", "redeemed_at", "updated_at", "last_seen_at"}
#: Columns a backup from an earlier release may lack, and what they hold then.
_DEFAULTS = {("invitations", "label"): "", ("tokens", "label"): ""}
_BOOLS = {"accepted"}


def backup_of(event: Event) -> dict[str, Any]:
    """The event as the server holds it (a ``topcut-backup/1`` document)."""
    out: dict[str, Any] = {
        "format": FORMAT, "event_id": event.id,
        "event": {"name": event.name, "ruleset": event.ruleset, "created_at": event.created_at,
                  "head_seq": event.head_seq, "base_document": event.base_document},
    }
    for table, (model, columns) in _TABLES.items():
        rows = db.session.execute(select(model).where(model.event_id == event.id).order_by(_ORDER[table])).scalars()
        out[table] = [{c: getattr(row, c) for c in columns} for row in rows]
    return out


def _refuse(message: str) -> ApiError:
    return ApiError(422, "invalid-backup", message)


def _check_rows(backup: dict[str, Any]) -> None:
    for table, (_, columns) in _TABLES.items():
        rows = backup.get(table)
        if not isinstance(rows, list):
            raise _refuse(f"{table}: expected a list")
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                raise _refuse(f"{table}[{i}]: expected an object")
            unknown = set(row) - set(columns)
            if unknown:
                raise _refuse(f"{table}[{i}].{sorted(unknown)[0]}: not a field of a backup's {table}")
            missing = _REQUIRED[table] - {k for k, v in row.items() if v is not None}
            if missing:
                raise _refuse(f"{table}[{i}].{sorted(missing)[0]}: missing")
            for key, value in row.items():
                if value is None:
                    continue
                kind = int if key in _INTS else bool if key in _BOOLS else str
                if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                    raise _refuse(f"{table}[{i}].{key}: expected {kind.__name__}, got {type(value).__name__}")


def _folded(backup: dict[str, Any]) -> dict[str, Any]:
    """The state the accepted operations fold to; refuses a log with gaps or an operation that does not apply."""
    event = backup["event"]
    base = event.get("base_document")
    try:
        state = from_event_document(json.loads(base)) if base else initial_state()
    except (RulesError, ValueError) as exc:
        raise _refuse(f"event.base_document: {exc}") from None
    accepted = sorted((r for r in backup["operations"] if r["accepted"]), key=lambda r: r.get("server_seq") or 0)
    for expected, row in enumerate(accepted, start=1):
        if row.get("server_seq") != expected:
            raise _refuse(f"operations: server_seq {expected} is missing (the log must have no gaps)")
        try:
            apply_in_place(state, json.loads(row["op"]))
        except (RulesError, ValueError) as exc:
            raise _refuse(f"operations: server_seq {expected} does not apply: {exc}") from None
    if len(accepted) != event.get("head_seq"):
        raise _refuse(f"event.head_seq: {event.get('head_seq')} but the log holds {len(accepted)} accepted operations")
    return state


def restore(backup: dict[str, Any]) -> Event:
    """Write a backup as the event it was (same id, log, devices, tokens); commits. 409 if the id is taken."""
    if backup.get("format") != FORMAT:
        raise _refuse(f"format: expected {FORMAT!r}, got {backup.get('format')!r}")
    event_id = backup.get("event_id")
    if not isinstance(event_id, str) or not event_id:
        raise _refuse("event_id: missing")
    meta = backup.get("event")
    if not isinstance(meta, dict) or not isinstance(meta.get("ruleset"), str) or not isinstance(meta.get("head_seq"), int):
        raise _refuse("event: expected an object with ruleset and head_seq")
    _check_rows(backup)
    state = _folded(backup)  # before any write: a bad backup changes nothing
    begin_write()
    if db.session.get(Event, event_id) is not None:
        db.session.rollback()
        raise ApiError(409, "event-exists", f"event '{event_id}' already exists on this server; nothing was changed")
    head = meta["head_seq"]
    event = Event(id=event_id, name=meta.get("name") or state.get("name") or "", ruleset=meta["ruleset"],
                  created_at=meta.get("created_at") or 0, head_seq=head, base_document=meta.get("base_document"),
                  snapshot=dumps(state) if head >= SNAPSHOT_EVERY else None,
                  snapshot_seq=head if head >= SNAPSHOT_EVERY else 0)
    db.session.add(event)
    db.session.flush()
    for table, (model, columns) in _TABLES.items():
        rows = [{"event_id": event_id, **{c: _DEFAULTS.get((table, c)) if row.get(c) is None else row[c]
                                          for c in columns}} for row in backup[table]]
        if rows:
            db.session.execute(insert(model), rows)
    db.session.commit()
    return event


@bp.get("/<event_id>/backup")
def get_backup(event_id: str):
    """A backup of the event.
    ---
    get:
      summary: The event as the server holds it (topcut-backup/1, organizer token); restore it with POST /api/events/restore
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: BackupSchema
    """
    authenticate(event_id, {"organizer"})
    response = jsonify(backup_of(require_event(event_id)))
    response.headers["Content-Disposition"] = f'attachment; filename="topcut-{event_id}.backup.json"'
    return response


@bp.post("/restore")
def restore_backup():
    """Restore a backup.
    ---
    post:
      summary: Restore a topcut-backup/1 under its own event id, so its tablets carry on (one of its organizer tokens)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: BackupSchema
      responses:
        201:
          content:
            application/json:
              schema: RestoreResponseSchema
    """
    secret = _bearer()
    if secret is None:
        raise ApiError(401, "missing-token", "send 'Authorization: Bearer <token>': one of the backup's organizer tokens")
    request.max_content_length = int(current_app.config.get("RESTORE_MAX_BYTES") or RESTORE_MAX_BYTES)
    backup = load_body(BackupSchema())
    digest = hash_secret(secret)
    if not any(isinstance(t, dict) and t.get("token_hash") == digest and t.get("role") == "organizer"
               and t.get("revoked_at") is None for t in backup.get("tokens") or []):
        raise ApiError(403, "forbidden", "only an organizer of the backed-up event may restore it: send one of its "
                       "organizer tokens")
    event = restore(backup)
    return respond(RestoreResponseSchema(), {"event_id": event.id, "name": event.name, "ruleset": event.ruleset,
                                             "cursor": event.head_seq, "operations": len(backup["operations"])}, 201)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)

    @app.cli.command("topcut-backup")
    @click.argument("event_id")
    @click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write here, not stdout.")
    def backup_command(event_id: str, output: str | None) -> None:
        """Write one event's backup (topcut-backup/1) as JSON."""
        event = db.session.get(Event, event_id)
        if event is None:
            raise click.ClickException(f"there is no event '{event_id}'")
        text = json.dumps(backup_of(event), ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            click.echo(text)

    @app.cli.command("topcut-restore")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False))
    def restore_command(path: str) -> None:
        """Restore an event from its backup file, under its own id."""
        try:
            with open(path, encoding="utf-8") as fh:
                backup = json.load(fh)
        except ValueError as exc:
            raise click.ClickException(f"{path}: not JSON ({exc})") from None
        if not isinstance(backup, dict):
            raise click.ClickException(f"{path}: expected a JSON object")
        try:
            event = restore(backup)
        except ApiError as exc:
            raise click.ClickException(exc.message) from None
        click.echo(f"restored event {event.id} ({event.name}) at cursor {event.head_seq}")

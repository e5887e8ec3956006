"""League backups (``topcut-league-backup/1``): a WCT league, its events and its director tokens, restored under
its own id.

An event's backup (backend/backups.py) holds one event; a league runs a whole season over many, so it has a
backup of its own: the league row (name, stored document with its bonus points, ``created_at``, ``version``),
its ``league_events`` rows (event id, sprint, position, when added, the organizer token that proved it) and its
director tokens as the server holds them (their hashes, never the secrets: revoked ones stay revoked, a
rotated one keeps its grace period's end and its successor). Restored on a rebuilt server under the same
league id, the director's devices carry on with the tokens they hold.

``GET /api/leagues/<id>/backup`` (a director token of the league) and ``POST /api/leagues/restore`` (the
request's token must be one of the backup's director tokens that still works: not revoked, not expired) over
HTTP; ``flask --app backend topcut-backup-league LEAGUE_ID`` and ``topcut-restore FILE`` (which tells a league
backup from an event's by its ``format``) on the server itself.

**Rebuilding a server**: restore the events' backups and the leagues' backups, in either order. A league only
names its events (``league_events`` has no foreign key): an event not on this server (yet) is reported in
the table's ``problems`` and ``present: false``, as a deleted one is; once its backup is restored it counts
again, since the table's cache key holds each event's presence and head sequence number. A restore drops
this process's cached table of the league id, so no table cached before can be served for it.

A restore is checked whole before anything is written (the format, every section and field, the league
document as ``load_league`` checks it, duplicate event ids, positions, token ids and hashes, a token's
successor that is not in the backup); a refusal (422 ``invalid-backup`` naming the field, 409 when the
league id or a token of the backup already exists here) changes nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from backend.api import load_body, respond
from backend.auth import bearer, hash_secret
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.models import Event, League, LeagueEvent, LeagueToken, Token, now_ms
from backend.startrek.leagues import (
    MAX_LEAGUE_EVENTS,
    _check,
    _check_sprint,
    _league_events,
    authenticate_director,
    league_document,
    require_league,
)
from backend.startrek.schemas import LeagueBackupSchema, LeagueRestoreResponseSchema

__all__ = ["bp", "FORMAT", "LeagueRestored", "league_backup_of", "restore_league"]

FORMAT = "topcut-league-backup/1"

bp = Blueprint("league_backups", __name__, url_prefix="/api/leagues")

_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
_HASH = re.compile(r"^[0-9a-f]{64}$")
#: The largest value of an Integer column (``version``, ``position``); the others are BigInteger.
_MAX_INT32 = 2**31 - 1

#: Each section's fields: name -> (type, required). ``league`` is one object, the others lists of objects.
_LEAGUE: dict[str, tuple[type, bool]] = {
    "name": (str, True),
    "document": (str, True),
    "created_at": (int, True),
    "version": (int, True),
}
_EVENTS: dict[str, tuple[type, bool]] = {
    "event_id": (str, True),
    "sprint": (str, True),
    "position": (int, True),
    "added_at": (int, True),
    "proved_by": (str, True),
}
_TOKENS: dict[str, tuple[type, bool]] = {
    "id": (str, True),
    "token_hash": (str, True),
    "role": (str, True),
    "label": (str, False),
    "created_at": (int, True),
    "revoked_at": (int, False),
    "expires_at": (int, False),
    "replaced_by": (str, False),
}


def league_backup_of(league: League) -> dict[str, Any]:
    """The league as the server holds it (a ``topcut-league-backup/1`` document)."""
    tokens = db.session.execute(
        select(LeagueToken).where(LeagueToken.league_id == league.id).order_by(LeagueToken.created_at, LeagueToken.id)
    ).scalars()
    return {
        "format": FORMAT,
        "league_id": league.id,
        "league": {c: getattr(league, c) for c in _LEAGUE},
        "league_events": [{c: getattr(row, c) for c in _EVENTS} for row in _league_events(league.id)],
        "tokens": [{c: getattr(token, c) for c in _TOKENS} for token in tokens],
    }


def _refuse(message: str) -> ApiError:
    return ApiError(422, "invalid-backup", message)


def _object(row: Any, where: str, kinds: dict[str, tuple[type, bool]]) -> dict[str, Any]:
    """``row`` checked: an object of the section's fields, each of its type (none missing that is required)."""
    if not isinstance(row, dict):
        raise _refuse(f"{where}: expected an object")
    unknown = set(row) - set(kinds)
    if unknown:
        raise _refuse(f"{where}.{sorted(unknown)[0]}: not a field of a league backup's {where.split('[')[0]}")
    for key, (kind, required) in kinds.items():
        value = row.get(key)
        if value is None:
            if required:
                raise _refuse(f"{where}.{key}: missing")
            continue
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise _refuse(f"{where}.{key}: expected {kind.__name__}, got {type(value).__name__}")
        if isinstance(value, int) and not 0 <= value <= 2**63 - 1:
            raise _refuse(f"{where}.{key}: {value} is out of range")
        if isinstance(value, str) and "\x00" in value:
            raise _refuse(f"{where}.{key}: must not contain NUL characters")
    return row


def _rows(backup: dict[str, Any], name: str, kinds: dict[str, tuple[type, bool]]) -> list[dict[str, Any]]:
    rows = backup.get(name)
    if not isinstance(rows, list):
        raise _refuse(f"{name}: expected a list")
    return [_object(row, f"{name}[{i}]", kinds) for i, row in enumerate(rows)]


def _id(value: str, where: str) -> None:
    if not _ID.match(value):
        raise _refuse(f"{where}: expected an id of 1 to 32 letters, digits, '-' or '_'")


def _checked(backup: dict[str, Any]) -> tuple[str, dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """The backup's league id, league row, event rows and token rows, each checked; refuses naming the first bad
    field (nothing here reads or writes the database)."""
    if backup.get("format") != FORMAT:
        raise _refuse(f"format: expected {FORMAT!r}, got {str(backup.get('format'))[:60]!r}")
    league_id = backup.get("league_id")
    if not isinstance(league_id, str):
        raise _refuse("league_id: missing")
    _id(league_id, "league_id")
    league = _object(backup.get("league"), "league", _LEAGUE)
    if not 1 <= league["version"] <= _MAX_INT32:
        raise _refuse(f"league.version: expected a whole number from 1 to {_MAX_INT32}")
    try:
        stored = json.loads(league["document"])
    except ValueError:
        raise _refuse("league.document: not JSON") from None
    if not isinstance(stored, dict):
        raise _refuse("league.document: expected a JSON object (the league document without its events)")
    events = _rows(backup, "league_events", _EVENTS)
    if len(events) > MAX_LEAGUE_EVENTS:
        raise _refuse(f"league_events: a league holds at most {MAX_LEAGUE_EVENTS} events")
    seen: dict[tuple[str, Any], int] = {}
    for i, row in enumerate(events):
        _id(row["event_id"], f"league_events[{i}].event_id")
        if len(row["proved_by"]) > 32:
            raise _refuse(f"league_events[{i}].proved_by: expected a proof of at most 32 characters")
        if row["position"] > _MAX_INT32:
            raise _refuse(f"league_events[{i}].position: expected a whole number up to {_MAX_INT32}")
        for key in ("event_id", "position"):
            earlier = seen.setdefault((key, row[key]), i)
            if earlier != i:
                raise _refuse(f"league_events[{i}].{key}: {row[key]!r} is already league_events[{earlier}]'s")
        try:
            _check_sprint(stored, row["sprint"])
        except ApiError as exc:
            raise _refuse(f"league_events[{i}].{exc.message}") from None
    ordered = sorted(events, key=lambda r: (r["position"], r["event_id"]))
    try:
        _check(league_document(league_id, stored, [LeagueEvent(**row) for row in ordered]))
    except ApiError as exc:
        raise _refuse(f"league.document: {exc.message}") from None
    tokens = _rows(backup, "tokens", _TOKENS)
    ids = {row["id"] for row in tokens}
    for i, row in enumerate(tokens):
        _id(row["id"], f"tokens[{i}].id")
        if not _HASH.match(row["token_hash"]):
            raise _refuse(f"tokens[{i}].token_hash: expected a sha256 digest (64 lowercase hexadecimal digits)")
        if row["role"] != "director":
            raise _refuse(f"tokens[{i}].role: expected 'director', got {row['role'][:40]!r}")
        if row.get("replaced_by") is not None and row["replaced_by"] not in ids:
            raise _refuse(f"tokens[{i}].replaced_by: '{row['replaced_by'][:40]}' is not a token of this backup")
        for key in ("id", "token_hash"):
            earlier = seen.setdefault((key, row[key]), i)
            if earlier != i:
                raise _refuse(f"tokens[{i}].{key}: already tokens[{earlier}]'s")
    return league_id, league, ordered, tokens


def working_director(tokens: list[dict[str, Any]], secret: str, now: int) -> bool:
    """Whether ``secret`` is one of these (backed-up) director tokens and still works: not revoked, not
    expired (a rotated one works until its grace period ends, as on the server it came from)."""
    digest = hash_secret(secret)
    return any(
        isinstance(t, dict)
        and t.get("token_hash") == digest
        and t.get("role") == "director"
        and t.get("revoked_at") is None
        and (not isinstance(t.get("expires_at"), int) or t["expires_at"] > now)
        for t in tokens
    )


@dataclass(frozen=True)
class LeagueRestored:
    """What a league restore wrote: the league, its events (and those not on this server yet), its tokens."""

    league: League
    events: int
    missing_events: tuple[str, ...]
    tokens: int


def _exists(league_id: str) -> bool:
    return db.session.get(League, league_id) is not None


def _taken(tokens: list[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """The backup's token ids a league token here has, and its hashes a league's or an event's token has."""
    ids, hashes = [t["id"] for t in tokens], [t["token_hash"] for t in tokens]
    taken_ids = set(db.session.scalars(select(LeagueToken.id).where(LeagueToken.id.in_(ids))))
    taken_hashes = {
        *db.session.scalars(select(LeagueToken.token_hash).where(LeagueToken.token_hash.in_(hashes))),
        *db.session.scalars(select(Token.token_hash).where(Token.token_hash.in_(hashes))),
    }
    return taken_ids, taken_hashes


def restore_league(backup: dict[str, Any]) -> LeagueRestored:
    """Write a league backup as the league it was (same id, document, version, events, director tokens); commits.
    422 for a malformed backup, 409 if the league id or one of its tokens is already on this server."""
    league_id, meta, events, tokens = _checked(backup)
    begin_write()
    try:
        if _exists(league_id):
            raise ApiError(
                409, "league-exists", f"league '{league_id}' already exists on this server; nothing was changed"
            )
        taken_ids, taken_hashes = _taken(tokens)
        for i, token in enumerate(tokens):
            for key, taken in (("id", taken_ids), ("token_hash", taken_hashes)):
                if token[key] in taken:
                    raise ApiError(
                        409,
                        "token-exists",
                        f"tokens[{i}].{key}: a token on this server already has it (is this league here under "
                        "another id?); nothing was changed",
                    )
        league = League(
            id=league_id,
            name=meta["name"],
            document=meta["document"],
            created_at=meta["created_at"],
            version=meta["version"],
        )
        db.session.add(league)
        db.session.flush()
        if events:
            db.session.execute(insert(LeagueEvent), [{"league_id": league_id, **row} for row in events])
        if tokens:
            db.session.execute(
                insert(LeagueToken),
                [
                    {"league_id": league_id, **{c: t.get(c) for c in _TOKENS}, "label": t.get("label") or ""}
                    for t in tokens
                ],
            )
        named = [row["event_id"] for row in events]
        present = set(db.session.scalars(select(Event.id).where(Event.id.in_(named)))) if named else set()
        db.session.commit()
    except ApiError:
        db.session.rollback()
        raise
    except IntegrityError:  # another restore of the same league (or tokens) committed first (PostgreSQL)
        db.session.rollback()
        raise ApiError(
            409,
            "league-exists",
            f"league '{league_id}' or one of its tokens was restored on this server at the same time; "
            "nothing was changed",
        ) from None
    _forget_cached_table(league_id)
    missing = tuple(row["event_id"] for row in events if row["event_id"] not in present)
    return LeagueRestored(league, len(events), missing, len(tokens))


def _forget_cached_table(league_id: str) -> None:
    """Drop this process's cached table of the league id (a league once here under it, then removed by hand)."""
    from backend.startrek.leagues import _table_cache

    _table_cache().forget(league_id)


@bp.get("/<league_id>/backup")
def get_league_backup(league_id: str):
    """A backup of the league.
    ---
    get:
      summary: The league as the server holds it (topcut-league-backup/1, league director token) - its document,
        events and director tokens (as their hashes); restore it with POST /api/leagues/restore
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: LeagueBackupSchema
    """
    authenticate_director(league_id)
    response = respond(LeagueBackupSchema(), league_backup_of(require_league(league_id)))
    response.headers["Content-Disposition"] = f'attachment; filename="topcut-league-{league_id}.backup.json"'
    return response


@bp.post("/restore")
def restore_league_backup():
    """Restore a league backup.
    ---
    post:
      summary: Restore a topcut-league-backup/1 under its own league id, so its director's devices carry on (one
        of its director tokens that still works); its events may be restored before or after it
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: LeagueBackupSchema
      responses:
        201:
          content:
            application/json:
              schema: LeagueRestoreResponseSchema
    """
    secret = bearer()
    if secret is None:
        raise ApiError(
            401, "missing-token", "send 'Authorization: Bearer <token>': one of the backup's league director tokens"
        )
    backup = load_body(LeagueBackupSchema())
    if not working_director(backup.get("tokens") or [], secret, now_ms()):
        raise ApiError(
            403,
            "forbidden",
            "only a director of the backed-up league may restore it: send one of its director tokens that still "
            "works (not revoked, not expired)",
        )
    done = restore_league(backup)
    return respond(
        LeagueRestoreResponseSchema(),
        {
            "league_id": done.league.id,
            "name": done.league.name,
            "version": done.league.version,
            "events": done.events,
            "missing_events": list(done.missing_events),
            "tokens": done.tokens,
        },
        201,
    )


def restored_message(done: LeagueRestored) -> str:
    """The restore command's line about a restored league."""
    league = done.league
    text = f"restored league {league.id} ({league.name}) at version {league.version}, {done.events} event(s), "
    text += f"{done.tokens} director token(s)"
    if done.missing_events:
        text += f"; not on this server yet (restore their backups): {', '.join(done.missing_events)}"
    return text

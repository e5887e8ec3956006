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

A league is backed up on its own (backend/startrek/league_backups.py: ``topcut-league-backup/1``,
``GET /api/leagues/<id>/backup``, ``flask --app backend topcut-backup-league LEAGUE_ID``); ``topcut-restore``
restores either kind, telling them apart by ``format``. To rebuild a server, restore every event's backup and
every league's, in either order (a league restored before its events reports them absent until they are).

**Players across events** (docs/people.md). A backup also carries the event's roster links
(``roster_links``: player id, person id, when linked) and the records of the people they name (``people``:
id, name, game ids, ``created_at``; a link to a merged duplicate names the person it was merged into, so a
backup only holds people who remain). Both sections are optional: a backup made before they existed
restores with no links. A restore links each entry again, to a person found thus, in this order:

1. a person with the **same id** on this server (a duplicate merged here: the person it was merged into).
   It is used as it is: its name and game ids are never overwritten, even where the backup's record
   differs or names game ids another person here holds; no second person is made;
2. otherwise the person here who holds the record's Play! Pokémon ID (with an agreeing birth year) or
   trekcc.org member id, when that names **exactly one** person (the rule of the automatic link,
   backend/roster_links.py);
3. otherwise a **new person** under the record's id, name, ids and ``created_at``. A game id another person
   here already holds (two people named, or a Play! Pokémon ID with another birth year) is left off it (the
   birth year with the Pokémon ID) and named in the answer's ``notes``, so no game id gets a second holder;
   if the two are one player, they can be merged (``POST /api/people/{id}/merge``).

Each link carries ``proof``, this server's signature of it (backend/consent.py ``link_proof``). A link to a
person found here whom another event here links already is written only when its proof is this server's
signature (the link was made with the person's consent; a rebuilt server needs the old ``SECRET_KEY``):
a made-up backup cannot link a stranger with a history, and such a link is left off and named in ``notes``.
Restoring several events' backups one after the other joins each person's events again: the first
restore creates the person under its id, the next ones find it and carry the proofs. A restore links no
one the restoring organizer could not link by hand (``PUT /api/events/{id}/players/{player}/person``). The sections are
checked with the rest before anything is written: a link must name a player of the restored roster (once)
and a person of ``people``; every person must be linked; a refused restore changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import click
from flask import Blueprint, Flask, current_app, jsonify, request
from marshmallow import ValidationError
from sqlalchemy import insert, or_, select

from backend.api import load_body, respond
from backend.auth import ORGANIZER, authenticate, bearer, hash_secret, require_event
from backend.consent import link_proof, linked_elsewhere, proof_matches
from backend.db import begin_write, db
from backend.errors import ApiError, validation_message
from backend.ledger import SNAPSHOT_EVERY, dumps, keep_summary
from backend.models import (
    Device,
    Event,
    Invitation,
    League,
    Operation,
    Person,
    PushSubscription,
    RecoveryCode,
    RosterLink,
    Token,
    now_ms,
)
from backend.people import new_person, person_json, surviving
from backend.roster_links import matching_people
from backend.schemas import BackupSchema, RestoreResponseSchema
from backend.schemas.people import PERSON_ID, PersonInSchema
from shared_rules.errors import RulesError
from shared_rules.state import apply_in_place, from_event_document, initial_state

__all__ = ["bp", "FORMAT", "Restored", "backup_of", "restore", "init_app"]

FORMAT = "topcut-backup/1"
#: A backup carries the whole log: far more than an ordinary request may.
RESTORE_MAX_BYTES = 512 * 1024 * 1024

bp = Blueprint("backups", __name__, url_prefix="/api/events")

#: Table -> (model, the columns a backup carries, in order).
_TABLES: dict[str, tuple[Any, tuple[str, ...]]] = {
    "operations": (
        Operation,
        ("device", "device_seq", "server_seq", "accepted", "reason", "error", "op", "token_id", "received_at"),
    ),
    "devices": (Device, ("device", "token_id", "last_seq", "last_accepted")),
    "tokens": (
        Token,
        (
            "id",
            "token_hash",
            "role",
            "player",
            "label",
            "created_at",
            "revoked_at",
            "expires_at",
            "replaced_by",
            "last_seen_at",
        ),
    ),
    "invitations": (
        Invitation,
        (
            "id",
            "code_hash",
            "code",
            "role",
            "player",
            "label",
            "created_by",
            "created_at",
            "redeemed_at",
            "token_id",
            "revoked_at",
        ),
    ),
    "push_subscriptions": (
        PushSubscription,
        ("id", "token_id", "role", "player", "endpoint", "endpoint_hash", "p256dh", "auth", "created_at", "updated_at"),
    ),
    "recovery_codes": (RecoveryCode, ("code_hash", "created_at", "created_by", "acknowledged_at")),
}
#: Tables a backup from an earlier release may lack (restored empty).
_OPTIONAL_TABLES = {"recovery_codes"}
_ORDER = {
    "operations": Operation.id,
    "devices": Device.device,
    "tokens": Token.created_at,
    "invitations": Invitation.created_at,
    "push_subscriptions": PushSubscription.created_at,
    "recovery_codes": RecoveryCode.created_at,
}
_REQUIRED = {
    "operations": {"device", "device_seq", "accepted", "op"},
    "devices": {"device", "token_id", "last_seq"},
    "tokens": {"id", "token_hash", "role"},
    "invitations": {"id", "code_hash", "role"},
    "push_subscriptions": {"id", "token_id", "role", "endpoint", "endpoint_hash", "p256dh", "auth"},
    "recovery_codes": {"code_hash"},
}


#: Columns that hold whole numbers or true/false (every other one holds text).
_INTS = {
    "device_seq",
    "server_seq",
    "received_at",
    "last_seq",
    "last_accepted",
    "created_at",
    "revoked_at",
    "expires_at",
    "redeemed_at",
    "updated_at",
    "last_seen_at",
    "acknowledged_at",
}
#: Columns a backup from an earlier release may lack, and what they hold then.
_DEFAULTS = {("invitations", "label"): "", ("tokens", "label"): ""}
_BOOLS = {"accepted"}


def backup_of(event: Event) -> dict[str, Any]:
    """The event as the server holds it (a ``topcut-backup/1`` document)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "event_id": event.id,
        "event": {
            "name": event.name,
            "ruleset": event.ruleset,
            "created_at": event.created_at,
            "head_seq": event.head_seq,
            "base_document": event.base_document,
        },
    }
    for table, (model, columns) in _TABLES.items():
        rows = db.session.execute(select(model).where(model.event_id == event.id).order_by(_ORDER[table])).scalars()
        out[table] = [{c: getattr(row, c) for c in columns} for row in rows]
    out["roster_links"], out["people"] = _links_of(event.id)
    return out


#: A backup's person record and roster link: their fields, and those a row must have.
PERSON_FIELDS = ("id", "name", "pokemon_id", "birth_year", "trekcc_handle", "trekcc_id", "other_ids", "created_at")
LINK_FIELDS = ("player_id", "person_id", "created_at", "proof")
_PERSON_REQUIRED = ("id", "name")
_LINK_REQUIRED = ("player_id", "person_id")


def _person_record(person: Person) -> dict[str, Any]:
    return {**person_json(person), "created_at": person.created_at}


def _links_of(event_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The event's roster links and the records of the people they name (merged duplicates: the survivor)."""
    links: list[dict[str, Any]] = []
    people: dict[str, dict[str, Any]] = {}
    for link in db.session.execute(
        select(RosterLink).where(RosterLink.event_id == event_id).order_by(RosterLink.id)
    ).scalars():
        person = surviving(db.session.get(Person, link.person_id))
        if person is None:
            continue
        people.setdefault(person.id, _person_record(person))
        links.append(
            {
                "player_id": link.player_id,
                "person_id": person.id,
                "created_at": link.created_at,
                "proof": link_proof(event_id, link.player_id, person.id),
            }
        )
    return links, list(people.values())


def _refuse(message: str) -> ApiError:
    return ApiError(422, "invalid-backup", message)


def _check_rows(backup: dict[str, Any]) -> None:
    for table, (_, columns) in _TABLES.items():
        rows = backup.get(table, [] if table in _OPTIONAL_TABLES else None)
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


def _section(
    backup: dict[str, Any], name: str, fields: tuple[str, ...], required: tuple[str, ...]
) -> list[dict[str, Any]]:
    """An optional section's rows (none when it is absent or null), each an object of known fields."""
    rows = backup.get(name)
    if rows is None:
        return []
    if not isinstance(rows, list):
        raise _refuse(f"{name}: expected a list")
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise _refuse(f"{name}[{i}]: expected an object")
        unknown = set(row) - set(fields)
        if unknown:
            raise _refuse(f"{name}[{i}].{sorted(unknown)[0]}: not a field of a backup's {name}")
        for key in required:
            if row.get(key) is None:
                raise _refuse(f"{name}[{i}].{key}: missing")
        stamp = row.get("created_at")
        if stamp is not None and (not isinstance(stamp, int) or isinstance(stamp, bool)):
            raise _refuse(f"{name}[{i}].created_at: expected int, got {type(stamp).__name__}")
    return rows


def _checked_people(backup: dict[str, Any], players: set[str]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The backup's roster links and people, checked (every field, and that they name each other and the
    restored roster's players); refuses naming the first bad field."""
    links = _section(backup, "roster_links", LINK_FIELDS, _LINK_REQUIRED)
    people = _section(backup, "people", PERSON_FIELDS, _PERSON_REQUIRED)
    loaded: list[Any] = []
    ids: dict[str, Any] = {}
    for i, row in enumerate(people):
        pid = row["id"]
        if not isinstance(pid, str):
            raise _refuse(f"people[{i}].id: expected str, got {type(pid).__name__}")
        try:
            PERSON_ID(pid)
            data = PersonInSchema().load({k: v for k, v in row.items() if k not in ("id", "created_at")})
        except ValidationError as exc:
            messages = exc.messages if isinstance(exc.messages, dict) else {"id": exc.messages}
            field = sorted(messages)[0]
            raise _refuse(f"people[{i}].{validation_message(ValidationError({field: messages[field]}))}") from None
        if pid in ids:
            raise _refuse(f"people[{i}].id: person '{pid}' is already people[{ids[pid]}]")
        ids[pid] = i
        loaded.append({**data, "id": pid, "created_at": row.get("created_at")})
    seen_players: dict[str, Any] = {}
    named: set[str] = set()
    for i, row in enumerate(links):
        for key in ("player_id", "person_id"):
            if not isinstance(row[key], str):
                raise _refuse(f"roster_links[{i}].{key}: expected str, got {type(row[key]).__name__}")
        if row["player_id"] not in players:
            raise _refuse(
                f"roster_links[{i}].player_id: there is no player '{row['player_id'][:40]}' in the restored event"
            )
        if row["player_id"] in seen_players:
            raise _refuse(
                f"roster_links[{i}].player_id: player '{row['player_id'][:40]}' is already linked by "
                f"roster_links[{seen_players[row['player_id']]}]"
            )
        seen_players[row["player_id"]] = i
        if row["person_id"] not in ids:
            raise _refuse(
                f"roster_links[{i}].person_id: '{row['person_id'][:40]}' is not a person of the backup's people"
            )
        named.add(row["person_id"])
    for i, person in enumerate(loaded):
        if person["id"] not in named:
            raise _refuse(f"people[{i}].id: no roster link names person '{person['id']}'")
    return links, loaded


def _person_here(record: dict[str, Any], notes: list[str]) -> tuple[str, bool]:
    """The id of the person on this server a backup's person record is (the module's rule), and whether it
    was created now."""
    same = surviving(db.session.get(Person, record["id"]))
    if same is not None:
        return same.id, False
    pop, trek, birth = record["pokemon_id"], record["trekcc_id"], record["birth_year"]
    conditions = ([Person.pokemon_id == pop] if pop is not None else []) + (
        [Person.trekcc_id == trek] if trek is not None else []
    )
    holders = (
        list(
            db.session.execute(
                select(Person).where(Person.merged_into.is_(None), or_(*conditions)).order_by(Person.id)
            ).scalars()
        )
        if conditions
        else []
    )
    found = matching_people(holders, pop, trek, birth)
    if len(holders) == 1 and len(found) == 1:
        return found[0].id, False
    data = dict(record)
    for field, others in (
        ("pokemon_id", [h for h in holders if h.pokemon_id == pop]),
        ("trekcc_id", [h for h in holders if h.trekcc_id == trek]),
    ):
        if data[field] is not None and others:
            notes.append(
                f"person {record['id']} ({record['name']}) was created without {field} {data[field]}: "
                f"{others[0].name} ({others[0].id}) holds it here; merge them if they are one player"
            )
            data[field] = None
            if field == "pokemon_id":
                data["birth_year"] = None
    created = record["created_at"] if record["created_at"] is not None else now_ms()
    db.session.add(new_person(record["id"], data, created))
    db.session.flush()  # the next record's look-up sees this person
    return record["id"], True


def _relink(event_id: str, links: list[dict[str, Any]], people: list[dict[str, Any]]) -> tuple[int, list[str], int]:
    """Write the backup's roster links, finding or creating their people; (people created, notes, links written).

    A link to a person another event here links is written only with its ``proof`` (this server's signature:
    it was made with the person's consent, backend/consent.py); without one it is left off and noted.
    """
    here: dict[str, Any] = {}
    created = 0
    notes: list[str] = []
    names: dict[str, Any] = {}
    fresh = set()
    for record in people:
        here[record["id"]], made = _person_here(record, notes)
        names[record["id"]] = record["name"]
        created += made
        if made or not linked_elsewhere(here[record["id"]], event_id):
            fresh.add(record["id"])
    stamp = now_ms()
    rows = []
    for link in links:
        record_id = link["person_id"]
        if record_id not in fresh and not proof_matches(link.get("proof"), event_id, link["player_id"], record_id):
            notes.append(
                f"player {link['player_id']} was not linked to {names[record_id]} ({here[record_id]}): other "
                "events here link that person and the backup does not prove their consent; link the entry "
                "with their player record code"
            )
            continue
        rows.append(
            {
                "event_id": event_id,
                "player_id": link["player_id"],
                "person_id": here[record_id],
                "created_at": link["created_at"] if link.get("created_at") is not None else stamp,
            }
        )
    if rows:
        db.session.execute(insert(RosterLink), rows)
    return created, notes, len(rows)


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


@dataclass(frozen=True)
class Restored:
    """What a restore wrote: the event, its roster links, the people it had to create, and notes on game ids
    left off a created person (see the module's docstring)."""

    event: Event
    links: int
    people_created: int
    notes: tuple[str, ...]


def restore(backup: dict[str, Any]) -> Restored:
    """Write a backup as the event it was (same id, log, devices, tokens, roster links); commits. 409 if the id
    is taken."""
    if backup.get("format") != FORMAT:
        raise _refuse(f"format: expected {FORMAT!r}, got {backup.get('format')!r}")
    event_id = backup.get("event_id")
    if not isinstance(event_id, str) or not event_id:
        raise _refuse("event_id: missing")
    meta = backup.get("event")
    if (
        not isinstance(meta, dict)
        or not isinstance(meta.get("ruleset"), str)
        or not isinstance(meta.get("head_seq"), int)
    ):
        raise _refuse("event: expected an object with ruleset and head_seq")
    _check_rows(backup)
    state = _folded(backup)  # before any write: a bad backup changes nothing
    links, people = _checked_people(backup, {p["id"] for p in state["players"]})
    begin_write()
    if db.session.get(Event, event_id) is not None:
        db.session.rollback()
        raise ApiError(409, "event-exists", f"event '{event_id}' already exists on this server; nothing was changed")
    head = meta["head_seq"]
    event = Event(
        id=event_id,
        name=meta.get("name") or state.get("name") or "",
        ruleset=meta["ruleset"],
        created_at=meta.get("created_at") or 0,
        head_seq=head,
        base_document=meta.get("base_document"),
        snapshot=dumps(state) if head >= SNAPSHOT_EVERY else None,
        snapshot_seq=head if head >= SNAPSHOT_EVERY else 0,
    )
    keep_summary(event, state)  # the name and ruleset the log has now (a backup from before rows followed them)
    db.session.add(event)
    db.session.flush()
    for table, (model, columns) in _TABLES.items():
        rows = [
            {"event_id": event_id, **{c: _DEFAULTS.get((table, c)) if row.get(c) is None else row[c] for c in columns}}
            for row in backup.get(table, [])
        ]
        if rows:
            db.session.execute(insert(model), rows)
    created, notes, linked = _relink(event_id, links, people)
    db.session.commit()
    return Restored(event, linked, created, tuple(notes))


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
    authenticate(event_id, ORGANIZER)
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
    secret = bearer()
    if secret is None:
        raise ApiError(
            401, "missing-token", "send 'Authorization: Bearer <token>': one of the backup's organizer tokens"
        )
    request.max_content_length = int(current_app.config.get("RESTORE_MAX_BYTES") or RESTORE_MAX_BYTES)
    backup = load_body(BackupSchema())
    digest = hash_secret(secret)
    if not any(
        isinstance(t, dict)
        and t.get("token_hash") == digest
        and t.get("role") == "organizer"
        and t.get("revoked_at") is None
        for t in backup.get("tokens") or []
    ):
        raise ApiError(
            403,
            "forbidden",
            "only an organizer of the backed-up event may restore it: send one of its organizer tokens",
        )
    done = restore(backup)
    event = done.event
    return respond(
        RestoreResponseSchema(),
        {
            "event_id": event.id,
            "name": event.name,
            "ruleset": event.ruleset,
            "cursor": event.head_seq,
            "operations": len(backup["operations"]),
            "links": done.links,
            "people_created": done.people_created,
            "notes": list(done.notes),
        },
        201,
    )


class _EventIdCommand(click.Command):
    """A command whose unknown option is most likely an event id that starts with '-' (made before such ids
    were no longer drawn): the error says how to pass it."""

    #: What the command's argument is, as the error names it.
    what = "An event id"

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        given = list(args)  # the parser consumes its list
        try:
            return super().parse_args(ctx, args)
        except click.NoSuchOption as exc:
            word = next((a for a in given if a.startswith(exc.option_name)), exc.option_name)
            exc.message = (  # type: ignore[misc]  # click reads it when it shows the error
                f"No such option '{exc.option_name}'. {self.what} that starts with '-' goes after '--': "
                f"{ctx.info_name} [OPTIONS] -- {word}"
            )
            raise


class _LeagueIdCommand(_EventIdCommand):
    """The same for a league id (league ids are drawn as event ids are)."""

    what = "A league id"


def init_app(app: Flask) -> None:
    from backend.startrek import league_backups

    app.register_blueprint(bp)  # league backups' blueprint: backend/startrek/__init__.py

    @app.cli.command("topcut-backup", cls=_EventIdCommand)
    @click.argument("event_id")
    @click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write here, not stdout.")
    def backup_command(event_id: str, output: str | None) -> None:
        """Write one event's backup (topcut-backup/1) as JSON.

        An EVENT_ID that starts with '-' goes after '--': topcut-backup -o event.json -- -AbC...
        """
        event = db.session.get(Event, event_id)
        if event is None:
            raise click.ClickException(f"there is no event '{event_id}'")
        text = json.dumps(backup_of(event), ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            click.echo(text)

    @app.cli.command("topcut-backup-league", cls=_LeagueIdCommand)
    @click.argument("league_id")
    @click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), help="Write here, not stdout.")
    def backup_league_command(league_id: str, output: str | None) -> None:
        """Write one league's backup (topcut-league-backup/1) as JSON.

        Its events are not in it: back them up with topcut-backup. A LEAGUE_ID that starts with '-' goes
        after '--': topcut-backup-league -o league.json -- -AbC...
        """
        league = db.session.get(League, league_id)
        if league is None:
            raise click.ClickException(f"there is no league '{league_id}'")
        text = json.dumps(league_backups.league_backup_of(league), ensure_ascii=False)
        if output:
            with open(output, "w", encoding="utf-8") as fh:
                fh.write(text)
        else:
            click.echo(text)

    @app.cli.command("topcut-restore")
    @click.argument("path", type=click.Path(exists=True, dir_okay=False))
    def restore_command(path: str) -> None:
        """Restore an event or a league from its backup file, under its own id.

        The file's format tells which: topcut-backup/1 (an event, topcut-backup) or topcut-league-backup/1
        (a league, topcut-backup-league). A league and its events may be restored in either order.
        """
        try:
            with open(path, encoding="utf-8") as fh:
                backup = json.load(fh)
        except ValueError as exc:
            raise click.ClickException(f"{path}: not JSON ({exc})") from None
        if not isinstance(backup, dict):
            raise click.ClickException(f"{path}: expected a JSON object")
        if backup.get("format") == league_backups.FORMAT:
            try:
                restored = league_backups.restore_league(backup)
            except ApiError as exc:
                raise click.ClickException(exc.message) from None
            click.echo(league_backups.restored_message(restored))
            return
        try:
            done = restore(backup)
        except ApiError as exc:
            raise click.ClickException(exc.message) from None
        event = done.event
        click.echo(
            f"restored event {event.id} ({event.name}) at cursor {event.head_seq}, {done.links} roster "
            f"link(s), {done.people_created} person(s) created"
        )
        for note in done.notes:
            click.echo(f"note: {note}")

"""WCT leagues (Star Trek OP Guide 12): a league director's league of events on this server, and its table.

There are no server-wide accounts: creating a league answers a **league director token** (shown once),
as creating an event answers an organizer token. With it the director

* changes the league (name, director, season structure, the announced number of playoff qualifiers),
* adds and removes league events: an event of this server joins a league only with proof that its
  organizer agrees, **the event's organizer token** in the request body (``organizer_token``; a league
  director who did not make the event asks its organizer to type it on the director's device, as the
  trekcc.org system asks the alternate TD to name the League Director as Secondary TD, OP Guide 12.2);
  removing needs only the director's token,
* enters and removes bonus points (OP Guide 12.5), kept out of season and lifetime totals,
* lists, adds, rotates and revokes the league's director tokens (a laptop and a tablet, a co-director, a
  league handed over mid-season, a token pasted where it should not be), as an event's organizer does with
  the event's tokens (backend/tokens.py): a rotated token works for ``TOKEN_ROTATION_GRACE_S`` more, then
  stops; the last working director token cannot be revoked (there are no accounts: the league would be
  orphaned).

The league table (``GET /api/leagues/<id>/table``) is public, like an event's public standings: it is
``shared_rules.games.startrek.leagues.league_table`` of the league document and its events' current documents, cached
per process under the league's version and the events' head sequence numbers.

A league is backed up and restored under its own id by backend/startrek/league_backups.py (``topcut-league-backup/1``:
the league row, its events' rows and its director tokens as their hashes); its events have their own backups.

Every change is checked whole by ``shared_rules.games.startrek.leagues.load_league`` before it is written: a bad
request names the field and changes nothing.
"""

from __future__ import annotations

import base64
import hmac
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, request
from marshmallow import Schema
from sqlalchemy import func, or_, select

from backend.api import load_body, respond
from backend.auth import bearer, check_live, hash_secret, keyed_mac, new_id, retire_token, token_info, valid_id
from backend.db import begin_write, db
from backend.errors import ApiError
from backend.ledger import cache_key, dumps, event_state
from backend.limits import DEFAULTS as LIMIT_DEFAULTS
from backend.limits import limiter
from backend.models import Event, League, LeagueEvent, LeagueToken, Token, now_ms
from backend.schemas import RevokeResponseSchema, TokenListSchema
from backend.startrek.schemas import (
    SPRINTS,
    AddLeagueEventSchema,
    BonusInSchema,
    CreateLeagueSchema,
    LeagueGrantSchema,
    LeagueSchema,
    LeagueTableSchema,
    LeagueTokenInSchema,
    UpdateLeagueSchema,
)
from shared_rules.errors import DocumentError, RulesError

bp = Blueprint("leagues", __name__, url_prefix="/api/leagues")

#: The rulesets a WCT league scores (OP Guide 12: First Edition, Second Edition and Tribbles events).
STAR_TREK_RULESETS = ("startrek-1e", "startrek-2e", "tribbles")
#: Events one league may hold (a full season is twelve, OP Guide 12.2; room for reruns and several seasons).
MAX_LEAGUE_EVENTS = 100
#: Bonus point entries one league may hold.
MAX_BONUS_ENTRIES = 2000
#: Working director tokens one league may hold (devices and co-directors; revoked and rotated ones not counted).
MAX_DIRECTOR_TOKENS = 50

create_league_limit = limiter.limit(
    lambda: str(current_app.config.get("CREATE_EVENT_LIMIT") or LIMIT_DEFAULTS["CREATE_EVENT_LIMIT"]),
    scope="create-league",
    error_message="too many leagues created from this address",
)


# ------------------------------------------------------------------ the director's token


@dataclass(frozen=True)
class Director:
    token_id: str
    league_id: str


def require_league(league_id: str) -> League:
    """The league of a path; 404 for an unknown one."""
    league = db.session.get(League, league_id) if valid_id(league_id) else None
    if league is None:
        raise ApiError(404, "unknown-league", f"there is no league '{league_id[:40]}'")
    return league


def authenticate_director(league_id: str) -> Director:
    """The request's league director token: 404 unknown league, 401 no/unknown/revoked token, 403 a token of
    another league or of an event (an event's organizer is not the league's director).

    The bearer, the hash and the revoked/expired checks are the event tokens' (backend/auth.py)."""
    require_league(league_id)
    secret = bearer()
    if secret is None:
        raise ApiError(401, "missing-token", "send 'Authorization: Bearer <league director token>'")
    digest = hash_secret(secret)
    row = db.session.execute(
        select(LeagueToken.id, LeagueToken.league_id, LeagueToken.revoked_at, LeagueToken.expires_at).where(
            LeagueToken.token_hash == digest
        )
    ).first()
    if row is None:
        if db.session.scalar(select(Token.id).where(Token.token_hash == digest)) is not None:
            raise ApiError(
                403, "forbidden", "this is an event's token: only the league director's token may change the league"
            )
        raise ApiError(401, "invalid-token", "this token is not valid")
    check_live(
        row.revoked_at,
        row.expires_at,
        "this director token was replaced by a new one (rotated): use the new token, "
        "or ask the league's director for one",
    )
    if row.league_id != league_id:
        raise ApiError(403, "forbidden", "this token is another league's director token")
    return Director(row.id, row.league_id)


@dataclass(frozen=True)
class LeagueOpened:
    """A league locked for a write, the director's token as checked under the lock, and the request's body."""

    league: League
    director: Director
    data: dict[str, Any]


def open_league(
    league_id: str,
    schema: Schema | None = None,
    *,
    empty: dict[str, Any] | None = None,
    before_lock: Callable[[dict[str, Any]], None] | None = None,
) -> LeagueOpened:
    """Every league write's opening (as flaskr's ``get_post``): the director's token checked before the body
    and the lock (no token, no wait for anyone), the body loaded (``empty`` stands for a missing one) and
    checked by ``before_lock``, then the league row locked and the token checked again under the lock."""
    authenticate_director(league_id)
    data: dict[str, Any] = {}
    if schema is not None:
        no_body = empty is not None and not request.is_json and not request.content_length
        data = schema.load(empty or {}) if no_body else load_body(schema)
    if before_lock is not None:
        before_lock(data)
    league, director = _lock_league_as(league_id)
    return LeagueOpened(league, director, data)


def _new_director_token(league_id: str, label: str) -> tuple[LeagueToken, str]:
    """A new director token row (added to the session) and its secret, shown once."""
    secret = "tl_" + secrets.token_urlsafe(32)
    token = LeagueToken(
        id=new_id(),
        league_id=league_id,
        token_hash=hash_secret(secret),
        role="director",
        label=label,
        created_at=now_ms(),
    )
    db.session.add(token)
    return token, secret


def _lasting(league_id: str, now: int):
    """The league's director tokens that keep working: not revoked, not rotated away, not expired."""
    return select(LeagueToken.id).where(
        LeagueToken.league_id == league_id,
        LeagueToken.revoked_at.is_(None),
        LeagueToken.replaced_by.is_(None),
        or_(LeagueToken.expires_at.is_(None), LeagueToken.expires_at > now),
    )


def _addable_event(data: dict[str, Any]) -> None:
    """A league event is a Star Trek event of this server whose organizer token the request carries."""
    event_id = data["event_id"]
    event = db.session.get(Event, event_id) if valid_id(event_id) else None
    if event is None:
        raise ApiError(404, "unknown-event", f"event_id: there is no event '{event_id[:40]}' on this server")
    _check_organizer(event_id, data["organizer_token"])
    if event.ruleset not in STAR_TREK_RULESETS:
        raise ApiError(
            422,
            "not-star-trek",
            f"event_id: '{event.name or event_id}' is a {event.ruleset} event; "
            f"WCT league events are Star Trek events ({', '.join(STAR_TREK_RULESETS)})",
        )


def _lock_league_as(league_id: str) -> tuple[League, Director]:
    """A write transaction holding the league row's lock, and the director token checked again under it."""
    begin_write()
    league = db.session.execute(select(League).where(League.id == league_id).with_for_update()).scalar_one_or_none()
    if league is None:
        db.session.rollback()
        raise ApiError(404, "unknown-league", f"there is no league '{league_id[:40]}'")
    return league, authenticate_director(league_id)


#: What a league event's proof starts with (the version of its signing).
PROOF_PREFIX = "s1."


def league_event_proof(league_id: str, event_id: str) -> str:
    """The server's signature that the event's organizer made it an event of this league (32 characters).

    Made only when an organizer token of the event is presented (``add_event``), keyed by the server's
    ``SECRET_KEY`` and bound to both ids: a league backup carries it, but no one can make one for another
    league or event without the key, so a made-up backup cannot count someone else's event.
    """
    mac = keyed_mac(b"topcut league events v1", league_id, event_id)
    return PROOF_PREFIX + base64.urlsafe_b64encode(mac).decode("ascii")[:29]


def _proved(row: LeagueEvent) -> bool:
    return hmac.compare_digest(row.proved_by.encode(), league_event_proof(row.league_id, row.event_id).encode())


def _check_organizer(event_id: str, secret: str) -> None:
    """403 unless ``secret`` is a working organizer token of the event (the organizer's consent)."""
    row = db.session.execute(
        select(Token.id, Token.event_id, Token.role, Token.revoked_at, Token.expires_at).where(
            Token.token_hash == hash_secret(secret)
        )
    ).first()
    if (
        row is None
        or row.event_id != event_id
        or row.role != "organizer"
        or row.revoked_at is not None
        or (row.expires_at is not None and row.expires_at <= now_ms())
    ):
        raise ApiError(
            403,
            "not-organizer",
            f"organizer_token: not a working organizer token of event "
            f"'{event_id}': only the event's organizer can make it a league event",
        )


# ------------------------------------------------------------------ the league document


def _stored(league: League) -> dict[str, Any]:
    return json.loads(league.document)


def _league_events(league_id: str) -> list[LeagueEvent]:
    return list(
        db.session.execute(
            select(LeagueEvent)
            .where(LeagueEvent.league_id == league_id)
            .order_by(LeagueEvent.position, LeagueEvent.event_id)
        ).scalars()
    )


def league_document(league_id: str, stored: dict[str, Any], rows: list[LeagueEvent]) -> dict[str, Any]:
    """The whole topcut-league/1 document (load_league's input): the stored part, the events and the sprints
    of the season's schedule (OP Guide 12.2) with the events the director put in each."""
    season = dict(stored.get("season") or {})
    schedule = season.get("schedule", "standard")
    sprints = [
        {"id": sid, "kind": kind, "name": name, "events": [r.event_id for r in rows if r.sprint == sid]}
        for sid, kind, name in SPRINTS.get(schedule, ())
    ]
    season["sprints"] = sprints
    return {
        **stored,
        "format": "topcut-league/1",
        "id": league_id,
        "season": season,
        "events": [row.event_id for row in rows],
    }


def _new_document(data: dict[str, Any]) -> dict[str, Any]:
    """The stored part of a new league's document from the create request."""
    stored = {
        "name": data["name"],
        "director": data["director"],
        "season": {"name": data["season"]["name"], "schedule": data["season"]["schedule"]},
        "qualification": data["qualification"],
        "bonus": [],
    }
    for key in ("lifetime", "names"):
        if data[key]:
            stored[key] = data[key]
    if data["champions_league"] is not None:
        stored["champions_league"] = data["champions_league"]
    return stored


def _updated_document(stored: dict[str, Any], data: dict[str, Any], rows: list[LeagueEvent]) -> dict[str, Any]:
    """The stored part after a change; a schedule whose sprints would lose events is refused (409)."""
    out = dict(stored)
    for key, value in data.items():
        if key == "season":
            value = {"name": value["name"], "schedule": value["schedule"]}
            sprints = {sid for sid, _, _ in SPRINTS[value["schedule"]]}
            stranded = sorted({row.sprint for row in rows if row.sprint not in sprints})
            if stranded:
                raise ApiError(
                    409,
                    "sprints-in-use",
                    f"season.schedule: a {value['schedule']} season has no "
                    f"sprint {', '.join(stranded)}; remove those sprints' events first",
                )
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _check_sprint(stored: dict[str, Any], sprint: str) -> None:
    schedule = (stored.get("season") or {}).get("schedule", "standard")
    sprints = [sid for sid, _, _ in SPRINTS.get(schedule, ())]
    if sprint not in sprints:
        raise ApiError(422, "invalid-request", f"sprint: a {schedule} season's sprints are {', '.join(sprints)}")


def _bonus_entry(bonus_id: str, data: dict[str, Any]) -> dict[str, Any]:
    entry = {"id": bonus_id, "event": data["event_id"], "person": data["person"], "points": data["points"]}
    if data["scheme"]:
        entry["scheme"] = data["scheme"]
    if data["note"]:
        entry["note"] = data["note"]
    return entry


def _check(document: dict[str, Any]) -> None:
    """Refuse a league document the rules refuse (422 naming the field); nothing is written then."""
    from shared_rules.games.startrek.leagues import load_league

    try:
        load_league(document)
    except DocumentError as exc:
        raise ApiError(422, "invalid-league", str(exc)) from None
    except RulesError as exc:
        raise ApiError(422, "invalid-league", str(exc)) from None


def _save(league: League, stored: dict[str, Any], rows: list[LeagueEvent]) -> dict[str, Any]:
    document = league_document(league.id, stored, rows)
    _check(document)
    league.document = dumps(stored)
    league.name = stored.get("name", league.name)
    league.version += 1
    return document


def _saved(league: League, stored: dict[str, Any], rows: list[LeagueEvent], status: int = 200) -> Any:
    """Check and store the league's new document, then answer the league; a refusal changes nothing."""
    try:
        _save(league, stored, rows)
    except ApiError:
        db.session.rollback()
        raise
    db.session.commit()
    return respond(LeagueSchema(), _league_body(league, rows), status)


def _events_here(rows: list[LeagueEvent]) -> tuple[dict[str, Event], set[str]]:
    """The league's events on this server whose joining is proved, and the ids of those on this server whose is not.

    Proved: ``proved_by`` is this server's signature of the league and event ids (``league_event_proof``), made
    when the event's organizer token was presented. A restored league brings its proofs back, and they hold on a
    server with the same ``SECRET_KEY``; a made-up backup cannot make one, so a claim on someone's event stays out.
    """
    ids = [row.event_id for row in rows]
    if not ids:
        return {}, set()
    events = {e.id: e for e in db.session.execute(select(Event).where(Event.id.in_(ids))).scalars()}
    counted = {row.event_id: events[row.event_id] for row in rows if row.event_id in events and _proved(row)}
    return counted, set(events) - set(counted)


def _events_of(rows: list[LeagueEvent]) -> dict[str, Event]:
    """The league's events that count here (``_events_here``)."""
    return _events_here(rows)[0]


def _event_rows(rows: list[LeagueEvent], events: dict[str, Event]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        event = events.get(row.event_id)
        out.append(
            {
                "event_id": row.event_id,
                "sprint": row.sprint,
                "present": event is not None,
                "name": event.name if event is not None else None,
                "ruleset": event.ruleset if event is not None else None,
                "cursor": event.head_seq if event is not None else None,
            }
        )
    return out


def _league_body(league: League, rows: list[LeagueEvent]) -> dict[str, Any]:
    return {
        "league_id": league.id,
        "name": league.name,
        "version": league.version,
        "document": league_document(league.id, _stored(league), rows),
        "events": _event_rows(rows, _events_of(rows)),
    }


# ------------------------------------------------------------------ the table (cached)

#: League tables one process keeps (least recently used dropped first).
TABLE_CACHE_LEAGUES = 32


class _TableCache:
    def __init__(self, size: int = TABLE_CACHE_LEAGUES) -> None:
        self._lock = threading.Lock()
        self._size = size
        self._tables: OrderedDict[str, tuple[Any, dict[str, Any]]] = OrderedDict()

    def get(self, league_id: str, key: Any) -> dict[str, Any] | None:
        with self._lock:
            found = self._tables.get(league_id)
            if found is None or found[0] != key:
                return None
            self._tables.move_to_end(league_id)
            return found[1]

    def put(self, league_id: str, key: Any, table: dict[str, Any]) -> None:
        with self._lock:
            self._tables[league_id] = (key, table)
            self._tables.move_to_end(league_id)
            while len(self._tables) > self._size:
                self._tables.popitem(last=False)

    def forget(self, league_id: str) -> None:
        with self._lock:
            self._tables.pop(league_id, None)


def _table_cache() -> _TableCache:
    return current_app.extensions.setdefault("topcut_league_tables", _TableCache())


def _event_document(event: Event) -> dict[str, Any] | None:
    """The event as a topcut-event/1 document (results only, with its ``id``), or None before round 1."""
    from shared_rules.state import to_event_document

    _, state = event_state(event)
    if state["ruleset"] is None or not state["rounds"]:
        return None
    return {**to_event_document(state, operational=False), "id": event.id}


def event_persons(event: Event) -> dict[str, str]:
    """The event's persons as the league names them (``game_id``, older documents' ``rating_id``, else the player id) -> name."""
    from shared_rules.games.startrek.ratings.games import identities
    from shared_rules.run import load_event
    from shared_rules.state import to_event_document

    _, state = event_state(event)
    if state["ruleset"] is None:
        return {}
    loaded = load_event(to_event_document(state, operational=False))
    return {person: (loaded.player(pid).name or person) for pid, person in identities(loaded).items()}


def _playable_bonus(
    bonus: list[dict[str, Any]], documents: dict[str, Any], problems: list[dict[str, str]]
) -> list[dict[str, Any]]:
    """The bonus entries whose person played the event as it stands (a player's game_id edited since the
    entry was made, or the event deleted, leaves it out: reported in ``problems``, the table still served)."""
    from shared_rules.games.startrek.ratings.games import identities

    persons = {eid: set(identities(event).values()) for eid, event in documents.items()}
    kept = []
    for entry in bonus:
        if entry.get("event") in persons and entry.get("person") not in persons[entry["event"]]:
            problems.append(
                {
                    "event_id": entry["event"],
                    "problem": f"bonus entry {entry.get('id')}: "
                    f"'{entry.get('person')}' is no longer a player of the event; left out",
                }
            )
            continue
        kept.append(entry)
    return kept


def compute_table(league: League) -> dict[str, Any]:
    """The league table of the league as it is now (cached under its version and its events' heads)."""
    from shared_rules.games.startrek.leagues import league_table, load_league

    rows = _league_events(league.id)
    events, unproved = _events_here(rows)
    key = (
        league.version,
        tuple(
            (row.event_id, row.sprint, cache_key(events[row.event_id]), events[row.event_id].head_seq)
            if row.event_id in events
            else (row.event_id, None)
            for row in rows
        ),
    )
    cached = _table_cache().get(league.id, key)
    if cached is not None:
        return cached
    from shared_rules.run import load_event

    documents: dict[str, Any] = {}
    problems: list[dict[str, str]] = []
    for row in rows:
        event = events.get(row.event_id)
        if event is None and row.event_id in unproved:
            problems.append(
                {
                    "event_id": row.event_id,
                    "problem": "no organizer of the event made it a league event on this server (its proof is "
                    "not this server's signature): it does not count until the event's organizer adds it "
                    "to the league again",
                }
            )
            continue
        if event is None:
            problems.append(
                {
                    "event_id": row.event_id,
                    "problem": "the event is not on this server (deleted, or its backup not restored yet)",
                }
            )
            continue
        try:
            document = _event_document(event)
        except (RulesError, ApiError) as exc:
            problems.append({"event_id": row.event_id, "problem": f"the event cannot be read: {exc}"})
            continue
        if document is None:
            problems.append({"event_id": row.event_id, "problem": "the event has no players or rounds yet"})
            continue
        try:
            documents[row.event_id] = load_event(document)
        except (DocumentError, RulesError) as exc:
            problems.append({"event_id": row.event_id, "problem": f"the event cannot be read: {exc}"})
    stored = _stored(league)
    stored["bonus"] = _playable_bonus(stored.get("bonus", []), documents, problems)
    try:
        table = league_table(
            load_league(league_document(league.id, stored, rows)),
            [documents[row.event_id] for row in rows if row.event_id in documents],
        )
    except (DocumentError, RulesError) as exc:
        raise ApiError(409, "league-table-unavailable", f"the league table cannot be computed: {exc}") from None
    body = {
        "league_id": league.id,
        "version": league.version,
        "table": table,
        "problems": problems,
        "events": _event_rows(rows, events),
    }
    _table_cache().put(league.id, key, body)
    return body


# ------------------------------------------------------------------ views


@bp.post("")
@create_league_limit
def create_league():
    """Create a league; returns the league director's token (shown once).
    ---
    post:
      summary: Create a WCT league (Star Trek OP Guide 12); returns the league director's token (shown once)
      requestBody:
        required: true
        content:
          application/json:
            schema: CreateLeagueSchema
      responses:
        201:
          content:
            application/json:
              schema: LeagueGrantSchema
    """
    data = load_body(CreateLeagueSchema())
    league_id = new_id(12)
    stored = _new_document(data)
    _check(league_document(league_id, stored, []))
    begin_write()
    league = League(id=league_id, name=data["name"], document=dumps(stored), created_at=now_ms(), version=1)
    db.session.add(league)
    db.session.flush()
    token, secret = _new_director_token(league_id, data["label"] or "league director")
    db.session.commit()
    return respond(
        LeagueGrantSchema(),
        {
            "league_id": league_id,
            "token": secret,
            "token_id": token.id,
            "role": "director",
            "name": league.name,
            "label": token.label,
            "server_time": now_ms(),
        },
        201,
    )


@bp.get("/<league_id>")
def get_league(league_id: str):
    """The league (director).
    ---
    get:
      summary: The league document and its events (league director token)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: LeagueSchema
    """
    authenticate_director(league_id)
    league = require_league(league_id)
    return respond(LeagueSchema(), _league_body(league, _league_events(league_id)))


@bp.patch("/<league_id>")
def update_league(league_id: str):
    """Change the league (director).
    ---
    patch:
      summary: Change the league's name, director, season structure or announced playoff qualifiers (league
        director token)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: UpdateLeagueSchema
      responses:
        200:
          content:
            application/json:
              schema: LeagueSchema
    """
    opened = open_league(league_id, UpdateLeagueSchema())
    league, data = opened.league, opened.data
    rows = _league_events(league_id)
    try:
        stored = _updated_document(_stored(league), data, rows)
    except ApiError:
        db.session.rollback()
        raise
    return _saved(league, stored, rows)


@bp.post("/<league_id>/events")
def add_event(league_id: str):
    """Flag an event of this server as a league event (director, with the event's organizer token).
    ---
    post:
      summary: Add a league event (league director token; `organizer_token` is the event's organizer token,
        the organizer's consent)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: AddLeagueEventSchema
      responses:
        201:
          content:
            application/json:
              schema: LeagueSchema
    """
    opened = open_league(league_id, AddLeagueEventSchema(), before_lock=_addable_event)
    league, data = opened.league, opened.data
    event_id = data["event_id"]
    event = db.session.get_one(Event, event_id)  # _addable_event found it
    rows = _league_events(league_id)
    try:
        _check_sprint(_stored(league), data["sprint"])
    except ApiError:
        db.session.rollback()
        raise
    proof = league_event_proof(league_id, event_id)
    unproved = next((row for row in rows if row.event_id == event_id and not _proved(row)), None)
    if unproved is not None:  # named without a proof (an old or made-up backup): the organizer consents now
        unproved.proved_by = proof
        unproved.sprint = data["sprint"]
        try:
            _save(league, _stored(league), rows)
        except ApiError:
            db.session.rollback()
            raise
        db.session.commit()
        _table_cache().forget(league_id)
        return respond(LeagueSchema(), _league_body(league, _league_events(league_id)), 201)
    if any(row.event_id == event_id for row in rows):
        db.session.rollback()
        raise ApiError(
            409, "already-in-league", f"event_id: '{event.name or event_id}' is already a league event of this league"
        )
    if len(rows) >= MAX_LEAGUE_EVENTS:
        db.session.rollback()
        raise ApiError(409, "too-many-events", f"a league holds at most {MAX_LEAGUE_EVENTS} events")
    position = (
        db.session.scalar(select(func.max(LeagueEvent.position)).where(LeagueEvent.league_id == league_id)) or 0
    ) + 1
    row = LeagueEvent(
        league_id=league_id,
        event_id=event_id,
        sprint=data["sprint"],
        position=position,
        added_at=now_ms(),
        proved_by=proof,
    )
    try:
        _save(league, _stored(league), [*rows, row])
    except ApiError:
        db.session.rollback()
        raise
    db.session.add(row)
    db.session.commit()
    return respond(LeagueSchema(), _league_body(league, _league_events(league_id)), 201)


@bp.delete("/<league_id>/events/<event_id>")
def remove_event(league_id: str, event_id: str):
    """Remove a league event (director).
    ---
    delete:
      summary: Stop counting an event in the league (league director token); its bonus points go with it
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: LeagueSchema
    """
    league = open_league(league_id).league
    rows = _league_events(league_id)
    row = next((r for r in rows if r.event_id == event_id), None)
    if row is None:
        db.session.rollback()
        raise ApiError(404, "not-in-league", f"event '{event_id[:40]}' is not an event of this league")
    stored = _stored(league)
    stored["bonus"] = [b for b in stored.get("bonus", []) if b.get("event") != event_id]
    rest = [r for r in rows if r.event_id != event_id]
    try:
        _save(league, stored, rest)
    except ApiError:
        db.session.rollback()
        raise
    db.session.delete(row)
    db.session.commit()
    return respond(LeagueSchema(), _league_body(league, rest))


@bp.post("/<league_id>/bonus")
def add_bonus(league_id: str):
    """Enter bonus points (director).
    ---
    post:
      summary: Enter bonus points for a player at a league event (league director token; OP Guide 12.5, kept
        out of season and lifetime totals)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: BonusInSchema
      responses:
        201:
          content:
            application/json:
              schema: LeagueSchema
    """
    opened = open_league(league_id, BonusInSchema())
    league, data = opened.league, opened.data
    rows = _league_events(league_id)
    stored = _stored(league)
    bonus = list(stored.get("bonus", []))
    if len(bonus) >= MAX_BONUS_ENTRIES:
        db.session.rollback()
        raise ApiError(409, "too-many-bonus-entries", f"a league holds at most {MAX_BONUS_ENTRIES} bonus entries")
    if not any(row.event_id == data["event_id"] for row in rows):
        db.session.rollback()
        raise ApiError(422, "not-in-league", f"event_id: '{data['event_id'][:40]}' is not an event of this league")
    event = db.session.get(Event, data["event_id"])
    persons = event_persons(event) if event is not None else {}
    if data["person"] not in persons:
        db.session.rollback()
        raise ApiError(
            422,
            "not-a-participant",
            f"person: '{data['person'][:60]}' did not play in event "
            f"'{data['event_id']}' (a person is the player's trekcc.org handle, else their player id)",
        )
    entry = _bonus_entry(new_id(6), data)
    stored["bonus"] = [*bonus, entry]
    return _saved(league, stored, rows, 201)


@bp.delete("/<league_id>/bonus/<bonus_id>")
def remove_bonus(league_id: str, bonus_id: str):
    """Remove a bonus entry (director).
    ---
    delete:
      summary: Remove a bonus points entry (league director token)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: LeagueSchema
    """
    league = open_league(league_id).league
    stored = _stored(league)
    bonus = stored.get("bonus", [])
    if not any(b.get("id") == bonus_id for b in bonus):
        db.session.rollback()
        raise ApiError(404, "unknown-bonus", f"there is no bonus entry '{bonus_id[:40]}' in this league")
    stored["bonus"] = [b for b in bonus if b.get("id") != bonus_id]
    rows = _league_events(league_id)
    return _saved(league, stored, rows)


@bp.get("/<league_id>/table")
def table(league_id: str):
    """The league table (public).
    ---
    get:
      summary: The league table (public) - each event's league points, season, lifetime and bonus totals kept
        apart, playoff qualification and ranking with the 12.6 tiebreakers, Champions League seeding
      responses:
        200:
          content:
            application/json:
              schema: LeagueTableSchema
    """
    league = require_league(league_id)
    return respond(LeagueTableSchema(), compute_table(league))


# ------------------------------------------------------------------ the director's tokens


def _grant(league: League, token: LeagueToken, secret: str) -> Any:
    return respond(
        LeagueGrantSchema(),
        {
            "league_id": league.id,
            "token": secret,
            "token_id": token.id,
            "role": token.role,
            "name": league.name,
            "label": token.label,
            "server_time": now_ms(),
        },
        201,
    )


@bp.get("/<league_id>/tokens")
def list_director_tokens(league_id: str):
    """List the league's director tokens.
    ---
    get:
      summary: The league's director tokens (league director token), with each one's name (label) and whether
        it made this request; secrets are never shown again
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: TokenListSchema
    """
    director = authenticate_director(league_id)
    rows = db.session.execute(
        select(LeagueToken).where(LeagueToken.league_id == league_id).order_by(LeagueToken.created_at, LeagueToken.id)
    ).scalars()
    now = now_ms()
    return respond(
        TokenListSchema(),
        {"tokens": [token_info(t, director.token_id, now) for t in rows]},
    )


@bp.post("/<league_id>/tokens")
def add_director_token(league_id: str):
    """Add a director token (director).
    ---
    post:
      summary: A new director token for another device or a co-director (league director token); the secret is
        shown once
      security: [{bearer: []}]
      requestBody:
        required: false
        content:
          application/json:
            schema: LeagueTokenInSchema
      responses:
        201:
          content:
            application/json:
              schema: LeagueGrantSchema
    """
    opened = open_league(league_id, LeagueTokenInSchema(), empty={})
    league, data = opened.league, opened.data
    working = db.session.scalar(select(func.count()).select_from(_lasting(league_id, now_ms()).subquery())) or 0
    if working >= MAX_DIRECTOR_TOKENS:
        db.session.rollback()
        raise ApiError(
            409,
            "too-many-tokens",
            f"a league holds at most {MAX_DIRECTOR_TOKENS} working director tokens: revoke one it no longer needs",
        )
    token, secret = _new_director_token(league_id, data["label"] or "league director")
    db.session.commit()
    return _grant(league, token, secret)


@bp.post("/<league_id>/tokens/rotate")
def rotate_director_token(league_id: str):
    """Rotate this device's director token.
    ---
    post:
      summary: Exchange the request's league director token for a new one (shown once); the old one works a few
        more minutes (TOKEN_ROTATION_GRACE_S), then is refused
      security: [{bearer: []}]
      responses:
        201:
          content:
            application/json:
              schema: LeagueGrantSchema
    """
    opened = open_league(league_id)
    league, director = opened.league, opened.director
    old = db.session.get_one(LeagueToken, director.token_id)
    token, secret = _new_director_token(league_id, old.label)
    db.session.flush()
    retire_token(old, token.id, now_ms())
    db.session.commit()
    return _grant(league, token, secret)


@bp.delete("/<league_id>/tokens/<token_id>")
def revoke_director_token(league_id: str, token_id: str):
    """Revoke a director token (director).
    ---
    delete:
      summary: Revoke a league director token (league director token); the league's last working director
        token cannot be revoked (409 last-director-token)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: RevokeResponseSchema
    """
    open_league(league_id)
    token = db.session.get(LeagueToken, token_id) if valid_id(token_id) else None
    if token is None or token.league_id != league_id:
        db.session.rollback()
        raise ApiError(404, "unknown-token", f"there is no director token '{token_id[:40]}' in this league")
    if token.revoked_at is None:
        others = db.session.execute(_lasting(league_id, now_ms()).where(LeagueToken.id != token.id)).first()
        if others is None and token.replaced_by is None:
            db.session.rollback()
            raise ApiError(
                409,
                "last-director-token",
                "this is the league's last working director token: add another (or rotate this one) before "
                "revoking it, or the league would have no director",
            )
        token.revoked_at = now_ms()
    db.session.commit()
    return respond(RevokeResponseSchema(), {"token_id": token_id, "revoked": True})


__all__ = ["bp", "STAR_TREK_RULESETS", "authenticate_director", "compute_table", "league_document"]

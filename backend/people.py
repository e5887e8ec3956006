"""Players across events: people (a name and the games' ids), their links from event rosters, history.

There are no server-wide accounts: every token belongs to one event. So who may see or change a person
follows from the events linking them (docs/people.md):

* search and create: staff of any event (search: ``STAFF``; create: ``LINKERS``); search answers only ids,
  names and game ids — enough to pick the right person at registration, no history;
* link or unlink a roster entry of an event to a person: that event's ``LINKERS`` (organizer, head judge,
  scorekeeper), or the entry's own player; linking to a person another event links needs their consent
  (backend/consent.py: their player record code, or a token of an event they played in). The server also
  links by itself when a ``player.register`` carries a game id exactly one person holds, a person no event
  links yet (backend/roster_links.py);
* a person's history: the player (a player token whose entry is linked to the person), and staff of an event
  linking the person; nobody else;
* merge a duplicate into another person: an organizer of an event linking both.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from flask import Blueprint, current_app, redirect, request, url_for
from sqlalchemy import func, or_, select, update

from backend.api import load_args, load_body, respond
from backend.auth import ORGANIZER, STAFF, Principal, authenticate, hash_secret, new_id
from backend.consent import code_matches, linked_elsewhere, person_code, vouched
from backend.db import begin_write, changed, db
from backend.errors import ApiError
from backend.ledger import event_state, lock_event
from backend.limits import by_token, limiter, wrong_code
from backend.models import Event, Person, RosterLink, Token, now_ms
from backend.resources import open_event
from backend.schemas.people import (
    EventPeopleSchema,
    LinkRequestSchema,
    LinkSchema,
    MergeRequestSchema,
    MergeResponseSchema,
    PeopleListSchema,
    PeopleQuerySchema,
    PersonHistorySchema,
    PersonInSchema,
    PersonSchema,
    UnlinkSchema,
)
from backend.startrek.ratings import RATED_RULESETS, event_date, game_ratings, person_key
from shared_rules.state.roles import holders

__all__ = ["bp", "LINKERS", "name_key"]

bp = Blueprint("people", __name__, url_prefix="/api")

#: Roles that create people and link their event's roster entries to them (as for claim codes).
LINKERS = holders("link-people")  # the shared role table (shared_rules/state/roles.py)
#: Search answers at most this many people.
SEARCH_LIMIT = 20
#: Searches per token (``PEOPLE_SEARCH_LIMIT`` in the config): a registration desk types a few per player;
#: walking the whole list of people two letters at a time takes far more.
SEARCH_RATE = "60 per minute"
search_limit = limiter.limit(
    lambda: str(current_app.config.get("PEOPLE_SEARCH_LIMIT") or SEARCH_RATE),
    key_func=by_token,
    scope="people-search",
    error_message="too many searches from this token",
)


def name_key(text: str) -> str:
    """A name as search compares it: no accents, no case, single spaces.

    >>> name_key("  Zoë   LÓPEZ ")
    'zoe lopez'
    """
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def _caller(roles: frozenset[str] | set[str]) -> Principal:
    """The request's token, whatever its event: 401 if missing, unknown, revoked or expired; 403 for a role
    not in ``roles``."""
    header = request.headers.get("Authorization", "")
    scheme, _, secret = header.partition(" ")
    if scheme.lower() != "bearer" or not secret.strip():
        raise ApiError(401, "missing-token", "send 'Authorization: Bearer <token>'")
    row = db.session.execute(
        select(Token.id, Token.event_id, Token.role, Token.player, Token.revoked_at, Token.expires_at).where(
            Token.token_hash == hash_secret(secret.strip())
        )
    ).first()
    if row is None:
        raise ApiError(401, "invalid-token", "this token is not valid")
    if row.revoked_at is not None:
        raise ApiError(401, "token-revoked", "this token was revoked")
    if row.expires_at is not None and row.expires_at <= now_ms():
        raise ApiError(401, "token-expired", "this device's access expired: join the event again with a new code")
    if row.role not in roles:
        raise ApiError(403, "forbidden", f"a {row.role} may not do this (allowed: {', '.join(sorted(roles))})")
    return Principal(row.id, row.event_id, row.role, row.player, row.expires_at)


def new_person(person_id: str, data: dict[str, Any], created_at: int) -> Person:
    """A person row from checked input (``PersonInSchema``): the name's spaces tidied, its search key made."""
    return Person(
        id=person_id,
        name=" ".join(data["name"].split()),
        name_key=name_key(data["name"]),
        pokemon_id=data["pokemon_id"],
        birth_year=data["birth_year"],
        trekcc_handle=data["trekcc_handle"].strip() if data["trekcc_handle"] else None,
        trekcc_id=data["trekcc_id"],
        other_ids=json.dumps(data["other_ids"], sort_keys=True),
        created_at=created_at,
    )


def person_json(person: Person, birth_year: bool = True) -> dict[str, Any]:
    """A person's record as the API shows it: name and game ids (the birth year only when asked)."""
    try:
        other = json.loads(person.other_ids or "{}")
    except ValueError:
        other = {}
    return {
        "id": person.id,
        "name": person.name,
        "pokemon_id": person.pokemon_id,
        "birth_year": person.birth_year if birth_year else None,
        "trekcc_handle": person.trekcc_handle,
        "trekcc_id": person.trekcc_id,
        "other_ids": other if isinstance(other, dict) else {},
    }


def surviving(person: Person | None) -> Person | None:
    """The person itself, or (a merged duplicate) the one it was merged into, along a chain of merges."""
    for _ in range(32):
        if person is None or person.merged_into is None:
            break
        person = db.session.get(Person, person.merged_into)
    return person


def _find(person_id: str, field: str = "person") -> Person:
    """The person named ``person_id`` (a merged duplicate: the one it was merged into); 404 if none."""
    person = surviving(db.session.get(Person, person_id) if len(person_id) <= 32 else None)
    if person is None:
        raise ApiError(404, "unknown-person", f"{field}: there is no person '{person_id[:40]}'")
    return person


# ------------------------------------------------------------------ search and create


@bp.get("/people")
@search_limit
def search_people():
    """Find people by name or game id.
    ---
    get:
      summary: People whose name contains the query, or whose Play! Pokémon ID, trekcc.org member id or handle
        is the query (staff of any event; at most 20; ids, names and game ids only, no history)
      description: >-
        For registration: pick the returning player. The birth year is answered only when the query is the
        person's Play! Pokémon ID (the card shows both). Merged duplicates are not listed.
      security: [{bearer: []}]
      parameters:
      - in: query
        schema: PeopleQuerySchema
      responses:
        200:
          content:
            application/json:
              schema: PeopleListSchema
    """
    _caller(STAFF)
    query = load_args(PeopleQuerySchema())["q"].strip()
    key = name_key(query)
    pattern = "%" + key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    rows = db.session.execute(
        select(Person)
        .where(
            Person.merged_into.is_(None),
            or_(
                Person.name_key.like(pattern, escape="\\"),
                Person.pokemon_id == query,
                Person.trekcc_id == query,
                func.lower(Person.trekcc_handle) == query.lower(),
            ),
        )
        .order_by(Person.name_key, Person.created_at, Person.id)
        .limit(SEARCH_LIMIT)
    ).scalars()
    people = [person_json(p, birth_year=p.pokemon_id == query) for p in rows]
    return respond(PeopleListSchema(), {"people": people})


def _duplicate(data: dict[str, Any]) -> None:
    """Refuse a new person holding a game id someone already holds (409, naming the field and who)."""
    for field, column in (("pokemon_id", Person.pokemon_id), ("trekcc_id", Person.trekcc_id)):
        if data.get(field) is None:
            continue
        other = db.session.execute(
            select(Person).where(Person.merged_into.is_(None), column == data[field]).limit(1)
        ).scalar_one_or_none()
        if other is not None:
            raise ApiError(
                409,
                "duplicate-id",
                f"{field}: {data[field]} is already the id of {other.name} ({other.id}); link that person instead",
                person=other.id,
            )


@bp.post("/people")
def create_person():
    """Create a person.
    ---
    post:
      summary: A new person with a name and the game ids known (organizer, head judge or scorekeeper of any
        event); a Play! Pokémon ID or trekcc.org member id someone already holds is refused (409 duplicate-id,
        with that person's id)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: PersonInSchema
      responses:
        201:
          content:
            application/json:
              schema: PersonSchema
    """
    _caller(LINKERS)
    data = load_body(PersonInSchema())
    begin_write()
    _duplicate(data)
    person = new_person(new_id(12), data, now_ms())
    db.session.add(person)
    db.session.commit()
    return respond(PersonSchema(), person_json(person), 201)


# ------------------------------------------------------------------ an event's links


def _roster_names(event: Event) -> dict[str, str]:
    _, state = event_state(event)
    return {p["id"]: p["name"] for p in state["players"]}


@bp.get("/events/<event_id>/people")
def event_people(event_id: str):
    """The event's roster entries linked to people.
    ---
    get:
      summary: Which roster entries of the event are linked to which person (staff of the event)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: EventPeopleSchema
    """
    authenticate(event_id, STAFF)
    event = db.session.get_one(Event, event_id)
    names = _roster_names(event)
    rows = db.session.execute(
        select(RosterLink.player_id, Person)
        .join(Person, Person.id == RosterLink.person_id)
        .where(RosterLink.event_id == event_id)
        .order_by(RosterLink.id)
    ).all()
    links = [
        {"event_id": event_id, "player": pid, "name": names.get(pid, pid), "person": person_json(person)}
        for pid, person in rows
        if pid in names
    ]
    return respond(EventPeopleSchema(), {"event_id": event_id, "links": links})


@bp.put("/events/<event_id>/players/<player_id>/person")
def link_player(event_id: str, player_id: str):
    """Link a roster entry to a person.
    ---
    put:
      summary: Link the event's roster entry to a person (organizer, head judge, scorekeeper of the event, or
        the entry's own player); linking again moves the link; a person is linked to one entry per event (409
        person-linked); a person another event links needs their consent (`code`, or one of `proof_tokens`;
        403 consent-needed)
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: LinkRequestSchema
      responses:
        200:
          content:
            application/json:
              schema: LinkSchema
    """
    _linker(event_id, player_id)  # before the body and the lock
    data = load_body(LinkRequestSchema())
    event = lock_event(event_id)
    _linker(event_id, player_id)
    names = _roster_names(event)
    if player_id not in names:
        raise ApiError(404, "unknown-player", f"player: there is no player '{player_id[:40]}' in this event")
    person = _find(data["person"])
    _check_consent(person, event_id, player_id, data)
    other = db.session.execute(
        select(RosterLink.player_id)
        .where(RosterLink.event_id == event_id, RosterLink.person_id == person.id, RosterLink.player_id != player_id)
        .limit(1)
    ).scalar_one_or_none()
    if other is not None:
        raise ApiError(
            409,
            "person-linked",
            f"person: {person.name} is already linked to "
            f"{names.get(other, other)} in this event; unlink that entry first",
        )
    link = db.session.execute(
        select(RosterLink).where(RosterLink.event_id == event_id, RosterLink.player_id == player_id)
    ).scalar_one_or_none()
    if link is None:
        db.session.add(RosterLink(event_id=event_id, player_id=player_id, person_id=person.id, created_at=now_ms()))
    else:
        link.person_id = person.id
    db.session.commit()
    return respond(
        LinkSchema(),
        {"event_id": event_id, "player": player_id, "name": names[player_id], "person": person_json(person)},
    )


def _linker(event_id: str, player_id: str) -> Principal:
    """Who may link an entry: the event's ``LINKERS``, or the entry's own player (their phone, with a proof)."""
    principal = authenticate(event_id, LINKERS | {"player"})
    if principal.role == "player" and principal.player != player_id:
        raise ApiError(403, "forbidden", "a player may link only their own entry to their player record")
    return principal


def _check_consent(person: Person, event_id: str, player_id: str, data: dict[str, Any]) -> None:
    """403 ``consent-needed`` unless the person agrees to the link (backend/consent.py); a wrong code counts
    as a wrong code from this address (429 past the limit)."""
    if not linked_elsewhere(person.id, event_id):
        return  # no other event links them: the link shows nobody any history
    if data["code"]:
        if code_matches(person.id, data["code"]):
            return
        db.session.rollback()
        limited = wrong_code()
        if limited is not None:
            raise ApiError(
                429,
                "rate-limited",
                f"too many wrong codes from this address ({limited[0]}); try again in {limited[1]} s",
                retry_after_s=limited[1],
            )
        raise ApiError(
            403,
            "wrong-person-code",
            f"This is not {person.name}'s player record code: check it on their phone (My history) letter by letter",
        )
    if vouched(person.id, event_id, data["proof_tokens"]):
        return
    raise ApiError(
        403,
        "consent-needed",
        f"{person.name} has played in other events: to link this entry to their record, enter their player "
        "record code (on their phone, under My history), or link it from a device of an organizer of an event "
        "they played in",
    )


@bp.delete("/events/<event_id>/players/<player_id>/person")
def unlink_player(event_id: str, player_id: str):
    """Unlink a roster entry from its person.
    ---
    delete:
      summary: The roster entry is linked to nobody any more (organizer, head judge, scorekeeper of the event)
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: UnlinkSchema
    """
    event = open_event(event_id, LINKERS).event
    if player_id not in _roster_names(event):
        raise ApiError(404, "unknown-player", f"player: there is no player '{player_id[:40]}' in this event")
    link = db.session.execute(
        select(RosterLink).where(RosterLink.event_id == event_id, RosterLink.player_id == player_id)
    ).scalar_one_or_none()
    if link is not None:
        db.session.delete(link)
    db.session.commit()
    return respond(UnlinkSchema(), {"event_id": event_id, "player": player_id, "unlinked": link is not None})


# ------------------------------------------------------------------ history


def _standing(state: dict[str, Any], player_id: str) -> dict[str, Any] | None:
    from backend.public import _standings

    rows, _ = _standings(state)
    return next((row for row in rows if row.get("player") == player_id), None)


def history_of(person: Person) -> dict[str, Any]:
    """The person's events (oldest first) with their place, record and Star Trek rating changes."""
    rows = db.session.execute(
        select(RosterLink.player_id, Event)
        .join(Event, Event.id == RosterLink.event_id)
        .where(RosterLink.person_id == person.id)
    ).all()
    entries, games, rated_events = [], set(), set()
    for player_id, event in sorted(rows, key=lambda row: (row[1].created_at, row[1].id, row[0])):
        _, state = event_state(event)
        player = next((p for p in state["players"] if p["id"] == player_id), None)
        if player is None:
            continue
        ruleset = state["ruleset"] or event.ruleset
        row = _standing(state, player_id)
        entry = {
            "event_id": event.id,
            "name": state["name"] or event.name,
            "date": event_date(state, event.created_at),
            "ruleset": ruleset,
            "player": player_id,
            "player_name": player["name"],
            "players": len(state["players"]),
            "place": row.get("rank") if row else None,
            "division": row.get("division") if row else None,
            "record": row.get("record") if row else None,
            "points": row.get("points") if row else None,
            "dropped": player.get("dropped_after") is not None,
            "rating": None,
        }
        if ruleset in RATED_RULESETS and event.id not in rated_events:  # two entries of one person (merged):
            rated_events.add(event.id)  # the rating is the first one's
            games.add(ruleset)
            entry["rating"] = game_ratings(ruleset)["events"].get(event.id, {}).get(person_key(person.id))
        entries.append(entry)
    entries.sort(key=lambda e: e["date"])  # stable: events of one day stay in the order they were made
    ratings = {}
    for game in sorted(games):
        totals = game_ratings(game)["ratings"].get(person_key(person.id))
        if totals is not None:
            ratings[game] = totals
    merged = db.session.execute(select(Person.id).where(Person.merged_into == person.id).order_by(Person.id)).scalars()
    return {"person": person_json(person), "merged": list(merged), "events": entries, "ratings": ratings}


def _may_see(principal: Principal, person: Person) -> bool:
    """A player sees their own person; staff see the people their event links."""
    query = select(RosterLink.id).where(RosterLink.event_id == principal.event_id, RosterLink.person_id == person.id)
    if principal.role == "player":
        query = query.where(RosterLink.player_id == principal.player)
    return db.session.execute(query.limit(1)).first() is not None


@bp.get("/people/me")
def my_history():
    """The calling player's own history.
    ---
    get:
      summary: The history of the person the calling player's roster entry is linked to (player tokens);
        404 not-linked while it is linked to nobody
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: PersonHistorySchema
    """
    principal = _caller({"player"})
    person_id = db.session.execute(
        select(RosterLink.person_id).where(
            RosterLink.event_id == principal.event_id, RosterLink.player_id == principal.player
        )
    ).scalar_one_or_none()
    if person_id is None:
        raise ApiError(
            404, "not-linked", "your entry in this event is not linked to a player record yet; ask the organizer"
        )
    person = _find(person_id)
    return respond(PersonHistorySchema(), {**history_of(person), "link_code": person_code(person.id)})


@bp.get("/people/<person_id>")
def person_history(person_id: str):
    """A person's history.
    ---
    get:
      summary: A person's game ids and events (name, date, ruleset, place, record; Star Trek rating and its
        change per event), for the player themselves and staff of an event linking them
      description: >-
        A merged duplicate's id answers 308 with the surviving person's address in Location. Anyone else:
        403 not-your-person.
      security: [{bearer: []}]
      responses:
        200:
          content:
            application/json:
              schema: PersonHistorySchema
        308:
          description: merged into another person (Location)
    """
    principal = _caller(STAFF | {"player"})
    person = _find(person_id)
    if person.id != person_id:
        response = redirect(url_for("people.person_history", person_id=person.id), 308)
        response.headers["X-Merged-Into"] = person.id
        return response
    if not _may_see(principal, person):
        raise ApiError(
            403, "not-your-person", "only the player and staff of an event they played see a person's history"
        )
    body = history_of(person)
    if principal.role == "player":  # the person themselves: their code to consent to a new link
        body["link_code"] = person_code(person.id)
    return respond(PersonHistorySchema(), body)


@bp.post("/people/<person_id>/merge")
def merge_person(person_id: str):
    """Merge a duplicate into another person.
    ---
    post:
      summary: Merge this person (a duplicate) into `into`, keeping both histories (an organizer of an event
        linking both); the duplicate's id then redirects to `into`
      description: >-
        The duplicate's roster links move to `into`; `into` keeps its name and game ids and takes the
        duplicate's where it has none.
      security: [{bearer: []}]
      requestBody:
        required: true
        content:
          application/json:
            schema: MergeRequestSchema
      responses:
        200:
          content:
            application/json:
              schema: MergeResponseSchema
    """
    principal = _caller(ORGANIZER)
    data = load_body(MergeRequestSchema())
    begin_write()
    principal = _caller(ORGANIZER)  # still valid inside the write transaction
    source = db.session.get(Person, person_id) if len(person_id) <= 32 else None
    if source is None:
        raise ApiError(404, "unknown-person", f"there is no person '{person_id[:40]}'")
    if source.merged_into is not None:
        raise ApiError(
            409, "already-merged", f"{source.name} ({source.id}) was already merged into {source.merged_into}"
        )
    target = _find(data["into"], "into")
    if target.id == source.id:
        raise ApiError(422, "merge-into-itself", "into: a person cannot be merged into itself")
    linked = set(
        db.session.execute(
            select(RosterLink.person_id).where(
                RosterLink.event_id == principal.event_id, RosterLink.person_id.in_([source.id, target.id])
            )
        ).scalars()
    )
    if linked != {source.id, target.id}:
        raise ApiError(
            403,
            "not-linked-here",
            "only an organizer of an event linking both people may merge them "
            "(link each to a roster entry of your event first)",
        )
    moved = changed(update(RosterLink).where(RosterLink.person_id == source.id).values(person_id=target.id))
    for field in ("pokemon_id", "birth_year", "trekcc_handle", "trekcc_id"):
        if getattr(target, field) is None and getattr(source, field) is not None:
            setattr(target, field, getattr(source, field))
    other = {**json.loads(source.other_ids or "{}"), **json.loads(target.other_ids or "{}")}
    target.other_ids = json.dumps(other, sort_keys=True)
    source.merged_into = target.id
    db.session.execute(
        update(Person).where(Person.merged_into == source.id, Person.id != source.id).values(merged_into=target.id)
    )  # earlier duplicates of the duplicate
    body = {"merged": source.id, "person": person_json(target), "links_moved": moved}
    db.session.commit()
    return respond(MergeResponseSchema(), body)

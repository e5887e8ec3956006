"""Star Trek ratings on the server: recomputed from every rated event it holds (Star Trek OP Guide 8, 11).

``shared_rules.games.startrek.ratings.compute_ratings`` does the arithmetic; this module picks the events and says who is
who. Every Star Trek event of a game whose ``settings.rating`` makes it rated counts, oldest first (its
``settings.rating.date``, else ``settings.date``, else the day it was made). A roster entry linked to a person
is rated as ``person:<id>``; an entry not linked but carrying its trekcc.org handle (``game_id``, older documents'
``rating_id``) as ``rating:<handle>``; any other
entry only within its event. The result is cached per process until an event of the game or a link changes.
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, current_app
from sqlalchemy import select

from backend.api import load_args, respond
from backend.db import db
from backend.errors import ApiError
from backend.models import Event, Person, RosterLink
from backend.startrek.schemas import RatingsListSchema, RatingsQuerySchema
from shared_rules.errors import RulesError
from shared_rules.event.model import GAME_ID_FIELDS, game_id_in
from shared_rules.games.startrek.ratings import compute_ratings, rating_of
from shared_rules.games.startrek.ratings.rules import RULESETS as RATED_RULESETS
from shared_rules.run import load_event
from shared_rules.state import to_event_document

__all__ = ["bp", "RATED_RULESETS", "event_date", "game_ratings", "person_key"]

bp = Blueprint("ratings", __name__, url_prefix="/api")

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")


def event_date(state: dict[str, Any], created_at: int) -> str:
    """The event's day: ``settings.date``, ``settings.rating.date``, else the day it was made (UTC).

    >>> event_date({"settings": {"rating": {"date": "2026-05-02"}}}, 0)
    '2026-05-02'
    >>> event_date({"settings": {}}, 86_400_000)
    '1970-01-02'
    """
    settings = state.get("settings") or {}
    rating = settings.get("rating")
    for value in (settings.get("date"), rating.get("date") if isinstance(rating, dict) else None):
        if isinstance(value, str) and _DATE.match(value):
            return value
    return datetime.fromtimestamp(created_at / 1000, tz=UTC).strftime("%Y-%m-%d")


def person_key(person_id: str) -> str:
    """A linked entry's rating identity."""
    return f"person:{person_id}"


def _identities(event_id: str, players: list[dict[str, Any]], links: dict[str, str]) -> list[str]:
    """Each document player's rating identity, unique within the event (see the module's docstring)."""
    out, seen = [], set()
    for p in players:
        rid = None
        if p["id"] in links:
            rid = person_key(links[p["id"]])
        elif game_id_in(p) is not None:  # the trekcc.org handle (players[].game_id; older documents: rating_id)
            rid = f"rating:{game_id_in(p)}"
        if rid is None or rid in seen:  # a person entered twice in one event (merged since) counts once
            rid = f"entry:{event_id}/{p['id']}"
        seen.add(rid)
        out.append(rid)
    return out


_lock = threading.Lock()


def game_ratings(ruleset: str) -> dict[str, Any]:
    """``{"ratings": identity -> totals, "events": event id -> identity -> change}`` for one Star Trek game."""
    from backend.ledger import event_state  # the ledger imports the push hooks; import it late

    rows = (
        db.session.execute(select(Event).where(Event.ruleset.in_(RATED_RULESETS)).order_by(Event.created_at, Event.id))
        .scalars()
        .all()
    )
    ids = [e.id for e in rows]
    links: dict[str, dict[str, str]] = {}
    if ids:
        for link in db.session.execute(
            select(RosterLink.event_id, RosterLink.player_id, RosterLink.person_id).where(RosterLink.event_id.in_(ids))
        ):
            links.setdefault(link.event_id, {})[link.player_id] = link.person_id
    signature = (
        ruleset,
        tuple((e.id, e.created_at, e.head_seq) for e in rows),
        tuple(sorted((eid, tuple(sorted(m.items()))) for eid, m in links.items())),
    )
    cache = current_app.extensions.setdefault("topcut_ratings", {})
    with _lock:
        hit = cache.get(ruleset)
    if hit is not None and hit[0] == signature:
        return hit[1]
    rated: list[tuple[tuple[str, int, str], Any]] = []
    for event in rows:
        _, state = event_state(event)
        if state["ruleset"] != ruleset:
            continue
        try:
            document = to_event_document(state, operational=False)
            for player, rid in zip(
                document["players"], _identities(event.id, document["players"], links.get(event.id, {}))
            ):
                for older in GAME_ID_FIELDS:  # the engine's identity is the first of these fields
                    player.pop(older, None)
                player["game_id"] = rid
            loaded = load_event(document)
            if not rating_of(loaded).rated:
                continue
        except (RulesError, ValueError, KeyError, TypeError):  # not a rated event, or a bad settings.rating
            continue
        rated.append(((event_date(state, event.created_at), event.created_at, event.id), loaded))
    rated.sort(key=lambda pair: pair[0])
    try:
        result = compute_ratings([loaded for _, loaded in rated], labels=[key[2] for key, _ in rated])
    except RulesError as exc:
        raise ApiError(409, "ratings-unavailable", f"the ratings cannot be computed: {exc}") from None
    out = {
        "ratings": result["ratings"].get(ruleset, {}),
        "events": {row["event"]: row.get("changes", {}) for row in result["events"]},
    }
    with _lock:
        cache[ruleset] = (signature, out)
    return out


@bp.get("/ratings")
def ratings_list():
    """A Star Trek game's ratings.
    ---
    get:
      summary: Every person's Star Trek ratings in one game, best overall first (public, like trekcc.org's
        ratings list; names and ratings only)
      description: >-
        Recomputed from every rated event on the server (settings.rating), oldest first; only people with a
        player record who played a rated game are listed (Star Trek OP Guide 8, 11).
      parameters:
      - in: query
        schema: RatingsQuerySchema
      responses:
        200:
          content:
            application/json:
              schema: RatingsListSchema
    """
    game = load_args(RatingsQuerySchema())["game"]
    totals = game_ratings(game)["ratings"]
    ids = [rid.partition(":")[2] for rid in totals if rid.startswith("person:")]
    names = dict(db.session.execute(select(Person.id, Person.name).where(Person.id.in_(ids))).all()) if ids else {}
    rows = [
        {"name": names[pid], **{k: totals[person_key(pid)][k] for k in ("constructed", "sealed", "overall", "games")}}
        for pid in ids
        if pid in names and totals[person_key(pid)]["games"]
    ]
    rows.sort(key=lambda r: (-r["overall"], r["name"].casefold()))
    return respond(RatingsListSchema(), {"game": game, "ratings": rows})

"""Public, read-only views: pairings and standings (no token).

Standings are the published ones (shared_rules/state/published.py): after the last round whose results are
all in, never partial standings from a round in play; ``standings_after`` names that round.

Every phone on the public page asks again every 15 s; at 2,000 players an answer takes about a second to
make (the standings and the rounds' JSON), so each answer is kept, per event and log position, until the
log moves on (``_answer``): the hall's phones between two changes cost one answer's making.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from marshmallow import Schema

from backend.api import respond
from backend.auth import require_event
from backend.ledger import event_state
from backend.ledger.log import cache_key
from backend.models import Event
from backend.schemas import PairingsSchema, PublicSchema, PublishedListsSchema, StandingsSchema
from shared_rules.decklists import published_players
from shared_rules.errors import RulesError
from shared_rules.games import get_ruleset
from shared_rules.run import load_event, standings_json
from shared_rules.standings import reported_labels
from shared_rules.state import to_event_document
from shared_rules.state.published import published_round, published_state, unpublished_note

bp = Blueprint("public", __name__, url_prefix="/api/events")

_ANSWERS = "topcut_public_answers"
_KEPT = 64  # answers kept per process (a few endpoints of the events being played)
_lock = threading.Lock()


def _answer(event: Event, seq: int, endpoint: str, schema: Schema, make: Callable[[], dict[str, Any]]) -> Response:
    """The endpoint's JSON answer at log position ``seq``: made once, then served as kept until the log moves."""
    key = (cache_key(event), endpoint)
    with _lock:
        kept: OrderedDict[tuple[str, str], tuple[int, bytes]] = current_app.extensions.setdefault(
            _ANSWERS, OrderedDict()
        )
        hit = kept.get(key)
    if hit is None or hit[0] != seq:
        hit = (seq, jsonify(schema.dump(make())).get_data())
        with _lock:
            kept[key] = hit
            kept.move_to_end(key)
            while len(kept) > _KEPT:
                kept.popitem(last=False)
    return current_app.response_class(hit[1], mimetype="application/json")


def _pairings(event: Event, seq: int, state: dict[str, Any]) -> dict[str, Any]:
    names = {p["id"]: p["name"] for p in state["players"]}
    rounds = []
    for rnd in state["rounds"]:
        if rnd["status"] == "draft":
            continue  # drafted pairings are not posted yet
        rounds.append(
            {
                "number": rnd["number"],
                "stage": rnd["stage"],
                "status": rnd["status"],
                "matches": [
                    {
                        "table": m["table"],
                        "players": [{"id": pid, "name": names.get(pid, pid)} for pid in m["players"]],
                        "status": m["status"],
                        "outcomes": m["outcomes"],
                    }
                    for m in rnd["matches"]
                ],
            }
        )
    body = {
        "event_id": event.id,
        "name": state["name"],
        "ruleset": state["ruleset"] or event.ruleset,
        "cursor": seq,
        "rounds": rounds,
    }
    return body


def _standings(state: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
    """The published standings (after the last complete round), or why there are none."""
    if state["ruleset"] is None or not state["rounds"]:
        return [], "no rounds yet"
    if published_round(state) is None:  # not yet, under the organizer's standings policy
        return [], unpublished_note(state)
    try:
        document = to_event_document(published_state(state), operational=False)
        return standings_json(load_event(document))["standings"], None
    except RulesError as exc:
        return [], f"standings unavailable: {exc}"
    except Exception as exc:  # a bug in the standings code must not break the public page
        current_app.logger.exception("standings failed")
        return [], f"standings unavailable ({type(exc).__name__})"


def _tiebreaker_labels(state: dict[str, Any], names: list[str]) -> dict[str, str]:
    """Headings for the standings' tiebreaker names, as the ruleset's document names them."""
    try:
        reported = get_ruleset(state["ruleset"], state["settings"]).reported if state["ruleset"] else ()
    except RulesError:
        reported = ()
    return reported_labels(reported, names)


def _tiebreaker_order(rows: list[dict[str, Any]]) -> list[str]:
    """The ruleset's tiebreakers in the document's order (JSON objects are sent with sorted keys)."""
    return list(rows[0].get("tiebreakers") or {}) if rows else []


@bp.get("/<event_id>/public")
def public(event_id: str):
    """Pairings and standings.
    ---
    get:
      summary: Posted pairings, results and standings (public)
      responses:
        200:
          content:
            application/json:
              schema: PublicSchema
    """
    event = require_event(event_id)
    seq, state = event_state(event)

    def make() -> dict[str, Any]:
        body = _pairings(event, seq, state)
        body["standings"], body["note"] = _standings(state)
        body["standings_after"] = published_round(state)
        body["tiebreakers"] = _tiebreaker_order(body["standings"])
        body["tiebreaker_labels"] = _tiebreaker_labels(state, body["tiebreakers"])
        return body

    return _answer(event, seq, "public", PublicSchema(), make)


@bp.get("/<event_id>/pairings")
def pairings(event_id: str):
    """Pairings.
    ---
    get:
      summary: Posted pairings and results (public)
      responses:
        200:
          content:
            application/json:
              schema: PairingsSchema
    """
    event = require_event(event_id)
    seq, state = event_state(event)
    return _answer(event, seq, "pairings", PairingsSchema(), lambda: _pairings(event, seq, state))


@bp.get("/<event_id>/standings")
def standings(event_id: str):
    """Standings.
    ---
    get:
      summary: Current standings (public)
      responses:
        200:
          content:
            application/json:
              schema: StandingsSchema
    """
    event = require_event(event_id)
    seq, state = event_state(event)

    def make() -> dict[str, Any]:
        rows, note = _standings(state)
        return {
            "event_id": event.id,
            "cursor": seq,
            "standings": rows,
            "tiebreakers": _tiebreaker_order(rows),
            "note": note,
            "standings_after": published_round(state),
        }

    return _answer(event, seq, "standings", StandingsSchema(), make)


@bp.get("/<event_id>/decklists")
def published_lists(event_id: str):
    """Published deck lists.
    ---
    get:
      summary: The deck lists the organizer publishes once the event is over (public; none before)
      responses:
        200:
          content:
            application/json:
              schema: PublishedListsSchema
    """
    event = require_event(event_id)
    _, state = event_state(event)
    ranking = [row["player"] for row in _standings(state)[0] if isinstance(row.get("player"), str)]
    ranking += [p["id"] for p in state["players"] if p["id"] not in ranking]
    ids, note = published_players(state["settings"], state["closed"], state["rounds"], ranking)
    names = {p["id"]: p["name"] for p in state["players"]}
    lists = [
        {"player": pid, "name": names.get(pid, pid), "sections": state["decklists"][pid]["sections"]}
        for pid in ids
        if pid in state["decklists"]
    ]
    body = {"event_id": event.id, "name": state["name"], "ruleset": state["ruleset"] or event.ruleset}
    return respond(PublishedListsSchema(), {**body, "lists": lists, "note": note})

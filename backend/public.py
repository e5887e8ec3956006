"""Public, read-only views: pairings and standings (no token).

Standings are the published ones (shared_rules/state/published.py): after the last round whose results are
all in, never partial standings from a round in play; ``standings_after`` names that round.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from backend.api import respond
from backend.auth import require_event
from backend.ledger import event_state
from backend.schemas import PairingsSchema, PublicSchema, StandingsSchema
from shared_rules.errors import RulesError
from shared_rules.games import get_ruleset
from shared_rules.run import load_event, standings_json
from shared_rules.standings import reported_labels
from shared_rules.state import to_event_document
from shared_rules.state.published import published_round, published_state

bp = Blueprint("public", __name__, url_prefix="/api/events")


def _pairings(event_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    event = require_event(event_id)
    seq, state = event_state(event)
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
    return body, state


def _standings(state: dict[str, Any]) -> tuple[list[dict[str, Any]], str | None]:
    """The published standings (after the last complete round), or why there are none."""
    if state["ruleset"] is None or not state["rounds"]:
        return [], "no rounds yet"
    if published_round(state) is None:
        return [], "standings are posted once round 1's results are all in"
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
    body, state = _pairings(event_id)
    body["standings"], body["note"] = _standings(state)
    body["standings_after"] = published_round(state)
    body["tiebreakers"] = _tiebreaker_order(body["standings"])
    body["tiebreaker_labels"] = _tiebreaker_labels(state, body["tiebreakers"])
    return respond(PublicSchema(), body)


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
    body, _ = _pairings(event_id)
    return respond(PairingsSchema(), body)


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
    body, state = _pairings(event_id)
    rows, note = _standings(state)
    return respond(
        StandingsSchema(),
        {
            "event_id": body["event_id"],
            "cursor": body["cursor"],
            "standings": rows,
            "tiebreakers": _tiebreaker_order(rows),
            "note": note,
            "standings_after": published_round(state),
        },
    )

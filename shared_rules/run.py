"""Entry points that start from a document naming its ruleset by id: the game is resolved here, once,
and handed down to the engines, which never import the game registry (issue #24).

>>> load_event({"ruleset": "doomtown", "players": [{"id": "a", "entry": 1}]}).ruleset
'doomtown'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .event import document
from .event.model import Event
from .games import deciding_bracket, event_standings, get_ruleset
from .standings import engine
from .standings.engine import Standing

__all__ = [
    "compute_standings",
    "load_event",
    "parse_event_json",
    "place_elimination",
    "standings_json",
    "standings_text",
]


def load_event(doc: Any) -> Event:
    """Validate a decoded ``topcut-event/1`` document against the ruleset it names and build the event."""
    return document.load_event(doc, get_ruleset)


def parse_event_json(text: str) -> Event:
    """Decode JSON text and validate it as an event document against the ruleset it names."""
    return document.parse_event_json(text, get_ruleset)


def compute_standings(event: Event) -> list[Standing]:
    """The event's standings under the game its ruleset id names (``standings.compute_standings``)."""
    return event_standings(event)


def standings_json(event: Event) -> dict[str, Any]:
    """EVENT-FORMAT.md's ``{"standings": [...]}`` under the event's own game."""
    return {"standings": [s.to_json() for s in event_standings(event)]}


def standings_text(event: Event) -> str:
    """The command line's standings output under the event's own game."""
    return engine.lines_text(event_standings(event))


def place_elimination(event: Event, swiss_order: Sequence[str]) -> list[str]:
    """Final placing (``standings.place_elimination``) under the event's own ruleset and bracket rules."""
    ruleset = get_ruleset(event.ruleset, event.settings)
    return engine.place_elimination(
        event, swiss_order, ruleset, bracket=deciding_bracket(event.ruleset, event.settings)
    )

"""Entry points that start from a document naming its ruleset by id: the game is resolved here, once,
and handed down to the engines, which never import the game registry (issue #24).

>>> load_event({"ruleset": "doomtown", "players": [{"id": "a", "entry": 1}]}).ruleset
'doomtown'
"""

from __future__ import annotations

from typing import Any

from .event import document
from .event.model import Event
from .games import get_ruleset

__all__ = ["load_event", "parse_event_json"]


def load_event(doc: Any) -> Event:
    """Validate a decoded ``topcut-event/1`` document against the ruleset it names and build the event."""
    return document.load_event(doc, get_ruleset)


def parse_event_json(text: str) -> Event:
    """Decode JSON text and validate it as an event document against the ruleset it names."""
    return document.parse_event_json(text, get_ruleset)

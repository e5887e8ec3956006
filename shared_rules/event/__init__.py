"""The event: model and ``topcut-event/1`` document."""

from .document import FORMAT, RulesetOf, dump_event, load_event, parse_event_json
from .model import STAGES, SWISS_STAGES, Event, Match, Player, Round

__all__ = [
    "FORMAT",
    "STAGES",
    "SWISS_STAGES",
    "Event",
    "Match",
    "Player",
    "Round",
    "RulesetOf",
    "dump_event",
    "load_event",
    "parse_event_json",
]

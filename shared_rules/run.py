"""Entry points that start from a document naming its ruleset by id: the game is resolved here, once,
and handed down to the engines, which never import the game registry (issue #24).

>>> load_event({"ruleset": "doomtown", "players": [{"id": "a", "entry": 1}]}).ruleset
'doomtown'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .event import document
from .event.model import Event, Round
from .games import deciding_bracket, event_standings, game_of, get_ruleset
from .standings import engine

if TYPE_CHECKING:  # pragma: no cover
    from .pairing.next_round import PairedRound, PairingState
    from .rulesets.base import Ruleset
    from .standings.engine import Standing

# The brackets and the pairing are imported by the entry points that use them: the standings command
# (python -m shared_rules standings) then starts without them (issue #27: its imports ≤ 50 ms).

__all__ = [
    "compute_standings",
    "day_two_qualifiers",
    "divisions_of",
    "load_event",
    "parse_event_json",
    "place_elimination",
    "repair_after_correction",
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


def make_cut(event: Event, size: int | None = None, *, seeding: Sequence[str] | None = None) -> Round:
    """The cut's first round under the event's own game (``brackets.make_cut``)."""
    from .brackets import cut

    return cut.make_cut(event, game_of(event.ruleset), size, seeding=seeding)


def start_single_elimination(event: Event) -> Round:
    """Round one of a single-elimination event under its own game (``brackets.start_single_elimination``)."""
    from .brackets import cut

    return cut.start_single_elimination(event, game_of(event.ruleset))


def swiss_order(event: Event) -> list[str]:
    """Player ids by Swiss standing under the event's own game (``brackets.swiss_order``)."""
    from .brackets import cut

    return cut.swiss_order(event, game_of(event.ruleset))


def next_elimination_round(event: Event) -> Round:
    """The next elimination round under the event's own game (``brackets.next_elimination_round``)."""
    from .brackets import advance

    return advance.next_elimination_round(event, game_of(event.ruleset))


def apply_drop_in_bracket(event: Event, player_id: str) -> Event:
    """The event after a drop in the elimination stage under its own game (``brackets.apply_drop_in_bracket``)."""
    from .brackets import advance

    return advance.apply_drop_in_bracket(event, game_of(event.ruleset), player_id)


def bracket_view(event: Event) -> dict[str, Any]:
    """The whole bracket as JSON for the UI under the event's own game (``brackets.bracket_view``)."""
    from .brackets import advance

    return advance.bracket_view(event, game_of(event.ruleset))


def next_round(event: Event) -> dict[str, Any]:
    """What the event pairs next, whatever its stage, under its own game (``pairing.whole_event.next_round``)."""
    from .pairing import whole_event

    return whole_event.next_round(event, game_of(event.ruleset))


def pair_next_round(
    event: Event, *, ruleset: Ruleset | None = None, keep: PairedRound | None = None, only: frozenset[str] | None = None
) -> PairedRound:
    """The next Swiss round under the event's own game (``pairing.pair_next_round``)."""
    from .pairing import next_round as swiss

    return swiss.pair_next_round(event, game_of(event.ruleset), ruleset=ruleset, keep=keep, only=only)


def pair_next_round_json(event: Event) -> dict[str, Any]:
    """The ``pair`` command's output for the next Swiss round under the event's own game."""
    from .pairing import next_round as swiss

    return swiss.pair_next_round_json(event, game_of(event.ruleset))


def pairing_state(
    event: Event,
    number: int,
    stage: str = "swiss",
    ruleset: Ruleset | None = None,
    present: tuple[str, ...] | None = None,
) -> PairingState:
    """Points, opponents and byes before round ``number`` under the event's own game (``pairing.pairing_state``)."""
    from .pairing import next_round as swiss

    return swiss.pairing_state(event, game_of(event.ruleset), number, stage, ruleset, present)


def swiss_rounds(event: Event) -> int:
    """The event's planned Swiss rounds under its own game (``pairing.swiss_rounds``)."""
    from .pairing import next_round as swiss

    return swiss.swiss_rounds(event, game_of(event.ruleset))


def day_one_rounds(event: Event) -> int | None:
    """Day-one Swiss rounds of a two-day event under its own game (``pairing.day_one_rounds``), or None."""
    from .pairing import next_round as swiss

    return swiss.day_one_rounds(event, game_of(event.ruleset))


def day_two_qualifiers(event: Event) -> dict[str, list[str]]:
    """Each division's day-two players under the event's own game (``pairing.day_two_qualifiers``)."""
    from .pairing import next_round as swiss

    return swiss.day_two_qualifiers(event, game_of(event.ruleset))


def divisions_of(event: Event) -> dict[str, str]:
    """Every player's age division under the event's own game (``pairing.divisions.divisions_of``)."""
    from .pairing.divisions import divisions_of as _divisions_of

    return _divisions_of(event, game_of(event.ruleset))


def validate_pairing(event: Event, rnd: PairedRound | Round) -> list[str]:
    """Every problem of a pairing under the event's own game (``pairing.draft.validate_pairing``)."""
    from .pairing import draft

    return draft.validate_pairing(event, game_of(event.ruleset), rnd)


def swap_players(paired_round: PairedRound, a: str, b: str, event: Event) -> tuple[PairedRound, list[str]]:
    """Two players' seats exchanged, with warnings, under the event's own game (``pairing.draft.swap_players``)."""
    from .pairing import draft

    return draft.swap_players(paired_round, a, b, event, game_of(event.ruleset))


def repair_after_correction(event: Event, paired_round: PairedRound, corrected_event: Event) -> PairedRound:
    """The draft re-paired for corrected records under the event's own game (``pairing.corrections``)."""
    from .pairing import corrections

    return corrections.repair_after_correction(event, game_of(event.ruleset), paired_round, corrected_event)

"""Rounds and cut for a given player count, from every structure table in the documents.

``suggest_structure(ruleset, players, structure=None)`` looks the count up in
the ruleset's table (each game declares its table in its package,
``shared_rules/games/<game>/structures.py``, citing its section);
``structure_names(ruleset)`` lists the valid structure names, default first.

>>> s = suggest_structure("doomtown", 9)
>>> (s.structure, s.swiss_rounds, s.cut)
('single-day', 4, 4)
>>> structure_names("pokemon-tcg")
('single-day', 'two-day')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ..errors import RulesError
from ..games import RULESET_IDS, game_of, games
from ._model import DayTwo, Elimination, Structure
from .flights import (
    FlightPlan,
    allowed_flight_counts,
    assign_late_player_flight,
    flight_sizes,
    merge_flight_tops,
    plan_flights,
)

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = [
    "RULESETS",
    "Structure",
    "Elimination",
    "DayTwo",
    "suggest_structure",
    "structure_names",
    "day_two_qualifiers",
    "division_structures",
    "FlightPlan",
    "plan_flights",
    "allowed_flight_counts",
    "flight_sizes",
    "assign_late_player_flight",
    "merge_flight_tops",
]

RULESETS: tuple[str, ...] = RULESET_IDS


def _game(ruleset: str) -> Game:
    try:
        return game_of(ruleset)
    except RulesError:
        raise RulesError(f"ruleset: {ruleset!r} is not one of {', '.join(RULESETS)}") from None


def structure_names(ruleset: str) -> tuple[str, ...]:
    """Valid ``--structure`` values for a ruleset; the first is the default.

    >>> structure_names("agot")
    ('basic', 'advanced')
    """
    return _game(ruleset).structure_names


def _resolve_name(ruleset: str, structure: str | None) -> str:
    names = structure_names(ruleset)
    if structure is None:
        return names[0]
    if structure not in names:
        raise RulesError(f"structure: {structure!r} is not a structure of {ruleset} (valid: {', '.join(names)})")
    return structure


def suggest_structure(
    ruleset: str,
    players: int,
    structure: str | None = None,
    *,
    rounds: int | None = None,
    cut: int | None = None,
) -> Structure:
    """The document's rounds and cut for ``players`` (``rounds``/``cut`` overrides: ``custom`` only).

    >>> suggest_structure("startrek-1e", 3).swiss_rounds
    3
    >>> suggest_structure("startrek-1e", 2)
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: players: 2 is below the minimum of 3 for startrek-1e
    """
    name = _resolve_name(ruleset, structure)
    return _game(ruleset).structure(players, name, rounds, cut)


def day_two_qualifiers(ruleset: str, points_by_player: Mapping[str, int], swiss_rank: Sequence[str]) -> list[str]:
    """Day-two players of a two-day event (Pokémon TOP 3.3.5: 19+ match points or the top 32).

    >>> day_two_qualifiers("pokemon-tcg", {"a": 19, "b": 0}, ["a", "b"])
    ['a', 'b']
    """
    qualifiers = _game(ruleset).day_two_qualifiers
    if qualifiers is None:
        raise RulesError(f"ruleset: {ruleset} has no day two")
    return qualifiers(points_by_player, swiss_rank)


def division_structures(
    ruleset: str, division_players: Mapping[str, int], structure: str | None = None
) -> dict[str, Structure]:
    """Per age division structures; Age-Modified events use the largest division (Pokémon TOP 3.3.5).

    >>> division_structures("pokemon-vg", {"masters": 40, "senior": 9})["senior"].swiss_rounds
    4
    """
    build = _game(ruleset).division_structures
    if build is None:
        with_divisions = [g.id for g in games() if g.division_structures is not None]
        raise RulesError(f"ruleset: {ruleset!r} has no age divisions ({', '.join(with_divisions)})")
    return build(division_players, _resolve_name(ruleset, structure))

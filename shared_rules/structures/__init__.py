"""Rounds and cut for a given player count, from every structure table in the documents.

``suggest_structure(ruleset, players, structure=None)`` looks the count up in
the ruleset's table (one module per game, each table citing its section);
``structure_names(ruleset)`` lists the valid structure names, default first.
Pokémon flights (TOP 3.3.3) live in :mod:`.flights`.

>>> s = suggest_structure("doomtown", 9)
>>> (s.structure, s.swiss_rounds, s.cut)
('single-day', 4, 4)
>>> structure_names("pokemon-tcg")
('single-day', 'two-day')
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from shared_rules.errors import RulesError

from . import agot, custom, doomtown, pokemon, shatterpoint, startrek
from ._model import DayTwo, Elimination, Structure
from .flights import (
    FlightPlan,
    allowed_flight_counts,
    assign_late_player_flight,
    flight_sizes,
    merge_flight_tops,
    plan_flights,
)

__all__ = [
    "RULESETS",
    "Structure",
    "Elimination",
    "DayTwo",
    "FlightPlan",
    "suggest_structure",
    "structure_names",
    "pokemon_day_two_qualifiers",
    "pokemon_division_structures",
    "plan_flights",
    "allowed_flight_counts",
    "flight_sizes",
    "assign_late_player_flight",
    "merge_flight_tops",
]

_Builder = Callable[[int, str], Structure]

# Ruleset id -> (structure names, default first; builder).
_REGISTRY: dict[str, tuple[tuple[str, ...], _Builder]] = {
    "pokemon-tcg": (pokemon.TCG_NAMES, lambda n, name: pokemon.structure("pokemon-tcg", n, name)),
    "pokemon-vg": (pokemon.VG_NAMES, lambda n, name: pokemon.structure("pokemon-vg", n, name)),
    "doomtown": (doomtown.NAMES, doomtown.structure),
    "shatterpoint": (shatterpoint.NAMES, shatterpoint.structure),
    "agot": (agot.NAMES, agot.structure),
    "startrek-1e": (startrek.NAMES, lambda n, name: startrek.structure("startrek-1e", n, name)),
    "startrek-2e": (startrek.NAMES, lambda n, name: startrek.structure("startrek-2e", n, name)),
    "tribbles": (startrek.TRIBBLES_NAMES, lambda n, name: startrek.structure("tribbles", n, name)),
    "custom": (custom.NAMES, custom.structure),
}

RULESETS: tuple[str, ...] = tuple(_REGISTRY)


def _entry(ruleset: str) -> tuple[tuple[str, ...], _Builder]:
    try:
        return _REGISTRY[ruleset]
    except (KeyError, TypeError):
        raise RulesError(f"ruleset: {ruleset!r} is not one of {', '.join(RULESETS)}") from None


def structure_names(ruleset: str) -> tuple[str, ...]:
    """Valid ``--structure`` values for a ruleset; the first is the default.

    >>> structure_names("agot")
    ('basic', 'advanced')
    """
    return _entry(ruleset)[0]


def _resolve_name(ruleset: str, structure: str | None) -> str:
    names = structure_names(ruleset)
    if structure is None:
        return names[0]
    if structure not in names:
        raise RulesError(
            f"structure: {structure!r} is not a structure of {ruleset} (valid: {', '.join(names)})"
        )
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
    names, build = _entry(ruleset)
    name = _resolve_name(ruleset, structure)
    if ruleset == "custom":
        return custom.structure(players, name, rounds=rounds, cut=cut)
    if rounds is not None or cut is not None:
        raise RulesError(f"rounds/cut: {ruleset} takes its rounds and cut from its document's table")
    return build(players, name)


def pokemon_day_two_qualifiers(points_by_player: Mapping[str, int], swiss_rank: Sequence[str]) -> list[str]:
    """Day-two players: 19+ match points or the top 32, whichever is more (Pokémon TOP 3.3.5).

    >>> pokemon_day_two_qualifiers({"a": 19, "b": 0}, ["a", "b"])
    ['a', 'b']
    """
    return pokemon.day_two_qualifiers(points_by_player, swiss_rank)


def pokemon_division_structures(
    ruleset: str, division_players: Mapping[str, int], structure: str | None = None
) -> dict[str, Structure]:
    """Per age division structures; Age-Modified events use the largest division (Pokémon TOP 3.3.5).

    >>> pokemon_division_structures("pokemon-vg", {"masters": 40, "senior": 9})["senior"].swiss_rounds
    4
    """
    if ruleset not in ("pokemon-tcg", "pokemon-vg"):
        raise RulesError(f"ruleset: {ruleset!r} has no age divisions (pokemon-tcg, pokemon-vg)")
    return pokemon.division_structures(ruleset, division_players, _resolve_name(ruleset, structure))

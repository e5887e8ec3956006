"""The shared shape of a suggested structure and the table look-up every game uses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shared_rules.errors import RulesError

__all__ = [
    "Structure",
    "Elimination",
    "DayTwo",
    "row_for",
    "require_players",
    "elimination_rounds",
]


@dataclass(frozen=True, slots=True)
class Elimination:
    """A single-elimination stage after the Swiss rounds.

    ``best_of`` is ``None`` where the document does not fix it.

    >>> Elimination(rounds=3).to_json()["rounds"]
    3
    """

    rounds: int
    best_of: int | None = 1
    final_best_of: int | None = 1
    final_untimed: bool = False
    format: str = "single-elimination"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types, stable snake_case keys."""
        return {
            "format": self.format,
            "rounds": self.rounds,
            "best_of": self.best_of,
            "final_best_of": self.final_best_of,
            "final_untimed": self.final_untimed,
        }


@dataclass(frozen=True, slots=True)
class DayTwo:
    """Pokémon two-day Swiss: who plays day two, and how many rounds each day.

    >>> DayTwo(9, 5, 19, 32).to_json()["min_points"]
    19
    """

    day_one_rounds: int
    day_two_rounds: int
    min_points: int
    or_top: int
    rule: str = "whichever-is-more"

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types, stable snake_case keys."""
        return {
            "day_one_rounds": self.day_one_rounds,
            "day_two_rounds": self.day_two_rounds,
            "min_points": self.min_points,
            "or_top": self.or_top,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Structure:
    """Rounds and cut suggested for one event.

    ``swiss_rounds`` counts every Swiss round (both days of a two-day event);
    ``cut`` is the top-N advancing (0 for none); ``total_rounds`` adds the
    elimination rounds, as the documents' "Total Rounds" columns do.
    """

    ruleset: str
    players: int
    structure: str
    swiss_rounds: int
    cut: int
    minimum_players: int
    source: str
    elimination: Elimination | None = None
    day_two: DayTwo | None = None
    pods: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def total_rounds(self) -> int:
        """Swiss rounds plus elimination rounds."""
        return self.swiss_rounds + (self.elimination.rounds if self.elimination else 0)

    def to_json(self) -> dict[str, Any]:
        """What ``python -m shared_rules structure`` prints; keys are stable."""
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "structure": self.structure,
            "swiss_rounds": self.swiss_rounds,
            "cut": self.cut,
            "total_rounds": self.total_rounds,
            "minimum_players": self.minimum_players,
            "elimination": self.elimination.to_json() if self.elimination else None,
            "day_two": self.day_two.to_json() if self.day_two else None,
            "pods": list(self.pods),
            "notes": list(self.notes),
            "source": self.source,
        }


def require_players(players: int, minimum: int, what: str) -> None:
    """Raise RulesError unless ``players`` is an integer at or above ``minimum``.

    >>> require_players(2, 3, "startrek-1e")
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: players: 2 is below the minimum of 3 for startrek-1e
    """
    if isinstance(players, bool) or not isinstance(players, int):
        raise RulesError(f"players: {players!r} is not a whole number of players")
    if players < minimum:
        raise RulesError(f"players: {players} is below the minimum of {minimum} for {what}")


def row_for(table: Sequence[tuple[Any, ...]], players: int) -> tuple[Any, ...]:
    """The row of a table of ``(min, max or None, ...)`` rows that holds ``players``.

    >>> row_for(((4, 8, "a"), (9, None, "b")), 9)
    (9, None, 'b')
    """
    for row in table:
        low, high = row[0], row[1]
        if players >= low and (high is None or players <= high):
            return row
    raise RulesError(f"players: {players} is outside the table (smallest row starts at {table[0][0]})")


def elimination_rounds(cut: int) -> int:
    """Rounds a single-elimination bracket of ``cut`` players needs (a power of two).

    >>> elimination_rounds(8), elimination_rounds(0)
    (3, 0)
    """
    return max(cut, 1).bit_length() - 1

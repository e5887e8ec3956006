"""The small result every game-end helper returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shared_rules.errors import RulesError

__all__ = ["GameEnd", "Stats", "pair"]


@dataclass(frozen=True, slots=True)
class Stats:
    """Shatterpoint per-game statistics: Struggle Cards Claimed and Wounds Inflicted."""

    struggle: int
    wounds: int

    def to_json(self) -> dict[str, int]:
        """As ``matches[].stats`` in the event document."""
        return {"struggle": self.struggle, "wounds": self.wounds}


@dataclass(frozen=True, slots=True)
class GameEnd:
    """Who won (index 0 or 1, ``None`` for a draw), each player's outcome word, and the deciding step.

    >>> GameEnd(0, ("win-at-time", "loss"), "most-control").loser
    1
    """

    winner: int | None
    outcomes: tuple[str, ...]
    reason: str
    stats: tuple[Stats, ...] | None = None

    @property
    def loser(self) -> int | None:
        """The other player's index, or ``None`` for a draw or a bye."""
        if self.winner is None or len(self.outcomes) != 2:
            return None
        return 1 - self.winner

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {
            "winner": self.winner,
            "outcomes": list(self.outcomes),
            "reason": self.reason,
            "stats": [s.to_json() for s in self.stats] if self.stats is not None else None,
        }


def pair(name: str, values: Sequence[int], *, minimum: int | None = 0) -> tuple[int, int]:
    """Check one number per player (two players) and return them as a tuple.

    >>> pair("control", [3, 4])
    (3, 4)
    """
    if isinstance(values, (str, bytes)) or len(values) != 2:
        raise RulesError(f"{name}: give exactly two numbers, one per player")
    out = []
    for index, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{name}[{index}]: {value!r} is not a whole number")
        if minimum is not None and value < minimum:
            raise RulesError(f"{name}[{index}]: {value} is below {minimum}")
        out.append(value)
    return out[0], out[1]


def decided(winner: int, win: str, lose: str, reason: str, stats: tuple[Stats, ...] | None = None) -> GameEnd:
    """A result with a winner at ``winner`` (0 or 1)."""
    outcomes = (win, lose) if winner == 0 else (lose, win)
    return GameEnd(winner, outcomes, reason, stats)


def higher(values: tuple[int, int]) -> int | None:
    """Index of the larger of two numbers, ``None`` if equal.

    >>> higher((2, 5)), higher((3, 3))
    (1, None)
    """
    if values[0] == values[1]:
        return None
    return 0 if values[0] > values[1] else 1

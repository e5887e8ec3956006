"""Tribbles tiebreakers (Star Trek OP Guide 5.1, 7.5.2, 7.7): total score, rounds won."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from ...standings.metrics import ValueMetric, register

if TYPE_CHECKING:  # pragma: no cover
    from ...standings.context import StandingsContext

__all__ = ["TribblesScore", "TribblesRoundsWon"]


@register
class TribblesScore(ValueMetric):
    """Total score: the points of every round played (Star Trek OP Guide 7.5.2, 7.7)."""

    key = "tribbles-score"
    label = "Score"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        out = {}
        for pid, matches in ctx.matches.items():  # each row's own score, read at the player's seat
            out[pid] = sum(
                (m.scores[seat] or 0) if m.scores else 0 for m, seat in zip(matches, ctx.seats(pid), strict=True)
            )
        return out


@register
class TribblesRoundsWon(ValueMetric):
    """Rounds in which the player emptied their hand first (Star Trek OP Guide 7.7)."""

    key = "tribbles-rounds-won"
    label = "Rounds won"

    def values(self, ctx: StandingsContext) -> Mapping[str, int]:
        return {pid: outcomes.count("win") for pid, outcomes in ctx.outcomes.items()}  # the column, not games

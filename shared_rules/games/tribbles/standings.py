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
        return {pid: sum(g.score or 0 for g in games) for pid, games in ctx.history.items()}


@register
class TribblesRoundsWon(ValueMetric):
    """Rounds in which the player emptied their hand first (Star Trek OP Guide 7.7)."""

    key = "tribbles-rounds-won"
    label = "Rounds won"

    def values(self, ctx: StandingsContext) -> Mapping[str, int]:
        return {pid: sum(1 for g in games if g.outcome == "win") for pid, games in ctx.history.items()}

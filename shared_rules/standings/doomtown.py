"""Doomtown tie breaks (Doomtown Floor Rules 1.2, section 7): MWP and OMWP.

Written generically (``ctx.ruleset.max_points`` is the points of a match won
inside time), so the ``custom`` ruleset can pick ``mwp`` and ``omwp`` too.
Readings are recorded in :mod:`shared_rules.rulesets.doomtown`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from .common import ExactMetric, mean, opponents_faced, rounds_played
from .metrics import register

if TYPE_CHECKING:  # pragma: no cover
    from .context import StandingsContext

__all__ = ["MWP_FLOOR", "match_win_percentage", "MatchWinPercentage", "OpponentsMatchWinPercentage"]

# Doomtown Floor Rules 7.B: "If this number is lower than 0.33, use 0.33 instead."
MWP_FLOOR = Fraction(33, 100)


def match_win_percentage(points: float, rounds: int, max_points: float) -> Fraction:
    """Match points over the points possible in the rounds played, floored at 0.33.

    Doomtown Floor Rules 7.B (a bye is a played round won inside time, 7.E).

    >>> match_win_percentage(13, 4, 5)
    Fraction(13, 20)
    >>> match_win_percentage(3, 4, 5)
    Fraction(33, 100)
    """
    if rounds <= 0 or max_points <= 0:
        return MWP_FLOOR
    return max(MWP_FLOOR, Fraction(points) / (Fraction(max_points) * rounds))


@register
class MatchWinPercentage(ExactMetric):
    """Match-win percentage (Doomtown Floor Rules 7.B)."""

    key = "mwp"
    label = "Match-win %"

    def exact_values(self, ctx: "StandingsContext") -> dict[str, Fraction]:
        top = ctx.ruleset.max_points
        return {pid: match_win_percentage(ctx.points[pid], rounds_played(ctx, pid), top) for pid in ctx.history}


@register
class OpponentsMatchWinPercentage(ExactMetric):
    """Mean MWP of the opponents faced; bye rounds are no opponent (Doomtown Floor Rules 7.C, 7.E).

    A player who faced no opponent gets the 0.33 floor, the least any opponent can bring.
    """

    key = "omwp"
    label = "Opponents' match-win %"

    def exact_values(self, ctx: "StandingsContext") -> dict[str, Fraction]:
        mwp = MatchWinPercentage().exact(ctx)
        out: dict[str, Fraction] = {}
        for pid in ctx.history:
            faced = opponents_faced(ctx, pid)
            out[pid] = mean([mwp[o] for o in faced]) if faced else MWP_FLOOR
        return out

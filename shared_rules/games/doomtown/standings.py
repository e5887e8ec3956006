"""Doomtown tie breaks (Doomtown Floor Rules 1.2, section 7): MWP and OMWP.

Written generically (``ctx.ruleset.max_points`` is the points of a match won
inside time), so the ``custom`` ruleset can pick ``mwp`` and ``omwp`` too.
Readings are recorded in :mod:`shared_rules.games.doomtown.ruleset`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from ...standings.common import (
    NOT_PLAYED_OUTCOMES,
    ExactMetric,
    ExactValues,
    lcm_of,
    scaled_mean_of_opponents,
    scaled_points,
)
from ...standings.metrics import register

if TYPE_CHECKING:  # pragma: no cover
    from ...standings.context import StandingsContext

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

    def exact_values(self, ctx: StandingsContext) -> dict[str, Fraction]:
        return dict(self.values(ctx).exact)

    def values(self, ctx: StandingsContext) -> ExactValues:
        # points / (max_points * rounds), floored at 33/100, all over one denominator:
        # points = nums / pden, max_points = top_n / top_d, rounds divides span.
        top = ctx.ruleset.max_points
        nums, pden = scaled_points(ctx.points)
        played = ctx.rounds_counted(NOT_PLAYED_OUTCOMES)
        if top <= 0:
            return ExactValues.scaled({pid: MWP_FLOOR.numerator for pid in played}, MWP_FLOOR.denominator)
        top_n, top_d = Fraction(top).as_integer_ratio()
        span = lcm_of(played.values())
        den = 100 * pden * top_n * span
        floor = 33 * pden * top_n * span
        out = {}
        for pid, n in played.items():
            if n <= 0:
                out[pid] = floor
            else:
                value = nums[pid] * top_d * 100 * (span // n)
                out[pid] = value if value > floor else floor
        return ExactValues.scaled(out, den)


@register
class OpponentsMatchWinPercentage(ExactMetric):
    """Mean MWP of the opponents faced; bye rounds are no opponent (Doomtown Floor Rules 7.C, 7.E).

    A player who faced no opponent gets the 0.33 floor, the least any opponent can bring.
    """

    key = "omwp"
    label = "Opponents' match-win %"

    def exact_values(self, ctx: StandingsContext) -> dict[str, Fraction]:
        return dict(self.values(ctx).exact)

    def values(self, ctx: StandingsContext) -> ExactValues:
        mwp = _MWP.table(ctx)
        den = mwp.den
        floor = den * 33 // 100 if den % 100 == 0 else None
        if floor is None:
            return ExactValues.scaled(*_floored_mean(ctx, mwp.nums, den))
        return ExactValues.scaled(*scaled_mean_of_opponents(ctx, mwp.nums, den, floor))


_MWP = MatchWinPercentage()


def _floored_mean(ctx: StandingsContext, nums: dict[str, int], den: int) -> tuple[dict[str, int], int]:
    # The 33/100 floor is not a whole numerator over ``den``: bring everything over 100 * den.
    return scaled_mean_of_opponents(ctx, {pid: n * 100 for pid, n in nums.items()}, den * 100, den * 33)

"""AGoT tiebreakers (AGoT Tournament Regulations, Tiebreakers): head-to-head and
extended Strength of Schedule. Strength of Schedule is the shared ``sos-mean``.
Readings are recorded in :mod:`shared_rules.games.agot.ruleset`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from ...standings.common import ExactMetric, ExactValues, SosMean, scaled_mean_of_opponents
from ...standings.metrics import GroupMetric, register

if TYPE_CHECKING:  # pragma: no cover
    from ...standings.context import StandingsContext

__all__ = ["beat_all", "HeadToHead", "ExtendedSos"]


def _results_against(ctx: StandingsContext, pid: str, opponent: str) -> list[str]:
    """The results of the player's games at a table with ``opponent`` (another player), from the columns."""
    if pid not in ctx.players:
        return []
    omap = ctx.ruleset.outcome_map
    return [omap[o].result for o, match in zip(ctx.outcomes[pid], ctx.matches[pid]) if opponent in match.players]


def beat_all(ctx: StandingsContext, pid: str, group: Sequence[str]) -> bool:
    """Whether the player played every other player of the group and won every game against them."""
    for other in group:
        if other == pid:
            continue
        results = _results_against(ctx, pid, other)
        if not results or any(r != "win" for r in results):
            return False
    return True


@register
class HeadToHead(GroupMetric):
    """A player who played and defeated all others of the tied group ranks above them.

    AGoT Tournament Regulations, Tiebreakers. The rest of the group stays tied
    for the next tiebreaker; the step is not repeated on it.
    """

    key = "agot-h2h"
    label = "Head-to-head"

    def split(self, ctx: StandingsContext, group: Sequence[str]) -> list[list[str]]:
        for pid in group:
            if beat_all(ctx, pid, group):
                return [[pid], [p for p in group if p != pid]]
        return [list(group)]


@register
class ExtendedSos(ExactMetric):
    """Extended Strength of Schedule: the mean of the opponents' Strength of Schedule.

    AGoT Tournament Regulations, Tiebreakers; byes are no opponent (Definitions).
    """

    key = "agot-esos"
    label = "Extended Strength of Schedule"

    def exact_values(self, ctx: StandingsContext) -> dict[str, Fraction]:
        return dict(self.values(ctx).exact)

    def values(self, ctx: StandingsContext) -> ExactValues:
        sos = _SOS.table(ctx)
        return ExactValues.scaled(*scaled_mean_of_opponents(ctx, sos.nums, sos.den))


_SOS = SosMean()

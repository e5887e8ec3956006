"""Shatterpoint tiebreakers (Shatterpoint Showdown, Tiebreakers): cumulative
Struggle Cards Claimed and Wounds Inflicted. Strength of Schedule is the
shared ``sos-mean`` (:mod:`shared_rules.standings.common`).

A bye counts the 2 Struggle Cards and 3 Wounds it is worth (Pairings) when the
document leaves its stats out; a one-player result with no stats (an unpaired
loss) counts 0. Any ruleset picking these keys gets the same definitions.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import TYPE_CHECKING, Any, cast

from ...standings.context import Game
from ...standings.metrics import ValueMetric, register
from .ruleset import BYE_STATS

if TYPE_CHECKING:  # pragma: no cover
    from ...standings.context import StandingsContext

__all__ = ["game_stat", "StruggleCards", "WoundsInflicted"]


def game_stat(game: Game, name: str) -> float:
    """One statistic of one game, with a bye's implied values (Shatterpoint Showdown, Pairings)."""
    stats: Mapping[str, Any] | None = game.stats
    if stats is not None and name in stats:
        return cast(float, stats[name])
    if game.outcome == "bye":
        return BYE_STATS[name]
    return 0


def _stats_rows(ctx: StandingsContext) -> dict[str, list[Mapping[str, Any] | None]]:
    """Per player, each game's own statistics (``Game.stats``), read at the player's seat (cached)."""
    found = ctx.memo.get("shatterpoint-stats")
    if found is None:
        found = ctx.memo["shatterpoint-stats"] = {
            pid: [m.stats[seat] if m.stats else None for m, seat in zip(matches, ctx.seats(pid), strict=True)]
            for pid, matches in ctx.matches.items()
        }
    return cast(dict[str, list[Mapping[str, Any] | None]], found)


class _CumulativeStat(ValueMetric):
    stat = ""

    def values(self, ctx: StandingsContext) -> dict[str, float]:
        # game_stat inlined: the same values added in the same order as sum() would.
        name = self.stat
        implied = BYE_STATS[name]
        stat = itemgetter(name)
        out: dict[str, float] = {}
        for pid, rows in _stats_rows(ctx).items():
            try:  # every game reports the statistic (the usual case): added in C
                out[pid] = sum(map(stat, cast(list[Mapping[str, Any]], rows)))
                continue
            except (TypeError, KeyError):  # a game without stats (a bye, an unpaired loss) or without this one
                pass
            total = 0
            for stats, outcome in zip(rows, ctx.outcomes[pid], strict=True):
                if stats is not None and name in stats:
                    total += stats[name]
                elif outcome == "bye":
                    total += implied
                else:
                    total += 0
            out[pid] = total
        return out


@register
class StruggleCards(_CumulativeStat):
    """Cumulative Struggle Cards Claimed (Shatterpoint Showdown, Tiebreakers)."""

    key = "shatterpoint-struggle"
    label = "Struggle Cards Claimed"
    stat = "struggle"


@register
class WoundsInflicted(_CumulativeStat):
    """Cumulative Wounds Inflicted (Shatterpoint Showdown, Tiebreakers)."""

    key = "shatterpoint-wounds"
    label = "Wounds Inflicted"
    stat = "wounds"

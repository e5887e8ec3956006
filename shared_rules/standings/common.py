"""Metrics and helpers shared by several games.

Values that are ratios are computed exactly (:class:`fractions.Fraction`) and
compared exactly, so no float noise and no rounding can merge or split a tie;
the standings print them as the nearest float, which does not depend on the
order the document lists rounds or matches in.

``sos-mean`` is the Strength of Schedule that AGoT (Tournament Regulations,
Tiebreakers) and Shatterpoint (Showdown, Tiebreakers) define in the same words:
each opponent's total points divided by the rounds that opponent played,
summed over the opponents played and divided by their number. Readings:

- a bye is no opponent (AGoT Definitions: "no addition to his or her strength
  of schedule"; Shatterpoint divides by "opponents the player has played");
- a bye is a round its receiver played (they receive a win for the round), so it
  counts in their own points and rounds when they are someone's opponent;
- an outcome for a round the player did not take part in
  (:data:`NOT_PLAYED_OUTCOMES`, e.g. Shatterpoint's unpaired loss, Pairings)
  is not a round played;
- a player with no opponent has a Strength of Schedule of 0;
- a repeated opponent (possible across stages) counts once per game.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from .metrics import ValueMetric, register

if TYPE_CHECKING:  # pragma: no cover
    from .context import StandingsContext

__all__ = ["NOT_PLAYED_OUTCOMES", "ExactValues", "ExactMetric", "rounds_played", "opponents_faced",
           "points_per_round", "mean", "SosMean"]

#: Outcomes recorded for a round the player did not take part in: not a round played.
NOT_PLAYED_OUTCOMES = frozenset({"unpaired-loss", "missed-game", "late"})


def mean(values: Sequence[Fraction]) -> Fraction:
    """The exact mean; 0 for no values.

    >>> mean([Fraction(1, 2), Fraction(1, 4)])
    Fraction(3, 8)
    >>> mean([])
    Fraction(0, 1)
    """
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


class ExactValues(Mapping[str, float]):
    """Per-player exact values; reading an item gives the nearest float (for output).

    >>> v = ExactValues({"p1": Fraction(1, 3)})
    >>> v["p1"], v.exact["p1"]
    (0.3333333333333333, Fraction(1, 3))
    """

    __slots__ = ("exact",)

    def __init__(self, exact: Mapping[str, Fraction]) -> None:
        self.exact: dict[str, Fraction] = dict(exact)

    def __getitem__(self, pid: str) -> float:
        return float(self.exact[pid])

    def __iter__(self) -> Iterator[str]:
        return iter(self.exact)

    def __len__(self) -> int:
        return len(self.exact)


class ExactMetric(ValueMetric):
    """A value metric computed as fractions and compared without rounding."""

    def exact_values(self, ctx: "StandingsContext") -> Mapping[str, Fraction]:
        """Every player's exact value."""
        raise NotImplementedError

    def values(self, ctx: "StandingsContext") -> ExactValues:
        return ExactValues(self.exact_values(ctx))

    def exact(self, ctx: "StandingsContext") -> Mapping[str, Fraction]:
        """The cached exact values."""
        found = ctx.metric(self.key)
        assert isinstance(found, ExactValues)
        return found.exact

    def split(self, ctx: "StandingsContext", group: Sequence[str]) -> list[list[str]]:
        exact = self.exact(ctx)
        sign = -1 if self.descending else 1
        out: list[list[str]] = []
        last: Fraction | None = None
        for pid in sorted(group, key=lambda p: sign * exact[p]):
            if out and exact[pid] == last:
                out[-1].append(pid)
            else:
                out.append([pid])
                last = exact[pid]
        return out


def rounds_played(ctx: "StandingsContext", pid: str) -> int:
    """Rounds the player took part in: results on record, byes included, unpaired losses not."""
    return sum(1 for g in ctx.history.get(pid, ()) if g.outcome not in NOT_PLAYED_OUTCOMES)


def opponents_faced(ctx: "StandingsContext", pid: str) -> list[str]:
    """Every opponent across the table, once per game (byes have none), within the context."""
    return [opp for g in ctx.history.get(pid, ()) for opp in g.opponents if opp in ctx.history]


def points_per_round(ctx: "StandingsContext") -> dict[str, Fraction]:
    """Each player's total points divided by the rounds they played (0 with none)."""
    out: dict[str, Fraction] = {}
    for pid in ctx.history:
        played = rounds_played(ctx, pid)
        out[pid] = Fraction(ctx.points[pid]) / played if played else Fraction(0)
    return out


@register
class SosMean(ExactMetric):
    """Strength of Schedule: mean over opponents of (their points / rounds they played).

    AGoT Tournament Regulations, Tiebreakers; Shatterpoint Showdown, Tiebreakers.
    """

    key = "sos-mean"
    label = "Strength of Schedule"

    def exact_values(self, ctx: "StandingsContext") -> dict[str, Fraction]:
        ratio = points_per_round(ctx)
        return {pid: mean([ratio[o] for o in opponents_faced(ctx, pid)]) for pid in ctx.history}

"""Metrics and helpers shared by several games.

Values that are ratios are computed exactly (integer numerators over one common
denominator per metric, readable as :class:`fractions.Fraction`) and compared
exactly, so no float noise and no rounding can merge or split a tie;
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

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from .metrics import ValueMetric, register

if TYPE_CHECKING:  # pragma: no cover
    from .context import StandingsContext

__all__ = [
    "NOT_PLAYED_OUTCOMES",
    "ExactValues",
    "ExactMetric",
    "rounds_played",
    "opponents_faced",
    "points_per_round",
    "mean",
    "lcm_of",
    "scaled_points",
    "scaled_points_per_round",
    "scaled_mean_of_opponents",
    "SosMean",
]

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


def lcm_of(counts: Iterable[int]) -> int:
    """The least common multiple of the positive counts (1 for none).

    >>> lcm_of([4, 6, 0]), lcm_of([])
    (12, 1)
    """
    out = 1
    for c in set(counts):
        if c > 0:
            out = out * c // math.gcd(out, c)
    return out


def scaled_points(points: Mapping[str, float]) -> tuple[dict[str, int], int]:
    """Every player's points as integer numerators over one common denominator (exact).

    >>> scaled_points({"a": 3, "b": 1.5, "c": 0.25})
    ({'a': 12, 'b': 6, 'c': 1}, 4)
    """
    if all(v.__class__ is int for v in points.values()):
        return dict(points), 1  # type: ignore[arg-type]
    ratios = {
        pid: (v.as_integer_ratio() if v.__class__ is float else Fraction(v).as_integer_ratio())
        for pid, v in points.items()
    }
    den = lcm_of(d for _, d in ratios.values())
    return {pid: n * (den // d) for pid, (n, d) in ratios.items()}, den


class ExactValues(Mapping[str, float]):
    """Per-player exact values; reading an item gives the nearest float (for output).

    Built from fractions, or (fast) from integer numerators over one common
    denominator with :meth:`scaled`; either way ``exact`` gives fractions.

    >>> v = ExactValues({"p1": Fraction(1, 3)})
    >>> v["p1"], v.exact["p1"]
    (0.3333333333333333, Fraction(1, 3))
    >>> w = ExactValues.scaled({"p1": 2, "p2": 6}, 6)
    >>> w["p1"], w.exact["p2"], w.key("p1") < w.key("p2")
    (0.3333333333333333, Fraction(1, 1), True)
    """

    __slots__ = ("_exact", "_nums", "_den")

    def __init__(self, exact: Mapping[str, Fraction]) -> None:
        self._exact: dict[str, Fraction] | None = dict(exact)
        self._nums: dict[str, int] | None = None
        self._den = 1

    @classmethod
    def scaled(cls, nums: dict[str, int], den: int) -> ExactValues:
        """Values ``nums[pid] / den`` (``den`` > 0), kept as integers."""
        self = cls.__new__(cls)
        self._exact = None
        self._nums = nums
        self._den = den
        return self

    @property
    def exact(self) -> dict[str, Fraction]:
        """Every player's value as a fraction."""
        if self._exact is None:
            assert self._nums is not None
            den = self._den
            self._exact = {pid: Fraction(n, den) for pid, n in self._nums.items()}
        return self._exact

    @property
    def nums(self) -> dict[str, int]:
        """The integer numerators of values made by :meth:`scaled` (over ``den``)."""
        assert self._nums is not None, "values made from fractions have no integer numerators"
        return self._nums

    @property
    def den(self) -> int:
        """The common denominator of :attr:`nums`."""
        return self._den

    def key(self, pid: str) -> int | Fraction:
        """Something that orders and ties exactly as the value does."""
        nums = self._nums
        return nums[pid] if nums is not None else self.exact[pid]

    def in_order(self, pids: Iterable[str]) -> list[float]:
        """The players' values as floats, in the order given (what the standings print).

        >>> ExactValues.scaled({"a": 1, "b": 3}, 4).in_order(["b", "a"])
        [0.75, 0.25]
        """
        nums = self._nums
        if nums is not None:
            den = self._den
            return [n / den for n in map(nums.__getitem__, pids)]  # int / int is correctly rounded
        exact = self.exact
        return [float(exact[pid]) for pid in pids]

    def __getitem__(self, pid: str) -> float:
        nums = self._nums
        if nums is not None:
            return nums[pid] / self._den  # int / int is correctly rounded: float(Fraction(n, den))
        return float(self.exact[pid])

    def __iter__(self) -> Iterator[str]:
        return iter(self._nums if self._nums is not None else self.exact)

    def __len__(self) -> int:
        return len(self._nums if self._nums is not None else self.exact)


class ExactMetric(ValueMetric):
    """A value metric computed exactly (fractions, or integers over one denominator), compared without rounding."""

    def exact_values(self, ctx: StandingsContext) -> Mapping[str, Fraction]:
        """Every player's exact value."""
        raise NotImplementedError

    def values(self, ctx: StandingsContext) -> ExactValues:
        return ExactValues(self.exact_values(ctx))

    def table(self, ctx: StandingsContext) -> ExactValues:
        """The cached values."""
        found = ctx.metric(self.key)
        assert isinstance(found, ExactValues)
        return found

    def exact(self, ctx: StandingsContext) -> Mapping[str, Fraction]:
        """The cached exact values."""
        return self.table(ctx).exact

    def split(self, ctx: StandingsContext, group: Sequence[str]) -> list[list[str]]:
        table = self.table(ctx)
        nums: Mapping[str, int | Fraction] = table._nums if table._nums is not None else table.exact
        out: list[list[str]] = []
        last = None
        for pid in sorted(group, key=nums.__getitem__, reverse=self.descending):
            value = nums[pid]
            if out and value == last:
                out[-1].append(pid)
            else:
                out.append([pid])
                last = value
        return out


def rounds_played(ctx: StandingsContext, pid: str) -> int:
    """Rounds the player took part in: results on record, byes included, unpaired losses not."""
    return sum(1 for outcome in ctx.outcomes.get(pid, ()) if outcome not in NOT_PLAYED_OUTCOMES)


def opponents_faced(ctx: StandingsContext, pid: str) -> list[str]:
    """Every opponent across the table, once per game (byes have none), within the context."""
    return list(ctx.opponents_in_context(pid)) if pid in ctx.players else []


def points_per_round(ctx: StandingsContext) -> dict[str, Fraction]:
    """Each player's total points divided by the rounds they played (0 with none)."""
    out: dict[str, Fraction] = {}
    for pid in ctx.players:
        played = rounds_played(ctx, pid)
        out[pid] = Fraction(ctx.points[pid]) / played if played else Fraction(0)
    return out


def scaled_points_per_round(ctx: StandingsContext) -> tuple[dict[str, int], int]:
    """:func:`points_per_round` as integer numerators over one denominator (cached per context)."""
    found = ctx.memo.get("points-per-round")
    if found is None:
        nums, den = scaled_points(ctx.points)
        played = ctx.rounds_counted(NOT_PLAYED_OUTCOMES)
        span = lcm_of(played.values())
        found = ({pid: nums[pid] * (span // n) if n else 0 for pid, n in played.items()}, den * span)
        ctx.memo["points-per-round"] = found
    return found


def scaled_mean_of_opponents(
    ctx: StandingsContext, nums: Mapping[str, int], den: int, none: int = 0
) -> tuple[dict[str, int], int]:
    """Each player's mean of ``nums`` over the opponents faced (:func:`opponents_faced`), exactly.

    Returns numerators over one new denominator; ``none`` (over ``den``) for a player without opponents.
    """
    faced = {pid: ctx.opponents_in_context(pid) for pid in ctx.players}
    span = lcm_of(len(o) for o in faced.values())
    out = {}
    value = nums.__getitem__
    for pid, opps in faced.items():
        k = len(opps)
        if k:
            out[pid] = sum(map(value, opps)) * (span // k)  # the same integers added, in C
        else:
            out[pid] = none * span
    return out, den * span


@register
class SosMean(ExactMetric):
    """Strength of Schedule: mean over opponents of (their points / rounds they played).

    AGoT Tournament Regulations, Tiebreakers; Shatterpoint Showdown, Tiebreakers.
    """

    key = "sos-mean"
    label = "Strength of Schedule"

    def exact_values(self, ctx: StandingsContext) -> dict[str, Fraction]:
        return dict(self.values(ctx).exact)

    def values(self, ctx: StandingsContext) -> ExactValues:
        ratio, den = scaled_points_per_round(ctx)
        return ExactValues.scaled(*scaled_mean_of_opponents(ctx, ratio, den))

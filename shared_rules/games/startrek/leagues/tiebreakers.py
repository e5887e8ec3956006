"""League ranking metrics: one small class per tiebreaker, with a stable key, in a registry.

A ranking is a list of keys applied in turn (``PLAYOFF_RANKING`` is Star Trek OP
Guide 12.6's seven tiebreakers). Every metric reads a :class:`Record`, one
person's season in one league.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from ....seeded import draw_key

__all__ = [
    "Record",
    "LeagueMetric",
    "register",
    "get_metric",
    "metric_keys",
    "rank_records",
    "PLAYOFF_RANKING",
    "SEASON_RANKING",
]


@dataclass(frozen=True, slots=True)
class Record:
    """One person's season in one league: what every tiebreaker needs."""

    person: str
    season_points: int = 0
    playoff_points: int = 0
    playoff_wins: int = 0
    playoff_events: int = 0
    league_events: int = 0
    lifetime_points: int = 0


class LeagueMetric:
    """A tiebreaker: higher values rank first."""

    key: ClassVar[str] = ""
    label: ClassVar[str] = ""

    def value(self, record: Record, seed: str) -> int:
        """The person's value."""
        raise NotImplementedError


_REGISTRY: dict[str, LeagueMetric] = {}


def register(cls: type[LeagueMetric]) -> type[LeagueMetric]:
    """Class decorator: add a metric to the registry under its key."""
    _REGISTRY[cls.key] = cls()
    return cls


def get_metric(key: str) -> LeagueMetric:
    """The metric of that key.

    >>> get_metric("playoff_wins").label
    'Playoff tournament victories'
    """
    return _REGISTRY[key]


def metric_keys() -> list[str]:
    """Every registered key."""
    return list(_REGISTRY)


@register
class PlayoffPoints(LeagueMetric):
    """12.6 (1): league playoff points scored that season (qualified players only score them)."""

    key = "playoff_points"
    label = "League playoff points"

    def value(self, record: Record, seed: str) -> int:
        return record.playoff_points


@register
class PlayoffWins(LeagueMetric):
    """12.6 (2): league playoff tournament victories that season."""

    key = "playoff_wins"
    label = "Playoff tournament victories"

    def value(self, record: Record, seed: str) -> int:
        return record.playoff_wins


@register
class SeasonPoints(LeagueMetric):
    """12.6 (3): league points scored that season."""

    key = "season_points"
    label = "Season league points"

    def value(self, record: Record, seed: str) -> int:
        return record.season_points


@register
class PlayoffEvents(LeagueMetric):
    """12.6 (4): playoff events attended that season."""

    key = "playoff_events"
    label = "Playoff events attended"

    def value(self, record: Record, seed: str) -> int:
        return record.playoff_events


@register
class LeagueEvents(LeagueMetric):
    """12.6 (5): league events attended that season."""

    key = "league_events"
    label = "League events attended"

    def value(self, record: Record, seed: str) -> int:
        return record.league_events


@register
class LifetimePoints(LeagueMetric):
    """12.6 (6): lifetime league points."""

    key = "lifetime_points"
    label = "Lifetime league points"

    def value(self, record: Record, seed: str) -> int:
        return record.lifetime_points


@register
class CoinFlip(LeagueMetric):
    """12.6 (7): coin flip / random event, drawn from the league's seed (53 bits, exact in JSON)."""

    key = "coin_flip"
    label = "Coin flip"

    def value(self, record: Record, seed: str) -> int:
        return draw_key(seed, "league-coin-flip", record.person) >> 11


#: Star Trek OP Guide 12.6: the playoff ranking of qualified players, in order.
PLAYOFF_RANKING: tuple[str, ...] = (
    "playoff_points",
    "playoff_wins",
    "season_points",
    "playoff_events",
    "league_events",
    "lifetime_points",
    "coin_flip",
)
#: The season table and playoff qualification (12.6 ranks "according to their league point totals for
#: that season"; the Guide gives no tiebreakers there: the project applies 12.6's that exist before
#: the playoffs, in 12.6's order).
SEASON_RANKING: tuple[str, ...] = ("season_points", "league_events", "lifetime_points", "coin_flip")


def rank_records(
    records: Iterable[Record], keys: Sequence[str], seed: str
) -> list[tuple[Record, dict[str, int], str | None]]:
    """Records best first by ``keys``; each with its values and the key that set it below the one above.

    >>> a, b = Record("a", season_points=10, league_events=2), Record("b", season_points=10, league_events=3)
    >>> [(r.person, why) for r, _, why in rank_records([a, b], SEASON_RANKING, "s")]
    [('b', None), ('a', 'league_events')]
    """
    metrics = [get_metric(k) for k in keys]
    rows = [(r, {m.key: m.value(r, seed) for m in metrics}) for r in records]
    rows.sort(key=lambda row: (tuple(-row[1][k] for k in keys), row[0].person))
    out: list[tuple[Record, dict[str, int], str | None]] = []
    for i, (record, values) in enumerate(rows):
        why = None
        if i:
            above = rows[i - 1][1]
            why = next((k for k in keys if values[k] != above[k]), None)
        out.append((record, values, why))
    return out

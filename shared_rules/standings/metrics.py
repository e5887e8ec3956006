"""Standings metrics: small declarative units with a stable ``key``.

A ruleset names its tiebreakers as an ordered tuple of keys.  A
:class:`ValueMetric` gives every player a number (higher ranks first unless
``descending`` is false); a :class:`GroupMetric` splits a tied group directly
(head-to-head rules that compare the players of the group with each other).

The metrics the games share live here (and in ``common``); a game's own metrics
register when its ruleset is built (``games/<game>/standings.py``), so the
registry holds those of the games loaded so far and this package never imports
the games (issue #24).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import DocumentError
from ..seeded import draw_key

if TYPE_CHECKING:  # pragma: no cover
    from .context import StandingsContext

__all__ = [
    "Metric",
    "ValueMetric",
    "GroupMetric",
    "register",
    "get_metric",
    "metric_keys",
    "metric_labels",
    "reported_labels",
    "Points",
    "EntryOrder",
    "SeededRandom",
]

_REGISTRY: dict[str, Metric] = {}


class Metric:
    """A tiebreaker; subclasses set ``key`` and ``label``."""

    key: ClassVar[str] = ""
    label: ClassVar[str] = ""

    def split(self, ctx: StandingsContext, group: Sequence[str]) -> list[list[str]]:
        """Split a tied group into ordered sub-groups (best first)."""
        raise NotImplementedError


class ValueMetric(Metric):
    """A metric that is a number per player."""

    #: Values are compared after rounding to this many decimals (absorbs float noise).
    precision: ClassVar[int] = 9
    descending: ClassVar[bool] = True

    def values(self, ctx: StandingsContext) -> Mapping[str, Any]:
        """Every player's value."""
        raise NotImplementedError

    def comparable(self, value: Any) -> Any:
        """What is compared: the value rounded, negated when lower is better."""
        rounded = round(value, self.precision)
        return -rounded if self.descending else rounded

    def split(self, ctx: StandingsContext, group: Sequence[str]) -> list[list[str]]:
        values = ctx.metric(self.key)
        if type(self).comparable is ValueMetric.comparable:
            precision = self.precision
            if self.descending:
                keyed = [(-round(values[pid], precision), pid) for pid in group]
            else:
                keyed = [(round(values[pid], precision), pid) for pid in group]
        else:
            comparable = self.comparable
            keyed = [(comparable(values[pid]), pid) for pid in group]
        keyed.sort(key=_first)  # stable: ties keep the group's order
        out: list[list[str]] = []
        last: Any = object()
        for c, pid in keyed:
            if out and c == last:
                out[-1].append(pid)
            else:
                out.append([pid])
                last = c
        return out


def _first(pair: tuple[Any, str]) -> Any:
    return pair[0]


class GroupMetric(Metric):
    """A metric that orders the players of a tied group among themselves."""


def register(cls: type[Metric]) -> type[Metric]:
    """Class decorator: add a metric to the registry under its key."""
    if not cls.key or cls.key in _REGISTRY:
        raise ValueError(f"metric key {cls.key!r} is empty or taken")
    _REGISTRY[cls.key] = cls()
    return cls


def metric_labels(keys: Iterable[str]) -> dict[str, str]:
    """Column headings for tiebreaker keys (a key with no metric is its own heading).

    >>> metric_labels(["owp", "nonesuch"])
    {'owp': 'Op Win %', 'nonesuch': 'nonesuch'}
    """
    out = {}
    for key in keys:
        try:
            out[key] = get_metric(key).label or key
        except DocumentError:
            out[key] = key
    return out


def reported_labels(reported: Iterable[tuple[str, str]], names: Iterable[str]) -> dict[str, str]:
    """Column headings for the tiebreaker names standings print, by the metric each name reports.

    ``reported`` is a ruleset's (output name, metric key) pairs (``sos`` is Star Trek's ``startrek-sos``);
    a name it does not list is taken as a metric key.

    >>> reported_labels([("owp", "owp")], ["owp", "nonesuch"])
    {'owp': 'Op Win %', 'nonesuch': 'nonesuch'}
    """
    key_of = dict(reported)
    out = {}
    for name in names:
        key = key_of.get(name, name)
        out[name] = metric_labels([key])[key]
    return out


def get_metric(key: str) -> Metric:
    """The registered metric for a key."""
    try:
        return _REGISTRY[key]
    except KeyError:
        raise DocumentError(
            "settings.tiebreakers", f"'{key}' is not a tiebreaker (use {', '.join(metric_keys())})"
        ) from None


def metric_keys() -> tuple[str, ...]:
    """Every registered key, sorted."""
    return tuple(sorted(_REGISTRY))


@register
class Points(ValueMetric):
    """Event points: the sum of the points table over the player's results."""

    key = "points"
    label = "Points"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        return ctx.points


@register
class EntryOrder(ValueMetric):
    """Registration order: the earlier entry ranks higher (Doomtown 7; TOM's roster order)."""

    key = "entry"
    label = "Entry"
    descending = False

    def values(self, ctx: StandingsContext) -> Mapping[str, int]:
        return {pid: p.entry for pid, p in ctx.players.items()}


@register
class SeededRandom(ValueMetric):
    """A random order drawn from the event seed, the same on every device."""

    key = "random"
    label = "Random"

    def values(self, ctx: StandingsContext) -> Mapping[str, int]:
        return {pid: draw_key(ctx.event.seed, "tiebreak", pid) for pid in ctx.players}

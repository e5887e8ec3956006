"""``custom``: a store's house rules — points per outcome and an ordered
tiebreaker list chosen from the metric registry (EVENT-FORMAT.md ``settings``).

Readings: the results one game can give are those the generic check allows:
any win word against any loss word, two loss words (a double loss) or the
same tie word twice; ``win`` / ``loss`` and the first tie word are quick
results. An outcome word counts on the W-L-T record as a win when it names a
win or a bye, a loss when it names a loss, a late arrival or a missed game,
and a tie otherwise. ``bye``, ``earned-bye``, ``late`` and ``missed-game`` are
one-player outcomes. Without ``settings.points`` the common 3/1/0 table with
a bye worth a win applies; without ``settings.tiebreakers``, ``random``.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...errors import DocumentError
from ...rulesets.base import Outcome, Policy, ResultPair, Ruleset
from ...standings.metrics import get_metric
from .. import PACKAGES


def _register_every_game_metric() -> None:
    """Import every game's metric module (``games/<game>/standings.py``) so house rules may use any key."""
    for name in PACKAGES:
        module = f"{__package__.rpartition('.')[0]}.{name}.standings"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:  # a game without metrics of its own
            if exc.name != module:
                raise


_register_every_game_metric()

_SOLO = frozenset({"bye", "earned-bye", "late", "missed-game"})
_DEFAULT_POINTS = {"win": 3, "tie": 1, "loss": 0, "bye": 3}


def _result(key: str) -> str:
    if "win" in key or "bye" in key:
        return "win"
    if "loss" in key or key in ("late", "missed-game"):
        return "loss"
    return "tie"


def _pairs(outcomes: list[Outcome]) -> tuple[ResultPair, ...]:
    """The results one game can give with the house's outcome words (win/loss, double loss, tie/tie).

    >>> [p.label for p in _pairs([Outcome("win", 3, "win"), Outcome("tie", 1, "tie"), Outcome("loss", 0, "loss")])]
    ['win / loss', 'tie', 'double loss']
    """
    played = [o for o in outcomes if not o.solo]
    wins = [o.key for o in played if o.result == "win"]
    losses = [o.key for o in played if o.result == "loss"]
    ties = [o.key for o in played if o.result == "tie"]
    quick_win = ("win", "loss") if "win" in wins and "loss" in losses else None
    pairs = [
        ResultPair(w, lo, f"{_words(w)} / {_words(lo)}", quick=(w, lo) == quick_win) for w in wins for lo in losses
    ]
    pairs += [ResultPair(t, t, _words(t), quick=i == 0) for i, t in enumerate(ties)]
    pairs += [
        ResultPair(a, b, "double loss" if a == b else f"{_words(a)} / {_words(b)}")
        for i, a in enumerate(losses)
        for b in losses[i:]
    ]
    return tuple(pairs)


def _words(key: str) -> str:
    return key.replace("-", " ")


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The custom ruleset described by the event's settings."""
    points = settings.get("points", _DEFAULT_POINTS)
    if not isinstance(points, dict) or not points:
        raise DocumentError("settings.points", "expected an object of outcome → points")
    outcomes = []
    for key, value in points.items():
        if not key or not isinstance(key, str):
            raise DocumentError("settings.points", "outcome names must be non-empty strings")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise DocumentError(f"settings.points.{key}", "expected a number")
        outcomes.append(Outcome(key, value, _result(key), solo=key in _SOLO))
    tiebreakers = settings.get("tiebreakers", ["random"])
    if not isinstance(tiebreakers, list) or not all(isinstance(k, str) for k in tiebreakers):
        raise DocumentError("settings.tiebreakers", "expected a list of tiebreaker keys")
    for i, key in enumerate(tiebreakers):
        try:
            get_metric(key)
        except DocumentError as exc:
            raise DocumentError(f"settings.tiebreakers[{i}]", exc.problem) from None
    reported = tuple(
        (k, k) for k in tiebreakers if k not in ("random", "entry", "points") and hasattr(get_metric(k), "values")
    )
    return Ruleset(
        id="custom",
        title="Custom (house rules)",
        document="EVENT-FORMAT.md settings",
        outcomes=tuple(outcomes),
        tiebreakers=tuple(tiebreakers),
        match_sizes=(2, 2),
        policies=MappingProxyType({"bye": Policy("lowest-ranked without a bye", "house rules")}),
        reported=reported,
        result_pairs=_pairs(outcomes),
        pairs_source="the event's house rules",
        settings=MappingProxyType(dict(settings)),
    )

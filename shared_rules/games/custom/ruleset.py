"""``custom``: a store's house rules — points per outcome and an ordered
tiebreaker list chosen from the metric registry (EVENT-FORMAT.md ``settings``).

Readings: an outcome word counts on the W-L-T record as a win when it names a
win or a bye, a loss when it names a loss, a late arrival or a missed game,
and a tie otherwise. ``bye``, ``earned-bye``, ``late`` and ``missed-game`` are
one-player outcomes. Without ``settings.points`` the common 3/1/0 table with
a bye worth a win applies; without ``settings.tiebreakers``, ``random``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...errors import DocumentError
from ...rulesets.base import Outcome, Policy, Ruleset
from ...standings.metrics import get_metric

_SOLO = frozenset({"bye", "earned-bye", "late", "missed-game"})
_DEFAULT_POINTS = {"win": 3, "tie": 1, "loss": 0, "bye": 3}


def _result(key: str) -> str:
    if "win" in key or "bye" in key:
        return "win"
    if "loss" in key or key in ("late", "missed-game"):
        return "loss"
    return "tie"


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
        settings=MappingProxyType(dict(settings)),
    )

"""Standings: metrics (one small class per tiebreaker) and the ranking engine."""

from . import common  # noqa: F401  (registers the metrics several games share)
from .context import Game, StandingsContext, is_counted
from .engine import (
    Standing,
    compute_standings,
    format_record,
    order_groups,
    place_elimination,
    rank_swiss,
    standings_from_order,
    standings_json,
    standings_text,
)
from .metrics import GroupMetric, Metric, ValueMetric, get_metric, metric_keys, metric_labels, register, reported_labels

__all__ = [
    "Game",
    "GroupMetric",
    "Metric",
    "Standing",
    "StandingsContext",
    "ValueMetric",
    "compute_standings",
    "format_record",
    "get_metric",
    "is_counted",
    "metric_keys",
    "metric_labels",
    "order_groups",
    "place_elimination",
    "rank_swiss",
    "register",
    "reported_labels",
    "standings_from_order",
    "standings_json",
    "standings_text",
]

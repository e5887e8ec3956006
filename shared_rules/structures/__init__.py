"""Rounds and cut: the structure model and Pokémon flights (TOP 3.3.5).

Each game declares its table in its package (``shared_rules/games/<game>/structures.py``,
citing its section); :func:`shared_rules.games.suggest_structure` looks a player count up in
a ruleset's table and :func:`shared_rules.games.structure_names` lists its structure names.
"""

from __future__ import annotations

from ._model import DayTwo, Elimination, Structure
from .flights import (
    FlightPlan,
    allowed_flight_counts,
    assign_late_player_flight,
    flight_sizes,
    merge_flight_tops,
    plan_flights,
)

__all__ = [
    "Structure",
    "Elimination",
    "DayTwo",
    "FlightPlan",
    "plan_flights",
    "allowed_flight_counts",
    "flight_sizes",
    "assign_late_player_flight",
    "merge_flight_tops",
]

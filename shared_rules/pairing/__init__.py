"""Optimal Swiss pairing core: exact, seeded, fast on real fields."""

from .matching import Entrant, Pairing, pair_players, total_squared_difference

__all__ = ["Entrant", "Pairing", "pair_players", "total_squared_difference"]

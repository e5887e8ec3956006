"""Pokémon's penalties: the TOP names only disqualification (3.2); its penalty guidelines are not one of our
documents (TOP 1 refers to the "TCG Penalty Guidelines"), so warnings and the game loss are the project's."""

from __future__ import annotations

from types import MappingProxyType

from ..base import DISQUALIFICATION_CONSEQUENCE, GAME_LOSS_CONSEQUENCE, PenaltySystem

__all__ = ["PENALTIES"]

PENALTIES = PenaltySystem(
    name="pokemon",
    kinds=MappingProxyType(
        {
            "warning": (None, "Warning"),
            "game-loss": ("game-loss", "Game loss"),
            "disqualification": ("disqualification", "Disqualification"),
        }
    ),
    floor=("warning",),
    source="Pokémon TOP 1, 3.2",
    consequences=MappingProxyType(
        {
            "game-loss": GAME_LOSS_CONSEQUENCE,
            "disqualification": DISQUALIFICATION_CONSEQUENCE
            + " In single elimination the player is marked as the loser of the game regardless of the actual"
            " outcome (TOP 3.2).",
        }
    ),
)

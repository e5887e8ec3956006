"""AGoT's penalties, in the Tournament Regulations' words ("Unsporting Conduct").

The regulations name one sanction: "The organizer, at his or her sole discretion, may remove players from the
tournament for unsportsmanlike conduct." Warnings and the game loss are the project's (as in every game).
"""

from __future__ import annotations

from types import MappingProxyType

from ..base import DISQUALIFICATION_CONSEQUENCE, GAME_LOSS_CONSEQUENCE, PenaltySystem

__all__ = ["PENALTIES"]

PENALTIES = PenaltySystem(
    name="agot",
    kinds=MappingProxyType(
        {
            "warning": (None, "Warning"),
            "game-loss": ("game-loss", "Game loss"),
            "disqualification": ("disqualification", "Removal from the tournament (unsporting conduct)"),
        }
    ),
    floor=("warning",),
    source="AGoT Tournament Regulations, Unsporting Conduct",
    consequences=MappingProxyType(
        {
            "game-loss": GAME_LOSS_CONSEQUENCE,
            "disqualification": "The organizer removes the player from the tournament for unsportsmanlike conduct "
            "(Tournament Regulations, Unsporting Conduct). " + DISQUALIFICATION_CONSEQUENCE,
        }
    ),
)

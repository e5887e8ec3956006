"""Doomtown's penalties, in Floor Rules 6.B's words (the Code of Conduct it refers to is not one of our documents).

6.B names a "Written Warning or above" (which the TO reports to PBE, with the head judge's written report) and
"Roundup Disqualification" (which PBE investigates); "All penalties may be contested after the roundup. The
Head Judge and TO are the final word at the roundup". The game loss is the project's (as in every game).
"""

from __future__ import annotations

from types import MappingProxyType

from ..base import DISQUALIFICATION_CONSEQUENCE, GAME_LOSS_CONSEQUENCE, PenaltySystem

__all__ = ["PENALTIES"]

PENALTIES = PenaltySystem(
    name="doomtown",
    kinds=MappingProxyType(
        {
            "warning": (None, "Warning"),
            "written-warning": (None, "Written Warning"),
            "game-loss": ("game-loss", "Game loss"),
            "disqualification": ("disqualification", "Roundup Disqualification"),
        }
    ),
    floor=("warning",),
    hint="Floor Rules 6.B: the TO reports every Written Warning or above to PBE, with the head judge's written report.",
    source="Doomtown Floor Rules 6.B",
    consequences=MappingProxyType(
        {
            "game-loss": GAME_LOSS_CONSEQUENCE,
            "disqualification": DISQUALIFICATION_CONSEQUENCE
            + " PBE investigates every Roundup Disqualification: the TO reports it with the head judge's written"
            " report (Floor Rules 6.B).",
        }
    ),
)

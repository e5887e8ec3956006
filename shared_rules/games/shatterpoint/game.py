"""The shatterpoint game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ..base import Game, PenaltySystem, ResultForm, TimeCalled, fixed_structure
from ..settings import SettingsSection, cut_setting, date_setting, round_minutes_setting, rounds_setting
from . import (
    game_end,
    ruleset,
    structures,
)
from .decklists import DECKLISTS

__all__ = ["BRACKETS", "PENALTIES", "GAMES"]

# Shatterpoint Showdown, Progression Cut: a qualifier who drops before the next stage plays is
# replaced by the next-ranked player as the lowest-ranked player in the cut.
BRACKETS = BracketRules(
    ruleset="shatterpoint", replace_before_stage=True, source="Shatterpoint Showdown, Progression Cut"
)
# Shatterpoint Arbiters: a warning; "a player has received three or more warnings during the event" →
# ejection; or ejection outright ("ejected players can't rejoin").
PENALTIES = PenaltySystem(
    name="warnings",
    kinds=MappingProxyType({"warning": (None, "Warning"), "ejection": ("ejection", "Ejection")}),
    ejection_warnings=3,
    floor=("warning",),
    source="Shatterpoint: Arbiters",
    consequences=MappingProxyType(
        {
            "ejection": "Ejected players are removed from the event and cannot rejoin (Shatterpoint: Pairings), "
            "unless the ejection is rescinded. Enter the result of their match with Correct.",
        }
    ),
)


def _time_called(args: Mapping[str, Any]) -> Any:
    if args.get("conceding") is not None:
        return game_end.concession(args["conceding"], args["struggle"], args["wounds"])
    return game_end.time_called(args["struggle"], args["wounds"])


#: The Settings screen (Shatterpoint Showdown: Pairings, Progression Cut, Event Round Times).
SETTINGS: tuple[SettingsSection, ...] = (
    SettingsSection(title="Event", fields=(date_setting(),)),
    SettingsSection(
        title="Structure",
        hint="Announce the Swiss rounds and the progression cut before the event (Pairings).",
        fields=(rounds_setting("Shatterpoint Progression Cut"), cut_setting("Shatterpoint Progression Cut")),
    ),
    SettingsSection(
        title="Time",
        fields=(
            round_minutes_setting(
                120,
                "Shatterpoint Event Round Times",
                "The attack dice at round start add a minute per critical or strike.",
            ),
        ),
    ),
)


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "shatterpoint": Game(
            id="shatterpoint",
            build=lambda settings: ruleset.build("shatterpoint", settings),
            # Shatterpoint Showdown, Pairings ("a single stage ends when a progression cut is made") and Swiss Pairing.
            pairing=PairingPolicy(
                ruleset="shatterpoint", rematch_scope="stage", source="Shatterpoint Showdown, Pairings; Swiss Pairing"
            ),
            brackets=BRACKETS,
            structure_names=structures.NAMES,
            structure=fixed_structure("shatterpoint", structures.structure),
            settings_ui=SETTINGS,
            # Shatterpoint Showdown, End of Match, Time: Struggle cards, then wounds (from the result form's stats).
            time_called=TimeCalled(decide=_time_called, uses="stats"),
            penalties=PENALTIES,
            decklists=DECKLISTS,  # Shatterpoint Strike Team
            # Shatterpoint Showdown, Scoring: each player's Struggle cards claimed (at most 3) and wounds inflicted.
            result_form=ResultForm(
                stats=MappingProxyType(
                    {
                        "legend": "Struggle cards and wounds",
                        "table_size": 2,
                        "fields": (
                            {"key": "struggle", "label": "Struggle cards", "max": 3},
                            {"key": "wounds", "label": "Wounds", "max": None},
                        ),
                    }
                )
            ),
            # Shatterpoint Showdown, Event Round Times: Mission Critical for the last 30 minutes of a round.
            timer_notes=((game_end.MISSION_CRITICAL_MINUTES * 60_000, "Mission Critical"),),
            # Shatterpoint Showdown, Event Round Times: roll 5 Attack Dice to set the round's length.
            attack_dice=game_end.ROUND_DICE,
        )
    }
)

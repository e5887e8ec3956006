"""The agot game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...brackets.rules import GAME_NUMBERS, BracketRules
from ...pairing.policies import PairingPolicy
from ..base import Game, ResultForm, TimeCalled, fixed_structure
from ..settings import (
    Notice,
    Setting,
    SettingsContext,
    SettingsSection,
    cut_setting,
    date_setting,
    round_minutes_setting,
    rounds_setting,
    structure_setting,
)
from . import (
    game_end,
    ruleset,
    structures,
)
from .decklists import DECKLISTS
from .penalties import PENALTIES

#: The Settings screen (AGoT Tournament Regulations: Tournament Structures; Pairings, 55-minute rounds).
#: AGoT Tournament Regulations, Tournament Tiers (Relaxed, Formal, Premier).
TIERS = (("relaxed", "Relaxed"), ("formal", "Formal"), ("premier", "Premier"))
SETTINGS: tuple[SettingsSection, ...] = (
    SettingsSection(
        title="Event",
        fields=(
            date_setting(),
            Setting(
                key="tier",
                label="Tier",
                kind="choice",
                hint="What players can expect of the event; it decides whether a leader may play.",
                source="AGoT Tournament Tiers",
                choices=TIERS,
                unset="not given",
            ),
            Setting(
                key="td_plays",
                label="A leader (organizer, marshal, judge) plays",
                kind="toggle",
                hint="Relaxed tier only, with a second leader announced at the start who rules on their games.",
                source="AGoT Leader Participation",
                unset="no",
            ),
        ),
    ),
    SettingsSection(
        title="Structure",
        hint="Announce the rounds, any single elimination and the cut size before the start (Pairings).",
        fields=(
            structure_setting(structures.NAMES, "AGoT Tournament Structures"),
            rounds_setting("AGoT Tournament Structures"),
            cut_setting("AGoT Tournament Structures"),
        ),
    ),
    SettingsSection(
        title="Time",
        fields=(round_minutes_setting(55, "AGoT Pairings", "The final of single elimination is untimed."),),
    ),
)

__all__ = ["BRACKETS", "GAMES"]


def settings_warnings(ctx: SettingsContext) -> list[Notice]:
    """AGoT Leader Participation: a leader plays only in a Relaxed tier event, with a second leader."""
    if ctx.settings.get("td_plays") is not True:
        return []
    tier = ctx.settings.get("tier")
    if tier in ("formal", "premier"):
        text = (
            f"Leaders cannot participate in a {tier.capitalize()} tier tournament: they give it their full attention."
        )
    else:
        text = (
            "A leader may play only in a Relaxed tier tournament and only with a second leader, announced at the "
            "beginning, who makes all rulings for the leader's games (the marshal, if two leaders play each other)."
        )
    return [Notice(text=text, source="AGoT Leader Participation", key="td_plays")]


# AGoT Tournament Regulations, Single Elimination Rounds: game numbers, untimed final.
BRACKETS = BracketRules(
    ruleset="agot",
    scheme=GAME_NUMBERS,
    start="agot-random",
    source="AGoT Tournament Regulations, Single Elimination Rounds",
)


def _time_called(args: Mapping[str, Any]) -> Any:
    return game_end.time_called(args["power"])


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "agot": Game(
            id="agot",
            build=lambda settings: ruleset.build("agot", settings),
            # AGoT Tournament Regulations, Swiss Rounds.
            pairing=PairingPolicy(ruleset="agot", source="AGoT Tournament Regulations, Swiss Rounds"),
            brackets=BRACKETS,
            structure_names=structures.NAMES,
            structure=fixed_structure("agot", structures.structure),
            settings_ui=SETTINGS,
            settings_warnings=settings_warnings,
            time_called=TimeCalled(decide=_time_called, inputs=("power",)),
            penalties=PENALTIES,
            decklists=DECKLISTS,  # AGoT Player Materials, Deck Building
            result_form=ResultForm(),
        )
    }
)

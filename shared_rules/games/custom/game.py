"""The custom game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ..base import GENERIC_PENALTIES, Game, ResultForm
from ..settings import (
    SettingsSection,
    best_of_settings,
    cut_setting,
    date_setting,
    round_minutes_setting,
    rounds_setting,
)
from . import ruleset, structures

#: The Settings screen of a house-rules event (EVENT-FORMAT.md settings).
SETTINGS: tuple[SettingsSection, ...] = (
    SettingsSection(title="Event", fields=(date_setting(),)),
    SettingsSection(title="Structure", fields=(rounds_setting("house rules"), cut_setting("house rules"))),
    SettingsSection(title="Time", fields=(round_minutes_setting(None, ""),)),
    SettingsSection(title="Top cut", fields=best_of_settings("house rules", best=None, final=None)),
)

__all__ = ["GAMES"]

GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "custom": Game(
            id="custom",
            build=lambda settings: ruleset.build("custom", settings),
            # House rules: the bye exists when settings.points names it.
            pairing=PairingPolicy(ruleset="custom", source="custom ruleset (house rules)", bye_from_points=True),
            brackets=BracketRules(ruleset="custom", source="custom"),
            structure_names=structures.NAMES,
            structure=structures.structure,
            settings_ui=SETTINGS,
            penalties=GENERIC_PENALTIES,
            result_form=ResultForm(),
        )
    }
)

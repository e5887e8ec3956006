"""The custom game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ...standings import metric_keys, metric_labels
from ..base import GENERIC_PENALTIES, Game, ResultForm
from ..settings import (
    Setting,
    SettingsSection,
    best_of_settings,
    cut_setting,
    date_setting,
    round_minutes_setting,
    rounds_setting,
)
from . import ruleset, structures

#: The outcome words the Settings screen offers a points table for (EVENT-FORMAT.md settings.points: any word;
#: a word with "win" or "bye" counts as a win, "loss", "late" and "missed-game" as a loss, others as a tie).
OUTCOMES: tuple[tuple[str, str], ...] = (
    ("win", "Win"),
    ("modified-win", "Modified win"),
    ("tie", "Tie"),
    ("modified-loss", "Modified loss"),
    ("loss", "Loss"),
    ("bye", "Bye"),
    ("earned-bye", "Earned bye"),
    ("late", "Late (game loss)"),
    ("missed-game", "Missed game"),
)


def _tiebreaker_choices() -> tuple[tuple[str, str], ...]:
    """Every registered metric (ruleset.py registers every game's) by its label, the key added where labels repeat."""
    labels = metric_labels(k for k in metric_keys() if k != "points")
    repeated = {label for label in labels.values() if list(labels.values()).count(label) > 1}
    return tuple((k, f"{label} ({k})" if label in repeated else label) for k, label in labels.items())


#: ``settings.points`` and ``settings.tiebreakers``: the house rules themselves (EVENT-FORMAT.md settings).
HOUSE_RULES = SettingsSection(
    title="Points and tiebreakers",
    hint="The house rules: the points each outcome gives, and the tiebreakers that order players on equal points.",
    fields=(
        Setting(
            key="points",
            label="Points per outcome",
            kind="points",
            hint="Points for each outcome a player can get; leave an outcome empty if the event does not use it. "
            "A result that no longer fits a recorded one is refused.",
            source="EVENT-FORMAT.md settings.points",
            choices=OUTCOMES,
            open_choice=True,
            minimum=-100,
            maximum=100,
            unset="win 3, tie 1, loss 0, bye 3",
        ),
        Setting(
            key="tiebreakers",
            label="Tiebreakers, in order",
            kind="order",
            hint="After points, players are ordered by the first tiebreaker, then the next.",
            source="EVENT-FORMAT.md settings.tiebreakers",
            choices=_tiebreaker_choices(),
            unset="Random",
        ),
    ),
)

#: The Settings screen of a house-rules event (EVENT-FORMAT.md settings).
SETTINGS: tuple[SettingsSection, ...] = (
    SettingsSection(title="Event", fields=(date_setting(),)),
    HOUSE_RULES,
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

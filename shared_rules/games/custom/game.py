"""The custom game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ..base import GENERIC_PENALTIES, Game, ResultForm
from . import ruleset, structures

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
            penalties=GENERIC_PENALTIES,
            result_form=ResultForm(),
        )
    }
)

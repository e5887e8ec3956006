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
from . import (
    game_end,
    ruleset,
    structures,
)
from .decklists import DECKLISTS
from .penalties import PENALTIES

__all__ = ["BRACKETS", "GAMES"]

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
            time_called=TimeCalled(decide=_time_called, inputs=("power",)),
            penalties=PENALTIES,
            decklists=DECKLISTS,  # AGoT Player Materials, Deck Building
            result_form=ResultForm(),
        )
    }
)

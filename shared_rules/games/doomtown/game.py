"""The doomtown game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ..base import Game, ResultForm, TimeCalled, fixed_structure
from . import (
    game_end,
    ruleset,
    settings,
    structures,
)
from .decklists import DECKLISTS
from .penalties import PENALTIES

__all__ = ["BRACKETS", "GAMES"]

# Doomtown Floor Rules 5.B (bracket, byes to the next power of two), 3.G (drop after a cut: the
# opponent gets a bye, no replacement), 5.C (the Top 2 is best-of-3: ruleset.TOP_2_BEST_OF).
BRACKETS = BracketRules(
    ruleset="doomtown", final_best_of=ruleset.TOP_2_BEST_OF, source="Doomtown Floor Rules 3.G, 5.B, 5.C"
)


def _time_called(args: Mapping[str, Any]) -> Any:
    return game_end.time_called(
        args["control"], args["influence"], args["bullets"], args.get("pulls") or (), coin=args.get("coin")
    )


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "doomtown": Game(
            id="doomtown",
            build=lambda settings: ruleset.build("doomtown", settings),
            # Doomtown Floor Rules 3.G, 5.B, 7.E (pairing method not stated: see shared_rules.pairing.policies).
            pairing=PairingPolicy(ruleset="doomtown", source="Doomtown Floor Rules 5.B, 7.E (reading)"),
            brackets=BRACKETS,
            structure_names=structures.NAMES,
            structure=fixed_structure("doomtown", structures.structure),
            # Doomtown Floor Rules 4: control, then influence, then bullets decide at time.
            time_called=TimeCalled(decide=_time_called, inputs=("control", "influence", "bullets")),
            penalties=PENALTIES,
            decklists=DECKLISTS,  # Doomtown Floor Rules 2.A, 2.D
            result_form=ResultForm(),
            # Doomtown Floor Rules 3.A, 5.C: the secret d6, rolled once per roundup.
            secret_time=ruleset.secret_d6,
            settings_ui=settings.SECTIONS,
            settings_warnings=settings.warnings,
        )
    }
)

"""Doomtown (Doomtown Floor Rules 1.2): where each section is implemented.

=====================================  ==============================================================
Document section                       Implemented in
=====================================  ==============================================================
3.A, 5.C secret d6 round time          :func:`.ruleset.secret_d6`, ``ruleset.TIME_LIMITS``, ``secret_time``
3.C-3.G, 5.B policies (drops, no-show) ``ruleset.POLICIES``
3.H, 7.A, 7.E outcomes and points      ``ruleset.OUTCOMES``
7.B-7.D tiebreakers (MWP, OMWP, entry) ``ruleset.TIEBREAKERS``, :mod:`.standings`
5.B, 7.E pairing and byes (reading)    ``GAMES[...].pairing`` (below)
5.B structures (rounds and cut)        :mod:`.structures`
3.G, 5.B, 5.C bracket (Top 2 Bo3)      ``BRACKETS`` (below)
4 time called                          :mod:`.game_end`
Penalties (generic)                    :data:`shared_rules.games.base.GENERIC_PENALTIES`
=====================================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ..base import GENERIC_PENALTIES, Game, ResultForm, TimeCalled, fixed_structure
from . import (
    game_end,
    ruleset,
    standings,  # noqa: F401  (registers the game's tiebreaker metrics)
    structures,
)

__all__ = ["BRACKETS", "GAMES"]

# Doomtown Floor Rules 5.B (bracket, byes to the next power of two), 3.G (drop after a cut: the
# opponent gets a bye, no replacement), 5.C (the Top 2 is best-of-3: ruleset.TOP_2_BEST_OF).
BRACKETS = BracketRules(ruleset="doomtown", final_best_of=ruleset.TOP_2_BEST_OF,
                        source="Doomtown Floor Rules 3.G, 5.B, 5.C")


def _time_called(args: Mapping[str, Any]) -> Any:
    return game_end.time_called(args["control"], args["influence"], args["bullets"], args.get("pulls") or (),
                                coin=args.get("coin"))


GAMES: Mapping[str, Game] = MappingProxyType({"doomtown": Game(
    id="doomtown",
    build=lambda settings: ruleset.build("doomtown", settings),
    # Doomtown Floor Rules 3.G, 5.B, 7.E (pairing method not stated: see shared_rules.pairing.policies).
    pairing=PairingPolicy(ruleset="doomtown", source="Doomtown Floor Rules 5.B, 7.E (reading)"),
    brackets=BRACKETS,
    structure_names=structures.NAMES,
    structure=fixed_structure("doomtown", structures.structure),
    # Doomtown Floor Rules 4: control, then influence, then bullets decide at time.
    time_called=TimeCalled(decide=_time_called, inputs=("control", "influence", "bullets")),
    penalties=GENERIC_PENALTIES,
    result_form=ResultForm(),
    # Doomtown Floor Rules 3.A, 5.C: the secret d6, rolled once per roundup.
    secret_time=ruleset.secret_d6,
)})

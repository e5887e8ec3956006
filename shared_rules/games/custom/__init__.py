"""Custom (house rules, EVENT-FORMAT.md ``settings``): where each rule is implemented.

=========================================  ==========================================================
Setting                                    Implemented in
=========================================  ==========================================================
``settings.points`` (outcomes, points)     :func:`.ruleset.build`
``settings.tiebreakers`` (metric keys)     :func:`.ruleset.build`
Pairing (random, bye to the lowest)        ``GAMES[...].pairing`` (below)
``settings.rounds`` / ``cut`` (structure)  :mod:`.structures`
Bracket (standard)                         ``GAMES[...].brackets`` (below)
Penalties (generic)                        :data:`shared_rules.games.base.GENERIC_PENALTIES`
=========================================  ==========================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...brackets.rules import BracketRules
from ...pairing.policies import PairingPolicy
from ..base import GENERIC_PENALTIES, Game, ResultForm
from . import ruleset, structures

__all__ = ["GAMES"]

GAMES: Mapping[str, Game] = MappingProxyType({"custom": Game(
    id="custom",
    build=lambda settings: ruleset.build("custom", settings),
    # House rules: the bye exists when settings.points names it.
    pairing=PairingPolicy(ruleset="custom", source="custom ruleset (house rules)", bye_from_points=True),
    brackets=BracketRules(ruleset="custom", source="custom"),
    structure_names=structures.NAMES,
    structure=structures.structure,
    penalties=GENERIC_PENALTIES,
    result_form=ResultForm(),
)})

"""The tribbles game declarations (:class:`~shared_rules.games.base.Game`): what the registry hands out.

The section table is in the package docstring (``__init__.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ...pairing.policies import PairingPolicy
from ..base import Game, ResultForm, fixed_structure
from ..startrek import settings as startrek_settings
from ..startrek import structures
from ..startrek.decklists import decklists_of
from ..startrek.game import PENALTIES, PLAYER_ID, report_details
from . import (
    pods,
    ruleset,
)

__all__ = ["GAMES"]


GAMES: Mapping[str, Game] = MappingProxyType(
    {
        "tribbles": Game(
            id="tribbles",
            build=lambda settings: ruleset.build("tribbles", settings),
            # Star Trek OP Guide 7.2, 7.6: pods of 4-8, kept five rounds, then re-formed by score.
            pairing=PairingPolicy(
                ruleset="tribbles",
                round_one="pods",
                bye_rule="none",
                rematch_scope="event",
                bye_outcome=None,
                pod_rounds=5,
                source="Star Trek OP Guide 7.2, 7.6",
            ),
            brackets=None,
            no_bracket="pods, Star Trek OP Guide 7.6",
            structure_names=structures.TRIBBLES_NAMES,
            structure=fixed_structure("tribbles", lambda n, name: structures.structure("tribbles", n, name)),
            penalties=PENALTIES,
            decklists=decklists_of("tribbles"),  # Star Trek OP Guide 7, Appendix B D1, D2
            # Star Trek OP Guide 7.2: each player's points this round in the pod.
            result_form=ResultForm(scores=MappingProxyType({"legend": "Pod scores (points this round)", "min": 0})),
            form_pods=pods.form_pods,
            report_details=report_details,  # Star Trek OP Guide 8: the site takes Tribbles events too
            player_id=PLAYER_ID,  # Star Trek OP Guide 7: the trekcc.org forum handle, Tribbles too
            # Star Trek OP Guide 2, 6, 7.1, 8, 11: the same settings as 1E/2E but for variants and match play.
            settings_ui=startrek_settings.sections("tribbles", ruleset.TIME_LIMITS["in-person"]),
            settings_warnings=startrek_settings.warnings,
        )
    }
)

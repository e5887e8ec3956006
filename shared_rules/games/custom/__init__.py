"""Custom (house rules, EVENT-FORMAT.md ``settings``): where each rule is implemented.

=========================================  ==========================================================
Setting                                    Implemented in
=========================================  ==========================================================
``settings.points`` (outcomes, points)     :func:`.ruleset.build`
Results of one game (generic rule)         :func:`.ruleset._pairs`
``settings.tiebreakers`` (metric keys)     :func:`.ruleset.build`
Pairing (random, bye to the lowest)        ``game.GAMES[...].pairing``
``settings.rounds`` / ``cut`` (structure)  :mod:`.structures`
Bracket (standard)                         ``game.GAMES[...].brackets``
Penalties (generic)                        :data:`shared_rules.games.base.GENERIC_PENALTIES`
=========================================  ==========================================================
"""

from __future__ import annotations

from . import ruleset

__all__ = ["ruleset"]

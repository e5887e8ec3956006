"""Doomtown (Doomtown Floor Rules 1.2): where each section is implemented.

=====================================  ==============================================================
Document section                       Implemented in
=====================================  ==============================================================
3.A, 5.C secret d6 round time          :func:`.ruleset.secret_d6`, ``ruleset.TIME_LIMITS``, ``game.GAMES[...].secret_time``
3.C-3.G, 5.B policies (drops, no-show) ``ruleset.POLICIES``
3.H, 7.A, 7.E outcomes and points      ``ruleset.OUTCOMES``
3.D, 3.H, 7.A results of one game      ``ruleset.PAIRS`` (no draw; double loss)
7.B-7.D tiebreakers (MWP, OMWP, entry) ``ruleset.TIEBREAKERS``, :mod:`.standings`
5.B, 7.E pairing and byes (reading)    ``game.GAMES[...].pairing``
5.B structures (rounds and cut)        :mod:`.structures`
3.G, 5.B, 5.C bracket (Top 2 Bo3)      ``game.BRACKETS``
4 time called                          :mod:`.game_end`
Penalties                              :mod:`.penalties`
2.A, 2.D deck lists                    :mod:`.decklists`
3.A, 5.A-5.C event settings, warnings  :mod:`.settings` (the Settings screen)
=====================================  ==============================================================
"""

from __future__ import annotations

# Importing the game's standings registers its tiebreaker metrics with the ranking engine.
from . import ruleset, standings

__all__ = ["ruleset", "standings"]

"""Star Wars: Shatterpoint (Shatterpoint Showdown and Arbiters documents): where each section is implemented.

===============================================  ====================================================
Document section                                 Implemented in
===============================================  ====================================================
Scoring (outcomes, points, Struggle cards)       ``ruleset.OUTCOMES``
End of Match (results of one game)               ``ruleset.PAIRS`` (win / loss, draw)
Tiebreakers                                      ``ruleset.TIEBREAKERS``, :mod:`.standings`
Pairings; Swiss Pairing (stages, byes)           ``game.GAMES[...].pairing``
Showdown structure                               :mod:`.structures`
Progression Cut (replacement before the stage)   ``game.BRACKETS``
Event Round Times (attack dice, Mission Critical) :mod:`.game_end`, ``game.GAMES[...].timer_notes``, ``attack_dice``
End of Match (time, concession)                  :mod:`.game_end`
Arbiters (warnings, three warnings → ejection)   ``game.PENALTIES``
Strike Team (submitted, locked)                  :mod:`.decklists`
===============================================  ====================================================
"""

from __future__ import annotations

# Importing the game's standings registers its tiebreaker metrics with the ranking engine.
from . import ruleset, standings

__all__ = ["ruleset", "standings"]

"""A Game of Thrones: The Card Game 2nd edition (AGoT Tournament Regulations): where each section is implemented.

==========================================  =========================================================
Document section                            Implemented in
==========================================  =========================================================
Scoring, byes, outcomes and points          ``ruleset.OUTCOMES``, ``ruleset.POLICIES``
End of Round (results of one game)          ``ruleset.PAIRS`` (win / loss, modified, draw)
Tiebreakers (strength of schedule, H2H)     ``ruleset.TIEBREAKERS``, :mod:`.standings`
Swiss Rounds (pairing, no rematch)          ``game.GAMES[...].pairing``
Structures (basic, advanced)                :mod:`.structures`
Single Elimination Rounds (game numbers)    ``game.BRACKETS``
Time called (most power)                    :mod:`.game_end`
Penalties                                   :mod:`.penalties`
Player Materials, Deck Building (lists)     :mod:`.decklists`
Tiers, Leader Participation (settings)      ``game.SETTINGS``, :func:`.game.settings_warnings`
==========================================  =========================================================
"""

from __future__ import annotations

# Importing the game's standings registers its tiebreaker metrics with the ranking engine.
from . import ruleset, standings

__all__ = ["ruleset", "standings"]

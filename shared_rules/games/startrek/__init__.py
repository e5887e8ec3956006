"""Star Trek CCG First and Second Edition (Star Trek CCG Organized Play Guide 5.1): where each section is
implemented. Tribbles (the same Guide) is its own game, :mod:`shared_rules.games.tribbles`.

===============================================  ====================================================
Document section                                 Implemented in
===============================================  ====================================================
Section 2, Table 3.0.1 structures (rounds)       :mod:`.structures`
7, 7.2 the trekcc.org forum handle (player ID)  ``game.PLAYER_ID`` (``players[].game_id``)
7.2, 7.5.1, 7.6, 13.4 pairing, byes, earned byes ``game.PAIRING``
7.3, 7.4 outcomes, differential, variants        ``ruleset.OUTCOMES``, :mod:`.scoring`
7.5.1, 13.5 results of one game                  ``ruleset.PAIRS`` (played and not played)
7.7 tiebreakers (SoS, H2H)                       ``ruleset.TIEBREAKERS``, :mod:`.standings`
7.8 modified win at time                         :mod:`.game_end`
8, 11 ratings (Elo)                              :mod:`.ratings`
8, Appendix A tournament report (trekcc.org)     :mod:`.report`
9 heats, 10, 10.2 match play (McIntyre)          ``game.BRACKETS``, :mod:`shared_rules.brackets.heats`
12 leagues (points, playoffs, Champions League)  :mod:`.leagues`
Appendix B penalties (levels 0-4, repeats)       ``game.PENALTIES``
7, Appendix B D1, D2 deck lists                  :mod:`.decklists`
2, 3, 4.3, 6, 7.1, 8, 11 event settings          :mod:`.settings` (the Settings screen, its warnings)
===============================================  ====================================================
"""

from __future__ import annotations

# Importing the game's standings registers its tiebreaker metrics with the ranking engine.
from . import ruleset, standings

__all__ = ["ruleset", "standings"]

"""Tribbles CCG (Star Trek CCG Organized Play Guide 5.1): where each section is implemented.

===============================================  ====================================================
Document section                                 Implemented in
===============================================  ====================================================
7.2, 7.6 pods (4-8, kept five rounds)            ``game.GAMES[...].pairing``, :mod:`.pods`
Outcomes, pod scores, tiebreakers                ``ruleset.OUTCOMES``, :mod:`.standings`
Section 2 structure (at least 5 rounds)          :mod:`shared_rules.games.startrek.structures`
No elimination bracket (pods)                    ``game.GAMES[...].no_bracket``
Ratings (8, 11)                                  :mod:`shared_rules.games.startrek.ratings`
Appendix B penalties                             :data:`shared_rules.games.startrek.game.PENALTIES`
2, 6, 7.1, 8 event settings and warnings         :mod:`shared_rules.games.startrek.settings`
===============================================  ====================================================
"""

from __future__ import annotations

# Importing the game's standings registers its tiebreaker metrics with the ranking engine.
from . import ruleset, standings

__all__ = ["ruleset", "standings"]

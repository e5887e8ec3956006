"""Pokémon TCG and VG (Play! Pokémon Tournament Operation Procedures, TOP): where each section is implemented.

===============================================  ====================================================
Document section                                 Implemented in
===============================================  ====================================================
3.1, 3.1.3 outcomes, points, late losses         ``ruleset.OUTCOMES``, :mod:`.standings`
3.1 results of one match                         ``ruleset.PAIRS`` (win / loss, tie, double loss)
3.1.4.1 tiebreakers (OWP, OOWP, H2H, last opp.)  ``ruleset.TIEBREAKERS``, :mod:`.standings`
3.1.1 age divisions, season, pairing refusals    :mod:`.divisions`
3.1, 3.1.1, 3.1.2, 3.3.3 pairing and byes        ``game.PAIRING``, :mod:`shared_rules.pairing`
3.3.5 structures, day two                        :mod:`.structures`
3.2, 3.3, 3.3.6 bracket (3rd/4th playoff)        ``game.BRACKETS``
TOM save files (.tdf), event kind                :mod:`.tom` (importer, exporter), ``ruleset.KINDS``
TOM userid: the Play! Pokémon ID                 ``game.PLAYER_ID`` (``players[].game_id``)
Penalties                                        :mod:`.penalties`
Deck lists (none asked by the TOP)               :mod:`.decklists`
3.1.1, 3.2, 3.3, 3.3.3, 3.3.5 event settings     :mod:`.settings` (the Settings screen, its warnings)
===============================================  ====================================================
"""

from __future__ import annotations

# Importing the game's standings registers its tiebreaker metrics with the ranking engine.
from . import ruleset, standings

__all__ = ["ruleset", "standings"]

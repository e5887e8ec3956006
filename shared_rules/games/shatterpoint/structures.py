"""Star Wars: Shatterpoint Showdown structure (Shatterpoint Showdown, Progression Cut).

Readings:
- The table starts at 4 players, so 4 is the minimum we accept.
- The document does not say how the stage after a progression cut is played
  ("additional" stage, no rematches reset), so ``elimination`` is ``None`` and
  a note says so.
"""

from __future__ import annotations

from ...structures._model import Structure, require_players, row_for

__all__ = ["NAMES", "TABLE", "MINIMUM_PLAYERS", "structure"]

NAMES: tuple[str, ...] = ("showdown",)

MINIMUM_PLAYERS = 4

# Shatterpoint Showdown, Progression Cut:
# (min players, max players, Swiss rounds, progression cut)
TABLE: tuple[tuple[int, int | None, int, int], ...] = (
    (4, 4, 3, 0),
    (5, 16, 4, 0),
    (17, 32, 4, 4),
    (33, 64, 4, 8),
    (65, None, 5, 16),
)


def structure(players: int, name: str) -> Structure:
    """Rounds and progression cut for a Showdown event.

    >>> s = structure(65, "showdown"); (s.swiss_rounds, s.cut)
    (5, 16)
    """
    require_players(players, MINIMUM_PLAYERS, "shatterpoint")
    _low, _high, rounds, cut = row_for(TABLE, players)
    notes = [
        "Pairings: announce the Swiss rounds and the progression cut before the event",
        "Event Round Times: 120 minutes + 1 per critical/strike on 5 attack dice; Mission Critical in the final 30",
    ]
    if cut:
        notes.append(
            "Progression Cut: a qualifier who drops before the next stage plays is replaced by the next-ranked player"
        )
        notes.append("Progression Cut: the document does not fix the format of the stage after the cut")
    return Structure(
        ruleset="shatterpoint",
        players=players,
        structure=name,
        swiss_rounds=rounds,
        cut=cut,
        minimum_players=MINIMUM_PLAYERS,
        source="Shatterpoint Showdown, Progression Cut",
        notes=tuple(notes),
    )

"""A Game of Thrones LCG 2nd ed. structures (AGoT Tournament Regulations, Tournament Structures).

Readings:
- Player counts are registered players, as the tables say.
- Basic starts at 4 and Advanced at 9: those are the minimums we accept.
- The Custom Structure has no table (the organizer designs it); it is not
  offered here.
"""

from __future__ import annotations

from ...structures._model import Elimination, Structure, elimination_rounds, require_players, row_for

__all__ = ["NAMES", "BASIC", "ADVANCED", "structure"]

NAMES: tuple[str, ...] = ("basic", "advanced")

# AGoT Tournament Regulations, Tournament Structures, Basic Structure:
# (min registered players, max, Swiss rounds, cut)
BASIC: tuple[tuple[int, int | None, int, int], ...] = (
    (4, 8, 3, 0),
    (9, 16, 4, 0),
    (17, 24, 4, 4),
    (25, 40, 5, 4),
    (41, 44, 5, 8),
    (45, 76, 6, 8),
    (77, 148, 6, 16),
    (149, None, 7, 16),
)

# AGoT Tournament Regulations, Tournament Structures, Advanced Structure:
# (min registered players, max, Swiss rounds, cut)
ADVANCED: tuple[tuple[int, int | None, int, int], ...] = (
    (9, 12, 4, 4),
    (13, 24, 4, 8),
    (25, 40, 5, 8),
    (41, 76, 6, 8),
    (77, 148, 6, 16),
    (149, 288, 6, 32),
    (289, 512, 7, 32),
    (513, None, 8, 32),
)


def structure(players: int, name: str) -> Structure:
    """Rounds and cut for an AGoT tournament.

    >>> s = structure(41, "basic"); (s.swiss_rounds, s.cut)
    (5, 8)
    """
    table = ADVANCED if name == "advanced" else BASIC
    minimum = table[0][0]
    require_players(players, minimum, f"agot {name}")
    _low, _high, rounds, cut = row_for(table, players)
    notes = [
        "Pairings: announce the rounds, any single elimination and the cut size before the start",
        "Pairings: rounds are 55 minutes",
    ]
    elimination = None
    if cut:
        # AGoT Tournament Regulations, Single Elimination Rounds: the final is untimed.
        elimination = Elimination(rounds=elimination_rounds(cut), best_of=1, final_best_of=1, final_untimed=True)
        notes.append("Single Elimination Rounds: 1 v lowest as Game #1; winner of #1 v winner of the last game next")
    return Structure(
        ruleset="agot",
        players=players,
        structure=name,
        swiss_rounds=rounds,
        cut=cut,
        minimum_players=minimum,
        source=f"AGoT Tournament Regulations, Tournament Structures, {name.title()} Structure",
        elimination=elimination,
        notes=tuple(notes),
    )

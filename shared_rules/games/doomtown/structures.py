"""Doomtown: Reloaded roundup structure (Doomtown Floor Rules 1.2, 5.A and 5.B).

Readings:
- The 5.B list starts at 4 players and 5.A's lowest attendance minimum is 4
  (Organized Play Season and Social roundups), so 4 is the minimum we accept;
  below 8 we add a note that Convention, Badge and Destination roundups need 8.
- ``multi-day`` only changes the 33+ row (top 16 instead of top 8); below 33
  both structures are the same list.
"""

from __future__ import annotations

from ...structures._model import Elimination, Structure, elimination_rounds, require_players, row_for
from .ruleset import TOP_2_BEST_OF

__all__ = ["NAMES", "TABLE", "MINIMUM_PLAYERS", "structure"]

NAMES: tuple[str, ...] = ("single-day", "multi-day")

# Doomtown Floor Rules 5.A: Season and Social roundups need 4 players; Official
# Convention, Badge and Destination roundups need 8.
MINIMUM_PLAYERS = 4
OFFICIAL_MINIMUM_PLAYERS = 8

# Doomtown Floor Rules 5.B, Number of Rounds and Cuts:
# (min players, max players, Swiss rounds, cut if single day, cut if multi-day)
TABLE: tuple[tuple[int, int | None, int, int, int], ...] = (
    (4, 8, 3, 2, 2),
    (9, 16, 4, 4, 4),
    (17, 32, 5, 8, 8),
    (33, None, 6, 8, 16),
)


def structure(players: int, name: str) -> Structure:
    """Rounds and cut for a Doomtown roundup.

    >>> s = structure(33, "multi-day"); (s.swiss_rounds, s.cut)
    (6, 16)
    """
    require_players(players, MINIMUM_PLAYERS, "doomtown")
    _low, _high, rounds, single_cut, multi_cut = row_for(TABLE, players)
    cut = multi_cut if name == "multi-day" else single_cut
    notes = [
        "5.B: players who drop before round 1 do not count; rounds cannot change once announced",
        "5.B: Organized Play Season roundups may substitute a Top X for the listed cut",
        "5.B: cut bracket padded with byes to a power of two, 1 v lowest, kept so every round",
        f"3.E/5.C: cut rounds may be untimed (expected for the Top 2); Top 2 best-of-{TOP_2_BEST_OF} in Official "
        "roundups",
    ]
    if players < OFFICIAL_MINIMUM_PLAYERS:
        notes.append(
            f"5.A: below the minimum of {OFFICIAL_MINIMUM_PLAYERS} for Official Convention, Badge "
            "and Destination roundups (4 suffices for Season and Social roundups)"
        )
    if rounds >= 6:
        notes.append("5.C: 6 or more rounds need at least one 30-minute food break")
    return Structure(
        ruleset="doomtown",
        players=players,
        structure=name,
        swiss_rounds=rounds,
        cut=cut,
        minimum_players=MINIMUM_PLAYERS,
        source="Doomtown Floor Rules 5.B",
        elimination=Elimination(rounds=elimination_rounds(cut), best_of=1, final_best_of=TOP_2_BEST_OF),
        notes=tuple(notes),
    )

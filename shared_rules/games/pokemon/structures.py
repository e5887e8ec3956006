"""Pokémon Swiss plus Single Elimination structures (Pokémon TOP 3.3.5).

Readings:
- Each table's first row prints only "8" in the source text (its lower bound
  is lost); we read it as the 4-8 row, so 4 players is the minimum we accept.
  An Age-Modified event whose largest division is below 4 still uses that row.
- The VG International Championships table and the TCG Two-Day table are
  printed with the same rows, so both read ``TWO_DAY``.
- ``players`` means players per age division (3.3.5); for an Age-Modified
  event the largest division decides (see :func:`division_structures`).
- The document does not say whether matches are best-of-one or best-of-three,
  so ``elimination.best_of`` is ``None``.
- Day two (3.3.5, "*"): every player with 19 or more match points, or the top
  32 ranked players, whichever is the larger group. When 32 or more players
  have 19+, exactly those players advance; otherwise the top 32 by Swiss rank
  (which holds every 19+ player, since rank is led by match record).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from shared_rules.errors import RulesError

from ...structures._model import DayTwo, Elimination, Structure, elimination_rounds, require_players, row_for

__all__ = [
    "VG_NAMES",
    "TCG_NAMES",
    "VG_PREMIER",
    "TCG_SINGLE_DAY",
    "TWO_DAY",
    "DAY_TWO_MIN_POINTS",
    "DAY_TWO_TOP",
    "MINIMUM_PLAYERS",
    "AGE_SEPARATED_MINIMUM",
    "structure",
    "division_structures",
    "day_two_qualifiers",
]

VG_NAMES: tuple[str, ...] = ("premier", "international")
TCG_NAMES: tuple[str, ...] = ("single-day", "two-day")

MINIMUM_PLAYERS = 4  # reading of the first row of every 3.3.5 table (see module docstring)

# Pokémon TOP 3.1.1: Age-Separated (podded) Swiss needs at least 6 players in each division.
AGE_SEPARATED_MINIMUM = 6

# Pokémon TOP 3.3.5, VG Premier Challenge, Midseason Showdown, and Regional Championships:
# (min players per age division, max, Swiss rounds, single-elimination cut)
VG_PREMIER: tuple[tuple[int, int | None, int, int], ...] = (
    (4, 8, 3, 2),
    (9, 16, 4, 4),
    (17, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 256, 8, 16),
    (257, 409, 9, 16),
    (410, 512, 9, 32),
    (513, None, 10, 32),
)

# Pokémon TOP 3.3.5, TCG Single-Day Swiss Format:
# (min players per age division, max, Swiss rounds, single-elimination cut)
TCG_SINGLE_DAY: tuple[tuple[int, int | None, int, int], ...] = (
    (4, 8, 3, 0),
    (9, 12, 4, 4),
    (13, 20, 5, 4),
    (21, 32, 5, 8),
    (33, 64, 6, 8),
    (65, 128, 7, 8),
    (129, 226, 8, 8),
    (227, 409, 9, 8),
    (410, None, 10, 8),
)

# Pokémon TOP 3.3.5, VG International Championships and TCG Two-Day Swiss Format
# (the document prints the same rows for both):
# (min players per age division, max, day-1 Swiss rounds, day-2 Swiss rounds or None, cut)
TWO_DAY: tuple[tuple[int, int | None, int, int | None, int], ...] = (
    (4, 8, 3, None, 0),
    (9, 12, 4, None, 4),
    (13, 20, 5, None, 4),
    (21, 32, 5, None, 8),
    (33, 64, 6, None, 8),
    (65, 128, 7, None, 8),
    (129, 226, 8, None, 8),
    (227, 799, 9, 5, 8),
    (800, None, 9, 6, 8),
)

# Pokémon TOP 3.3.5, "*": 19 or more match points or the Top 32, whichever is greater.
DAY_TWO_MIN_POINTS = 19
DAY_TWO_TOP = 32

_COMMON_NOTES = (
    "3.3.5: the organizer may run one fewer Swiss round",
    "3.3.5: in an Age-Modified event the largest age division sets the rounds",
    "3.3: the cut is a power of two, about the same share of each age division",
    "3.3.6: players outside the cut keep their Swiss place; a 3rd/4th playoff is optional",
)


def structure(ruleset: str, players: int, name: str, *, table_players: int | None = None) -> Structure:
    """Rounds and cut for one Pokémon age division (or the largest, if Age-Modified).

    >>> s = structure("pokemon-tcg", 143, "single-day"); (s.swiss_rounds, s.cut, s.total_rounds)
    (8, 8, 11)
    """
    require_players(players, MINIMUM_PLAYERS, ruleset)
    lookup = max(players if table_players is None else table_players, MINIMUM_PLAYERS)
    notes = list(_COMMON_NOTES)
    day_two = None
    if name in ("two-day", "international"):
        _low, _high, day_one, day_two_rounds, cut = row_for(TWO_DAY, lookup)
        rounds = day_one
        if day_two_rounds is not None:
            day_two = DayTwo(day_one, day_two_rounds, DAY_TWO_MIN_POINTS, DAY_TWO_TOP)
            rounds = day_one + day_two_rounds
            notes.append(
                f"3.3.5: day two = every player with {DAY_TWO_MIN_POINTS}+ match points "
                f"or the top {DAY_TWO_TOP}, whichever is more"
            )
        source = "Pokémon TOP 3.3.5, " + (
            "VG International Championships" if ruleset == "pokemon-vg" else "TCG Two-Day Swiss Format"
        )
    elif ruleset == "pokemon-vg":
        _low, _high, rounds, cut = row_for(VG_PREMIER, lookup)
        source = "Pokémon TOP 3.3.5, VG Premier Challenge, Midseason Showdown, and Regional Championships"
    else:
        _low, _high, rounds, cut = row_for(TCG_SINGLE_DAY, lookup)
        source = "Pokémon TOP 3.3.5, TCG Single-Day Swiss Format"
    elimination = Elimination(rounds=elimination_rounds(cut), best_of=None, final_best_of=None) if cut else None
    return Structure(
        ruleset=ruleset,
        players=players,
        structure=name,
        swiss_rounds=rounds,
        cut=cut,
        minimum_players=MINIMUM_PLAYERS,
        source=source,
        elimination=elimination,
        day_two=day_two,
        notes=tuple(notes),
    )


def division_structures(ruleset: str, division_players: Mapping[str, int], name: str) -> dict[str, Structure]:
    """One structure per age division: its own size if Age-Separated, the largest if Age-Modified.

    Age-Modified applies when any division has one to five players
    (Pokémon TOP 3.1.2); divisions with no players are absent.

    >>> s = division_structures("pokemon-tcg", {"junior": 3, "senior": 7, "masters": 30}, "single-day")
    >>> {d: x.swiss_rounds for d, x in s.items()}
    {'junior': 5, 'senior': 5, 'masters': 5}
    """
    sizes = {d: n for d, n in division_players.items() if n}
    for division, count in sizes.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(f"division_players.{division}: {count!r} is not a player count")
    if not sizes:
        raise RulesError("division_players: no players in any age division")
    # Pokémon TOP 3.1.1 / 3.1.2: podded only when every division has at least 6.
    if all(n >= AGE_SEPARATED_MINIMUM for n in sizes.values()):
        return {d: structure(ruleset, n, name) for d, n in sizes.items()}
    total = sum(sizes.values())
    largest = max(sizes.values())
    # Pokémon TOP 3.3.5: Age-Modified - the largest age division (pod) sets the Swiss rounds.
    shared = structure(ruleset, total, name, table_players=largest)
    note = f"3.3.5: Age-Modified event; rounds set by the largest division ({largest} players)"
    shared = replace(shared, notes=shared.notes + (note,))
    return {d: shared for d in sizes}


def day_two_qualifiers(points_by_player: Mapping[str, int], swiss_rank: Sequence[str]) -> list[str]:
    """Players making day two, in Swiss rank order (Pokémon TOP 3.3.5, "*").

    Every player with 19+ match points, or the top 32 ranked players,
    whichever group is larger.

    >>> day_two_qualifiers({"a": 21, "b": 19, "c": 3}, ["a", "b", "c"])
    ['a', 'b', 'c']
    """
    seen: set[str] = set()
    for player in swiss_rank:
        if player in seen:
            raise RulesError(f"swiss_rank: {player!r} is listed twice")
        if player not in points_by_player:
            raise RulesError(f"swiss_rank: {player!r} has no match points")
        seen.add(player)
    missing = [p for p in points_by_player if p not in seen]
    if missing:
        raise RulesError(f"swiss_rank: {missing[0]!r} has match points but no Swiss rank")
    by_points = [p for p in swiss_rank if points_by_player[p] >= DAY_TWO_MIN_POINTS]
    by_rank = list(swiss_rank[:DAY_TWO_TOP])
    return by_points if len(by_points) >= len(by_rank) else by_rank

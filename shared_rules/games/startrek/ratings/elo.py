"""Elo arithmetic in whole numbers, so CPython and Pyodide agree to the point.

Expected scores are held as integers in billionths (``UNIT``); a game's
score in halves; the weighted sum of an event is exact integer arithmetic
and only the final change is rounded (half away from zero).
"""

from __future__ import annotations

from .rules import CEILING, FLOOR, SCALE

__all__ = ["UNIT", "WEIGHT", "expected", "expected_table", "event_change", "clamp"]

#: Expected scores are whole billionths of a game.
UNIT = 10**9
#: A two-player game's weight; a Tribbles pod of n gives each of its n-1
#: pairings WEIGHT // (n - 1) (420 is divisible by 1..7).
WEIGHT = 420

_TABLE: list[int] = []


def expected_table() -> list[int]:
    """``table[d]``: billionths a player expects against an opponent ``d`` >= 0 points *lower*.

    Elo's logistic curve, 1 / (1 + 10 ** (-d / SCALE)), rounded to the nearest
    billionth. ``tests/rules/games/startrek/test_ratings_elo.py`` checks every entry against
    exact decimal arithmetic (in CPython and Pyodide), so no libm difference
    can move a rating.

    >>> t = expected_table(); t[0], t[400], t[3000]
    (500000000, 909090909, 999999968)
    """
    if not _TABLE:
        _TABLE.extend(round(UNIT / (1.0 + 10.0 ** (-d / SCALE))) for d in range(CEILING - FLOOR + 1))
    return _TABLE


def expected(rating: int, opponent: int) -> int:
    """Billionths of a game ``rating`` is expected to score against ``opponent`` (Elo).

    >>> expected(1500, 1500), expected(1900, 1500) + expected(1500, 1900)
    (500000000, 1000000000)
    """
    d = rating - opponent
    table = expected_table()
    return table[d] if d >= 0 else UNIT - table[-d]


def event_change(k: int, total: int) -> int:
    """Rating change for an event: k x total, where ``total`` is the sum over the
    event's rated games of weight x (score - expected) in halves x billionths x WEIGHT,
    rounded to a whole point, half away from zero.

    >>> event_change(28, 2 * WEIGHT * UNIT // 4)     # one game scoring 1 against 0.75 expected
    7
    >>> event_change(28, -2 * WEIGHT * UNIT // 4)
    -7
    """
    denominator = 2 * WEIGHT * UNIT
    magnitude = (2 * abs(k * total) + denominator) // (2 * denominator)
    return magnitude if total >= 0 else -magnitude


def clamp(rating: int) -> int:
    """Star Trek OP Guide 8: ratings range from 0 to 3000.

    >>> clamp(-12), clamp(1500), clamp(3010)
    (0, 1500, 3000)
    """
    return FLOOR if rating < FLOOR else CEILING if rating > CEILING else rating

"""League points: Table 12.4.1 of the Star Trek CCG Organized Play Guide 5.1 as data."""

from __future__ import annotations

__all__ = ["MINIMUM_PLAYERS", "PLACE_BANDS", "POINT_TABLE", "league_points"]

#: Star Trek OP Guide 12.4: "a league event must have at least three participating players".
MINIMUM_PLAYERS = 3

#: The place columns of Table 12.4.1: (first place, last place) of each band.
PLACE_BANDS: tuple[tuple[int, int], ...] = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32))

#: Star Trek OP Guide 12.4, Table 12.4.1 (WCT League Point Structure): one row per band of
#: player counts, ``(fewest players, most players or None for "32+", points per place band)``;
#: ``None`` where the table has no entry (no such place, or "-").
POINT_TABLE: tuple[tuple[int, int | None, tuple[int | None, ...]], ...] = (
    (3, 5, (12, 8, 6, 4, None, None)),
    (6, 7, (16, 12, 10, 8, None, None)),
    (8, 9, (20, 16, 12, 10, 8, None)),
    (10, 11, (24, 20, 16, 14, 10, None)),
    (12, 13, (28, 24, 20, 18, 14, None)),
    (14, 15, (32, 28, 24, 22, 18, None)),
    (16, 19, (36, 32, 28, 26, 22, 18)),
    (20, 23, (40, 36, 32, 30, 26, 22)),
    (24, 27, (44, 40, 36, 34, 30, 26)),
    (28, 31, (48, 44, 40, 38, 34, 30)),
    (32, None, (52, 48, 44, 42, 38, 34)),
)


def league_points(players: int, place: int) -> int:
    """League points for finishing in ``place`` at a league event of ``players`` participants.

    Star Trek OP Guide 12.4, Table 12.4.1; 0 below the 3-player minimum, and for a
    place the table gives nothing (beyond 32nd, or a "-" cell).

    >>> league_points(4, 1), league_points(20, 17), league_points(40, 33), league_points(2, 1)
    (12, 22, 0, 0)
    """
    if (
        isinstance(players, bool)
        or isinstance(place, bool)
        or not isinstance(players, int)
        or not isinstance(place, int)
    ):
        raise TypeError("league_points takes whole numbers")
    if players < MINIMUM_PLAYERS or place < 1 or place > players:
        return 0
    for low, high, row in POINT_TABLE:
        if players >= low and (high is None or players <= high):
            for (first, last), value in zip(PLACE_BANDS, row):
                if first <= place <= last:
                    return value or 0
            return 0
    return 0  # pragma: no cover - the last row has no upper bound

"""Bracket order: where each seed sits so that 1 v lowest holds every round.

Doomtown Floor Rules 5.B: "Fill in byes to the next power of 2 ... the highest
ranked player from Swiss playing against the lowest; the second highest
against the second lowest ... organized in such a way as to ensure that this
works in each round" (16 players: 1 v 16, then the winner of 8 v 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..errors import RulesError

__all__ = ["next_power_of_two", "bracket_order", "first_round_pairs", "fold_pairs", "bye_count"]

T = TypeVar("T")


def next_power_of_two(n: int) -> int:
    """The smallest power of two at or above ``n`` (at least 2).

    >>> next_power_of_two(53), next_power_of_two(8), next_power_of_two(1)
    (64, 8, 2)
    """
    if n < 1:
        raise RulesError(f"players: a bracket needs at least 1 player, got {n}")
    size = 2
    while size < n:
        size *= 2
    return size


def bye_count(players: int) -> int:
    """Byes needed to fill ``players`` up to the next power of two (Pokémon TOP 3.2: 53 → 11).

    >>> bye_count(53), bye_count(6), bye_count(16)
    (11, 2, 0)
    """
    return next_power_of_two(players) - players


def bracket_order(size: int) -> list[int]:
    """Seeds in bracket-line order; neighbours (1st-2nd, 3rd-4th...) meet in round one.

    Each doubling replaces seed ``s`` by ``s`` and ``2m + 1 - s`` (``m`` the old size),
    so in every round the surviving top seed meets the surviving bottom seed.

    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    >>> bracket_order(16)[:4]
    [1, 16, 8, 9]
    """
    if size < 2 or size & (size - 1):
        raise RulesError(f"size: a bracket holds a power of two players, not {size}")
    order = [1, 2]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def first_round_pairs(players: int) -> list[tuple[int, int | None]]:
    """Round-one seed pairs in bracket order, padded with byes (``None``) for the top seeds.

    >>> first_round_pairs(6)
    [(1, None), (4, 5), (2, None), (3, 6)]
    """
    order = bracket_order(next_power_of_two(players))
    return [(a, b if b <= players else None) for a, b in zip(order[0::2], order[1::2])]


def fold_pairs(items: Sequence[T]) -> list[tuple[T, T]]:
    """First with last, second with second-to-last… (AGoT game numbers).

    >>> fold_pairs([1, 2, 3, 4])
    [(1, 4), (2, 3)]
    """
    n = len(items)
    if n % 2:
        raise RulesError(f"games: {n} games cannot be folded into pairs")
    return [(items[i], items[n - 1 - i]) for i in range(n // 2)]

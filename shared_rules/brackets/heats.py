"""Star Trek two-heat seeding (Star Trek OP Guide 9).

"The top players from the first heat taking seeds #1, #2, #5, #6, etc.; and
the top players from heat two taking seeds #3, #4, #7, #8, etc."
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import RulesError

__all__ = ["two_heat_seeds"]


def two_heat_seeds(heat_one: Sequence[str], heat_two: Sequence[str]) -> list[str]:
    """Match-play seeds, best first: pairs of qualifiers alternating from heat one and heat two.

    Each heat's qualifiers are given best first.

    >>> two_heat_seeds(["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"])
    ['a1', 'a2', 'b1', 'b2', 'a3', 'a4', 'b3', 'b4']
    """
    if len(heat_one) != len(heat_two):
        raise RulesError(
            f"heats: heat one has {len(heat_one)} qualifiers and heat two {len(heat_two)}; "
            "two-heat seeding takes the same number from each"
        )
    both = [*heat_one, *heat_two]
    if len(set(both)) != len(both):
        raise RulesError("heats: a player qualified from both heats (Star Trek OP Guide 9 forbids it)")
    seeds: list[str] = []
    for start in range(0, len(heat_one), 2):
        seeds.extend(heat_one[start : start + 2])
        seeds.extend(heat_two[start : start + 2])
    return seeds

"""Table numbers: highest point groups at the lowest tables; byes have none; fixed tables stay put.

Readings (no document fixes table numbers): tables are ordered by the
higher of the two players' points, then the lower, then the pool order
(Pokémon Age-Separated divisions Masters, Senior, Junior; flights 1, 2, ...),
then the players' ids. A player with ``fixed_table`` (accessibility) sits at
that table every round; every other match takes the lowest free number. If
two matches claim the same fixed table, the first in table order keeps it and
the other is numbered like any match, with a warning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["number_tables", "fixed_table_of"]


def fixed_table_of(extra: Mapping[str, object]) -> int | None:
    """The player's ``fixed_table`` when it is a positive whole number.

    >>> fixed_table_of({"fixed_table": 12}), fixed_table_of({})
    (12, None)
    """
    value = extra.get("fixed_table")
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    return None


def number_tables(
    groups: Sequence[tuple[str, ...]],
    points: Mapping[str, float],
    fixed: Mapping[str, int],
    pool_index: Mapping[str, int] | None = None,
) -> tuple[list[int | None], list[str]]:
    """Table number for each match (``None`` for a one-player match) and any warnings.

    >>> number_tables([("a", "b"), ("c",), ("d", "e")], {"a": 3, "b": 3, "c": 0, "d": 6, "e": 3}, {})
    ([2, None, 1], [])
    >>> number_tables([("a", "b"), ("d", "e")], {"a": 3, "b": 3, "d": 6, "e": 3}, {"a": 1})
    ([1, 2], [])
    """
    pool_index = pool_index or {}
    tables: list[int | None] = [None] * len(groups)
    seated = [i for i, g in enumerate(groups) if len(g) > 1]

    def order(i: int) -> tuple[object, ...]:
        g = groups[i]
        if len(g) == 2:  # a table of two (the usual case), without generators: the same key
            a, b = g
            pa, pb = points.get(a, 0), points.get(b, 0)
            index = min(pool_index.get(a, 0), pool_index.get(b, 0))
            return (index, [-pa, -pb] if pa >= pb else [-pb, -pa], [a, b] if a <= b else [b, a])
        ps = sorted((points.get(pid, 0) for pid in g), reverse=True)
        return (min(pool_index.get(pid, 0) for pid in g), [-p for p in ps], sorted(g))

    def pair_order(i: int) -> tuple[object, ...]:
        # order(i) of a table of two, flattened: the same comparisons when every seated group has two.
        a, b = groups[i]
        pa, pb = points.get(a, 0), points.get(b, 0)
        index = min(pool_index.get(a, 0), pool_index.get(b, 0))
        return (index, *((-pa, -pb) if pa >= pb else (-pb, -pa)), *((a, b) if a <= b else (b, a)))

    seated.sort(key=pair_order if all(len(groups[i]) == 2 for i in seated) else order)
    warnings: list[str] = []
    taken: set[int] = set()
    for i in seated if fixed else ():  # without fixed tables (the usual case) every match is numbered below
        wanted = sorted(t for t in (fixed.get(pid) for pid in groups[i]) if t is not None)
        for t in wanted:
            if t not in taken:
                tables[i] = t
                taken.add(t)
                break
        else:
            if wanted:
                warnings.append(f"{', '.join(groups[i])}: fixed table {wanted[0]} is already taken")
    number = 1
    for i in seated:
        if tables[i] is not None:
            continue
        while number in taken:
            number += 1
        tables[i] = number
        taken.add(number)
    return tables, warnings

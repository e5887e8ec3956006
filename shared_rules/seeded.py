"""Deterministic random draws derived from an event's seed.

Every "random" choice the documents ask for (round-1 pairings, byes, the last
tiebreaker) is drawn here, so that CPython on the server and Pyodide on a tablet
replaying the same event document make exactly the same draw.  The draws use
SHA-256 over the seed and a context label, never :mod:`random`, whose
algorithms may change between Python versions.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

__all__ = ["Rng", "draw_key"]


def draw_key(seed: str, *context: object) -> int:
    """A 64-bit integer fixed by the seed and the context labels.

    >>> draw_key("8f2c1e", "tiebreak", "p1") == draw_key("8f2c1e", "tiebreak", "p1")
    True
    """
    text = "\x1f".join([str(seed), *(str(c) for c in context)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


class Rng:
    """A reproducible stream of draws for one purpose of one event.

    >>> Rng("s", "round", 1).shuffled([1, 2, 3]) == Rng("s", "round", 1).shuffled([1, 2, 3])
    True
    """

    __slots__ = ("_prefix", "_counter")

    def __init__(self, seed: str, *context: object) -> None:
        self._prefix = "\x1f".join([str(seed), *(str(c) for c in context)]).encode("utf-8")
        self._counter = 0

    def _next64(self) -> int:
        self._counter += 1
        digest = hashlib.sha256(self._prefix + b"\x1e" + str(self._counter).encode()).digest()
        return int.from_bytes(digest[:8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias).

        >>> 0 <= Rng("s").below(7) < 7
        True
        """
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        """One item of a non-empty sequence.

        >>> Rng("s").choice(["only"])
        'only'
        """
        return items[self.below(len(items))]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in a random order (Fisher-Yates).

        >>> sorted(Rng("s").shuffled([3, 1, 2]))
        [1, 2, 3]
        """
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

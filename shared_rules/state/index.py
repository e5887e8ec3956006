"""Where a row is in one of a state's lists (a player by id or entry, a match by table), without a scan per look-up.

A fold looks players and matches up thousands of times: a scan of the roster per registration and of the
round per result made a 2,048-player event's fold grow with the square of the field (issue 27). The state
stays plain JSON (exports, snapshots, what a device is sent hold no index): an index lives here, beside it,
keyed by the list it indexes, and is checked at every use, so it can never give a wrong answer:

* a position it gives is read back from the list (``rows[i][key] == value``), else the index is rebuilt;
* a value it does not know is absent only if the list is the one indexed and has only grown at its end since
  (its length, and the row that was last, are the same object at the same place); new rows are then indexed
  alone. Anything else (a row taken out, a copy of the state) rebuilds it from the list;
* a key changed in place on a row that stays (a player's game ID edited) is announced with :func:`forget`.

Each index holds its list (so an id is never reused for another while indexed); a few dozen are kept, which
covers the states a device or the server holds at once (the server's, the working one, a spare copy), the oldest
let go first. A copy made only to try an operation on is let go with :func:`release` once tried, so that no
index keeps a discarded copy of an event alive.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

__all__ = ["position", "largest", "has_open", "forget", "release"]

#: How many lists are indexed at once (the oldest index is let go for a new one, and rebuilt on use).
_KEEP = 64


class _Positions:
    """Positions of one list's rows by one key (the first row with each value, or the last with ``last``)."""

    __slots__ = ("rows", "key", "last", "n", "tail", "at", "top")

    def __init__(self, rows: list[Any], key: str, last: bool) -> None:
        self.rows, self.key, self.last = rows, key, last
        self.n, self.tail = 0, None
        self.at: dict[Hashable, int] = {}
        self.top: Any = None
        self.extend()

    def extend(self) -> None:
        """Index the rows added at the end since the last look."""
        rows, key, at = self.rows, self.key, self.at
        for i in range(self.n, len(rows)):
            value = rows[i][key]
            if self.last or value not in at:
                at[value] = i
            if value is not None and (self.top is None or value > self.top):
                self.top = value
        self.n = len(rows)
        self.tail = rows[-1] if rows else None

    def current(self, rows: list[Any]) -> bool:
        """Whether ``rows`` is the indexed list, only grown at its end since it was indexed."""
        n = self.n
        return self.rows is rows and len(rows) >= n and (n == 0 or rows[n - 1] is self.tail)


_INDEXES: dict[tuple[int, str, bool], _Positions] = {}


def _positions(rows: list[Any], key: str, last: bool) -> _Positions:
    handle = (id(rows), key, last)
    index = _INDEXES.get(handle)
    if index is None or not index.current(rows):
        _INDEXES.pop(handle, None)
        while len(_INDEXES) >= _KEEP:
            del _INDEXES[next(iter(_INDEXES))]
        index = _INDEXES[handle] = _Positions(rows, key, last)
    elif len(rows) > index.n:
        index.extend()
    return index


def position(rows: list[Any], key: str, value: Hashable, *, last: bool = False) -> int | None:
    """The position of the first row (``last``: the last) whose ``key`` is ``value``, or None: there is none.

    >>> rows = [{"id": "a"}, {"id": "b"}]
    >>> position(rows, "id", "b"), position(rows, "id", "c")
    (1, None)
    >>> rows.append({"id": "c"}); position(rows, "id", "c")
    2
    >>> del rows[0]; position(rows, "id", "c")
    1
    """
    index = _positions(rows, key, last)
    at = index.at.get(value)
    if at is not None and rows[at][key] != value:  # a key changed in place without forget(): rebuilt
        forget(rows)
        at = _positions(rows, key, last).at.get(value)
    return at


def largest(rows: list[Any], key: str) -> Any:
    """The largest value of ``key`` in the rows (None: no rows, or all None).

    >>> largest([{"entry": 3}, {"entry": 7}, {"entry": 5}], "entry")
    7
    """
    return _positions(rows, key, False).top


def forget(rows: list[Any]) -> None:
    """Let go of every index of ``rows`` (a key was changed in place on one of them)."""
    for handle in [h for h in _INDEXES if h[0] == id(rows)]:
        del _INDEXES[handle]
    _OPEN.pop(id(rows), None)


def release(state: dict[str, Any]) -> None:
    """Let go of every index of a state's lists (its roster and its rounds' matches): a copy that is done with."""
    forget(state.get("players") or [])
    for rnd in state.get("rounds") or []:
        forget(rnd.get("matches") or [])


#: Per list of matches: the list, and positions of rows that were open when last looked (the last one first).
_OPEN: dict[int, tuple[list[Any], list[int]]] = {}


def has_open(rows: list[Any], settled: Callable[[Any], bool]) -> bool:
    """Whether some row is not ``settled`` (a round's match without its result), in constant time per call while
    rows settle one by one: rows seen open are remembered and checked first; only a list where none of them is
    open any more is read whole (once a round is complete, or when it completes).

    >>> rows = [{"s": 0}, {"s": 0}]
    >>> done = lambda r: r["s"] == 1
    >>> has_open(rows, done)
    True
    >>> rows[0]["s"] = 1; has_open(rows, done)
    True
    >>> rows[1]["s"] = 1; has_open(rows, done)
    False
    >>> rows[0]["s"] = 0; has_open(rows, done)
    True
    """
    seen = _OPEN.get(id(rows))
    if seen is not None and seen[0] is rows:
        hints = seen[1]
        while hints:
            i = hints[-1]
            if i < len(rows) and not settled(rows[i]):
                return True
            hints.pop()
    _OPEN.pop(id(rows), None)
    while len(_OPEN) >= _KEEP:
        del _OPEN[next(iter(_OPEN))]
    hints = [i for i in range(len(rows) - 1, -1, -1) if not settled(rows[i])]
    _OPEN[id(rows)] = (rows, hints)
    return bool(hints)

"""Finding players, rounds and matches in a state, refusing with a reason a device can show."""

from __future__ import annotations

from typing import Any, cast

from .index import position
from .operations import OperationRejected

__all__ = ["find_player", "find_round", "find_match", "where", "current_round", "round_index"]


def find_player(state: dict[str, Any], pid: str) -> dict[str, Any]:
    """The player row with that id.

    >>> find_player({"players": []}, "p9")
    Traceback (most recent call last):
    ...
    shared_rules.state.operations.OperationRejected: unknown player 'p9'
    """
    players = state["players"]
    at = position(players, "id", pid)  # an index, not a scan of the roster (shared_rules/state/index.py)
    if at is None:
        raise OperationRejected(f"unknown player '{pid}'")
    return cast(dict[str, Any], players[at])


def find_round(state: dict[str, Any], number: int, stage: str | None = None) -> tuple[int, dict[str, Any]]:
    """(play-order index, round) for a round number (and stage, when numbers repeat across stages)."""
    found = [
        (i, r)
        for i, r in enumerate(state["rounds"])
        if r["number"] == number and (stage is None or r["stage"] == stage)
    ]
    if not found:
        suffix = f" ({stage})" if stage else ""
        raise OperationRejected(f"round {number}{suffix} is not paired")
    if len(found) > 1:
        raise OperationRejected(f"round {number} exists in several stages; name its stage")
    return found[0]


def find_match(rnd: dict[str, Any], table: int | None, index: int | None) -> tuple[int, dict[str, Any]]:
    """(index, match) by table number or by index in the round."""
    if table is None and index is None:
        raise OperationRejected(
            f"round {rnd['number']}: name the match by table or by index (payload.table or payload.match)"
        )
    matches = rnd["matches"]
    if table is not None:
        if index is None:
            at = position(matches, "table", table)  # an index, not a scan of the round per result
            if at is not None:
                return at, matches[at]
        elif 0 <= index < len(matches) and matches[index]["table"] == table:
            return index, matches[index]
        raise OperationRejected(f"round {rnd['number']} has no table {table}")
    assert index is not None
    if index >= len(rnd["matches"]):
        raise OperationRejected(f"round {rnd['number']} has no match {index} (it has {len(rnd['matches'])})")
    return index, rnd["matches"][index]


def where(rnd: dict[str, Any], index: int) -> str:
    """How a device names a match.

    >>> where({"number": 2, "matches": [{"table": 5}]}, 0)
    'round 2 table 5'
    """
    table = rnd["matches"][index]["table"]
    return f"round {rnd['number']} table {table}" if table is not None else f"round {rnd['number']} match {index}"


def current_round(state: dict[str, Any]) -> dict[str, Any] | None:
    """The latest round that has started (None before round 1 starts)."""
    for rnd in reversed(state["rounds"]):
        if rnd["status"] in ("started", "complete"):
            return cast(dict[str, Any], rnd)
    return None


def round_index(state: dict[str, Any], rnd: dict[str, Any]) -> int:
    """A round's position in play order."""
    for i, r in enumerate(state["rounds"]):
        if r is rnd:
            return i
    raise ValueError("round not in state")

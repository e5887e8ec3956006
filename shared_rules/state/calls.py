"""Calls in the hall: a judge called to a table, a player called to a table or the judge station.

Project decision (RULES.md is silent on the means; every game's documents have players raise a hand and
call a judge — Doomtown 2.C, AGoT "Judges", Shatterpoint "Arbiters", Pokémon TOP 5 — and staff page a
player to a table): the phone replaces the raised hand and the hall microphone.

- ``call.judge`` — a player for their own table (the table of their match in the latest round that is
  posted), or staff for any table; ``reason`` a short text.
- ``call.player`` — staff ask a player to come to a table (``where: "table"``, with ``table``) or to the
  judge station; the player's phone shows it until it is answered.
- ``call.answer`` — staff answer a call: ``reply: "on-my-way"`` says a judge is coming and keeps the call
  open; ``"done"`` (the default) closes it.

Each call is one entry of ``state["calls"]``: ``{"id", "kind", "by", "player", "table", "round", "reason",
"where", "note", "at", "on_my_way", "answered_by", "answered_at"}`` (``id`` the call's op_id; ``player`` the
player who called or who is called, None for a staff judge call; ``on_my_way`` None or ``{"by", "at"}``).
"""

from __future__ import annotations

from typing import Any

from .operations import Operation, OperationRejected

__all__ = ["WHERE", "REPLIES", "own_table", "open_calls", "call_judge", "call_player", "call_answer", "call_owner"]

#: Where staff may call a player to.
WHERE: tuple[str, ...] = ("table", "judge-station")
#: How staff answer a call: a judge is coming (the call stays open), or the call is dealt with.
REPLIES: tuple[str, ...] = ("on-my-way", "done")


def own_table(state: dict[str, Any], pid: str) -> tuple[int | None, int | None]:
    """(round number, table) of the player's match in the latest posted round; (None, None) when unseated.

    >>> st = {"rounds": [{"number": 1, "status": "started", "matches": [{"table": 4, "players": ["a", "b"]}]},
    ...                  {"number": 2, "status": "draft", "matches": [{"table": 1, "players": ["a", "c"]}]}]}
    >>> own_table(st, "a"), own_table(st, "z")
    ((1, 4), (None, None))
    """
    for rnd in reversed(state["rounds"]):
        if rnd["status"] == "draft":
            continue
        for match in rnd["matches"]:
            if pid in match["players"]:
                return rnd["number"], match["table"]
        return None, None
    return None, None


def open_calls(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls not yet answered as done, oldest first."""
    return [c for c in state.get("calls", []) if c.get("answered_at") is None]


def call_owner(state: dict[str, Any], call_id: str) -> str | None:
    """The player a call concerns (who called, or who is called); None for a staff call or an unknown id."""
    for call in state.get("calls", []):
        if call["id"] == call_id:
            player = call.get("player")
            return player if isinstance(player, str) else None
    return None


def _entry(op: Operation, kind: str, **fields: Any) -> dict[str, Any]:
    base = {
        "id": op.op_id,
        "kind": kind,
        "by": op.actor.to_json(),
        "player": None,
        "table": None,
        "round": None,
        "reason": None,
        "where": None,
        "note": None,
        "at": op.at,
        "on_my_way": None,
        "answered_by": None,
        "answered_at": None,
    }
    base.update(fields)
    return base


def call_judge(state: dict[str, Any], op: Operation) -> None:
    """A judge called to a table: a player's own, or any table a staff member names."""
    p = op.payload
    number, table = (None, None)
    if op.actor.role == "player":
        number, table = own_table(state, op.actor.player or "")  # authorize.py refused any other table
        repeat = [c for c in open_calls(state) if c["kind"] == "judge" and c["player"] == op.actor.player]
        if repeat:
            raise OperationRejected("call.judge: your judge call is still open; a judge will come to you")
    else:
        table = p.table
        latest = [r for r in state["rounds"] if r["status"] != "draft"]
        number = latest[-1]["number"] if latest else None
    state.setdefault("calls", []).append(
        _entry(op, "judge", player=op.actor.player, table=table, round=number, reason=p.reason)
    )


def call_player(state: dict[str, Any], op: Operation) -> None:
    """Staff call a player to a table or to the judge station."""
    p = op.payload
    player = next((row for row in state["players"] if row["id"] == p.player), None)
    if player is None:
        raise OperationRejected(f"call.player: unknown player '{p.player}'")
    if p.where not in WHERE:
        raise OperationRejected(f"call.player: '{p.where}' is not a place to call a player to (table or judge-station)")
    if p.where == "table" and p.table is None:
        raise OperationRejected(
            "call.player: name the table the player is called to, or call them to the judge station"
        )
    latest = [r for r in state["rounds"] if r["status"] != "draft"]
    state.setdefault("calls", []).append(
        _entry(
            op,
            "player",
            player=p.player,
            table=p.table if p.where == "table" else None,
            round=latest[-1]["number"] if latest else None,
            where=p.where,
            note=p.note or None,
        )
    )


def call_answer(state: dict[str, Any], op: Operation) -> None:
    """Staff answer an open call: on my way (it stays open), or done (it closes)."""
    p = op.payload
    reply = p.reply or "done"
    if reply not in REPLIES:
        raise OperationRejected(f"call.answer: '{reply}' is not an answer to a call (on-my-way or done)")
    call = next((c for c in state.get("calls", []) if c["id"] == p.call), None)
    if call is None:
        raise OperationRejected(f"call.answer: there is no call {p.call}")
    if call["answered_at"] is not None:
        raise OperationRejected("call.answer: that call is already closed")
    if reply == "on-my-way":
        call["on_my_way"] = {"by": op.actor.to_json(), "at": op.at}
    else:
        call["answered_by"] = op.actor.to_json()
        call["answered_at"] = op.at

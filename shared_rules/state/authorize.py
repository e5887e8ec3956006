"""Who may do what: a role table plus ownership rules.

Roles, read from the documents (Doomtown 1.C/2, AGoT "Roles", Star Trek 7.1,
Shatterpoint "Arbiters", Pokémon 4):

- **organizer** (TO, EO, tournament director): everything; the TO has final
  authority on score-keeping errors (Doomtown 2.A).
- **head-judge** (head judge, marshal, lead arbiter): final authority on
  disputes and penalties (Doomtown 2.B, AGoT Marshal, Shatterpoint Lead
  Arbiters) — so pairing, the cut, resolving disputes and penalties are
  organizer or head judge only, as are re-admissions (Doomtown 3.G: re-entry at
  the TO's discretion) and rescinding a penalty (Doomtown 6.B: "The Head Judge
  and TO are the final word at the roundup").
- **judge** (floor judge, arbiter): enters and corrects results, runs the clock
  (time extensions for rulings), checks players in, and issues *warnings* only
  (Doomtown 2.C; Star Trek levels 0-1; Shatterpoint warnings — a third warning
  ejects by rule, whoever gave it). Harsher penalties go to the head judge.
- **scorekeeper**: registration (and removing a mistyped entry nothing refers to
  yet), check-in, drops, publishing and starting rounds (Pokémon 4: "a scorekeeper
  clicks the Start Round button"), entering and correcting results. Discarding a
  drafted round, like pairing it, is the organizer's or head judge's.
- **player**: reports and confirms the result of their own match, for
  themselves; checks themselves in; drops themselves (Doomtown 3.G: a player may
  drop at any time); submits their own deck list until the lists lock (Shatterpoint
  "Strike Team": no change once the event begins). Staff type in a list from a paper
  one at any time, and after the lock with a reason; any staff member records a deck
  check (its penalty, if any, is a ``penalty.issue`` under the rules above); calls a judge to their own
  table. Any staff member calls a judge or a player, and answers a call (``calls.py``).
"""

from __future__ import annotations

from typing import Any

from .calls import own_table
from .index import position
from .lookup import find_match, find_round
from .operations import NotAuthorized, Operation, OperationRejected, parse_operation
from .penalties import WARNING_ONLY, requested_kind

__all__ = ["ALLOWED", "authorize", "authorize_parsed", "allowed_roles"]

_ALL = frozenset({"organizer", "head-judge", "judge", "scorekeeper", "player"})
_STAFF = _ALL - {"player"}
_LEAD = frozenset({"organizer", "head-judge"})
_DESK = frozenset({"organizer", "head-judge", "scorekeeper"})

#: Operation type -> roles allowed (ownership rules below narrow ``player`` and ``judge``).
ALLOWED: dict[str, frozenset[str]] = {
    "event.create": frozenset({"organizer"}),
    "event.configure": frozenset({"organizer"}),
    "event.close": frozenset({"organizer"}),
    "player.register": frozenset({"organizer", "scorekeeper"}),
    "player.edit": frozenset({"organizer", "scorekeeper"}),
    "player.check_in": _ALL,  # players: themselves only
    "player.drop": _DESK | {"player"},  # players: themselves only
    "player.reinstate": _LEAD,  # Doomtown 3.G: re-entry at TO discretion
    "player.remove": frozenset({"organizer", "scorekeeper"}),  # registration's own typo fix
    "round.pair": _LEAD,
    "round.swap": _LEAD,
    "round.publish": _DESK,
    "round.discard": _LEAD,  # undoing a pairing is pairing
    "round.start": _DESK,  # Pokémon 4
    "timer.pause": _STAFF,
    "timer.resume": _STAFF,
    "timer.extend": _STAFF,
    "result.report": _ALL,  # players: their own match only
    "result.confirm": _ALL,  # players: their own match, not their own report
    "result.correct": _STAFF,  # Doomtown 2.A: TO final on score-keeping errors
    "result.resolve": _LEAD,  # Doomtown 2.B, AGoT Marshal
    "cut.make": _LEAD,
    "penalty.issue": _LEAD | {"judge"},  # judges: warnings only
    "penalty.rescind": _LEAD,  # Doomtown 6.B: the head judge and TO are the final word on penalties
    "decklist.submit": _ALL,  # players: their own, before the lock; staff: any, after it with a reason
    "deckcheck.record": _STAFF,  # judges check decks; a penalty goes through penalty.issue
    "call.judge": _ALL,  # players: to their own table only (calls.py)
    "call.player": _STAFF,
    "call.answer": _STAFF,
    "device.void": _ALL,  # a dismissed change's slot: changes nothing
}


def allowed_roles(op_type: str) -> frozenset[str]:
    """The roles that may perform an operation type.

    >>> sorted(allowed_roles("result.resolve"))
    ['head-judge', 'organizer']
    """
    return ALLOWED[op_type]


def _own_player(state: dict[str, Any], op: Operation, pid: str) -> None:
    if pid != op.actor.player:
        raise NotAuthorized(f"{op.type}: player {op.actor.player} may only act for themselves, not for {pid}")


def _own_match(state: dict[str, Any], op: Operation) -> dict[str, Any] | None:
    p = op.payload
    try:
        _, rnd = find_round(state, p.round, p.stage)
        _, match = find_match(rnd, p.table, p.match)
    except OperationRejected:
        return None  # the reducer names the missing round or match
    if op.actor.player not in match["players"]:
        raise NotAuthorized(f"{op.type}: player {op.actor.player} is not in that match of round {rnd['number']}")
    return match


def _confirm_own(state: dict[str, Any], op: Operation) -> None:
    match = _own_match(state, op)
    if match is None:
        return
    wanted = op.payload.report
    mine = [r for r in match["reports"] if r["actor"].get("player") == op.actor.player]
    if wanted is not None and any(r["op_id"] == wanted for r in mine):
        raise NotAuthorized(f"result.confirm: player {op.actor.player} cannot confirm their own report")
    if wanted is None:
        others = [
            r
            for r in match["reports"]
            if r["actor"]["role"] == "player" and r["actor"].get("player") != op.actor.player
        ]
        if mine and not others:
            raise NotAuthorized(f"result.confirm: player {op.actor.player} cannot confirm their own report")


def _judge_penalty(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    if state["ruleset"] is None:
        return
    try:
        kind = requested_kind(state["ruleset"], p.kind, p.level)
    except OperationRejected:
        return  # the reducer names the bad field
    if kind not in WARNING_ONLY:
        raise NotAuthorized(f"penalty.issue: a judge may issue warnings only; a {kind} is for the head judge")


def _own_list(state: dict[str, Any], op: Operation) -> None:
    _own_player(state, op, op.payload.player)


def _own_table(state: dict[str, Any], op: Operation) -> None:
    table = own_table(state, op.actor.player or "")[1]
    if op.payload.table is not None and op.payload.table != table:
        mine = f"yours is table {table}" if table is not None else "you have no table this round"
        raise NotAuthorized(f"call.judge: a player calls a judge to their own table only ({mine})")


#: (operation type, role) -> ownership check.
OWNERSHIP = {
    ("player.check_in", "player"): lambda s, op: _own_player(s, op, op.payload.player),
    ("player.drop", "player"): lambda s, op: _own_player(s, op, op.payload.player),
    ("result.report", "player"): _own_match,
    ("result.confirm", "player"): _confirm_own,
    ("penalty.issue", "judge"): _judge_penalty,
    ("decklist.submit", "player"): _own_list,
    ("call.judge", "player"): _own_table,
}


def authorize(state: dict[str, Any], op: Any) -> None:
    """Refuse (``NotAuthorized``) an operation its actor may not perform; None otherwise."""
    authorize_parsed(state, parse_operation(op))


def authorize_parsed(state: dict[str, Any], op: Operation) -> None:
    """:func:`authorize` of an operation already parsed (the reducer parses each operation once)."""
    role = op.actor.role
    if role not in ALLOWED[op.type]:
        raise NotAuthorized(f"{op.type}: a {role} may not do this (allowed: {', '.join(sorted(ALLOWED[op.type]))})")
    if role == "player" and position(state["players"], "id", op.actor.player) is None:
        raise NotAuthorized(f"{op.type}: '{op.actor.player}' is not a player of this event")
    check = OWNERSHIP.get((op.type, role))
    if check is not None:
        check(state, op)

"""The operation vocabulary: the envelope every device writes, and one frozen
payload dataclass per operation type, validated field by field.

An operation as it travels (JSON)::

    {"type": "result.report", "op_id": "tab-2:17", "device": "tab-2",
     "actor": {"role": "player", "player": "p7"}, "at": 1718000000000,
     "payload": {"round": 2, "table": 5, "outcomes": ["win", "loss"]}}

``op_id`` is the device id, a colon and the device's own sequence number;
``at`` is the device's clock in milliseconds (the reducer never reads a clock).
A malformed operation is refused with a one-line reason naming the field.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, cast

from .._json import json_kind as _kind
from ..errors import RulesError
from .caps import Cap, payload_problem

__all__ = [
    "ROLES",
    "STAFF_ROLES",
    "OperationRejected",
    "NotAuthorized",
    "EventClosed",
    "RoundFrozen",
    "AlreadyPaired",
    "ListLocked",
    "Actor",
    "Operation",
    "PAYLOADS",
    "OPERATION_TYPES",
    "cap_problem",
    "parse_operation",
    "parse_payload",
]

#: Who may act: organizer (TO/EO), head judge (marshal, lead arbiter), floor judge (arbiter),
#: scorekeeper, and player (RULES.md "Shared concepts").
ROLES: tuple[str, ...] = ("organizer", "head-judge", "judge", "scorekeeper", "player")
STAFF_ROLES: frozenset[str] = frozenset(ROLES) - {"player"}


class OperationRejected(RulesError):
    """An operation that cannot be applied; ``str()`` is one line a device can show."""

    code = "operation-rejected"


class OpenDispute(OperationRejected):
    """Pairing or closing while an earlier round has a disputed result: resolve it first."""

    code = "open-dispute"


class EventClosed(OperationRejected):
    """Any change to a closed event but the tournament report's details: nothing more is accepted."""

    code = "event-closed"


class NotAuthorized(OperationRejected):
    """An operation the actor's role (or ownership) does not allow."""

    code = "not-authorized"


class RoundFrozen(OperationRejected):
    """Changing a round's record after the round two later is paired (Pokémon TOP 4): ask the head judge."""

    code = "round-frozen"


class ListLocked(OperationRejected):
    """A player changing their deck list after the lists locked: a judge or the organizer changes it now."""

    code = "list-locked"


class AlreadyPaired(OperationRejected):
    """Pairing a round (or making a cut) another device already paired: the device's view is stale; reload."""

    code = "already-paired"


def _json_copy(value: Any, path: str) -> Any:
    """A deep copy of a JSON value; anything else (NaN, sets, objects) is refused.

    >>> _json_copy(["p1", "p2"], "players"), _json_copy({"a": [1.5]}, "x")
    (['p1', 'p2'], {'a': [1.5]})
    """
    if value.__class__ is list and all(map(_is_text, value)):  # a list of names, the common case: copied at once
        return list(value)
    try:
        return json.loads(json.dumps(value, allow_nan=False, sort_keys=False))
    except (TypeError, ValueError):
        raise OperationRejected(f"{path}: not a plain JSON value") from None


def _is_text(value: Any) -> bool:
    return value.__class__ is str


# ---------------------------------------------------------------- field checks


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise OperationRejected(f"{path}: expected a string, got {_kind(value)}")
    return value


def _name(value: Any, path: str) -> str:
    text = _text(value, path)
    if not text.strip():
        raise OperationRejected(f"{path}: must not be empty")
    return text


def _whole(minimum: int) -> Callable[[Any, str], int]:
    def check(value: Any, path: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise OperationRejected(f"{path}: expected a whole number, got {_kind(value)}")
        if value < minimum:
            raise OperationRejected(f"{path}: must be at least {minimum}, got {value}")
        return value

    return check


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise OperationRejected(f"{path}: expected true or false, got {_kind(value)}")
    return value


def _obj(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise OperationRejected(f"{path}: expected an object, got {_kind(value)}")
    return cast(dict[str, Any], _json_copy(value, path))


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise OperationRejected(f"{path}: expected a list, got {_kind(value)}")
    return cast(list[Any], _json_copy(value, path))


def _names(value: Any, path: str) -> list[str]:
    items = _list(value, path)
    for i, item in enumerate(items):
        _name(item, f"{path}[{i}]")
    return items


def _numbers(value: Any, path: str) -> list[float]:
    items = _list(value, path)
    for i, item in enumerate(items):
        if isinstance(item, bool) or not isinstance(item, (int, float)) or not math.isfinite(item):
            raise OperationRejected(f"{path}[{i}]: expected a number, got {_kind(item)}")
    return items


def _objects(value: Any, path: str) -> list[dict[str, Any]]:
    items = _list(value, path)
    for i, item in enumerate(items):
        _obj(item, f"{path}[{i}]")
    return items


CHECKS: dict[str, Callable[[Any, str], Any]] = {
    "text": _text,  # any string
    "name": _name,  # a non-empty string (ids, names, reasons)
    "round": _whole(1),  # a round number
    "count": _whole(0),  # a whole number >= 0 (indexes, tables, ms, levels)
    "positive": _whole(1),  # a whole number >= 1 (seconds of extension, cut size)
    "bool": _bool,
    "object": _obj,
    "list": _list,
    "names": _names,  # a list of non-empty strings (player ids, outcomes)
    "numbers": _numbers,
    "objects": _objects,
}


def req(check: str, cap: Cap | None = None) -> Any:
    """A required payload field checked by ``CHECKS[check]`` (``cap``: its size cap, see caps.py)."""
    return field(metadata={"check": check, "cap": cap})


def opt(check: str, default: Any = None, cap: Cap | None = None) -> Any:
    """An optional payload field (``null`` counts as absent)."""
    return field(default=default, metadata={"check": check, "cap": cap})


#: Fields that are big by nature: every pairing of a 4,096-player round, an event's settings.
_SETTINGS_CAP = Cap(bytes=262_144)
_MATCHES_CAP = Cap(items=8_192, bytes=1_048_576)
_PLAYER_CAP = Cap(bytes=4_096)
_GAMES_CAP = Cap(items=16, bytes=8_192)  # best-of-three and its details, never a novel


# ---------------------------------------------------------------- payloads

_payload = dataclass(frozen=True, slots=True, kw_only=True)


@_payload
class EventCreate:
    """Create the event (always the first operation)."""

    ruleset: str = req("name")
    name: str = opt("text", "")
    seed: str | None = opt("text")  # absent: the op_id, so replays still agree
    settings: dict[str, Any] | None = opt("object", cap=_SETTINGS_CAP)


@_payload
class EventConfigure:
    """Rename, change settings (shallow merge; null deletes a key) or, before round 1, the ruleset."""

    name: str | None = opt("text")
    settings: dict[str, Any] | None = opt("object", cap=_SETTINGS_CAP)
    ruleset: str | None = opt("name")


@_payload
class EventClose:
    """Close the event: nothing more is accepted but the tournament report's details (``settings.report``)."""


@_payload
class PlayerRegister:
    """Register one player: ``{id, name, birth_year?, entry?, earned_byes?, late?, checked_in?, ...}``."""

    player: dict[str, Any] = req("object", cap=_PLAYER_CAP)


@_payload
class PlayerEdit:
    """Change a player's name, birth year, earned byes, late flag or extra fields (null deletes)."""

    player: str = req("name")
    name: str | None = opt("name")
    birth_year: int | None = opt("count")
    earned_byes: int | None = opt("count")
    late: bool | None = opt("bool")
    fields: dict[str, Any] | None = opt("object", cap=_PLAYER_CAP)


@_payload
class PlayerCheckIn:
    """Mark a player present (``checked_in: false`` undoes it)."""

    player: str = req("name")
    checked_in: bool = opt("bool", True)


@_payload
class PlayerDrop:
    """Drop a player after the current round (or after round ``after``)."""

    player: str = req("name")
    after: int | None = opt("count")


@_payload
class PlayerReinstate:
    """Bring a dropped player back before the cut (an ejected one once their removing penalty is rescinded)."""

    player: str = req("name")


@_payload
class PlayerRemove:
    """Take a mistyped or doubled entry off the roster: only a player nothing refers to (no pairing, result,
    penalty or seed); anyone who took part is dropped instead (``player.drop``)."""

    player: str = req("name")


@_payload
class RoundPair:
    """The explicit pairings of a round, computed by the device: ``matches: [{table?, players, outcomes?}]``."""

    number: int = req("round")
    matches: list[dict[str, Any]] = req("objects", cap=_MATCHES_CAP)
    stage: str = opt("name", "swiss")
    replace: bool = opt("bool", False)


@_payload
class RoundSwap:
    """Swap two players between matches of a round that has not started."""

    number: int = req("round")
    a: str = req("name")
    b: str = req("name")
    stage: str | None = opt("name")


@_payload
class RoundPublish:
    """Post a drafted round's pairings."""

    number: int = req("round")
    stage: str | None = opt("name")


@_payload
class RoundDiscard:
    """Throw away a drafted round (never published nor started): the round is paired again from scratch.

    >>> parse_payload("round.discard", {"number": 2})
    RoundDiscard(number=2, stage=None)
    """

    number: int = req("round")
    stage: str | None = opt("name")


@_payload
class RoundStart:
    """Start a round and its clock (``at`` defaults to the op's ``at``).

    ``secret``: add the event's secret time (Doomtown's d6, drawn once per event from the seed) to
    ``duration_s``, the announced length.
    """

    number: int = req("round")
    at: int | None = opt("count")
    duration_s: int | None = opt("count")
    stage: str | None = opt("name")
    secret: bool = opt("bool", False)


@_payload
class _TimerAt:
    """The fields of pausing and resuming a round's clock (not an operation itself)."""

    round: int | None = opt("round")
    at: int | None = opt("count")
    stage: str | None = opt("name")


@_payload
class TimerPause(_TimerAt):
    """Pause a round's clock (``round`` defaults to the latest round)."""


@_payload
class TimerResume(_TimerAt):
    """Resume a paused round's clock."""


@_payload
class TimerExtend:
    """Add time to a round's clock (a judge's time extension)."""

    seconds: int = req("positive")
    round: int | None = opt("round")
    stage: str | None = opt("name")


@_payload
class _MatchResult:
    """The result fields ``result.report`` and ``result.correct`` share (not an operation itself)."""

    round: int = req("round")
    outcomes: list[str] = req("names")
    table: int | None = opt("count")
    match: int | None = opt("count")
    scores: list[float] | None = opt("numbers")
    stats: list[dict[str, Any]] | None = opt("objects")
    ending: str | None = opt("name")
    games: list[Any] | None = opt("list", cap=_GAMES_CAP)


@_payload
class ResultReport(_MatchResult):
    """A result for one match, named by ``table`` or by ``match`` (index in the round)."""

    stage: str | None = opt("name")


@_payload
class ResultConfirm:
    """The opponent confirms a self-report (``report``: its op_id; default the one awaiting confirmation)."""

    round: int = req("round")
    table: int | None = opt("count")
    match: int | None = opt("count")
    report: str | None = opt("name")
    stage: str | None = opt("name")


@_payload
class ResultCorrect(_MatchResult):
    """A judge's override of a match's result (same fields as ``result.report``, plus ``reason``)."""

    reason: str | None = opt("text")
    stage: str | None = opt("name")


@_payload
class ResultResolve:
    """The head judge's ruling on a disputed match: ``result`` = ``{outcomes, scores?, stats?, ending?, games?}``."""

    round: int = req("round")
    result: dict[str, Any] = req("object")
    match: int | None = opt("count")
    table: int | None = opt("count")
    reason: str | None = opt("text")
    stage: str | None = opt("name")


@_payload
class CutMake:
    """The first elimination round: ``size`` players advance, paired as ``matches``."""

    size: int = req("positive")
    matches: list[dict[str, Any]] = req("objects", cap=_MATCHES_CAP)
    number: int | None = opt("round")
    replace: bool = opt("bool", False)


@_payload
class PenaltyIssue:
    """A penalty: ``level`` 0-4 (Star Trek), or ``kind`` (warning, ejection, game-loss, disqualification)."""

    player: str = req("name")
    reason: str = req("name", cap=Cap(chars=2_000))  # a judge's note, as long as a text field
    kind: str | None = opt("name")
    level: int | None = opt("count")
    infraction: str | None = opt("name")
    round: int | None = opt("round")


@_payload
class PenaltyRescind:
    """Take back a penalty (``penalty``: the op_id that issued it), with the reason; it stays on record."""

    penalty: str = req("name")
    reason: str = req("name", cap=Cap(chars=2_000))  # why it is taken back (an appeal, a mistaken ruling)


@_payload
class DecklistSubmit:
    """A player's deck list: ``sections`` maps each section key to its lines as text (``3 Name`` a line).

    A player submits their own until the lists lock (``settings.decklists.deadline``, else the start of
    round 1); staff type one in for any player, and after the lock only with ``reason`` (kept with who).
    """

    player: str = req("name")
    sections: dict[str, Any] = req("object", cap=Cap(bytes=32_768))
    reason: str | None = opt("text")


@_payload
class DeckcheckRecord:
    """A judge's deck check of ``player``: ``outcome`` ``ok`` or ``problem``, where (round, table), a note,
    and the penalty it led to (``penalty``: the op_id of its ``penalty.issue``)."""

    player: str = req("name")
    outcome: str = req("name")
    round: int | None = opt("round")
    table: int | None = opt("count")
    note: str | None = opt("text")
    penalty: str | None = opt("name")


@_payload
class DeviceVoid:
    """Nothing: a device's sequence slot whose change the user dismissed before it was sent (no holes)."""

    dismissed: str | None = opt("name")


@_payload
class CallJudge:
    """Call a judge to a table: a player to their own (``table`` prefilled from their match), staff to any."""

    reason: str = req("name", cap=Cap(chars=500))
    table: int | None = opt("count")


@_payload
class CallPlayer:
    """Staff call a player to a table (``where: "table"`` with ``table``) or to the judge station."""

    player: str = req("name")
    where: str = req("name")
    table: int | None = opt("count")
    note: str | None = opt("text", cap=Cap(chars=500))


@_payload
class CallAnswer:
    """Staff answer a call (``call``: its op_id): ``reply`` ``on-my-way`` keeps it open, ``done`` closes it."""

    call: str = req("name")
    reply: str | None = opt("name")


#: Operation type -> payload class (the vocabulary, in the order of an event's life).
PAYLOADS: dict[str, type] = {
    "event.create": EventCreate,
    "event.configure": EventConfigure,
    "player.register": PlayerRegister,
    "player.edit": PlayerEdit,
    "player.check_in": PlayerCheckIn,
    "player.drop": PlayerDrop,
    "player.reinstate": PlayerReinstate,
    "player.remove": PlayerRemove,
    "round.pair": RoundPair,
    "round.swap": RoundSwap,
    "round.publish": RoundPublish,
    "round.discard": RoundDiscard,
    "round.start": RoundStart,
    "timer.pause": TimerPause,
    "timer.resume": TimerResume,
    "timer.extend": TimerExtend,
    "result.report": ResultReport,
    "result.confirm": ResultConfirm,
    "result.correct": ResultCorrect,
    "result.resolve": ResultResolve,
    "cut.make": CutMake,
    "device.void": DeviceVoid,
    "penalty.issue": PenaltyIssue,
    "penalty.rescind": PenaltyRescind,
    "decklist.submit": DecklistSubmit,
    "deckcheck.record": DeckcheckRecord,
    "call.judge": CallJudge,
    "call.player": CallPlayer,
    "call.answer": CallAnswer,
    "event.close": EventClose,
}
OPERATION_TYPES: tuple[str, ...] = tuple(PAYLOADS)


def parse_payload(op_type: str, payload: Any) -> Any:
    """Check a payload against its operation type and build the frozen payload.

    >>> parse_payload("timer.extend", {"seconds": 120})
    TimerExtend(seconds=120, round=None, stage=None)
    >>> parse_payload("timer.extend", {"seconds": "2"})
    Traceback (most recent call last):
    ...
    shared_rules.state.operations.OperationRejected: timer.extend: payload.seconds: expected a whole number, got a string
    """
    cls = PAYLOADS[op_type]
    if payload is None:
        payload = {}
    if not isinstance(payload, dict):
        raise OperationRejected(f"{op_type}: payload: expected an object, got {_kind(payload)}")
    known = {f.name: f for f in fields(cls)}
    for key in payload:
        if key not in known:
            raise OperationRejected(f"{op_type}: payload.{key}: not a field of {op_type}")
    values: dict[str, Any] = {}
    for name, f in known.items():
        value = payload.get(name)
        if value is None:
            if f.default is MISSING:
                raise OperationRejected(f"{op_type}: payload.{name}: missing required field")
            continue
        try:
            values[name] = CHECKS[f.metadata["check"]](value, f"payload.{name}")
        except OperationRejected as exc:
            raise OperationRejected(f"{op_type}: {exc}") from None
    return cls(**values)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who did it: a role, and the player id when the role is ``player``."""

    role: str
    player: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The actor as stored in reports and penalties.

        >>> Actor("player", "p1").to_json()
        {'role': 'player', 'player': 'p1'}
        """
        return {"role": self.role, "player": self.player} if self.player is not None else {"role": self.role}

    @property
    def is_staff(self) -> bool:
        """Anyone but a player."""
        return self.role in STAFF_ROLES


@dataclass(frozen=True, slots=True)
class Operation:
    """One validated operation: envelope plus typed payload."""

    type: str
    payload: Any
    op_id: str
    device: str
    actor: Actor
    at: int

    @property
    def seq(self) -> int:
        """The device's sequence number.

        >>> parse_operation({"type": "event.close", "op_id": "tab-1:7", "device": "tab-1",
        ...                  "actor": {"role": "organizer"}, "at": 0}).seq
        7
        """
        return int(self.op_id.rpartition(":")[2])


def _actor(raw: Any) -> Actor:
    if not isinstance(raw, dict):
        raise OperationRejected(f"actor: expected an object, got {_kind(raw)}")
    role = raw.get("role")
    if role not in ROLES:
        raise OperationRejected(f"actor.role: {json.dumps(role)} is not a role (use {', '.join(ROLES)})")
    player = raw.get("player")
    if role == "player":
        if not isinstance(player, str) or not player.strip():
            raise OperationRejected("actor.player: a player actor must name their player id")
        return Actor(role, player)
    return Actor(role)


def parse_operation(raw: Any) -> Operation:
    """Validate an operation's envelope and payload (fields a server adds are ignored)."""
    if isinstance(raw, Operation):
        return raw
    if not isinstance(raw, Mapping):
        raise OperationRejected(f"operation: expected an object, got {_kind(raw)}")
    op_type = raw.get("type")
    if op_type not in PAYLOADS:
        raise OperationRejected(f"type: {json.dumps(op_type)} is not an operation type")
    device = raw.get("device")
    if not isinstance(device, str) or not device.strip():
        raise OperationRejected(f"{op_type}: device: expected a device id")
    op_id = raw.get("op_id")
    if not isinstance(op_id, str):
        raise OperationRejected(f"{op_type}: op_id: expected '{device}:<sequence>'")
    head, _, seq = op_id.rpartition(":")
    if head != device or not seq.isdigit() or not seq.isascii():
        raise OperationRejected(f"{op_type}: op_id: '{op_id}' is not '{device}:<sequence>'")
    at = raw.get("at")
    if not isinstance(at, int) or isinstance(at, bool) or at < 0:
        raise OperationRejected(f"{op_type}: at: expected a timestamp in milliseconds, got {_kind(at)}")
    try:
        actor = _actor(raw.get("actor"))
    except OperationRejected as exc:
        raise OperationRejected(f"{op_type}: {exc}") from None
    return Operation(op_type, parse_payload(op_type, raw.get("payload")), op_id, device, actor, at)


def cap_problem(op_type: str, payload: Any) -> str | None:
    """The first payload field over its cap (:mod:`.caps`), as one line naming it; None when all fit.

    >>> cap_problem("penalty.issue", {"player": "p1", "reason": "x" * 5000})
    'penalty.issue: payload.reason: 5,000 characters; the most allowed is 2,000'
    >>> cap_problem("timer.extend", {"seconds": 60}) is None
    True
    """
    return payload_problem(op_type, PAYLOADS.get(op_type), payload)

"""The reducer: ``apply(state, op) -> new state``, a pure function, and its fold ``replay``.

Every handler checks first and changes second, so a refused operation never
leaves a trace. Rejections are for impossible operations (unknown player or
match, round not paired or not started, pairing while results are missing,
a player reporting someone else's match, a record change after the second
following round is paired, a malformed payload); a conflicting result is
*accepted* and marks the match disputed (see :func:`state.settle`).

Rule applied to every ruleset: a round's record cannot change after the second
following round is paired (Pokémon TOP 4: "match records for round 1 cannot be
altered after round 3 is paired") — reports, confirmations and corrections for
such a round are refused.

Disputes can always be settled (the project's decision, said in the app): a
late conflicting report from a tablet that was offline may open a dispute in
an earlier round; then (1) no new round may be paired, nor the event closed,
while any round has an open dispute (code ``open-dispute``, naming the round
and table), and (2) resolving or correcting a disputed match is allowed
whatever rounds came later — later pairings stand, standings recompute.
"""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .. import decklists
from ..errors import DocumentError, RulesError
from ..event.model import STAGES
from ..games import bracket_rules, game_of, get_ruleset
from ..games.settings import check_changes, fixed_once_paired
from ..rulesets.base import Ruleset
from ..run import load_event
from . import calls, penalties
from .authorize import authorize_parsed
from .index import forget, largest, position, release
from .lookup import current_round, find_match, find_player, find_round, where
from .operations import (
    CHECKS,
    AlreadyPaired,
    EventClosed,
    ListLocked,
    OpenDispute,
    Operation,
    OperationRejected,
    RoundFrozen,
    parse_operation,
)
from .state import (
    RESULT_FIELDS,
    SETTLED,
    clone,
    initial_state,
    is_withheld,
    new_match,
    new_player,
    new_round,
    refresh_disputes,
    refresh_match,
    refresh_round,
    to_event_document,
)

__all__ = ["apply", "replay", "folding", "check", "HANDLERS", "secret_minutes", "secret_time_sides", "list_locked"]

_RULESETS: dict[tuple[str, str], Ruleset] = {}


def ruleset_of(ruleset_id: str, settings: dict[str, Any]) -> Ruleset:
    """The configured ruleset (cached by id and settings), refusing an unknown or unavailable one."""
    key = (ruleset_id, json.dumps(settings, sort_keys=True))
    if key not in _RULESETS:
        try:
            _RULESETS[key] = get_ruleset(ruleset_id, settings)
        except DocumentError as exc:
            raise OperationRejected(str(exc)) from None
        except ImportError:
            raise OperationRejected(f"ruleset: '{ruleset_id}' is not available on this device") from None
    return _RULESETS[key]


def _ruleset(state: dict[str, Any]) -> Ruleset:
    return ruleset_of(state["ruleset"], state["settings"])


def _report(op: Operation, kind: str, result: dict[str, Any], reason: str | None = None) -> dict[str, Any]:
    return {
        "op_id": op.op_id,
        "device": op.device,
        "actor": op.actor.to_json(),
        "at": op.at,
        "kind": kind,
        "result": result,
        "reason": reason,
    }


def _changed(state: dict[str, Any], rnd: dict[str, Any], match: dict[str, Any] | None = None) -> None:
    if match is not None:
        before = match["status"]
        refresh_match(match)
        if before != "disputed" and match["status"] != "disputed":
            # The dispute queue lists disputed matches only: a match that neither was nor is disputed
            # leaves it as it is (rebuilding it walked every match of the event after each result).
            refresh_round(rnd)
            return
    refresh_round(rnd)
    refresh_disputes(state)


# ---------------------------------------------------------------- event


def _event_create(state: dict[str, Any], op: Operation) -> None:
    if state["ruleset"] is not None:
        raise OperationRejected(f"event.create: the event was already created by {state['created_by']}")
    p = op.payload
    settings = p.settings or {}
    ruleset_of(p.ruleset, settings)
    _check_list_settings("event.create", settings)
    start = game_of(p.ruleset).creation_settings
    if start is not None:  # e.g. Pokémon's season from the event's date or this operation's day (TOP 3.1.1)
        settings = start(settings, op.at)
        ruleset_of(p.ruleset, settings)
    state.update(ruleset=p.ruleset, name=p.name, seed=p.seed or op.op_id, settings=settings, created_by=op.device)


def _check_list_settings(label: str, settings: dict[str, Any]) -> None:
    """Refuse deck-list settings the engine cannot read (``settings.decklists``)."""
    try:
        decklists.settings_of(settings)
    except RulesError as exc:
        raise OperationRejected(f"{label}: {exc}") from None


def _merge(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A shallow merge where ``null`` deletes a key.

    >>> _merge({"a": 1, "b": 2}, {"b": None, "c": 3})
    {'a': 1, 'c': 3}
    """
    out = dict(base)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _check_declared_settings(state: dict[str, Any], ruleset_id: str, changes: dict[str, Any]) -> None:
    """Refuse a declared setting's wrong value, or a change the game's documents fix once round 1 is paired
    (Doomtown Floor Rules 5.B: the rounds), naming the setting as the Settings screen does."""
    try:
        declared = game_of(ruleset_id).settings_ui
    except (DocumentError, ImportError):
        return  # an unknown ruleset is refused by ruleset_of, with its own words
    wrong = check_changes(declared, changes)
    if wrong is None and state["rounds"]:
        wrong = fixed_once_paired(declared, state["settings"], changes)
    if wrong is not None:
        raise OperationRejected(f"event.configure: {wrong}")


def _event_configure(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    ruleset_id = p.ruleset or state["ruleset"]
    if ruleset_id != state["ruleset"] and state["rounds"]:
        raise OperationRejected("event.configure: the ruleset cannot change once round 1 is paired")
    if p.settings is not None:
        _check_declared_settings(state, ruleset_id, p.settings)
    settings = _merge(state["settings"], p.settings) if p.settings is not None else state["settings"]
    ruleset_of(ruleset_id, settings)
    _check_list_settings("event.configure", settings)
    check_report = game_of(ruleset_id).report_details
    if check_report is not None and p.settings is not None and "report" in p.settings:
        try:  # the report's details, as the report and a WCT league's table read them
            check_report(settings.get("report"))
        except DocumentError as exc:
            raise OperationRejected(f"event.configure: {exc}") from None
    candidate = dict(state, ruleset=ruleset_id, settings=settings)
    if state["rounds"]:
        try:  # the results in hand must still fit the new settings (custom points, say)
            load_event(to_event_document(candidate, operational=False))
        except DocumentError as exc:
            raise OperationRejected(f"event.configure: {_recorded_misfit(state, exc)}") from None
    state.update(ruleset=ruleset_id, settings=settings, name=p.name if p.name is not None else state["name"])


_MATCH_PATH = re.compile(r"rounds\[(\d+)\]\.matches\[(\d+)\]")


def _recorded_misfit(state: dict[str, Any], exc: DocumentError) -> str:
    """A recorded result the new settings refuse, named as the screens name a match, with the way out.

    >>> st = {"rounds": [{"number": 1, "matches": [{"table": 4}]}]}
    >>> _recorded_misfit(st, DocumentError("rounds[0].matches[0].outcomes", "'tie' is not an outcome of custom"))
    "the result recorded at round 1 table 4 no longer fits ('tie' is not an outcome of custom): keep what it uses in the settings, or correct that result first"
    """
    found = _MATCH_PATH.match(exc.path)
    if found is None:
        return str(exc)
    i, j = int(found[1]), int(found[2])
    rounds = state["rounds"]
    if i >= len(rounds) or j >= len(rounds[i]["matches"]):
        return str(exc)
    return (
        f"the result recorded at {where(rounds[i], j)} no longer fits ({exc.problem}): keep what it uses in the "
        "settings, or correct that result first"
    )


def _event_close(state: dict[str, Any], op: Operation) -> None:
    _refuse_open_dispute(state, "event.close", "closing the event")
    if state["rounds"] and state["rounds"][-1]["status"] != "complete":
        last = state["rounds"][-1]
        raise OperationRejected(f"event.close: round {last['number']} is not complete (results missing or disputed)")
    state["closed"] = True


# ---------------------------------------------------------------- players

_PLAYER_OWN = ("id", "name", "entry", "birth_year", "earned_byes", "late", "checked_in")
_PLAYER_FORBIDDEN = {
    "dropped_after": "use player.drop",
    "ejected": "use penalty.issue",
    "state": "reserved for exports",
}


def _player_field(raw: dict[str, Any], key: str, check: str, label: str) -> Any:
    try:
        return CHECKS[check](raw[key], f"payload.player.{key}")
    except OperationRejected as exc:
        raise OperationRejected(f"{label}: {exc}") from None


def _check_game_id(state: dict[str, Any], value: Any, label: str, pid: str) -> None:
    """A player's game ID (``game_id``): in the game's form (a Play! Pokémon ID is digits) and nobody else's."""
    from ..games.base import ORGANIZER_ID

    declared = game_of(state["ruleset"]).player_id if state["ruleset"] is not None else ORGANIZER_ID
    problem = declared.problem(value)
    if problem is not None:
        raise OperationRejected(f"{label}: {problem}")
    for other in state["players"]:
        extra = other["extra"]
        if other["id"] != pid and value in (extra.get("game_id"), extra.get("pop_id"), extra.get("rating_id")):
            raise OperationRejected(f"{label}: {other['name']} is already registered with {declared.label} {value}")


def _player_register(state: dict[str, Any], op: Operation) -> None:
    raw, label = op.payload.player, "player.register"
    if "id" not in raw:
        raise OperationRejected(f"{label}: payload.player.id: missing required field")
    for key, why in _PLAYER_FORBIDDEN.items():
        if key in raw:
            raise OperationRejected(f"{label}: payload.player.{key}: {why}")
    pid = _player_field(raw, "id", "name", label)
    players = state["players"]
    if position(players, "id", pid) is not None:  # an index: registration is the longest run of operations
        raise OperationRejected(f"{label}: player '{pid}' is already registered")
    got = {
        k: _player_field(raw, k, c, label)
        for k, c in (
            ("name", "name"),
            ("entry", "count"),
            ("birth_year", "count"),
            ("earned_byes", "count"),
            ("late", "bool"),
            ("checked_in", "bool"),
        )
        if raw.get(k) is not None
    }
    if got.get("birth_year") is not None and got["birth_year"] < 1900:
        raise OperationRejected(f"{label}: payload.player.birth_year: must be at least 1900")
    entry = got.get("entry", (largest(players, "entry") or 0) + 1)  # entry = next number (registration order)
    holder = position(players, "entry", entry, last=True)
    if holder is not None:
        owner = players[holder]["id"]  # the last holder
        raise OperationRejected(f"{label}: payload.player.entry: entry {entry} is already {owner}'s")
    if raw.get("game_id") is not None:
        _check_game_id(state, raw["game_id"], label, pid)
    started = current_round(state) is not None
    late = got.get("late", started)  # Pokémon TOP 3.1.3: arrived after round 1 started
    extra = {k: v for k, v in raw.items() if k not in _PLAYER_OWN}
    state["players"].append(
        new_player(
            pid,
            got.get("name", pid),
            entry,
            birth_year=got.get("birth_year"),
            late=late,
            earned_byes=got.get("earned_byes", 0),
            checked_in=got.get("checked_in", False),
            extra=extra,
        )
    )
    ruleset = _ruleset(state)
    if late and "late" in ruleset.outcome_keys and ruleset.outcome("late").solo:
        # Pokémon TOP 3.1.3: a late player receives a loss for every round already started.
        for rnd in state["rounds"]:
            if rnd["status"] in ("started", "complete") and rnd["stage"] != "elimination":
                rnd["matches"].append(new_match([pid], None, [_report(op, "late", {"outcomes": ["late"]})]))
                _changed(state, rnd)


def _player_edit(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    player = find_player(state, p.player)
    if p.birth_year is not None and p.birth_year < 1900:
        raise OperationRejected("player.edit: payload.birth_year: must be at least 1900")
    fields = p.fields or {}
    for key in fields:
        if key in _PLAYER_OWN or key in _PLAYER_FORBIDDEN or key == "extra":
            raise OperationRejected(f"player.edit: payload.fields.{key}: not an extra field")
    if fields.get("game_id") is not None:
        _check_game_id(state, fields["game_id"], "player.edit", player["id"])
    for key in ("name", "birth_year", "earned_byes", "late"):
        if getattr(p, key) is not None:
            player[key] = getattr(p, key)
    player["extra"] = _merge(player["extra"], fields)
    if fields:
        forget(state["players"])  # a game ID may have changed in place (index.py)


def _player_check_in(state: dict[str, Any], op: Operation) -> None:
    player = find_player(state, op.payload.player)
    if op.payload.checked_in and player["dropped_after"] is not None:
        raise OperationRejected(f"player.check_in: player {player['id']} has dropped; reinstate them first")
    player["checked_in"] = op.payload.checked_in


def _player_drop(state: dict[str, Any], op: Operation) -> None:
    player = find_player(state, op.payload.player)
    if player["dropped_after"] is not None:
        raise OperationRejected(
            f"player.drop: player {player['id']} already dropped after round {player['dropped_after']}"
        )
    cur = current_round(state)
    now = cur["number"] if cur is not None else 0
    after = op.payload.after if op.payload.after is not None else now  # the current round
    if after > now:
        raise OperationRejected(
            f"player.drop: round {after} has not started (the latest started round is {now}): a player "
            "drops after a round that has started"
        )
    player["dropped_after"] = after


def _player_reinstate(state: dict[str, Any], op: Operation) -> None:
    player = find_player(state, op.payload.player)
    if player["dropped_after"] is None:
        raise OperationRejected(f"player.reinstate: player {player['id']} has not dropped")
    if player["ejected"]:
        removing = penalties.removing_penalty(state["penalties"], player["id"])
        named = f" ({removing['kind']}, {removing['op_id']})" if removing is not None else ""
        raise OperationRejected(
            f"player.reinstate: player {player['id']} was removed from the event by a penalty{named}: "
            "rescind that penalty first (Penalties screen), then reinstate"
        )
    if any(r["stage"] == "elimination" for r in state["rounds"]):
        raise OperationRejected("player.reinstate: no re-entry after the cut (Doomtown 3.G)")
    missed = _missed_round_outcome(_ruleset(state))
    if missed is not None:
        # Shatterpoint Pairings: a rejoining player takes an unpaired loss for each missed round.
        for rnd in state["rounds"]:
            if (
                rnd["number"] > player["dropped_after"]
                and rnd["status"] in ("started", "complete")
                and rnd["stage"] != "elimination"
                and not any(player["id"] in m["players"] for m in rnd["matches"])
            ):
                rnd["matches"].append(new_match([player["id"]], None, [_report(op, "missed", {"outcomes": [missed]})]))
                _changed(state, rnd)
    player["dropped_after"] = None


def _why_kept(state: dict[str, Any], pid: str) -> str | None:
    """Why a player cannot be taken off the roster (what refers to them, and what to do), or None.

    >>> st = initial_state()
    >>> st["penalties"] = [{"player": "p2", "kind": "warning", "round": 0}]
    >>> _why_kept(st, "p1") is None
    True
    >>> _why_kept(st, "p2")
    'p2 has a penalty on record (warning): penalties stay on record; drop the player instead (player.drop)'
    """
    for rnd in state["rounds"]:
        for mi, match in enumerate(rnd["matches"]):
            if pid not in match["players"]:
                continue
            if rnd["status"] == "draft":
                return (
                    f"{pid} is paired in round {rnd['number']}, still a draft: pair the round again or discard "
                    "the draft first (round.discard), or drop the player instead (player.drop)"
                )
            return (
                f"{pid} is in {where(rnd, mi)} ({rnd['status']}): a player who was paired stays in the "
                "event's record; drop the player instead (player.drop)"
            )
    for penalty in state["penalties"]:
        if penalty.get("player") == pid:
            return (
                f"{pid} has a penalty on record ({penalty.get('kind')}): penalties stay on record; drop the "
                "player instead (player.drop)"
            )
    seeds = state["settings"].get("seeds")
    if isinstance(seeds, list) and pid in seeds:
        return (
            f"{pid} is in settings.seeds: take them out of the seeds first (event.configure), or drop the "
            "player instead (player.drop)"
        )
    return None


def _player_remove(state: dict[str, Any], op: Operation) -> None:
    try:
        player = find_player(state, op.payload.player)
    except OperationRejected as exc:
        raise OperationRejected(f"player.remove: {exc}") from None
    why = _why_kept(state, player["id"])
    if why is not None:
        raise OperationRejected(f"player.remove: {why}")
    state["players"].remove(player)
    state["decklists"].pop(player["id"], None)  # a mistyped entry's list goes with it


#: Solo outcomes for a round missed before rejoining, first found in the vocabulary wins.
MISSED_ROUND_OUTCOMES = (
    "unpaired-loss",  # Shatterpoint Pairings
    "missed-game",
)  # Star Trek OP Guide 7.5.1


def _missed_round_outcome(ruleset: Ruleset) -> str | None:
    for key in MISSED_ROUND_OUTCOMES:
        if key in ruleset.outcome_keys and ruleset.outcome(key).solo:
            return key
    return None


# ---------------------------------------------------------------- pairing


def _incomplete(rnd: dict[str, Any]) -> str:
    if rnd["status"] in ("draft", "published"):
        return f"round {rnd['number']} has not been played yet"
    open_ = sum(1 for m in rnd["matches"] if m["status"] not in SETTLED)
    return f"round {rnd['number']} still has {open_} result(s) missing or disputed"


def _slot(state: dict[str, Any], label: str, number: int, stage: str, replace: bool) -> int:
    """Where a new pairing goes (index in play order), refusing a second pairing of a round."""
    rounds = state["rounds"]
    same = [i for i, r in enumerate(rounds) if r["number"] == number and r["stage"] == stage]
    if same:
        i = same[0]
        by = rounds[i]["paired_by"]
        if not replace:
            device = by["device"] if by else "an import"
            raise AlreadyPaired(f"{label}: round {number} was already paired by {device}; their pairing stands")
        if rounds[i]["status"] not in ("draft", "published"):
            raise OperationRejected(
                f"{label}: round {number} has started; its pairings can no longer change (Pokémon TOP 4)"
            )
    else:
        i = len(rounds)
        last = rounds[-1] if rounds else None
        expected = last["number"] + 1 if last else 1
        restart = last is not None and stage != last["stage"] and number == 1
        if number != expected and not restart:
            raise OperationRejected(f"{label}: round {number} cannot be paired now; the next round is {expected}")
    _refuse_open_dispute(state, label, f"pairing round {number}", before=i)
    if i > 0 and rounds[i - 1]["status"] != "complete":
        raise OperationRejected(f"{label}: pairing is refused: {_incomplete(rounds[i - 1])}")
    return i


def _refuse_open_dispute(state: dict[str, Any], label: str, doing: str, before: int | None = None) -> None:
    """Refuse ``doing`` while a round (before index ``before``) has a disputed match."""
    for rnd in state["rounds"][:before]:
        for mi, match in enumerate(rnd["matches"]):
            if match["status"] == "disputed":
                raise OpenDispute(f"{label}: resolve the dispute at {where(rnd, mi)} before {doing}")


_MATCH_OWN = ("table", "players", "outcomes")
_MATCH_FORBIDDEN = ("scores", "stats", "ending", "games", "disputed", "state", "status", "reports")


def _pairings(
    state: dict[str, Any], op: Operation, label: str, number: int, raw_matches: list[dict[str, Any]], stage: str
) -> list[dict[str, Any]]:
    """Validate explicit pairings and build the matches (a one-player match may carry its bye)."""
    if not raw_matches:
        raise OperationRejected(f"{label}: payload.matches: a round needs at least one match")
    ruleset = _ruleset(state)
    low, high = ruleset.match_sizes
    seen: dict[str, int] = {}
    tables: dict[int, int] = {}
    roster = {p["id"]: p for p in state["players"]}  # one look-up per seat, not a scan of the roster
    out = []
    for i, raw in enumerate(raw_matches):
        path = f"{label}: payload.matches[{i}]"
        for key in _MATCH_FORBIDDEN:
            if key in raw:
                raise OperationRejected(f"{path}.{key}: results are reported, not paired")
        if "players" not in raw:
            raise OperationRejected(f"{path}.players: missing required field")
        try:
            ids = CHECKS["names"](raw["players"], "players")
        except OperationRejected as exc:
            raise OperationRejected(f"{path}.{exc}") from None
        if not 1 <= len(ids) <= high or 2 < len(ids) < low:
            raise OperationRejected(
                f"{path}.players: {len(ids)} players in a match; {ruleset.id} takes "
                f"1 or {low}" + (f"-{high}" if high != low else "")
            )
        for j, pid in enumerate(ids):
            player = roster.get(pid)
            if player is None:
                raise OperationRejected(f"{path}.players[{j}]: unknown player '{pid}'")
            gone = player["ejected"] or (player["dropped_after"] is not None and number > player["dropped_after"])
            # A bracket keeps a dropped winner's slot as a one-player match marked "dropped" (Doomtown 3.G).
            # Pokémon TOP 3.2: or the dropped player of a game the bracket marks lost ("dropped": their id).
            placeholder = stage == "elimination" and (
                (len(ids) == 1 and raw.get("dropped") is True) or (len(ids) == 2 and raw.get("dropped") == pid)
            )
            if gone and not placeholder:
                raise OperationRejected(f"{path}.players[{j}]: player {pid} has dropped")
            if pid in seen:
                raise OperationRejected(f"{path}.players[{j}]: player {pid} is already in matches[{seen[pid]}]")
            seen[pid] = i
        table = raw.get("table")
        if table is not None:
            try:
                table = CHECKS["count"](table, "table")
            except OperationRejected as exc:
                raise OperationRejected(f"{path}.{exc}") from None
            if table in tables:
                raise OperationRejected(f"{path}.table: table {table} is already matches[{tables[table]}]")
            tables[table] = i
        reports = []
        if raw.get("outcomes") is not None:
            forfeit = stage == "elimination" and len(ids) == 2 and raw.get("dropped") in ids
            if len(ids) != 1 and not forfeit:
                raise OperationRejected(f"{path}.outcomes: results are reported, not paired (only a bye may be)")
            result = _result(ruleset, ids, {"outcomes": raw["outcomes"]}, f"{path}.")
            reports.append(_report(op, "pairing", result))
        extra = {k: v for k, v in raw.items() if k not in _MATCH_OWN}
        out.append(new_match(ids, table, reports, extra))
    return out


def _place(
    state: dict[str, Any],
    op: Operation,
    label: str,
    number: int,
    stage: str,
    replace: bool,
    raw_matches: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    if stage not in STAGES:
        raise OperationRejected(f"{label}: payload.stage: '{stage}' is not a stage (use {', '.join(STAGES)})")
    i = _slot(state, label, number, stage, replace)
    matches = _pairings(state, op, label, number, raw_matches, stage)
    rnd = new_round(
        number, stage, matches, status="draft", paired_by={"device": op.device, "op_id": op.op_id, "at": op.at}
    )
    if i < len(state["rounds"]):
        state["rounds"][i] = rnd
    else:
        state["rounds"].append(rnd)
    refresh_disputes(state)
    return matches


def _round_pair(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    _place(state, op, "round.pair", p.number, p.stage, p.replace, p.matches)


def _cut_make(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    elim = [r for r in state["rounds"] if r["stage"] == "elimination"]
    if elim:
        first = elim[0]
        if not p.replace:
            by = first["paired_by"]
            raise AlreadyPaired(
                f"cut.make: the cut was already made by {by['device'] if by else 'an import'}; that cut stands"
            )
        if len(elim) > 1 or first["status"] not in ("draft", "published"):
            raise OperationRejected("cut.make: the cut's first round has started; it can no longer change")
        number = first["number"]
    else:
        last = state["rounds"][-1] if state["rounds"] else None
        number = p.number if p.number is not None else (last["number"] + 1 if last else 1)
    if p.size < 2:
        raise OperationRejected("cut.make: payload.size: a cut needs at least 2 players")
    advancing = sum(len(m.get("players", [])) for m in p.matches if isinstance(m.get("players"), list))
    if advancing != p.size:
        raise OperationRejected(f"cut.make: payload.matches: {advancing} players for a top {p.size}")
    _place(state, op, "cut.make", number, "elimination", bool(elim), p.matches)
    state["cut"] = p.size


def _started_round(
    state: dict[str, Any], label: str, number: int, stage: str | None, statuses: tuple[str, ...]
) -> dict[str, Any]:
    _, rnd = find_round(state, number, stage)
    if rnd["status"] not in statuses:
        done = {"published": "published already", "started": "started already", "complete": "complete"}
        raise OperationRejected(
            f"{label}: round {number} is {done.get(rnd['status'], rnd['status'])}: only a round that is "
            + " or ".join(statuses)
            + " can be "
            + {"round.publish": "published", "round.start": "started"}.get(label, "changed so")
        )
    return rnd


def _round_swap(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    _, rnd = find_round(state, p.number, p.stage)
    if rnd["status"] not in ("draft", "published"):
        raise OperationRejected(
            f"round.swap: round {p.number} has started; its pairings can no longer change (Pokémon TOP 4)"
        )
    seats = {}
    for pid in (p.a, p.b):
        found = [(mi, s) for mi, m in enumerate(rnd["matches"]) for s, q in enumerate(m["players"]) if q == pid]
        if not found:
            raise OperationRejected(f"round.swap: player {pid} is not in round {p.number}")
        seats[pid] = found[0]
    (ma, sa), (mb, sb) = seats[p.a], seats[p.b]
    if ma == mb:
        raise OperationRejected(f"round.swap: {p.a} and {p.b} are already in the same match")
    rnd["matches"][ma]["players"][sa], rnd["matches"][mb]["players"][sb] = p.b, p.a
    by = rnd["paired_by"] or {}
    # ``swaps``: how many manual swaps a re-pair of this draft would throw away (the Rounds screen asks first).
    rnd["paired_by"] = dict(by, swapped_by=op.op_id, swaps=int(by.get("swaps", 0)) + 1)


def _round_publish(state: dict[str, Any], op: Operation) -> None:
    rnd = _started_round(state, "round.publish", op.payload.number, op.payload.stage, ("draft",))
    rnd["status"] = "published"


def _round_discard(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    try:
        i, rnd = find_round(state, p.number, p.stage)
    except OperationRejected as exc:
        raise OperationRejected(f"round.discard: {exc}") from None
    if rnd["status"] == "published":
        raise OperationRejected(
            f"round.discard: round {p.number} is published (players may have seen its "
            "pairings), so it can no longer be discarded; swap two players if a seat must change, then start it"
        )
    if rnd["status"] != "draft":
        raise OperationRejected(
            f"round.discard: round {p.number} has started; its pairings and results stay (Pokémon TOP 4)"
        )
    if any(r["kind"] != "pairing" for m in rnd["matches"] for r in m["reports"]):
        raise OperationRejected(
            f"round.discard: round {p.number} has results; only a round without results can be discarded"
        )
    if i != len(state["rounds"]) - 1:  # a draft is always the latest round: defensive, for imported documents
        raise OperationRejected(f"round.discard: round {p.number} is not the latest round")
    del state["rounds"][i]
    if rnd["stage"] == "elimination" and not any(r["stage"] == "elimination" for r in state["rounds"]):
        state["cut"] = None  # the cut's first round discarded: no cut yet
    refresh_disputes(state)


def secret_time_sides(state: dict[str, Any]) -> int | None:
    """The sides of the event's secret die (Doomtown Floor Rules 3.A: a d6), or None: no secret time."""
    if state["ruleset"] is None:
        return None
    sides = _ruleset(state).time_limits.get("secret_d6_sides")
    return sides if isinstance(sides, int) and sides > 0 else None


def secret_minutes(state: dict[str, Any], sides: int) -> int:
    """The event's secret round time in minutes, drawn from its seed by the game's rule (Doomtown's d6)."""
    draw = game_of(state["ruleset"]).secret_time
    if draw is None:
        raise OperationRejected(f"ruleset: {state['ruleset']} has no secret round time")
    return draw(state["seed"], sides)


def _secret_s(state: dict[str, Any], duration: int) -> int | None:
    """A round's secret time in seconds: the event's d6 in minutes, or None where the seed is withheld."""
    sides = secret_time_sides(state)
    if sides is None:
        raise OperationRejected(
            f"round.start: payload.secret: {_ruleset(state).title} rounds have no secret time "
            "(only Doomtown's d6, Floor Rules 3.A)"
        )
    if not duration:
        raise OperationRejected(
            "round.start: payload.secret: an untimed round has no secret time; give payload.duration_s"
        )
    if is_withheld(state["seed"]):
        return None  # a player's device: the d6 is kept from players (Floor Rules 3.A)
    # Floor Rules 3.A, 5.C: one d6 per roundup, added to every round's hour.
    return secret_minutes(state, sides) * 60


def _round_start(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    rnd = _started_round(state, "round.start", p.number, p.stage, ("draft", "published"))
    duration = p.duration_s
    if duration is None:
        minutes = state["settings"].get("round_minutes")  # the Settings screen's round length
        duration = minutes * 60 if isinstance(minutes, int) and not isinstance(minutes, bool) else 0
    timer = {
        "started_at": p.at if p.at is not None else op.at,
        "duration_s": duration,
        "paused_at": None,
        "paused_ms": 0,
        "extended_s": 0,
    }
    if p.secret:
        timer["secret_s"] = _secret_s(state, duration)
    rnd["status"] = "started"
    rnd["timer"] = timer
    _changed(state, rnd)  # a round of byes only is complete at once


# ---------------------------------------------------------------- clock


def _clock(state: dict[str, Any], op: Operation) -> tuple[dict[str, Any], dict[str, Any]]:
    p = op.payload
    if p.round is None:
        rnd = current_round(state)
        if rnd is None:
            raise OperationRejected(f"{op.type}: no round has started")
    else:
        _, rnd = find_round(state, p.round, p.stage)
    timer = rnd["timer"]
    if timer is None:
        raise OperationRejected(f"{op.type}: round {rnd['number']} has not started")
    if not timer["duration_s"]:
        raise OperationRejected(f"{op.type}: round {rnd['number']} is untimed")
    return rnd, timer


def _timer_pause(state: dict[str, Any], op: Operation) -> None:
    rnd, timer = _clock(state, op)
    if timer["paused_at"] is not None:
        raise OperationRejected(f"timer.pause: round {rnd['number']}'s clock is already paused")
    timer["paused_at"] = op.payload.at if op.payload.at is not None else op.at


def _timer_resume(state: dict[str, Any], op: Operation) -> None:
    rnd, timer = _clock(state, op)
    if timer["paused_at"] is None:
        raise OperationRejected(f"timer.resume: round {rnd['number']}'s clock is not paused")
    at = op.payload.at if op.payload.at is not None else op.at
    timer["paused_ms"] += max(0, at - timer["paused_at"])  # devices' clocks may disagree: never negative
    timer["paused_at"] = None


def _timer_extend(state: dict[str, Any], op: Operation) -> None:
    _, timer = _clock(state, op)
    timer["extended_s"] += op.payload.seconds


# ---------------------------------------------------------------- results


def _result(ruleset: Ruleset, players: list[str], raw: dict[str, Any], label: str) -> dict[str, Any]:
    """A result checked against the ruleset's vocabulary: ``{outcomes, scores?, stats?, ending?, games?}``."""
    n = len(players)
    outcomes = raw.get("outcomes")
    if not isinstance(outcomes, list) or len(outcomes) != n:
        got = f"{len(outcomes)}" if isinstance(outcomes, list) else "none"
        raise OperationRejected(f"{label}payload.outcomes: expected {n} entries (one per player), got {got}")
    for value in outcomes:
        if value not in ruleset.outcome_keys:
            raise OperationRejected(f"{label}payload.outcomes: {json.dumps(value)} is not an outcome of {ruleset.id}")
    try:
        ruleset.check_outcomes(tuple(players), tuple(outcomes), f"{label}payload.outcomes")
    except DocumentError as exc:
        raise OperationRejected(f"{label}{exc.problem}") from None  # in words for the judge, without a field path
    result: dict[str, Any] = {"outcomes": list(outcomes)}
    for key in ("scores", "stats"):
        if raw.get(key) is not None:
            if len(raw[key]) != n:
                raise OperationRejected(
                    f"{label}payload.{key}: expected {n} entries (one per player), got {len(raw[key])}"
                )
            result[key] = clone(raw[key])
    for i, stats in enumerate(result.get("stats", [])):
        for k, v in stats.items():
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise OperationRejected(f"{label}payload.stats[{i}].{k}: expected a number")
    ending = raw.get("ending")
    if ending is not None:
        if ruleset.endings and ending not in ruleset.endings:
            raise OperationRejected(
                f"{label}payload.ending: '{ending}' is not a game ending of {ruleset.id} "
                f"(use {', '.join(ruleset.endings)})"
            )
        result["ending"] = ending
    if raw.get("games") is not None:
        result["games"] = clone(raw["games"])
    return result


#: Verdicts of :func:`_check_in_event` for two-player matches (problem text, or None: accepted), by what the
#: whole-event checks read of such a match: the ruleset and settings, the round, the result and the match's
#: fields (the players' ids only name them; matches whose players dropped, or share an entry, are not cached).
_VERDICTS: dict[tuple[Any, ...], str | None] = {}


def _player_rows(state: dict[str, Any], ids: list[str]) -> dict[str, dict[str, Any]]:
    """The rows of these players, without a scan of the roster per result (a fold checks thousands)."""
    players = state["players"]
    out = {}
    for pid in ids:
        at = position(players, "id", pid)
        if at is None:
            raise OperationRejected(f"unknown player '{pid}'")
        out[pid] = players[at]
    return out


def _check_in_event(
    state: dict[str, Any], rnd: dict[str, Any], match: dict[str, Any], result: dict[str, Any], label: str
) -> None:
    """Refuse a result the game's whole-event checks would refuse once it counts (scores a differential
    needs, Shatterpoint's statistics, an ending that does not go with the outcomes, an earned bye too many,
    an elimination result that says nobody goes on).

    So a result the reducer accepts never leaves an event whose standings or next pairing fail. The check
    loads a small document: every round (numbers must run on), with this match under its new result and,
    for a one-player match, the settled one-player matches of its player (what the checks count across
    rounds), and no other. Two-player verdicts are cached (``_VERDICTS``): a fold checks thousands alike.
    """
    ids = match["players"]
    rows = _player_rows(state, ids)
    gone = any(p["dropped_after"] is not None and p["dropped_after"] < rnd["number"] for p in rows.values())
    cacheable = len(ids) == 2 and not gone and rows[ids[0]]["entry"] != rows[ids[1]]["entry"]
    key: tuple[Any, ...] = ()
    if cacheable:
        key = (
            id(_ruleset(state)),  # the configured ruleset, cached once per id and settings (ruleset_of)
            rnd["number"],
            rnd["stage"],
            json.dumps(result, sort_keys=True),
            json.dumps(match["extra"], sort_keys=True) if match["extra"] else "",
        )
        if key in _VERDICTS:
            problem = _VERDICTS[key]
            if problem is not None:
                raise OperationRejected(f"{label}{problem}")
            return
    problem = _event_problem(state, rnd, match, result, rows)
    if cacheable:
        if len(_VERDICTS) > 4096:
            _VERDICTS.clear()
        _VERDICTS[key] = problem
    if problem is not None:
        raise OperationRejected(f"{label}{problem}")


def _event_problem(
    state: dict[str, Any],
    rnd: dict[str, Any],
    match: dict[str, Any],
    result: dict[str, Any],
    rows: dict[str, dict[str, Any]],
) -> str | None:
    """What the whole-event checks say of ``match`` under ``result`` (None: nothing)."""
    ids = set(match["players"])
    solo = len(ids) == 1
    rounds = []
    for r in state["rounds"]:
        matches = []
        if r is rnd:
            matches.append({"players": list(match["players"]), **result, **clone(match["extra"])})
        if solo:
            for m in r["matches"]:
                if m is not match and len(m["players"]) == 1 and m["players"][0] in ids and m["status"] in SETTLED:
                    row = {"players": list(m["players"]), **{k: m[k] for k in RESULT_FIELDS if m[k] is not None}}
                    matches.append({**row, **clone(m["extra"])})
        rounds.append({"number": r["number"], "stage": r["stage"], "matches": matches})
    players = [
        {k: p[k] for k in ("id", "name", "entry", "birth_year", "earned_byes", "dropped_after") if p[k] is not None}
        for p in rows.values()
    ]
    doc = {"ruleset": state["ruleset"], "settings": state["settings"], "players": players, "rounds": rounds}
    try:
        event = load_event(doc)
    except DocumentError as exc:
        return exc.problem
    if rnd["stage"] == "elimination" and len(match["players"]) == 2:
        return _decides(state, rnd, match, event)
    return None


def _decides(state: dict[str, Any], rnd: dict[str, Any], match: dict[str, Any], event: Any) -> str | None:
    """Why an elimination match's result does not say who goes on (None: it does, or that nobody does)."""
    from ..matches.winner import match_winner

    rules = bracket_rules(state["ruleset"], state["settings"])
    if match["extra"].get("playoff"):
        best_of = rules.best_of
    else:
        slots = rnd["extra"].get("bracket", {}).get("slots") or sum(
            1 for m in rnd["matches"] if not m["extra"].get("playoff")
        )
        best_of = rules.best_of_for(2 * slots)
    mini = next(
        m
        for r in event.rounds
        if r.number == rnd["number"] and r.stage == "elimination"
        for m in r.matches
        if list(m.players) == match["players"]
    )
    try:
        match_winner(event, mini, best_of=best_of, rules=rules, ruleset=_ruleset(state))
    except RulesError as exc:
        return str(exc).split(": ", 1)[-1] if str(exc).startswith(("outcomes: ", "games: ")) else str(exc)
    return None


def _target(state: dict[str, Any], op: Operation) -> tuple[dict[str, Any], dict[str, Any], str]:
    """The round and match a result operation names, refusing unstarted rounds and frozen records."""
    p = op.payload
    i, rnd = find_round(state, p.round, p.stage)
    if rnd["status"] in ("draft", "published"):
        raise OperationRejected(f"{op.type}: round {rnd['number']} has not started")
    mi, match = find_match(rnd, p.table, p.match)
    settling = op.type in ("result.resolve", "result.correct") and match["status"] == "disputed"
    if len(state["rounds"]) > i + 2 and not settling:
        later = state["rounds"][i + 2]
        raise RoundFrozen(
            f"{op.type}: round {rnd['number']}'s record cannot change after round "
            f"{later['number']} is paired (Pokémon TOP 4)"
        )
    return rnd, match, f"{op.type}: {where(rnd, mi)}: "


def _flat_result(p: Any) -> dict[str, Any]:
    return {k: getattr(p, k) for k in RESULT_FIELDS}


def _result_report(state: dict[str, Any], op: Operation) -> None:
    rnd, match, label = _target(state, op)
    result = _result(_ruleset(state), match["players"], _flat_result(op.payload), label)
    _check_in_event(state, rnd, match, result, label)
    match["reports"].append(_report(op, "report", result))
    _changed(state, rnd, match)


def _result_confirm(state: dict[str, Any], op: Operation) -> None:
    rnd, match, label = _target(state, op)
    wanted = op.payload.report
    if wanted is not None:
        chosen = [r for r in match["reports"] if r["op_id"] == wanted]
        if not chosen:
            raise OperationRejected(f"{label}there is no report {wanted} to confirm")
        report = chosen[-1]
    else:
        me = op.actor.player
        others = [r for r in match["reports"] if r["actor"]["role"] == "player" and r["actor"].get("player") != me]
        if match["status"] != "reported" or not others:
            raise OperationRejected(f"{label}no report is awaiting confirmation ({match['status']})")
        report = others[-1]
    match["reports"].append(_report(op, "confirm", clone(report["result"])))
    _changed(state, rnd, match)


def _result_correct(state: dict[str, Any], op: Operation) -> None:
    rnd, match, label = _target(state, op)
    result = _result(_ruleset(state), match["players"], _flat_result(op.payload), label)
    _check_in_event(state, rnd, match, result, label)
    match["reports"].append(_report(op, "correct", result, op.payload.reason))
    _changed(state, rnd, match)


_RESULT_CHECKS = {"outcomes": "names", "scores": "numbers", "stats": "objects", "ending": "name", "games": "list"}


def _result_resolve(state: dict[str, Any], op: Operation) -> None:
    rnd, match, label = _target(state, op)
    if match["status"] != "disputed":
        raise OperationRejected(f"{label}the match is not disputed ({match['status']}); use result.correct")
    raw = op.payload.result
    for key, value in raw.items():
        if key not in _RESULT_CHECKS:
            raise OperationRejected(f"{label}payload.result.{key}: not a result field")
        if value is not None:
            try:
                CHECKS[_RESULT_CHECKS[key]](value, f"payload.result.{key}")
            except OperationRejected as exc:
                raise OperationRejected(f"{label}{exc}") from None
    result = _result(_ruleset(state), match["players"], raw, label + "result.")
    _check_in_event(state, rnd, match, result, label)
    match["reports"].append(_report(op, "resolve", result, op.payload.reason))
    _changed(state, rnd, match)


# ---------------------------------------------------------------- penalties


def _penalty_issue(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    player = find_player(state, p.player)
    given = penalties.decide(state["ruleset"], state["penalties"], p.player, p.kind, p.level, p.infraction, p.reason)
    cur = current_round(state)
    now = cur["number"] if cur is not None else 0
    state["penalties"].append(
        {
            "op_id": op.op_id,
            "at": op.at,
            "by": op.actor.to_json(),
            "player": p.player,
            "round": p.round if p.round is not None else now,
            "kind": given["kind"],
            "level": given["level"],
            "infraction": p.infraction,
            "reason": p.reason,
            "effect": given["effect"],
            "scorecard": given["scorecard"],
        }
    )
    if given["effect"] in penalties.REMOVING:
        player["ejected"] = True  # dropped now, and cannot rejoin
        if player["dropped_after"] is None:
            player["dropped_after"] = now
            state["penalties"][-1]["dropped"] = now  # what the penalty did to the roster (players see only this)


def _penalty_rescind(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    entry = next((e for e in state["penalties"] if e.get("op_id") == p.penalty), None)
    if entry is None:
        raise OperationRejected(f"penalty.rescind: payload.penalty: there is no penalty {p.penalty} on record")
    done = entry.get("rescinded")
    if done:
        raise OperationRejected(
            f"penalty.rescind: the {entry['kind']} of {entry['player']} ({p.penalty}) was already rescinded "
            f"by the {done['by']['role']}: {done['reason']}"
        )
    player = find_player(state, entry["player"])
    entry["rescinded"] = {"op_id": op.op_id, "at": op.at, "by": op.actor.to_json(), "reason": p.reason}
    if entry["effect"] in penalties.REMOVING and penalties.removing_penalty(state["penalties"], player["id"]) is None:
        player["ejected"] = False  # still dropped: player.reinstate brings them back (missed rounds and all)


# ---------------------------------------------------------------- deck lists


def _lock_words(state: dict[str, Any]) -> str:
    """When the lists locked, in words."""
    return (
        "at the organizer's deadline"
        if decklists.settings_of(state["settings"]).deadline is not None
        else "when round 1 started"
    )


def list_locked(state: dict[str, Any], at: int) -> bool:
    """Whether the event's deck lists are locked at ``at`` (ms, the device's clock the server corrects)."""
    lock = decklists.lock_at(state["settings"], state["rounds"])
    return lock is not None and at >= lock


def _decklist_submit(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    find_player(state, p.player)
    spec = game_of(state["ruleset"]).decklists
    for key, text in p.sections.items():
        if spec.section(key) is None:
            names = ", ".join(f"{s.key} ({s.label})" for s in spec.sections)
            raise OperationRejected(
                f"decklist.submit: payload.sections.{key}: not a section of this game (use {names})"
            )
        if not isinstance(text, str):
            raise OperationRejected(f"decklist.submit: payload.sections.{key}: expected the list's lines as text")
    locked = list_locked(state, op.at)
    reason = (p.reason or "").strip() or None
    if locked and not op.actor.is_staff:
        raise ListLocked(
            f"decklist.submit: {spec.noun}s locked {_lock_words(state)}; only a judge or the organizer "
            f"can change yours now: ask one"
        )
    if locked and reason is None:
        raise OperationRejected(
            f"decklist.submit: payload.reason: {spec.noun}s locked {_lock_words(state)}; a change now needs the reason"
        )
    entry = state["decklists"].get(p.player)
    change = {"op_id": op.op_id, "at": op.at, "by": op.actor.to_json(), "reason": reason, "locked": locked}
    if entry is None:
        entry = state["decklists"][p.player] = {"sections": {}, "changes": []}
    entry["sections"] = {key: text for key, text in p.sections.items() if text.strip()}
    entry["changes"].append(change)


def _deckcheck_record(state: dict[str, Any], op: Operation) -> None:
    p = op.payload
    find_player(state, p.player)
    if p.outcome not in ("ok", "problem"):
        raise OperationRejected(f"deckcheck.record: payload.outcome: '{p.outcome}' is not ok or problem")
    if p.penalty is not None:
        entry = next((e for e in state["penalties"] if e.get("op_id") == p.penalty), None)
        if entry is None or entry.get("player") != p.player:
            raise OperationRejected(
                f"deckcheck.record: payload.penalty: there is no penalty {p.penalty} of {p.player} on record"
            )
    cur = current_round(state)
    state["deckchecks"].append(
        {
            "op_id": op.op_id,
            "at": op.at,
            "by": op.actor.to_json(),
            "player": p.player,
            "round": p.round if p.round is not None else (cur["number"] if cur is not None else None),
            "table": p.table,
            "outcome": p.outcome,
            "note": p.note or "",
            "penalty": p.penalty,
        }
    )


#: Operation type -> handler (mutates the working copy it is given).
HANDLERS: dict[str, Callable[[dict[str, Any], Operation], None]] = {
    "event.create": _event_create,
    "event.configure": _event_configure,
    "player.register": _player_register,
    "player.edit": _player_edit,
    "player.check_in": _player_check_in,
    "player.drop": _player_drop,
    "player.reinstate": _player_reinstate,
    "player.remove": _player_remove,
    "round.pair": _round_pair,
    "round.swap": _round_swap,
    "round.publish": _round_publish,
    "round.discard": _round_discard,
    "round.start": _round_start,
    "timer.pause": _timer_pause,
    "timer.resume": _timer_resume,
    "timer.extend": _timer_extend,
    "result.report": _result_report,
    "result.confirm": _result_confirm,
    "result.correct": _result_correct,
    "result.resolve": _result_resolve,
    "cut.make": _cut_make,
    "penalty.issue": _penalty_issue,
    "penalty.rescind": _penalty_rescind,
    "decklist.submit": _decklist_submit,
    "deckcheck.record": _deckcheck_record,
    "call.judge": calls.call_judge,
    "call.player": calls.call_player,
    "call.answer": calls.call_answer,
    "event.close": _event_close,
    "device.void": lambda state, op: None,  # keeps the device's sequence gapless; changes nothing
}


def _report_details_only(state: dict[str, Any], op: Operation) -> bool:
    """Whether ``op`` only fills in the tournament report's details (``settings.report``) of a game that has a
    report, which a closed event still accepts: the report is written after the event (Star Trek OP Guide 8)."""
    if op.type != "event.configure":
        return False
    p = op.payload
    return (
        p.name is None
        and p.ruleset is None
        and p.settings is not None
        and p.settings.keys() == {"report"}
        and game_of(state["ruleset"]).report_details is not None
    )


def _apply_in_place(state: dict[str, Any], raw: Any) -> None:
    op = parse_operation(raw)
    last = state["devices"].get(op.device)
    if last is not None and op.seq <= last:
        raise OperationRejected(f"{op.type}: {op.op_id} was already applied (device {op.device} is at {last})")
    if op.type != "event.create" and state["ruleset"] is None:
        raise OperationRejected(f"{op.type}: no event yet; the first operation must be event.create")
    if state["closed"] and not _report_details_only(state, op):
        raise EventClosed(f"{op.type}: the event is closed")
    authorize_parsed(state, op)  # the operation parsed once, above
    HANDLERS[op.type](state, op)
    devices = dict(state["devices"], **{op.device: op.seq})
    state["devices"] = dict(sorted(devices.items()))


def apply_in_place(state: dict[str, Any], op: Any) -> None:
    """Apply one operation to ``state`` itself: cost proportional to the operation, not the event.

    Every handler checks first and changes second, so an ``OperationRejected``
    leaves ``state`` exactly as it was (tests/rules/test_state_in_place.py
    checks it on random operation streams). Any other exception (a bug) may
    leave it half-changed: the caller must then discard it. The server uses
    this on its private working copy; :func:`apply` is the pure version.
    """
    _apply_in_place(state, op)


def apply(state: dict[str, Any], op: Any) -> dict[str, Any]:
    """The state after one operation; the input is never changed. Raises ``OperationRejected``.

    >>> s = apply(initial_state(), {"type": "event.create", "op_id": "t1:1", "device": "t1",
    ...           "actor": {"role": "organizer"}, "at": 0, "payload": {"ruleset": "custom", "name": "Cup"}})
    >>> s["ruleset"], s["name"], s["seed"], s["devices"]
    ('custom', 'Cup', 't1:1', {'t1': 1})
    """
    work: dict[str, Any] = clone(state)
    try:
        _apply_in_place(work, op)
    except BaseException:
        release(work)  # the copy is let go: no index keeps it alive (index.py)
        raise
    return work


def check(state: dict[str, Any], op: Any) -> str | None:
    """None if ``apply`` would accept the operation, else the one-line reason (for the server's push)."""
    work = clone(state)
    try:
        _apply_in_place(work, op)
    except OperationRejected as exc:
        return str(exc)
    finally:
        release(work)  # no index keeps the tried copy alive (index.py)
    return None


@contextmanager
def folding() -> Iterator[None]:
    """Pause Python's cycle collector while a fold runs (and restore it after).

    A fold allocates a state's worth of plain JSON rows, which hold no reference cycles, so reference
    counting frees all that a fold lets go of; but each full collection the allocations set off walks every
    object alive (the state, the log being folded), and a 2,048-player event's fold spent a fifth of its time
    in them: its cost per operation grew with the field (issue 27, ``bench.fold``).
    """
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def replay(ops: Iterable[Any], state: dict[str, Any] | None = None, *, skip_rejected: bool = False) -> dict[str, Any]:
    """Fold operations from ``initial_state()`` (or a copy of ``state``).

    A rejected operation raises, unless ``skip_rejected`` (a tablet replaying a
    log that may hold operations the server will refuse).
    """
    with folding():
        return _replay(ops, state, skip_rejected)


def _replay(ops: Iterable[Any], state: dict[str, Any] | None, skip_rejected: bool) -> dict[str, Any]:
    work = clone(state) if state is not None else initial_state()
    for op in ops:
        if skip_rejected:
            try:  # a refused operation leaves ``work`` as it was (see apply_in_place): no copy per operation
                _apply_in_place(work, op)
            except OperationRejected:
                continue
        else:
            _apply_in_place(work, op)
    return work

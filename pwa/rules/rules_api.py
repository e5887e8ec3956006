"""What the rules worker exposes to the page: JSON in, JSON out, nothing else.

Runs inside Pyodide next to ``shared_rules`` (the page never sees a Python
object). Every number a screen shows comes from here, computed by the same
code the server runs: the state is ``replay`` of the confirmed log plus the
device's pending operations applied on top (optimistic), standings are
``standings_json`` of that state, pairings ``pair_next_round_json``.

The worker keeps one folded state per event so a sync only folds the new
operations: ``confirmed`` at ``cursor`` (the server's log), ``state``
(confirmed + pending, the last fold, the same object when nothing waits) and
``spare`` (a copy of ``confirmed`` kept up with the log, or None), so that a
change made on the device rarely waits for a copy of the whole event.

Importing this module imports nothing of ``shared_rules`` but its errors: the
worker reports "ready" sooner, then calls ``warm()`` (the state machinery every
event screen needs) while the page is still reading IndexedDB; every other part
of the engine is imported by the first function that needs it.
"""

from __future__ import annotations

import itertools
import json
import os
from typing import Any

from shared_rules.errors import RulesError

_EVENTS: dict[str, dict[str, Any]] = {}


def warm() -> None:
    """Import what every event screen needs (fold, state, check_op, timer)."""
    import shared_rules.event  # noqa: F401
    import shared_rules.state  # noqa: F401


def _event(state: dict[str, Any]) -> Any:
    from shared_rules.run import load_event
    from shared_rules.state import to_event_document

    return load_event(to_event_document(state, operational=False))


def _entry(event_id: str) -> dict[str, Any]:
    try:
        return _EVENTS[event_id]
    except KeyError:
        raise RulesError(f"event {event_id} is not loaded on this device") from None


def _current(event_id: str) -> dict[str, Any]:
    return _entry(event_id)["state"]


# ---------------------------------------------------------------- the fold


def fold(
    event_id: str,
    reset: bool,
    base: Any,
    confirmed: list[dict[str, Any]],
    pending: list[dict[str, Any]],
    with_state: bool = True,
    snapshot: dict[str, Any] | None = None,
    known: str | None = None,
) -> dict[str, Any]:
    """Fold new confirmed operations into the cached state, then the pending ones on top.

    ``confirmed``: ``[{server_seq, op}]`` after the worker's cursor (older ones are skipped);
    ``pending``: full operations (envelope + payload) in device order. A pending
    operation the rules refuse is left out and reported in ``local_rejections`` as ``{op_id, reason, code}``
    (the server will refuse it too, with the same code; the device shows why where it happened).

    ``snapshot``: with ``reset``, ``{cursor, state}`` saved by this device from :func:`confirmed` (same rules
    build): the fold starts from it instead of the event's start, and ``confirmed`` holds the log after its
    cursor. A snapshot that is not a state, or that the log does not fold onto, is not used: the answer is
    then ``{"snapshot_refused": true}`` and the device folds again from the start. ``{"refold": true}``: the
    rules failed half-way through the server's log (a bug), or the fold is not ``reset`` and the worker does not
    hold the event (its entry was let go): ``confirmed`` is only the log after the device's cursor, so the device
    folds again from the start.

    No fold copies the whole state when it can be helped (a 2,048-player event's state takes 0.2 s to copy in
    CPython, more on a tablet): the log is folded in place, a change made on top of the same waiting changes
    is applied alone, and the worker keeps a spare copy of the server's state (:func:`prepare`) for the first
    change after a sync. ``spare`` in the answer: whether one is ready.

    ``revision`` in the answer names the state it holds; given the revision the device already has as
    ``known``, an unchanged state is not sent again (``same_state``): a tablet syncs every few seconds, and a
    2,048-player event's state is 3.3 MB of JSON to write and read each time. ``known: "snapshot"`` with a
    snapshot: the device holds the snapshot's state, so a start with nothing after it answers ``same_state``.
    """
    from shared_rules.state import folding

    with folding():  # no cycle collection while the log folds (shared_rules.state.folding)
        return _fold(event_id, reset, base, confirmed, pending, with_state, snapshot, known)


def _fold(
    event_id: str,
    reset: bool,
    base: Any,
    confirmed: list[dict[str, Any]],
    pending: list[dict[str, Any]],
    with_state: bool,
    snapshot: dict[str, Any] | None,
    known: str | None,
) -> dict[str, Any]:
    from shared_rules.state import STATE_FORMAT, from_event_document, initial_state

    entry = _EVENTS.get(event_id)
    if entry is None and not reset:  # folded onto nothing, the log after the device's cursor is a state with a hole
        return {"refold": True}
    if reset or entry is None:
        if snapshot is not None:
            start, at = _snapshot_state(snapshot), snapshot.get("cursor")
            if not (isinstance(start, dict) and start.get("format") == STATE_FORMAT and isinstance(at, int)):
                _EVENTS.pop(event_id, None)
                return {"snapshot_refused": True}
        else:
            start, at = (from_event_document(base) if base else initial_state()), 0
        entry = {
            "cursor": at,
            "confirmed": start,
            "state": start,
            "spare": None,
            "pending": [],
            "applied": [],
            "rejections": [],
            "revision": _revision(),
        }
        _EVENTS[event_id] = entry
    fresh = [row["op"] for row in confirmed if row["server_seq"] > entry["cursor"]]
    if fresh:
        strict = reset and snapshot is not None  # a snapshot the log does not fold onto is not used
        try:
            _fold_log(entry, fresh, strict)
        except Exception as exc:  # the entry no longer holds the log folded
            _EVENTS.pop(event_id, None)
            if strict and isinstance(exc, RulesError):
                return {"snapshot_refused": True}
            if reset:  # the rules fail on this log from its start: say so (as the fold always did)
                raise
            return {"refold": True}  # half-way through the log (a bug, or a rules change): from the start
        entry["cursor"] = max(row["server_seq"] for row in confirmed)
    changed = _fold_pending(entry, pending) or bool(fresh)
    if changed:
        entry["revision"] = _revision()
    out: dict[str, Any] = {
        "cursor": entry["cursor"],
        "local_rejections": entry["rejections"],
        "spare": entry["spare"] is not None,
        "revision": entry["revision"],
    }
    # The device read the snapshot it sent for itself (``known: "snapshot"``): a start with nothing after it
    # sends nothing back (a 2,048-player event's state is 3.3 MB of JSON to write here and to read there).
    held = known == SNAPSHOT_HELD and snapshot is not None and reset and not changed
    if held or (known is not None and known == entry["revision"]):
        out["same_state"] = True
    elif with_state:
        out["state"] = entry["state"]
    return out


#: ``known`` of a start from a snapshot whose state the device holds already (read from the same text).
SNAPSHOT_HELD = "snapshot"
_WORKER = os.urandom(6).hex()  # revisions of another worker (after a restart) never match this one's
_REVISIONS = itertools.count(1)


def _revision() -> str:
    return f"{_WORKER}:{next(_REVISIONS)}"


def _fold_log(entry: dict[str, Any], fresh: list[dict[str, Any]], strict: bool) -> None:
    """The server's new operations folded in place into the entry's confirmed state (and its spare copy).

    When they are exactly the waiting changes the working state holds, in order, that state *is* the new
    confirmed one. A refused operation (a rules change on this device) is skipped, unless ``strict``.
    Raises when the rules fail (or, ``strict``, refuse) half-way: the entry is then to be thrown away.
    """
    from shared_rules.state import OperationRejected, apply_in_place

    confirmed, working, spare = entry["confirmed"], entry["state"], entry["spare"]
    if working is not confirmed and not entry["rejections"] and entry["pending"] == fresh:
        # The server took this device's changes and nothing else: the working state is the log folded,
        # and the old confirmed state, brought up to it, becomes the spare copy.
        entry["confirmed"], entry["spare"], entry["pending"], entry["applied"] = working, None, [], []
        try:
            for op in fresh:
                apply_in_place(confirmed, op)
        except Exception:  # the same operations on the same state cannot fail; a spare must be exact
            return
        entry["spare"] = confirmed
        return
    for op in fresh:
        try:
            apply_in_place(confirmed, op)
        except OperationRejected:  # leaves no trace (see apply_in_place)
            if strict:
                raise
            continue
        if spare is not None:
            try:
                apply_in_place(spare, op)
            except Exception:  # the same operation on an equal state cannot fail; a spare must be exact
                spare = entry["spare"] = None
    if working is not confirmed:  # the waiting changes are folded again, on top of the new log
        entry["state"], entry["pending"], entry["applied"], entry["rejections"] = confirmed, [], [], []


def _in_log(op: dict[str, Any], seen: dict[str, int]) -> bool:
    """Whether the server's log already took this device operation (its sequence number is at or below the
    device's last one in the folded log: the server handles a device's operations in order)."""
    last = seen.get(op.get("device"))  # type: ignore[arg-type]
    if last is None:
        return False
    try:
        return int(str(op.get("op_id", "")).rpartition(":")[2]) <= last
    except ValueError:
        return False  # a malformed id: the rules say what is wrong with it


def _fold_pending(entry: dict[str, Any], pending: list[dict[str, Any]]) -> bool:
    """This device's waiting changes on top of the confirmed state, into the entry's working state; whether
    that state changed.

    The same waiting changes as the last fold plus new ones after them (a change made on this device): only the
    new ones are applied, in place. Else a copy of the confirmed state (the spare, if ready) takes them all.
    A waiting change the log already holds (the device wrote a pulled page before clearing its outbox, and a fold
    fell in between) is not applied twice: it would read as refused ("already applied") until the next fold.
    """
    from shared_rules.state import OperationRejected, apply_in_place, replay
    from shared_rules.state.state import clone

    confirmed = entry["confirmed"]
    seen = confirmed.get("devices") or {}
    if pending and seen:
        pending = [op for op in pending if not _in_log(op, seen)]
    if not pending:
        changed = entry["state"] is not confirmed
        entry["state"], entry["pending"], entry["applied"], entry["rejections"] = confirmed, [], [], []
        return changed
    done, working = entry["pending"], entry["state"]
    if working is not confirmed and len(done) <= len(pending) and pending[: len(done)] == done:
        if len(done) == len(pending):
            return False
        applied, rejections, todo = list(entry["applied"]), list(entry["rejections"]), pending[len(done) :]
    else:
        working, entry["spare"] = (entry["spare"] or clone(confirmed)), None
        applied, rejections, todo = [], [], pending
    try:
        for op in todo:
            try:
                apply_in_place(working, op)
                applied.append(op)
            except RulesError as exc:
                rejections.append({"op_id": op.get("op_id"), "reason": str(exc), "code": _code(exc)})
                if not isinstance(exc, OperationRejected):  # it may have stopped half-way: copy and fold again
                    working = replay(applied, confirmed)
    except Exception:  # a bug (no rules error): the working state may be half-changed, and is let go
        entry["state"], entry["pending"], entry["applied"], entry["rejections"] = confirmed, [], [], []
        entry["revision"] = _revision()  # not the state the device holds
        raise
    entry["state"], entry["pending"], entry["applied"], entry["rejections"] = working, pending, applied, rejections
    return True


def prepare(event_id: str) -> dict[str, Any]:
    """Copy the server's state as the spare for the next change made on this device, when none is ready.

    The device calls it when idle after a fold: a change then applies to the copy in place, and the judge does
    not wait for a copy of the whole event. ``{"spare": true}`` once ready.
    """
    from shared_rules.state.state import clone

    entry = _entry(event_id)
    if entry["spare"] is None:
        entry["spare"] = clone(entry["confirmed"])
    return {"spare": True}


def state(event_id: str) -> dict[str, Any]:
    return _current(event_id)


def confirmed(event_id: str, text: bool = False) -> dict[str, Any]:
    """``{cursor, state}``: the server's log folded (without this device's waiting changes), for the device to
    keep as a snapshot and start its next fold from (``fold(..., snapshot=)``). ``text``: the state as its JSON
    text (``state_json``), which the device stores and sends back as it is: a start then builds no copy of the
    event in the page, nor writes it as JSON again, before the worker reads it."""
    entry = _entry(event_id)
    if text:
        return {"cursor": entry["cursor"], "state_json": json.dumps(entry["confirmed"], separators=(",", ":"))}
    return {"cursor": entry["cursor"], "state": entry["confirmed"]}


def _snapshot_state(snapshot: dict[str, Any]) -> Any:
    """The state a snapshot holds (``state_json``: as text, :func:`confirmed`), or None when it holds none."""
    text = snapshot.get("state_json")
    if isinstance(text, str):
        try:
            return json.loads(text)
        except ValueError:
            return None
    return snapshot.get("state")


def _code(exc: RulesError) -> str:
    """A refusal's error code, as the server records it on the refused row (``round-frozen``, ``not-authorized``...)."""
    return getattr(exc, "code", "operation-rejected")


def check_op(event_id: str, op: dict[str, Any]) -> dict[str, Any]:
    """Would this operation apply on top of the current state? ``{ok, reason, code}`` (code: None when ok)."""
    from shared_rules.state import apply, cap_problem
    from shared_rules.state.index import release

    too_big = cap_problem(op.get("type", ""), op.get("payload"))
    if too_big is not None:
        return {"ok": False, "reason": too_big, "code": "field-too-large"}  # the server's code for it too
    try:
        release(apply(_current(event_id), op))  # a copy only tried on: no index keeps it (state/index.py)
        return {"ok": True, "reason": None, "code": None}
    except RulesError as exc:
        return {"ok": False, "reason": str(exc), "code": _code(exc)}


# ---------------------------------------------------------------- derived numbers


def standings(event_id: str, published: bool = False) -> dict[str, Any]:
    """The standings; ``published``: those the hall sees (``after`` the round the organizer's standings policy
    shows them after: by default the last complete round), or none."""
    from shared_rules.games import get_ruleset
    from shared_rules.run import standings_json
    from shared_rules.standings import reported_labels
    from shared_rules.state.published import published_round, published_state, unpublished_note

    st = _current(event_id)
    after = published_round(st) if published else None
    if published:
        if after is None:  # not yet, under the organizer's standings policy: say when
            return {"standings": [], "note": unpublished_note(st), "labels": {}}
        st = published_state(st)
    if st["ruleset"] is None or not st["rounds"]:
        return {"standings": [], "note": "no rounds yet", "labels": {}}
    try:
        event = _event(st)
        out = standings_json(event)
        names = list(out["standings"][0].get("tiebreakers") or {}) if out["standings"] else []
        reported = get_ruleset(event.ruleset, event.settings).reported
        return {**out, "note": None, "labels": reported_labels(reported, names), "after": after}
    except RulesError as exc:
        return {"standings": [], "note": f"standings unavailable: {exc}", "labels": {}}


def pair_draft(event_id: str, replace: bool = False) -> dict[str, Any]:
    """The next Swiss round as the server would pair it (``round.pair`` payload material).

    Once check-in is used, the first round pairs only the players who checked in
    (shared_rules/state/checkin.py); ``not_checked_in`` lists the others.

    ``replace``: pair the latest round again, a draft not yet published, from the roster as it is now (a late
    entry, a drop since it was drafted), as if that draft did not exist; push it with ``replace: true``.
    """
    from shared_rules.run import pair_next_round_json
    from shared_rules.state.checkin import absent_from_first_round, without

    st = _current(event_id)
    draft = None
    if replace:
        draft = st["rounds"][-1] if st["rounds"] else None
        if draft is None or draft["status"] != "draft":
            now = "no round is paired yet" if draft is None else f"round {draft['number']} is {draft['status']}"
            raise RulesError(f"there is no draft round to pair again: {now}")
        if draft["stage"] == "elimination":
            raise RulesError(
                f"round {draft['number']} is an elimination round: discard the draft, then make the "
                "cut or pair the elimination round again"
            )
        st = dict(st, rounds=st["rounds"][:-1])
    absent = absent_from_first_round(st)
    out = {**pair_next_round_json(without(_event(st), absent)), "not_checked_in": absent}
    if draft is not None:
        if (out["round"], out["stage"]) != (draft["number"], draft["stage"]):
            raise RulesError(
                f"round {draft['number']} ({draft['stage']}) cannot be paired again: the event would "
                f"pair round {out['round']} ({out['stage']}) now; discard the draft instead"
            )
        out["replace"] = True
    return out


def _find_round(st: dict[str, Any], number: int, stage: str | None):
    for rnd in _event(st).rounds:
        if rnd.number == number and (stage is None or rnd.stage == stage):
            return rnd
    raise RulesError(f"round {number} is not paired")


def round_warnings(event_id: str, number: int, stage: str | None = None) -> list[str]:
    """Every problem of a drafted round (rematches, repeated byes, score gaps, dropped players...)."""
    from shared_rules.run import validate_pairing

    st = _current(event_id)
    event = _event(st)
    rnd = next((r for r in event.rounds if r.number == number and (stage is None or r.stage == stage)), None)
    if rnd is None:
        raise RulesError(f"round {number} is not paired")
    extra, left_out = _check_in_warnings(st, event, rnd)
    from shared_rules.state.checkin import without

    checked = without(event, left_out)  # not "not paired": they were left out for not checking in
    return (
        validate_pairing(checked, rnd)
        + _fixed_table_warnings(event, [(m.table, m.players) for m in rnd.matches])
        + extra
    )


def _check_in_warnings(st: dict[str, Any], event: Any, rnd: Any) -> tuple[list[str], list[str]]:
    """Round 1 once check-in is used: what to say of who was left out for not checking in (and who is
    paired without it), and the ids left out."""
    from shared_rules.state.checkin import absent_from_first_round

    if rnd.number != 1 or rnd.stage != "swiss":
        return [], []
    before = dict(st, rounds=[])  # check-in as it stood for pairing round 1
    absent = set(absent_from_first_round(before))
    if not absent:
        return [], []
    paired = {pid for m in rnd.matches for pid in m.players}
    names = {p.id: p.name for p in event.players}
    out = []
    left_out = sorted(names.get(pid, pid) for pid in absent - paired)
    if left_out:
        out.append(
            f"not checked in, so not paired: {', '.join(left_out)} (check them in and pair again, "
            "or they join from round 2)"
        )
    unchecked = sorted(names.get(pid, pid) for pid in absent & paired)
    if unchecked:
        out.append(f"paired without checking in: {', '.join(unchecked)}")
    return out, sorted(absent - paired)


def _fixed_table_warnings(event: Any, seats: list[tuple[int | None, Any]]) -> list[str]:
    """A player with a fixed table (accessibility) who is not at it."""
    from shared_rules.pairing.tables import fixed_table_of

    fixed = {p.id: t for p in event.players if (t := fixed_table_of(p.extra)) is not None}
    out = []
    for table, players in seats:
        for pid in players:
            if pid in fixed and table != fixed[pid]:
                where = f"table {table}" if table is not None else "a bye"
                out.append(f"fixed table: {pid} needs table {fixed[pid]} and is at {where}")
    return out


def swap_warnings(event_id: str, number: int, a: str, b: str, stage: str | None = None) -> list[str]:
    """What swapping ``a`` and ``b`` in a drafted round would break."""
    from shared_rules.pairing.draft import as_paired
    from shared_rules.run import swap_players

    st = _current(event_id)
    event = _event(st)
    rnd = next((r for r in event.rounds if r.number == number and (stage is None or r.stage == stage)), None)
    if rnd is None:
        raise RulesError(f"round {number} is not paired")
    swapped, warnings = swap_players(as_paired(rnd), a, b, event)
    before = set(_fixed_table_warnings(event, [(m.table, m.players) for m in rnd.matches]))
    after = _fixed_table_warnings(event, [(m.table, m.players) for m in swapped.matches])
    return warnings + [w for w in after if w not in before]


def structure(ruleset: str, players: int, name: str | None = None) -> dict[str, Any]:
    from shared_rules.games import structure_names, suggest_structure

    try:
        return {**suggest_structure(ruleset, players, name).to_json(), "names": list(structure_names(ruleset))}
    except RulesError as exc:
        return {"error": str(exc), "names": list(structure_names(ruleset))}


def rulesets() -> list[dict[str, Any]]:
    from shared_rules.games import RULESETS, get_ruleset

    out = []
    for rid in RULESETS:
        try:
            out.append({"id": rid, "title": get_ruleset(rid, {}).title})
        except Exception:  # a ruleset that needs settings still gets listed
            out.append({"id": rid, "title": rid})
    return out


def ruleset_info(ruleset: str, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a result form needs (``shared_rules/state/answers.py``: the server's player view answers the same)."""
    from shared_rules.state.answers import ruleset_info as info

    return info(ruleset, settings)


def settings_review(event_id: str, changes: dict[str, Any] | None = None, ruleset: str | None = None) -> dict[str, Any]:
    """The Settings screen's view of the event with ``changes`` applied (a shallow merge; null deletes a key):
    the settings, the first wrong value in words naming the field (``error``: None when they would be
    accepted), the documents' warnings and notes, what cannot change any more and why (``locked``), the
    players who count and the document's table for them (``table``)."""
    from shared_rules.errors import DocumentError
    from shared_rules.games import game_of, get_ruleset
    from shared_rules.games.settings import SettingsContext, check_changes, fixed_once_paired
    from shared_rules.state import is_withheld

    st = _current(event_id)
    rid = ruleset or st["ruleset"]
    game = game_of(rid)
    changes = dict(changes or {})
    merged = {k: v for k, v in {**st["settings"], **changes}.items() if v is not None}
    swiss = sum(1 for r in st["rounds"] if r["stage"] == "swiss")
    locked: dict[str, str] = {}
    if st["rounds"]:
        locked["ruleset"] = "The game cannot change once round 1 is paired."
        for section in game.settings_ui:
            for f in section.fields:
                if f.fixed_once_paired:
                    locked[f.key] = f"Fixed once round 1 is paired ({f.fixed_once_paired})."
    if st.get("closed"):
        locked["*"] = "The event is closed: its settings cannot change."
    error = check_changes(game.settings_ui, changes)
    if error is None and st["rounds"]:
        error = fixed_once_paired(game.settings_ui, st["settings"], changes)
    if error is None and rid != st["ruleset"] and st["rounds"]:
        error = locked["ruleset"]
    if error is None:
        try:
            get_ruleset(rid, merged)
        except DocumentError as exc:
            error = str(exc)
    players = sum(1 for p in st["players"] if p.get("dropped_after") is None or p["dropped_after"] >= 1)
    # The warnings read the settings as they would be without the values refused above (the organizer still
    # sees the attendance minimum while a cut is mistyped).
    fine = {k: v for k, v in changes.items() if check_changes(game.settings_ui, {k: v}) is None}
    usable = {k: v for k, v in {**st["settings"], **fine}.items() if v is not None}
    try:
        get_ruleset(rid, usable)
    except DocumentError:
        usable = {k: v for k, v in st["settings"].items() if v is not None}
    warnings = []
    if game.settings_warnings is not None:
        ctx = SettingsContext(
            ruleset=rid,
            settings=usable,
            before=st["settings"],
            players=players,
            rounds_paired=swiss,
            seed="" if is_withheld(st["seed"]) else str(st["seed"]),
        )
        warnings = [n.to_json() for n in game.settings_warnings(ctx)]
    name = merged.get("structure")
    name = name if isinstance(name, str) else None
    table = structure(rid, max(players, 1), name)
    shown_for = players
    while "error" in table and shown_for < 16:  # below the document's smallest row: show the smallest
        shown_for += 1
        table = structure(rid, shown_for, name)
    error_key = next((k for k, v in changes.items() if check_changes(game.settings_ui, {k: v}) is not None), None)
    return {
        "ruleset": rid,
        "settings": merged,
        "error": error,
        "warnings": warnings,
        "locked": locked,
        "error_key": error_key,
        # What an unset setting means with these settings (the round length by Star Trek variant, say).
        "defaults": _setting_defaults(rid, usable),
        "players": players,
        "rounds_paired": swiss,
        "table": {**table, "shown_for": shown_for},
        "divisions": _division_tables(st, game, usable, name),
    }


def _division_tables(st: dict[str, Any], game: Any, settings: dict[str, Any], name: str | None) -> list[dict[str, Any]]:
    """Each age division's players and table with these settings (Pokémon TOP 3.1.1, 3.3.5), or [] without them."""
    if game.division_structures is None or game.division_view is None:
        return []
    try:
        view = game.division_view(_event(dict(st, settings=settings)))
        counts = {d: n for d, n in view["counts"] if d is not None and n}
        if len(counts) < 2:
            return []
        tables = game.division_structures(counts, game.structure_name(name))
    except RulesError:
        return []
    labels = view["labels"]
    return [{"division": d, "label": labels.get(d, d), "players": counts[d], **tables[d].to_json()} for d in tables]


def _setting_defaults(ruleset: str, settings: dict[str, Any]) -> dict[str, str]:
    """The words for an unset setting that depend on the other settings: the document's round length."""
    from shared_rules.games import get_ruleset

    limits = get_ruleset(ruleset, settings).time_limits
    online = settings.get("online") is True and "online" in limits
    minutes = limits.get("online") if online else limits.get("round_minutes", limits.get("in-person"))
    return {"round_minutes": f"{minutes} minutes (the document)"} if minutes else {}


def age_divisions(event_id: str) -> dict[str, Any] | None:
    """The event's age divisions for the Players screen (season, birth years per division, each player's
    division, what would stop pairing), or None for a game without age divisions."""
    from shared_rules.games import game_of

    st = _current(event_id)
    if st["ruleset"] is None:
        return None
    view = game_of(st["ruleset"]).division_view
    return view(_event(st)) if view is not None else None


def timer(event_id: str, now_ms: int) -> list[dict[str, Any]]:
    """Every started round's clock at ``now_ms`` (the server's time as this device knows it).

    ``remaining_ms`` counts secret time where this device knows it (staff); ``announced_ms`` is what is
    left of the announced length; ``secret`` says the round has secret time (Doomtown's d6) and
    ``secret_s`` how much (None on a device it is withheld from: a player's). ``shared_rules/state/answers.py``.
    """
    from shared_rules.state.answers import round_clocks

    return round_clocks(_current(event_id), now_ms)


def secret_time(event_id: str) -> dict[str, Any]:
    """The event's secret time for staff screens: ``{sides, minutes}`` (minutes None: withheld; sides None:
    the ruleset has none). Doomtown Floor Rules 3.A: one d6 for the whole event, drawn from its seed."""
    from shared_rules.state import is_withheld, secret_minutes, secret_time_sides

    st = _current(event_id)
    sides = secret_time_sides(st)
    if sides is None or is_withheld(st["seed"]):
        return {"sides": sides, "minutes": None}
    return {"sides": sides, "minutes": secret_minutes(st, sides)}


def round_length(event_id: str, number: int, stage: str = "swiss") -> dict[str, Any]:
    """The length the Start round form offers for a round: ``{minutes, untimed, why}`` (``minutes`` 0 and
    ``untimed`` when the game's declarations say the round has no time limit, ``why`` the document).

    Generic: an elimination round is untimed when the event chose it (a declared ``cut_untimed`` setting,
    Doomtown Floor Rules 5.C), and the final is when the document's ``final_round_minutes`` is 0 (AGoT
    Tournament Regulations, Single Elimination Rounds); else the Settings screen's length, else the document's.
    """
    from shared_rules.games import game_of, get_ruleset
    from shared_rules.games.settings import find_setting

    st = _current(event_id)
    settings = st["settings"]
    rs = get_ruleset(st["ruleset"], settings)
    limits = rs.time_limits
    rnd = next((r for r in st["rounds"] if r["number"] == number and r["stage"] == stage), None)
    if stage == "elimination" and rnd is not None:
        chosen = find_setting(game_of(st["ruleset"]).settings_ui, "cut_untimed")
        if chosen is not None and settings.get("cut_untimed") is True:
            said = chosen.label[:1].lower() + chosen.label[1:]
            return {"minutes": 0, "untimed": True, "why": f"the event's settings say {said} ({chosen.source})"}
        slots = (rnd.get("extra") or {}).get("bracket", {}).get("slots") or sum(
            1 for m in rnd["matches"] if not (m.get("extra") or {}).get("playoff")
        )
        if slots <= 1 and limits.get("final_round_minutes") == 0:
            policy = rs.policies.get("final-untimed")
            why = f"{policy.rule} ({policy.source})" if policy else "the final has no time limit"
            return {"minutes": 0, "untimed": True, "why": why}
    online = settings.get("online") is True and "online" in limits
    document = limits.get("online") if online else limits.get("round_minutes", limits.get("in-person"))
    return {"minutes": settings.get("round_minutes") or document or 50, "untimed": False, "why": ""}


def time_called(ruleset: str, args: dict[str, Any]) -> dict[str, Any]:
    """The game-end helpers (``shared_rules.games.time_called``) for the ruleset, by name."""
    from shared_rules.games import time_called as decide

    try:
        return decide(ruleset, args).to_json()
    except RulesError as exc:
        return {"error": str(exc)}


def round_minutes(dice_faces: list[str]) -> dict[str, Any]:
    """Shatterpoint: round length from the five attack dice, and when Mission Critical starts."""
    from shared_rules.games.shatterpoint.game_end import mission_critical_minute
    from shared_rules.games.shatterpoint.game_end import round_minutes as dice_minutes

    try:
        minutes = dice_minutes(dice_faces)
    except RulesError as exc:
        return {"error": str(exc)}
    return {"minutes": minutes, "mission_critical_minute": mission_critical_minute(minutes)}


def _round_payload(rnd: Any) -> list[dict[str, Any]]:
    from shared_rules.pairing.whole_event import round_json

    return round_json(rnd)["matches"]


def cut(event_id: str, size: int | None = None) -> dict[str, Any]:
    """The cut as ``cut.make`` wants it: ``{size, number, matches}``."""
    from shared_rules.run import make_cut

    rnd = make_cut(_event(_current(event_id)), size)
    matches = _round_payload(rnd)
    return {"size": sum(len(m["players"]) for m in matches), "number": rnd.number, "matches": matches}


def next_elimination(event_id: str) -> dict[str, Any]:
    """The next elimination round (``round.pair`` material); an event that is a bracket from the start
    (``settings.structure: "single-elimination"``, ``settings.seeds``) gets its first. Once the bracket is
    decided the refusal names the champion."""
    from shared_rules.run import next_elimination_round, next_round

    event = _event(_current(event_id))
    if not any(r.stage == "elimination" for r in event.rounds):
        first = next_round(event)
        if first["stage"] != "elimination":
            raise RulesError("the Swiss rounds come first: pair them, then make the cut")
        return {"number": first["round"], "stage": first["stage"], "matches": first["matches"]}
    rnd = next_elimination_round(event)
    return {"number": rnd.number, "stage": rnd.stage, "matches": _round_payload(rnd)}


def next_step(event_id: str) -> dict[str, Any]:
    """The organizer's next step on the Rounds screen: ``{step, label, reason, round, stage, cut, champion,
    champion_name, swiss_complete, swiss_rounds}`` (``shared_rules.state.flow``)."""
    from shared_rules.state.flow import next_step as decide

    # Asked at every redraw of the Rounds screen (0.3 s at 2,048 players in Pyodide, bench.next_step): once per
    # folded state (its revision).
    entry = _entry(event_id)
    cached = entry.get("next_step")
    if cached is not None and cached[0] == entry["revision"]:
        return cached[1]
    out = decide(entry["state"]).to_json()
    entry["next_step"] = (entry["revision"], out)
    return out


def bracket(event_id: str) -> dict[str, Any]:
    from shared_rules.run import bracket_view

    st = _current(event_id)
    if not any(r["stage"] == "elimination" for r in st["rounds"]):
        return {"rounds": [], "note": "no cut yet"}
    return bracket_view(_event(st))


def export(event_id: str) -> dict[str, Any]:
    from shared_rules.state import to_event_document

    return to_event_document(_current(event_id))


def new_event_document(
    name: str, ruleset: str, seed: str, at: int, device: str, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The event document of an event made on this device while offline: ``event.create`` folded, nothing else.

    The device sends it to the server when the network is back (an import under the ids the device chose),
    so the device and the server start from the very same document.
    """
    from shared_rules.state import apply, initial_state, to_event_document

    payload: dict[str, Any] = {"ruleset": ruleset, "name": name, "seed": seed}
    if settings is not None:
        payload["settings"] = settings
    op = {
        "type": "event.create",
        "op_id": f"{device}:0",
        "device": device,
        "actor": {"role": "organizer"},
        "at": at,
        "payload": payload,
    }
    return to_event_document(apply(initial_state(), op))


# ---------------------------------------------------------------- what the screens know before the worker is up

#: How the app names each role (``shared_rules.state.operations.ROLES``): its title, its title on the Staff
#: screen's invitation, and the screen a device of that role opens first.
_ROLE_WORDS: dict[str, tuple[str, str, str]] = {
    "organizer": ("Organizer", "Co-organizer", "players"),
    "head-judge": ("Head judge", "Head judge", "judge"),
    "judge": ("Judge", "Judge", "judge"),
    "scorekeeper": ("Scorekeeper", "Scorekeeper", "rounds"),
    "player": ("Player", "Player", "player"),
}
#: The roles the Staff screen invites, the first (the default) giving the least.
_INVITE_ORDER = ("judge", "head-judge", "scorekeeper", "organizer")


def _player_id(ruleset: str) -> dict[str, Any]:
    """The game ID a ruleset's registration asks for (``Game.player_id``; docs/people.md): its label, the register
    op's field (``game_id``, every game), the person's field it links by (or None), whether a birth year goes
    with it, its form (a regular expression, or None) and the words for that form."""
    from shared_rules.games import game_of

    declared = game_of(ruleset).player_id
    return {
        "label": declared.label,
        "field": "game_id",
        "person_field": declared.person,
        "birth_year": declared.birth_year,
        "pattern": declared.pattern,
        "form": declared.form,
    }


def app_tables() -> dict[str, Any]:
    """The rulesets and roles the screens name, from the engine (written to ``pwa/rules/tables.json`` by the build).

    ``rulesets``: id, title, ``league`` (a WCT league may count it, OP Guide 12), ``registration`` (the player's
    game ID: :func:`_player_id`), ``report`` (whether the game has a tournament report, Star Trek OP Guide 8),
    ``tom`` (whether its events are written as TOM save files); ``roles``: each role's words, ``groups`` of roles by what they may do
    (``shared_rules.state.authorize.ALLOWED``), ``may``: that permission table itself, op type -> roles, and
    ``powers``: what the server guards beside the log, power -> roles (both from ``shared_rules.state.roles``).
    """
    from shared_rules.games import game_of
    from shared_rules.games.pokemon.tom.exporter import GAMETYPES as TOM_RULESETS  # what TOM saves can hold
    from shared_rules.games.startrek.leagues import LEAGUE_RULESETS
    from shared_rules.state.authorize import ALLOWED
    from shared_rules.state.operations import ROLES, STAFF_ROLES
    from shared_rules.state.roles import role_table

    def ordered(roles: frozenset[str] | set[str]) -> list[str]:
        return [r for r in ROLES if r in roles]

    shared = role_table()  # the one role table the server reads too (shared_rules/state/roles.py)

    listed = [
        {
            **entry,
            "league": entry["id"] in LEAGUE_RULESETS,
            "registration": _player_id(entry["id"]),
            "report": game_of(entry["id"]).report_details is not None,
            "tom": entry["id"] in TOM_RULESETS,
        }
        for entry in rulesets()
    ]
    return {
        "rulesets": listed,
        "roles": {
            "all": list(ROLES),
            "words": {r: dict(zip(("title", "invite", "home"), _ROLE_WORDS[r], strict=True)) for r in ROLES},
            "invite": list(_INVITE_ORDER),
            "groups": {
                "everyone": list(ROLES),
                "staff": ordered(STAFF_ROLES),
                "players": ordered(set(ROLES) - STAFF_ROLES),
                "desk": ordered(ALLOWED["round.publish"]),
                "lead": ordered(ALLOWED["round.pair"]),
                "registrar": ordered(ALLOWED["player.register"]),
                "organizer": ordered(ALLOWED["event.configure"]),
            },
            "may": dict(sorted(shared["operations"].items())),
            "powers": shared["powers"],
        },
    }


# ---------------------------------------------------------------- dispatch

FUNCTIONS = {
    f.__name__: f
    for f in (
        fold,
        prepare,
        state,
        confirmed,
        check_op,
        standings,
        pair_draft,
        round_warnings,
        swap_warnings,
        structure,
        rulesets,
        ruleset_info,
        settings_review,
        age_divisions,
        timer,
        secret_time,
        round_length,
        time_called,
        round_minutes,
        cut,
        next_elimination,
        next_step,
        bracket,
        export,
        new_event_document,
    )
}


def call(text: str) -> str:
    """``{"fn", "args"}`` as JSON text -> ``{"ok": true, "result"}`` or ``{"ok": false, "error"}`` as JSON text."""
    import gc

    paused = gc.isenabled()  # a request and its answer are plain JSON (no cycles): as in folding(), no
    if paused:  # collection walks a 3.3 MB state while a snapshot is read or a state written
        gc.disable()
    try:
        return _call(text)
    finally:
        if paused:
            gc.enable()


def _call(text: str) -> str:
    request = json.loads(text)
    fn = FUNCTIONS.get(request.get("fn"))
    if fn is None:
        return json.dumps({"ok": False, "error": f"unknown function {request.get('fn')!r}"})
    try:
        result = fn(**(request.get("args") or {}))
    except RulesError as exc:
        return json.dumps({"ok": False, "error": str(exc), "rules": True})
    except Exception as exc:  # a bug must reach the screen as a message, not kill the worker
        return json.dumps({"ok": False, "error": f"{type(exc).__name__}: {exc}"})
    return json.dumps({"ok": True, "result": result}, separators=(",", ":"))


# ---------------------------------------------------------------- leagues, CSV and reports (issue #13)


def league(
    league_doc: dict[str, Any], event_docs: list[dict[str, Any]], event_ids: list[str] | None = None
) -> dict[str, Any]:
    """A WCT league's tables (Star Trek OP Guide 12) from its league document and event documents.

    ``event_ids``: each document's event id when the documents carry none (an ``export`` of this device).
    """
    from shared_rules.games.startrek.leagues import league_table, load_league
    from shared_rules.run import load_event

    return league_table(load_league(league_doc), [load_event(doc) for doc in event_docs], event_ids)


def csv_roster(event_id: str, text: str, mapping: dict[str, str] | None = None) -> dict[str, Any]:
    """Players to register from a CSV roster, with per-row errors (``player.register`` payloads' ``player``)."""
    from shared_rules.importers.csv_roster import roster_from_csv

    return roster_from_csv(_event(_current(event_id)), text, mapping)


def csv_standings(event_id: str) -> str:
    """The event's standings as CSV text."""
    from shared_rules.exporters.csv import standings_csv

    return standings_csv(_event(_current(event_id)))


def csv_pairings(event_id: str, round: int, stage: str | None = None) -> str:  # noqa: A002 - the page's name
    """One round's pairings and results as CSV text."""
    from shared_rules.exporters.csv import pairings_csv

    return pairings_csv(_event(_current(event_id)), round, stage)


def startrek_report(event_id: str) -> dict[str, Any]:
    """The Star Trek tournament report (OP Guide 8, Appendix A), with its plain-text page as ``text``."""
    from shared_rules.games.startrek.report import report_text, tournament_report

    report = tournament_report(_event(_current(event_id)))
    return {**report, "text": report_text(report)}


def tdf_export(event_id: str) -> str:
    """A Pokémon event as a TOM save file (.tdf): ``python -m shared_rules export-tdf`` of this device's
    :func:`export` of the event, so the file is the command's, byte for byte."""
    from shared_rules.games.pokemon.tom import to_tdf

    return to_tdf(export(event_id))


def tdf_import(text: str, at: int) -> dict[str, Any]:
    """A TOM save file (.tdf) as the event document a new event starts from: the importer's document with what
    its game adds to an imported event's settings at ``at`` (ms), as the server does to an imported document
    (backend/events.py ``_starting_settings``), so the device and the server start from the same document."""
    from shared_rules.games import game_of
    from shared_rules.games.pokemon.tom import import_tdf
    from shared_rules.run import load_event
    from shared_rules.state import from_event_document, to_event_document

    if not isinstance(text, str) or not text.strip():
        raise RulesError("the TOM file is empty: choose the .tdf file TOM saved")
    state = from_event_document(import_tdf(text))
    start = game_of(state["ruleset"]).import_settings
    if start is not None:
        settings = start(load_event(to_event_document(state, operational=False)), at)
        if settings is not None:
            state["settings"] = settings
    return to_event_document(state)


FUNCTIONS.update(
    {
        f.__name__: f
        for f in (
            league,
            csv_roster,
            csv_standings,
            csv_pairings,
            startrek_report,
            tdf_export,
            tdf_import,
        )
    }
)


# ---------------------------------------------------------------- deck lists (issue #28)


def decklist_check(ruleset: str, settings: dict[str, Any] | None, sections: dict[str, Any]) -> list[dict[str, Any]]:
    """What is wrong with a list, as a player types it (no card database): ``[{code, section, message, source}]``."""
    from shared_rules.decklists import check_list
    from shared_rules.games import game_of

    return check_list(game_of(ruleset).decklists, settings or {}, sections)


def decklists(event_id: str, now_ms: int) -> dict[str, Any]:
    """The deck-list screen: the organizer's settings, the lock, and every player's list with its problems.

    ``status`` per player: ``submitted`` (no problem found), ``problems``, ``missing`` (none yet) or
    ``empty`` (none, and the lists are locked: a warning, never a silent pass). Only the lists this
    device holds are listed (a player's phone: their own). ``shared_rules/state/answers.py``.
    """
    from shared_rules.state.answers import decklist_sheet

    return decklist_sheet(_current(event_id), now_ms)


def deckcheck_pick(event_id: str, round: int, count: int, draw: int = 0) -> list[dict[str, Any]]:  # noqa: A002
    """Players picked at random for a deck check in ``round``: the same on every device for the event's seed,
    the round and ``draw`` (0, then 1, 2… for another pick), among the round's seated players (no byes)."""
    from shared_rules.decklists import pick_for_check

    st = _current(event_id)
    rnd = next((r for r in st["rounds"] if r["number"] == round), None)
    if rnd is None:
        raise RulesError(f"round {round} is not paired yet: pick players for a deck check once it is")
    seated = {pid: m["table"] for m in rnd["matches"] if len(m["players"]) > 1 for pid in m["players"]}
    names = {p["id"]: p["name"] for p in st["players"]}
    picked = pick_for_check(st["seed"], round, draw, seated, count)
    return [{"id": pid, "name": names.get(pid, pid), "table": seated[pid]} for pid in picked]


FUNCTIONS.update({f.__name__: f for f in (decklist_check, decklists, deckcheck_pick)})

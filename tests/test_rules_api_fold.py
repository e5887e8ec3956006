"""The tablet's fold (pwa/rules/rules_api.py ``fold``): the server's log, then this device's waiting changes on top."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from shared_rules.state import OperationRejected, apply_in_place, initial_state, replay
from tests.rules.test_pairing_matching import _Lcg
from tests.rules.test_state_in_place import _stream
from tests.rules.test_state_reducer import played_round_one

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location("rules_api_fold", ROOT / "pwa" / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_waiting_changes_fold_on_top_and_refused_ones_are_reported_without_a_trace():
    api = _api()
    ev = played_round_one()
    confirmed = [{"server_seq": i, "op": op} for i, op in enumerate(ev.ops, start=1)]
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    bad = ev.log.op("player.drop", {"player": "nobody"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    out = api.fold("e1", True, None, confirmed, [drop, bad, extend])
    assert out["cursor"] == len(ev.ops)
    assert [r["op_id"] for r in out["local_rejections"]] == [bad["op_id"]]
    assert out["state"] == replay([drop, extend], ev.state)
    # The server's part is kept apart: the next fold with nothing waiting is the log alone.
    again = api.fold("e1", False, None, [], [])
    assert again["state"] == ev.state and again["local_rejections"] == []


def test_a_rules_failure_half_way_through_a_change_leaves_no_trace(monkeypatch):
    api = _api()
    ev = played_round_one()
    confirmed = [{"server_seq": i, "op": op} for i, op in enumerate(ev.ops, start=1)]
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    from shared_rules.errors import RulesError
    from shared_rules.state import reducer

    real = reducer.HANDLERS["timer.extend"]

    def half_way(state, op):  # changes the state, then fails as no handler should
        state["name"] = "half-changed"
        raise RulesError("timer.extend: failed half-way")

    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", half_way)
    out = api.fold("e1", True, None, confirmed, [drop, extend])
    assert out["local_rejections"][0]["reason"] == "timer.extend: failed half-way"
    assert out["state"] == replay([drop], ev.state) and out["state"]["name"] != "half-changed"
    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", real)
    assert json.dumps(api.fold("e1", False, None, [], [])["state"], sort_keys=True) == json.dumps(
        ev.state, sort_keys=True
    )


def test_a_start_from_a_snapshot_folds_the_same_state_as_the_whole_log():
    api = _api()
    ev = played_round_one()
    rows = [{"server_seq": i, "op": op} for i, op in enumerate(ev.ops, start=1)]
    api.fold("e1", True, None, rows[:5], [])
    snapshot = json.loads(json.dumps(api.confirmed("e1")))  # as the device keeps it
    assert snapshot["cursor"] == 5
    whole = api.fold("e2", True, None, rows, [])
    resumed = api.fold("e3", True, None, rows[5:], [], snapshot=snapshot)
    assert resumed.pop("revision") != whole.pop("revision")  # two events' states
    assert resumed == whole and resumed["state"] == ev.state


def test_a_snapshot_kept_as_json_text_folds_the_same_state_and_one_with_nothing_after_it_is_not_sent_back():
    api = _api()
    ev = played_round_one()
    rows = [{"server_seq": i, "op": op} for i, op in enumerate(ev.ops, start=1)]
    api.fold("e1", True, None, rows[:5], [])
    snapshot = json.loads(json.dumps(api.confirmed("e1", text=True)))  # as the device keeps it
    assert set(snapshot) == {"cursor", "state_json"} and snapshot["cursor"] == 5
    assert json.loads(snapshot["state_json"]) == api.confirmed("e1")["state"]
    resumed = api.fold("e2", True, None, rows[5:], [], snapshot=snapshot, known="snapshot")
    assert resumed["state"] == ev.state, "the log after it changed the state: it is sent"
    idle = api.fold("e3", True, None, [], [], snapshot=snapshot, known="snapshot")
    assert idle["same_state"] and "state" not in idle and idle["cursor"] == 5
    assert api.state("e3") == json.loads(snapshot["state_json"])
    broken = {"cursor": 5, "state_json": snapshot["state_json"][:-9]}
    assert api.fold("e4", True, None, rows[5:], [], snapshot=broken) == {"snapshot_refused": True}


def test_a_snapshot_that_is_no_state_or_that_the_log_does_not_fold_onto_is_refused():
    api = _api()
    ev = played_round_one()
    rows = [{"server_seq": i, "op": op} for i, op in enumerate(ev.ops, start=1)]
    assert api.fold("e1", True, None, rows, [], snapshot={"cursor": 3, "state": {"rounds": []}}) == {
        "snapshot_refused": True
    }
    api.fold("e2", True, None, rows[:2], [])
    early = json.loads(
        json.dumps(api.confirmed("e2"))
    )  # the log's first two operations: the rest does not fold onto the cursor it claims
    late = {"cursor": len(rows) - 1, "state": early["state"]}
    assert api.fold("e1", True, None, rows[-1:], [], snapshot=late) == {"snapshot_refused": True}
    assert "e1" not in api._EVENTS


class _Copies:
    """Counts the copies of a whole state the fold makes (``clone``)."""

    def __init__(self, monkeypatch):
        from shared_rules.state import state

        self.count = 0
        real = state.clone

        def counted(value):
            self.count += isinstance(value, dict) and value.get("format") == state.STATE_FORMAT  # not its parts
            return real(value)

        monkeypatch.setattr(state, "clone", counted)


def _server_takes(server, log, ops):
    """The server applies a device's operations in order; the accepted ones join its log."""
    for op in ops:
        try:
            apply_in_place(server, op)
        except OperationRejected:
            continue
        log.append(op)


def _rows(ops, start=1):
    return [{"server_seq": n, "op": op} for n, op in enumerate(ops, start=start)]


def test_a_change_on_top_of_the_same_waiting_changes_is_applied_alone_without_a_copy(monkeypatch):
    api = _api()
    ev = played_round_one()
    api.fold("e1", True, None, _rows(ev.ops), [])
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    bad = ev.log.op("player.drop", {"player": "nobody"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    copies = _Copies(monkeypatch)
    api.fold("e1", False, None, [], [drop])
    assert copies.count == 1  # the first change: a copy of the server's state (no spare ready)
    out = api.fold("e1", False, None, [], [drop, bad])
    out = api.fold("e1", False, None, [], [drop, bad, extend])
    assert copies.count == 1
    assert out["state"] == replay([drop, extend], ev.state)
    assert [r["op_id"] for r in out["local_rejections"]] == [bad["op_id"]]
    # A dismissed change keeps its slot as another operation: everything is folded again, from a copy.
    void = {**bad, "type": "device.void", "payload": {"dismissed": "player.drop"}}
    out = api.fold("e1", False, None, [], [drop, void, extend])
    assert copies.count == 2 and out["local_rejections"] == []
    assert out["state"] == replay([drop, void, extend], ev.state)
    # The server's part is untouched by all of it.
    assert api.confirmed("e1")["state"] == ev.state


def test_the_server_taking_exactly_the_waiting_changes_makes_them_the_log_and_leaves_a_spare(monkeypatch):
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    api.fold("e1", True, None, rows, [])
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    api.fold("e1", False, None, [], [drop, extend])
    copies = _Copies(monkeypatch)
    out = api.fold("e1", False, None, _rows([drop, extend], len(rows) + 1), [])
    assert out["spare"] is True and copies.count == 0
    assert out["cursor"] == len(rows) + 2 and out["state"] == replay([drop, extend], ev.state)
    # The next change applies to the spare: no copy, and the server's state stays apart.
    again = ev.log.op("player.reinstate", {"player": "p4"}, device="tab-2")
    out = api.fold("e1", False, None, [], [again])
    assert copies.count == 0 and out["spare"] is False
    assert out["state"] == replay([drop, extend, again], ev.state)
    assert api.confirmed("e1")["state"] == replay([drop, extend], ev.state)


def test_a_spare_follows_the_log_and_other_devices_changes_come_before_this_ones(monkeypatch):
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    api.fold("e1", True, None, rows, [])
    assert api.prepare("e1") == {"spare": True}
    other = ev.log.op("timer.extend", {"seconds": 60}, device="desk")
    copies = _Copies(monkeypatch)
    out = api.fold("e1", False, None, _rows([other], len(rows) + 1), [])
    assert out["spare"] is True and copies.count == 0
    mine = ev.log.op("player.drop", {"player": "p2"}, device="tab-2")
    out = api.fold("e1", False, None, [], [mine])
    assert copies.count == 0 and out["state"] == replay([other, mine], ev.state)
    # Another device's change reaches the server before this one: the log folds in place, no spare is left.
    third = ev.log.op("player.drop", {"player": "p3"}, device="desk")
    out = api.fold("e1", False, None, _rows([third, mine], len(rows) + 2), [])
    assert out["spare"] is False and copies.count == 0
    assert out["state"] == replay([other, third, mine], ev.state) == api.confirmed("e1")["state"]


def test_a_rules_failure_half_way_through_the_log_asks_for_a_fold_from_the_start(monkeypatch):
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    api.fold("e1", True, None, rows, [])
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="desk")
    from shared_rules.errors import RulesError
    from shared_rules.state import reducer

    def half_way(state, op):
        state["name"] = "half-changed"
        raise RulesError("timer.extend: failed half-way")

    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", half_way)
    assert api.fold("e1", False, None, _rows([extend], len(rows) + 1), []) == {"refold": True}
    assert "e1" not in api._EVENTS
    # From the start, the same failure is the fold's error, as it always was.
    try:
        api.fold("e1", True, None, [*rows, *_rows([extend], len(rows) + 1)], [])
    except RulesError as exc:
        assert "failed half-way" in str(exc)
    else:
        raise AssertionError("a fold from the start that fails must say so")


def test_random_hall_traffic_folds_as_the_whole_log_plus_the_waiting_changes(monkeypatch):
    """Changes on this tablet, other devices' changes, syncs that take some or all of them, refusals, dismissals
    and spares, in random order: every fold answers what a fold from operation 1 would."""
    api = _api()
    gen = _Lcg(20261127)
    copies = _Copies(monkeypatch)
    folds_with_waiting = copied_on_a_change = 0
    for run in range(6):
        stream = _stream(gen, 150)
        setup, rest = stream[:9], stream[9:]  # event.create and the players, from the desk
        server = initial_state()
        for op in setup:
            apply_in_place(server, op)
        log = list(setup)
        event = f"e{run}"
        api.fold(event, True, None, _rows(log), [])
        cursor, waiting = len(log), []

        def fold(new_rows, waiting):
            out = api.fold(event, False, None, new_rows, waiting)
            assert "refold" not in out, out
            folded = log[: out["cursor"]]  # what the device has pulled
            expected = replay(folded, None, skip_rejected=True)
            refused = []
            for op in waiting:
                try:
                    apply_in_place(expected, op)
                except OperationRejected:
                    refused.append(op["op_id"])
            assert out["state"] == expected
            assert [r["op_id"] for r in out["local_rejections"]] == refused
            assert api.confirmed(event)["state"] == replay(folded, None, skip_rejected=True)
            if not out["spare"] and not waiting and gen.below(2):  # the device makes a spare when idle
                api.prepare(event)
            return out

        for op in rest:
            if op["device"] == "tab-1":  # this tablet's change
                waiting = [*waiting, op]
                before = copies.count
                fold([], waiting)
                folds_with_waiting += 1
                copied_on_a_change += copies.count > before
            else:  # another device's, straight to the server
                _server_takes(server, log, [op])
            step = gen.below(6)
            if step == 0 and waiting:  # a sync: the server takes every waiting change
                _server_takes(server, log, waiting)
                waiting = []
            elif step == 1 and waiting:  # the server takes the first waiting changes only
                k = 1 + gen.below(len(waiting))
                _server_takes(server, log, waiting[:k])
                waiting = waiting[k:]
            elif step == 2 and waiting:  # a waiting change dismissed: its slot becomes a void operation
                i = gen.below(len(waiting))
                waiting = [*waiting[:i], {**waiting[i], "type": "device.void", "payload": {}}, *waiting[i + 1 :]]
            if step <= 1 or gen.below(3) == 0:  # the device pulls what is new
                fold(_rows(log[cursor:], cursor + 1), waiting)
                cursor = len(log)
            else:
                fold([], waiting)
    assert folds_with_waiting > 100
    # Most changes apply alone, on top of the waiting ones or to a spare made when the device was idle.
    assert copied_on_a_change < folds_with_waiting / 4, (copied_on_a_change, folds_with_waiting)


def test_a_state_the_device_already_holds_is_not_sent_again():
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    first = api.fold("e1", True, None, rows, [])
    again = api.fold("e1", False, None, [], [], known=first["revision"])  # a sync that brought nothing
    assert again["same_state"] is True and "state" not in again and again["revision"] == first["revision"]
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    changed = api.fold("e1", False, None, [], [drop], known=first["revision"])
    assert changed["revision"] != first["revision"] and changed["state"] == replay([drop], ev.state)
    same = api.fold("e1", False, None, [], [drop], known=changed["revision"])
    assert same["same_state"] is True and same["local_rejections"] == []
    # Anything new in the log is a new state; so is a change taken back; a revision of another worker never matches.
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="desk")
    pulled = api.fold("e1", False, None, _rows([extend], len(rows) + 1), [drop], known=same["revision"])
    assert pulled["state"] == replay([extend, drop], ev.state)
    back = api.fold("e1", False, None, [], [], known=pulled["revision"])
    assert back["state"] == replay([extend], ev.state)
    other = _api()
    assert other.fold("e1", True, None, rows, [])["revision"] != first["revision"]


def test_a_bug_half_way_through_a_change_on_top_of_waiting_ones_leaves_no_trace(monkeypatch):
    """A handler that fails as no rules error does (a bug, a MemoryError in Pyodide) may leave the working state
    half-changed: the next folds must not build on it, nor take it as the server's state."""
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    first = api.fold("e1", True, None, rows, [])
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    shown = api.fold("e1", False, None, [], [drop], known=first["revision"])  # what the device now shows
    from shared_rules.state import reducer

    real = reducer.HANDLERS["timer.extend"]

    def half_way(state, op):
        state["name"] = "half-changed"
        raise KeyError("timer")

    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", half_way)
    try:
        api.fold("e1", False, None, [], [drop, extend], known=shown["revision"])
    except KeyError:
        pass
    else:
        raise AssertionError("a bug in a handler reaches the device as the fold's error")
    assert api.state("e1")["name"] != "half-changed"  # what standings, pairings... read in the meantime
    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", real)
    # The server took the first change only: its log is the working state of before, never the half-changed one.
    out = api.fold("e1", False, None, _rows([drop], len(rows) + 1), [extend], known=shown["revision"])
    assert out["state"] == replay([drop, extend], ev.state)
    assert api.confirmed("e1")["state"] == replay([drop], ev.state)


def test_after_a_bug_half_way_through_a_change_the_device_is_sent_the_state_again(monkeypatch):
    """The device keeps the state of its last fold; after a failed fold the worker's is another one."""
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    api.fold("e1", True, None, rows, [])
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    shown = api.fold("e1", False, None, [], [drop])
    from shared_rules.state import reducer

    def half_way(state, op):
        state["name"] = "half-changed"
        raise KeyError("timer")

    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", half_way)
    try:
        api.fold("e1", False, None, [], [drop, extend], known=shown["revision"])
    except KeyError:
        pass
    # Both changes taken back (dismissed, refused by the server): the device must be told the state again.
    out = api.fold("e1", False, None, [], [], known=shown["revision"])
    assert out.get("state") == ev.state, out


def test_a_fold_of_the_new_log_alone_onto_an_event_the_worker_let_go_asks_for_a_fold_from_the_start(monkeypatch):
    """The worker drops an event whose log the rules fail on half-way (``refold``); when the fold from the start
    fails too, the device's next fold still brings only the log after its cursor: folded onto nothing, that would
    be a state without the event's first operations."""
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    api.fold("e1", True, None, rows, [])
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="desk")
    from shared_rules.errors import RulesError
    from shared_rules.state import reducer

    def broken(state, op):
        raise RulesError("timer.extend: a bug")

    monkeypatch.setitem(reducer.HANDLERS, "timer.extend", broken)
    new = _rows([extend], len(rows) + 1)
    assert api.fold("e1", False, None, new, []) == {"refold": True}
    try:
        api.fold("e1", True, None, [*rows, *new], [])
    except RulesError:
        pass
    drop = ev.log.op("player.drop", {"player": "p4"}, device="desk")
    out = api.fold("e1", False, None, _rows([drop], len(rows) + 2), [])
    assert out == {"refold": True}, {k: v for k, v in out.items() if k != "state"}


def _shared(a, b):
    """The lists and dicts two values both hold (the same objects, not equal ones)."""

    def ids(value, out):
        if isinstance(value, (dict, list)):
            out.add(id(value))
            for item in value.values() if isinstance(value, dict) else value:
                ids(item, out)
        return out

    return ids(a, set()) & ids(b, set())


def test_random_traffic_keeps_the_states_apart_and_the_device_shows_the_workers_latest(monkeypatch):
    """Random hall traffic, a spare asked for at any moment (the store's timer), bugs half-way through a change,
    and a device that keeps the state it was last sent (``known``): what the device shows is always the whole
    log plus its waiting changes, the spare is an exact copy of the server's state, and no two states share
    a part."""
    from shared_rules.state import reducer

    api = _api()
    gen = _Lcg(20261128)
    checked = same = bugs = 0
    for run in range(8):
        stream = _stream(gen, 160)
        setup, rest = stream[:9], stream[9:]
        server = initial_state()
        for op in setup:
            apply_in_place(server, op)
        log = list(setup)
        event = f"r{run}"
        out = api.fold(event, True, None, _rows(log), [])
        shown, known = json.loads(json.dumps(out["state"])), out["revision"]  # what the page keeps
        cursor, waiting = len(log), []

        def check(waiting):
            nonlocal checked
            folded = log[:cursor]
            expected = replay(folded, None, skip_rejected=True)
            for op in waiting:
                try:
                    apply_in_place(expected, op)
                except OperationRejected:
                    pass
            assert shown == expected
            entry = api._EVENTS[event]
            assert entry["confirmed"] == replay(folded, None, skip_rejected=True)
            if entry["spare"] is not None:
                assert entry["spare"] == entry["confirmed"]
                assert not _shared(entry["spare"], entry["confirmed"])
                assert not _shared(entry["spare"], entry["state"])
            if entry["state"] is not entry["confirmed"]:
                assert not _shared(entry["state"], entry["confirmed"])
            checked += 1

        def fold(new_rows, waiting, bug=False):
            nonlocal shown, known, same, bugs
            if bug:
                real = reducer.HANDLERS[waiting[-1]["type"]]

                def half_way(state, op):
                    state["name"] = "half-changed"
                    raise KeyError(op.type)

                monkeypatch.setitem(reducer.HANDLERS, waiting[-1]["type"], half_way)
            try:
                out = api.fold(event, False, None, new_rows, waiting, known=known)
            except KeyError:
                bugs += 1
                return False  # the page keeps what it had
            finally:
                if bug:
                    monkeypatch.setitem(reducer.HANDLERS, waiting[-1]["type"], real)
            assert "refold" not in out, out
            if out.get("same_state"):
                same += 1
            else:
                shown = json.loads(json.dumps(out["state"]))
            known = out["revision"]
            if gen.below(3) == 0:  # the store's timer fires whenever it does
                api.prepare(event)
            return True

        for op in rest:
            if op["device"] == "tab-1":
                bug = gen.below(4) == 0
                if fold([], [*waiting, op], bug) or not bug:
                    waiting = [*waiting, op]
                    check(waiting)
                else:  # the change that met the bug is not kept: the device shows what it showed
                    check(waiting)
                    if gen.below(2):
                        fold([], waiting)
                        check(waiting)
            else:
                _server_takes(server, log, [op])
            step = gen.below(6)
            if step == 0 and waiting:
                _server_takes(server, log, waiting)
                waiting = []
            elif step == 1 and waiting:
                k = 1 + gen.below(len(waiting))
                _server_takes(server, log, waiting[:k])
                waiting = waiting[k:]
            elif step == 2 and waiting:
                i = gen.below(len(waiting))
                waiting = [*waiting[:i], {**waiting[i], "type": "device.void", "payload": {}}, *waiting[i + 1 :]]
            if step <= 1 or gen.below(3) == 0:
                new, cursor = _rows(log[cursor:], cursor + 1), len(log)
                assert fold(new, waiting)
            else:
                assert fold([], waiting)
            check(waiting)
    assert checked > 1000 and same > 100 and bugs > 10, (checked, same, bugs)


def test_a_waiting_change_the_log_already_holds_is_not_applied_twice():
    """The device writes a pulled page to its log, then clears its outbox: a fold in between sees the change in
    both. It is the log's, and nothing reads as refused."""
    api = _api()
    ev = played_round_one()
    rows = _rows(ev.ops)
    drop = ev.log.op("player.drop", {"player": "p4"}, device="tab-2")
    extend = ev.log.op("timer.extend", {"seconds": 30}, device="tab-2")
    api.fold("e1", True, None, rows, [drop, extend])
    out = api.fold("e1", False, None, _rows([drop], len(rows) + 1), [drop, extend])
    assert out["local_rejections"] == []
    assert out["state"] == replay([drop, extend], ev.state)
    assert api.confirmed("e1")["state"] == replay([drop], ev.state)
    again = api.fold("e1", False, None, [], [extend])  # the outbox cleared: the same state
    assert again["local_rejections"] == [] and again["state"] == replay([drop, extend], ev.state)

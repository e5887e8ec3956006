"""The tablet's fold (pwa/rules_api.py ``fold``): the server's log, then this device's waiting changes on top."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from shared_rules.state import replay
from tests.rules.test_state_reducer import played_round_one

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location("rules_api_fold", ROOT / "pwa" / "rules_api.py")
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
    assert resumed == whole and resumed["state"] == ev.state


def test_a_snapshot_that_is_no_state_or_that_the_log_does_not_fold_onto_is_refused():
    api = _api()
    ev = played_round_one()
    rows = [{"server_seq": i, "op": op} for i, op in enumerate(ev.ops, start=1)]
    assert api.fold("e1", True, None, rows, [], snapshot={"cursor": 3, "state": {"rounds": []}}) == {
        "snapshot_refused": True
    }
    api.fold("e2", True, None, rows[:2], [])
    early = api.confirmed("e2")  # the log's first two operations: the rest does not fold onto the cursor it claims
    late = {"cursor": len(rows) - 1, "state": early["state"]}
    assert api.fold("e1", True, None, rows[-1:], [], snapshot=late) == {"snapshot_refused": True}
    assert "e1" not in api._EVENTS

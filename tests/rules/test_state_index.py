"""The fold's look-ups by index (shared_rules/state/index.py) give the answers a scan gave, whatever happened to
the lists in between, and never show in the state."""

from __future__ import annotations

import json
import unittest
from typing import Any

from shared_rules.state import OperationRejected, apply, apply_in_place, initial_state, replay
from shared_rules.state.index import has_open, position
from shared_rules.state.state import clone


class Log:
    """Operations of one organizer device, numbered as it writes them."""

    def __init__(self) -> None:
        self.ops: list[dict[str, Any]] = []

    def __call__(self, op_type: str, payload: dict[str, Any], role: str = "organizer") -> dict[str, Any]:
        n = len(self.ops) + 1
        op = {"type": op_type, "op_id": f"d:{n}", "device": "d", "actor": {"role": role}, "at": n, "payload": payload}
        self.ops.append(op)
        return op


def _event(players: int, ruleset: str = "pokemon-tcg") -> tuple[dict[str, Any], Log]:
    log = Log()
    state = initial_state()
    apply_in_place(state, log("event.create", {"ruleset": ruleset, "name": "Cup", "seed": "s"}))
    for i in range(players):
        apply_in_place(state, log("player.register", {"player": {"id": f"p{i}", "name": f"P{i}"}}))
    return state, log


def _pair_round_one(state: dict[str, Any], log: Log) -> None:
    ids = [p["id"] for p in state["players"]]
    matches = [{"table": 10 + k // 2, "players": ids[k : k + 2]} for k in range(0, len(ids), 2)]
    apply_in_place(state, log("round.pair", {"number": 1, "stage": "swiss", "matches": matches}))
    apply_in_place(state, log("round.start", {"number": 1}))


class TestLookups(unittest.TestCase):
    def test_a_player_taken_off_the_roster_is_unknown_and_may_register_again(self) -> None:
        state, log = _event(6)
        apply_in_place(state, log("player.remove", {"player": "p2"}))
        with self.assertRaisesRegex(OperationRejected, "unknown player 'p2'"):
            apply_in_place(state, log("player.drop", {"player": "p2"}))
        apply_in_place(state, log("player.register", {"player": {"id": "p2", "name": "Again"}}))
        apply_in_place(state, log("player.drop", {"player": "p5"}))
        self.assertEqual([p["id"] for p in state["players"]], ["p0", "p1", "p3", "p4", "p5", "p2"])
        self.assertEqual(state["players"][4]["dropped_after"], 0)

    def test_a_taken_entry_number_is_refused_naming_its_holder_and_the_next_one_follows_the_largest(self) -> None:
        state, log = _event(3)
        apply_in_place(state, log("player.register", {"player": {"id": "x", "name": "X", "entry": 40}}))
        with self.assertRaisesRegex(OperationRejected, "entry 40 is already x's"):
            apply_in_place(state, log("player.register", {"player": {"id": "y", "name": "Y", "entry": 40}}))
        apply_in_place(state, log("player.register", {"player": {"id": "z", "name": "Z"}}))
        self.assertEqual(state["players"][-1]["entry"], 41)

    def test_a_game_id_edited_on_one_player_is_refused_to_the_next(self) -> None:
        state, log = _event(2)
        apply_in_place(state, log("player.edit", {"player": "p0", "fields": {"game_id": "1234567"}}))
        with self.assertRaisesRegex(OperationRejected, "P0 is already registered"):
            apply_in_place(state, log("player.register", {"player": {"id": "n", "name": "N", "game_id": "1234567"}}))
        apply_in_place(state, log("player.edit", {"player": "p0", "fields": {"game_id": "7654321"}}))
        apply_in_place(state, log("player.register", {"player": {"id": "n", "name": "N", "game_id": "1234567"}}))

    def test_results_find_their_table_in_a_round_that_gained_late_players(self) -> None:
        state, log = _event(8)
        _pair_round_one(state, log)
        apply_in_place(state, log("player.register", {"player": {"id": "late", "name": "Late"}}))
        apply_in_place(state, log("result.report", {"round": 1, "table": 12, "outcomes": ["win", "loss"]}))
        matches = state["rounds"][0]["matches"]
        self.assertEqual(matches[2]["status"], "confirmed")
        self.assertEqual(matches[-1]["players"], ["late"])
        with self.assertRaisesRegex(OperationRejected, "round 1 has no table 9"):
            apply_in_place(state, log("result.report", {"round": 1, "table": 9, "outcomes": ["win", "loss"]}))
        with self.assertRaisesRegex(OperationRejected, "round 1 has no table 12"):  # table and index disagree
            apply_in_place(
                state, log("result.report", {"round": 1, "table": 12, "match": 0, "outcomes": ["win", "loss"]})
            )

    def test_a_round_completes_with_its_last_result_and_reopens_with_a_dispute(self) -> None:
        state, log = _event(6)
        _pair_round_one(state, log)
        for table in (12, 10, 11):
            self.assertEqual(state["rounds"][0]["status"], "started")
            apply_in_place(state, log("result.report", {"round": 1, "table": table, "outcomes": ["win", "loss"]}))
        self.assertEqual(state["rounds"][0]["status"], "complete")
        player = {"role": "player", "player": "p0"}
        late = {"type": "result.report", "op_id": "phone:1", "device": "phone", "actor": player, "at": 99,
                "payload": {"round": 1, "table": 10, "outcomes": ["loss", "win"]}}  # fmt: skip
        apply_in_place(state, late)
        self.assertEqual(state["rounds"][0]["status"], "started")
        self.assertEqual([d["table"] for d in state["disputes"]], [10])
        apply_in_place(state, log("result.resolve", {"round": 1, "table": 10, "result": {"outcomes": ["win", "loss"]}}))
        self.assertEqual(state["rounds"][0]["status"], "complete")

    def test_a_fold_from_a_copy_answers_as_the_fold_it_was_copied_from(self) -> None:
        state, log = _event(8)
        _pair_round_one(state, log)
        copy = clone(state)
        op = log("result.report", {"round": 1, "table": 13, "outcomes": ["win", "loss"]})
        self.assertEqual(apply(state, op), apply(copy, op))
        apply_in_place(copy, op)
        self.assertNotEqual(copy, state)  # the copy moved on, the original did not
        self.assertEqual(state["rounds"][0]["matches"][3]["status"], "pending")


class TestIndexes(unittest.TestCase):
    def test_the_state_of_a_fold_is_plain_json_without_indexes(self) -> None:
        state, log = _event(8)
        _pair_round_one(state, log)
        again = replay(json.loads(json.dumps(log.ops)))
        self.assertEqual(json.loads(json.dumps(state)), again)
        self.assertEqual(sorted(state), sorted(initial_state()))

    def test_a_copy_an_operation_is_only_tried_on_is_let_go_by_the_indexes(self) -> None:
        from shared_rules.state import check, index

        state, log = _event(8)
        _pair_round_one(state, log)
        position(state["players"], "id", "p1")
        before = (set(index._INDEXES), set(index._OPEN))
        self.assertIsNone(check(state, log("result.report", {"round": 1, "table": 10, "outcomes": ["win", "loss"]})))
        self.assertIn(
            "no table 99",
            check(state, log("result.report", {"round": 1, "table": 99, "outcomes": ["win", "loss"]})) or "",
        )
        with self.assertRaises(OperationRejected):
            apply(state, log("player.drop", {"player": "ghost"}))
        # Only indexes there before remain (a full set of them may have made way for the copy's, let go since).
        self.assertLessEqual(set(index._INDEXES), before[0])
        self.assertLessEqual(set(index._OPEN), before[1])

    def test_a_position_is_the_first_row_with_the_value_whatever_changed_in_between(self) -> None:
        rows = [{"t": 1}, {"t": 2}, {"t": 2}]
        self.assertEqual(position(rows, "t", 2), 1)
        self.assertEqual(position(rows, "t", 2, last=True), 2)
        rows.pop(0)
        self.assertEqual(position(rows, "t", 2), 0)
        rows[0]["t"] = 5  # changed in place: the position is read back and the index rebuilt
        self.assertEqual(position(rows, "t", 2), 1)
        self.assertEqual(position(rows, "t", 5), 0)
        self.assertIsNone(position(rows, "t", 1))

    def test_an_open_row_is_found_after_any_change_of_the_list(self) -> None:
        rows = [{"s": True} for _ in range(5)]
        done = lambda r: r["s"]  # noqa: E731
        self.assertFalse(has_open(rows, done))
        rows.append({"s": False})
        self.assertTrue(has_open(rows, done))
        rows[-1]["s"] = True
        rows[0]["s"] = False
        self.assertTrue(has_open(rows, done))
        del rows[0]
        self.assertFalse(has_open(rows, done))


if __name__ == "__main__":
    unittest.main()

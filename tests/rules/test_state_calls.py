"""Calls in the hall: a player calls a judge to their own table, staff call a player, staff answer."""

from __future__ import annotations

import unittest

from shared_rules.state import replay
from shared_rules.state.calls import open_calls, own_table
from tests.rules import test_state_reducer as base


def _round_one() -> base.Event:
    ev = base.Event(5)
    ev.pair(1, [["p1", "p2"], ["p3", "p4"], ["p5"]])
    ev.do("round.start", {"number": 1, "duration_s": 3000}, role="scorekeeper")
    return ev


def _judge_call(ev: base.Event, player: str = "p3", table: int | None = 2, reason: str = "Rules question") -> str:
    payload = {"reason": reason} if table is None else {"table": table, "reason": reason}
    ev.do("call.judge", payload, role="player", player=player, device=f"phone-{player}")
    return str(ev.ops[-1]["op_id"])


class JudgeCallTest(unittest.TestCase):
    def test_a_player_calls_a_judge_to_their_own_table(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        (call,) = ev.state["calls"]
        self.assertEqual(
            (call_id, "judge", "p3", 2, 1, "Rules question", None),
            (
                call["id"],
                call["kind"],
                call["player"],
                call["table"],
                call["round"],
                call["reason"],
                call["answered_at"],
            ),
        )
        self.assertEqual({"role": "player", "player": "p3"}, call["by"])

    def test_a_player_without_a_table_number_gets_their_own_table(self) -> None:
        ev = _round_one()
        _judge_call(ev, table=None)
        self.assertEqual(2, ev.state["calls"][0]["table"])

    def test_a_player_may_not_call_a_judge_to_another_table(self) -> None:
        ev = _round_one()
        payload = {"table": 1, "reason": "Rules question"}
        self.assertEqual(
            "call.judge: a player calls a judge to their own table only (yours is table 2)",
            ev.why("call.judge", payload, role="player", player="p3", device="phone-p3"),
        )
        self.assertEqual("not-authorized", ev.refusal_code("call.judge", payload, role="player", player="p3"))
        self.assertEqual([], ev.state["calls"])

    def test_a_player_with_a_bye_calls_without_a_table(self) -> None:
        ev = _round_one()
        self.assertIn(
            "you have no table this round",
            ev.why("call.judge", {"table": 3, "reason": "x"}, role="player", player="p5"),
        )
        _judge_call(ev, player="p5", table=None)
        self.assertIsNone(ev.state["calls"][0]["table"])

    def test_a_draft_round_is_not_yet_a_players_table(self) -> None:
        ev = _round_one()
        for table in (1, 2):
            ev.report(1, table, ["win", "loss"])
        ev.pair(2, [["p1", "p3"], ["p2", "p4"], ["p5"]])  # a draft: players do not know it yet
        self.assertEqual((1, 2), own_table(ev.state, "p3"))

    def test_a_second_call_while_one_is_open_is_refused(self) -> None:
        ev = _round_one()
        _judge_call(ev)
        self.assertEqual(
            "call.judge: your judge call is still open; a judge will come to you",
            ev.why("call.judge", {"table": 2, "reason": "Again"}, role="player", player="p3", device="phone-p3"),
        )

    def test_staff_call_a_judge_to_any_table(self) -> None:
        ev = _round_one()
        ev.do("call.judge", {"table": 1, "reason": "Appeal"}, role="judge", device="tab-2")
        call = ev.state["calls"][0]
        self.assertEqual((None, 1, {"role": "judge"}), (call["player"], call["table"], call["by"]))

    def test_an_empty_reason_is_refused(self) -> None:
        ev = _round_one()
        self.assertEqual(
            "call.judge: payload.reason: must not be empty",
            ev.why("call.judge", {"table": 2, "reason": " "}, role="player", player="p3"),
        )


class PlayerCallTest(unittest.TestCase):
    def test_staff_call_a_player_to_a_table(self) -> None:
        ev = _round_one()
        ev.do("call.player", {"player": "p4", "where": "table", "table": 12, "note": "Deck check"}, role="judge")
        call = ev.state["calls"][0]
        self.assertEqual(
            ("player", "p4", "table", 12, "Deck check"),
            (call["kind"], call["player"], call["where"], call["table"], call["note"]),
        )

    def test_staff_call_a_player_to_the_judge_station(self) -> None:
        ev = _round_one()
        ev.do("call.player", {"player": "p4", "where": "judge-station", "table": 9}, role="scorekeeper")
        self.assertEqual(("judge-station", None), (ev.state["calls"][0]["where"], ev.state["calls"][0]["table"]))

    def test_a_call_to_a_table_names_the_table(self) -> None:
        ev = _round_one()
        self.assertEqual(
            "call.player: name the table the player is called to, or call them to the judge station",
            ev.why("call.player", {"player": "p4", "where": "table"}, role="judge"),
        )
        self.assertEqual(
            "call.player: 'bar' is not a place to call a player to (table or judge-station)",
            ev.why("call.player", {"player": "p4", "where": "bar"}, role="judge"),
        )
        self.assertEqual(
            "call.player: unknown player 'p9'",
            ev.why("call.player", {"player": "p9", "where": "judge-station"}, role="judge"),
        )

    def test_a_player_may_not_call_another_player(self) -> None:
        ev = _round_one()
        self.assertIn(
            "a player may not do this",
            ev.why("call.player", {"player": "p4", "where": "judge-station"}, role="player", player="p3"),
        )


class AnswerTest(unittest.TestCase):
    def test_on_my_way_keeps_the_call_open_and_done_closes_it(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        ev.do("call.answer", {"call": call_id, "reply": "on-my-way"}, role="judge", device="tab-2")
        self.assertEqual([call_id], [c["id"] for c in open_calls(ev.state)])
        self.assertEqual({"role": "judge"}, ev.state["calls"][0]["on_my_way"]["by"])
        ev.do("call.answer", {"call": call_id}, role="judge", device="tab-2")
        self.assertEqual([], open_calls(ev.state))
        self.assertEqual({"role": "judge"}, ev.state["calls"][0]["answered_by"])
        self.assertIsNotNone(ev.state["calls"][0]["answered_at"])

    def test_a_closed_call_cannot_be_answered_again_and_the_player_may_call_again(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        ev.do("call.answer", {"call": call_id}, role="head-judge")
        self.assertEqual(
            "call.answer: that call is already closed", ev.why("call.answer", {"call": call_id}, role="judge")
        )
        _judge_call(ev, reason="Another question")
        self.assertEqual(1, len(open_calls(ev.state)))

    def test_only_staff_answer_a_call(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        self.assertIn("a player may not do this", ev.why("call.answer", {"call": call_id}, role="player", player="p3"))

    def test_an_unknown_call_or_reply_is_refused(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        self.assertEqual("call.answer: there is no call x:9", ev.why("call.answer", {"call": "x:9"}, role="judge"))
        self.assertEqual(
            "call.answer: 'later' is not an answer to a call (on-my-way or done)",
            ev.why("call.answer", {"call": call_id, "reply": "later"}, role="judge"),
        )


class ClosedEventTest(unittest.TestCase):
    def test_a_closed_event_refuses_every_call(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        ev.do("call.answer", {"call": call_id}, role="judge")
        for table in (1, 2):
            ev.report(1, table, ["win", "loss"])
        ev.do("event.close")
        for op_type, payload, kw in (
            ("call.judge", {"table": 2, "reason": "x"}, {"role": "player", "player": "p3"}),
            ("call.player", {"player": "p4", "where": "judge-station"}, {"role": "judge"}),
            ("call.answer", {"call": call_id}, {"role": "judge"}),
        ):
            with self.subTest(op_type):
                self.assertEqual("event-closed", ev.refusal_code(op_type, payload, **kw))

    def test_calls_fold_the_same_on_replay(self) -> None:
        ev = _round_one()
        call_id = _judge_call(ev)
        ev.do("call.answer", {"call": call_id, "reply": "on-my-way"}, role="judge")
        ev.do("call.player", {"player": "p1", "where": "judge-station"}, role="judge")
        self.assertEqual(ev.state["calls"], replay(ev.ops)["calls"])


if __name__ == "__main__":
    unittest.main()

"""Size caps: a change too big to be honest is refused at admission, naming the field; replay ignores caps."""

from __future__ import annotations

import unittest

from shared_rules.state import OPERATION_TYPES, PAYLOADS, cap_problem, replay
from shared_rules.state.caps import DEFAULT_CAPS
from tests.rules import test_state_reducer as base
from tests.rules.test_state_authorize import SCENARIOS


class CapTest(unittest.TestCase):
    def test_a_result_with_a_48_kb_games_list_is_refused_naming_the_field(self) -> None:
        games = [{"notes": "x" * 1000} for _ in range(48)]
        problem = cap_problem("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"], "games": games})
        self.assertEqual("result.report: payload.games: 48 items; the most allowed is 16", problem)
        games = [{"notes": "x" * 3000} for _ in range(3)]
        problem = cap_problem("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"], "games": games})
        self.assertRegex(problem, r"^result\.report: payload\.games: 9,0\d\d bytes; the most allowed is 8,192$")

    def test_long_names_and_reasons_are_refused(self) -> None:
        self.assertEqual(
            "player.edit: payload.name: 201 characters; the most allowed is 200",
            cap_problem("player.edit", {"player": "p1", "name": "n" * 201}),
        )
        self.assertIsNone(cap_problem("player.edit", {"player": "p1", "name": "n" * 200}))
        self.assertEqual(
            "result.correct: payload.reason: 2,001 characters; the most allowed is 2,000",
            cap_problem("result.correct", {"round": 1, "outcomes": ["win"], "reason": "r" * 2001}),
        )

    def test_each_outcome_is_a_short_name(self) -> None:
        self.assertEqual(
            "result.report: payload.outcomes[1]: 300 characters; the most allowed is 200",
            cap_problem("result.report", {"round": 1, "outcomes": ["win", "l" * 300]}),
        )

    def test_a_player_record_is_small_but_a_big_round_fits(self) -> None:
        self.assertIn(
            "player.register: payload.player:",
            cap_problem("player.register", {"player": {"id": "p1", "notes": "x" * 5000}}),
        )
        matches = [
            {"table": i + 1, "players": [f"player-{2 * i:06d}-abcdefgh", f"player-{2 * i + 1:06d}-abcdefgh"]}
            for i in range(2048)
        ]
        self.assertIsNone(cap_problem("round.pair", {"number": 1, "matches": matches}))

    def test_every_scenario_payload_fits(self) -> None:
        for op_type in OPERATION_TYPES:
            with self.subTest(op_type):
                self.assertIsNone(cap_problem(op_type, SCENARIOS[op_type][1]))

    def test_every_field_has_a_cap(self) -> None:
        from dataclasses import fields

        for op_type, cls in PAYLOADS.items():
            for f in fields(cls):
                with self.subTest(op=op_type, field=f.name):
                    self.assertTrue(
                        f.metadata["cap"] is not None
                        or f.metadata["check"] in DEFAULT_CAPS
                        or f.metadata["check"] in ("round", "count", "positive", "bool")
                    )

    def test_a_recorded_log_replays_whatever_the_caps(self) -> None:
        ev = base.Event(4)
        ev.do("player.edit", {"player": "p1", "name": "N" * 500})  # over the cap: admitted before caps existed
        self.assertEqual("N" * 500, replay(ev.ops)["players"][0]["name"])


if __name__ == "__main__":
    unittest.main()

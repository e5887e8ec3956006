"""Check-in and the first round (shared_rules/state/checkin.py): once anyone has checked in, round 1
pairs only the players who did; the others are paired from round 2; without check-in, everybody."""

from __future__ import annotations

import unittest

from shared_rules.run import load_event, pair_next_round_json
from shared_rules.state import apply, initial_state, to_event_document
from shared_rules.state.checkin import absent_from_first_round, without


class _Desk:
    def __init__(self, players: int) -> None:
        self.n = 0
        self.state = initial_state()
        self.do("event.create", {"name": "League Challenge", "ruleset": "pokemon-tcg", "seed": "check-in"})
        for k in range(1, players + 1):
            self.do("player.register", {"player": {"id": f"p{k}", "name": f"Player {k}"}})

    def do(self, type_: str, payload: dict) -> None:
        self.n += 1
        self.state = apply(
            self.state,
            {
                "type": type_,
                "op_id": f"desk:{self.n}",
                "device": "desk",
                "actor": {"role": "organizer"},
                "at": 1_000 * self.n,
                "payload": payload,
            },
        )

    def pair(self) -> dict:
        event = load_event(to_event_document(self.state, operational=False))
        return pair_next_round_json(without(event, absent_from_first_round(self.state)))


def _paired(pairing: dict) -> set[str]:
    return {pid for m in pairing["matches"] for pid in m["players"]}


class CheckInTest(unittest.TestCase):
    def test_without_check_in_everybody_is_paired(self) -> None:
        desk = _Desk(6)
        self.assertEqual(absent_from_first_round(desk.state), [])
        self.assertEqual(_paired(desk.pair()), {f"p{k}" for k in range(1, 7)})

    def test_once_used_round_one_pairs_only_the_checked_in_and_round_two_everybody(self) -> None:
        desk = _Desk(6)
        for k in (1, 2, 3, 4):
            desk.do("player.check_in", {"player": f"p{k}"})
        self.assertEqual(absent_from_first_round(desk.state), ["p5", "p6"])
        first = desk.pair()
        self.assertEqual(_paired(first), {"p1", "p2", "p3", "p4"})
        desk.do("round.pair", {"number": 1, "matches": first["matches"]})
        desk.do("round.start", {"number": 1})
        for match in first["matches"]:
            desk.do("result.report", {"round": 1, "table": match["table"], "outcomes": ["win", "loss"]})
        self.assertEqual(absent_from_first_round(desk.state), [])  # later rounds ignore check-in
        self.assertEqual(_paired(desk.pair()), {f"p{k}" for k in range(1, 7)})

    def test_undoing_a_check_in_and_dropped_players_count_as_they_stand(self) -> None:
        desk = _Desk(8)
        for k in (1, 2, 3, 4, 5, 6):
            desk.do("player.check_in", {"player": f"p{k}"})
        desk.do("player.check_in", {"player": "p3", "checked_in": False})
        desk.do("player.drop", {"player": "p8"})
        self.assertEqual(absent_from_first_round(desk.state), ["p3", "p7"])
        self.assertEqual(_paired(desk.pair()), {"p1", "p2", "p4", "p5", "p6"})


if __name__ == "__main__":
    unittest.main()

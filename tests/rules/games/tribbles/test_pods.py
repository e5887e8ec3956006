"""Tribbles pods (Star Trek OP Guide 7.2, 7.6)."""

from __future__ import annotations

import unittest

from shared_rules.run import compute_standings, load_event, pair_next_round
from shared_rules.seeded import Rng
from tests.rules.test_pairing_swiss import new_doc


def _play_pods(doc, rng):
    paired = pair_next_round(load_event(doc))
    matches = []
    for m in paired.matches:
        scores = [rng.below(20) * 1000 for _ in m.players]
        outcomes = ["loss"] * len(m.players)
        outcomes[rng.below(len(m.players))] = "win"
        matches.append({"table": m.table, "players": list(m.players), "outcomes": outcomes, "scores": scores})
    doc["rounds"].append({"number": paired.number, "stage": paired.stage, "matches": matches})
    return paired


class PodsTest(unittest.TestCase):
    """Pods of 4-8, kept five rounds, then re-formed by score."""

    def test_round_one_pods_are_four_to_eight_and_as_equal_as_possible(self) -> None:
        paired = pair_next_round(load_event(new_doc("tribbles", 17, 10)))
        self.assertEqual(sorted(len(m.players) for m in paired.matches), [5, 6, 6])
        self.assertEqual([m.table for m in paired.matches], [1, 2, 3])

    def test_pods_kept_for_five_rounds_then_reformed_with_each_pod_winner_on_top(self) -> None:
        doc = new_doc("tribbles", 17, 10)
        rng = Rng("pods", "r")
        first = _play_pods(doc, rng)
        pods = sorted(sorted(m.players) for m in first.matches)
        for _ in range(4):
            again = _play_pods(doc, rng)
            self.assertEqual(sorted(sorted(m.players) for m in again.matches), pods)
        event = load_event(doc)
        ranking = [s.player for s in compute_standings(event)]
        winners = {min(pod, key=ranking.index) for pod in pods}
        sixth = pair_next_round(event)
        top = sixth.matches[0]
        self.assertEqual(top.table, 1)
        self.assertTrue(winners <= set(top.players))
        rest = [p for p in ranking if p not in top.players]
        self.assertEqual([p for m in sixth.matches[1:] for p in m.players], rest)

    def test_dropped_player_leaves_the_pod(self) -> None:
        doc = new_doc("tribbles", 9, 10)
        rng = Rng("drop", "r")
        _play_pods(doc, rng)
        doc["players"][0]["dropped_after"] = 1
        paired = pair_next_round(load_event(doc))
        self.assertNotIn("p001", [p for m in paired.matches for p in m.players])
        self.assertEqual(sum(len(m.players) for m in paired.matches), 8)


if __name__ == "__main__":
    unittest.main()


class SmallPodsTest(unittest.TestCase):
    """Section 2 (three players is a sanctioned event) read with 7.2 (pods of 4-8): pairing and validation agree."""

    def test_three_player_event_is_one_pod_whose_results_are_accepted(self) -> None:
        doc = new_doc("tribbles", 3, 5)
        rng = Rng("three", "r")
        for _ in range(5):
            paired = _play_pods(doc, rng)
            self.assertEqual([len(m.players) for m in paired.matches], [3])
        standings = compute_standings(load_event(doc))
        self.assertEqual(len(standings), 3)

    def test_a_two_player_pod_is_refused_naming_the_field(self) -> None:
        from shared_rules.errors import DocumentError

        doc = new_doc("tribbles", 3, 5)
        doc["rounds"] = [
            {
                "number": 1,
                "stage": "swiss",
                "matches": [{"table": 1, "players": ["p001", "p002"], "outcomes": ["win", "loss"], "scores": [10, 0]}],
            }
        ]
        with self.assertRaises(DocumentError) as caught:
            load_event(doc)
        self.assertIn("rounds[0].matches[0].players", str(caught.exception))
        self.assertIn("Section 2", str(caught.exception))

    def test_pod_left_with_two_by_drops_joins_the_other_pods(self) -> None:
        doc = new_doc("tribbles", 9, 10)
        rng = Rng("drop-two", "r")
        first = _play_pods(doc, rng)
        small = min(first.matches, key=lambda m: len(m.players))
        dropping = list(small.players)[: len(small.players) - 2]
        for p in doc["players"]:
            if p["id"] in dropping:
                p["dropped_after"] = 1
        paired = _play_pods(doc, rng)
        self.assertEqual(len(paired.matches), 1)
        self.assertEqual(len(paired.matches[0].players), 9 - len(dropping))
        load_event(doc)  # the reported round validates

    def test_a_pod_past_eight_after_re_homing_and_rejoining_splits(self) -> None:
        # Found by tests/rules/test_state_invariant.py: pods of 5 and 4; three of the four drop after round 1
        # and rejoin for round 3, after the one left was re-homed into the other pod: nine in one pod.
        doc = new_doc("tribbles", 9, 10)
        rng = Rng("rejoin", "r")
        first = _play_pods(doc, rng)
        small = min(first.matches, key=lambda m: len(m.players))
        leaving = list(small.players)[:-1]
        for p in doc["players"]:
            if p["id"] in leaving:
                p["dropped_after"] = 1
        second = _play_pods(doc, rng)
        self.assertEqual([6], [len(m.players) for m in second.matches])
        for p in doc["players"]:
            p.pop("dropped_after", None)  # reinstated: they missed round 2
        third = pair_next_round(load_event(doc))
        self.assertEqual([5, 4], [len(m.players) for m in third.matches])

"""Published standings: after the last round whose results are all in, never from a round still in play."""

from __future__ import annotations

import unittest

from shared_rules.run import compute_standings, load_event
from shared_rules.state import from_event_document, to_event_document
from shared_rules.state.published import published_round, published_state
from tests.rules.helpers import event_doc, m


def _doc(*rounds: list[dict]) -> dict:
    doc = event_doc("pokemon-tcg", "abcd", *rounds)
    doc["format"] = "topcut-event/1"
    doc["name"] = "Cup"
    for p in doc["players"]:
        p["name"] = p["id"].upper()
    return doc


def _ranking(state: dict) -> list[str]:
    return [s.player for s in compute_standings(load_event(to_event_document(state, operational=False)))]


class PublishedStandingsTest(unittest.TestCase):
    def test_round_one_in_play_publishes_nothing(self) -> None:
        state = from_event_document(_doc([m("a", "b"), {"players": ["c", "d"]}]))
        self.assertEqual(state["rounds"][0]["status"], "started")
        self.assertIsNone(published_round(state))
        self.assertEqual(published_state(state)["rounds"], [])

    def test_a_complete_round_is_published(self) -> None:
        state = from_event_document(_doc([m("a", "b"), m("c", "d")]))
        self.assertEqual(published_round(state), {"number": 1, "stage": "swiss"})
        self.assertEqual(len(published_state(state)["rounds"]), 1)

    def test_standings_mid_round_stay_those_after_the_last_complete_round(self) -> None:
        # Round 2 in play: B has just beaten A, but the published ranking is round 1's.
        after_one = from_event_document(_doc([m("a", "b"), m("c", "d")]))
        mid_two = from_event_document(_doc([m("a", "b"), m("c", "d")], [m("b", "a"), {"players": ["c", "d"]}]))
        self.assertEqual(published_round(mid_two), {"number": 1, "stage": "swiss"})
        self.assertEqual(_ranking(published_state(mid_two)), _ranking(after_one))
        self.assertNotEqual(_ranking(mid_two)[:2], _ranking(after_one)[:2])

    def test_the_state_itself_is_left_as_it_was(self) -> None:
        state = from_event_document(_doc([m("a", "b"), m("c", "d")], [m("b", "a"), {"players": ["c", "d"]}]))
        published_state(state)
        self.assertEqual(len(state["rounds"]), 2)


if __name__ == "__main__":
    unittest.main()

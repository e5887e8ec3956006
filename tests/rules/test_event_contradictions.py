"""Contradictory event documents are refused with one line naming the field, never computed."""

from __future__ import annotations

import unittest

from shared_rules.run import load_event
from tests.rules.helpers import RejectsDocuments, bye, event_doc, m


class ContradictionTest(RejectsDocuments, unittest.TestCase):
    def test_result_in_a_round_after_the_player_dropped(self) -> None:
        doc = event_doc("agot", "abcd", [m("a", "b"), m("c", "d")], [m("a", "c"), m("b", "d")], a=1)
        self.assertRejected(doc, "rounds[1].matches[0].players[0]")

    def test_dropped_after_zero_with_a_round_one_result(self) -> None:
        doc = event_doc("pokemon-tcg", "abcd", [m("a", "b"), m("c", "d")], d=0)
        self.assertRejected(doc, "rounds[0].matches[1].players[1]")

    def test_a_bye_after_the_drop_is_refused_too(self) -> None:
        doc = event_doc("agot", "abc", [m("a", "b"), bye("c")], [m("a", "b"), bye("c")], c=1)
        self.assertRejected(doc, "rounds[1].matches[1].players[0]")

    def test_missed_game_after_a_drop_stands(self) -> None:
        # Star Trek OP Guide 7.5.1: a round missed after a drop may be written as a Missed Game.
        doc = event_doc(
            "startrek-1e",
            "abcd",
            [
                {"players": ["a", "b"], "outcomes": ["full-win", "full-loss"], "scores": [100, 30]},
                {"players": ["c", "d"], "outcomes": ["full-win", "full-loss"], "scores": [100, 30]},
            ],
            [
                {"players": ["a", "c"], "outcomes": ["full-win", "full-loss"], "scores": [100, 30]},
                {"players": ["b"], "outcomes": ["bye"]},
                {"players": ["d"], "outcomes": ["missed-game"]},
            ],
            d=1,
        )
        load_event(doc)

    def test_round_numbers_with_a_gap(self) -> None:
        doc = event_doc("agot", "abcd", [m("a", "b"), m("c", "d")], [m("a", "c"), m("b", "d")])
        doc["rounds"][1]["number"] = 3
        self.assertRejected(doc, "rounds[1].number")

    def test_rounds_not_starting_at_one(self) -> None:
        doc = event_doc("agot", "abcd", [m("a", "b"), m("c", "d")])
        doc["rounds"][0]["number"] = 2
        self.assertRejected(doc, "rounds[0].number")

    def test_a_player_in_two_matches_of_one_round(self) -> None:
        doc = event_doc("agot", "abcd", [m("a", "b"), m("a", "c")])
        self.assertRejected(doc, "rounds[0].matches[1].players")

    def test_a_player_in_two_stages_of_one_round_number(self) -> None:
        doc = event_doc("pokemon-tcg", "abcdef", [m("a", "b"), m("c", "d"), m("e", "f")])
        doc["rounds"].append({"number": 2, "stage": "swiss", "matches": [m("a", "c")]})
        doc["rounds"].append({"number": 2, "stage": "elimination", "matches": [m("a", "b")]})
        self.assertRejected(doc, "rounds[2].matches[0].players[0]")

    def test_stages_may_share_a_round_number(self) -> None:
        # Pokémon TOP 3.3.5: one division's top cut may run beside another's last Swiss round.
        doc = event_doc("pokemon-tcg", "abcdef", [m("a", "b"), m("c", "d"), m("e", "f")])
        doc["rounds"].append({"number": 2, "stage": "swiss", "matches": [m("a", "c")]})
        doc["rounds"].append({"number": 2, "stage": "elimination", "matches": [m("e", "b")]})
        load_event(doc)


if __name__ == "__main__":
    unittest.main()

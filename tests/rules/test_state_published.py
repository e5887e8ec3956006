"""Published standings: after the last round whose results are all in, never from a round still in play."""

from __future__ import annotations

import unittest

from shared_rules.games import RULESETS, game_of
from shared_rules.run import compute_standings, load_event
from shared_rules.state import OperationRejected, apply, from_event_document, initial_state, to_event_document
from shared_rules.state.published import POLICIES, published_round, published_state, unpublished_note
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


def _with(state: dict, policy: str, closed: bool = False) -> dict:
    return {**state, "settings": {**state["settings"], "standings_policy": policy}, "closed": closed}


class StandingsPolicyTest(unittest.TestCase):
    def setUp(self) -> None:
        self.mid_two = from_event_document(_doc([m("a", "b"), m("c", "d")], [m("b", "a"), {"players": ["c", "d"]}]))

    def test_live_standings_count_the_round_in_play(self) -> None:
        live = _with(self.mid_two, "live")
        self.assertEqual(published_round(live), {"number": 2, "stage": "swiss"})
        self.assertEqual(_ranking(published_state(live)), _ranking(self.mid_two))

    def test_standings_only_at_the_end_wait_for_the_event_to_close(self) -> None:
        self.assertIsNone(published_round(_with(self.mid_two, "end")))
        self.assertIn("end of the event", unpublished_note(_with(self.mid_two, "end")))
        done = from_event_document(_doc([m("a", "b"), m("c", "d")], [m("b", "a"), m("c", "d")]))
        self.assertEqual(published_round(_with(done, "end", closed=True)), {"number": 2, "stage": "swiss"})

    def test_standings_only_after_the_swiss_wait_for_the_cut_or_the_close(self) -> None:
        self.assertIsNone(published_round(_with(self.mid_two, "after-swiss")))
        self.assertIn("Swiss rounds are over", unpublished_note(_with(self.mid_two, "after-swiss")))
        done = from_event_document(_doc([m("a", "b"), m("c", "d")], [m("b", "a"), m("c", "d")]))
        self.assertEqual(published_round(_with(done, "after-swiss", closed=True)), {"number": 2, "stage": "swiss"})
        cut = {**done, "rounds": [*done["rounds"], {"number": 1, "stage": "elimination", "status": "started"}]}
        self.assertEqual(published_round(_with(cut, "after-swiss")), {"number": 2, "stage": "swiss"})

    def test_every_game_offers_the_policy_on_its_settings_screen(self) -> None:
        for ruleset in RULESETS:
            with self.subTest(ruleset=ruleset):
                fields = [f for s in game_of(ruleset).settings_descriptor()["sections"] for f in s["fields"]]
                policy = [f for f in fields if f["key"] == "standings_policy"]
                self.assertEqual(len(policy), 1)
                self.assertEqual([c["value"] for c in policy[0]["choices"]], list(POLICIES))

    def test_a_wrong_policy_is_refused_in_the_organizers_words_and_a_right_one_kept(self) -> None:
        create = {"type": "event.create", "op_id": "d:1", "device": "d", "actor": {"role": "organizer"}, "at": 1}
        state = apply(initial_state(), {**create, "payload": {"name": "Cup", "ruleset": "agot"}})
        configure = {**create, "type": "event.configure", "op_id": "d:2"}
        with self.assertRaisesRegex(OperationRejected, "Players see standings: choose one of: After each round"):
            apply(state, {**configure, "payload": {"settings": {"standings_policy": "sometimes"}}})
        for policy in POLICIES:
            done = apply(state, {**configure, "payload": {"settings": {"standings_policy": policy}}})
            self.assertEqual(done["settings"]["standings_policy"], policy)


if __name__ == "__main__":
    unittest.main()

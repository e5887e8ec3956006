"""Byes: who gets one, with which outcome, and never twice."""

from __future__ import annotations

import unittest

from shared_rules.games import policy_for
from shared_rules.pairing.byes import bye_order, byes_received
from shared_rules.run import compute_standings, load_event, pair_next_round, pairing_state
from shared_rules.seeded import Rng
from tests.rules.test_pairing_swiss import new_doc, play_round


def _bye_of(paired):
    return [m.players[0] for m in paired.matches if len(m.players) == 1]


class ByeRulesTest(unittest.TestCase):
    """Each document's bye rule, checked round by round on simulated events."""

    def test_pokemon_bye_goes_to_a_random_player_of_the_lowest_bracket(self) -> None:
        # Pokémon TOP 3.1.
        doc = new_doc("pokemon-tcg", 11, 6)
        rng = Rng("b", "r")
        chosen = set()
        for _ in range(5):
            event = load_event(doc)
            state = pairing_state(event, len(doc["rounds"]) + 1)
            paired = pair_next_round(event)
            (bye,) = _bye_of(paired)
            eligible = [pid for pid in state.present if not state.had_bye.get(pid)]
            self.assertEqual(state.points[bye], min(state.points[pid] for pid in eligible))
            self.assertNotIn(bye, chosen)
            chosen.add(bye)
            play_round(doc, rng)

    def test_lowest_ranked_without_a_bye_for_agot_doomtown_and_custom(self) -> None:
        # AGoT Swiss Rounds; Shatterpoint Swiss Pairing; Doomtown (reading); custom.
        for ruleset in ("agot", "doomtown", "custom"):
            with self.subTest(ruleset=ruleset):
                doc = new_doc(ruleset, 9, 5)
                rng = Rng(ruleset, "r")
                play_round(doc, rng)
                for _ in range(3):
                    event = load_event(doc)
                    ranking = [s.player for s in compute_standings(event)]
                    state = pairing_state(event, len(doc["rounds"]) + 1)
                    (bye,) = _bye_of(pair_next_round(event))
                    self.assertEqual(bye, [pid for pid in ranking if not state.had_bye.get(pid)][-1])
                    play_round(doc, rng)

    def test_star_trek_bye_goes_to_the_lowest_victory_point_total(self) -> None:
        # Star Trek OP Guide 7.5.1, 7.6.
        doc = new_doc("startrek-1e", 9, 5)
        rng = Rng("t", "r")
        play_round(doc, rng)
        for _ in range(3):
            event = load_event(doc)
            state = pairing_state(event, len(doc["rounds"]) + 1)
            (bye,) = _bye_of(pair_next_round(event))
            eligible = [pid for pid in state.present if not state.had_bye.get(pid)]
            self.assertEqual(state.points[bye], min(state.points[pid] for pid in eligible))
            play_round(doc, rng)

    def test_earned_byes_do_not_count_against_the_one_bye_limit(self) -> None:
        doc = new_doc("startrek-2e", 5, 3)
        doc["players"][0]["earned_byes"] = 1
        play_round(doc, Rng("e", "r"))
        event = load_event(doc)
        self.assertEqual(byes_received(event, policy_for("startrek-2e")).get("p001", 0), 0)

    def test_bye_order_puts_players_without_a_bye_first(self) -> None:
        policy = policy_for("pokemon-tcg")
        order = bye_order(policy, ["a", "b", "c"], {"a": 0, "b": 0, "c": 3}, {}, {"a": 1}, "s")
        self.assertEqual(order[0], "b")
        self.assertEqual(order[-1], "a")

    def test_three_player_star_trek_event_gives_each_player_one_bye(self) -> None:
        # Star Trek OP Guide Section 2: each of three players plays two games and has a bye.
        doc = new_doc("startrek-1e", 3, 3)
        rng = Rng("three", "r")
        byes = [play_round(doc, rng) for _ in range(3)]
        holders = [m["players"][0] for r in byes for m in r["matches"] if len(m["players"]) == 1]
        self.assertEqual(sorted(holders), ["p001", "p002", "p003"])


if __name__ == "__main__":
    unittest.main()

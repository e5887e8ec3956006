"""Star Trek match play (OP Guide 10) and two-heat seeding (OP Guide 9).

unittest only: the same file runs under pytest and inside Pyodide.
"""

from __future__ import annotations

import unittest
from dataclasses import replace

from shared_rules.brackets import first_turn_chooser, match_winner_from_games, two_heat_seeds
from shared_rules.errors import RulesError
from shared_rules.event import Event, Match
from shared_rules.games import bracket_rules
from shared_rules.run import bracket_view, make_cut, next_elimination_round
from tests.rules.test_brackets import higher_seed_wins, make_event, play_out, report, seed_of, seed_pairs, with_round

SEEDS = [f"p{i:02d}" for i in range(1, 9)]


def cut(settings: dict, n: int = 8) -> Event:
    event = make_event("startrek-1e", n, settings)
    return with_round(event, make_cut(event, n, seeding=SEEDS[:n]))


class TwoHeatSeedingTest(unittest.TestCase):
    # Star Trek OP Guide 9: heat one takes seeds 1, 2, 5, 6...; heat two 3, 4, 7, 8...
    def test_heats_alternate_in_groups_of_two(self) -> None:
        seeds = two_heat_seeds(["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"])
        self.assertEqual(
            {"a1": 1, "a2": 2, "a3": 5, "a4": 6, "b1": 3, "b2": 4, "b3": 7, "b4": 8},
            {p: i for i, p in enumerate(seeds, start=1)},
        )

    def test_heat_seeds_feed_the_bracket(self) -> None:
        event = make_event("startrek-1e", 8)
        heat_one, heat_two = ["p05", "p06", "p07", "p08"], ["p01", "p02", "p03", "p04"]
        rnd = make_cut(event, 8, seeding=two_heat_seeds(heat_one, heat_two))
        first = rnd.matches[0]
        self.assertEqual((("p05", "p04"), [1, 8]), (first.players, first.extra["seeds"]))

    def test_a_player_qualifying_from_both_heats_is_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "both heats"):
            two_heat_seeds(["a", "b"], ["a", "c"])

    def test_uneven_heats_are_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "same number"):
            two_heat_seeds(["a", "b"], ["c"])


class McIntyreTest(unittest.TestCase):
    # Star Trek OP Guide 10.2 (figures not in the text): Modified McIntyre read as re-seeding each
    # round so the highest surviving seed meets the lowest; Standard is the fixed bracket.
    def _after_upset(self, bracket: str) -> list[tuple[int, ...]]:
        event = cut({"bracket": bracket})
        event = report(event, lambda m: "p08" if "p08" in m.players else min(m.players))
        return seed_pairs(event, next_elimination_round(event))

    def test_standard_bracket_keeps_fixed_lines_after_an_upset(self) -> None:
        self.assertEqual([(8, 4), (2, 3)], self._after_upset("standard"))

    def test_modified_mcintyre_reseeds_highest_against_lowest(self) -> None:
        self.assertEqual([(2, 8), (3, 4)], self._after_upset("modified-mcintyre"))

    def test_mcintyre_first_round_is_one_v_eight_two_v_seven(self) -> None:
        event = cut({"bracket": "modified-mcintyre"})
        self.assertEqual([(1, 8), (2, 7), (3, 6), (4, 5)], seed_pairs(event, event.rounds[-1]))

    def test_unknown_bracket_is_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "settings.bracket: 'swiss' is not a bracket of startrek-1e"):
            bracket_rules("startrek-1e", {"bracket": "swiss"})

    def test_mcintyre_played_to_the_end(self) -> None:
        event = cut({"bracket": "modified-mcintyre"})
        future = bracket_view(event)["rounds"][1]["slots"]
        self.assertEqual([None, None], [s["from"] for s in future])  # opponents depend on results
        event = play_out(event)
        self.assertEqual("p01", bracket_view(event)["champion"])


class TiesGoToTheHigherSeedTest(unittest.TestCase):
    # Star Trek OP Guide 10: a tied game, or a tied match, is awarded to the higher seed.
    def test_a_true_tie_best_of_one_sends_the_higher_seed_on(self) -> None:
        event = cut({})
        matches = tuple(replace(m, outcomes=("true-tie", "true-tie")) for m in event.rounds[-1].matches)
        event = replace(event, rounds=(replace(event.rounds[-1], matches=matches),))
        nxt = next_elimination_round(event)
        self.assertEqual([(1, 4), (2, 3)], seed_pairs(event, nxt))

    def test_a_tied_game_in_best_of_three_counts_for_the_higher_seed(self) -> None:
        self.assertEqual("hi", match_winner_from_games(["lo", "hi"], ["lo", "tie", "tie"], higher_seed="hi"))
        self.assertEqual("hi", match_winner_from_games(["lo", "hi"], ["lo", None, "hi"], higher_seed="hi"))

    def test_a_tied_match_goes_to_the_higher_seed(self) -> None:
        self.assertEqual("hi", match_winner_from_games(["lo", "hi"], ["lo", "hi"], best_of=None, higher_seed="hi"))

    def test_best_of_three_games_decide_a_star_trek_match(self) -> None:
        event = cut({"best_of": 3}, n=2)
        final = event.rounds[-1].matches[0]
        played = replace(final, outcomes=("true-tie", "true-tie"), games=("p02", "tie", "tie"))
        event = replace(event, rounds=(replace(event.rounds[-1], matches=(played,)),))
        self.assertEqual("p01", bracket_view(event)["champion"])

    def test_other_games_do_not_award_tied_games(self) -> None:
        with self.assertRaisesRegex(RulesError, "a tied game needs a winner"):
            match_winner_from_games(["a", "b"], ["a", "tie", "b"])


class FirstTurnTest(unittest.TestCase):
    # Star Trek OP Guide 10.1: random for game one; then the loser of the last game chooses.
    def test_loser_of_the_previous_game_chooses(self) -> None:
        self.assertEqual("b", first_turn_chooser("s", 1, ["a", "b"], ["a"]))
        self.assertEqual("a", first_turn_chooser("s", 1, ["a", "b"], ["a", "b"]))

    def test_game_one_is_a_seeded_draw(self) -> None:
        first = first_turn_chooser("seed", "r4-t1", ["a", "b"], [])
        self.assertIn(first, ("a", "b"))
        self.assertEqual(first, first_turn_chooser("seed", "r4-t1", ["a", "b"], []))

    def test_a_tied_game_is_lost_by_the_lower_seed(self) -> None:
        self.assertEqual("lo", first_turn_chooser("s", 1, ["lo", "hi"], ["tie"], higher_seed="hi"))


class StarTrekDropTest(unittest.TestCase):
    # Star Trek OP Guide 7.5.1: a player who drops leaves their opponent a bye.
    def test_drop_in_match_play_gives_a_bye(self) -> None:
        from shared_rules.run import apply_drop_in_bracket

        event = apply_drop_in_bracket(cut({}), "p08")
        self.assertIn(Match(("p01",), ("bye",)), [Match(m.players, m.outcomes) for m in event.rounds[-1].matches])
        self.assertEqual(seed_of(event)["p01"], 1)
        event = play_out(event, higher_seed_wins)
        self.assertEqual("p01", bracket_view(event)["champion"])


if __name__ == "__main__":
    unittest.main()

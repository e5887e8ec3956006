"""Game-end helpers: every worked example in the sections and each tie-break step.

unittest only: the same file runs under pytest and inside Pyodide.
"""

from __future__ import annotations

import json
import unittest

from shared_rules.errors import RulesError
from shared_rules.game_end import GameEnd, Stats
from shared_rules.games.agot.game_end import time_called as agot_time_called
from shared_rules.games.doomtown.game_end import time_called as doomtown_time_called
from shared_rules.games.shatterpoint.game_end import bye as shatterpoint_bye
from shared_rules.games.shatterpoint.game_end import concession as shatterpoint_concession
from shared_rules.games.shatterpoint.game_end import mission_critical_minute as shatterpoint_mission_critical_minute
from shared_rules.games.shatterpoint.game_end import round_minutes as shatterpoint_round_minutes
from shared_rules.games.shatterpoint.game_end import time_called as shatterpoint_time_called
from shared_rules.games.startrek.game_end import time_called as startrek_time_called
from shared_rules.games.startrek.game_end import time_called_1e as startrek_1e_time_called
from shared_rules.games.startrek.game_end import time_called_2e as startrek_2e_time_called
from shared_rules.seeded import Rng


class DoomtownTimeCalledTest(unittest.TestCase):
    # Doomtown Floor Rules 3.D, steps 1-8
    def assertWinner(self, result: GameEnd, winner: int, reason: str) -> None:
        self.assertEqual((winner, reason), (result.winner, result.reason))
        expected = ["loss", "loss"]
        expected[winner] = "win-at-time"
        self.assertEqual(tuple(expected), result.outcomes)

    def test_step_1_only_one_player_has_control_above_opposing_influence(self) -> None:
        self.assertWinner(doomtown_time_called(control=(7, 9), influence=(10, 6), bullets=(0, 0)), 0, "normal-victory")
        self.assertWinner(doomtown_time_called(control=(2, 9), influence=(5, 3), bullets=(0, 0)), 1, "normal-victory")

    def test_normal_victory_needs_more_not_equal(self) -> None:
        # Control equal to the opposing influence is not a normal victory.
        result = doomtown_time_called(control=(6, 5), influence=(8, 6), bullets=(0, 0))
        self.assertEqual("closest-to-victory", result.reason)

    def test_step_2_both_victorious_greatest_control_wins(self) -> None:
        self.assertWinner(doomtown_time_called(control=(5, 8), influence=(2, 3), bullets=(9, 0)), 1, "most-control")

    def test_step_2_both_victorious_equal_control_goes_on(self) -> None:
        # Both would win with 6 control each; margins 6-1=5 and 6-4=2 -> closest to victory.
        self.assertWinner(
            doomtown_time_called(control=(6, 6), influence=(4, 1), bullets=(0, 0)), 0, "closest-to-victory"
        )

    def test_step_3_closest_to_victory(self) -> None:
        # Player 0 needs 8-5 = 3 more, player 1 needs 9-2 = 7 more: player 0 is closer.
        self.assertWinner(
            doomtown_time_called(control=(5, 2), influence=(9, 8), bullets=(0, 5)), 0, "closest-to-victory"
        )

    def test_step_4_highest_control(self) -> None:
        # Margins equal (3-5 = -2, 5-7 = -2); player 1 has more control.
        self.assertWinner(doomtown_time_called(control=(3, 5), influence=(7, 5), bullets=(4, 0)), 1, "control")

    def test_step_6_bullets(self) -> None:
        self.assertWinner(doomtown_time_called(control=(2, 2), influence=(5, 5), bullets=(3, 1)), 0, "bullets")

    def test_step_7_card_pulls_repeat_until_higher(self) -> None:
        result = doomtown_time_called(control=(2, 2), influence=(5, 5), bullets=(1, 1), pulls=[(7, 7), (3, 11)])
        self.assertWinner(result, 1, "card-pull")

    def test_step_8_coin_given_or_drawn(self) -> None:
        self.assertWinner(doomtown_time_called((2, 2), (5, 5), (1, 1), [(4, 4)], coin=0), 0, "coin")
        drawn = doomtown_time_called((2, 2), (5, 5), (1, 1), rng=Rng("seed", "coin", 3, 7))
        self.assertEqual("coin", drawn.reason)
        self.assertEqual(drawn, doomtown_time_called((2, 2), (5, 5), (1, 1), rng=Rng("seed", "coin", 3, 7)))

    def test_still_tied_without_pulls_or_coin_asks_for_a_pull(self) -> None:
        with self.assertRaisesRegex(RulesError, "pull again"):
            doomtown_time_called((2, 2), (5, 5), (1, 1), [(4, 4)])

    def test_bad_numbers_are_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "control"):
            doomtown_time_called((1, 2, 3), (5, 5), (1, 1))
        with self.assertRaisesRegex(RulesError, r"bullets\[1\]"):
            doomtown_time_called((1, 2), (5, 5), (1, -1))
        with self.assertRaisesRegex(RulesError, "coin"):
            doomtown_time_called((2, 2), (5, 5), (1, 1), coin=2)


class DoomtownInfluenceStepTest(unittest.TestCase):
    def test_influence_step_is_reached_but_cannot_decide_alone(self) -> None:
        # Step 5 follows equal margins (control - opposing influence) and equal control,
        # which force equal influence: the chain passes through it to bullets.
        reasons = set()
        for c0 in range(5):
            for c1 in range(5):
                for i0 in range(5):
                    for i1 in range(5):
                        result = doomtown_time_called((c0, c1), (i0, i1), (0, 1))
                        reasons.add(result.reason)
        self.assertNotIn("influence", reasons)
        self.assertTrue({"normal-victory", "most-control", "closest-to-victory", "control", "bullets"} <= reasons)


class ShatterpointEndTest(unittest.TestCase):
    # Shatterpoint Showdown, End of Match
    def test_most_struggle_cards_wins_at_time(self) -> None:
        result = shatterpoint_time_called(struggle=(3, 2), wounds=(1, 9))
        self.assertEqual((0, ("win", "loss"), "struggle-cards"), (result.winner, result.outcomes, result.reason))
        self.assertEqual((Stats(3, 1), Stats(2, 9)), result.stats)

    def test_tied_struggle_most_wounds_wins(self) -> None:
        result = shatterpoint_time_called(struggle=(2, 2), wounds=(4, 6))
        self.assertEqual((1, ("loss", "win"), "wounds"), (result.winner, result.outcomes, result.reason))

    def test_tied_struggle_and_wounds_is_a_draw(self) -> None:
        result = shatterpoint_time_called(struggle=(1, 1), wounds=(5, 5))
        self.assertEqual((None, ("draw", "draw"), "draw"), (result.winner, result.outcomes, result.reason))

    def test_concession_raises_winner_to_two_struggle_and_three_wounds(self) -> None:
        result = shatterpoint_concession(1, struggle=(0, 1), wounds=(1, 2))
        self.assertEqual((0, ("win", "loss"), "concession"), (result.winner, result.outcomes, result.reason))
        self.assertEqual((Stats(2, 3), Stats(1, 2)), result.stats)

    def test_concession_keeps_higher_current_totals(self) -> None:
        result = shatterpoint_concession(0, struggle=(2, 3), wounds=(8, 7))
        self.assertEqual((Stats(2, 8), Stats(3, 7)), result.stats)

    def test_concession_needs_a_player_index(self) -> None:
        with self.assertRaises(RulesError):
            shatterpoint_concession(2, struggle=(0, 0), wounds=(0, 0))

    def test_bye_is_a_win_with_two_struggle_and_three_wounds(self) -> None:
        # Shatterpoint Showdown, Pairings / Swiss Pairing.
        result = shatterpoint_bye()
        self.assertEqual((("bye",), (Stats(2, 3),)), (result.outcomes, result.stats))
        self.assertEqual({"struggle": 2, "wounds": 3}, result.to_json()["stats"][0])


class ShatterpointRoundTimeTest(unittest.TestCase):
    # Shatterpoint Showdown, Event Round Times
    def test_no_criticals_or_strikes_is_120(self) -> None:
        self.assertEqual(120, shatterpoint_round_minutes(["failure", "expertise", "blank", "failure", "expertise"]))

    def test_one_minute_per_critical_or_strike(self) -> None:
        self.assertEqual(123, shatterpoint_round_minutes(["critical", "strike", "Strike", "expertise", "failure"]))
        self.assertEqual(125, shatterpoint_round_minutes(["critical"] * 5))

    def test_mission_critical_is_the_final_30_minutes(self) -> None:
        self.assertEqual(90, shatterpoint_mission_critical_minute(120))
        self.assertEqual(92, shatterpoint_mission_critical_minute(122))

    def test_exactly_five_known_faces(self) -> None:
        with self.assertRaisesRegex(RulesError, "exactly 5"):
            shatterpoint_round_minutes(["critical"] * 4)
        with self.assertRaisesRegex(RulesError, "not an attack die face"):
            shatterpoint_round_minutes(["critical", "strike", "hit", "failure", "failure"])


class AgotTimeCalledTest(unittest.TestCase):
    # AGoT Tournament Regulations, End of Round
    def test_end_of_round_example_dan_and_emily(self) -> None:
        # Dan 11 power, Emily 13: Emily needs 2, Dan needs 4 -> Emily modified win, Dan modified loss.
        result = agot_time_called(power=(11, 13))
        self.assertEqual(
            (1, ("modified-loss", "modified-win"), "closest-to-victory"),
            (result.winner, result.outcomes, result.reason),
        )

    def test_equally_close_is_a_draw(self) -> None:
        result = agot_time_called(power=(9, 9))
        self.assertEqual((None, ("draw", "draw")), (result.winner, result.outcomes))

    def test_closeness_uses_each_players_own_victory_total(self) -> None:
        # Player 0 needs 15-12 = 3; player 1 with a total of 20 needs 20-14 = 6.
        self.assertEqual(0, agot_time_called(power=(12, 14), victory_totals=(15, 20)).winner)
        self.assertEqual("draw", agot_time_called(power=(12, 17), victory_totals=(15, 20)).outcomes[0])

    def test_reaching_the_victory_total_is_a_full_win(self) -> None:
        result = agot_time_called(power=(15, 14))
        self.assertEqual((0, ("win", "loss"), "victory-condition"), (result.winner, result.outcomes, result.reason))

    def test_both_reaching_the_total_is_refused(self) -> None:
        with self.assertRaises(RulesError):
            agot_time_called(power=(15, 16))


class StarTrekTimeCalledTest(unittest.TestCase):
    # Star Trek OP Guide 7.4 and 7.5.1
    def test_first_edition_highest_score_is_a_modified_win(self) -> None:
        result = startrek_1e_time_called((35, 60))
        self.assertEqual(
            (1, ("modified-loss", "modified-win"), "highest-score"), (result.winner, result.outcomes, result.reason)
        )

    def test_first_edition_same_score_is_a_true_tie(self) -> None:
        result = startrek_1e_time_called((40, 40))
        self.assertEqual((None, ("true-tie", "true-tie"), "true-tie"), (result.winner, result.outcomes, result.reason))

    def test_first_edition_negative_scores(self) -> None:
        self.assertEqual(1, startrek_1e_time_called((-10, -5)).winner)

    def test_second_edition_planet_and_space_beats_a_higher_score(self) -> None:
        result = startrek_2e_time_called((30, 80), planet_missions=(1, 2), space_missions=(1, 0))
        self.assertEqual((0, "planet-and-space-missions"), (result.winner, result.reason))

    def test_second_edition_both_with_planet_and_space_highest_score(self) -> None:
        result = startrek_2e_time_called((70, 65), planet_missions=(1, 1), space_missions=(1, 2))
        self.assertEqual((0, "planet-and-space-missions"), (result.winner, result.reason))

    def test_second_edition_one_completed_mission_beats_none(self) -> None:
        result = startrek_2e_time_called((0, 20), planet_missions=(0, 0), space_missions=(1, 0))
        self.assertEqual((0, "one-completed-mission"), (result.winner, result.reason))

    def test_second_edition_one_mission_each_highest_score(self) -> None:
        result = startrek_2e_time_called((35, 40), planet_missions=(1, 0), space_missions=(0, 1))
        self.assertEqual((1, "one-completed-mission"), (result.winner, result.reason))

    def test_second_edition_no_missions_highest_score(self) -> None:
        result = startrek_2e_time_called((5, 0), planet_missions=(0, 0), space_missions=(0, 0))
        self.assertEqual((0, "highest-score"), (result.winner, result.reason))

    def test_second_edition_same_score_and_step_is_a_true_tie(self) -> None:
        result = startrek_2e_time_called((40, 40), planet_missions=(1, 0), space_missions=(0, 1))
        self.assertEqual((None, ("true-tie", "true-tie")), (result.winner, result.outcomes))

    def test_second_edition_same_score_different_step_is_not_a_tie(self) -> None:
        result = startrek_2e_time_called((40, 40), planet_missions=(1, 1), space_missions=(1, 0))
        self.assertEqual(0, result.winner)

    def test_turns_must_be_equal(self) -> None:
        with self.assertRaisesRegex(RulesError, "equal turns"):
            startrek_1e_time_called((40, 30), turns=(7, 6))
        self.assertEqual(0, startrek_1e_time_called((40, 30), turns=(7, 7)).winner)

    def test_dispatch_by_ruleset(self) -> None:
        self.assertEqual("highest-score", startrek_time_called("startrek-1e", (1, 0)).reason)
        self.assertEqual("one-completed-mission", startrek_time_called("startrek-2e", (0, 9), (1, 0), (0, 0)).reason)
        with self.assertRaises(RulesError):
            startrek_time_called("startrek-2e", (0, 9))
        with self.assertRaises(RulesError):
            startrek_time_called("tribbles", (0, 9))


class GameEndJsonTest(unittest.TestCase):
    def test_results_are_plain_json(self) -> None:
        for result in (
            doomtown_time_called((7, 2), (4, 6), (0, 0)),
            shatterpoint_time_called((2, 1), (3, 3)),
            agot_time_called((11, 13)),
            startrek_1e_time_called((10, 10)),
        ):
            with self.subTest(reason=result.reason):
                data = result.to_json()
                self.assertEqual(data, json.loads(json.dumps(data)))
                self.assertEqual({"winner", "outcomes", "reason", "stats"}, set(data))


if __name__ == "__main__":
    unittest.main()

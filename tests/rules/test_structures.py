"""Structure tables: every row boundary of every document table, minimums, flights, day two.

unittest only: the same file runs under pytest and inside Pyodide.
"""

from __future__ import annotations

import json
import unittest

from shared_rules.errors import RulesError
from shared_rules.games import RULESETS, day_two_qualifiers, division_structures, structure_names, suggest_structure
from shared_rules.seeded import Rng
from shared_rules.structures import (
    Structure,
    allowed_flight_counts,
    assign_late_player_flight,
    flight_sizes,
    merge_flight_tops,
    plan_flights,
)


class TableCase(unittest.TestCase):
    def assertRows(self, ruleset: str, structure: str | None, rows: list[tuple[int, int, int]]) -> None:
        """Each (players, swiss rounds, cut) row must be what suggest_structure gives."""
        for players, rounds, cut in rows:
            with self.subTest(ruleset=ruleset, structure=structure, players=players):
                s = suggest_structure(ruleset, players, structure)
                self.assertEqual((rounds, cut), (s.swiss_rounds, s.cut))


class DoomtownStructureTest(TableCase):
    # Doomtown Floor Rules 5.B
    def test_single_day_boundaries_of_every_row(self) -> None:
        self.assertRows(
            "doomtown",
            "single-day",
            [(4, 3, 2), (8, 3, 2), (9, 4, 4), (16, 4, 4), (17, 5, 8), (32, 5, 8), (33, 6, 8), (500, 6, 8)],
        )

    def test_multi_day_cuts_to_top_16_only_from_33_players(self) -> None:
        self.assertRows(
            "doomtown",
            "multi-day",
            [(8, 3, 2), (9, 4, 4), (16, 4, 4), (17, 5, 8), (32, 5, 8), (33, 6, 16), (200, 6, 16)],
        )

    def test_single_day_is_the_default(self) -> None:
        self.assertEqual("single-day", suggest_structure("doomtown", 20).structure)

    def test_minimum_is_four_players(self) -> None:
        with self.assertRaisesRegex(RulesError, "3 is below the minimum of 4 for doomtown"):
            suggest_structure("doomtown", 3)

    def test_below_eight_notes_the_official_minimum(self) -> None:
        self.assertTrue(any("minimum of 8" in n for n in suggest_structure("doomtown", 7).notes))
        self.assertFalse(any("minimum of 8" in n for n in suggest_structure("doomtown", 8).notes))

    def test_top_two_final_is_best_of_three(self) -> None:
        s = suggest_structure("doomtown", 8)
        self.assertEqual(1, s.elimination.rounds)
        self.assertEqual(3, s.elimination.final_best_of)

    def test_six_rounds_note_a_food_break(self) -> None:
        self.assertTrue(any("food break" in n for n in suggest_structure("doomtown", 33).notes))


class PokemonStructureTest(TableCase):
    # Pokémon TOP 3.3.5: (players, Swiss rounds, cut, document's total rounds)
    VG_PREMIER = [
        (4, 3, 2, 4),
        (8, 3, 2, 4),
        (9, 4, 4, 6),
        (16, 4, 4, 6),
        (17, 5, 8, 8),
        (32, 5, 8, 8),
        (33, 6, 8, 9),
        (64, 6, 8, 9),
        (65, 7, 8, 10),
        (128, 7, 8, 10),
        (129, 8, 8, 11),
        (226, 8, 8, 11),
        (227, 8, 16, 12),
        (256, 8, 16, 12),
        (257, 9, 16, 13),
        (409, 9, 16, 13),
        (410, 9, 32, 14),
        (512, 9, 32, 14),
        (513, 10, 32, 15),
        (2000, 10, 32, 15),
    ]
    TCG_SINGLE_DAY = [
        (4, 3, 0, 3),
        (8, 3, 0, 3),
        (9, 4, 4, 6),
        (12, 4, 4, 6),
        (13, 5, 4, 7),
        (20, 5, 4, 7),
        (21, 5, 8, 8),
        (32, 5, 8, 8),
        (33, 6, 8, 9),
        (64, 6, 8, 9),
        (65, 7, 8, 10),
        (128, 7, 8, 10),
        (129, 8, 8, 11),
        (226, 8, 8, 11),
        (227, 9, 8, 12),
        (409, 9, 8, 12),
        (410, 10, 8, 13),
        (1000, 10, 8, 13),
    ]
    # (players, day-1 rounds, day-2 rounds or None, cut, document's total rounds)
    TWO_DAY = [
        (4, 3, None, 0, 3),
        (8, 3, None, 0, 3),
        (9, 4, None, 4, 6),
        (12, 4, None, 4, 6),
        (13, 5, None, 4, 7),
        (20, 5, None, 4, 7),
        (21, 5, None, 8, 8),
        (32, 5, None, 8, 8),
        (33, 6, None, 8, 9),
        (64, 6, None, 8, 9),
        (65, 7, None, 8, 10),
        (128, 7, None, 8, 10),
        (129, 8, None, 8, 11),
        (226, 8, None, 8, 11),
        (227, 9, 5, 8, 17),
        (799, 9, 5, 8, 17),
        (800, 9, 6, 8, 18),
        (3000, 9, 6, 8, 18),
    ]

    def check_single_table(self, ruleset: str, name: str, rows: list[tuple[int, int, int, int]]) -> None:
        for players, rounds, cut, total in rows:
            with self.subTest(ruleset=ruleset, structure=name, players=players):
                s = suggest_structure(ruleset, players, name)
                self.assertEqual((rounds, cut, total), (s.swiss_rounds, s.cut, s.total_rounds))
                self.assertIsNone(s.day_two)

    def check_two_day_table(self, ruleset: str, name: str) -> None:
        for players, day_one, day_two, cut, total in self.TWO_DAY:
            with self.subTest(ruleset=ruleset, structure=name, players=players):
                s = suggest_structure(ruleset, players, name)
                self.assertEqual(cut, s.cut)
                self.assertEqual(total, s.total_rounds)
                if day_two is None:
                    self.assertIsNone(s.day_two)
                    self.assertEqual(day_one, s.swiss_rounds)
                else:
                    self.assertEqual((day_one, day_two), (s.day_two.day_one_rounds, s.day_two.day_two_rounds))
                    self.assertEqual(day_one + day_two, s.swiss_rounds)
                    self.assertEqual((19, 32), (s.day_two.min_points, s.day_two.or_top))

    def test_vg_premier_midseason_regional_every_row(self) -> None:
        self.check_single_table("pokemon-vg", "premier", self.VG_PREMIER)

    def test_vg_international_every_row(self) -> None:
        self.check_two_day_table("pokemon-vg", "international")

    def test_tcg_single_day_every_row(self) -> None:
        self.check_single_table("pokemon-tcg", "single-day", self.TCG_SINGLE_DAY)

    def test_tcg_two_day_every_row(self) -> None:
        self.check_two_day_table("pokemon-tcg", "two-day")

    def test_defaults_are_premier_and_single_day(self) -> None:
        self.assertEqual("premier", suggest_structure("pokemon-vg", 30).structure)
        self.assertEqual("single-day", suggest_structure("pokemon-tcg", 30).structure)

    def test_day_two_rule_is_data_in_json(self) -> None:
        day_two = suggest_structure("pokemon-tcg", 300, "two-day").to_json()["day_two"]
        self.assertEqual(
            {"day_one_rounds": 9, "day_two_rounds": 5, "min_points": 19, "or_top": 32, "rule": "whichever-is-more"},
            day_two,
        )

    def test_one_fewer_round_option_is_noted(self) -> None:
        self.assertTrue(any("one fewer Swiss round" in n for n in suggest_structure("pokemon-tcg", 50).notes))

    def test_minimum_is_four_players(self) -> None:
        with self.assertRaisesRegex(RulesError, "3 is below the minimum of 4 for pokemon-tcg"):
            suggest_structure("pokemon-tcg", 3)


class PokemonAgeDivisionTest(unittest.TestCase):
    def test_age_separated_divisions_each_use_their_own_size(self) -> None:
        s = division_structures("pokemon-tcg", {"junior": 6, "senior": 12, "masters": 40})
        self.assertEqual({"junior": 3, "senior": 4, "masters": 6}, {d: x.swiss_rounds for d, x in s.items()})

    def test_age_modified_uses_the_largest_division(self) -> None:
        # Pokémon TOP 3.3.5: with 1-5 in a division, the largest division sets the rounds.
        s = division_structures("pokemon-tcg", {"junior": 5, "senior": 10, "masters": 30})
        self.assertEqual({5}, {x.swiss_rounds for x in s.values()})
        self.assertEqual(45, s["junior"].players)

    def test_age_modified_small_event_uses_the_first_row(self) -> None:
        s = division_structures("pokemon-tcg", {"junior": 2, "senior": 3, "masters": 3})
        self.assertEqual(3, s["masters"].swiss_rounds)

    def test_empty_division_does_not_force_age_modified(self) -> None:
        s = division_structures("pokemon-tcg", {"junior": 0, "senior": 9, "masters": 21})
        self.assertEqual({"senior": 4, "masters": 5}, {d: x.swiss_rounds for d, x in s.items()})

    def test_not_a_pokemon_ruleset(self) -> None:
        with self.assertRaises(RulesError):
            division_structures("agot", {"masters": 10})


class PokemonDayTwoQualifiersTest(unittest.TestCase):
    @staticmethod
    def field(players: int, with_19: int) -> tuple[dict[str, int], list[str]]:
        rank = [f"p{i:03d}" for i in range(1, players + 1)]
        points = {p: (21 if i < with_19 else 18) for i, p in enumerate(rank)}
        return points, rank

    def test_forty_players_with_19_points_all_advance(self) -> None:
        points, rank = self.field(100, 40)
        self.assertEqual(rank[:40], day_two_qualifiers("pokemon-tcg", points, rank))

    def test_twenty_players_with_19_points_top_32_advance(self) -> None:
        points, rank = self.field(100, 20)
        self.assertEqual(rank[:32], day_two_qualifiers("pokemon-tcg", points, rank))

    def test_exactly_32_with_19_points(self) -> None:
        points, rank = self.field(100, 32)
        self.assertEqual(rank[:32], day_two_qualifiers("pokemon-tcg", points, rank))

    def test_exactly_19_points_qualifies(self) -> None:
        rank = [f"p{i}" for i in range(50)]
        points = {p: (19 if i < 35 else 16) for i, p in enumerate(rank)}
        self.assertEqual(rank[:35], day_two_qualifiers("pokemon-tcg", points, rank))

    def test_fewer_than_32_players_all_advance(self) -> None:
        points, rank = self.field(20, 0)
        self.assertEqual(rank, day_two_qualifiers("pokemon-tcg", points, rank))

    def test_rank_must_cover_every_player_once(self) -> None:
        with self.assertRaisesRegex(RulesError, "listed twice"):
            day_two_qualifiers("pokemon-tcg", {"a": 19}, ["a", "a"])
        with self.assertRaisesRegex(RulesError, "no Swiss rank"):
            day_two_qualifiers("pokemon-tcg", {"a": 19, "b": 3}, ["a"])
        with self.assertRaisesRegex(RulesError, "no match points"):
            day_two_qualifiers("pokemon-tcg", {"a": 19}, ["a", "b"])


class PokemonFlightsTest(unittest.TestCase):
    def test_143_player_example_two_flights(self) -> None:
        # Pokémon TOP 3.3.3.2: 143 Masters, Top 8, 2 flights -> 72 and 71, 7 rounds, top 4 from each.
        base = suggest_structure("pokemon-tcg", 143).swiss_rounds
        plan = plan_flights(143, 2, base, cut=8)
        self.assertEqual((72, 71), plan.flight_sizes)
        self.assertEqual(7, plan.swiss_rounds)
        self.assertEqual(4, plan.top_per_flight)

    def test_143_player_example_four_flights(self) -> None:
        # ... 4 flights -> 36, 36, 36 and 35, 6 rounds, top 2 from each.
        plan = plan_flights(143, 4, 8, cut=8)
        self.assertEqual((36, 36, 36, 35), plan.flight_sizes)
        self.assertEqual(6, plan.swiss_rounds)
        self.assertEqual(2, plan.top_per_flight)

    def test_143_players_may_use_only_two_or_four_flights(self) -> None:
        self.assertEqual((2, 4), allowed_flight_counts(143))
        with self.assertRaisesRegex(RulesError, "below the minimum of 32"):
            plan_flights(143, 8, 8)

    def test_512_players_example_sixteen_and_eight_flights(self) -> None:
        # Pokémon TOP 3.3.3.2: 16 flights of 32 take a 512 division from 9 rounds to 5; 8 flights to 6.
        self.assertEqual(5, plan_flights(512, 16, 9).swiss_rounds)
        self.assertEqual((32,) * 16, plan_flights(512, 16, 9).flight_sizes)
        self.assertEqual(6, plan_flights(512, 8, 9).swiss_rounds)
        self.assertEqual((2, 4, 8, 16), allowed_flight_counts(512))

    def test_division_below_64_cannot_be_flighted(self) -> None:
        self.assertEqual((), allowed_flight_counts(63))
        with self.assertRaisesRegex(RulesError, "63 is below the minimum of 64"):
            plan_flights(63, 2, 6)
        self.assertEqual((2,), allowed_flight_counts(64))

    def test_flight_count_must_be_a_power_of_two_up_to_16(self) -> None:
        for bad in (1, 3, 6, 32):
            with self.subTest(flights=bad), self.assertRaisesRegex(RulesError, "2, 4, 8, 16"):
                plan_flights(2000, bad, 10)

    def test_only_one_flight_is_odd(self) -> None:
        for players in range(64, 600):
            for k in allowed_flight_counts(players):
                sizes = flight_sizes(players, k)
                with self.subTest(players=players, flights=k):
                    self.assertEqual(players, sum(sizes))
                    self.assertEqual(players % 2, sum(s % 2 for s in sizes))
                    self.assertLessEqual(max(sizes) - min(sizes), 2)

    def test_cut_needs_equal_top_of_at_least_two_per_flight(self) -> None:
        with self.assertRaisesRegex(RulesError, "at least 2"):
            plan_flights(143, 4, 8, cut=4)
        with self.assertRaisesRegex(RulesError, "single-elimination"):
            plan_flights(143, 2, 8, cut=0)
        with self.assertRaisesRegex(RulesError, "power of two"):
            plan_flights(143, 2, 8, cut=12)

    def test_late_player_joins_the_smaller_flight(self) -> None:
        self.assertEqual(1, assign_late_player_flight([72, 71]))
        self.assertEqual(3, assign_late_player_flight([36, 36, 36, 35]))

    def test_late_player_tie_goes_to_lowest_index_or_a_seeded_draw(self) -> None:
        self.assertEqual(0, assign_late_player_flight([36, 36, 36, 36]))
        drawn = assign_late_player_flight([36, 37, 36, 36], Rng("seed", "late", "p9"))
        self.assertIn(drawn, (0, 2, 3))
        self.assertEqual(drawn, assign_late_player_flight([36, 37, 36, 36], Rng("seed", "late", "p9")))

    def test_finalists_are_merged_and_sorted_by_swiss_standing(self) -> None:
        standing = {"a1": 1, "a2": 4, "a3": 5, "b1": 2, "b2": 3, "b3": 6}
        self.assertEqual(
            ["a1", "b1", "b2", "a2"],
            merge_flight_tops([["a1", "a2", "a3"], ["b1", "b2", "b3"]], 2, standing.get),
        )


class ShatterpointStructureTest(TableCase):
    # Shatterpoint Showdown, Progression Cut
    def test_every_row(self) -> None:
        self.assertRows(
            "shatterpoint",
            None,
            [
                (4, 3, 0),
                (5, 4, 0),
                (16, 4, 0),
                (17, 4, 4),
                (32, 4, 4),
                (33, 4, 8),
                (64, 4, 8),
                (65, 5, 16),
                (300, 5, 16),
            ],
        )

    def test_minimum_is_four_players(self) -> None:
        with self.assertRaisesRegex(RulesError, "3 is below the minimum of 4 for shatterpoint"):
            suggest_structure("shatterpoint", 3)


class AgotStructureTest(TableCase):
    # AGoT Tournament Regulations, Tournament Structures
    def test_basic_every_row(self) -> None:
        self.assertRows(
            "agot",
            "basic",
            [
                (4, 3, 0),
                (8, 3, 0),
                (9, 4, 0),
                (16, 4, 0),
                (17, 4, 4),
                (24, 4, 4),
                (25, 5, 4),
                (40, 5, 4),
                (41, 5, 8),
                (44, 5, 8),
                (45, 6, 8),
                (76, 6, 8),
                (77, 6, 16),
                (148, 6, 16),
                (149, 7, 16),
                (600, 7, 16),
            ],
        )

    def test_advanced_every_row(self) -> None:
        self.assertRows(
            "agot",
            "advanced",
            [
                (9, 4, 4),
                (12, 4, 4),
                (13, 4, 8),
                (24, 4, 8),
                (25, 5, 8),
                (40, 5, 8),
                (41, 6, 8),
                (76, 6, 8),
                (77, 6, 16),
                (148, 6, 16),
                (149, 6, 32),
                (288, 6, 32),
                (289, 7, 32),
                (512, 7, 32),
                (513, 8, 32),
            ],
        )

    def test_basic_is_the_default(self) -> None:
        self.assertEqual("basic", suggest_structure("agot", 10).structure)

    def test_minimums(self) -> None:
        with self.assertRaisesRegex(RulesError, "3 is below the minimum of 4 for agot basic"):
            suggest_structure("agot", 3)
        with self.assertRaisesRegex(RulesError, "8 is below the minimum of 9 for agot advanced"):
            suggest_structure("agot", 8, "advanced")

    def test_final_is_untimed(self) -> None:
        self.assertTrue(suggest_structure("agot", 20).elimination.final_untimed)
        self.assertIsNone(suggest_structure("agot", 16).elimination)


class StarTrekStructureTest(TableCase):
    # Star Trek OP Guide Table 3.0.1
    ROWS = [
        (3, 3, 0),
        (7, 3, 0),
        (8, 4, 0),
        (15, 4, 0),
        (16, 5, 0),
        (24, 5, 0),
        (25, 6, 0),
        (34, 6, 0),
        (35, 7, 0),
        (45, 7, 0),
        (46, 8, 0),
        (150, 8, 0),
    ]

    def test_first_and_second_edition_every_row(self) -> None:
        self.assertRows("startrek-1e", None, self.ROWS)
        self.assertRows("startrek-2e", None, self.ROWS)

    def test_minimum_is_three_players(self) -> None:
        for ruleset in ("startrek-1e", "startrek-2e", "tribbles"):
            with (
                self.subTest(ruleset=ruleset),
                self.assertRaisesRegex(RulesError, f"players: 2 is below the minimum of 3 for {ruleset}"),
            ):
                suggest_structure(ruleset, 2)

    def test_three_player_event_notes_two_games_and_a_bye(self) -> None:
        # Star Trek OP Guide Section 2.
        self.assertTrue(any("2 games and has a bye" in n for n in suggest_structure("startrek-1e", 3).notes))

    def test_tribbles_plays_five_rounds_whatever_the_count(self) -> None:
        for players in (3, 4, 8, 9, 40):
            with self.subTest(players=players):
                self.assertEqual(5, suggest_structure("tribbles", players).swiss_rounds)

    def test_tribbles_pods_hold_four_to_eight(self) -> None:
        self.assertEqual((8,), suggest_structure("tribbles", 8).pods)
        self.assertEqual((5, 4), suggest_structure("tribbles", 9).pods)
        self.assertEqual((6, 6, 5), suggest_structure("tribbles", 17).pods)
        for players in range(4, 200):
            pods = suggest_structure("tribbles", players).pods
            with self.subTest(players=players):
                self.assertEqual(players, sum(pods))
                self.assertTrue(all(4 <= p <= 8 for p in pods))
                self.assertLessEqual(max(pods) - min(pods), 1)


class CustomStructureTest(unittest.TestCase):
    def test_default_is_ceil_log2_rounds_and_no_cut(self) -> None:
        for players, rounds in ((2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (1000, 10)):
            with self.subTest(players=players):
                s = suggest_structure("custom", players)
                self.assertEqual((rounds, 0), (s.swiss_rounds, s.cut))

    def test_given_rounds_and_cut(self) -> None:
        s = suggest_structure("custom", 20, rounds=6, cut=4)
        self.assertEqual((6, 4, 8), (s.swiss_rounds, s.cut, s.total_rounds))

    def test_bad_cut_is_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "power of two"):
            suggest_structure("custom", 20, cut=6)
        with self.assertRaisesRegex(RulesError, "more than the 20 players"):
            suggest_structure("custom", 20, cut=32)

    def test_overrides_are_refused_for_document_rulesets(self) -> None:
        with self.assertRaisesRegex(RulesError, "rounds/cut"):
            suggest_structure("doomtown", 20, rounds=6)


class StructureApiTest(unittest.TestCase):
    def test_every_ruleset_has_names_and_a_default(self) -> None:
        expected = {
            "pokemon-tcg",
            "pokemon-vg",
            "doomtown",
            "shatterpoint",
            "agot",
            "startrek-1e",
            "startrek-2e",
            "tribbles",
            "custom",
        }
        self.assertEqual(expected, set(RULESETS))
        for ruleset in RULESETS:
            with self.subTest(ruleset=ruleset):
                names = structure_names(ruleset)
                self.assertTrue(names)
                self.assertEqual(names[0], suggest_structure(ruleset, 50).structure)

    def test_structure_names_per_ruleset(self) -> None:
        self.assertEqual(("single-day", "multi-day"), structure_names("doomtown"))
        self.assertEqual(("premier", "international"), structure_names("pokemon-vg"))
        self.assertEqual(("single-day", "two-day"), structure_names("pokemon-tcg"))
        self.assertEqual(("basic", "advanced"), structure_names("agot"))

    def test_unknown_ruleset_lists_the_known_ones(self) -> None:
        with self.assertRaisesRegex(RulesError, r"ruleset: 'chess' is not one of pokemon-tcg, .*custom"):
            suggest_structure("chess", 10)
        with self.assertRaises(RulesError):
            structure_names("chess")

    def test_unknown_structure_lists_the_valid_ones(self) -> None:
        with self.assertRaisesRegex(
            RulesError, r"structure: 'two-day' is not a structure of doomtown \(valid: single-day, multi-day\)"
        ):
            suggest_structure("doomtown", 10, "two-day")

    def test_player_count_must_be_a_whole_number(self) -> None:
        for bad in ("12", 12.0, True):
            with self.subTest(players=bad), self.assertRaises(RulesError):
                suggest_structure("doomtown", bad)  # type: ignore[arg-type]

    def test_to_json_is_plain_json_with_stable_keys(self) -> None:
        for ruleset in RULESETS:
            for name in structure_names(ruleset):
                with self.subTest(ruleset=ruleset, structure=name):
                    data = suggest_structure(ruleset, 300, name).to_json()
                    self.assertEqual(data, json.loads(json.dumps(data)))
                    self.assertEqual(
                        {
                            "ruleset",
                            "players",
                            "structure",
                            "swiss_rounds",
                            "cut",
                            "total_rounds",
                            "minimum_players",
                            "elimination",
                            "day_two",
                            "pods",
                            "notes",
                            "source",
                        },
                        set(data),
                    )

    def test_structure_is_frozen(self) -> None:
        s = suggest_structure("doomtown", 10)
        self.assertIsInstance(s, Structure)
        with self.assertRaises(AttributeError):
            s.cut = 4  # type: ignore[misc]


if __name__ == "__main__":
    unittest.main()

"""Star Trek OP Guide 12.4, Table 12.4.1: league points by number of players and place."""

from __future__ import annotations

import unittest

from shared_rules.games.startrek.leagues import POINT_TABLE, league_points

#: Table 12.4.1 as printed: player band -> points for 1st, 2nd, 3rd-4th, 5th-8th, 9th-16th, 17th-32nd.
PRINTED = {
    (3, 5): (12, 8, 6, 4, None, None),
    (6, 7): (16, 12, 10, 8, None, None),
    (8, 9): (20, 16, 12, 10, 8, None),
    (10, 11): (24, 20, 16, 14, 10, None),
    (12, 13): (28, 24, 20, 18, 14, None),
    (14, 15): (32, 28, 24, 22, 18, None),
    (16, 19): (36, 32, 28, 26, 22, 18),
    (20, 23): (40, 36, 32, 30, 26, 22),
    (24, 27): (44, 40, 36, 34, 30, 26),
    (28, 31): (48, 44, 40, 38, 34, 30),
    (32, 40): (52, 48, 44, 42, 38, 34),
}
BANDS = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32))


class TableRows(unittest.TestCase):
    def test_every_cell_of_every_row_for_every_player_count_and_place(self):
        for (low, high), row in PRINTED.items():
            for players in range(low, high + 1):
                for (first, last), value in zip(BANDS, row):
                    for place in range(first, last + 1):
                        expected = value if value is not None and place <= players else 0
                        with self.subTest(players=players, place=place):
                            self.assertEqual(league_points(players, place), expected)

    def test_the_declared_table_has_the_printed_rows_in_order(self):
        self.assertEqual([(low, high) for low, high, _ in POINT_TABLE][:-1], list(PRINTED)[:-1])
        self.assertIsNone(POINT_TABLE[-1][1])
        self.assertEqual([row for _, _, row in POINT_TABLE], list(PRINTED.values()))

    def test_fewer_than_three_players_earn_no_league_points(self):
        for players in (0, 1, 2):
            for place in (1, 2):
                self.assertEqual(league_points(players, place), 0)
        self.assertEqual(league_points(3, 1), 12)

    def test_places_beyond_thirty_second_and_beyond_the_field_earn_nothing(self):
        self.assertEqual(league_points(64, 32), 34)
        self.assertEqual(league_points(64, 33), 0)
        self.assertEqual(league_points(4, 5), 0)
        self.assertEqual(league_points(4, 0), 0)

    def test_a_large_event_uses_the_32_plus_row(self):
        self.assertEqual(league_points(200, 1), 52)

    def test_non_numbers_are_refused(self):
        with self.assertRaises(TypeError):
            league_points(True, 1)  # type: ignore[arg-type]
        with self.assertRaises(TypeError):
            league_points(4, "1")  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()

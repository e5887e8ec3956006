"""Star Trek ratings arithmetic (OP Guide 8, 11): the Elo curve, k by level, rounding, 0-3000.

unittest only: runs under CPython and inside Pyodide (tests/pyodide/run_rules.mjs),
so the exact-decimal check of the expected-score table holds in both runtimes.
"""

from __future__ import annotations

import unittest
from decimal import Decimal, localcontext

from shared_rules.games.startrek.ratings import CEILING, FLOOR, K_BY_LEVEL, SCALE, START, clamp, event_change, expected
from shared_rules.games.startrek.ratings.elo import UNIT, WEIGHT, expected_table


def _game(score_halves: int, e: int) -> int:
    """One two-player game's term of an event total (see elo.event_change)."""
    return WEIGHT * (score_halves * UNIT - 2 * e)


class GuideNumbersTest(unittest.TestCase):
    def test_k_by_level_is_section_11(self) -> None:
        # Star Trek OP Guide 11.1.1 (L2 Regionals 28), 11.2.1/11.2.2 (L3 Nationals, Trek Masters 40),
        # 11.1.2 (L4 Continentals 52), 11.1.3 (L5 Worlds 64).
        self.assertEqual({2: 28, 3: 40, 4: 52, 5: 64}, dict(K_BY_LEVEL))

    def test_start_and_range_are_section_8(self) -> None:
        self.assertEqual((1500, 0, 3000), (START, FLOOR, CEILING))
        self.assertEqual(400, SCALE)


class ExpectedScoreTest(unittest.TestCase):
    def test_table_matches_exact_decimal_arithmetic_with_a_safe_margin(self) -> None:
        # Every entry equals 1/(1+10^(-d/400)) in billionths rounded half-even, computed in 40-digit decimal;
        # and no exact value lies within 1e-5 billionth (a hundred times a double's error at this size) of a rounding boundary, so a last-bit difference in
        # any runtime's pow() could not change an entry.
        table = expected_table()
        self.assertEqual(CEILING - FLOOR + 1, len(table))
        with localcontext() as ctx:
            ctx.prec = 40
            for d in range(0, CEILING + 1, 1):
                exact = Decimal(UNIT) / (1 + Decimal(10) ** (Decimal(-d) / SCALE))
                self.assertEqual(int(exact.quantize(Decimal(1))), table[d], d)
                fraction = exact - int(exact)
                self.assertGreater(abs(fraction - Decimal("0.5")), Decimal("0.00001"), d)

    def test_equal_ratings_expect_half_and_the_two_sides_sum_to_one(self) -> None:
        self.assertEqual(UNIT // 2, expected(1500, 1500))
        for a, b in ((1500, 1600), (0, 3000), (2210, 1333)):
            self.assertEqual(UNIT, expected(a, b) + expected(b, a))

    def test_a_400_point_gap_expects_ten_to_one(self) -> None:
        self.assertEqual(909090909, expected(1900, 1500))
        self.assertEqual(90909091, expected(1500, 1900))


class EventChangeTest(unittest.TestCase):
    def test_a_win_between_equals_moves_half_of_k_at_each_level(self) -> None:
        for level, k in K_BY_LEVEL.items():
            with self.subTest(level=level):
                self.assertEqual(k // 2, event_change(k, _game(2, expected(1500, 1500))))
                self.assertEqual(-(k // 2), event_change(k, _game(0, expected(1500, 1500))))

    def test_underdog_win_by_hand(self) -> None:
        # 1500 beats 1600: E = 1/(1+10^(100/400)) = 0.35993500; 28 x 0.64006500 = 17.92 -> +18.
        self.assertEqual(18, event_change(28, _game(2, expected(1500, 1600))))
        self.assertEqual(-18, event_change(28, _game(0, expected(1600, 1500))))
        # 64 x 0.64006500 = 40.96 -> +41; a True Tie: 64 x 0.14006500 = 8.96 -> +9.
        self.assertEqual(41, event_change(64, _game(2, expected(1500, 1600))))
        self.assertEqual(9, event_change(64, _game(1, expected(1500, 1600))))

    def test_rounding_is_half_away_from_zero(self) -> None:
        # k = 1, one win against an equal: +0.5 -> +1; one loss: -0.5 -> -1.
        self.assertEqual(1, event_change(1, _game(2, UNIT // 2)))
        self.assertEqual(-1, event_change(1, _game(0, UNIT // 2)))
        self.assertEqual(0, event_change(1, _game(1, UNIT // 2)))

    def test_an_event_is_summed_before_rounding(self) -> None:
        # Three games at 1500 v 1600 (+17.92 each at k 28): 53.76 -> +54, not 3 x 18.
        total = 3 * _game(2, expected(1500, 1600))
        self.assertEqual(54, event_change(28, total))

    def test_clamp_to_0_3000(self) -> None:
        self.assertEqual((0, 0, 1, 2999, 3000, 3000), tuple(map(clamp, (-500, 0, 1, 2999, 3000, 4100))))


if __name__ == "__main__":
    unittest.main()

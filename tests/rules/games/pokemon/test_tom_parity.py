"""TOM parity: our Pokémon standings equal TOM's official final order in every finalized save.

Each finalized save in tests/fixtures/tom (a ``<standings>`` block) is imported with
``import_tdf`` and ranked by the ``pokemon-tcg`` ruleset; the order of every
division must be exactly TOM's (``tom_final_standings``). See ANALYSIS.md there
for how TOM's order arises. unittest only (runs under pytest and in Pyodide).
"""

from __future__ import annotations

import os
import unittest
from fractions import Fraction

from shared_rules.games import get_ruleset
from shared_rules.games.pokemon.standings import tiebreakers
from shared_rules.games.pokemon.tom.importer import import_tdf, tom_dnf, tom_final_standings
from shared_rules.run import compute_standings, load_event
from shared_rules.standings import StandingsContext
from tests.rules.helpers import TOM_FINALIZED as FINALIZED
from tests.rules.helpers import TOM_FIXTURES as FIXTURES
from tests.rules.helpers import read_tom_fixture as read


def our_order(text: str) -> dict[str, list[str]]:
    """Division -> player ids in our final order (disqualified players, TOM's "dnf", left out)."""
    event = load_event(import_tdf(text))
    dnf = {pid for ids in tom_dnf(text).values() for pid in ids}
    out: dict[str, list[str]] = {}
    for row in compute_standings(event):
        if row.player not in dnf:
            out.setdefault(row.extra.get("division", "masters"), []).append(row.player)
    return out


def values(relative: str) -> tuple[StandingsContext, dict]:
    event = load_event(import_tdf(read(relative)))
    ctx = StandingsContext(event, get_ruleset(event.ruleset, event.settings))
    return ctx, tiebreakers(ctx)


class TomParityTest(unittest.TestCase):
    def assert_parity(self, relative: str) -> None:
        text = read(relative)
        tom = tom_final_standings(text)
        ours = our_order(text)
        self.assertEqual(sorted(ours), sorted(tom), f"{relative}: divisions")
        for division, expected in tom.items():
            self.assertEqual(ours[division], expected, f"{relative}: {division}")

    def test_every_finalized_fixture_is_covered(self) -> None:
        found = []
        for folder, _, names in os.walk(FIXTURES):
            for name in names:
                path = os.path.join(folder, name)
                if name.endswith(".tdf"):
                    with open(path, encoding="utf-8") as handle:
                        if "<standings>" in handle.read():
                            found.append(os.path.relpath(path, FIXTURES).replace(os.sep, "/"))
        self.assertEqual(sorted(found), sorted(FINALIZED))

    def test_cup_finalized_six_players_three_rounds(self) -> None:
        self.assert_parity("cup-finalized.tdf")

    def test_challenge_with_an_earned_bye_and_a_drop(self) -> None:
        self.assert_parity("harness/challenge/11-final.tdf")

    def test_cup_solo_masters_with_top_8(self) -> None:
        self.assert_parity("harness/cup-solo/19-final.tdf")

    def test_cup_with_a_junior_senior_pod_and_a_masters_top_8(self) -> None:
        self.assert_parity("harness/cup/19-final.tdf")

    def test_drop_after_swiss_challenge(self) -> None:
        self.assert_parity("harness/drop-after-swiss/challenge-final.tdf")

    def test_drop_after_swiss_combined_pods(self) -> None:
        self.assert_parity("harness/drop-after-swiss/combined-final.tdf")

    def test_drop_after_swiss_cup_leader_dropped_before_the_cut(self) -> None:
        self.assert_parity("harness/drop-after-swiss/cup-final.tdf")

    def test_earned_bye_challenge(self) -> None:
        self.assert_parity("harness/earned-challenge/11-final.tdf")


class TomValuesTest(unittest.TestCase):
    """Values from ANALYSIS.md that pin down the Decision's less obvious items."""

    def test_frozen_owp_of_a_player_who_dropped_feeds_oowp(self) -> None:
        # harness/cup: P6 Senior dropped after round 2 with OWP 0.75 (as of round 2); P3 Senior's OOWP uses it.
        ctx, table = values("harness/cup/19-final.tdf")
        self.assertEqual(table["1000029"].owp, Fraction(3, 4))
        self.assertEqual(table["1000029"].oowp, Fraction(375, 1000))
        self.assertEqual(table["1000026"].owp, Fraction(4722, 10000))
        self.assertEqual(table["1000026"].oowp, Fraction(5648, 10000))

    def test_an_earned_bye_is_a_won_round_and_a_100_percent_opponent(self) -> None:
        # harness/earned-challenge: P0 Master, 1-1-2 with an earned bye: win % 50 %, OWP 69.79 %.
        ctx, table = values("harness/earned-challenge/11-final.tdf")
        self.assertEqual(table["1000001"].win, Fraction(1, 2))
        self.assertEqual(table["1000001"].owp, Fraction(6979, 10000))

    def test_a_random_bye_is_left_out_of_win_percentage(self) -> None:
        # harness/drop-after-swiss/cup-final: P3 Master, 2-2-1 with a bye: (1 + 1/2) / 4 = 37.5 %.
        ctx, table = values("harness/drop-after-swiss/cup-final.tdf")
        self.assertEqual(ctx.record("1000004"), (2, 2, 1))
        self.assertEqual(table["1000004"].win, Fraction(3, 8))

    def test_no_cap_for_a_player_who_dropped_after_the_last_swiss_round(self) -> None:
        # harness/drop-after-swiss/combined-final: P4 Senior 3-0 dropped after round 3 of a 3-round pod: 100 %.
        ctx, table = values("harness/drop-after-swiss/combined-final.tdf")
        self.assertEqual(table["1000015"].win, Fraction(1))
        # the masters pod plays 5 rounds: a masters player's rounds are not the seniors' rounds
        self.assertEqual(table["1000002"].win, Fraction(9, 10))


if __name__ == "__main__":
    unittest.main()

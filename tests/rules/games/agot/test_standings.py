"""AGoT 2nd edition standings (A Game of Thrones: The Card Game Tournament Regulations 1.0.1)."""

from __future__ import annotations

import json
import os
import unittest
from fractions import Fraction
from typing import Any

from shared_rules.games import get_ruleset
from shared_rules.games.agot.standings import beat_all
from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import draw_key
from shared_rules.standings import StandingsContext
from tests.rules.helpers import (
    GOLDEN,
    RejectsDocuments,
    bye,
    check_ranks_uniquely_and_reproducibly,
    context,
    event_doc,
    exact,
    lines,
    m,
    random_swiss_event,
    ranking,
)


def doc(ids: str, *rounds: list[dict[str, Any]], seed: str = "t", **dropped: int) -> dict[str, Any]:
    return event_doc("agot", ids, *rounds, seed=seed, **dropped)


class AgotPointsTest(unittest.TestCase):
    def test_tournament_points(self) -> None:
        """Tournament Points: win 5, modified win 4, draw 2, modified loss 1, loss 0; a bye is a win."""
        rs = get_ruleset("agot")
        self.assertEqual(
            [5, 4, 2, 1, 0, 5], [rs.points(k) for k in ("win", "modified-win", "draw", "modified-loss", "loss", "bye")]
        )

    def test_end_of_round_example_modified_win(self) -> None:
        """End of Round Example: Dan 11 power, Emily 13 at time; Emily is closer to victory and
        "receives a modified win and Dan receives a modified loss": 4 and 1 points."""
        rows = lines(
            {
                "ruleset": "agot",
                "players": [{"id": "dan", "entry": 1}, {"id": "emily", "entry": 2}],
                "rounds": [{"number": 1, "matches": [m("dan", "emily", "modified-loss", "modified-win")]}],
            }
        )
        self.assertEqual((4, "1-0-0"), (rows["emily"]["points"], rows["emily"]["record"]))
        self.assertEqual((1, "0-1-0"), (rows["dan"]["points"], rows["dan"]["record"]))
        self.assertEqual(
            ["emily", "dan"],
            [
                r["player"]
                for r in standings_json(
                    load_event(
                        {
                            "ruleset": "agot",
                            "players": [{"id": "dan", "entry": 1}, {"id": "emily", "entry": 2}],
                            "rounds": [{"number": 1, "matches": [m("dan", "emily", "modified-loss", "modified-win")]}],
                        }
                    )
                )["standings"]
            ],
        )

    def test_intentional_draw_gives_two_points_each(self) -> None:
        """Intentional Draws: "each player receives 2 tournament points just as if they were to arrive at a natural draw"."""
        rows = lines(doc("ab", [m("a", "b", "draw", "draw")]))
        self.assertEqual([(2, "0-0-1")] * 2, [(rows[p]["points"], rows[p]["record"]) for p in "ab"])


class AgotDocumentTest(RejectsDocuments, unittest.TestCase):
    def test_win_against_modified_loss_is_rejected(self) -> None:
        """End of Round: a modified win goes with a modified loss, a win with a loss."""
        self.assertRejected(doc("ab", [m("a", "b", "win", "modified-loss")]), "rounds[0].matches[0].outcomes")
        self.assertRejected(doc("ab", [m("a", "b", "loss", "modified-win")]), "rounds[0].matches[0].outcomes")

    def test_double_loss_is_rejected(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "loss", "loss")]), "rounds[0].matches[0].outcomes")

    def test_draw_against_win_is_rejected(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "draw", "win")]), "rounds[0].matches[0].outcomes")

    def test_unknown_outcome_is_rejected(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "win-at-time", "loss")]), "rounds[0].matches[0].outcomes")

    def test_bye_needs_no_opponent(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "bye", "loss")]), "rounds[0].matches[0].outcomes")


class AgotTiebreakersTest(unittest.TestCase):
    def test_head_to_head_winner_ranks_above_despite_lower_sos(self) -> None:
        """Tiebreakers, Head-to-head first. p beat q; only they have 5 points; SoS p 31/12 < q 25/8.
        p: W q, L s (5 in 2); q: L p, W r (5 in 2); r: W v, L q, W w, W y (15 in 4);
        s: W p, draw t, modified loss to x (8 in 3)."""
        d = doc(
            "pqrstvwxy",
            [m("p", "q"), m("r", "v")],
            [m("s", "p"), m("q", "r")],
            [m("s", "t", "draw", "draw"), m("r", "w")],
            [m("x", "s", "modified-win", "modified-loss"), m("r", "y")],
        )
        self.assertEqual(Fraction(31, 12), exact(d, "sos-mean")["p"])
        self.assertEqual(Fraction(25, 8), exact(d, "sos-mean")["q"])
        self.assertEqual(["p", "q"], [pid for pid in ranking(d) if lines(d)[pid]["points"] == 5])

    def test_beat_all_of_three_ranks_first_and_the_rest_go_to_sos(self) -> None:
        """Head-to-head: "Any player that has played and defeated all other players in the group is ranked
        above the other players in the group." x beat y and z; y beat z, but head-to-head is not applied
        again to {y, z}: SoS decides, z (55/24) above y (35/18).
        x: W y, W z, L c (10 in 3); y: L x, W b, W z (10 in 3); z: W a, L x, L y, W d (10 in 4);
        d: W e, L z (5 in 2); c 5/1; a, b, e 0."""
        d = doc(
            "xyzabcde",
            [m("x", "y"), m("z", "a"), m("d", "e")],
            [m("x", "z"), m("y", "b")],
            [m("y", "z"), m("c", "x")],
            [m("z", "d")],
        )
        sos = exact(d, "sos-mean")
        self.assertEqual((Fraction(35, 18), Fraction(55, 24)), (sos["y"], sos["z"]))
        self.assertEqual(["x", "z", "y"], ranking(d)[:3])

    def test_no_head_to_head_when_nobody_beat_all_the_group(self) -> None:
        """A three-way tie where the winner of a-b never played c: SoS decides alone."""
        d = doc("abcdef", [m("a", "b"), m("c", "d"), m("e", "f")], [m("b", "e"), m("d", "a"), m("f", "c")])
        ctx = context(d)
        self.assertFalse(any(beat_all(ctx, p, ["a", "b", "c"]) for p in "abc"))

    def test_modified_win_is_a_defeat_and_a_draw_is_not(self) -> None:
        ctx = context(doc("abcd", [m("a", "b", "modified-win", "modified-loss"), m("c", "d", "draw", "draw")]))
        self.assertTrue(beat_all(ctx, "a", ["a", "b"]))
        self.assertFalse(beat_all(ctx, "c", ["c", "d"]) or beat_all(ctx, "d", ["c", "d"]))

    def test_bye_adds_nothing_to_sos(self) -> None:
        """Definitions, Bye: "receives a win and no addition to his or her strength of schedule".
        c: bye, then beat a (5 points in 2 rounds, ratio 5/2) -> SoS 5/2, not (5/2 + anything)/2."""
        d = doc("abc", [m("a", "b"), bye("c")], [m("c", "a"), bye("b")])
        self.assertEqual(Fraction(5, 2), exact(d, "sos-mean")["c"])
        # b had a bye too: opponents a only -> 5/2; a: opponents b (5/2) and c (10/2) -> 15/4.
        self.assertEqual((Fraction(5, 2), Fraction(15, 4)), (exact(d, "sos-mean")["b"], exact(d, "sos-mean")["a"]))

    def test_sos_is_points_per_round_of_each_opponent_averaged(self) -> None:
        """Tiebreakers, Strength of Schedule: opponent points / rounds that opponent played, summed and
        divided by opponents played. a: opponents b (5 in 2 -> 5/2) and c (4 in 2 -> 2) -> 9/4."""
        d = doc("abcd", [m("a", "b"), m("c", "d", "modified-win", "modified-loss")], [m("a", "c"), m("b", "d")])
        self.assertEqual(Fraction(9, 4), exact(d, "sos-mean")["a"])

    def test_extended_sos_is_mean_of_opponents_sos(self) -> None:
        """Extended Strength of Schedule: opponents' SoS added and divided by the opponents played.
        With the previous event: SoS b (a 10/2, d 1/2) = 11/4, c (d 1/2, a 10/2) = 11/4 -> ESoS a = 11/4."""
        d = doc("abcd", [m("a", "b"), m("c", "d", "modified-win", "modified-loss")], [m("a", "c"), m("b", "d")])
        self.assertEqual(Fraction(11, 4), exact(d, "agot-esos")["a"])

    def test_random_breaks_a_complete_tie_from_the_seed(self) -> None:
        """Tiebreakers, Random. a..d all 5 points, nobody beat all three others, SoS 5/2 each (every
        opponent 5 in 2), ESoS 5/2 each: the seeded random order decides, the same on every device."""
        d = doc("abcd", [m("a", "b"), m("c", "d")], [m("b", "c"), m("d", "a")], seed="esos")
        expected = sorted("abcd", key=lambda p: -draw_key("esos", "tiebreak", p))
        self.assertEqual(expected, ranking(d))

    def test_tiebreaker_order_and_reported_names(self) -> None:
        rs = get_ruleset("agot")
        self.assertEqual(("agot-h2h", "sos-mean", "agot-esos", "random"), rs.tiebreakers)
        self.assertEqual((("sos", "sos-mean"), ("esos", "agot-esos")), rs.reported)


class AgotDataTest(unittest.TestCase):
    def test_rounds_are_55_minutes_and_the_final_untimed(self) -> None:
        """Pairings: "rounds are 55 minutes long"; Single Elimination: "The game between the two finalists is untimed"."""
        rs = get_ruleset("agot")
        self.assertEqual((55, 0), (rs.time_limits["round_minutes"], rs.time_limits["final_round_minutes"]))
        self.assertIn("untimed", rs.policies["final-untimed"].rule)


class AgotGoldenTest(unittest.TestCase):
    def test_golden_joust(self) -> None:
        """tests/golden/agot-joust.json, 7 players, 3 Swiss rounds, by hand:

        R1 a bye; d MW e; g W c; b W f.  R2 f bye; a-b draw (intentional); d MW g; e W c.
        d drops after R2.  R3 a-e draw; b-g draw; f W c.
        Points: a 9, b 9, c 0, d 8, e 8, f 10, g 8.  Rounds played: d 2, others 3 (byes count).
        Points/round: a 3, b 3, c 0, d 4, e 8/3, f 10/3, g 8/3.
        SoS (byes are no opponent): a (b 3, e 8/3) = 17/6; b (f, a, g) = 3; c (g, e, f) = 26/9;
        d (e, g) = 8/3; e (d 4, c 0, a 3) = 7/3; f (b, c) = 3/2; g (c 0, d 4, b 3) = 7/3.
        ESoS: e (8/3, 26/9, 17/6) = 151/54; g (26/9, 8/3, 3) = 77/27.
        Order: f 10; b, a 9 (they drew: no head-to-head; SoS 3 > 17/6);
        d, g, e 8: d beat e and g (modified wins) -> first; g and e never met: SoS 7/3 each,
        ESoS 77/27 > 151/54 -> g, e; c 0.
        """
        with open(os.path.join(GOLDEN, "agot-joust.json"), encoding="utf-8") as f:
            event = load_event(json.load(f))
        with open(os.path.join(GOLDEN, "agot-joust.standings.json"), encoding="utf-8") as f:
            expected = json.load(f)
        self.assertEqual(expected, standings_json(event))
        self.assertEqual(["f", "b", "a", "d", "g", "e", "c"], [r["player"] for r in expected["standings"]])
        self.assertEqual(77 / 27, expected["standings"][4]["tiebreakers"]["esos"])


def random_event(seed: str, n: int, rounds: int) -> dict[str, Any]:
    """A plausible Joust: random pairings, all five results, byes, a drop."""
    return random_swiss_event(
        "agot",
        seed,
        n,
        rounds,
        [
            ("win", "loss"),
            ("loss", "win"),
            ("modified-win", "modified-loss"),
            ("modified-loss", "modified-win"),
            ("draw", "draw"),
        ],
    )


class AgotPropertiesTest(unittest.TestCase):
    def test_random_events_rank_uniquely_and_reproducibly(self) -> None:
        check_ranks_uniquely_and_reproducibly(self, lambda k: random_event(f"ag-{k}", 4 + k % 13, 3 + k % 4), "ag")

    def test_a_player_who_beat_all_the_tied_ranks_first_among_them(self) -> None:
        for k in range(25):
            event = load_event(random_event(f"ag-h2h-{k}", 9, 4))
            ctx = StandingsContext(event, get_ruleset("agot"))
            order = [s.player for s in compute_standings(event)]
            for pts in set(ctx.points.values()):
                group = [p for p in order if ctx.points[p] == pts]
                for p in group:
                    if len(group) > 1 and beat_all(ctx, p, group):
                        self.assertEqual(p, group[0])


if __name__ == "__main__":
    unittest.main()


class AgotHeadToHeadOnceTest(unittest.TestCase):
    """The Tiebreakers are "used in the following order": no return to head-to-head after SoS (module reading)."""

    def test_pair_left_tied_on_sos_goes_to_extended_sos_not_back_to_head_to_head(self) -> None:
        with open(os.path.join(GOLDEN, "agot-h2h-after-sos.json"), encoding="utf-8") as fh:
            doc = json.load(fh)
        ctx = context(doc)
        group = ["p01", "p03", "p07", "p08"]
        self.assertEqual(len({ctx.points[p] for p in group}), 1)
        self.assertFalse(any(beat_all(ctx, p, group) for p in group))
        sos, esos = ctx.metric("sos-mean"), ctx.metric("agot-esos")
        self.assertEqual(sos["p01"], sos["p08"])
        self.assertTrue(beat_all(ctx, "p01", ["p01", "p08"]))
        self.assertGreater(esos["p08"], esos["p01"])
        order = [s.player for s in compute_standings(load_event(doc))]
        self.assertLess(order.index("p08"), order.index("p01"))
        self.assertIsNone(get_ruleset("agot").two_tied_key)

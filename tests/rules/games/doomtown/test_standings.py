"""Doomtown standings (Doomtown Floor Rules 1.2, sections 3, 5, 7)."""

from __future__ import annotations

import json
import os
import unittest
from fractions import Fraction
from typing import Any

from shared_rules.games import get_ruleset
from shared_rules.run import load_event, standings_json
from shared_rules.standings import get_metric
from tests.rules.helpers import (
    GOLDEN,
    RejectsDocuments,
    bye,
    check_ordered_by,
    check_ranks_uniquely_and_reproducibly,
    event_doc,
    exact,
    lines,
    m,
    random_swiss_event,
    ranking,
)


def doc(ids: str, *rounds: list[dict[str, Any]], **dropped: int) -> dict[str, Any]:
    return event_doc("doomtown", ids, *rounds, **dropped)


class DoomtownPointsTest(unittest.TestCase):
    def test_match_points_are_five_three_zero(self) -> None:
        """3.H / 7.A: 5 for a win inside time, 3 for a win at or after time, 0 for a loss."""
        rs = get_ruleset("doomtown")
        self.assertEqual((5, 3, 0), (rs.points("win"), rs.points("win-at-time"), rs.points("loss")))

    def test_bye_is_a_win_inside_time_worth_five(self) -> None:
        """7.E: a bye is a match won 1-0, so 5 match points, on the record as a win."""
        row = lines(doc("abc", [m("a", "b", "win", "loss"), bye("c")]))["c"]
        self.assertEqual((5, "1-0-0"), (row["points"], row["record"]))

    def test_double_loss_is_a_loss_and_no_points_for_both(self) -> None:
        """3.D / 5.C: a result not reported in the window is a double loss."""
        rows = lines(doc("ab", [m("a", "b", "loss", "loss")]))
        self.assertEqual([(0, "0-1-0")] * 2, [(rows[p]["points"], rows[p]["record"]) for p in "ab"])

    def test_win_at_time_gives_three_and_counts_as_a_win(self) -> None:
        row = lines(doc("ab", [m("a", "b", "win-at-time", "loss")]))["a"]
        self.assertEqual((3, "1-0-0"), (row["points"], row["record"]))

    def test_pending_match_counts_for_nobody(self) -> None:
        d = doc("ab", [{"players": ["a", "b"]}])
        self.assertEqual({"a": 0, "b": 0}, {p: r["points"] for p, r in lines(d).items()})


class DoomtownDocumentTest(RejectsDocuments, unittest.TestCase):
    def test_draw_is_not_an_outcome(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "draw", "draw")]), "rounds[0].matches[0].outcomes")

    def test_two_winners_are_rejected(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "win", "win-at-time")]), "rounds[0].matches[0].outcomes")

    def test_bye_with_an_opponent_is_rejected(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "bye", "loss")]), "rounds[0].matches[0].outcomes")

    def test_win_without_opponent_is_rejected(self) -> None:
        self.assertRejected(doc("a", [{"players": ["a"], "outcomes": ["win"]}]), "rounds[0].matches[0].outcomes")

    def test_same_entry_twice_is_rejected(self) -> None:
        """7.D: roundup entry is the last tie break, so two players cannot share it."""
        d = doc("ab", [m("a", "b", "win", "loss")])
        d["players"][1]["entry"] = 1
        self.assertRejected(d, "players[1].entry")


class DoomtownTieBreaksTest(unittest.TestCase):
    def test_mwp_is_points_over_five_per_round_played(self) -> None:
        """7.B: accumulated match points / (5 x rounds played): 13 of 20 after W, WaT, L, W."""
        d = doc(
            "abcd",
            [m("a", "b", "win", "loss"), m("c", "d", "win", "loss")],
            [m("a", "c", "win-at-time", "loss"), m("b", "d", "win", "loss")],
            [m("a", "d", "loss", "win"), m("b", "c", "win", "loss")],
            [m("a", "b", "win", "loss"), m("c", "d", "win", "loss")],
        )
        self.assertEqual(Fraction(13, 20), exact(d, "mwp")["a"])

    def test_mwp_below_a_third_is_raised_to_033(self) -> None:
        """7.B: "If this number is lower than 0.33, use 0.33 instead" — 0/15 -> 0.33, 5/15 stays 1/3."""
        d = doc(
            "abcd",
            [m("a", "b", "win", "loss"), m("c", "d", "win", "loss")],
            [m("a", "c", "win", "loss"), m("b", "d", "win", "loss")],
            [m("a", "d", "win", "loss"), m("b", "c", "loss", "win")],
        )
        mwp = lines(d)
        self.assertEqual(0.33, mwp["d"]["tiebreakers"]["mwp"])
        self.assertEqual(1 / 3, mwp["b"]["tiebreakers"]["mwp"])

    def test_dropped_player_mwp_counts_only_rounds_they_played(self) -> None:
        """7.B "rounds played": d dropped after 2 rounds with 10 points (MWP 10/10 = 1) ranks above c,
        who has 10 points over 3 rounds (MWP 2/3)."""
        d = doc(
            "abcdef",
            [m("a", "b", "win", "loss"), m("c", "e", "win", "loss"), m("d", "f", "win", "loss")],
            [m("a", "c", "win", "loss"), m("d", "b", "win", "loss"), m("e", "f", "win", "loss")],
            [m("a", "e", "win", "loss"), m("c", "f", "win", "loss"), bye("b")],
            d=2,
        )
        rows = lines(d)
        self.assertEqual((10, 1.0, True), (rows["d"]["points"], rows["d"]["tiebreakers"]["mwp"], rows["d"]["dropped"]))
        self.assertEqual((10, 2 / 3), (rows["c"]["points"], rows["c"]["tiebreakers"]["mwp"]))
        self.assertEqual(["a", "d", "c", "b", "e", "f"][:3], ranking(d)[:3])

    def test_bye_is_no_opponent_in_omwp(self) -> None:
        """7.C / 7.E: c's OMWP is a's MWP alone (5/10 = 0.5), not averaged with a bye."""
        d = doc("abc", [m("a", "b", "win", "loss"), bye("c")], [m("a", "c", "loss", "win"), bye("b")])
        self.assertEqual(Fraction(1, 2), exact(d, "omwp")["c"])
        # b's opponents: a only (MWP 1/2); a's opponents: b (5/10) and c (10/10).
        self.assertEqual(Fraction(1, 2), exact(d, "omwp")["b"])
        self.assertEqual(Fraction(3, 4), exact(d, "omwp")["a"])

    def test_omwp_uses_floored_opponent_mwp(self) -> None:
        """7.C: "Use the match-win percentage definition listed above" — a 0-point opponent counts 0.33."""
        d = doc("ab", [m("a", "b", "win", "loss")])
        self.assertEqual(Fraction(33, 100), exact(d, "omwp")["a"])

    def test_player_with_only_byes_has_the_floor_as_omwp(self) -> None:
        d = doc("abc", [m("a", "b", "win", "loss"), bye("c")])
        self.assertEqual(Fraction(33, 100), exact(d, "omwp")["c"])

    def test_omwp_decides_before_entry(self) -> None:
        """7 order: OMWP before roundup entry. b (entry 2) faced the stronger schedule than a (entry 1)."""
        d = doc(
            "abcd",
            [m("a", "c", "win", "loss"), m("b", "d", "win", "loss")],
            [m("a", "b", "loss", "loss"), m("d", "c", "win", "loss")],
        )
        # MWP a, b, d 5/10, c 0.33. OMWP a (c 0.33, b 1/2) = 0.415; b (d 1/2, a 1/2) = 0.5;
        # d (b 1/2, c 0.33) = 0.415 -> b above a despite entry; a and d tie -> entry 1 before 4.
        self.assertEqual(["b", "a", "d", "c"], ranking(d))

    def test_roundup_entry_breaks_the_last_tie(self) -> None:
        """7.D: "determined based upon who entered the roundup first" — earlier entry ranks higher."""
        d = doc("abcd", [m("a", "b", "win", "loss"), m("c", "d", "win", "loss")])
        d["players"][0]["entry"], d["players"][2]["entry"] = 3, 1
        self.assertEqual(["c", "a", "b", "d"], ranking(d))

    def test_tiebreaker_order_and_reported_names(self) -> None:
        rs = get_ruleset("doomtown")
        self.assertEqual(("mwp", "omwp", "entry"), rs.tiebreakers)
        self.assertEqual((("mwp", "mwp"), ("omwp", "omwp")), rs.reported)
        self.assertEqual("Match-win %", get_metric("mwp").label)


class DoomtownDataTest(unittest.TestCase):
    def test_round_time_with_the_documents_d6_example(self) -> None:
        """3.A: "if the TO rolled a 4, rounds ... would be limited to 1 hour and 4 minutes";
        3.D: warning fixed at 55 minutes; 5-minute report window."""
        t = get_ruleset("doomtown").time_limits
        self.assertEqual(64, t["round_minutes"] + 4)
        self.assertLessEqual(4, t["secret_d6_sides"])
        self.assertEqual((55, 5), (t["warning_minute"], t["report_window_minutes"]))

    def test_policies_cite_the_floor_rules(self) -> None:
        policies = get_ruleset("doomtown").policies
        for key in ("unreported-result", "drop", "drop-after-cut", "re-entry", "bye"):
            self.assertIn("Doomtown Floor Rules", policies[key].source)
        self.assertIn("3.G", policies["drop-after-cut"].source)
        self.assertIn("bye", policies["drop-after-cut"].rule)


class DoomtownGoldenTest(unittest.TestCase):
    def test_golden_roundup(self) -> None:
        """tests/golden/doomtown-roundup.json, 8 players, 3 Swiss rounds, top 2 (5.B), by hand:

        R1 a-b W/L, c-d WaT/L, e-f double loss (unreported, 3.D), g-h W/L; h drops after R1.
        R2 a-g W/L, b-c W/L, d-e W/L, f bye.  R3 d-a WaT/L, c-g W/L, b-f W/L, e bye.
        Points: a 10, b 10, c 8, d 8, e 5, f 5, g 5, h 0.
        MWP (7.B; byes are played rounds won, h played 1): a 10/15, b 10/15, c 8/15, d 8/15,
        e f g 5/15 = 1/3 (not below 0.33), h 0/5 -> 0.33.
        OMWP (7.C, byes ignored): a (b 2/3, g 1/3, d 8/15) = 23/45; b (a 2/3, c 8/15, f 1/3) = 23/45;
        c (d 8/15, b 2/3, g 1/3) = 23/45; d (c 8/15, e 1/3, a 2/3) = 23/45;
        e (f 1/3, d 8/15) = 13/30; f (e 1/3, b 2/3) = 1/2; g (h 0.33, a 2/3, c 8/15) = 0.51;
        h (g 1/3) = 1/3.
        Swiss: a, b (same points, MWP, OMWP -> entry 1 before 2), c, d (entry), g .51, f .5, e .4333, h.
        Top 2 final (elimination round 4): b beats a -> b 1st, a 2nd, then Swiss order.
        """
        with open(os.path.join(GOLDEN, "doomtown-roundup.json"), encoding="utf-8") as f:
            event = load_event(json.load(f))
        with open(os.path.join(GOLDEN, "doomtown-roundup.standings.json"), encoding="utf-8") as f:
            expected = json.load(f)
        self.assertEqual(expected, standings_json(event))
        self.assertEqual(["b", "a", "c", "d", "g", "f", "e", "h"], [r["player"] for r in expected["standings"]])
        self.assertEqual(0.51, expected["standings"][4]["tiebreakers"]["omwp"])


def random_event(seed: str, n: int, rounds: int) -> dict[str, Any]:
    """A plausible Doomtown event: random pairings, byes, double losses, a drop."""
    return random_swiss_event(
        "doomtown",
        seed,
        n,
        rounds,
        [("win", "loss"), ("win-at-time", "loss"), ("loss", "win"), ("loss", "win-at-time"), ("loss", "loss")],
    )


class DoomtownPropertiesTest(unittest.TestCase):
    def test_random_events_rank_uniquely_and_reproducibly(self) -> None:
        check_ranks_uniquely_and_reproducibly(self, lambda k: random_event(f"dt-{k}", 5 + k % 12, 3 + k % 4), "dt")

    def test_standings_are_ordered_by_points_then_mwp_then_omwp(self) -> None:
        for k in range(10):
            check_ordered_by(self, random_event(f"dt-order-{k}", 9, 4), "mwp", "omwp")


if __name__ == "__main__":
    unittest.main()

"""``custom``: a store's house rules — its own points and tiebreakers picked from the registry."""

from __future__ import annotations

import json
import os
import unittest
from typing import Any

from shared_rules.errors import DocumentError
from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import draw_key
from shared_rules.standings import metric_keys

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir, "golden")


def m(a: str, b: str, oa: str = "win", ob: str = "loss", **kw: Any) -> dict[str, Any]:
    return {"players": [a, b], "outcomes": [oa, ob], **kw}


def doc(ids: str, *rounds: list[dict[str, Any]], seed: str = "t", **settings: Any) -> dict[str, Any]:
    return {
        "ruleset": "custom",
        "seed": seed,
        "settings": settings,
        "players": [{"id": p, "entry": i + 1} for i, p in enumerate(ids)],
        "rounds": [{"number": i + 1, "matches": ms} for i, ms in enumerate(rounds)],
    }


def rows(d: dict[str, Any]) -> list[dict[str, Any]]:
    return standings_json(load_event(d))["standings"]


class CustomPointsTest(unittest.TestCase):
    def test_house_points_table_is_used(self) -> None:
        d = doc(
            "abcd",
            [m("a", "b"), m("c", "d", "tie", "tie")],
            [m("b", "c"), {"players": ["a"], "outcomes": ["bye"]}],
            points={"win": 4, "tie": 2, "loss": 1, "bye": 4},
        )
        got = {r["player"]: (r["points"], r["record"]) for r in rows(d)}
        self.assertEqual({"a": (8, "2-0-0"), "b": (5, "1-1-0"), "c": (3, "0-1-1"), "d": (2, "0-0-1")}, got)

    def test_default_table_is_three_one_zero_with_a_bye_worth_a_win(self) -> None:
        got = {
            r["player"]: r["points"] for r in rows(doc("abc", [m("a", "b"), {"players": ["c"], "outcomes": ["bye"]}]))
        }
        self.assertEqual({"a": 3, "b": 0, "c": 3}, got)

    def test_house_outcome_words_are_accepted(self) -> None:
        d = doc("ab", [m("a", "b", "big-win", "small-loss")], points={"big-win": 5, "small-loss": 1, "bye": 5})
        self.assertEqual(
            [("a", 5, "1-0-0"), ("b", 1, "0-1-0")], [(r["player"], r["points"], r["record"]) for r in rows(d)]
        )


class CustomTiebreakersTest(unittest.TestCase):
    def test_sos_mean_then_random(self) -> None:
        """R1 a W b, c W d, e bye; R2 b W e, a-d double loss, c bye. a, b, e 3 points (2 rounds each).
        SoS: a (b 3/2, d 0) = 3/4; b (a 3/2, e 3/2) = 3/2; e (b 3/2) = 3/2 -> b and e above a,
        b and e still tied -> the seeded random order."""
        d = doc(
            "abcde",
            [m("a", "b"), m("c", "d"), {"players": ["e"], "outcomes": ["bye"]}],
            [m("b", "e"), m("d", "a", "loss", "loss"), {"players": ["c"], "outcomes": ["bye"]}],
            seed="sos",
            tiebreakers=["sos-mean", "random"],
        )
        got = rows(d)
        self.assertEqual({"sos-mean"}, set(got[0]["tiebreakers"]))
        self.assertEqual(
            {"a": 0.75, "b": 1.5, "e": 1.5},
            {r["player"]: r["tiebreakers"]["sos-mean"] for r in got if r["points"] == 3},
        )
        be = sorted("be", key=lambda p: -draw_key("sos", "tiebreak", p))
        self.assertEqual(["c", *be, "a", "d"], [r["player"] for r in got])

    def test_mwp_omwp_entry_use_the_house_maximum(self) -> None:
        """MWP = points / (max points per round x rounds played): with a 3-point win, 3 of 6 is 1/2.
        b's OMWP: a (6/6 = 1) and d (0 -> 0.33): 0.665."""
        d = doc("abcd", [m("a", "b"), m("c", "d")], [m("a", "c"), m("b", "d")], tiebreakers=["mwp", "omwp", "entry"])
        got = {r["player"]: r["tiebreakers"] for r in rows(d)}
        self.assertEqual({"mwp": 0.5, "omwp": 0.665}, got["b"])
        self.assertEqual(1.0, got["a"]["mwp"])

    def test_random_alone_follows_the_seed(self) -> None:
        d = doc("abcd", [m("a", "b", "tie", "tie"), m("c", "d", "tie", "tie")], seed="house")
        expected = sorted("abcd", key=lambda p: -draw_key("house", "tiebreak", p))
        self.assertEqual(expected, [s.player for s in compute_standings(load_event(d))])

    def test_other_games_metrics_can_be_picked(self) -> None:
        """Head-to-head (AGoT) and Struggle Cards (Shatterpoint) are registry keys like any other."""
        for key in ("agot-h2h", "agot-esos", "shatterpoint-struggle", "shatterpoint-wounds", "mwp", "omwp", "sos-mean"):
            self.assertIn(key, metric_keys())
        d = doc(
            "abc",
            [
                m("a", "b", stats=[{"struggle": 1, "wounds": 2}, {"struggle": 3, "wounds": 4}]),
                {"players": ["c"], "outcomes": ["bye"]},
            ],
            tiebreakers=["shatterpoint-struggle", "agot-h2h", "random"],
        )
        got = {r["player"]: r["tiebreakers"] for r in rows(d)}
        self.assertEqual({"a": 1, "b": 3, "c": 2}, {p: t["shatterpoint-struggle"] for p, t in got.items()})

    def test_unknown_tiebreaker_names_its_index(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(doc("ab", [m("a", "b")], tiebreakers=["sos-mean", "coin-flip"]))
        self.assertEqual("settings.tiebreakers[1]", caught.exception.path)
        self.assertIn("coin-flip", str(caught.exception))

    def test_tiebreakers_must_be_a_list_of_keys(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(doc("ab", [m("a", "b")], tiebreakers="sos-mean"))
        self.assertEqual("settings.tiebreakers", caught.exception.path)


class CustomDocumentTest(unittest.TestCase):
    def test_unknown_outcome_is_rejected(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(doc("ab", [m("a", "b", "draw", "draw")], points={"win": 3, "tie": 1, "loss": 0}))
        self.assertEqual("rounds[0].matches[0].outcomes", caught.exception.path)
        self.assertIn("'draw'", str(caught.exception))

    def test_non_numeric_points_are_rejected(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(doc("ab", [m("a", "b")], points={"win": "three", "loss": 0}))
        self.assertEqual("settings.points.win", caught.exception.path)

    def test_bye_needs_a_one_player_match(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(doc("ab", [m("a", "b", "bye", "loss")]))
        self.assertEqual("rounds[0].matches[0].outcomes", caught.exception.path)


class CustomGoldenTest(unittest.TestCase):
    def test_golden_house_rules(self) -> None:
        """tests/golden/custom-house-rules.json: win 3, tie 1, loss 0, bye 3; tiebreakers mwp, omwp, entry.

        R1 a W b, c-d tie, e W f.  R2 a W c, b W e, d-f tie; f drops after R2.  R3 a-e tie, b W d, c bye.
        Points: a 7, b 6, c 4, d 2, e 4, f 1.  MWP over 3 per round: a 7/9, b 2/3, c 4/9, e 4/9,
        d 2/9 -> 0.33, f 1/6 -> 0.33 (2 rounds).
        c and e tie on points and MWP; OMWP (byes ignored): c (d 0.33, a 7/9) = 997/1800 ~ 0.5539,
        e (f 0.33, b 2/3, a 7/9) = 1597/2700 ~ 0.5915 -> e above c.  Order: a, b, e, c, d, f.
        """
        with open(os.path.join(GOLDEN, "custom-house-rules.json"), encoding="utf-8") as f:
            event = load_event(json.load(f))
        with open(os.path.join(GOLDEN, "custom-house-rules.standings.json"), encoding="utf-8") as f:
            expected = json.load(f)
        self.assertEqual(expected, standings_json(event))
        self.assertEqual(["a", "b", "e", "c", "d", "f"], [r["player"] for r in expected["standings"]])
        self.assertEqual(1597 / 2700, expected["standings"][2]["tiebreakers"]["omwp"])


if __name__ == "__main__":
    unittest.main()

"""Star Trek ratings from event histories (OP Guide 1, 4.1, 4.4, 7.5.1, 8, 11).

The Guide has no worked rating example (Sections 8 and 11 give the start, the
range, the kinds of rating and the k-values only), so the figures here are
worked by hand from Elo's formula; see shared_rules/games/startrek/ratings/__init__.py.
unittest only: runs under CPython and inside Pyodide.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import unittest
from typing import Any

from shared_rules.cli import main
from shared_rules.errors import RulesError
from shared_rules.games.startrek.ratings import compute_ratings
from shared_rules.run import load_event
from tests.rules.helpers import json_file

FW, FL, MW, ML, TT = "full-win", "full-loss", "modified-win", "modified-loss", "true-tie"


def game(table: int, a: str, b: str, oa: str = FW, ob: str = FL, **extra: Any) -> dict[str, Any]:
    scores = {FW: [100, 40], MW: [60, 35]}.get(oa, [35, 60] if oa in (FL, ML) else [50, 50])
    return {"table": table, "players": [a, b], "outcomes": [oa, ob], "scores": scores, **extra}


def solo(a: str, outcome: str) -> dict[str, Any]:
    return {"players": [a], "outcomes": [outcome]}


def event(
    ids: str,
    *rounds: list[dict[str, Any]],
    ruleset: str = "startrek-2e",
    rating: Any = "default",
    name: str = "",
    players: list[dict[str, Any]] | None = None,
    **settings: Any,
) -> dict[str, Any]:
    if rating == "default":
        rating = {"sanctioned": True, "level": 2, "format": "constructed"}
    if rating is not None:
        settings["rating"] = rating
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "name": name,
        "seed": "r",
        "settings": settings,
        "players": players or [{"id": p, "entry": i + 1} for i, p in enumerate(ids)],
        "rounds": [{"number": i + 1, "matches": ms} for i, ms in enumerate(rounds)],
    }


def ratings(*docs: dict[str, Any]) -> dict[str, Any]:
    return compute_ratings([load_event(d) for d in docs])


def rating(out: dict[str, Any], player: str, ruleset: str = "startrek-2e") -> dict[str, int]:
    return out["ratings"][ruleset][player]


class KByLevelTest(unittest.TestCase):
    def test_a_win_between_new_players_moves_half_of_k(self) -> None:
        # Star Trek OP Guide 11: k 28 / 40 / 52 / 64 at levels 2 / 3 / 4 / 5; equal ratings expect 1/2.
        for level, k in ((2, 28), (3, 40), (4, 52), (5, 64)):
            with self.subTest(level=level):
                out = ratings(
                    event(
                        "ab", [game(1, "a", "b")], rating={"sanctioned": True, "level": level, "format": "constructed"}
                    )
                )
                self.assertEqual(1500 + k // 2, rating(out, "a")["constructed"])
                self.assertEqual(1500 - k // 2, rating(out, "b")["constructed"])
                self.assertEqual(k, out["events"][0]["k"])

    def test_a_level_the_guide_does_not_list_needs_k(self) -> None:
        with self.assertRaises(RulesError) as caught:
            ratings(event("ab", [game(1, "a", "b")], rating={"sanctioned": True, "level": 1, "format": "sealed"}))
        self.assertIn("settings.rating.k", str(caught.exception))
        out = ratings(
            event("ab", [game(1, "a", "b")], rating={"sanctioned": True, "level": 1, "k": 16, "format": "sealed"})
        )
        self.assertEqual(1508, rating(out, "a")["sealed"])

    def test_k_contradicting_the_guide_is_refused(self) -> None:
        with self.assertRaises(RulesError) as caught:
            ratings(
                event(
                    "ab", [game(1, "a", "b")], rating={"sanctioned": True, "level": 4, "k": 50, "format": "constructed"}
                )
            )
        self.assertIn("settings.rating.k: level 4 has k-value 52", str(caught.exception))


class EloTest(unittest.TestCase):
    def test_modified_win_and_true_tie(self) -> None:
        out = ratings(event("abcd", [game(1, "a", "b", MW, ML), game(2, "c", "d", TT, TT)]))
        self.assertEqual((1514, 1486, 1500, 1500), tuple(rating(out, p)["constructed"] for p in "abcd"))

    def test_an_event_uses_the_ratings_players_brought(self) -> None:
        # Event 1 (L2): a beats b, c beats d -> a, c 1514; b, d 1486.
        # Event 2 (L3): a (1514) beats d (1486), then a beats c (1514), both scored from the ratings at the
        # start of event 2: E(a v d) = 1/(1+10^(-28/400)) = 0.540250, E(a v c) = 0.5;
        # 40 x ((1 - 0.540250) + (1 - 0.5)) = 38.39 -> a 1552; d: 40 x (0 - 0.459750) = -18.39 -> 1468;
        # c: 40 x (0 - 0.5) = -20 -> 1494.
        first = event("abcd", [game(1, "a", "b"), game(2, "c", "d")], name="one")
        second = event(
            "abcd",
            [game(1, "a", "d"), game(2, "b", "c", TT, TT)],
            [game(1, "a", "c"), game(2, "b", "d", TT, TT)],
            rating={"sanctioned": True, "level": 3, "format": "constructed"},
            name="two",
        )
        out = ratings(first, second)
        got = {p: rating(out, p)["constructed"] for p in "abcd"}
        # b (1486): tie v c (1514): 0.5 - 0.459750 = +0.040250; tie v d (1486): 0 -> 40 x 0.04025 = 1.61 -> +2.
        # c: tie v b: 0.5 - 0.540250 = -0.040250, loss v a: -0.5 -> 40 x -0.54025 = -21.61 -> -22 -> 1492.
        # d: loss v a -0.459750, tie v b 0 -> -18.39 -> -18 -> 1468.
        self.assertEqual({"a": 1552, "b": 1488, "c": 1492, "d": 1468}, got)
        changes = out["events"][1]["changes"]
        self.assertEqual({"before": 1514, "after": 1552, "change": 38}, changes["a"]["constructed"])
        self.assertEqual(2, changes["a"]["games"])
        self.assertEqual(3, rating(out, "a")["games"])

    def test_separate_constructed_and_sealed_and_an_overall_over_both(self) -> None:
        constructed = event("ab", [game(1, "a", "b")])
        draft = event("ab", [game(1, "b", "a")], rating={"sanctioned": True, "level": 2, "format": "draft"})
        out = ratings(constructed, draft)
        a, b = rating(out, "a"), rating(out, "b")
        # Sealed (draft counts as sealed, 4.1) starts again at 1500; overall sees both games:
        # after game 1 a 1514 / b 1486; game 2 b (1486) beats a (1514): E_b = 0.459750, 28 x 0.540250 = 15.13.
        self.assertEqual((1514, 1486, 1499), (a["constructed"], a["sealed"], a["overall"]))
        self.assertEqual((1486, 1514, 1501), (b["constructed"], b["sealed"], b["overall"]))
        self.assertEqual((2, 1, 1), (a["games"], a["constructed_games"], a["sealed_games"]))
        self.assertEqual("sealed", out["events"][1]["format"])
        self.assertEqual({"games", "sealed", "overall"}, set(out["events"][1]["changes"]["a"]))

    def test_each_game_has_its_own_ratings(self) -> None:
        out = ratings(
            event("ab", [game(1, "a", "b")], ruleset="startrek-1e"),
            event("ab", [game(1, "b", "a")], ruleset="startrek-2e"),
        )
        self.assertEqual(1514, out["ratings"]["startrek-1e"]["a"]["constructed"])
        self.assertEqual(1486, out["ratings"]["startrek-2e"]["a"]["constructed"])

    def test_clamped_to_0_and_3000(self) -> None:
        huge = {"sanctioned": True, "level": 1, "k": 4000, "format": "constructed"}
        out = ratings(event("ab", [game(1, "a", "b")], rating=huge))
        self.assertEqual((3000, 0), (rating(out, "a")["constructed"], rating(out, "b")["constructed"]))
        self.assertEqual(1500, out["events"][0]["changes"]["a"]["constructed"]["change"])
        out = ratings(event("ab", [game(1, "a", "b")], rating=huge), event("ab", [game(1, "a", "b")], rating=huge))
        self.assertEqual((3000, 0), (rating(out, "a")["constructed"], rating(out, "b")["constructed"]))
        self.assertEqual(0, out["events"][1]["changes"]["a"]["constructed"]["change"])

    def test_rating_id_follows_a_person_across_events(self) -> None:
        one = event(
            "",
            [game(1, "p1", "p2")],
            players=[{"id": "p1", "entry": 1, "rating_id": "kirk"}, {"id": "p2", "entry": 2, "rating_id": "khan"}],
        )
        two = event(
            "",
            [game(1, "p7", "p3")],
            players=[{"id": "p3", "entry": 1, "rating_id": "kirk"}, {"id": "p7", "entry": 2, "rating_id": "khan"}],
        )
        out = ratings(one, two)
        self.assertEqual({"khan", "kirk"}, set(out["ratings"]["startrek-2e"]))
        # kirk 1514 loses to khan 1486: 28 x (0 - 0.540250) = -15.13 -> 1499.
        self.assertEqual(1499, rating(out, "kirk")["constructed"])
        self.assertEqual(2, rating(out, "kirk")["games"])

    def test_tribbles_pod_pairings_by_score(self) -> None:
        pod = {
            "table": 1,
            "players": ["a", "b", "c", "d"],
            "outcomes": ["win", "loss", "loss", "loss"],
            "scores": [9000, 4000, 4000, 1000],
        }
        out = ratings(event("abcd", [pod], ruleset="tribbles"))
        # Each pairing weighs 1/3 of a game at k 28: a beats 3 -> 28 x 3 x 0.5 / 3 = 14; b: tie c, beats d,
        # loses to a -> 28 x (0 + 0.5 - 0.5) / 3 = 0; d loses 3 -> -14.
        got = {p: rating(out, p, "tribbles")["constructed"] for p in "abcd"}
        self.assertEqual({"a": 1514, "b": 1500, "c": 1500, "d": 1486}, got)


class ExcludedTest(unittest.TestCase):
    def test_byes_missed_games_and_games_not_played_are_not_rated(self) -> None:
        doc = event(
            "abcdefgh",
            [
                game(1, "a", "b"),
                game(2, "c", "d", FW, "missed-game"),
                game(3, "e", "f", "bye", FL),
                solo("g", "earned-bye"),
                solo("h", "missed-game"),
            ],
            [
                game(1, "a", "c", "bye", "bye"),
                game(2, "b", "d", "missed-game", "missed-game"),
                {"table": 4, "players": ["f", "e"]},
                {**game(5, "h", "g"), "disputed": True},
            ],
        )
        doc["players"][6]["earned_byes"] = 1
        out = ratings(doc)
        self.assertEqual({"a", "b"}, set(out["events"][0]["changes"]))
        for p in "cdefgh":
            self.assertEqual((1500, 0), (rating(out, p)["constructed"], rating(out, p)["games"]), p)

    def test_a_drop_leaves_missed_games_that_are_not_rated(self) -> None:
        doc = event("abc", [game(1, "a", "b"), solo("c", "bye")], [game(1, "a", "c"), solo("b", "missed-game")])
        doc["players"][1]["dropped_after"] = 1
        out = ratings(doc)
        self.assertEqual(1, rating(out, "b")["games"])
        self.assertEqual(1486, rating(out, "b")["constructed"])

    def test_unsanctioned_unrated_scenarios_and_unknown_events_are_not_rated(self) -> None:
        base = {"level": 2, "format": "constructed"}
        cases = {
            "no settings.rating": None,
            "not sanctioned": {**base, "sanctioned": False},
            "listed as unrated": {**base, "sanctioned": True, "rated": False},
            "4.4.7": {**base, "sanctioned": True, "scenario": "public-play-testing"},
            "4.4.1": {**base, "sanctioned": True, "scenario": "deck-lottery"},
            "unsanctioned and unrated (Star Trek OP Guide 4.4.8)": {
                **base,
                "sanctioned": True,
                "scenario": "biermeister",
            },
        }
        for reason, setting in cases.items():
            with self.subTest(reason=reason):
                out = ratings(event("ab", [game(1, "a", "b")], rating=setting))
                row = out["events"][0]
                self.assertFalse(row["rated"])
                self.assertIn(reason, row["reason"])
                self.assertEqual({}, out["ratings"])

    def test_bad_settings_name_the_field(self) -> None:
        cases = {
            "settings.rating.level": {"sanctioned": True, "format": "constructed"},
            "settings.rating.format": {"sanctioned": True, "level": 2},
            "settings.rating.format: 'limited'": {"sanctioned": True, "level": 2, "format": "limited"},
            "settings.rating.scenario": {"sanctioned": True, "level": 2, "format": "sealed", "scenario": "poker"},
            "settings.rating.sanctioned": {"sanctioned": "yes", "level": 2, "format": "sealed"},
            "settings.rating.date": {"sanctioned": True, "level": 2, "format": "sealed", "date": "5 May"},
            "settings.rating: expected an object": "rated",
        }
        for text, setting in cases.items():
            with self.subTest(text=text), self.assertRaises(RulesError) as caught:
                ratings(event("ab", [game(1, "a", "b")], rating=setting))
            self.assertIn(text, str(caught.exception))

    def test_other_games_have_no_ratings(self) -> None:
        doc = {"ruleset": "agot", "players": [{"id": "a", "entry": 1}], "rounds": []}
        with self.assertRaises(RulesError) as caught:
            ratings(doc)
        self.assertIn("'agot' has no ratings", str(caught.exception))

    def test_events_must_come_oldest_first(self) -> None:
        later = event(
            "ab",
            [game(1, "a", "b")],
            name="later",
            rating={"sanctioned": True, "level": 2, "format": "sealed", "date": "2024-06-01"},
        )
        earlier = event(
            "ab",
            [game(1, "a", "b")],
            name="earlier",
            rating={"sanctioned": True, "level": 2, "format": "sealed", "date": "2024-05-01"},
        )
        with self.assertRaises(RulesError) as caught:
            ratings(later, earlier)
        self.assertIn("earlier: settings.rating.date: 2024-05-01 is before later's 2024-06-01", str(caught.exception))
        self.assertEqual("2024-06-01", ratings(earlier, later)["events"][1]["date"])


def _history(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    ids = [f"x{i:02d}" for i in range(24)]
    docs = []
    for number in range(6):
        field = rng.sample(ids, 12)
        rounds = []
        for _ in range(4):
            rng.shuffle(field)
            rounds.append(
                [
                    game(t + 1, field[2 * t], field[2 * t + 1], *rng.choice([(FW, FL), (MW, ML), (TT, TT)]))
                    for t in range(6)
                ]
            )
        docs.append(
            event(
                "",
                *rounds,
                players=[{"id": p, "entry": i + 1} for i, p in enumerate(field)],
                rating={"sanctioned": True, "level": 2 + number % 4, "format": ("constructed", "sealed")[number % 2]},
                name=f"e{number}",
            )
        )
    return docs


class DeterminismTest(unittest.TestCase):
    def test_the_same_history_in_any_document_order_gives_the_same_ratings(self) -> None:
        docs = _history(7)
        expected = ratings(*docs)
        rng = random.Random(99)
        for _ in range(5):
            shuffled = copy.deepcopy(docs)
            for doc in shuffled:
                rng.shuffle(doc["players"])
                rng.shuffle(doc["rounds"])
                for rnd in doc["rounds"]:
                    rng.shuffle(rnd["matches"])
                    for match in rnd["matches"]:
                        if rng.random() < 0.5:
                            for key in ("players", "outcomes", "scores"):
                                match[key].reverse()
            self.assertEqual(expected, ratings(*shuffled))
        self.assertEqual(json.dumps(expected), json.dumps(ratings(*docs)))

    def test_a_known_history_gives_known_ratings(self) -> None:
        # Pins the whole arithmetic (same figures under CPython and Pyodide).
        out = ratings(*_history(7))["ratings"]["startrek-2e"]
        total = sum(row["overall"] for row in out.values())
        self.assertEqual(24, len(out))
        self.assertEqual(PINNED, [out[p]["overall"] for p in sorted(out)][:8] + [total])


PINNED = [1445, 1587, 1540, 1399, 1564, 1454, 1555, 1475, 35996]


class CommandLineTest(unittest.TestCase):
    def _file(self, doc: dict[str, Any]) -> str:
        return json_file(self, doc)

    def _cli(self, *argv: str) -> tuple[int, Any, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, json.loads(out.getvalue()) if out.getvalue() else None, err.getvalue()

    def test_ratings_command_prints_json(self) -> None:
        one = self._file(event("ab", [game(1, "a", "b")]))
        two = self._file(event("ab", [game(1, "a", "b")], rating=None))
        code, out, err = self._cli("ratings", one, two)
        self.assertEqual((0, ""), (code, err))
        self.assertEqual(1514, out["ratings"]["startrek-2e"]["a"]["constructed"])
        self.assertEqual([one, two], [row["event"] for row in out["events"]])
        self.assertEqual([True, False], [row["rated"] for row in out["events"]])

    def test_a_bad_document_is_one_line_and_status_2(self) -> None:
        bad = self._file(
            event("ab", [game(1, "a", "b")], rating={"sanctioned": True, "level": 9, "format": "constructed"})
        )
        code, out, err = self._cli("ratings", bad)
        self.assertEqual((2, None), (code, out))
        self.assertEqual(1, len(err.strip().splitlines()))
        self.assertIn(f"{bad}: settings.rating.k: level 9 has no k-value", err)
        code, out, err = self._cli("ratings")
        self.assertEqual(2, code)
        self.assertEqual(1, len(err.strip().splitlines()))


if __name__ == "__main__":
    unittest.main()

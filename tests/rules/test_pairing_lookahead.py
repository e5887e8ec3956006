"""Star Trek OP Guide 7.6, criterion 5: "ability to pair future rounds" (the pairing lookahead)."""

from __future__ import annotations

import copy
import unittest
from typing import Any
from unittest import mock

from shared_rules.games import games, policy_for
from shared_rules.pairing import lookahead
from shared_rules.pairing.lookahead import Future, choose, future_cost, may_fail
from shared_rules.pairing.next_round import PairedRound
from shared_rules.run import load_event, pair_next_round

_SCORES = {"full-win": 100, "full-loss": 30, "true-tie": 50}

# Rounds 1-2 of the hand-built event: together they form the cycle p1-p2-p3-p4-p5-p6-p1.
_ROUNDS_1_2 = [[("p1", "p2"), ("p3", "p4"), ("p5", "p6")], [("p2", "p3"), ("p4", "p5"), ("p6", "p1")]]
# The three "diagonals": paired in round 3 they leave two triangles, p1-p3-p5 and p2-p4-p6,
# and round 4 cannot be paired without rematches.
_DIAGONALS = frozenset({frozenset(("p1", "p4")), frozenset(("p2", "p5")), frozenset(("p3", "p6"))})


def trek_doc(
    seed: str,
    results: list[list[tuple[str, str]]] | None = None,
    players: int = 6,
    rounds: int = 5,
    ruleset: str = "startrek-1e",
) -> dict[str, Any]:
    """A Star Trek event with rounds 1-2 fixed (``results``: outcomes per match, true ties by default)."""
    doc: dict[str, Any] = {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "seed": seed,
        "settings": {"rounds": rounds},
        "players": [{"id": f"p{i}", "name": f"Player {i}", "entry": i} for i in range(1, players + 1)],
        "rounds": [],
    }
    for number, matches in enumerate(_ROUNDS_1_2, start=1):
        rows = []
        for table, pair in enumerate(matches, start=1):
            outcomes = results[number - 1][table - 1] if results else ("true-tie", "true-tie")
            rows.append(
                {
                    "table": table,
                    "players": list(pair),
                    "outcomes": list(outcomes),
                    "scores": [_SCORES[o] for o in outcomes],
                }
            )
        doc["rounds"].append({"number": number, "stage": "swiss", "matches": rows})
    return doc


def report(doc: dict[str, Any], paired: PairedRound, winners_first: bool = False) -> None:
    """Append the paired round with every game a true tie (or a full win for the first player)."""
    rows = []
    for m in paired.to_json()["matches"]:
        if len(m["players"]) == 1:
            rows.append({"players": m["players"], "outcomes": m["outcomes"]})
            continue
        outcomes = ["full-win", "full-loss"] if winners_first else ["true-tie", "true-tie"]
        rows.append(
            {
                "table": m["table"],
                "players": m["players"],
                "outcomes": outcomes,
                "scores": [_SCORES[o] for o in outcomes],
            }
        )
    doc["rounds"].append({"number": paired.number, "stage": paired.stage, "matches": rows})


def plain(doc: dict[str, Any]) -> PairedRound:
    """The next round without the lookahead (criteria 1-4 only)."""
    with mock.patch.object(lookahead, "may_fail", return_value=False):
        return pair_next_round(load_event(doc))


def pair_set(paired: PairedRound) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(g) for g in paired.pairs() if len(g) == 2)


class HandBuiltEventTest(unittest.TestCase):
    """Six players, five rounds: only some round-3 pairings let rounds 4 and 5 be paired."""

    SEED = "trek-0"  # a seed whose plain round 3 is the three diagonals

    def test_plain_best_pairing_leaves_round_four_unpairable(self) -> None:
        doc = trek_doc(self.SEED)
        third = plain(doc)
        self.assertEqual(pair_set(third), _DIAGONALS)
        report(doc, third)
        fourth = plain(doc)
        byes = [g for g in fourth.pairs() if len(g) == 1]
        self.assertTrue(byes, "round 4 should have been left with only rematches")
        self.assertTrue(
            any("no pairing without a rematch exists" in w and "would be rematches" in w for w in fourth.warnings)
        )

    def test_lookahead_avoids_it_and_the_event_finishes_without_rematch_or_bye(self) -> None:
        doc = trek_doc(self.SEED)
        third = pair_next_round(load_event(doc))
        self.assertNotEqual(pair_set(third), _DIAGONALS)
        self.assertEqual(third.warnings, ())
        met = {frozenset(p) for rnd in _ROUNDS_1_2 for p in rnd}
        for number in (3, 4, 5):
            paired = third if number == 3 else pair_next_round(load_event(doc))
            self.assertEqual(paired.number, number)
            self.assertEqual(paired.warnings, ())
            groups = paired.pairs()
            self.assertTrue(all(len(g) == 2 for g in groups), groups)
            for g in groups:
                self.assertNotIn(frozenset(g), met)
                met.add(frozenset(g))
            report(doc, paired)
        self.assertEqual(len(met), 15)  # a full round robin

    def test_every_seed_keeps_the_future_pairable(self) -> None:
        for i in range(12):
            with self.subTest(seed=i):
                third = pair_next_round(load_event(trek_doc(f"trek-{i}")))
                self.assertNotEqual(pair_set(third), _DIAGONALS)
                self.assertEqual(third.warnings, ())

    def test_lookahead_never_trades_victory_point_similarity(self) -> None:
        # p1, p4 on 2 wins; p2, p5 on 1; p3, p6 on none: the diagonals are the only pairing of equal
        # totals (criteria 2-3 come first), so they stay, with a warning about the future.
        win, loss = ("full-win", "full-loss"), ("full-loss", "full-win")
        results = [[win, loss, win], [win, win, loss]]
        doc = trek_doc(self.SEED, results)
        third = pair_next_round(load_event(doc))
        self.assertEqual(pair_set(third), _DIAGONALS)
        self.assertEqual(third.pairs(), plain(doc).pairs())
        self.assertEqual(len(third.warnings), 1)
        self.assertIn("criterion 5", third.warnings[0])


class ImpossibleFutureTest(unittest.TestCase):
    def test_four_players_four_rounds_warns_and_keeps_the_best_pairing(self) -> None:
        # Four players have only three rematch-free rounds between them, whatever the pairings.
        doc = trek_doc("four", players=4, rounds=4, ruleset="startrek-2e")
        doc["rounds"] = [
            {
                "number": 1,
                "stage": "swiss",
                "matches": [
                    {"table": 1, "players": ["p1", "p2"], "outcomes": ["full-win", "full-loss"], "scores": [100, 30]},
                    {"table": 2, "players": ["p3", "p4"], "outcomes": ["full-win", "full-loss"], "scores": [100, 30]},
                ],
            }
        ]
        second = pair_next_round(load_event(doc))
        self.assertEqual(second.pairs(), plain(doc).pairs())
        self.assertEqual(len(second.warnings), 1)
        self.assertIn("may not be pairable", second.warnings[0])
        self.assertIn("remaining 2 round(s)", second.warnings[0])

    def test_future_cost_counts_stranded_players_and_second_byes(self) -> None:
        ids = ("a", "b", "c")
        # Three players, two more rounds: a and b met now, c sits out now; then a-c (b out), b-c (a out).
        self.assertEqual(future_cost(Future(ids, {}, {}, 2, "s", ()), [("a", "b")], ["c"]), (0, 0))
        # A third round after that: someone needs a second bye and only rematches are left.
        self.assertEqual(future_cost(Future(ids, {}, {}, 3, "s", ()), [("a", "b")], ["c"]), (2, 1))


class DeterminismTest(unittest.TestCase):
    def test_same_document_same_round(self) -> None:
        doc = trek_doc("det")
        first = pair_next_round(load_event(doc)).to_json()
        for _ in range(3):
            self.assertEqual(pair_next_round(load_event(copy.deepcopy(doc))).to_json(), first)

    def test_choose_is_deterministic_and_starts_from_the_best_pairing(self) -> None:
        ids = tuple(f"p{i}" for i in range(1, 7))
        opponents: dict[str, frozenset[str]] = {pid: frozenset() for pid in ids}
        for rnd in _ROUNDS_1_2:
            for a, b in rnd:
                opponents[a] |= {b}
                opponents[b] |= {a}
        future = Future(ids, opponents, {}, 2, "s", ("t",))
        options = [
            sorted(_DIAGONALS, key=sorted),
            [frozenset(("p1", "p4")), frozenset(("p2", "p6")), frozenset(("p3", "p5"))],
        ]
        calls: list[frozenset[frozenset[str]]] = []

        def solve(bye: str | None, banned: frozenset[frozenset[str]]) -> tuple[list[tuple[str, str]], list[str]]:
            calls.append(banned)
            for option in options:
                if not banned & set(option):
                    return [tuple(sorted(p)) for p in option], []  # type: ignore[misc]
            return [], list(ids)

        results = [choose(future, [None], solve, lambda pairs, left: len(left)) for _ in range(2)]
        self.assertEqual(results[0], results[1])
        self.assertEqual(calls[0], frozenset())
        self.assertEqual(frozenset(frozenset(p) for p in results[0].pairs), frozenset(options[1]))
        self.assertEqual(results[0].cost, (0, 0))


class GuardTest(unittest.TestCase):
    def test_only_star_trek_looks_ahead(self) -> None:
        self.assertTrue(policy_for("startrek-1e").future_lookahead)
        self.assertTrue(policy_for("startrek-2e").future_lookahead)
        for game in games():
            if not game.id.startswith("startrek"):
                self.assertFalse(game.pairing.future_lookahead, game.id)

    def test_guard_threshold(self) -> None:
        ids = tuple(f"p{i:02d}" for i in range(16))
        # 15 possible opponents each, 7 more rounds: at least 8 left every round (Dirac), safe.
        self.assertFalse(may_fail(Future(ids, {}, {}, 7, "s", ())))
        self.assertTrue(may_fail(Future(ids, {}, {}, 8, "s", ())))
        self.assertFalse(may_fail(Future(ids, {}, {}, 0, "s", ())))
        # An odd field also needs enough players without a bye.
        odd = ids[:15]
        self.assertFalse(may_fail(Future(odd, {}, {}, 3, "s", ())))
        had = {pid: 1 for pid in odd[:12]}
        self.assertTrue(may_fail(Future(odd, {}, had, 3, "s", ())))

    def test_large_event_skips_the_lookahead(self) -> None:
        doc: dict[str, Any] = {
            "format": "topcut-event/1",
            "ruleset": "startrek-2e",
            "seed": "big",
            "settings": {"rounds": 6},
            "players": [{"id": f"p{i:03d}", "name": f"P{i}", "entry": i} for i in range(1, 65)],
            "rounds": [],
        }

        def forbidden(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the lookahead ran on a large event")

        with mock.patch.object(lookahead, "future_cost", forbidden), mock.patch.object(lookahead, "choose", forbidden):
            for _ in range(6):
                paired = pair_next_round(load_event(doc))
                report(doc, paired, winners_first=True)
        self.assertEqual(len(doc["rounds"]), 6)


if __name__ == "__main__":
    unittest.main()

"""Tribbles standings (Star Trek OP Guide 5.1, 7.2, 7.4, 7.5.2, 7.7, 7.9): unittest only."""

from __future__ import annotations

import json
import unittest
from pathlib import Path
from typing import Any

from shared_rules.games import get_ruleset
from shared_rules.games.startrek.scoring import tribbles_concession_score
from shared_rules.run import load_event, standings_json
from shared_rules.seeded import Rng
from tests.rules.helpers import RejectsDocuments

GOLDEN = Path(__file__).resolve().parents[3] / "golden"


def pod(
    players: list[str], outcomes: list[str] | None, scores: list[float] | None = None, ending: str | None = None
) -> dict[str, Any]:
    row: dict[str, Any] = {"players": players, "outcomes": outcomes}
    if scores is not None:
        row["scores"] = scores
    if ending:
        row["ending"] = ending
    return row


def event(rounds: list[list[dict[str, Any]]], ids: list[str], seed: str = "t") -> dict[str, Any]:
    return {
        "format": "topcut-event/1",
        "ruleset": "tribbles",
        "seed": seed,
        "players": [{"id": pid, "entry": i + 1} for i, pid in enumerate(ids)],
        "rounds": [{"number": n, "stage": "swiss", "matches": ms} for n, ms in enumerate(rounds, start=1)],
    }


IDS = ["a", "b", "c", "d"]


class RankingTest(unittest.TestCase):
    def test_total_score_ranks_first(self) -> None:
        """7.7: total score is the primary factor, even over more rounds won."""
        doc = event(
            [
                [pod(IDS, ["win", "loss", "loss", "loss"], [100, 10_000, 0, 0])],
                [pod(IDS, ["win", "loss", "loss", "loss"], [100, 0, 0, 0])],
            ],
            IDS,
        )
        rows = standings_json(load_event(doc))["standings"]
        self.assertEqual(["b", "a"], [r["player"] for r in rows[:2]])
        self.assertEqual({"score": 10_000, "rounds_won": 0}, rows[0]["tiebreakers"])
        self.assertEqual(10_000, rows[0]["points"])

    def test_rounds_won_break_a_tie_in_score(self) -> None:
        """7.7: with equal total score, the most rounds won ranks higher."""
        doc = event(
            [
                [pod(IDS, ["loss", "win", "loss", "loss"], [500, 100, 0, 0])],
                [pod(IDS, ["loss", "win", "loss", "loss"], [0, 400, 0, 0])],
            ],
            IDS,
        )
        rows = standings_json(load_event(doc))["standings"]
        self.assertEqual(["b", "a"], [r["player"] for r in rows[:2]])

    def test_full_tie_is_a_seeded_draw_the_same_every_time(self) -> None:
        """7.7: still tied: cut for the highest Tribble (a draw from the event seed)."""
        doc = event([[pod(IDS, ["win", "loss", "loss", "loss"], [0, 0, 0, 0])]], IDS, seed="draw")
        first = standings_json(load_event(doc))
        self.assertEqual(first, standings_json(load_event(json.loads(json.dumps(doc)))))
        self.assertEqual([1, 2, 3, 4], [r["rank"] for r in first["standings"]])

    def test_golden_pod_of_five(self) -> None:
        """Hand-computed: T3 and T4 tie on 1,110; T3 went out twice (once with T2), T4 once."""
        doc = json.loads((GOLDEN / "tribbles-pod.json").read_text(encoding="utf-8"))
        expected = json.loads((GOLDEN / "tribbles-pod.standings.json").read_text(encoding="utf-8"))
        self.assertEqual(expected, standings_json(load_event(doc)))


class ConcessionTest(unittest.TestCase):
    def test_alice_concedes_with_700000_bob_wins_with_300000(self) -> None:
        """7.9: Alice concedes on 700,000; Bob wins the pod on 300,000; Alice is recorded 299,999."""
        self.assertEqual(299_999, tribbles_concession_score(700_000, [300_000, 150_000]))

    def test_a_low_conceding_score_is_kept(self) -> None:
        """7.9: the conceding player retains their score when it is below the cap."""
        self.assertEqual(20_000, tribbles_concession_score(20_000, [300_000]))


class RulesetTest(unittest.TestCase):
    def test_pods_time_limits_and_reported_names(self) -> None:
        """7.2, 13.3: pods of 4-8 (3 for a three-player field, Section 2), 60 minutes in person, 70 online."""
        rs = get_ruleset("tribbles")
        self.assertEqual((3, 8), rs.match_sizes)
        self.assertEqual((60, 70), (rs.time_limits["in-person"], rs.time_limits["online"]))
        self.assertEqual([("score", "tribbles-score"), ("rounds_won", "tribbles-rounds-won")], list(rs.reported))
        self.assertEqual(("tribbles-score", "tribbles-rounds-won", "random"), rs.tiebreakers)


class DocumentValidationTest(RejectsDocuments, unittest.TestCase):
    assertBad = RejectsDocuments.assertRejected

    def test_pod_without_scores(self) -> None:
        self.assertBad(event([[pod(IDS, ["win", "loss", "loss", "loss"])]], IDS), "rounds[0].matches[0].scores")

    def test_pod_of_two(self) -> None:
        self.assertBad(event([[pod(IDS[:2], ["win", "loss"], [1, 0])]], IDS), "rounds[0].matches[0].players")

    def test_pending_pod_of_two(self) -> None:
        self.assertBad(event([[pod(IDS[:2], None)]], IDS), "rounds[0].matches[0].players")

    def test_pod_of_three_is_a_game(self) -> None:
        # Section 2: a sanctioned event needs three players; a three-player field plays as one pod.
        load_event(event([[pod(IDS[:3], ["win", "loss", "loss"], [1, 0, 0])]], IDS[:3]))

    def test_one_player_pod(self) -> None:
        self.assertBad(event([[pod(["a"], ["win"], [10])]], IDS), "rounds[0].matches[0].players")

    def test_pod_of_nine(self) -> None:
        ids = [f"p{i}" for i in range(9)]
        self.assertBad(event([[pod(ids, ["win"] + ["loss"] * 8, [0] * 9)]], ids), "rounds[0].matches[0].players")

    def test_negative_score(self) -> None:
        self.assertBad(
            event([[pod(IDS, ["win", "loss", "loss", "loss"], [10, -1, 0, 0])]], IDS), "rounds[0].matches[0].scores[1]"
        )

    def test_nobody_went_out_without_time(self) -> None:
        self.assertBad(event([[pod(IDS, ["loss"] * 4, [0] * 4)]], IDS), "rounds[0].matches[0].outcomes")

    def test_win_in_a_round_ended_by_time(self) -> None:
        """7.4: when time expires nobody scores for emptying their hand."""
        self.assertBad(
            event([[pod(IDS, ["win", "loss", "loss", "loss"], [0] * 4, ending="time")]], IDS),
            "rounds[0].matches[0].outcomes",
        )

    def test_star_trek_ending_is_not_a_tribbles_ending(self) -> None:
        self.assertBad(
            event([[pod(IDS, ["win", "loss", "loss", "loss"], [0] * 4, ending="concession")]], IDS),
            "rounds[0].matches[0].ending",
        )

    def test_unknown_outcome(self) -> None:
        self.assertBad(
            event([[pod(IDS, ["full-win", "loss", "loss", "loss"], [0] * 4)]], IDS), "rounds[0].matches[0].outcomes"
        )

    def test_several_players_may_go_out_together(self) -> None:
        """7.5.2: "the player or players who emptied their hand first"."""
        load_event(event([[pod(IDS, ["win", "win", "loss", "loss"], [10, 10, 0, 0])]], IDS))


def random_event(seed: str, n_players: int) -> dict[str, Any]:
    """Seeded random pods of 4-8 over five rounds."""
    rng = Rng(seed, "tribbles-property")
    ids = [f"p{i:02d}" for i in range(n_players)]
    count = -(-n_players // 8)
    order = rng.shuffled(ids)
    pods = [order[i::count] for i in range(count)]
    rounds = []
    for _ in range(5):
        matches = []
        for members in pods:
            winner = rng.below(len(members) + 1)  # len(members): ended by time
            outcomes = ["win" if i == winner else "loss" for i in range(len(members))]
            scores = [rng.choice([0, 1, 10, 100, 1000, 10_000]) * (1 + rng.below(3)) for _ in members]
            row = pod(members, outcomes, scores, ending="time" if winner == len(members) else None)
            matches.append(row)
        rounds.append(matches)
    return event(rounds, ids, seed=seed)


class SeededPropertiesTest(unittest.TestCase):
    CASES = [(f"tribbles-{i}", 4 + i % 13) for i in range(20)]

    def test_ranks_unique_and_ordered_by_score(self) -> None:
        for seed, n in self.CASES:
            rows = standings_json(load_event(random_event(seed, n)))["standings"]
            self.assertEqual(list(range(1, n + 1)), [r["rank"] for r in rows], seed)
            keys = [(r["tiebreakers"]["score"], r["tiebreakers"]["rounds_won"]) for r in rows]
            self.assertEqual(sorted(keys, reverse=True), keys, seed)

    def test_reordering_and_recomputing_change_nothing(self) -> None:
        for seed, n in self.CASES:
            doc = random_event(seed, n)
            rng = Rng(seed, "permute")
            other = json.loads(json.dumps(doc))
            other["players"] = rng.shuffled(other["players"])
            other["rounds"] = rng.shuffled(other["rounds"])
            for rnd in other["rounds"]:
                rnd["matches"] = rng.shuffled(rnd["matches"])
            self.assertEqual(standings_json(load_event(doc)), standings_json(load_event(other)), seed)
            self.assertEqual(standings_json(load_event(doc)), standings_json(load_event(doc)), seed)


if __name__ == "__main__":
    unittest.main()

"""Shatterpoint standings (Star Wars: Shatterpoint Showdown Event)."""

from __future__ import annotations

import json
import os
import unittest
from fractions import Fraction
from typing import Any

from shared_rules.games import get_ruleset
from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import Rng, draw_key
from shared_rules.standings import StandingsContext
from tests.rules.helpers import (
    GOLDEN,
    RejectsDocuments,
    check_ordered_by,
    check_ranks_uniquely_and_reproducibly,
    event_doc,
    lines,
    ranking,
)


def m(a: str, b: str, oa: str, ob: str, sa: tuple[int, int], sb: tuple[int, int], **kw: Any) -> dict[str, Any]:
    return {
        "players": [a, b],
        "outcomes": [oa, ob],
        "stats": [{"struggle": sa[0], "wounds": sa[1]}, {"struggle": sb[0], "wounds": sb[1]}],
        **kw,
    }


def solo(a: str, outcome: str, **kw: Any) -> dict[str, Any]:
    return {"players": [a], "outcomes": [outcome], **kw}


def doc(ids: str, *rounds: list[dict[str, Any]], seed: str = "t", **dropped: int) -> dict[str, Any]:
    return event_doc("shatterpoint", ids, *rounds, seed=seed, **dropped)


class ShatterpointPointsTest(unittest.TestCase):
    def test_event_points_are_three_one_zero(self) -> None:
        """Event Points: win 3, draw 1, loss 0."""
        rs = get_ruleset("shatterpoint")
        self.assertEqual((3, 1, 0), (rs.points("win"), rs.points("draw"), rs.points("loss")))

    def test_bye_is_a_win_with_two_struggle_cards_and_three_wounds(self) -> None:
        """Pairings: "That player receives a win with 2 Struggle Cards Claimed and 3 Wounds Inflicted"."""
        row = lines(doc("abc", [m("a", "b", "win", "loss", (3, 6), (1, 2)), solo("c", "bye")]))["c"]
        self.assertEqual(
            (3, "1-0-0", 2, 3),
            (row["points"], row["record"], row["tiebreakers"]["struggle"], row["tiebreakers"]["wounds"]),
        )

    def test_bye_may_state_its_stats(self) -> None:
        d = doc(
            "abc", [m("a", "b", "win", "loss", (3, 6), (1, 2)), solo("c", "bye", stats=[{"struggle": 2, "wounds": 3}])]
        )
        self.assertEqual(2, lines(d)["c"]["tiebreakers"]["struggle"])

    def test_unpaired_loss_is_a_loss_worth_nothing(self) -> None:
        """Pairings: a rejoining player "is assigned an unpaired loss for each round they did not participate in"."""
        d = doc(
            "abc",
            [m("a", "b", "win", "loss", (3, 6), (1, 2)), solo("c", "unpaired-loss")],
            [m("a", "c", "win", "loss", (2, 5), (1, 4)), solo("b", "bye")],
        )
        row = lines(d)["c"]
        self.assertEqual(
            (0, "0-2-0", 1, 4),
            (row["points"], row["record"], row["tiebreakers"]["struggle"], row["tiebreakers"]["wounds"]),
        )


class ShatterpointDocumentTest(RejectsDocuments, unittest.TestCase):
    def test_reported_swiss_game_without_stats_is_rejected(self) -> None:
        """Tiebreakers are built from the stats: a forgotten entry must not silently count 0."""
        self.assertRejected(
            doc("ab", [{"players": ["a", "b"], "outcomes": ["win", "loss"]}]), "rounds[0].matches[0].stats"
        )

    def test_pending_or_elimination_game_may_leave_stats_out(self) -> None:
        d = doc("ab", [{"players": ["a", "b"]}])
        d["rounds"].append(
            {"number": 2, "stage": "elimination", "matches": [{"players": ["a", "b"], "outcomes": ["win", "loss"]}]}
        )
        self.assertEqual(2, len(compute_standings(load_event(d))))

    def test_negative_stat_is_rejected(self) -> None:
        self.assertRejected(
            doc("ab", [m("a", "b", "win", "loss", (3, 6), (1, -2))]), "rounds[0].matches[0].stats[1].wounds"
        )

    def test_non_numeric_stat_is_rejected(self) -> None:
        d = doc("ab", [m("a", "b", "win", "loss", (3, 6), (1, 2))])
        d["rounds"][0]["matches"][0]["stats"][0]["struggle"] = "three"
        self.assertRejected(d, "rounds[0].matches[0].stats[0].struggle")

    def test_fractional_stat_is_rejected(self) -> None:
        d = doc("ab", [m("a", "b", "win", "loss", (3, 6), (1, 2))])
        d["rounds"][0]["matches"][0]["stats"][0]["wounds"] = 2.5
        self.assertRejected(d, "rounds[0].matches[0].stats[0].wounds")

    def test_missing_stat_is_rejected(self) -> None:
        d = doc("ab", [m("a", "b", "win", "loss", (3, 6), (1, 2))])
        del d["rounds"][0]["matches"][0]["stats"][1]["struggle"]
        self.assertRejected(d, "rounds[0].matches[0].stats[1]")

    def test_bye_with_other_stats_is_rejected(self) -> None:
        d = doc(
            "abc", [m("a", "b", "win", "loss", (3, 6), (1, 2)), solo("c", "bye", stats=[{"struggle": 3, "wounds": 3}])]
        )
        self.assertRejected(d, "rounds[0].matches[1].stats[0]")

    def test_unpaired_loss_with_stats_is_rejected(self) -> None:
        d = doc(
            "abc",
            [
                m("a", "b", "win", "loss", (3, 6), (1, 2)),
                solo("c", "unpaired-loss", stats=[{"struggle": 1, "wounds": 0}]),
            ],
        )
        self.assertRejected(d, "rounds[0].matches[1].stats[0]")

    def test_plain_loss_without_opponent_is_rejected(self) -> None:
        self.assertRejected(doc("a", [solo("a", "loss")]), "rounds[0].matches[0].outcomes")

    def test_double_loss_is_rejected(self) -> None:
        self.assertRejected(doc("ab", [m("a", "b", "loss", "loss", (1, 2), (1, 2))]), "rounds[0].matches[0].outcomes")

    def test_draw_with_different_stats_is_rejected(self) -> None:
        """End of Match, Time: a draw only when Struggle Cards and Wounds are both equal."""
        self.assertRejected(doc("ab", [m("a", "b", "draw", "draw", (2, 6), (2, 5))]), "rounds[0].matches[0].stats")

    def test_time_win_needs_more_struggle_cards_or_wounds(self) -> None:
        """End of Match, Time: most Struggle Cards wins; tie -> most Wounds."""
        load_event(doc("ab", [m("a", "b", "win", "loss", (2, 6), (2, 5), ending="time")]))
        self.assertRejected(
            doc("ab", [m("a", "b", "win", "loss", (2, 5), (2, 6), ending="time")]), "rounds[0].matches[0].stats"
        )

    def test_concession_winner_has_at_least_two_and_three(self) -> None:
        """End of Match, Concession: the winner gets 2 Struggle Cards and 3 Wounds or their current totals."""
        load_event(doc("ab", [m("a", "b", "loss", "win", (1, 7), (2, 3), ending="concession")]))
        self.assertRejected(
            doc("ab", [m("a", "b", "loss", "win", (1, 7), (1, 3), ending="concession")]), "rounds[0].matches[0].stats"
        )

    def test_unknown_ending_is_rejected(self) -> None:
        self.assertRejected(
            doc("ab", [m("a", "b", "win", "loss", (2, 6), (2, 5), ending="outright")]), "rounds[0].matches[0].ending"
        )


class ShatterpointTiebreakersTest(unittest.TestCase):
    def test_struggle_cards_rank_before_sos(self) -> None:
        """Tiebreakers: Struggle Cards Claimed first. a and c both 3 points; a claimed 3, c 2."""
        d = doc("abcd", [m("a", "b", "win", "loss", (3, 4), (1, 9)), m("c", "d", "win", "loss", (2, 5), (0, 1))])
        self.assertEqual(["a", "c"], ranking(d)[:2])

    def test_sos_is_mean_of_opponents_points_per_round_played(self) -> None:
        """Tiebreakers, Strength of Schedule: each opponent's points / rounds they played, summed,
        divided by the opponents played. a: opponents b (3 pts / 2 rounds) and c (1 / 2) -> (3/2 + 1/2)/2 = 1;
        the bye adds no opponent."""
        d = doc(
            "abcde",
            [m("a", "b", "win", "loss", (3, 5), (1, 2)), m("c", "d", "draw", "draw", (1, 1), (1, 1)), solo("e", "bye")],
            [m("a", "c", "win", "loss", (3, 5), (0, 0)), m("b", "e", "win", "loss", (2, 4), (1, 1)), solo("d", "bye")],
            [solo("a", "bye"), m("b", "d", "loss", "win", (0, 1), (2, 3)), m("c", "e", "loss", "win", (0, 0), (2, 2))],
        )
        ctx = StandingsContext(load_event(d), get_ruleset("shatterpoint"), through_round=2)
        self.assertEqual(Fraction(1), ctx.metric("sos-mean").exact["a"])  # type: ignore[attr-defined]
        self.assertEqual(1.0, ctx.metric("sos-mean")["a"])

    def test_sos_breaks_a_struggle_tie(self) -> None:
        """Same points and Struggle Cards: the harder schedule ranks higher, whatever the Wounds.
        R1 a-b W, c-d W, e-f W; R2 a-c W, e-b W (a and e both 6 points, 3+3 struggle cards);
        a's opponents b (0/2), c (3/2) -> 3/4; e's opponents f (0/1), b (0/2) -> 0."""
        d = doc(
            "abcdef",
            [
                m("a", "b", "win", "loss", (3, 1), (0, 9)),
                m("c", "d", "win", "loss", (3, 1), (0, 1)),
                m("e", "f", "win", "loss", (3, 9), (0, 1)),
            ],
            [m("a", "c", "win", "loss", (3, 1), (0, 1)), m("e", "b", "win", "loss", (3, 9), (0, 1)), solo("d", "bye")],
            f=1,
        )
        self.assertEqual(["a", "e"], ranking(d)[:2])

    def test_wounds_break_a_struggle_and_sos_tie(self) -> None:
        """a and c: 3 points, 2 struggle cards, SoS 0 each (opponents lost everything); c inflicted more Wounds."""
        d = doc("abcd", [m("a", "b", "win", "loss", (2, 5), (0, 1)), m("c", "d", "win", "loss", (2, 8), (0, 1))])
        self.assertEqual(["c", "a"], ranking(d)[:2])

    def test_random_breaks_a_complete_tie_from_the_seed(self) -> None:
        """Tiebreakers, Random: drawn from the event seed, so every device agrees; a different seed may differ."""
        base = [m("a", "b", "win", "loss", (2, 5), (0, 1)), m("c", "d", "win", "loss", (2, 5), (0, 1))]
        for seed in ("s1", "s2", "s3", "s4"):
            expected = sorted("ac", key=lambda p: -draw_key(seed, "tiebreak", p))
            self.assertEqual(expected, ranking(doc("abcd", base, seed=seed))[:2])
            self.assertEqual(ranking(doc("abcd", base, seed=seed)), ranking(doc("abcd", base, seed=seed)))

    def test_unpaired_loss_is_not_a_round_played_for_sos(self) -> None:
        """Reading: a rejoining player's unpaired losses are rounds "they did not participate in", so
        they do not dilute that player's points per round played when they are someone's opponent.
        c missed R1 and beat a in R2: c counts 3 points / 1 round for a's SoS, b (bye) 3 / 2, so
        a's SoS is (3 + 3/2) / 2 = 9/4 (it would be 3/2 if the unpaired loss were a round played)."""
        d = doc(
            "abc",
            [m("a", "b", "win", "loss", (3, 5), (1, 2)), solo("c", "unpaired-loss")],
            [m("a", "c", "loss", "win", (1, 2), (3, 5)), solo("b", "bye")],
        )
        self.assertEqual(
            Fraction(9, 4), StandingsContext(load_event(d), get_ruleset("shatterpoint")).metric("sos-mean").exact["a"]
        )  # type: ignore[attr-defined]

    def test_tiebreaker_order_and_reported_names(self) -> None:
        rs = get_ruleset("shatterpoint")
        self.assertEqual(("shatterpoint-struggle", "sos-mean", "shatterpoint-wounds", "random"), rs.tiebreakers)
        self.assertEqual(["struggle", "sos", "wounds"], [name for name, _ in rs.reported])


class ShatterpointDataTest(unittest.TestCase):
    def test_round_times(self) -> None:
        """Event Round Times: 120-minute rounds, Mission Critical at 90 minutes, 5 Attack Dice add minutes."""
        t = get_ruleset("shatterpoint").time_limits
        self.assertEqual((120, 90, 5), (t["round_minutes"], t["mission_critical_minute"], t["extra_attack_dice"]))

    def test_three_warnings_eject(self) -> None:
        """Arbiters: "A player has received three or more warnings during the event" -> ejection."""
        policies = get_ruleset("shatterpoint").policies
        self.assertIn("three", policies["warnings"].rule)
        self.assertIn("Arbiters", policies["warnings"].source)
        self.assertIn("cannot rejoin", policies["ejection"].rule)


class ShatterpointGoldenTest(unittest.TestCase):
    def test_golden_showdown(self) -> None:
        """tests/golden/shatterpoint-showdown.json, by hand (stats as struggle/wounds):

        R1 a-b W 3/8 vs 1/5; c-d draw 2/6 each (time); e-f: f concedes, e W 2/3 (the concession minimum), f 1/5.
        f leaves and rejoins: R2 unpaired loss. R2 a-d W 3/7 vs 1/6; c-e W 3/6 vs 2/5; b bye (2/3 implied).
        b drops after R2. R3 c-a W 3/7 vs 1/5; e-d W 3/8 vs 1/4; f bye (2/3 stated).
        Points: a 6, b 3, c 7, d 1, e 6, f 3.  Rounds played: b 2, f 2 (unpaired loss not played), others 3.
        Points/round: a 2, b 3/2, c 7/3, d 1/3, e 2, f 3/2.
        Struggle: a 7, b 3, c 8, d 4, e 7, f 3.  Wounds: a 20, b 8, c 19, d 16, e 16, f 8.
        SoS: a (b 3/2, d 1/3, c 7/3) = 25/18; e (f 3/2, c 7/3, d 1/3) = 25/18; c (d, e, a) = 13/9;
        d (c, a, e) = 19/9; b (a) = 2; f (e) = 2.
        Order: c 7; a, e 6 (struggle 7 = 7, SoS equal, wounds 20 > 16); f, b 3 (struggle 3, SoS 2,
        wounds 8 all equal -> random: draw_key(seed, "tiebreak", f) > b's); d 1.
        """
        with open(os.path.join(GOLDEN, "shatterpoint-showdown.json"), encoding="utf-8") as f:
            raw = json.load(f)
        with open(os.path.join(GOLDEN, "shatterpoint-showdown.standings.json"), encoding="utf-8") as f:
            expected = json.load(f)
        self.assertEqual(expected, standings_json(load_event(raw)))
        self.assertEqual(["c", "a", "e", "f", "b", "d"], [r["player"] for r in expected["standings"]])
        self.assertGreater(draw_key(raw["seed"], "tiebreak", "f"), draw_key(raw["seed"], "tiebreak", "b"))
        self.assertEqual(25 / 18, expected["standings"][1]["tiebreakers"]["sos"])


def random_event(seed: str, n: int, rounds: int) -> dict[str, Any]:
    """A plausible Showdown: random pairings, stats consistent with results, byes, a drop, a rejoin."""
    rng = Rng(seed, "shatterpoint-event")
    ids = [f"p{i:02d}" for i in range(n)]
    dropper, rejoiner = rng.shuffled(ids)[:2]
    drop_after = 1 + rng.below(rounds)
    out = []
    for r in range(1, rounds + 1):
        pool = [p for p in ids if (p != dropper or r <= drop_after)]
        matches: list[dict[str, Any]] = []
        if r == 1 and rejoiner in pool:
            pool.remove(rejoiner)
            matches.append(solo(rejoiner, "unpaired-loss"))
        active = rng.shuffled(pool)
        if len(active) % 2:
            matches.append(solo(active.pop(), "bye"))
        for i in range(0, len(active), 2):
            s1, s2 = rng.below(4), rng.below(4)
            w1, w2 = rng.below(12), rng.below(12)
            if rng.below(5) == 0:
                matches.append(m(active[i], active[i + 1], "draw", "draw", (s1, w1), (s1, w1), ending="time"))
            elif (s1, w1) == (s2, w2):
                matches.append(m(active[i], active[i + 1], "win", "loss", (s1, w1), (s2, w2), ending="victory"))
            else:
                oa, ob = ("win", "loss") if (s1, w1) > (s2, w2) else ("loss", "win")
                matches.append(m(active[i], active[i + 1], oa, ob, (s1, w1), (s2, w2), ending="time"))
        out.append({"number": r, "stage": "swiss", "matches": matches})
    pl = [{"id": p, "entry": i + 1} for i, p in enumerate(ids)]
    if dropper != rejoiner:
        pl[ids.index(dropper)]["dropped_after"] = drop_after
    return {"ruleset": "shatterpoint", "seed": seed, "players": pl, "rounds": out}


class ShatterpointPropertiesTest(unittest.TestCase):
    def test_random_events_rank_uniquely_and_reproducibly(self) -> None:
        check_ranks_uniquely_and_reproducibly(self, lambda k: random_event(f"sp-{k}", 4 + k % 13, 3 + k % 3), "sp")

    def test_standings_are_ordered_by_points_struggle_sos_wounds(self) -> None:
        for k in range(10):
            check_ordered_by(self, random_event(f"sp-order-{k}", 10, 4), "struggle", "sos", "wounds")


if __name__ == "__main__":
    unittest.main()

"""Pokémon standings (pokemon-tcg, pokemon-vg): Tournament Operation Procedures 3.1-3.3 and
RULES.md "Decision — match TOM". unittest only: the same file runs under pytest and in Pyodide."""

from __future__ import annotations

import json
import os
import unittest
from fractions import Fraction
from typing import Any

from shared_rules.errors import DocumentError
from shared_rules.event import dump_event
from shared_rules.games import get_ruleset
from shared_rules.games.pokemon.standings import (
    DROPPED_CAP,
    WIN_FLOOR,
    _earned_rounds,
    _Phase,
    last_opponents,
    phase_of,
    refine_by_last_opponent,
    round_significant,
    round_significant_int,
    tiebreakers,
    win_percentage,
)
from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import Rng
from shared_rules.standings import StandingsContext, get_metric

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir, "golden")
GOLDEN_EVENTS = ("pokemon-swiss-top-cut", "pokemon-late-drop-earned", "pokemon-two-divisions")


def event_doc(
    players: list[Any],
    rounds: list[list[tuple[Any, ...]]],
    ruleset: str = "pokemon-tcg",
    settings: dict[str, Any] | None = None,
    stages: dict[int, str] | None = None,
) -> dict[str, Any]:
    """A document from compact rounds: (a, b, outcome_a, outcome_b) tables or (a, outcome) solos.

    ``players`` are ids (entry = position) or full player objects.
    """
    rows = [p if isinstance(p, dict) else {"id": p, "entry": i + 1} for i, p in enumerate(players)]
    doc_rounds = []
    for number, tables in enumerate(rounds, start=1):
        matches = []
        for t in tables:
            if len(t) == 2:
                matches.append({"players": [t[0]], "outcomes": [t[1]]})
            elif len(t) == 3:  # (a, b, None): pending
                matches.append({"players": [t[0], t[1]]})
            else:
                matches.append({"players": [t[0], t[1]], "outcomes": [t[2], t[3]]})
        doc_rounds.append({"number": number, "stage": (stages or {}).get(number, "swiss"), "matches": matches})
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "seed": "test",
        "settings": settings or {},
        "players": rows,
        "rounds": doc_rounds,
    }


def W(a: str, b: str) -> tuple[str, str, str, str]:
    """a beats b."""
    return (a, b, "win", "loss")


def T(a: str, b: str) -> tuple[str, str, str, str]:
    """a and b tie."""
    return (a, b, "tie", "tie")


def context(doc: dict[str, Any]) -> StandingsContext:
    event = load_event(doc)
    return StandingsContext(event, get_ruleset(event.ruleset, event.settings))


def order(doc: dict[str, Any]) -> list[str]:
    return [s.player for s in compute_standings(load_event(doc))]


def win_pct(doc: dict[str, Any], pid: str) -> Fraction:
    return tiebreakers(context(doc))[pid].win


class RulesetDataTest(unittest.TestCase):
    def test_points_are_win_3_tie_1_loss_0_and_a_bye_counts_as_a_win(self) -> None:
        # Pokémon TOP 3.1: "3 match points for winning, 1 match point for a tie, and 0 match points for losing";
        # a bye "counts as a win"; 3.1.3: a late player receives losses.
        for ruleset_id in ("pokemon-tcg", "pokemon-vg"):
            rs = get_ruleset(ruleset_id)
            self.assertEqual(
                {o.key: (o.points, o.result, o.solo) for o in rs.outcomes},
                {
                    "win": (3, "win", False),
                    "loss": (0, "loss", False),
                    "tie": (1, "tie", False),
                    "bye": (3, "win", True),
                    "late": (0, "loss", True),
                },
            )

    def test_tiebreakers_follow_3_1_4_1_then_roster_order(self) -> None:
        rs = get_ruleset("pokemon-tcg")
        self.assertEqual(
            rs.tiebreakers, ("pokemon-tardiness", "owp", "oowp", "pokemon-h2h", "pokemon-last-opponent", "entry")
        )
        self.assertEqual(rs.reported, (("owp", "owp"), ("oowp", "oowp")))
        for key in rs.tiebreakers:
            self.assertEqual(get_metric(key).key, key)

    def test_every_policy_cites_its_section(self) -> None:
        rs = get_ruleset("pokemon-vg")
        self.assertIn("3.1", rs.policies["bye"].source)
        self.assertIn("random", rs.policies["bye"].rule)
        self.assertIn("one bye", rs.policies["bye-limit"].rule)
        self.assertIn("3.2", rs.policies["drop-elimination"].source)
        self.assertIn("3.1.3", rs.policies["late-entry"].source)
        for name, policy in rs.policies.items():
            self.assertTrue(policy.source, name)

    def test_the_document_gives_no_round_time_limits(self) -> None:
        self.assertEqual(dict(get_ruleset("pokemon-tcg").time_limits), {})


class WinPercentageTest(unittest.TestCase):
    """Pokémon TOP 3.1.4.1, "Second Tiebreaker": every worked example."""

    def test_three_wins_in_a_five_round_tournament_is_60_percent(self) -> None:
        # "if a player wins 3 matches in a 5-round tournament, that player's win percentage is 3/5, or 60%"
        doc = event_doc(["p", "q"], [[W("p", "q")], [W("p", "q")], [W("p", "q")], [W("q", "p")], [W("q", "p")]])
        self.assertEqual(win_pct(doc, "p"), Fraction(3, 5))
        self.assertEqual(win_percentage(3, 5), Fraction(3, 5))

    def test_no_wins_in_a_five_round_tournament_is_25_percent_not_0(self) -> None:
        # "If a player wins no matches in a 5-round tournament, that player's win percentage is 25%, not 0/5 or 0%."
        doc = event_doc(["p", "q"], [[W("q", "p")]] * 5)
        self.assertEqual(win_pct(doc, "p"), Fraction(1, 4))

    def test_dropped_after_losing_the_first_match_is_raised_to_25_percent(self) -> None:
        # "if a player loses the first match of a 5-round tournament and then drops ... 0/1, or 0% ... increased to 25%"
        players = [{"id": "p", "entry": 1, "dropped_after": 1}, "q", "r", "s"]
        rounds = [[W("q", "p"), W("r", "s")]] + [[W("q", "r"), ("s", "bye")]] * 4
        self.assertEqual(win_pct(event_doc(players, rounds, settings={"rounds": 5}), "p"), WIN_FLOOR)

    def test_dropped_after_winning_the_first_match_is_reduced_to_75_percent(self) -> None:
        # "If another player wins the first match of a 5-round tournament and then drops ... 1/1, or 100% ...
        # reduced to 75%"
        players = [{"id": "p", "entry": 1, "dropped_after": 1}, "q", "r", "s"]
        rounds = [[W("p", "q"), W("r", "s")]] + [[W("q", "r"), ("s", "bye")]] * 4
        self.assertEqual(win_pct(event_doc(players, rounds, settings={"rounds": 5}), "p"), DROPPED_CAP)

    def test_the_cap_is_not_for_a_player_who_played_every_round(self) -> None:
        # RULES.md Decision: the 75 % cap applies only to a player who dropped before playing every planned round.
        players = [{"id": "p", "entry": 1, "dropped_after": 2}, "q"]
        doc = event_doc(players, [[W("p", "q")], [W("p", "q")]], settings={"rounds": 2})
        self.assertEqual(win_pct(doc, "p"), Fraction(1))
        self.assertEqual(win_pct(dict(doc, settings={"rounds": 3}), "p"), DROPPED_CAP)

    def test_a_player_who_completed_the_event_is_not_capped(self) -> None:
        doc = event_doc(["p", "q"], [[W("p", "q")]] * 3)
        self.assertEqual(win_pct(doc, "p"), Fraction(1))

    def test_a_tie_counts_as_half_a_win(self) -> None:
        # RULES.md Decision: a tie counts as half a win.
        doc = event_doc(["p", "q"], [[W("p", "q")], [T("p", "q")], [W("q", "p")], [T("p", "q")]])
        self.assertEqual(win_pct(doc, "p"), Fraction(2, 4))

    def test_a_random_bye_is_neither_a_win_nor_a_round(self) -> None:
        # Pokémon TOP 3.1.4.1: "rounds in which a player received a random bye do not count as a win ...
        # this round is not considered at all"
        doc = event_doc(
            ["p", "q", "r"], [[("p", "bye"), W("q", "r")], [W("p", "q"), ("r", "bye")], [W("r", "p"), ("q", "bye")]]
        )
        self.assertEqual(win_pct(doc, "p"), Fraction(1, 2))
        ctx = context(doc)
        self.assertEqual(ctx.points["p"], 6)  # the bye still counts as a win on the record (3.1)
        self.assertEqual(ctx.record("p"), (2, 1, 0))

    def test_an_earned_bye_is_a_won_round_and_a_100_percent_opponent(self) -> None:
        # RULES.md Decision: an earned bye counts as a win and a played round, and adds a 100 % opponent to OWP.
        flagged = event_doc(["p", "q", "r"], [[("p", "bye"), W("q", "r")], [W("q", "p"), ("r", "bye")]])
        flagged["rounds"][0]["matches"][0]["earned"] = True
        table = tiebreakers(context(flagged))
        self.assertEqual(table["p"].win, Fraction(1, 2))
        self.assertEqual(table["p"].owp, (Fraction(1) + Fraction(1)) / 2)  # q won both of its rounds
        by_count = event_doc(
            [{"id": "p", "entry": 1, "earned_byes": 1}, "q", "r"],
            [[("p", "bye"), W("q", "r")], [W("q", "p"), ("r", "bye")]],
        )
        self.assertEqual(tiebreakers(context(by_count))["p"], table["p"])
        normal = event_doc(["p", "q", "r"], [[("p", "bye"), W("q", "r")], [W("q", "p"), ("r", "bye")]])
        self.assertEqual(tiebreakers(context(normal))["p"].win, WIN_FLOOR)  # 0/1 raised to 25 %
        self.assertEqual(tiebreakers(context(normal))["p"].owp, Fraction(1))

    def test_a_late_loss_is_a_lost_round(self) -> None:
        # Pokémon TOP 3.1.3: a late player "will receive losses for all of the rounds that have already started".
        doc = event_doc(["p", "q", "r"], [[("p", "late"), W("q", "r")], [W("p", "q"), ("r", "bye")]])
        self.assertEqual(win_pct(doc, "p"), Fraction(1, 2))
        self.assertEqual(context(doc).record("p"), (1, 1, 0))

    def test_a_later_random_bye_of_a_player_with_an_earned_bye_is_not_earned(self) -> None:
        """Pokémon TOP 3.1.4.1: "rounds in which a player received a random bye do not count as a win ... this
        round is not considered at all". A bye is earned only when flagged or in rounds 1..earned_byes."""
        players = [{"id": "p", "entry": 1, "earned_byes": 1}, "q", "r", "s"]
        # p has an earned bye allowance but plays round 1; the random bye of round 3 is not the earned bye.
        rounds = [[W("p", "q"), W("r", "s")], [W("r", "p"), W("q", "s")], [("p", "bye"), W("r", "q"), ("s", "bye")]]
        table = tiebreakers(context(event_doc(players, rounds)))
        self.assertEqual(table["p"].win, Fraction(1, 2))  # 1 win in 2 played rounds, the bye left out
        self.assertEqual(table["p"].owp, round_significant((Fraction(1, 3) + Fraction(1)) / 2))  # q, r; no 100 %
        # The same bye flagged "earned": true is an earned bye (a won round and a 100 % opponent).
        flagged = event_doc(players, rounds)
        flagged["rounds"][2]["matches"][0]["earned"] = True
        self.assertEqual(tiebreakers(context(flagged))["p"].win, Fraction(2, 3))
        # A bye in the opening rounds 1..earned_byes is earned without the flag.
        opening = event_doc(players, [[("p", "bye"), W("r", "s"), ("q", "bye")], rounds[1], [W("p", "q"), W("r", "s")]])
        self.assertEqual(tiebreakers(context(opening))["p"].win, Fraction(2, 3))
        # Two byes, the first earned (round 1), the second random (round 3): only the first counts.
        both = event_doc(players, [[("p", "bye"), W("r", "s"), ("q", "bye")], rounds[1], rounds[2]])
        self.assertEqual(tiebreakers(context(both))["p"].win, Fraction(1, 2))
        self.assertEqual(context(both).points["p"], 6)  # both byes still count as wins on the record (3.1)

    def test_missing_late_losses_of_a_late_player_count_as_late_losses(self) -> None:
        """Pokémon TOP 3.1.3: a late player "will receive losses for all of the rounds that have already
        started". Rounds played before a late player's first row, without a row for them, are late losses:
        the same standings as with the rows written (what the reducer writes when a late player registers)."""
        players = ["a", "b", "c", {"id": "l", "entry": 4, "late": True}]
        with_rows = event_doc(
            players,
            [[W("a", "b"), ("c", "bye"), ("l", "late")], [W("l", "a"), W("b", "c")], [W("l", "b"), W("a", "c")]],
        )
        without = event_doc(
            players, [[W("a", "b"), ("c", "bye")], [W("l", "a"), W("b", "c")], [W("l", "b"), W("a", "c")]]
        )
        self.assertEqual(win_pct(without, "l"), Fraction(2, 3))  # not 2/2
        self.assertEqual(tiebreakers(context(without)), tiebreakers(context(with_rows)))  # opponents' OWP too
        expected = standings_json(load_event(with_rows))
        self.assertEqual(standings_json(load_event(without)), expected)
        self.assertEqual([r["record"] for r in expected["standings"] if r["player"] == "l"], ["2-1-0"])
        # A late player who has not played yet: every round so far, up to a drop.
        waiting = event_doc(players, [[W("a", "b"), ("c", "bye")], [W("a", "c"), ("b", "bye")]])
        self.assertEqual(win_pct(waiting, "l"), WIN_FLOOR)
        row = [r for r in standings_json(load_event(waiting))["standings"] if r["player"] == "l"][0]
        self.assertEqual((row["rank"], row["record"], row["points"]), (4, "0-2-0", 0))
        waiting["players"][3]["dropped_after"] = 1
        row = [r for r in standings_json(load_event(waiting))["standings"] if r["player"] == "l"][0]
        self.assertEqual(row["record"], "0-1-0")
        # Only late players: an on-time player missing a round gets nothing added.
        on_time = event_doc(["a", "b", "c", "l"], [[W("a", "b"), ("c", "bye")], [W("l", "a"), W("b", "c")]])
        self.assertEqual(win_pct(on_time, "l"), Fraction(1))

    def test_missing_late_losses_follow_the_players_pod(self) -> None:
        """Pokémon TOP 3.1.3 in an Age-Separated (podded, 3.1.1) event: only the rounds the late player's own
        pod had already played are late losses."""
        players = [
            {"id": i, "entry": n + 1, "pod": "masters" if i in "abcl" else "junior+senior"}
            for n, i in enumerate("abcdefl")
        ]
        players[6]["late"] = True
        doc = event_doc(
            players,
            [
                [W("d", "e"), ("f", "bye")],
                [W("a", "b"), ("c", "bye"), W("e", "f"), ("d", "bye")],
                [W("l", "a"), W("b", "c"), W("d", "f"), ("e", "bye")],
            ],
        )
        ctx = context(doc)
        self.assertEqual(ctx.metric("pokemon-win-pct")["l"], 0.5)  # round 2 (masters) only: 1/2, not 1/3


class OpponentsWinPercentageTest(unittest.TestCase):
    def test_owp_is_the_mean_of_the_opponents_win_percentages(self) -> None:
        # Pokémon TOP 3.1.4.1: "Once a player's opponents' win percentages are calculated, they are averaged."
        doc = event_doc(["a", "b", "c", "d"], [[W("a", "b"), W("c", "d")], [W("a", "c"), W("b", "d")]])
        table = tiebreakers(context(doc))
        # a met b (1/2) and c (1/2); d met c (1/2) and b (1/2); b met a (1) and d (0 -> 25 %)
        self.assertEqual(table["a"].owp, Fraction(1, 2))
        self.assertEqual(table["b"].owp, round_significant((Fraction(1) + WIN_FLOOR) / 2))
        # OOWP: "the average of the Op Win % of all of that player's opponents"
        self.assertEqual(table["a"].oowp, round_significant((table["b"].owp + table["c"].owp) / 2))

    def test_owp_and_oowp_are_rounded_to_four_significant_figures_half_even(self) -> None:
        # RULES.md Decision: OWP and OOWP are rounded to 4 significant figures (half-even) before comparing.
        self.assertEqual(round_significant(Fraction(2, 3)), Fraction(6667, 10000))
        self.assertEqual(round_significant(Fraction(21, 32)), Fraction(6562, 10000))  # 65.625 % -> 65.62 %
        self.assertEqual(round_significant(Fraction(19, 32)), Fraction(5938, 10000))  # 59.375 % -> 59.38 %
        self.assertEqual(round_significant(Fraction(1)), Fraction(1))

    def test_values_that_round_alike_are_tied_and_fall_to_the_next_tiebreaker(self) -> None:
        # 0.58335 and 0.58345 both print 58.34 %: equal OWP, so the OOWP decides.
        metric = get_metric("owp")
        self.assertEqual(
            metric.comparable(float(round_significant(Fraction(58335, 100000)))),
            metric.comparable(float(round_significant(Fraction(58345, 100000)))),
        )

    def test_a_dropped_players_owp_and_oowp_are_frozen_at_the_drop(self) -> None:
        # RULES.md Decision: a dropped player's own OWP and OOWP are frozen at the round they dropped.
        players = ["a", "b", {"id": "c", "entry": 3, "dropped_after": 1}, "d"]
        rounds = [[W("c", "a"), W("b", "d")], [W("a", "b"), ("d", "bye")], [W("a", "d"), ("b", "bye")]]
        table = tiebreakers(context(event_doc(players, rounds, settings={"rounds": 3})))
        # after round 1 a had lost its only match: 25 %; at the end a is 2-1 (2/3)
        self.assertEqual(table["c"].owp, WIN_FLOOR)
        self.assertEqual(table["c"].win, DROPPED_CAP)
        self.assertEqual(table["a"].owp, round_significant((DROPPED_CAP + Fraction(1, 2) + WIN_FLOOR) / 3))
        # a's OOWP averages c's frozen OWP
        self.assertEqual(table["a"].oowp, round_significant((WIN_FLOOR + table["b"].owp + table["d"].owp) / 3))

    def test_no_opponent_gives_zero(self) -> None:
        table = tiebreakers(context(event_doc(["a", "b", "c"], [[("a", "bye"), W("b", "c")]])))
        self.assertEqual((table["a"].owp, table["a"].oowp), (0, 0))


class RankingTest(unittest.TestCase):
    def test_record_ranks_first(self) -> None:
        doc = event_doc(["a", "b", "c", "d"], [[W("d", "a"), W("c", "b")], [W("d", "c"), T("a", "b")]])
        # d 6 points, c 3, then a and b on 1: a's OWP 62.5 % (met d, b) beats b's 37.5 % (met c, a)
        self.assertEqual(order(doc), ["d", "c", "a", "b"])

    def test_late_players_rank_below_on_time_players_with_the_same_record(self) -> None:
        # Pokémon TOP 3.1.3 and 3.1.4.1 "First Tiebreaker Tardiness". g has the better OWP but arrived late.
        doc = event_doc(
            ["a", "b", "c", "g"],
            [[W("a", "b"), ("g", "late"), ("c", "bye")], [W("g", "a"), W("c", "b")], [W("g", "c"), W("a", "b")]],
        )
        ctx = context(doc)
        self.assertEqual(ctx.points["g"], ctx.points["a"])
        self.assertGreater(ctx.metric("owp")["g"], ctx.metric("owp")["a"])
        got = order(doc)
        self.assertLess(got.index("a"), got.index("g"))
        flagged = event_doc(
            ["a", "b", "c", {"id": "g", "entry": 4, "late": True}],
            [[W("a", "b"), W("g", "c")], [W("g", "a"), W("c", "b")]],
        )
        self.assertEqual(context(flagged).metric("pokemon-tardiness")["g"], 1)

    def test_higher_owp_ranks_higher(self) -> None:
        doc = event_doc(["a", "b", "c", "d"], [[W("a", "b"), W("c", "d")], [W("a", "c"), W("d", "b")]])
        # c (1-1, lost to undefeated a) ahead of d (1-1, lost to c): OWP 0.625 vs 0.375
        self.assertEqual(order(doc), ["a", "c", "d", "b"])

    def test_head_to_head_decides_between_two_tied_players_who_played(self) -> None:
        # Pokémon TOP 3.1.4.1 "Fourth Tiebreaker": "the winner of that match is ranked higher than the loser".
        # a and b: same record, same OWP, same OOWP; b beat a, although a entered first.
        doc = event_doc(
            ["a", "b", "c", "d"], [[W("b", "a"), W("c", "d")], [W("a", "d"), W("b", "c")], [W("a", "c"), W("d", "b")]]
        )
        ctx = context(doc)
        self.assertEqual(ctx.points["a"], ctx.points["b"])
        self.assertEqual(ctx.metric("owp")["a"], ctx.metric("owp")["b"])
        self.assertEqual(ctx.metric("oowp")["a"], ctx.metric("oowp")["b"])
        got = order(doc)
        self.assertLess(got.index("b"), got.index("a"))

    def test_head_to_head_is_not_used_for_three_tied_players(self) -> None:
        metric = get_metric("pokemon-h2h")
        doc = event_doc(["a", "b", "c"], [[W("a", "b"), ("c", "bye")]])
        self.assertEqual(metric.split(context(doc), ["b", "a", "c"]), [["b", "a", "c"]])
        self.assertEqual(metric.split(context(doc), ["b", "a"]), [["a"], ["b"]])

    def test_standing_of_the_last_opponent_decides_what_is_left(self) -> None:
        # Pokémon TOP 3.1.4.1 "Fifth Tiebreaker". a and c: both 1-1-1, OWP 33.33 %, OOWP 50 %, never met.
        # a's last opponent d is 4th, c's last opponent b is 3rd: c ranks above a although a entered first.
        rounds = [[W("c", "b"), T("a", "d")], [T("c", "d"), ("a", "b", "loss", "loss")], [W("a", "d"), W("b", "c")]]
        doc = event_doc(["a", "b", "c", "d"], rounds)
        ctx = context(doc)
        table = tiebreakers(ctx)
        self.assertEqual((ctx.points["a"], table["a"].owp, table["a"].oowp), (4, Fraction(3333, 10000), Fraction(1, 2)))
        self.assertEqual((ctx.points["c"], table["c"].owp, table["c"].oowp), (4, Fraction(3333, 10000), Fraction(1, 2)))
        self.assertEqual(ctx.metric("pokemon-last-opponent"), {"a": 4, "b": 1, "c": 3, "d": 2})
        self.assertEqual(order(doc), ["c", "a", "b", "d"])

    def test_last_opponents_are_compared_recursively_until_stable(self) -> None:
        # "this tiebreaker goes through all of the previous tiebreakers for the last opponents": when two last
        # opponents are tied too, their own last opponents decide, and so on.
        rounds = [[T("a", "c"), T("b", "d"), T("e", "f")], [T("c", "e"), T("d", "f"), ("a", "bye"), ("b", "bye")]]
        ctx = context(event_doc(["a", "b", "c", "d", "e", "f"], rounds))
        self.assertEqual(last_opponents(ctx), {"a": "c", "b": "d", "c": "e", "d": "f", "e": "c", "f": "d"})
        refined = refine_by_last_opponent(ctx, [[["a", "b"], ["c", "d"], ["e"], ["f"]]])
        self.assertEqual(refined, [[["a"], ["b"], ["c"], ["d"], ["e"], ["f"]]])
        refined = refine_by_last_opponent(ctx, [[["a", "b"], ["c", "d"], ["f"], ["e"]]])
        self.assertEqual(refined, [[["b"], ["a"], ["d"], ["c"], ["f"], ["e"]]])
        # a player without any opponent ranks below the others of the tie; same places stay tied
        refined = refine_by_last_opponent(ctx, [[["e", "f"], ["c", "d"]]])
        self.assertEqual(refined, [[["e", "f"], ["c", "d"]]])

    def test_roster_order_keeps_what_no_tiebreaker_separates(self) -> None:
        # RULES.md Decision: anything still tied keeps roster (registration) order.
        players = [{"id": "z", "entry": 1}, {"id": "y", "entry": 2}]
        self.assertEqual(order(event_doc(players, [[T("y", "z")]])), ["z", "y"])
        players = [{"id": "z", "entry": 2}, {"id": "y", "entry": 1}]
        self.assertEqual(order(event_doc(players, [[T("y", "z")]])), ["y", "z"])

    def test_pending_matches_do_not_count(self) -> None:
        doc = event_doc(["a", "b", "c", "d"], [[W("a", "b"), W("c", "d")], [("a", "c", None), W("d", "b")]])
        ctx = context(doc)
        self.assertEqual(ctx.points["a"], 3)
        self.assertEqual(win_pct(doc, "a"), 1)


class StructureTest(unittest.TestCase):
    def test_top_cut_is_placed_by_depth_then_swiss_rank_and_the_rest_keep_swiss_places(self) -> None:
        # Pokémon TOP 3.3.6: "If the player who was seeded 1st ... loses in that first round, they will finish in
        # 5th place"; "the player who finished 9th will remain in 9th place".
        ids = [f"p{i}" for i in range(1, 11)]
        # Swiss: p1 > p2 > ... > p10 strictly by record: a round robin-ish ladder
        rounds = [
            [W("p1", "p2"), W("p3", "p4"), W("p5", "p6"), W("p7", "p8"), W("p9", "p10")],
            [W("p1", "p3"), W("p2", "p5"), W("p4", "p7"), W("p6", "p9"), W("p8", "p10")],
            [W("p1", "p4"), W("p2", "p3"), W("p5", "p8"), W("p6", "p7"), W("p9", "p10")],
        ]
        doc = event_doc(ids, rounds, settings={"rounds": 3, "cut": 8})
        swiss = order(doc)
        seeds = swiss[:8]
        top8 = [
            (seeds[0], seeds[7], "loss", "win"),
            W(seeds[1], seeds[6]),
            W(seeds[2], seeds[5]),
            W(seeds[3], seeds[4]),
        ]
        semis = [W(seeds[7], seeds[3]), W(seeds[1], seeds[2])]
        final = [W(seeds[1], seeds[7])]
        doc = event_doc(
            ids,
            rounds + [top8, semis, final],
            settings={"rounds": 3, "cut": 8},
            stages={4: "elimination", 5: "elimination", 6: "elimination"},
        )
        got = order(doc)
        self.assertEqual(got[:2], [seeds[1], seeds[7]])
        self.assertEqual(got[2:4], [seeds[2], seeds[3]])  # semifinal losers by Swiss rank
        self.assertEqual(got[4], seeds[0])  # the 1st seed lost in the top 8: 5th place
        self.assertEqual(got[5:8], [seeds[4], seeds[5], seeds[6]])
        self.assertEqual(got[8:], swiss[8:])

    def test_a_third_place_playoff_places_its_winner_third(self) -> None:
        # Pokémon TOP 3.2.3 / 3.3.6: an optional playoff for 3rd and 4th place.
        # Swiss order a, e, c, b, f, g, d, h (the golden pokemon-swiss-top-cut event); top 4: b beat a, c beat e,
        # c won the final; a and e play for 3rd place and e wins.
        doc = event_doc(
            list("abcdefgh"),
            [
                [W("a", "b"), W("c", "d"), W("e", "f"), W("g", "h")],
                [W("a", "c"), W("e", "g"), W("b", "d"), W("f", "h")],
                [W("a", "e"), W("c", "g"), T("b", "f"), W("d", "h")],
                [W("b", "a"), W("c", "e")],
                [W("c", "b"), W("e", "a")],
            ],
            stages={4: "elimination", 5: "elimination"},
        )
        self.assertEqual(order(dict(doc, rounds=doc["rounds"][:3])), list("aecbfgdh"))
        doc["rounds"][4]["matches"][1]["playoff"] = "third-place"
        self.assertEqual(order(doc)[:4], ["c", "b", "e", "a"])
        del doc["rounds"][4]["matches"][1]["playoff"]  # still found: both lost their semifinal
        self.assertEqual(order(doc)[:4], ["c", "b", "e", "a"])
        del doc["rounds"][4]["matches"][1]  # no playoff: semifinal losers by Swiss rank
        self.assertEqual(order(doc)[:4], ["c", "b", "a", "e"])

    def test_a_playoff_in_its_own_round_after_the_final_places_3rd_and_4th(self) -> None:
        """Pokémon TOP 3.3.6 / 3.2.3: the players who lose in the Top 4 "play off for 3rd and 4th place": the
        playoff winner ranks directly above its loser and both below the losing finalist, whatever round
        number the playoff is recorded in."""
        doc = event_doc(
            list("abcdefgh"),
            [
                [W("a", "b"), W("c", "d"), W("e", "f"), W("g", "h")],
                [W("a", "g"), W("c", "e")],
                [W("a", "c")],
                [W("g", "e")],
            ],
            stages={2: "elimination", 3: "elimination", 4: "elimination"},
        )
        doc["rounds"][3]["matches"][0]["playoff"] = "third-place"
        self.assertEqual(order(doc)[:4], ["a", "c", "g", "e"])
        del doc["rounds"][3]["matches"][0]["playoff"]  # still found: both were already eliminated
        self.assertEqual(order(doc)[:4], ["a", "c", "g", "e"])
        doc["rounds"][3]["matches"][0]["outcomes"] = ["loss", "win"]
        self.assertEqual(order(doc)[:4], ["a", "c", "e", "g"])
        # Recorded between the semifinals and the final: the same places.
        doc["rounds"][2], doc["rounds"][3] = doc["rounds"][3], doc["rounds"][2]
        doc["rounds"][2]["number"], doc["rounds"][3]["number"] = 3, 4
        self.assertEqual(order(doc)[:4], ["a", "c", "e", "g"])
        # Single elimination only (3.2.3): the same.
        single = event_doc(
            list("abcd"),
            [[W("a", "d"), W("b", "c")], [W("a", "b")], [W("d", "c")]],
            stages={1: "elimination", 2: "elimination", 3: "elimination"},
        )
        self.assertEqual(order(single), ["a", "b", "d", "c"])

    def test_single_elimination_ranks_losers_by_the_record_of_who_knocked_them_out(self) -> None:
        # Pokémon TOP 3.2.3: "a player who was eliminated in the first round by the winner of that tournament will
        # be ranked higher than any other player who was eliminated in the first round."
        ids = ["a", "b", "c", "d", "e", "f", "g", "h"]
        doc = event_doc(
            ids,
            [[W("a", "b"), W("c", "d"), W("e", "f"), W("h", "g")], [W("a", "c"), W("h", "e")], [W("h", "a")]],
            stages={1: "elimination", 2: "elimination", 3: "elimination"},
        )
        got = order(doc)
        self.assertEqual(got[:2], ["h", "a"])
        self.assertEqual(got[2:4], ["e", "c"])  # e was knocked out by the champion h (3 wins), c by a (2)
        self.assertEqual(got[4:6], ["g", "b"])  # by the champion, then by the finalist
        self.assertEqual(got[6:], ["d", "f"])  # both by a player with 1 win: roster order (Decision)

    def test_single_elimination_byes_up_to_a_power_of_two(self) -> None:
        # Pokémon TOP 3.2: the top seeds receive first-round byes.
        ids = ["a", "b", "c"]
        doc = event_doc(ids, [[("a", "bye"), W("b", "c")], [W("b", "a")]], stages={1: "elimination", 2: "elimination"})
        self.assertEqual(order(doc), ["b", "a", "c"])

    def test_divisions_are_placed_separately_with_their_own_ranks(self) -> None:
        # Pokémon TOP 3.1.1 / 3.1.2 (season 2019: Junior born 2008 or later, Senior 2004-2007, Masters 2003 or
        # earlier); TOM's <standings> places each division separately.
        players = [
            {"id": "m", "entry": 1, "birth_year": 2003},
            {"id": "s", "entry": 2, "birth_year": 2004},
            {"id": "s2", "entry": 3, "birth_year": 2007},
            {"id": "j", "entry": 4, "birth_year": 2008},
        ]
        doc = event_doc(players, [[W("j", "m"), W("s", "s2")]], settings={"season": 2019})
        rows = standings_json(load_event(doc))["standings"]
        self.assertEqual(
            [(r["division"], r["rank"], r["player"]) for r in rows],
            [("masters", 1, "m"), ("senior", 1, "s"), ("senior", 2, "s2"), ("junior", 1, "j")],
        )

    def test_ranks_are_1_to_n_within_each_division_and_every_row_names_it(self) -> None:
        """Pokémon TOP 3.1.1: Age-Separated Swiss is "essentially, three separate tournaments ... reported as one
        tournament"; TOM places each division separately, so ``rank`` is the place within ``division``
        (docs/event-format-additions.md, "Standings output")."""
        players = [{"id": f"m{i}", "entry": i, "division": "masters"} for i in range(1, 4)]
        players += [{"id": f"s{i}", "entry": 3 + i, "division": "senior"} for i in range(1, 3)]
        players += [{"id": f"j{i}", "entry": 5 + i, "division": "junior"} for i in range(1, 5)]
        doc = event_doc(
            players,
            [
                [W("m1", "j1"), W("s1", "m2"), W("j2", "s2"), W("m3", "j3"), ("j4", "bye")],
                [W("j1", "s1"), W("m2", "m3"), W("s2", "j4"), W("j3", "m1"), ("j2", "bye")],
            ],
        )
        rows = standings_json(load_event(doc))["standings"]
        self.assertTrue(all("division" in r for r in rows))
        self.assertEqual([r["division"] for r in rows], ["masters"] * 3 + ["senior"] * 2 + ["junior"] * 4)
        for division in ("masters", "senior", "junior"):
            ranks = [r["rank"] for r in rows if r["division"] == division]
            self.assertEqual(ranks, list(range(1, len(ranks) + 1)), division)
        self.assertEqual(sorted(r["player"] for r in rows), sorted(p["id"] for p in players))

    def test_one_division_has_no_division_field(self) -> None:
        rows = standings_json(load_event(event_doc(["a", "b"], [[W("a", "b")]])))["standings"]
        self.assertNotIn("division", rows[0])

    def test_the_division_field_wins_over_the_birth_year(self) -> None:
        players = [{"id": "a", "entry": 1, "birth_year": 1990, "division": "senior"}, {"id": "b", "entry": 2}]
        rows = standings_json(load_event(event_doc(players, [[W("a", "b")]], settings={"season": 2019})))
        self.assertEqual([(r["player"], r["division"]) for r in rows["standings"]], [("b", "masters"), ("a", "senior")])

    def test_day_two_does_not_carry_day_one_owp_but_carries_points(self) -> None:
        # Pokémon TOP 3.1.4.1: "the Op Win % records from the first day are not carried over"; 3.3.5: day two.
        ids = ["a", "b", "c", "d", "e", "f"]
        day1 = [[W("a", "b"), W("c", "d"), W("e", "f")], [W("a", "c"), W("e", "b"), W("d", "f")]]
        day2 = [[W("c", "a"), W("e", "d")], [W("a", "e"), W("c", "d")]]
        both = event_doc(ids, day1 + day2, stages={3: "swiss-day2", 4: "swiss-day2"})
        alone = event_doc(ids, [[], []] + day2)
        ctx, ctx2 = context(both), context(alone)
        for pid in ("a", "c", "d", "e"):
            self.assertEqual(ctx.metric("owp")[pid], ctx2.metric("owp")[pid], pid)
            self.assertEqual(ctx.metric("oowp")[pid], ctx2.metric("oowp")[pid], pid)
        self.assertEqual(ctx.points["a"], 9)
        got = order(both)
        self.assertEqual(set(got[:4]), {"a", "c", "d", "e"})  # day-two players above day-one-only players
        self.assertEqual(got[4:], ["b", "f"])
        day_one = context(event_doc(ids, day1))
        self.assertEqual(ctx.metric("owp")["b"], day_one.metric("owp")["b"])

    def test_disqualified_players_are_listed_last_in_their_division(self) -> None:
        players = [{"id": "a", "entry": 1, "disqualified": True, "dropped_after": 1}, "b", "c"]
        doc = event_doc(players, [[W("a", "b"), ("c", "bye")]])
        self.assertEqual(order(doc)[-1], "a")


class BadInputTest(unittest.TestCase):
    def test_draw_is_not_an_outcome_of_pokemon(self) -> None:
        doc = event_doc(["a", "b"], [[("a", "b", "draw", "draw")]])
        with self.assertRaises(DocumentError) as caught:
            load_event(doc)
        self.assertEqual(
            str(caught.exception), "rounds[0].matches[0].outcomes: 'draw' is not an outcome of pokemon-tcg"
        )
        with self.assertRaises(DocumentError) as caught:
            load_event(dict(doc, ruleset="pokemon-vg"))
        self.assertIn("is not an outcome of pokemon-vg", str(caught.exception))

    def test_one_player_outcomes_need_a_one_player_match(self) -> None:
        for outcomes in (("late", "win"), ("bye", "loss")):
            with self.assertRaises(DocumentError) as caught:
                load_event(event_doc(["a", "b"], [[("a", "b") + outcomes]]))
            self.assertTrue(str(caught.exception).startswith("rounds[0].matches[0].outcomes: "))
        with self.assertRaises(DocumentError):
            load_event(event_doc(["a", "b"], [[("a", "win"), ("b", "loss")]]))

    def test_impossible_results(self) -> None:
        for outcomes in (("win", "win"), ("tie", "loss")):
            with self.assertRaises(DocumentError):
                load_event(event_doc(["a", "b"], [[("a", "b") + outcomes]]))

    def test_earned_marks_only_a_one_player_bye(self) -> None:
        doc = event_doc(["a", "b"], [[W("a", "b")]])
        doc["rounds"][0]["matches"][0]["earned"] = True
        with self.assertRaises(DocumentError) as caught:
            load_event(doc)
        self.assertEqual(caught.exception.path, "rounds[0].matches[0].earned")

    def test_unknown_division(self) -> None:
        doc = event_doc([{"id": "a", "entry": 1, "division": "adult"}, "b"], [[W("a", "b")]])
        with self.assertRaises(DocumentError) as caught:
            load_event(doc)
        self.assertEqual(caught.exception.path, "players[0].division")

    def test_bad_settings(self) -> None:
        for settings, path in (
            ({"cut": 6}, "settings.cut"),
            ({"season": "2019"}, "settings.season"),
            ({"rounds": -1}, "settings.rounds"),
        ):
            with self.assertRaises(DocumentError) as caught:
                load_event(event_doc(["a", "b"], [[W("a", "b")]], settings=settings))
            self.assertEqual(caught.exception.path, path)


class GoldenTest(unittest.TestCase):
    """Hand-built events whose standings were worked out by hand (see tests/golden/)."""

    @unittest.skipUnless(os.path.isdir(GOLDEN), "tests/golden is not available here")
    def test_golden_standings(self) -> None:
        for name in GOLDEN_EVENTS:
            with self.subTest(name):
                with open(os.path.join(GOLDEN, f"{name}.json"), encoding="utf-8") as fh:
                    doc = json.load(fh)
                with open(os.path.join(GOLDEN, f"{name}.standings.json"), encoding="utf-8") as fh:
                    expected = json.load(fh)
                self.assertEqual(standings_json(load_event(doc)), expected)


def random_event(seed: str, divisions: bool = False) -> dict[str, Any]:
    """A seeded random Pokémon event: drops, late players, earned byes, ties, double losses, byes."""
    rng = Rng(seed, "pokemon-property")
    n = 4 + rng.below(17)
    total = 3 + rng.below(4)
    players: list[dict[str, Any]] = []
    for i in range(n):
        p: dict[str, Any] = {"id": f"p{i:02d}", "entry": i + 1}
        if divisions:
            p["birth_year"] = rng.choice([1990, 2003, 2005, 2010])
        if rng.below(8) == 0:
            p["dropped_after"] = 1 + rng.below(total)
        if rng.below(10) == 0:
            p["earned_byes"] = 1
        players.append(p)
    late = {players[i]["id"] for i in range(n) if rng.below(10) == 0}
    for p in players:
        if p["id"] in late:
            p["late"] = True
    rounds = []
    for number in range(1, total + 1):
        active = [p for p in players if p.get("dropped_after") is None or p["dropped_after"] >= number]
        matches: list[dict[str, Any]] = []
        pool = []
        for p in active:
            if number == 1 and p["id"] in late:
                matches.append({"players": [p["id"]], "outcomes": ["late"]})
            elif number == 1 and p.get("earned_byes"):
                matches.append({"players": [p["id"]], "outcomes": ["bye"], "earned": True})
            else:
                pool.append(p["id"])
        pool = rng.shuffled(pool)
        if len(pool) % 2:
            matches.append({"players": [pool.pop()], "outcomes": ["bye"]})
        for a, b in zip(pool[::2], pool[1::2]):
            outcomes = rng.choice([["win", "loss"], ["loss", "win"], ["win", "loss"], ["tie", "tie"], ["loss", "loss"]])
            matches.append({"table": len(matches) + 1, "players": [a, b], "outcomes": outcomes})
        rounds.append({"number": number, "stage": "swiss", "matches": matches})
    return {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "seed": seed,
        "settings": {"rounds": total, **({"season": 2019} if divisions else {})},
        "players": players,
        "rounds": rounds,
    }


def shuffled_document(doc: dict[str, Any], seed: str) -> dict[str, Any]:
    """The same event with players, rounds, matches and seats listed in another order (entry kept)."""
    rng = Rng(seed, "shuffle")
    out = json.loads(json.dumps(doc))
    out["players"] = rng.shuffled(out["players"])
    out["rounds"] = rng.shuffled(out["rounds"])
    for rnd in out["rounds"]:
        rnd["matches"] = rng.shuffled(rnd["matches"])
        for match in rnd["matches"]:
            if len(match["players"]) == 2 and rng.below(2):
                match["players"].reverse()
                match["outcomes"].reverse()
    return out


class PropertyTest(unittest.TestCase):
    SEEDS = [f"prop-{i}" for i in range(40)]

    def test_ranks_are_1_to_n_in_each_division(self) -> None:
        for seed in self.SEEDS:
            for divisions in (False, True):
                doc = random_event(seed, divisions)
                rows = standings_json(load_event(doc))["standings"]
                with self.subTest(seed=seed, divisions=divisions):
                    self.assertEqual(sorted(r["player"] for r in rows), sorted(p["id"] for p in doc["players"]))
                    by_division: dict[str, list[int]] = {}
                    for r in rows:
                        by_division.setdefault(r.get("division", ""), []).append(r["rank"])
                    for ranks in by_division.values():
                        self.assertEqual(ranks, list(range(1, len(ranks) + 1)))

    def test_recomputing_gives_identical_output(self) -> None:
        for seed in self.SEEDS[:15]:
            doc = random_event(seed, True)
            first = json.dumps(standings_json(load_event(doc)))
            again = json.dumps(standings_json(load_event(json.loads(json.dumps(doc)))))
            round_trip = json.dumps(standings_json(load_event(dump_event(load_event(doc)))))
            with self.subTest(seed=seed):
                self.assertEqual(first, again)
                self.assertEqual(first, round_trip)

    def test_document_order_does_not_change_the_standings(self) -> None:
        for seed in self.SEEDS:
            for divisions in (False, True):
                doc = random_event(seed, divisions)
                expected = standings_json(load_event(doc))
                with self.subTest(seed=seed, divisions=divisions):
                    for k in range(3):
                        self.assertEqual(standings_json(load_event(shuffled_document(doc, f"{seed}-{k}"))), expected)

    def test_win_percentages_stay_between_the_floor_and_the_cap(self) -> None:
        for seed in self.SEEDS:
            doc = random_event(seed)
            event = load_event(doc)
            table = tiebreakers(StandingsContext(event, get_ruleset("pokemon-tcg", event.settings)))
            for p in event.players:
                with self.subTest(seed=seed, player=p.id):
                    self.assertGreaterEqual(table[p.id].win, WIN_FLOOR)
                    self.assertLessEqual(table[p.id].win, 1)
                    if p.dropped_after is not None and p.dropped_after < doc["settings"]["rounds"]:
                        self.assertLessEqual(table[p.id].win, DROPPED_CAP)


def _fast_path_events() -> list[tuple[str, dict[str, Any]]]:
    """Golden events and seeded random ones (drops, late players with and without their rows, earned and
    random byes, ties, double losses, divisions), also listed in another order."""
    out = []
    if os.path.isdir(GOLDEN):
        for name in GOLDEN_EVENTS:
            with open(os.path.join(GOLDEN, f"{name}.json"), encoding="utf-8") as fh:
                out.append((name, json.load(fh)))
    for i in range(30):
        doc = random_event(f"fast-{i}", divisions=i % 2 == 1)
        out.append((f"fast-{i}", doc))
        out.append((f"fast-{i}-shuffled", shuffled_document(doc, f"fast-{i}")))
        rows_left_out = json.loads(json.dumps(doc))  # the late losses implied instead of written
        for rnd in rows_left_out["rounds"]:
            rnd["matches"] = [m for m in rnd["matches"] if m["outcomes"] != ["late"]]
        out.append((f"fast-{i}-implied", rows_left_out))
    return out


class FastPathTest(unittest.TestCase):
    """The per-player columns and shortcuts give what walking every game gives (the reference)."""

    def test_phase_columns_agree_with_the_game_by_game_walk(self) -> None:
        for name, doc in _fast_path_events():
            event = load_event(doc)
            ctx = StandingsContext(event, get_ruleset(event.ruleset, event.settings))
            earned = _earned_rounds(ctx)
            for stage in sorted(set(phase_of(ctx).values())):
                with self.subTest(event=name, stage=stage):
                    fast = _Phase(ctx, stage, earned).compute()
                    self.assertEqual(fast, _Phase(ctx, stage, earned, fast=False).compute())

    def test_byes_and_late_losses_are_read_from_the_players_with_a_table_of_one(self) -> None:
        for name, doc in _fast_path_events():
            event = load_event(doc)
            ruleset = get_ruleset(event.ruleset, event.settings)
            ctx = StandingsContext(event, ruleset)
            results = {o.key: o.result for o in ruleset.outcomes}
            every: set[tuple[str, int]] = set()
            for pid, games in ctx.history.items():  # every player's every game
                for g in games:
                    if not g.opponents and results[g.outcome] == "win":
                        allowance = ctx.players[pid].earned_byes
                        if g.round <= allowance or g.match.extra.get("earned") is True or g.outcome == "earned-bye":
                            every.add((pid, g.round))
            late = {pid for pid, games in ctx.history.items() if any(g.outcome == "late" for g in games)}
            with self.subTest(event=name):
                self.assertEqual(_earned_rounds(ctx), every)
                self.assertEqual(
                    dict(ctx.metric("pokemon-tardiness")),
                    {pid: int(p.late or pid in late) for pid, p in ctx.players.items()},
                )

    def test_last_opponents_agree_with_the_game_by_game_walk(self) -> None:
        for name, doc in _fast_path_events():
            event = load_event(doc)
            ctx = StandingsContext(event, get_ruleset(event.ruleset, event.settings))
            expected: dict[str, str | None] = {}
            for pid, games in ctx.history.items():
                tables = [g for g in games if len(g.opponents) == 1]
                latest = max((g.round for g in tables), default=None)
                expected[pid] = next((g.opponents[0] for g in tables if g.round == latest), None)
            with self.subTest(event=name):
                self.assertEqual(last_opponents(ctx), expected)

    def test_rounding_agrees_with_exact_fractions(self) -> None:
        for den in (1, 3, 7, 12, 40, 96, 1000, 27720 * 8, 10**12 + 39):
            for num in sorted(
                {0, 1, den // 10, den // 10 + 1, den // 4, den // 3, den // 2, den - 1, den}
                | set(range(0, den + 1, max(1, den // 97)))
            ):
                value = Fraction(num, den)
                with self.subTest(num=num, den=den):
                    k, s = round_significant_int(num, den)
                    self.assertEqual(Fraction(k, 10**s), _reference_round(value))


def _reference_round(value: Fraction) -> Fraction:
    """``value`` rounded half-even to four significant figures of its percentage, from its decimal digits."""
    if value <= 0:
        return Fraction(0)
    percent = value * 100
    e = 0
    while percent >= Fraction(10) ** (e + 1):
        e += 1
    while percent < Fraction(10) ** e:
        e -= 1
    step = Fraction(10) ** (e - 3)  # the fourth significant figure
    return round(percent / step) * step / 100  # round() of a Fraction is half to even


if __name__ == "__main__":
    unittest.main()

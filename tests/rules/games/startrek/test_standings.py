"""Star Trek CCG 1E/2E standings (Star Trek OP Guide 5.1): unittest only, runs under pytest and Pyodide."""

from __future__ import annotations

import json
import unittest
from pathlib import Path
from typing import Any

from shared_rules.games import get_ruleset
from shared_rules.games.startrek.scoring import clamp_score, differential, differential_cap
from shared_rules.games.startrek.standings import cumulative_victory_points, strength_of_schedule
from shared_rules.run import load_event, standings_json
from shared_rules.seeded import Rng
from shared_rules.standings.context import StandingsContext
from tests.rules.helpers import RejectsDocuments

GOLDEN = Path(__file__).resolve().parents[3] / "golden"


def game(
    a: str, b: str, oa: str, ob: str, sa: float | None = None, sb: float | None = None, ending: str | None = None
) -> dict[str, Any]:
    row: dict[str, Any] = {"players": [a, b], "outcomes": [oa, ob]}
    if sa is not None:
        row["scores"] = [sa, sb]
    if ending:
        row["ending"] = ending
    return row


def solo(pid: str, outcome: str) -> dict[str, Any]:
    return {"players": [pid], "outcomes": [outcome]}


def event(
    rounds: list[list[dict[str, Any]]], ids: list[str], ruleset: str = "startrek-2e", **extra: Any
) -> dict[str, Any]:
    players = [{"id": pid, "entry": i + 1} for i, pid in enumerate(ids)]
    for pid, fields in extra.pop("player_fields", {}).items():
        players[ids.index(pid)].update(fields)
    doc = {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "seed": "t",
        "players": players,
        "rounds": [{"number": n, "stage": "swiss", "matches": ms} for n, ms in enumerate(rounds, start=1)],
    }
    doc.update(extra)
    return doc


def ranking(doc: dict[str, Any]) -> list[str]:
    return [row["player"] for row in standings_json(load_event(doc))["standings"]]


def line(doc: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(r for r in standings_json(load_event(doc))["standings"] if r["player"] == pid)


class DifferentialExamplesTest(unittest.TestCase):
    """Every worked example of 7.4.1, 7.9, 7.10, 13.5 and the Glossary."""

    def test_joe_beats_mark_100_35_gives_plus_and_minus_65(self) -> None:
        """7.4.1: Joe defeats Mark in 2E 100-35: Joe +65, Mark -65."""
        self.assertEqual(65, differential("full-win", 100, 35, edition="2e"))
        self.assertEqual(-65, differential("full-loss", 35, 100, edition="2e"))

    def test_glossary_jason_beats_zlatan_100_35(self) -> None:
        """Glossary, Differential: Jason beats Zlatan 100-35: +65 / -65."""
        self.assertEqual((65, -65), (differential("full-win", 100, 35), differential("full-loss", 35, 100)))

    def test_2e_score_of_120_counts_as_100(self) -> None:
        """7.4.1: a 2E player ending on 120 points is recorded as 100."""
        self.assertEqual(100, clamp_score(120))
        self.assertEqual(65, differential("full-win", 120, 35, edition="2e"))

    def test_1e_score_of_minus_5_counts_as_0(self) -> None:
        """7.4.1: a 1E player ending on -5 points is recorded as 0."""
        self.assertEqual(0, clamp_score(-5))
        self.assertEqual(-60, differential("modified-loss", -5, 60, edition="1e"))

    def test_slipstream_points_beyond_50_do_not_count(self) -> None:
        """7.4.1, 4.3.6: in 2E Slipstream points above 50 do not count: 65-20 gives +30."""
        cap = differential_cap("slipstream")
        self.assertEqual(50, cap)
        self.assertEqual(30, differential("full-win", 65, 20, cap=cap))
        self.assertEqual(-30, differential("full-loss", 20, 65, cap=cap))

    def test_id_draft_caps_at_70(self) -> None:
        """4.3.7: Infinite Diversity Draft caps differential at 70 points."""
        self.assertEqual(70, differential("full-win", 90, 0, cap=differential_cap("id-draft")))

    def test_winner_with_equal_or_lower_score_gets_plus_1(self) -> None:
        """7.4.1: a winner whose score is equal or lower gets +1, the loser -1."""
        self.assertEqual(1, differential("modified-win", 40, 50))
        self.assertEqual(-1, differential("modified-loss", 50, 40))
        self.assertEqual(1, differential("modified-win", 30, 30))

    def test_both_above_100_gives_plus_and_minus_1(self) -> None:
        """7.4.1: both players in excess of 100: the winner +1, the loser -1."""
        self.assertEqual((1, -1), (differential("full-win", 130, 110), differential("full-loss", 110, 130)))

    def test_both_below_0_gives_plus_and_minus_1(self) -> None:
        """7.4.1: both players below 0: the one closer to zero wins, +1 / -1."""
        self.assertEqual(
            (1, -1),
            (differential("modified-win", -5, -10, edition="1e"), differential("modified-loss", -10, -5, edition="1e")),
        )

    def test_true_tie_and_normal_bye_are_0_regardless_of_score(self) -> None:
        """7.4.1, 7.5.1: True Tie and normal Bye: 0 (regardless of score)."""
        self.assertEqual(0, differential("true-tie", 80, 20, edition="1e"))
        self.assertEqual(0, differential("bye"))

    def test_earned_bye_is_plus_100(self) -> None:
        """7.4.1, 7.5.1, Glossary: an Earned Bye is +100."""
        self.assertEqual(100, differential("earned-bye"))

    def test_example_1_steve_wins_by_up_the_ante_on_zero_points(self) -> None:
        """7.4.1 Example (1): Steve wins outright from 0 points, scores 100 v Jeremy 35: +65 / -65."""
        self.assertEqual(65, differential("full-win", 0, 35, ending="outright", edition="2e"))
        self.assertEqual(-65, differential("full-loss", 35, 0, ending="outright", edition="2e"))

    def test_example_2_robert_wins_when_kevin_decks_out(self) -> None:
        """7.4.1 Example (2): Robert ends on 100, Kevin on 30: +70 / -70."""
        self.assertEqual(70, differential("full-win", 45, 30, ending="outright"))
        self.assertEqual(-70, differential("full-loss", 30, 45, ending="outright"))

    def test_nat_and_mike_phoenix_then_terrasphere_8(self) -> None:
        """7.4.1: Mike wins by Terrasphere 8 and counts as 100; Nat was on 70: +30 / -30."""
        self.assertEqual(30, differential("full-win", 40, 70, ending="outright", edition="2e"))
        self.assertEqual(-30, differential("full-loss", 70, 40, ending="outright", edition="2e"))

    def test_game_loss_penalty_costs_all_points(self) -> None:
        """7.4.1, Appendix B Level 3: a Game Loss: loser -100, winner +100, whatever the scores."""
        self.assertEqual(-100, differential("full-loss", 90, 10, ending="game-loss", edition="1e"))
        self.assertEqual(100, differential("full-win", 10, 90, ending="game-loss", edition="1e"))

    def test_1e_hidden_agenda_automatic_loss(self) -> None:
        """7.10: improperly seeding a Hidden Agenda: Full Loss -100, opponent Full Win +100."""
        self.assertEqual(
            (-100, 100),
            (
                differential("full-loss", 55, 20, ending="game-loss", edition="1e"),
                differential("full-win", 20, 55, ending="game-loss", edition="1e"),
            ),
        )

    def test_both_players_automatic_loss_is_true_tie_0(self) -> None:
        """7.10: both players lose automatically: True Tie and 0 differential each."""
        self.assertEqual(0, differential("true-tie", 70, 20, ending="game-loss"))

    def test_2e_concession_loser_scores_0(self) -> None:
        """7.9: in 2E the conceding player counts no score, so the winner is always +100."""
        self.assertEqual(100, differential("full-win", 10, 85, ending="concession", edition="2e"))
        self.assertEqual(-100, differential("full-loss", 85, 10, ending="concession", edition="2e"))

    def test_1e_concession_loser_keeps_points(self) -> None:
        """7.9: in 1E the conceding player keeps their points; the winner has the maximum score."""
        self.assertEqual(40, differential("full-win", 10, 60, ending="concession", edition="1e"))
        self.assertEqual(-40, differential("full-loss", 60, 10, ending="concession", edition="1e"))
        self.assertEqual(-1, differential("full-loss", 120, 10, ending="concession", edition="1e"))

    def test_online_incomplete_game_results(self) -> None:
        """13.5: Full Loss -100, Missed Game 0, Full Win +100, Bye 0 for a game not played."""
        self.assertEqual(-100, differential("full-loss", opponent_outcome="bye"))
        self.assertEqual(100, differential("full-win", opponent_outcome="missed-game"))
        self.assertEqual(0, differential("missed-game", opponent_outcome="full-win"))
        self.assertEqual(0, differential("bye", opponent_outcome="full-loss"))

    def test_slipstream_automatic_loss_is_the_cap(self) -> None:
        """4.3.6: differential is capped at 50 in Slipstream, so an automatic loss is -50."""
        self.assertEqual(-50, differential("full-loss", 40, 10, ending="game-loss", cap=50))


class CumulativeVictoryPointsTest(unittest.TestCase):
    def test_matt_full_win_true_tie_full_win_modified_loss_is_31(self) -> None:
        """7.4.2 (Matt) and Glossary (Lillian): 4, 2, 4, 1 VP -> totals 4, 6, 10, 11 -> CVP 31."""
        self.assertEqual(31, cumulative_victory_points([4, 2, 4, 1]))

    def test_cvp_of_an_event_is_31_for_matt(self) -> None:
        """7.4.2: the same four results played in an event."""
        doc = event(
            [
                [game("M", "a", "full-win", "full-loss", 100, 0)],
                [game("M", "b", "true-tie", "true-tie", 10, 10)],
                [game("M", "c", "full-win", "full-loss", 100, 0)],
                [game("M", "d", "modified-loss", "modified-win", 10, 20)],
            ],
            ["M", "a", "b", "c", "d"],
        )
        self.assertEqual(11, line(doc, "M")["points"])
        self.assertEqual(31, line(doc, "M")["tiebreakers"]["cvp"])

    def test_dropped_player_keeps_adding_their_total_for_missed_rounds(self) -> None:
        """7.5.1: a dropped player has Missed Games for the rest of the event: 4, 4, 4 -> CVP 12."""
        doc = event(
            [
                [game("D", "a", "full-win", "full-loss", 100, 0)],
                [game("a", "b", "full-win", "full-loss", 100, 0)],
                [game("a", "b", "full-win", "full-loss", 100, 0)],
            ],
            ["D", "a", "b"],
            player_fields={"D": {"dropped_after": 1}},
        )
        self.assertEqual(12, line(doc, "D")["tiebreakers"]["cvp"])
        self.assertTrue(line(doc, "D")["dropped"])


def michael_event() -> dict[str, Any]:
    """Michael faces Charlie (13 VP), James (11), Will (6) and has a Bye, as in the Glossary."""
    return event(
        [
            [
                game("M", "C", "full-loss", "full-win", 40, 100),
                game("J", "F1", "full-win", "full-loss", 100, 20),
                game("W", "F2", "full-win", "full-loss", 100, 0),
            ],
            [
                game("M", "J", "full-loss", "full-win", 10, 100),
                game("C", "F1", "full-win", "full-loss", 100, 50),
                game("W", "F3", "full-loss", "full-win", 30, 100),
            ],
            [
                game("M", "W", "full-win", "full-loss", 100, 90),
                game("C", "F2", "full-win", "full-loss", 100, 0),
                game("J", "F3", "true-tie", "true-tie", 50, 50),
            ],
            [
                solo("M", "bye"),
                game("C", "F3", "full-loss", "full-win", 0, 100),
                game("J", "F2", "modified-loss", "modified-win", 20, 30),
            ],
        ],
        ["M", "C", "J", "W", "F1", "F2", "F3"],
    )


class StrengthOfScheduleTest(unittest.TestCase):
    def test_michael_13_11_6_and_a_bye_is_30(self) -> None:
        """Glossary: 13 + 11 + 6 + 0 - 0 = 30."""
        self.assertEqual(30, strength_of_schedule([13, 11, 6, 0]))

    def test_michael_in_an_event_has_sos_30(self) -> None:
        """Glossary: the same schedule played out; the opponents end on 13, 11 and 6 VP."""
        doc = michael_event()
        self.assertEqual([13, 11, 6], [line(doc, p)["points"] for p in ("C", "J", "W")])
        self.assertEqual(30, line(doc, "M")["tiebreakers"]["sos"])

    def test_earned_bye_counts_as_the_maximum_possible_opponent(self) -> None:
        """7.5.1: an Earned Bye has the maximum SoS possible, read as 4 VP x 3 rounds = 12."""
        doc = event(
            [
                [solo("E", "earned-bye"), game("a", "b", "full-win", "full-loss", 100, 0)],
                [game("E", "a", "full-win", "full-loss", 100, 0), solo("b", "bye")],
                [game("E", "b", "full-win", "full-loss", 100, 0), solo("a", "bye")],
            ],
            ["E", "a", "b"],
            player_fields={"E": {"earned_byes": 1}},
        )
        # entries: 12 (earned bye), a 9, b 6 -> 27 - 6 = 21
        self.assertEqual(21, line(doc, "E")["tiebreakers"]["sos"])
        self.assertEqual(300, line(doc, "E")["tiebreakers"]["differential"])

    def test_missed_game_counts_as_a_zero_entry(self) -> None:
        """7.5.1 reading: a Missed Game faces nobody, an entry of 0 (then the lowest is dropped)."""
        doc = event(
            [
                [solo("L", "missed-game"), game("a", "b", "full-win", "full-loss", 100, 0)],
                [game("L", "a", "full-loss", "full-win", 0, 100), solo("b", "bye")],
            ],
            ["L", "a", "b"],
        )
        self.assertEqual(8, line(doc, "L")["tiebreakers"]["sos"])


class HeadToHeadTest(unittest.TestCase):
    def test_two_tied_who_played_rank_by_their_game_before_sos(self) -> None:
        """7.7: x beat y; both end on 9 VP; y has the better SoS (17 v 15) yet x ranks higher."""
        doc = event(
            [
                [game("x", "y", "full-win", "full-loss", 100, 0), game("s", "t", "full-win", "full-loss", 100, 0)],
                [game("x", "t", "full-loss", "full-win", 0, 100), game("y", "s", "full-win", "full-loss", 100, 0)],
                [
                    game("x", "u", "full-win", "full-loss", 100, 0),
                    game("y", "t", "full-win", "full-loss", 100, 0),
                    game("s", "v", "modified-win", "modified-loss", 10, 0),
                ],
            ],
            ["x", "y", "s", "t", "u", "v"],
        )
        self.assertEqual((9, 9), (line(doc, "x")["points"], line(doc, "y")["points"]))
        self.assertEqual((15, 17), (line(doc, "x")["tiebreakers"]["sos"], line(doc, "y")["tiebreakers"]["sos"]))
        order = ranking(doc)
        self.assertEqual(order.index("x") + 1, order.index("y"))

    def test_true_tie_between_them_falls_through_to_sos(self) -> None:
        """7.7, Glossary: x and y drew (True Tie): SoS decides, x 19 over y 13, despite y's differential."""
        doc = event(
            [
                [
                    game("x", "y", "true-tie", "true-tie", 50, 50),
                    game("s", "t", "full-win", "full-loss", 100, 0),
                    game("u", "w", "full-win", "full-loss", 100, 0),
                ],
                [
                    game("x", "s", "full-win", "full-loss", 60, 0),
                    game("y", "t", "full-win", "full-loss", 100, 0),
                    game("u", "w", "full-win", "full-loss", 100, 0),
                ],
                [
                    game("x", "u", "full-win", "full-loss", 60, 0),
                    game("y", "w", "full-win", "full-loss", 100, 0),
                    game("s", "t", "full-win", "full-loss", 100, 0),
                ],
            ],
            ["x", "y", "s", "t", "u", "w"],
        )
        x, y = line(doc, "x"), line(doc, "y")
        self.assertEqual((10, 10), (x["points"], y["points"]))
        self.assertEqual((19, 13), (x["tiebreakers"]["sos"], y["tiebreakers"]["sos"]))
        self.assertEqual((120, 200), (x["tiebreakers"]["differential"], y["tiebreakers"]["differential"]))
        order = ranking(doc)
        self.assertEqual(order.index("x") + 1, order.index("y"))

    def test_two_tied_after_three_way_sos_step(self) -> None:
        """7.7: a, b, c tie on 9 VP; SoS puts a first (17) and leaves b and c on 15;
        b beat c, so b ranks above c although c has the better differential (199 v -98)."""
        doc = event(
            [
                [
                    game("b", "c", "full-win", "full-loss", 51, 50),
                    game("a", "u", "full-win", "full-loss", 100, 0),
                    game("s", "t", "full-loss", "full-win", 0, 100),
                    game("v", "w", "full-loss", "full-win", 0, 100),
                ],
                [
                    game("b", "s", "full-loss", "full-win", 0, 100),
                    game("c", "t", "full-win", "full-loss", 100, 0),
                    game("a", "v", "full-win", "full-loss", 100, 0),
                    game("u", "w", "full-loss", "full-win", 0, 100),
                ],
                [
                    game("b", "t", "full-win", "full-loss", 100, 99),
                    game("c", "s", "full-win", "full-loss", 100, 0),
                    game("a", "w", "modified-loss", "modified-win", 0, 10),
                    game("u", "v", "full-loss", "full-win", 0, 100),
                ],
            ],
            ["a", "b", "c", "s", "t", "u", "v", "w"],
        )
        rows = {p: line(doc, p) for p in ("a", "b", "c")}
        self.assertEqual([9, 9, 9], [rows[p]["points"] for p in ("a", "b", "c")])
        self.assertEqual([17, 15, 15], [rows[p]["tiebreakers"]["sos"] for p in ("a", "b", "c")])
        self.assertEqual([-98, 199], [rows[p]["tiebreakers"]["differential"] for p in ("b", "c")])
        self.assertEqual(["w", "a", "b", "c"], ranking(doc)[:4])

    def test_game_not_played_is_no_head_to_head(self) -> None:
        """7.7: a Full Win against a Missed Game (13.5) is not a game between the two."""
        doc = event([[game("x", "y", "full-win", "missed-game")]], ["x", "y"])
        ctx = StandingsContext(load_event(doc), get_ruleset("startrek-2e"))
        from shared_rules.standings.metrics import get_metric

        self.assertEqual([["x", "y"]], get_metric("startrek-h2h").split(ctx, ["x", "y"]))


class RulesetTest(unittest.TestCase):
    def test_victory_points_table(self) -> None:
        """7.5.1: FW 4, EB 4, Bye 4, MW 3, TT 2, ML 1, FL 1, MG 0."""
        rs = get_ruleset("startrek-1e")
        self.assertEqual(
            {
                "full-win": 4,
                "earned-bye": 4,
                "bye": 4,
                "modified-win": 3,
                "true-tie": 2,
                "modified-loss": 1,
                "full-loss": 1,
                "missed-game": 0,
            },
            {o.key: o.points for o in rs.outcomes},
        )

    def test_tiebreaker_order_and_reported_names(self) -> None:
        """7.7: VP, head-to-head, SoS, differential, CVP, random; output sos, differential, cvp."""
        rs = get_ruleset("startrek-2e")
        self.assertEqual(
            ("startrek-h2h", "startrek-sos", "startrek-differential", "startrek-cvp", "random"), rs.tiebreakers
        )
        self.assertEqual("startrek-h2h", rs.two_tied_key)
        self.assertEqual(["sos", "differential", "cvp"], [name for name, _ in rs.reported])

    def test_time_limits_by_edition_and_variant(self) -> None:
        """7.2, 13.3, 4.3.4, 4.3.6, 4.3.7: in person / online minutes."""
        cases = {
            ("startrek-1e", "standard"): (75, 105),
            ("startrek-2e", "standard"): (60, 75),
            ("startrek-1e", "warp-speed"): (30, 45),
            ("startrek-2e", "slipstream"): (30, 45),
            ("startrek-2e", "id-draft"): (45, 60),
        }
        for (rid, variant), (live, online) in cases.items():
            limits = get_ruleset(rid, {"variant": variant}).time_limits
            self.assertEqual((live, online), (limits["in-person"], limits["online"]), (rid, variant))

    def test_policies_cite_sections(self) -> None:
        rs = get_ruleset("startrek-1e")
        for key in ("bye", "earned-bye", "missed-game", "drop", "minimum-players", "minimum-rounds"):
            self.assertIn("Star Trek OP Guide", rs.policies[key].source)


class DocumentValidationTest(RejectsDocuments, unittest.TestCase):
    assertBad = RejectsDocuments.assertRejected

    def test_unknown_ending_names_the_field(self) -> None:
        self.assertBad(
            event([[game("a", "b", "full-win", "full-loss", 100, 0, ending="surrender")]], ["a", "b"]),
            "rounds[0].matches[0].ending",
        )

    def test_concession_with_a_modified_win_is_rejected(self) -> None:
        self.assertBad(
            event([[game("a", "b", "modified-win", "modified-loss", 10, 0, ending="concession")]], ["a", "b"]),
            "rounds[0].matches[0].ending",
        )

    def test_missing_scores_for_a_scored_game_is_rejected(self) -> None:
        self.assertBad(event([[game("a", "b", "full-win", "full-loss")]], ["a", "b"]), "rounds[0].matches[0].scores")

    def test_scores_not_needed_for_game_loss_or_2e_concession(self) -> None:
        load_event(
            event(
                [
                    [game("a", "b", "full-win", "full-loss", ending="game-loss")],
                    [game("a", "b", "full-win", "full-loss", ending="concession")],
                ],
                ["a", "b"],
            )
        )

    def test_1e_concession_needs_scores(self) -> None:
        """7.9: the 1E loser keeps their points, so the score is needed."""
        self.assertBad(
            event([[game("a", "b", "full-win", "full-loss", ending="concession")]], ["a", "b"], ruleset="startrek-1e"),
            "rounds[0].matches[0].scores",
        )

    def test_mismatched_results_are_rejected(self) -> None:
        self.assertBad(
            event([[game("a", "b", "full-win", "modified-loss", 100, 0)]], ["a", "b"]), "rounds[0].matches[0].outcomes"
        )
        self.assertBad(
            event([[game("a", "b", "true-tie", "full-loss", 10, 10)]], ["a", "b"]), "rounds[0].matches[0].outcomes"
        )

    def test_earned_bye_needs_an_earned_bye(self) -> None:
        self.assertBad(event([[solo("a", "earned-bye")]], ["a"]), "rounds[0].matches[0].outcomes")

    def test_earned_bye_only_in_opening_rounds(self) -> None:
        """7.5.1: earned byes are for the opening round or opening two rounds."""
        doc = event(
            [[game("a", "b", "full-win", "full-loss", 100, 0)], [solo("a", "earned-bye")]],
            ["a", "b"],
            player_fields={"a": {"earned_byes": 1}},
        )
        self.assertBad(doc, "rounds[1].matches[0].outcomes")

    def test_one_player_full_win_is_rejected(self) -> None:
        self.assertBad(event([[solo("a", "full-win")]], ["a"]), "rounds[0].matches[0].outcomes")

    def test_unknown_variant_and_wrong_edition_variant(self) -> None:
        self.assertBad(event([], ["a"], settings={"variant": "turbo"}), "settings.variant")
        self.assertBad(event([], ["a"], ruleset="startrek-1e", settings={"variant": "slipstream"}), "settings.variant")
        self.assertBad(event([], ["a"], settings={"variant": "warp-speed"}), "settings.variant")

    def test_games_not_played_are_accepted(self) -> None:
        """7.5.1, 13.5: Missed Game v Bye, Full Loss v Bye, Full Win v Missed Game, two Missed Games."""
        load_event(
            event(
                [
                    [game("a", "b", "missed-game", "bye")],
                    [game("a", "b", "full-loss", "bye")],
                    [game("a", "b", "full-win", "missed-game")],
                    [game("a", "b", "missed-game", "missed-game")],
                ],
                ["a", "b"],
            )
        )


def golden(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    doc = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    expected = json.loads((GOLDEN / f"{name}.standings.json").read_text(encoding="utf-8"))
    return doc, expected


class GoldenEventsTest(unittest.TestCase):
    def test_1e_regional_with_earned_bye_concession_missed_game_and_drop(self) -> None:
        """Hand-computed: F and B tie on 11 and G and A on 10; each pair played, head-to-head decides."""
        doc, expected = golden("startrek-1e-regional")
        self.assertEqual(expected, standings_json(load_event(doc)))

    def test_2e_slipstream_three_way_tie(self) -> None:
        """Hand-computed: P4 first on SoS although P1 beat P4; P1 over P3 on differential (cap 50)."""
        doc, expected = golden("startrek-2e-slipstream")
        self.assertEqual(expected, standings_json(load_event(doc)))


def random_event(seed: str, n_players: int, n_rounds: int, ruleset: str) -> dict[str, Any]:
    """A seeded random Star Trek event: random pairings, results, scores, endings, a drop."""
    rng = Rng(seed, "startrek-property")
    ids = [f"p{i:02d}" for i in range(n_players)]
    players: list[dict[str, Any]] = [{"id": pid, "entry": i + 1} for i, pid in enumerate(ids)]
    dropper = rng.choice(ids)
    drop_round = 1 + rng.below(n_rounds)
    players[ids.index(dropper)]["dropped_after"] = drop_round
    rounds = []
    for number in range(1, n_rounds + 1):
        active = [p for p in ids if not (p == dropper and number > drop_round)]
        order = rng.shuffled(active)
        matches: list[dict[str, Any]] = []
        while len(order) >= 2:
            a, b = order.pop(), order.pop()
            kind = rng.below(7)
            if kind == 0:
                matches.append(game(a, b, "true-tie", "true-tie", 40, 40))
            elif kind == 1:
                matches.append(game(a, b, "modified-win", "modified-loss", rng.below(90), rng.below(90)))
            elif kind == 2:
                matches.append(game(a, b, "full-win", "full-loss", ending=rng.choice(["game-loss"])))
            elif kind == 3:
                matches.append(
                    game(
                        a,
                        b,
                        "full-win",
                        "full-loss",
                        rng.below(140) - 10,
                        rng.below(120),
                        ending=rng.choice(["outright", "concession"]),
                    )
                )
            elif kind == 4:
                matches.append(game(a, b, "full-win", "missed-game"))
            else:
                matches.append(game(a, b, "full-win", "full-loss", 100, rng.below(100)))
        if order:
            matches.append(solo(order.pop(), "bye"))
        rounds.append({"number": number, "stage": "swiss", "matches": matches})
    return {"format": "topcut-event/1", "ruleset": ruleset, "seed": seed, "players": players, "rounds": rounds}


def permuted(doc: dict[str, Any], seed: str) -> dict[str, Any]:
    rng = Rng(seed, "permute")
    out = json.loads(json.dumps(doc))
    out["players"] = rng.shuffled(out["players"])
    out["rounds"] = rng.shuffled(out["rounds"])
    for rnd in out["rounds"]:
        rnd["matches"] = rng.shuffled(rnd["matches"])
    return out


class SeededPropertiesTest(unittest.TestCase):
    CASES = [(f"case-{i}", 3 + i % 11, 3 + i % 4, "startrek-1e" if i % 2 else "startrek-2e") for i in range(24)]

    def test_ranks_are_1_to_n_and_unique(self) -> None:
        for seed, n, r, rid in self.CASES:
            rows = standings_json(load_event(random_event(seed, n, r, rid)))["standings"]
            self.assertEqual(list(range(1, n + 1)), [row["rank"] for row in rows], seed)
            self.assertEqual(n, len({row["player"] for row in rows}), seed)

    def test_recomputation_is_identical(self) -> None:
        for seed, n, r, rid in self.CASES:
            doc = random_event(seed, n, r, rid)
            self.assertEqual(
                json.dumps(standings_json(load_event(doc))),
                json.dumps(standings_json(load_event(json.loads(json.dumps(doc))))),
                seed,
            )

    def test_reordering_players_rounds_and_matches_changes_nothing(self) -> None:
        for seed, n, r, rid in self.CASES:
            doc = random_event(seed, n, r, rid)
            self.assertEqual(standings_json(load_event(doc)), standings_json(load_event(permuted(doc, seed))), seed)

    def test_points_are_ordered_and_differentials_sum_to_earned_and_unplayed(self) -> None:
        """Antisymmetry: every played game's differentials cancel out."""
        for seed, n, r, rid in self.CASES:
            doc = random_event(seed, n, r, rid)
            rows = standings_json(load_event(doc))["standings"]
            pts = [row["points"] for row in rows]
            self.assertEqual(sorted(pts, reverse=True), pts, seed)
            cap = 100
            unplayed = sum(
                cap for rnd in doc["rounds"] for m in rnd["matches"] if m["outcomes"] == ["full-win", "missed-game"]
            )
            self.assertEqual(unplayed, sum(row["tiebreakers"]["differential"] for row in rows), seed)


if __name__ == "__main__":
    unittest.main()

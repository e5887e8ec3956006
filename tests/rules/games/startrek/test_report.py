"""The Star Trek tournament report (OP Guide 8, Appendix A) against the golden 1E regional and built events."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import unittest
from typing import Any

from shared_rules.cli import main
from shared_rules.errors import DocumentError, RulesError
from shared_rules.games.startrek.report import report_text, tournament_report
from shared_rules.run import load_event, next_round
from tests.rules.helpers import GOLDEN, json_file


def golden_doc(name: str) -> dict[str, Any]:
    with open(os.path.join(GOLDEN, name), encoding="utf-8") as fh:
        return json.load(fh)


def with_cut(cut: int, results: list[list[tuple[str, str]]]) -> dict[str, Any]:
    """The golden 1E regional with a cut, each elimination round played as ``results`` says (loser's seat first)."""
    doc = golden_doc("startrek-1e-regional.json")
    doc["settings"]["cut"] = cut
    for outcomes in results:
        rnd = next_round(load_event(doc))
        for match, pair in zip(rnd["matches"], outcomes):
            match["outcomes"] = list(pair)
            match["scores"] = [100, 40] if pair[0] == "full-win" else [40, 100]
        doc["rounds"].append(
            {"number": rnd["round"], "stage": rnd["stage"], "matches": rnd["matches"], "bracket": rnd["bracket"]}
        )
    return doc


def tribbles_tables() -> dict[str, Any]:
    """Ten Tribbles players at two tables for rounds 1-5, re-podded by score for rounds 6-7."""
    ids = [f"t{i}" for i in range(10)]
    rounds = []
    for n in range(1, 8):
        pods = [ids[:5], ids[5:]] if n <= 5 else [["t0", "t1", "t5", "t6", "t2"], ["t3", "t4", "t7", "t8", "t9"]]
        rounds.append(
            {
                "number": n,
                "matches": [
                    {
                        "table": k,
                        "players": pod,
                        "outcomes": ["win"] + ["loss"] * 4,
                        "scores": [100 * (5 - j) + n for j in range(5)],
                    }
                    for k, pod in enumerate(pods, 1)
                ],
            }
        )
    return {
        "ruleset": "tribbles",
        "name": "Big Tribbles",
        "seed": "x",
        "players": [{"id": p, "name": p.upper(), "entry": i + 1} for i, p in enumerate(ids)],
        "rounds": rounds,
    }


def field(tournament: dict[str, Any], key: str) -> Any:
    return next(f["value"] for s in tournament["sections"] for f in s["fields"] if f["key"] == key)


def seat(report_round: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(s for t in report_round["tables"] for s in t["seats"] if s["player"] == pid)


class SwissReport(unittest.TestCase):
    def setUp(self) -> None:
        self.doc = golden_doc("startrek-1e-regional.json")
        self.report = tournament_report(load_event(self.doc))
        self.swiss = self.report["tournaments"][0]

    def test_the_forms_come_in_the_order_of_appendix_a(self):
        self.assertEqual([s["id"] for s in self.swiss["sections"]], ["event", "venue", "details"])
        self.assertEqual(
            [f["label"] for f in self.swiss["sections"][0]["fields"]],
            [
                "Date",
                "Time",
                "Time zone",
                "Edition",
                "Tournament Format",
                "Card Pool",
                "Rules Set",
                "Scenario",
                "Number of Rounds",
                "Final confrontation",
                "Pairing Style",
                "League Event?",
                "Primary TD",
                "Secondary TD",
            ],
        )
        self.assertEqual(
            [f["label"] for f in self.swiss["sections"][1]["fields"]],
            ["Region", "Host", "Address", "Phone Number", "Email Address"],
        )
        self.assertEqual(
            [f["label"] for f in self.swiss["sections"][2]["fields"]],
            ["Discussion thread", "Entry fee", "Special Rules"],
        )

    def test_what_the_event_knows_is_filled_in(self):
        self.assertEqual(self.report["edition"], "First Edition")
        self.assertEqual(
            (
                field(self.swiss, "edition"),
                field(self.swiss, "rounds"),
                field(self.swiss, "pairing_style"),
                field(self.swiss, "final_confrontation"),
                field(self.swiss, "rules_set"),
            ),
            ("First Edition", "4", "Swiss", "no", "Standard"),
        )
        self.assertEqual(len(self.report["tournaments"]), 1)

    def test_every_player_is_listed_as_on_the_scorecards(self):
        self.assertEqual(
            [p["name"] for p in self.swiss["players"]], ["Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Gray"]
        )

    def test_each_round_gives_result_score_victory_points_and_differential(self):
        first = self.swiss["rounds"][0]
        self.assertEqual(
            seat(first, "B"),
            {"player": "B", "name": "Blake", "result": "FW", "score": 100, "vp": 4, "differential": 60},
        )
        self.assertEqual(seat(first, "C")["result"], "FL")
        self.assertEqual((seat(first, "A")["result"], seat(first, "A")["differential"]), ("BYE", 100))  # earned bye
        self.assertEqual(seat(self.swiss["rounds"][2], "B")["result"], "TT")
        # Devon dropped after round 3: a Missed Game in round 4 (7.5.1)
        devon = seat(self.swiss["rounds"][3], "D")
        self.assertEqual((devon["result"], devon["vp"], devon["note"]), ("MG", 0, "dropped after round 3"))

    def test_the_final_check_matches_the_standings_totals(self):
        from shared_rules.run import standings_json

        standings = standings_json(load_event(self.doc))["standings"]
        self.assertEqual(
            [(r["player"], r["vp"], r["differential"]) for r in self.swiss["totals"]],
            [(s["player"], s["points"], s["tiebreakers"]["differential"]) for s in standings],
        )
        for pid in ("A", "B", "C", "D", "E", "F", "G"):
            rounds = [seat(r, pid) for r in self.swiss["rounds"]]
            total = next(t for t in self.swiss["totals"] if t["player"] == pid)
            self.assertEqual(sum(r["vp"] for r in rounds), total["vp"], pid)
            self.assertEqual(sum(r["differential"] for r in rounds), total["differential"], pid)

    def test_fields_only_the_director_knows_are_listed_as_missing_until_given(self):
        self.assertIn("Primary TD", self.report["missing"])
        self.assertNotIn("Secondary TD", self.report["missing"])
        doc = copy.deepcopy(self.doc)
        doc["date"] = "2026-11-21"
        doc["settings"]["rating"] = {"sanctioned": True, "level": 2, "format": "constructed"}
        doc["settings"]["report"] = {
            "time": "10:00",
            "time_zone": "UTC",
            "card_pool": "Standard",
            "primary_td": "Quark",
            "region": "UK",
            "host": "Quark's Bar",
            "address": "Promenade, DS9",
            "phone": "555",
            "email": "q@ds9.example",
            "league_event": True,
            "entry_fee": "5 strips of latinum",
        }
        report = tournament_report(load_event(doc))
        swiss = report["tournaments"][0]
        self.assertEqual(report["missing"], [])
        self.assertEqual(
            (
                field(swiss, "date"),
                field(swiss, "tournament_format"),
                field(swiss, "league_event"),
                field(swiss, "host"),
                field(swiss, "entry_fee"),
            ),
            ("2026-11-21", "Constructed", "yes", "Quark's Bar", "5 strips of latinum"),
        )

    def test_a_bad_report_field_is_refused_by_name(self):
        for report, path in (
            ({"host": 3}, "settings.report.host"),
            ({"league_event": "yes"}, "settings.report.league_event"),
            ({"prizes": "a tribble"}, "settings.report.prizes"),
            ("Quark", "settings.report"),
        ):
            doc = copy.deepcopy(self.doc)
            doc["settings"]["report"] = report
            with self.subTest(report=report):
                with self.assertRaises(DocumentError) as ctx:
                    tournament_report(load_event(doc))
                self.assertEqual(ctx.exception.path, path)

    def test_a_pending_result_makes_the_report_incomplete(self):
        doc = copy.deepcopy(self.doc)
        del doc["rounds"][3]["matches"][0]["outcomes"]
        del doc["rounds"][3]["matches"][0]["scores"]
        report = tournament_report(load_event(doc))
        self.assertFalse(report["complete"])
        self.assertTrue(self.report["complete"])
        self.assertEqual(seat(report["tournaments"][0]["rounds"][3], "C")["result"], "pending")

    def test_a_non_star_trek_event_is_refused(self):
        doc = golden_doc("doomtown-roundup.json")
        with self.assertRaises(RulesError) as ctx:
            tournament_report(load_event(doc))
        self.assertIn("not a Star Trek CCG event", str(ctx.exception))

    def test_second_edition_slipstream(self):
        report = tournament_report(load_event(golden_doc("startrek-2e-slipstream.json")))
        swiss = report["tournaments"][0]
        self.assertEqual((report["edition"], field(swiss, "rules_set")), ("Second Edition", "Slipstream"))
        self.assertTrue(
            all(
                abs(s["differential"]) <= 50
                for r in swiss["rounds"]
                for t in r["tables"]
                for s in t["seats"]
                if "differential" in s
            )
        )


class Cuts(unittest.TestCase):
    def test_a_two_player_cut_is_a_final_confrontation(self):
        report = tournament_report(load_event(with_cut(2, [[("full-loss", "full-win")]])))
        self.assertEqual(len(report["tournaments"]), 1)
        swiss = report["tournaments"][0]
        self.assertEqual((field(swiss, "final_confrontation"), field(swiss, "rounds")), ("yes", "4"))
        final = swiss["final_confrontation"]
        self.assertEqual([p["name"] for p in final["players"]], ["Casey", "Finley"])
        self.assertEqual(final["winner_name"], "Finley")

    def test_a_larger_cut_is_entered_as_a_seeded_elimination_tournament_with_missed_games(self):
        doc = with_cut(4, [[("full-win", "full-loss"), ("full-win", "full-loss")], [("full-loss", "full-win")]])
        report = tournament_report(load_event(doc))
        self.assertEqual(len(report["tournaments"]), 2)
        elim = report["tournaments"][1]
        self.assertEqual((field(elim, "pairing_style"), field(elim, "rounds")), ("Single Elimination", "2"))
        self.assertEqual(
            [(p["seed"], p["name"]) for p in elim["players"]], [(1, "Casey"), (2, "Finley"), (3, "Blake"), (4, "Gray")]
        )
        self.assertEqual([r["round"] for r in elim["rounds"]], [1, 2])
        self.assertEqual(
            [(s["name"], s["result"]) for t in elim["rounds"][1]["tables"] for s in t["seats"]],
            [("Casey", "FL"), ("Finley", "FW"), ("Blake", "MG"), ("Gray", "MG")],
        )
        self.assertNotIn("vp", seat(elim["rounds"][0], "C"))  # Victory Points do not apply in match play (10)
        self.assertEqual([(r["rank"], r["name"]) for r in elim["totals"]][:2], [(1, "Finley"), (2, "Casey")])

    def test_modified_mcintyre_is_named(self):
        doc = golden_doc("startrek-1e-regional.json")
        doc["settings"].update(cut=4, bracket="modified-mcintyre")
        rnd = next_round(load_event(doc))
        doc["rounds"].append(
            {"number": rnd["round"], "stage": rnd["stage"], "matches": rnd["matches"], "bracket": rnd["bracket"]}
        )
        report = tournament_report(load_event(doc))
        self.assertEqual(field(report["tournaments"][1], "pairing_style"), "Modified McIntyre")
        self.assertFalse(report["complete"])


class TribblesReport(unittest.TestCase):
    def test_one_pod_is_one_tournament_of_round_scores(self):
        report = tournament_report(load_event(golden_doc("tribbles-pod.json")))
        self.assertEqual(len(report["tournaments"]), 1)
        first = report["tournaments"][0]["rounds"][0]
        self.assertEqual(
            seat(first, "T1"), {"player": "T1", "name": seat(first, "T1")["name"], "score": 1000, "result": "went out"}
        )
        self.assertEqual(set(report["tournaments"][0]["totals"][0]), {"player", "name", "score", "rounds_won", "rank"})

    def test_several_tables_are_entered_as_appendix_a_heats_and_tribbles_finals(self):
        report = tournament_report(load_event(tribbles_tables()))
        self.assertEqual(
            [t["title"] for t in report["tournaments"]],
            [
                "Big Tribbles: table 1 (rounds 1-5)",
                "Big Tribbles: table 2 (rounds 1-5)",
                "Big Tribbles: Tribbles Finals",
            ],
        )
        heat = report["tournaments"][0]
        self.assertEqual([p["player"] for p in heat["players"]], ["t0", "t1", "t2", "t3", "t4"])
        self.assertEqual(len(heat["rounds"]), 5)
        finals = report["tournaments"][2]
        self.assertEqual(field(finals, "pairing_style"), "Tribbles Finals")
        self.assertEqual([r["round"] for r in finals["rounds"]], [6, 7])
        self.assertEqual({p["player"]: p["seed"] for p in finals["players"]}["t5"], 1)
        # ranked by table first, then points: t3 scored as much as t0 but sits at table 2
        self.assertEqual([r["player"] for r in finals["totals"]][:6], ["t0", "t1", "t5", "t6", "t2", "t3"])
        self.assertEqual(report["warnings"], [])


class Text(unittest.TestCase):
    def test_the_plain_page_lists_every_section_round_and_total(self):
        report = tournament_report(load_event(with_cut(2, [[("full-loss", "full-win")]])))
        text = report_text(report)
        for line in (
            "Edition: First Edition",
            "Event information",
            "Venue details",
            "Event details",
            "Players",
            "Round 4",
            "  Table 1: Blake (FW, score 100, 4 VP, diff +60) vs Casey (FL, score 40, 1 VP, diff -60)",
            "Final confrontation",
            "  Casey vs Finley: won by Finley",
            "  1. Casey: 13 VP, differential +125, 3-1-0",
            "To fill in at www.trekcc.org: Date",
        ):
            self.assertIn(line, text)
        self.assertTrue(text.endswith("\n"))


class ReportCommand(unittest.TestCase):
    def cli(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def test_report_prints_json_or_the_plain_page(self):
        path = os.path.join(GOLDEN, "startrek-1e-regional.json")
        report = tournament_report(load_event(golden_doc("startrek-1e-regional.json")))
        code, out, err = self.cli("report", path)
        self.assertEqual((0, ""), (code, err))
        self.assertEqual(json.loads(out), report)
        self.assertEqual(self.cli("report", path, "--text"), (0, report_text(report), ""))

    def test_a_non_star_trek_event_is_one_line_and_status_2(self):
        path = json_file(self, golden_doc("doomtown-roundup.json"))
        code, out, err = self.cli("report", path)
        self.assertEqual((2, ""), (code, out))
        self.assertTrue(err.startswith(f"error: {path}: ruleset: 'doomtown' is not a Star Trek CCG event"))
        self.assertEqual(1, len(err.strip().splitlines()))


if __name__ == "__main__":
    unittest.main()

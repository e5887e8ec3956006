"""Standings and pairings CSV: columns, headings from the ruleset's tiebreaker labels, quoting, the command."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import unittest
from typing import Any

from shared_rules.cli import main
from shared_rules.errors import RulesError
from shared_rules.exporters.csv import pairings_csv, standings_csv
from shared_rules.run import load_event, standings_json

from .helpers import GOLDEN, json_file


def golden(name: str) -> Any:
    with open(os.path.join(GOLDEN, name), encoding="utf-8") as fh:
        return load_event(json.load(fh))


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def tricky_event() -> Any:
    names = ['Holliday, "Doc"', "=cmd|' /C calc'!A0", "Line\nbreak", "Plain"]
    return load_event(
        {
            "ruleset": "doomtown",
            "seed": "s",
            "players": [{"id": f"p{i}", "name": n, "entry": i + 1, "game_id": f"dt-{i}"} for i, n in enumerate(names)],
            "rounds": [
                {
                    "number": 1,
                    "matches": [
                        {"table": 1, "players": ["p0", "p1"], "outcomes": ["win", "loss"]},
                        {"table": 2, "players": ["p2", "p3"]},
                    ],
                }
            ],
        }
    )


class StandingsCsv(unittest.TestCase):
    def test_columns_follow_the_rulesets_tiebreakers_with_their_labels(self):
        event = golden("startrek-1e-regional.json")
        rows = parse(standings_csv(event))
        self.assertEqual(
            rows[0],
            [
                "Rank",
                "Name",
                "trekcc.org forum handle",
                "Points",
                "Record",
                "Strength of Schedule",
                "Differential",
                "Cumulative VP",
                "Dropped",
            ],
        )
        expected = standings_json(event)["standings"]
        self.assertEqual(len(rows), len(expected) + 1)
        for line, row in zip(rows[1:], expected):
            self.assertEqual(line[0], str(row["rank"]))
            player = event.player(row["player"])
            self.assertEqual(line[1:3], [player.name, player.game_id or ""])
            self.assertEqual(line[3], str(row["points"]))
            self.assertEqual(line[4], row["record"])
            self.assertEqual(line[5:8], [str(row["tiebreakers"][k]) for k in ("sos", "differential", "cvp")])
            self.assertEqual(line[8], "yes" if row["dropped"] else "no")

    def test_pokemon_divisions_get_a_division_column_and_percentages_stay_fractions(self):
        rows = parse(standings_csv(golden("pokemon-two-divisions.json")))
        self.assertEqual(
            rows[0],
            [
                "Rank",
                "Name",
                "Play! Pokémon ID",
                "Birth year",
                "Division",
                "Points",
                "Record",
                "Op Win %",
                "Op Op Win %",
                "Dropped",
            ],
        )
        self.assertEqual({r[4] for r in rows[1:]}, {"masters", "junior"})
        self.assertTrue(all(0 <= float(r[7]) <= 1 for r in rows[1:]))

    def test_the_game_id_is_the_players_id_column_and_the_apps_own_ids_never_show(self):
        doc = {
            "ruleset": "pokemon-tcg",
            "seed": "s",
            "settings": {"season": 2025},
            "players": [
                {"id": "p-qa3v5i", "name": "Ash", "entry": 1, "birth_year": 2001, "game_id": "1000925"},
                {"id": "p-zz9k2m", "name": "Misty", "entry": 2, "birth_year": 2001, "pop_id": "1000926"},
                {"id": "p-r2d2c3", "name": "Brock", "entry": 3, "birth_year": 2001},
            ],
            "rounds": [{"number": 1, "matches": [{"players": ["p-qa3v5i", "p-zz9k2m"], "outcomes": ["win", "loss"]}]}],
        }
        rows = parse(standings_csv(load_event(doc)))
        self.assertEqual({r[1]: r[2] for r in rows[1:]}, {"Ash": "1000925", "Misty": "1000926", "Brock": ""})
        self.assertNotIn("p-", standings_csv(load_event(doc)))
        self.assertEqual(parse(pairings_csv(load_event(doc), 1))[1][1:5], ["Ash", "1000925", "Misty", "1000926"])

    def test_tribbles_columns(self):
        rows = parse(standings_csv(golden("tribbles-pod.json")))
        self.assertEqual(rows[0][5:-1], ["Score", "Rounds won"])

    def test_names_with_commas_quotes_line_breaks_and_formulas_are_quoted_and_guarded(self):
        text = standings_csv(tricky_event())
        self.assertIn('"Holliday, ""Doc"""', text)
        self.assertIn('"Line\nbreak"', text)
        self.assertTrue(text.endswith("\r\n"))
        names = [r[1] for r in parse(text)[1:]]
        self.assertEqual(sorted(names), sorted(['Holliday, "Doc"', "'=cmd|' /C calc'!A0", "Line\nbreak", "Plain"]))


class PairingsCsv(unittest.TestCase):
    def test_a_round_with_results_scores_and_a_bye(self):
        rows = parse(pairings_csv(golden("startrek-1e-regional.json"), 1))
        handle = "trekcc.org forum handle"
        self.assertEqual(
            rows[0], ["Table", "Player 1", f"Player 1 {handle}", "Player 2", f"Player 2 {handle}", "Result", "Scores"]
        )
        self.assertIn(["1", "Blake", "", "Casey", "", "full-win / full-loss", "100 / 40"], rows)
        self.assertIn(["", "Avery", "", "", "", "earned-bye", ""], rows)

    def test_pending_results_are_empty_and_names_are_quoted(self):
        rows = parse(pairings_csv(tricky_event(), 1))
        self.assertEqual(rows[0], ["Table", "Player 1", "Player 1 ID", "Player 2", "Player 2 ID", "Result"])
        self.assertEqual(rows[1], ["1", 'Holliday, "Doc"', "dt-0", "'=cmd|' /C calc'!A0", "dt-1", "win / loss"])
        self.assertEqual(rows[2], ["2", "Line\nbreak", "dt-2", "Plain", "dt-3", ""])

    def test_a_tribbles_pod_gets_a_column_pair_per_seat(self):
        event = golden("tribbles-pod.json")
        rows = parse(pairings_csv(event, 1))
        seats = max(len(m.players) for m in event.rounds[0].matches)
        self.assertEqual(rows[0][-2:], ["Result", "Scores"])
        self.assertEqual(len(rows[0]), 1 + 2 * seats + 2)

    def test_an_unknown_round_is_refused(self):
        with self.assertRaises(RulesError) as ctx:
            pairings_csv(golden("startrek-1e-regional.json"), 42)
        self.assertIn("no round 42", str(ctx.exception))

    def test_two_stages_sharing_a_number_need_the_stage(self):
        event = load_event(
            {
                "ruleset": "doomtown",
                "seed": "s",
                "players": [{"id": p, "name": p.upper(), "entry": i + 1} for i, p in enumerate("abcd")],
                "rounds": [
                    {"number": 1, "matches": [{"players": ["a", "b"], "outcomes": ["win", "loss"]}]},
                    {
                        "number": 1,
                        "stage": "elimination",
                        "matches": [{"players": ["d", "c"], "outcomes": ["win", "loss"]}],
                    },
                ],
            }
        )
        with self.assertRaises(RulesError):
            pairings_csv(event, 1)
        self.assertEqual(parse(pairings_csv(event, 1, "elimination"))[1][1], "D")


class ExportCommand(unittest.TestCase):
    def cli(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def test_export_csv_prints_the_csv_text(self):
        path = os.path.join(GOLDEN, "startrek-1e-regional.json")
        event = golden("startrek-1e-regional.json")
        self.assertEqual(self.cli("export-csv", "standings", path), (0, standings_csv(event), ""))
        self.assertEqual(self.cli("export-csv", "pairings", path, "--round", "2"), (0, pairings_csv(event, 2), ""))

    def test_bad_arguments_are_one_line_and_status_2(self):
        path = json_file(self, {"ruleset": "doomtown", "seed": "s", "players": []})
        for argv in (
            ("export-csv", "pairings", path),
            ("export-csv", "pairings", path, "--round", "x"),
            ("export-csv", "pairings", path, "--round", "1"),
            ("export-csv", "ratings", path),
            ("export-csv", "standings", path, "--round", "1"),
        ):
            with self.subTest(argv=argv):
                code, out, err = self.cli(*argv)
                self.assertEqual((2, ""), (code, out))
                self.assertEqual(1, len(err.strip().splitlines()))


if __name__ == "__main__":
    unittest.main()

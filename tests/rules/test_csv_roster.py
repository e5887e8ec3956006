"""CSV roster import: header aliases, explicit mapping, separators and BOM, every per-row error, the command."""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import unittest
from typing import Any

from shared_rules.cli import main
from shared_rules.errors import RulesError
from shared_rules.importers.csv_roster import roster_from_csv
from shared_rules.run import load_event

from .helpers import json_file

ALPHABET = set("abcdefghijkmnpqrstuvwxyz23456789")


def event(ruleset: str = "pokemon-tcg", players: Any = ()) -> Any:
    return load_event(
        {"ruleset": ruleset, "seed": "roster-seed", "players": [dict(p, entry=i + 1) for i, p in enumerate(players)]}
    )


def rows_of(out: dict[str, Any]) -> list[tuple[int, str | None]]:
    return [(e["row"], e["column"]) for e in out["errors"]]


class Headings(unittest.TestCase):
    def test_known_headings_are_read_without_a_mapping(self):
        text = "Player,Player ID,Birth year,Division\nAsh,1001,2001,Masters\n"
        out = roster_from_csv(event(), text)
        (player,) = out["players"]
        self.assertEqual(
            {k: v for k, v in player.items() if k != "id"},
            {"name": "Ash", "birth_year": 2001, "division": "masters", "game_id": "1001"},
        )
        self.assertEqual(
            out["columns"],
            {"Player": "name", "Player ID": "game_id", "Birth year": "birth_year", "Division": "division"},
        )
        self.assertEqual(out["errors"], [])

    def test_the_games_own_id_label_and_a_trekcc_column_are_the_game_id(self):
        out = roster_from_csv(event(), "Name,Play! Pokémon ID\nAsh,1001\n")
        self.assertEqual(out["players"][0]["game_id"], "1001")
        out = roster_from_csv(event("startrek-2e"), "Name,trekcc\nPicard,jeanluc\n")
        self.assertEqual(out["players"][0]["game_id"], "jeanluc")
        self.assertTrue(out["players"][0]["id"].startswith("p-"))

    def test_an_older_mapping_naming_id_or_rating_id_fills_the_game_id(self):
        for old in ("id", "rating_id"):
            with self.subTest(old=old):
                out = roster_from_csv(event("startrek-1e"), "Name,Handle\nKirk,jtk\n", {"Handle": old})
                self.assertEqual(out["players"][0]["game_id"], "jtk")

    def test_other_spellings_of_the_headings(self):
        for heading in ("Name", "PLAYER NAME", "full_name"):
            with self.subTest(heading=heading):
                self.assertEqual(roster_from_csv(event(), f"{heading}\nAsh\n")["players"][0]["name"], "Ash")
        out = roster_from_csv(event(), "POP ID,First name,Last name,DOB\n7,Ash,Ketchum,14/05/2009\n")
        self.assertEqual(
            out["players"], [{"id": out["players"][0]["id"], "name": "Ash Ketchum", "birth_year": 2009, "game_id": "7"}]
        )

    def test_unknown_headings_are_ignored_and_listed(self):
        out = roster_from_csv(event(), "Name,Deck,Paid\nAsh,Pikachu,yes\n")
        self.assertEqual(out["ignored"], ["Deck", "Paid"])
        self.assertEqual(out["players"][0], {"id": out["players"][0]["id"], "name": "Ash"})

    def test_an_explicit_mapping_reads_any_heading_and_overrides_an_alias(self):
        text = "Spieler,Jahrgang,Name\nAsh,2001,nickname\n"
        out = roster_from_csv(event(), text, {"Spieler": "name", "Jahrgang": "birth_year", "Name": "ignore"})
        self.assertEqual(out["players"][0]["name"], "Ash")
        self.assertEqual(out["players"][0]["birth_year"], 2001)

    def test_a_bad_mapping_or_a_file_without_names_is_refused_as_a_whole(self):
        for text, mapping, words in (
            ("Name\nAsh\n", {"Name": "nickname"}, "unknown field"),
            ("Name\nAsh\n", {"Nom de guerre": "name"}, "no column"),
            ("Deck\nPikachu\n", None, "no name column"),
            ("", None, "empty"),
            ("Name,Player\nAsh,Ash\n", None, "both name"),
            ("Name,First name\nAsh,Ash\n", None, "first/last"),
        ):
            with self.subTest(text=text, mapping=mapping):
                with self.assertRaises(RulesError) as ctx:
                    roster_from_csv(event(), text, mapping)
                self.assertIn(words, str(ctx.exception))


class Separators(unittest.TestCase):
    def test_semicolons_a_byte_order_mark_crlf_and_quoted_cells(self):
        text = '\ufeffName;Birth year\r\n"Ketchum; Ash";2001\r\n"Say ""Hi"", Misty";2009\r\n'
        out = roster_from_csv(event(), text)
        self.assertEqual(
            [(p["name"], p["birth_year"]) for p in out["players"]], [("Ketchum; Ash", 2001), ('Say "Hi", Misty', 2009)]
        )
        self.assertEqual(out["columns"], {"Name": "name", "Birth year": "birth_year"})

    def test_commas_with_a_byte_order_mark_and_blank_rows(self):
        text = '\ufeff\nName,Birth year\n\n"Ketchum, Ash",2001\n,\n'
        out = roster_from_csv(event(), text)
        self.assertEqual([p["name"] for p in out["players"]], ["Ketchum, Ash"])
        self.assertEqual(out["errors"], [])

    def test_an_apostrophe_guard_written_by_the_exporter_is_read_back(self):
        out = roster_from_csv(event(), "Name\n'=Ash\n'Brock\n")
        self.assertEqual([p["name"] for p in out["players"]], ["=Ash", "'Brock"])


class RowErrors(unittest.TestCase):
    ROSTER = event(players=[{"id": "p-a", "name": "Ash", "pop_id": "1001"}, {"id": "x", "name": "Brock"}])
    TREK = event("startrek-2e", players=[{"id": "x", "name": "Brock", "rating_id": "trek-9"}])

    def import_rows(self, header: str, *rows: str, ruleset_event: Any = None) -> dict[str, Any]:
        return roster_from_csv(ruleset_event or self.ROSTER, "\n".join((header,) + rows) + "\n")

    def test_missing_name(self):
        out = self.import_rows("Name,Player ID", ",2002", "Misty,2003")
        self.assertEqual(out["errors"], [{"row": 2, "column": "Name", "problem": "missing name"}])
        self.assertEqual([p["game_id"] for p in out["players"]], ["2003"])

    def test_birth_year_not_a_year(self):
        out = self.import_rows("Name,DOB", "Misty,soon", "Gary,1850", "May,2009-13", "Max,05/2009", "Dawn,2010-02-03")
        self.assertEqual(rows_of(out), [(2, "DOB"), (3, "DOB"), (4, "DOB"), (5, "DOB")])
        self.assertIn("'soon' is not a birth year", out["errors"][0]["problem"])
        self.assertEqual([(p["name"], p["birth_year"]) for p in out["players"]], [("Dawn", 2010)])

    def test_unknown_division(self):
        out = self.import_rows("Name,Division", "Misty,Kids", "Gary,Senior division", "May,JUNIORS")
        self.assertEqual(
            out["errors"],
            [{"row": 2, "column": "Division", "problem": "unknown division 'Kids' (junior, senior or masters)"}],
        )
        self.assertEqual([p["division"] for p in out["players"]], ["senior", "junior"])

    def test_a_division_column_is_left_out_for_a_game_without_age_divisions(self):
        out = self.import_rows("Name,Division", "Picard,Kids", ruleset_event=event("startrek-1e"))
        self.assertEqual(out["errors"], [])
        self.assertEqual(out["players"][0], {"id": out["players"][0]["id"], "name": "Picard"})
        self.assertEqual(len(out["warnings"]), 1)

    def test_duplicate_id_in_the_file_and_already_in_the_event(self):
        out = self.import_rows("Name,POP ID", "Misty,2002", "Gary,2002", "Ash again,1001")
        self.assertEqual(
            out["errors"],
            [
                {"row": 3, "column": "POP ID", "problem": "Play! Pokémon ID 2002 is also row 2"},
                {"row": 4, "column": "POP ID", "problem": "Play! Pokémon ID 1001 is already registered (Ash)"},
            ],
        )
        self.assertEqual([p["game_id"] for p in out["players"]], ["2002"])

    def test_a_pokemon_id_that_is_not_digits_is_refused_with_its_row(self):
        out = self.import_rows("Name,POP ID", "Misty,20o2")
        self.assertEqual(
            out["errors"], [{"row": 2, "column": "POP ID", "problem": "'20o2' is not a Play! Pokémon ID (digits only)"}]
        )

    def test_duplicate_trekcc_handle_in_the_file_and_already_in_the_event(self):
        out = self.import_rows("Name,trekcc", "Picard,trek-1", "Riker,trek-1", "Data,trek-9", ruleset_event=self.TREK)
        self.assertEqual(rows_of(out), [(3, "trekcc"), (4, "trekcc")])
        self.assertIn("(Brock)", out["errors"][1]["problem"])

    def test_earned_byes_not_a_whole_number(self):
        out = self.import_rows("Name,Earned byes", "Picard,two", "Riker,1")
        self.assertEqual(rows_of(out), [(2, "Earned byes")])
        self.assertEqual(out["players"][0]["earned_byes"], 1)

    def test_more_cells_than_headings(self):
        out = self.import_rows("Name", "Misty,extra")
        self.assertEqual(out["errors"], [{"row": 2, "column": None, "problem": "2 cells, but the heading row has 1"}])

    def test_a_row_too_large_for_one_registration(self):
        out = self.import_rows("Name", "M" * 5000)
        self.assertEqual(rows_of(out), [(2, None)])
        self.assertIn("4,096", out["errors"][0]["problem"])

    def test_every_problem_of_a_row_is_reported(self):
        out = self.import_rows("Name,DOB,Division,POP ID", ",never,kids,1001")
        self.assertEqual(rows_of(out), [(2, "Name"), (2, "DOB"), (2, "Division"), (2, "POP ID")])
        self.assertEqual(out["players"], [])


class NewIds(unittest.TestCase):
    def test_new_ids_look_like_the_apps_and_are_the_same_for_the_same_file(self):
        text = "Name\nMisty\nMisty\nGary\n"
        one, two = roster_from_csv(event(), text), roster_from_csv(event(), text)
        ids = [p["id"] for p in one["players"]]
        self.assertEqual(ids, [p["id"] for p in two["players"]])
        self.assertEqual(len(set(ids)), 3)
        for pid in ids:
            self.assertTrue(pid.startswith("p-") and len(pid) == 8 and set(pid[2:]) <= ALPHABET, pid)

    def test_a_new_id_never_takes_an_id_of_the_event(self):
        first = roster_from_csv(event(), "Name\nMisty\n")["players"][0]["id"]
        out = roster_from_csv(event(players=[{"id": first, "name": "Taken"}]), "Name\nMisty\n")
        self.assertNotEqual(out["players"][0]["id"], first)

    def test_an_id_column_is_the_game_id_never_the_player_id(self):
        out = roster_from_csv(event(), "ID,Name\n1000925,Gary\n,Misty\n")
        self.assertEqual([p.get("game_id") for p in out["players"]], ["1000925", None])
        self.assertTrue(all(p["id"].startswith("p-") for p in out["players"]))

    def test_the_payloads_register_in_the_reducer(self):
        from shared_rules.state import apply, initial_state

        state = apply(
            initial_state(),
            {
                "type": "event.create",
                "op_id": "d:0",
                "device": "d",
                "actor": {"role": "organizer"},
                "at": 0,
                "payload": {"ruleset": "pokemon-tcg", "name": "Cup", "seed": "s"},
            },
        )
        out = roster_from_csv(event(), "Name,DOB,Division,POP ID\nAsh,2001,Masters,\nMisty,2009,Juniors,77\n")
        for i, player in enumerate(out["players"], 1):
            state = apply(
                state,
                {
                    "type": "player.register",
                    "op_id": f"d:{i}",
                    "device": "d",
                    "actor": {"role": "organizer"},
                    "at": i,
                    "payload": {"player": player},
                },
            )
        self.assertEqual([(p["name"], p["entry"]) for p in state["players"]], [("Ash", 1), ("Misty", 2)])


class ImportCommand(unittest.TestCase):
    def cli(self, *argv: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, out.getvalue(), err.getvalue()

    def roster(self, data: bytes) -> str:
        handle = tempfile.NamedTemporaryFile("wb", suffix=".csv", delete=False)
        with handle:
            handle.write(data)
        self.addCleanup(os.unlink, handle.name)
        return handle.name

    def test_import_csv_prints_players_and_errors(self):
        ev = json_file(self, {"ruleset": "pokemon-tcg", "seed": "s", "players": []})
        roster = self.roster("\ufeffSpieler;Jahrgang\r\nAsh;2001\r\n;2009\r\n".encode("utf-8"))
        code, out, err = self.cli("import-csv", ev, roster, "--map", "Spieler=name", "--map", "Jahrgang=birth_year")
        self.assertEqual((0, ""), (code, err))
        body = json.loads(out)
        self.assertEqual([p["name"] for p in body["players"]], ["Ash"])
        self.assertEqual(body["errors"], [{"row": 3, "column": "Spieler", "problem": "missing name"}])

    def test_bad_input_is_one_line_and_status_2(self):
        ev = json_file(self, {"ruleset": "pokemon-tcg", "seed": "s", "players": []})
        for roster, extra, words in (
            (self.roster(b"Name\nAsh\n"), ["--map", "Name"], "HEADING=FIELD"),
            (self.roster("Name\nJos\xe9\n".encode("latin-1")), [], "not UTF-8"),
            (self.roster(b"Deck\nx\n"), [], "no name column"),
            ("/nonexistent/roster.csv", [], "cannot read"),
        ):
            with self.subTest(words=words):
                code, out, err = self.cli("import-csv", ev, roster, *extra)
                self.assertEqual((2, ""), (code, out))
                self.assertEqual(1, len(err.strip().splitlines()))
                self.assertIn(words, err)


if __name__ == "__main__":
    unittest.main()

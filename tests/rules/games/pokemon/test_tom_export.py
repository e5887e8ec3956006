"""Tests of the TOM .tdf exporter: every fixture round-trips, TOM's layout is kept (unittest only)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import tempfile
import unittest
import xml.etree.ElementTree as ET
from typing import Any

from shared_rules.cli import main
from shared_rules.errors import DocumentError
from shared_rules.games.pokemon.tom import import_tdf, to_tdf, tom_dnf, tom_final_standings
from shared_rules.run import load_event, standings_json
from tests.rules.helpers import TOM_FINALIZED as FINALIZED
from tests.rules.helpers import TOM_FIXTURES as FIXTURES
from tests.rules.helpers import json_file
from tests.rules.helpers import read_tom_fixture as read


def all_tdf() -> list[str]:
    """Every .tdf under the fixture folder, relative, sorted."""
    found = []
    for folder, _, files in os.walk(FIXTURES):
        for name in files:
            if name.endswith(".tdf"):
                found.append(os.path.relpath(os.path.join(folder, name), FIXTURES).replace(os.sep, "/"))
    return sorted(found)


def standings(document: dict[str, Any]) -> dict[str, Any]:
    return standings_json(load_event(document))


def shape(element: ET.Element) -> tuple[Any, ...]:
    """Tags and attribute names, in order, of the element and everything under it."""
    return (element.tag, tuple(element.attrib), tuple(shape(child) for child in element))


def carried(root: ET.Element) -> dict[str, Any]:
    """What of a save the document carries, by userid / pod / round, order-free where TOM's order is not kept."""
    players = {}
    for player in root.iterfind("players/player"):
        players[player.get("userid")] = [
            (c.tag, (c.text or "").strip())
            for c in player
            if c.tag not in ("creationdate", "lastmodifieddate", "dropped", "late")
        ]
        dropped = player.find("dropped")
        if dropped is not None:
            players[player.get("userid")].append(("dropped", dropped.findtext("status"), dropped.findtext("round")))
    pods = {}
    for pod in root.iterfind("pods/pod"):
        rounds = []
        for rnd in pod.iterfind("rounds/round"):
            matches = [
                (
                    m.get("outcome"),
                    [s.get("userid") for s in m if s.tag.startswith("player")],
                    m.findtext("tablenumber"),
                )
                for m in rnd.iterfind("matches/match")
            ]
            kind = "elimination" if rnd.get("type") == "1" else "swiss"  # Swiss repeats the root type (a stand-in)
            rounds.append((rnd.get("number"), kind, rnd.get("stage"), rnd.findtext("starttime") == "", matches))
        pods[pod.get("category")] = {
            "stage": pod.get("stage"),
            "playoff": pod.findtext("poddata/playoff3rd4th"),
            "players": sorted(p.get("userid") for p in pod.iterfind("subgroups/subgroup/players/player")),
            "rounds": rounds,
        }
    return {
        "root": {k: root.get(k) for k in ("type", "stage", "version", "gametype", "mode")},
        "data": {k: root.findtext(f"data/{k}") for k in ("name", "id", "startdate")},
        "players": players,
        "roster": [p.get("userid") for p in root.iterfind("players/player")],
        "pods": pods,
        "pod_order": [p.get("category") for p in root.iterfind("pods/pod")],
        "standings": [
            (p.get("category"), p.get("type"), [(x.get("id"), x.get("place")) for x in p])
            for p in root.iterfind("standings/pod")
        ],
        "finals": [
            (
                c.get("key"),
                [v.text for v in c.iterfind("options/value")],
                c.findtext("cut"),
                c.findtext("playercount"),
                c.findtext("paired3rd4th"),
            )
            for c in root.iterfind("finalsoptions/categorycut")
        ],
    }


class FixturesRoundTrip(unittest.TestCase):
    """import -> export -> import gives the same document and the same standings, for every fixture."""

    def test_every_fixture_round_trips(self) -> None:
        fixtures = all_tdf()
        self.assertEqual(len(fixtures), 19)
        for relative in fixtures:
            with self.subTest(fixture=relative):
                document = import_tdf(read(relative))
                text = to_tdf(document)
                again = import_tdf(text)
                self.assertEqual(again, document)
                self.assertEqual(standings(again), standings(document))
                self.assertEqual(to_tdf(again), text)  # deterministic, and a fixed point

    def test_every_fixture_reexports_with_its_kind(self) -> None:
        """TOM's event type and mode come back as they were: a League Cup stays a League Cup (issue 22)."""
        fixtures = all_tdf()
        self.assertEqual(len(fixtures), 19)
        for relative in fixtures:
            with self.subTest(fixture=relative):
                original = ET.fromstring(read(relative))
                document = import_tdf(read(relative))
                self.assertEqual(
                    document["settings"]["kind"], {"type": int(original.get("type")), "mode": original.get("mode")}
                )
                exported = ET.fromstring(to_tdf(document))
                self.assertEqual(
                    (exported.get("type"), exported.get("mode")), (original.get("type"), original.get("mode"))
                )

    def test_a_league_cup_without_a_cut_comes_back_a_league_cup_with_its_swiss_standings(self) -> None:
        text = read("cup-finalized.tdf")
        document = import_tdf(text)
        self.assertEqual(document["settings"]["cut"], 0)
        exported = to_tdf(document)
        root = ET.fromstring(exported)
        self.assertEqual((root.get("type"), root.get("mode")), ("3", "TCG1DAY"))
        # Swiss rounds repeat the root type in TOM: they stay League Cup rounds, and the standings are TOM's.
        self.assertEqual({r.get("type") for r in root.iterfind("pods/pod/rounds/round")}, {"3"})
        self.assertEqual(tom_final_standings(exported), tom_final_standings(text))
        self.assertEqual(standings(import_tdf(exported)), standings(document))

    def test_an_event_made_here_writes_the_kind_it_names(self) -> None:
        doc = {
            "format": "topcut-event/1",
            "ruleset": "pokemon-tcg",
            "name": "Cup without a cut",
            "seed": "s",
            "settings": {"season": 2026, "rounds": 1, "cut": 0, "kind": {"type": 3, "mode": "TCG1DAY"}},
            "players": [{"id": "1", "name": "Ash K", "entry": 1}, {"id": "2", "name": "Misty W", "entry": 2}],
            "rounds": [{"number": 1, "stage": "swiss", "matches": [{"table": 1, "players": ["1", "2"]}]}],
        }
        root = ET.fromstring(to_tdf(doc))
        self.assertEqual((root.get("type"), root.get("mode")), ("3", "TCG1DAY"))
        without = copy.deepcopy(doc)
        del without["settings"]["kind"]  # no kind named, no cut: the stand-in is a League Challenge
        root = ET.fromstring(to_tdf(without))
        self.assertEqual((root.get("type"), root.get("mode")), ("2", "LEAGUECHALLENGE"))

    def test_finalized_exports_keep_toms_final_order(self) -> None:
        for relative in FINALIZED:
            with self.subTest(fixture=relative):
                text = read(relative)
                exported = to_tdf(import_tdf(text))
                self.assertEqual(tom_final_standings(exported), tom_final_standings(text))
                self.assertEqual(tom_dnf(exported), tom_dnf(text))

    def test_export_is_tab_indented_xml_with_toms_declaration(self) -> None:
        text = to_tdf(import_tdf(read("harness/cup/19-final.tdf")))
        self.assertTrue(
            text.startswith(
                '<?xml version="1.0" encoding="UTF-8"?>\n<tournament type="3" stage="5" '
                'version="1.86" gametype="TRADING_CARD_GAME" mode="TCG1DAY">\n\t<data>\n'
            )
        )
        self.assertTrue(text.endswith("</finalsoptions>\n</tournament>\n"))
        self.assertNotIn("\r", text)


class KeepsTomsLayout(unittest.TestCase):
    """The exported XML has the fixtures' elements and attributes, in TOM's order."""

    def test_element_tree_shape_equals_the_fixture(self) -> None:
        for relative in all_tdf():
            with self.subTest(fixture=relative):
                text = read(relative)
                exported = ET.fromstring(to_tdf(import_tdf(text)))
                self.assertEqual(shape(exported), shape(ET.fromstring(text)))

    def test_what_the_document_carries_equals_the_fixture(self) -> None:
        # Round stages, seeds and bracket order, byes, drops, tables, outcomes, pods,
        # standings places and the finals options are TOM's own; the subgroup order,
        # organizer, city and timestamps are not in the document.
        for relative in all_tdf():
            with self.subTest(fixture=relative):
                text = read(relative)
                ours = carried(ET.fromstring(to_tdf(import_tdf(text))))
                theirs = carried(ET.fromstring(text))
                for part in theirs:
                    self.assertEqual(ours[part], theirs[part], part)


def from_scratch() -> dict[str, Any]:
    """A Topcut-made Pokémon event: 8 players, an earned bye, a late entry, a drop, 3 Swiss rounds, a top 4."""
    names = [
        "Ash Ketchum",
        "Misty Waterflower",
        "Brock Harrison",
        "Gary Oak",
        "Dawn Berlitz",
        "May Maple",
        "Iris Dragon",
        "Cilan Striaton",
    ]
    players: list[dict[str, Any]] = [
        {"id": str(700001 + i), "name": name, "entry": i + 1, "birth_year": 1990 + i} for i, name in enumerate(names)
    ]
    a, b, c, d, e, f, g, h = (p["id"] for p in players)
    players[6].update(earned_byes=1, dropped_after=2)
    players[7]["late"] = True

    def m(x: str, y: str, table: int, ox: str = "win", oy: str = "loss") -> dict[str, Any]:
        return {"table": table, "players": [x, y], "outcomes": [ox, oy]}

    doc: dict[str, Any] = {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "name": "Pallet Town League Cup",
        "seed": "s-1",
        "settings": {"season": 2026, "rounds": 3, "cut": 4},
        "players": players,
        "rounds": [
            {
                "number": 1,
                "stage": "swiss",
                "matches": [
                    m(a, b, 1),
                    m(c, d, 2, "tie", "tie"),
                    m(e, f, 3, "loss", "win"),
                    {"players": [g], "outcomes": ["bye"], "earned": True},
                    {"players": [h], "outcomes": ["late"]},
                ],
            },
            {
                "number": 2,
                "stage": "swiss",
                "matches": [m(a, f, 1), m(b, h, 2, "loss", "win"), m(c, e, 3), m(d, g, 4, "loss", "win")],
            },
            {
                "number": 3,
                "stage": "swiss",
                "matches": [
                    m(a, c, 1),
                    m(h, f, 2, "loss", "win"),
                    m(b, d, 3, "loss", "loss"),
                    {"players": [e], "outcomes": ["bye"]},
                ],
            },
        ],
    }
    top = [row["player"] for row in standings(doc)["standings"] if not row["dropped"]][:4]
    doc["rounds"].append(
        {"number": 4, "stage": "elimination", "matches": [m(top[0], top[3], 1), m(top[1], top[2], 2, "loss", "win")]}
    )
    doc["rounds"].append({"number": 5, "stage": "elimination", "matches": [m(top[0], top[2], 1)]})
    return doc


class FromScratch(unittest.TestCase):
    def test_a_topcut_event_imports_back_with_only_the_documented_additions(self) -> None:
        doc = from_scratch()
        again = import_tdf(to_tdf(doc))
        expected = copy.deepcopy(doc)
        # What the TOM file adds or replaces (module docstring of shared_rules.games.pokemon.tom.exporter):
        expected["seed"] = "tom:Pallet Town League Cup|07/01/2026"  # no sanction id: the importer's seed
        expected["source"] = {"program": "TOM", "version": "1.86", "start_date": "2026-07-01", "stage": 5}
        # No settings.kind: the kind written is the stand-in (a top cut: a League Cup), and it reads back.
        expected["settings"].update(structure="single-day", playoff_3rd_4th=False, kind={"type": 3, "mode": "TCG1DAY"})
        for player in expected["players"]:
            player.update(division="masters", pod="masters", game_id=player["id"])  # the userid is the ID
        for rnd in expected["rounds"]:
            for match in rnd["matches"]:
                match["pod"] = "masters"
        self.assertEqual(again, expected)
        self.assertEqual(standings(again), standings(doc))
        self.assertEqual(import_tdf(to_tdf(again)), again)

    def test_the_late_entry_drop_earned_bye_and_cut_are_in_toms_elements(self) -> None:
        root = ET.fromstring(to_tdf(from_scratch()))
        self.assertEqual(root.get("stage"), "5")  # every result in and the final decided: finalized
        late = root.find("players/player[@userid='700008']")
        self.assertIsNone(late.find("starter"))
        self.assertEqual(
            [(c.tag, c.text) for c in late.find("late")],
            [("round", "2"), ("timestamp", "07/01/2026 00:00:00"), ("forcedloss", "true")],
        )
        dropped = root.find("players/player[@userid='700007']")
        self.assertEqual(dropped.findtext("byes"), "1")
        self.assertEqual((dropped.findtext("dropped/status"), dropped.findtext("dropped/round")), ("1", "2"))
        outcomes = [m.get("outcome") for m in root.iterfind("pods/pod/rounds/round[@number='1']/matches/match")]
        self.assertEqual(outcomes, ["1", "3", "2", "4", "8"])
        self.assertEqual([r.get("type") for r in root.iterfind("pods/pod/rounds/round")], ["3", "3", "3", "1", "1"])
        self.assertEqual([r.get("stage") for r in root.iterfind("pods/pod/rounds/round")], ["6", "6", "8", "6", "8"])
        seeds = sorted(
            (int(p.findtext("order")), int(p.findtext("seed")))
            for p in root.iterfind("players/player")
            if p.find("order") is not None
        )
        self.assertEqual(seeds, [(1, 1), (2, 4), (3, 2), (4, 3)])
        self.assertEqual(len(root.findall("standings/pod[@category='2'][@type='finished']/player")), 8)

    def test_divisions_paired_apart_get_their_own_pods(self) -> None:
        doc = {
            "ruleset": "pokemon-tcg",
            "seed": "x",
            "settings": {"season": 2026},
            "players": [
                {"id": "1", "name": "A A", "entry": 1, "birth_year": 1990},
                {"id": "2", "name": "B B", "entry": 2, "birth_year": 1991},
                {"id": "3", "name": "C C", "entry": 3, "birth_year": 2016},
                {"id": "4", "name": "D D", "entry": 4, "birth_year": 2017},
                {"id": "5", "name": "E E", "entry": 5, "birth_year": 2012},
            ],
            "rounds": [
                {
                    "number": 1,
                    "stage": "swiss",
                    "matches": [
                        {"table": 1, "players": ["1", "2"], "outcomes": ["win", "loss"]},
                        {"table": 2, "players": ["3", "5"]},
                        {"players": ["4"], "outcomes": ["bye"]},
                    ],
                }
            ],
        }
        root = ET.fromstring(to_tdf(doc))
        pods = [
            (p.get("category"), [x.get("userid") for x in p.iterfind("subgroups/subgroup/players/player")])
            for p in root.iterfind("pods/pod")
        ]
        self.assertEqual(pods, [("2", ["1", "2"]), ("8", ["3", "4", "5"])])
        self.assertEqual(root.get("stage"), "4")
        again = import_tdf(to_tdf(doc))
        self.assertEqual([p["pod"] for p in again["players"]], ["masters"] * 2 + ["junior+senior"] * 3)
        self.assertEqual([p["division"] for p in again["players"]], ["masters"] * 2 + ["junior"] * 2 + ["senior"])
        self.assertEqual(standings(again), standings(doc))


class VideoGame(unittest.TestCase):
    def test_a_pokemon_vg_event_is_a_video_game_save(self) -> None:
        doc = from_scratch()
        doc["ruleset"] = "pokemon-vg"
        text = to_tdf(doc)
        self.assertEqual(ET.fromstring(text).get("gametype"), "VIDEO_GAME")
        again = import_tdf(text)
        self.assertEqual(again["ruleset"], "pokemon-vg")
        self.assertEqual(standings(again), standings(doc))


class Refusals(unittest.TestCase):
    def test_non_pokemon_events_are_refused_naming_the_ruleset(self) -> None:
        for ruleset in ("doomtown", "agot", "shatterpoint", "startrek-2e"):
            with self.subTest(ruleset=ruleset):
                doc = {"ruleset": ruleset, "seed": "x", "players": [{"id": "a", "entry": 1}], "rounds": []}
                with self.assertRaises(DocumentError) as caught:
                    to_tdf(doc)
                self.assertEqual(caught.exception.path, "ruleset")
                self.assertEqual(
                    str(caught.exception),
                    f"ruleset: '{ruleset}' cannot be written as a TOM file: TOM "
                    "runs Pokémon events only (pokemon-tcg or pokemon-vg)",
                )

    def test_rows_tom_has_no_code_for_are_refused(self) -> None:
        doc = from_scratch()
        doc["rounds"][0]["matches"][4] = {"players": [doc["players"][7]["id"]]}  # a pending one-player row
        with self.assertRaises(DocumentError) as caught:
            to_tdf(doc)
        self.assertEqual(caught.exception.path, "rounds[0].matches[4].outcomes")

    def test_a_day_two_round_is_refused(self) -> None:
        doc = from_scratch()
        doc["rounds"] = doc["rounds"][:3]
        doc["rounds"].append({"number": 4, "stage": "swiss-day2", "matches": []})
        with self.assertRaises(DocumentError) as caught:
            to_tdf(doc)
        self.assertEqual(caught.exception.path, "rounds[3].stage")

    def test_a_malformed_document_is_refused_by_the_event_format(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            to_tdf({"ruleset": "pokemon-tcg", "players": [{"id": "a"}]})
        self.assertTrue(caught.exception.path.startswith("players[0]"), str(caught.exception))


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


class ExportCommand(unittest.TestCase):
    def _file(self, doc: dict[str, Any]) -> str:
        return json_file(self, doc)

    def test_export_tdf_prints_the_file_or_writes_it(self) -> None:
        document = import_tdf(read("harness/cup/19-final.tdf"))
        path = self._file(document)
        code, out, err = _cli("export-tdf", path)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, to_tdf(document))
        with tempfile.TemporaryDirectory() as folder:
            target = os.path.join(folder, "event.tdf")
            code, out, err = _cli("export-tdf", path, "-o", target)
            self.assertEqual((code, err), (0, ""))
            self.assertEqual(json.loads(out), {"written": target, "format": "tdf", "players": 35, "rounds": 8})
            with open(target, encoding="utf-8") as handle:
                self.assertEqual(import_tdf(handle.read()), document)

    def test_export_tdf_refuses_a_non_pokemon_event_in_one_line(self) -> None:
        path = self._file({"ruleset": "doomtown", "seed": "x", "players": [{"id": "a", "entry": 1}]})
        code, out, err = _cli("export-tdf", path)
        self.assertEqual((code, out), (2, ""))
        self.assertEqual(
            err,
            f"error: {path}: ruleset: 'doomtown' cannot be written as a TOM file: TOM runs "
            "Pokémon events only (pokemon-tcg or pokemon-vg)\n",
        )


if __name__ == "__main__":
    unittest.main()

"""Tests of the TOM .tdf importer against the copied TOM fixtures (unittest only)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import unittest

from shared_rules.errors import DocumentError
from shared_rules.games.pokemon.tom import import_tdf, tom_dnf, tom_final_standings, tom_pods
from shared_rules.games.pokemon.tom.importer import division_for, season_for
from tests.rules.helpers import TOM_FINALIZED as FINALIZED
from tests.rules.helpers import TOM_FIXTURES as FIXTURES
from tests.rules.helpers import read_tom_fixture as read
from tests.rules.helpers import tom_fixture_path as fixture_path


def sources() -> list[dict[str, str]]:
    """Rows of SOURCES.tsv."""
    with open(fixture_path("SOURCES.tsv"), encoding="utf-8") as handle:
        lines = [line.rstrip("\n") for line in handle if line.strip()]
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def all_tdf() -> list[str]:
    """Every .tdf under the fixture folder, relative, sorted."""
    found = []
    for folder, _, files in os.walk(FIXTURES):
        for name in files:
            if name.endswith(".tdf"):
                found.append(os.path.relpath(os.path.join(folder, name), FIXTURES).replace(os.sep, "/"))
    return sorted(found)


def by_id(document: dict) -> dict[str, dict]:
    """Players of a document by id."""
    return {player["id"]: player for player in document["players"]}


def matches_of(document: dict, number: int, stage: str = "swiss") -> list[dict]:
    """The matches of one round of a document."""
    return next(r["matches"] for r in document["rounds"] if r["number"] == number and r["stage"] == stage)


class FixtureIntegrity(unittest.TestCase):
    """The copied saves are byte-for-byte the ones SOURCES.tsv lists."""

    def test_every_listed_file_matches_size_and_sha256(self) -> None:
        rows = sources()
        self.assertEqual(len(rows), 19)
        for row in rows:
            with self.subTest(path=row["path"]):
                with open(fixture_path(row["path"]), "rb") as handle:
                    data = handle.read()
                self.assertEqual(len(data), int(row["bytes"]))
                self.assertEqual(hashlib.sha256(data).hexdigest(), row["sha256"])

    def test_no_unlisted_save(self) -> None:
        self.assertEqual(all_tdf(), sorted(row["path"] for row in sources()))


class ImportsEveryFixture(unittest.TestCase):
    """Every save imports into a JSON-able, deterministic document."""

    def test_every_fixture_imports(self) -> None:
        for relative in all_tdf():
            with self.subTest(fixture=relative):
                text = read(relative)
                document = import_tdf(text)
                self.assertEqual(document["format"], "topcut-event/1")
                self.assertEqual(document["ruleset"], "pokemon-tcg")
                self.assertEqual(document["seed"], "tom:26-10-000001" if "harness" in relative else "tom:26-09-000123")
                encoded = json.dumps(document, sort_keys=True, ensure_ascii=False)
                self.assertEqual(json.loads(encoded), document)
                self.assertEqual(json.dumps(import_tdf(text), sort_keys=True, ensure_ascii=False), encoded)
                self.assertEqual(
                    [p["entry"] for p in document["players"]], list(range(1, len(document["players"]) + 1))
                )

    def test_documents_reference_only_roster_players(self) -> None:
        for relative in all_tdf():
            document = import_tdf(read(relative))
            ids = set(by_id(document))
            for round_ in document["rounds"]:
                for match in round_["matches"]:
                    with self.subTest(fixture=relative, round=round_["number"]):
                        self.assertTrue(set(match["players"]) <= ids)
                        if "outcomes" in match:
                            self.assertEqual(len(match["outcomes"]), len(match["players"]))

    def test_roster_order_is_kept(self) -> None:
        document = import_tdf(read("harness/earned-challenge/11-final.tdf"))
        self.assertEqual(
            [p["id"] for p in document["players"]],
            ["1000004", "1000003", "1000001", "1000005", "1000006", "1000007", "1000002", "1000008", "1000009"],
        )


class CountsCheckedByHand(unittest.TestCase):
    """Counts read off the XML by hand."""

    def test_cup_finalized(self) -> None:
        document = import_tdf(read("cup-finalized.tdf"))
        self.assertEqual(document["name"], "Fixture League Cup")
        self.assertEqual(len(document["players"]), 6)
        self.assertEqual(
            [(r["number"], r["stage"], len(r["matches"])) for r in document["rounds"]],
            [(1, "swiss", 3), (2, "swiss", 3), (3, "swiss", 3)],
        )
        self.assertEqual(
            document["settings"],
            {
                "season": 2026,
                "kind": {"type": 3, "mode": "TCG1DAY"},  # a League Cup, though it has no top cut
                "structure": "single-day",
                "rounds": 3,
                "cut": 0,
                "playoff_3rd_4th": False,
            },
        )
        self.assertEqual(
            matches_of(document, 1)[0],
            {"table": 1, "players": ["7100004", "7100006"], "outcomes": ["win", "loss"], "pod": "masters"},
        )
        self.assertEqual(matches_of(document, 2)[0]["outcomes"], ["loss", "win"])
        self.assertEqual(
            by_id(document)["7100002"],
            {
                "id": "7100002",
                "game_id": "7100002",
                "name": "Ada Lovelace",
                "entry": 2,
                "birth_year": 1999,
                "division": "masters",
                "pod": "masters",
            },
        )

    def test_harness_name_keeps_entities(self) -> None:
        self.assertEqual(import_tdf(read("harness/cup/19-final.tdf"))["name"], "Harness & Co's Cup")

    def test_cup_solo_top_cut(self) -> None:
        document = import_tdf(read("harness/cup-solo/19-final.tdf"))
        self.assertEqual(len(document["players"]), 22)
        self.assertEqual(
            [(r["number"], r["stage"], len(r["matches"])) for r in document["rounds"]],
            [
                (1, "swiss", 12),
                (2, "swiss", 11),
                (3, "swiss", 11),
                (4, "swiss", 11),
                (5, "swiss", 11),
                (6, "elimination", 4),
                (7, "elimination", 2),
                (8, "elimination", 1),
            ],
        )
        self.assertEqual(document["settings"]["rounds"], 5)
        self.assertEqual(document["settings"]["cut"], 8)

    def test_combined_cup(self) -> None:
        document = import_tdf(read("harness/cup/19-final.tdf"))
        settings = document["settings"]
        self.assertEqual(len(document["players"]), 35)
        self.assertEqual(settings["rounds"], 5)
        self.assertEqual(settings["rounds_by_pod"], {"junior+senior": 3, "masters": 5})
        self.assertEqual(settings["cut_by_division"], {"masters": 8, "senior": 0, "junior": 0})
        self.assertNotIn("cut", settings)
        round_one = matches_of(document, 1)
        self.assertEqual(len(round_one), 19)
        self.assertEqual(sum(m["pod"] == "junior+senior" for m in round_one), 6)
        self.assertEqual(len(matches_of(document, 4)), 12)
        tables = [m["table"] for m in round_one if "table" in m]
        self.assertEqual(len(tables), len(set(tables)))

    def test_configured_and_empty_saves(self) -> None:
        empty = import_tdf(read("harness/challenge/00-stage1-empty.tdf"))
        self.assertEqual((empty["players"], empty["rounds"]), ([], []))
        self.assertNotIn("rounds", empty["settings"])
        registered = import_tdf(read("harness/cup/01-stage1-registered.tdf"))
        self.assertEqual(len(registered["players"]), 35)
        self.assertTrue(all("pod" not in p for p in registered["players"]))
        self.assertEqual(by_id(registered)["1000001"]["earned_byes"], 1)


class Outcomes(unittest.TestCase):
    """TOM outcome codes in the document."""

    def test_earned_and_random_byes(self) -> None:
        document = import_tdf(read("harness/earned-challenge/11-final.tdf"))
        self.assertEqual(
            matches_of(document, 1)[0], {"players": ["1000001"], "outcomes": ["bye"], "earned": True, "pod": "masters"}
        )
        self.assertEqual(matches_of(document, 2)[0], {"players": ["1000004"], "outcomes": ["bye"], "pod": "masters"})
        self.assertEqual(matches_of(document, 2)[1]["outcomes"], ["tie", "tie"])
        self.assertEqual(by_id(document)["1000001"]["earned_byes"], 1)

    def test_unreported_matches_have_no_outcomes(self) -> None:
        document = import_tdf(read("harness/cup-solo/03-r1-paired.tdf"))
        round_one = matches_of(document, 1)
        self.assertEqual([m["outcomes"] for m in round_one[:2]], [["bye"], ["bye"]])
        self.assertTrue(round_one[0].get("earned"))
        self.assertTrue(all("outcomes" not in m for m in round_one[2:]))
        cut = import_tdf(read("harness/cup-solo/13-r6-paired.tdf"))
        self.assertEqual(len(matches_of(cut, 6, "elimination")), 4)
        self.assertTrue(all("outcomes" not in m for m in matches_of(cut, 6, "elimination")))

    def test_every_code(self) -> None:
        document = import_tdf(SYNTHETIC)
        got = [(m["players"], m.get("outcomes"), m.get("earned", False)) for m in matches_of(document, 1)]
        self.assertEqual(
            got,
            [
                (["1", "2"], ["win", "loss"], False),
                (["3", "4"], ["loss", "win"], False),
                (["5", "6"], ["tie", "tie"], False),
                (["7"], ["bye"], True),
                (["8"], ["bye"], False),
                (["9", "10"], ["loss", "loss"], False),
                (["11"], ["late"], False),
                (["12", "13"], ["loss", "loss"], False),
                (["14", "15"], None, False),
            ],
        )
        self.assertEqual(matches_of(document, 2, "elimination")[0]["players"], ["1", "3"])


def tdf(players: str, matches: str, gametype: str = "VIDEO_GAME", category: str = "10") -> str:
    """A small hand-written save in TOM's layout."""
    seats = "".join(f'<player userid="{u}" />' for u in re.findall(r'<player userid="(\d+)">', players))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<tournament type="2" stage="4" version="1.86" gametype="{gametype}" mode="LEAGUECHALLENGE">
\t<data><name>Synthetic</name><id></id><startdate>03/14/2027</startdate></data>
\t<players>{players}</players>
\t<pods><pod category="{category}" stage="0">
\t<subgroups><subgroup number="1"><players>{seats}</players></subgroup></subgroups>
\t<rounds>{matches}</rounds></pod></pods>
\t<finalsoptions></finalsoptions>
</tournament>
"""


def player(userid: int, year: int = 1990, extra: str = "") -> str:
    """One roster entry."""
    return (
        f'<player userid="{userid}"><firstname>F{userid}</firstname><lastname>L{userid}</lastname>'
        f"<birthdate>02/27/{year}</birthdate>{extra}</player>"
    )


def match(code: str, *seats: int, table: int = 1) -> str:
    """One <match>: one seat as <player>, two as <player1>/<player2>."""
    if len(seats) == 1:
        names = f'<player userid="{seats[0]}"/>'
        table = 0
    else:
        names = "".join(f'<player{i} userid="{s}"/>' for i, s in enumerate(seats, start=1))
    return f'<match outcome="{code}">{names}<tablenumber>{table}</tablenumber></match>'


LATE = "<late><round>-1</round><timestamp>x</timestamp><forcedloss>false</forcedloss></late>"
SYNTHETIC = tdf(
    "".join(player(i) for i in range(1, 11))
    + player(11, 2016, LATE)
    + player(12, 2012, "<dropped><status>2</status><round>1</round></dropped>")
    + player(13, 2010, "<dropped><status>1</status><round>1</round></dropped>")
    + player(14, 2011, "<late>false</late><dropped><status>0</status><round>0</round></dropped>")
    + player(15),
    '<round number="1" type="2" stage="6"><matches>'
    + match("1", 1, 2)
    + match("2", 3, 4, table=2)
    + match("3", 5, 6, table=3)
    + match("4", 7)
    + match("5", 8)
    + match("6", 9, 10, table=4)
    + match("8", 11)
    + match("10", 12, 13, table=5)
    + match("9", 1, 3, table=6)
    + match("0", 14, 15, table=7)
    + '</matches></round><round number="2" type="1" stage="2"><matches>'
    + match("0", 1, 3)
    + "</matches></round>",
)


class Players(unittest.TestCase):
    """Late, dropped, disqualified, earned byes and divisions."""

    def test_synthetic_players(self) -> None:
        document = import_tdf(SYNTHETIC)
        players = by_id(document)
        self.assertEqual(document["ruleset"], "pokemon-vg")
        self.assertEqual(document["seed"], "tom:Synthetic|03/14/2027")
        self.assertEqual(document["settings"]["season"], 2026)
        self.assertEqual(
            players["11"],
            {
                "id": "11",
                "game_id": "11",
                "name": "F11 L11",
                "entry": 11,
                "birth_year": 2016,
                "late": True,
                "division": "junior",
                "pod": "junior+senior+masters",
            },
        )
        self.assertEqual((players["12"]["dropped_after"], players["12"]["disqualified"]), (1, True))
        self.assertEqual(players["12"]["division"], "senior")
        self.assertEqual(players["13"]["dropped_after"], 1)
        self.assertNotIn("disqualified", players["13"])
        self.assertEqual(players["13"]["division"], "masters")
        for key in ("late", "dropped_after", "disqualified"):
            self.assertNotIn(key, players["14"])
        self.assertEqual(players["14"]["division"], "senior")

    def test_dropped_after_swiss(self) -> None:
        for relative, userid, after in (
            ("harness/drop-after-swiss/challenge-final.tdf", "1000002", 5),
            ("harness/drop-after-swiss/cup-final.tdf", "1000002", 5),
            ("harness/drop-after-swiss/combined-final.tdf", "1000015", 3),
            ("harness/cup/19-final.tdf", "1000029", 2),
            ("harness/earned-challenge/11-final.tdf", "1000006", 2),
        ):
            with self.subTest(fixture=relative):
                document = import_tdf(read(relative))
                dropped = {p["id"]: p["dropped_after"] for p in document["players"] if "dropped_after" in p}
                self.assertEqual(dropped, {userid: after})
                self.assertFalse(any(p.get("disqualified") or p.get("late") for p in document["players"]))

    def test_combined_pod_divisions(self) -> None:
        players = by_id(import_tdf(read("harness/cup/19-final.tdf")))
        self.assertEqual((players["1000024"]["division"], players["1000024"]["pod"]), ("senior", "junior+senior"))
        self.assertEqual((players["1000035"]["division"], players["1000035"]["birth_year"]), ("senior", 2014))
        self.assertEqual((players["1000033"]["division"], players["1000033"]["birth_year"]), ("junior", 2016))
        self.assertEqual((players["1000025"]["division"], players["1000025"]["pod"]), ("masters", "masters"))
        self.assertEqual(players["1000025"]["birth_year"], 2010)

    def test_season_formula_reproduces_tom(self) -> None:
        """Pokémon TOP 3.1.1 with the importer's season agrees with every division TOM assigned."""
        for relative in all_tdf():
            text = read(relative)
            document = import_tdf(text)
            season = document["settings"]["season"]
            assigned = {p["id"]: p["division"] for p in document["players"] if p.get("pod") in DIVISION_PODS}
            if relative in FINALIZED:
                assigned.update((i, d) for d, ids in tom_final_standings(text).items() for i in ids)
            for player_ in document["players"]:
                if player_["id"] in assigned:
                    with self.subTest(fixture=relative, player=player_["id"]):
                        self.assertEqual(division_for(player_["birth_year"], season), assigned[player_["id"]])

    def test_division_boundaries(self) -> None:
        # Pokémon TOP 3.1.1, season 2019: Junior 2008+, Senior 2004-2007, Masters 2003 or earlier
        self.assertEqual(
            [division_for(y, 2019) for y in (2003, 2004, 2007, 2008)], ["masters", "senior", "senior", "junior"]
        )
        self.assertEqual([season_for(d) for d in ("2026-07-01", "2026-10-04", "2027-06-30")], [2026, 2026, 2026])


DIVISION_PODS = {"junior", "senior", "masters"}


def standings_by_regex(text: str) -> dict[str, list[str]]:
    """TOM's finished order read with a regular expression (independent of the importer)."""
    names = {"0": "junior", "1": "senior", "2": "masters"}
    block = text[text.index("<standings>") : text.index("</standings>")]
    result = {}
    for category, body in re.findall(r'<pod category="(\d+)" type="finished">(.*?)</pod>', block, re.S):
        placed = sorted((int(place), userid) for userid, place in re.findall(r'<player id="(\d+)" place="(\d+)"', body))
        if placed:
            result[names[category]] = [userid for _, userid in placed]
    return result


class FinalStandings(unittest.TestCase):
    """TOM's official final order."""

    def test_all_finalized_saves(self) -> None:
        for relative in FINALIZED:
            with self.subTest(fixture=relative):
                text = read(relative)
                standings = tom_final_standings(text)
                self.assertEqual(standings, standings_by_regex(text))
                self.assertEqual(tom_dnf(text), {})
                document = import_tdf(text)
                self.assertEqual(sorted(i for ids in standings.values() for i in ids), sorted(by_id(document)))

    def test_spot_checks(self) -> None:
        self.assertEqual(
            tom_final_standings(read("cup-finalized.tdf")),
            {"masters": ["7100005", "7100003", "7100002", "7100004", "7100001", "7100006"]},
        )
        combined = tom_final_standings(read("harness/drop-after-swiss/combined-final.tdf"))
        self.assertEqual(combined["junior"], ["1000021", "1000022"])
        self.assertEqual(combined["senior"][0], "1000015")  # dropped after the last Swiss round, still first
        self.assertEqual(combined["masters"][:4], ["1000001", "1000003", "1000002", "1000004"])
        cup = tom_final_standings(read("harness/drop-after-swiss/cup-final.tdf"))
        self.assertEqual(cup["masters"][8], "1000002")  # 5-0 but dropped before the cut: first after the top 8

    def test_not_finalized(self) -> None:
        for relative in sorted(set(all_tdf()) - set(FINALIZED)):
            with self.subTest(fixture=relative):
                with self.assertRaises(DocumentError):
                    tom_final_standings(read(relative))

    def test_pods(self) -> None:
        pods = tom_pods(read("harness/cup/19-final.tdf"))
        self.assertEqual(
            [(p.id, p.category, len(p.players), p.swiss_rounds, p.elimination_rounds) for p in pods],
            [("junior+senior", 8, 11, 3, 0), ("masters", 2, 24, 5, 3)],
        )
        self.assertEqual(pods[0].divisions, ("junior", "senior"))


class Malformed(unittest.TestCase):
    """Bad input gives a one-line DocumentError naming the element."""

    def assert_refused(self, text: str, *fragments: str) -> None:
        with self.assertRaises(DocumentError) as caught:
            import_tdf(text)
        message = str(caught.exception)
        self.assertTrue(message.startswith("tdf: "), message)
        self.assertNotIn("\n", message)
        for fragment in fragments:
            self.assertIn(fragment, message)

    def test_not_xml(self) -> None:
        self.assert_refused("<tournament><data>", "not well-formed XML")
        self.assert_refused("", "not well-formed XML")
        self.assert_refused(read("cup-finalized.tdf")[:500], "not well-formed XML")

    def test_wrong_shape(self) -> None:
        self.assert_refused("<event/>", "<event>")
        self.assert_refused('<tournament gametype="VIDEO_GAME"><data/><pods/></tournament>', "<players>")
        self.assert_refused(tdf(player(1), "", gametype="CHESS"), "gametype", "CHESS")
        self.assert_refused(tdf(player(1), "", category="5"), "<pod>", "category 5")
        self.assert_refused('<!DOCTYPE t [<!ENTITY a "b">]><tournament/>', "DOCTYPE")

    def test_bad_match(self) -> None:
        one_round = '<round number="3" type="2" stage="6"><matches>{}</matches></round>'
        self.assert_refused(
            tdf(player(1) + player(2), one_round.format(match("x", 1, 2))), "<match> 1 in round 3", "outcome 'x'"
        )
        self.assert_refused(tdf(player(1) + player(2), one_round.format(match("7", 1, 2))), "outcome '7'")
        self.assert_refused(tdf(player(1), one_round.format(match("1", 1, 9))), "player 9")
        self.assert_refused(tdf(player(1) + player(2), one_round.format(match("5", 1, 2))), "outcome 5")
        self.assert_refused(
            tdf(player(1) + player(2), one_round.format(match("1", 1, 2) + match("3", 2, 1))), "two matches of round 3"
        )
        self.assert_refused(tdf(player(1), '<round number="zero"><matches/></round>'), "<round> number")

    def test_bad_player(self) -> None:
        self.assert_refused(tdf(player(1, extra="<byes>many</byes>"), ""), "<byes> of player 1")
        self.assert_refused(tdf(player(1) + player(1), ""), "appears twice")
        self.assert_refused(tdf("<player><firstname>A</firstname></player>", ""), "no userid")
        self.assert_refused(tdf(player(1).replace("02/27/1990", "1990-02-27"), ""), "<birthdate> of player 1")
        self.assert_refused(
            tdf(player(1, extra="<dropped><status>1</status><round>r</round></dropped>"), ""), "<dropped><round>"
        )

    def test_not_finalized_message(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            tom_final_standings(read("harness/cup-solo/03-r1-paired.tdf"))
        self.assertEqual(str(caught.exception), "tdf: no <standings>: the event is not finalized")


if __name__ == "__main__":
    unittest.main()

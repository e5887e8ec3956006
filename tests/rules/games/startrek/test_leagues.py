"""WCT leagues (Star Trek OP Guide 12): the league document, league_table, 12.6 playoff ranking, 12.7 seeding."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import unittest
from collections.abc import Sequence
from typing import Any

from shared_rules.cli import main
from shared_rules.errors import DocumentError
from shared_rules.games.startrek.leagues import PLAYOFF_RANKING, league_table, load_league
from shared_rules.games.startrek.leagues.tiebreakers import Record, rank_records
from shared_rules.run import load_event
from tests.rules.helpers import json_file


def event_doc(
    eid: str, order: Sequence[str], date: str | None = None, ruleset: str = "startrek-1e", **extra: Any
) -> dict[str, Any]:
    """A one-round Star Trek event whose final standings are exactly ``order`` (best first)."""
    n = len(order)
    m = n // 2
    paired = list(order[: 2 * m])
    matches: list[dict[str, Any]] = []
    for i in range(m):
        # winners by falling differential, each beating the loser who must finish just as far from the end
        matches.append(
            {
                "table": i + 1,
                "players": [paired[i], paired[2 * m - 1 - i]],
                "outcomes": ["full-win", "full-loss"],
                "scores": [100 - i, i],
            }
        )
    if n % 2:
        matches.append({"players": [order[-1]], "outcomes": ["missed-game"]})
    doc: dict[str, Any] = {
        "format": "topcut-event/1",
        "id": eid,
        "name": f"Event {eid}",
        "ruleset": ruleset,
        "seed": eid,
        "players": [{"id": p, "name": p.upper(), "entry": k + 1} for k, p in enumerate(sorted(order))],
        "rounds": [{"number": 1, "stage": "swiss", "matches": matches}],
    }
    if date is not None:
        doc["date"] = date
    doc.update(extra)
    return doc


def league_doc(schedule: str = "truncated", **extra: Any) -> dict[str, Any]:
    """A league whose sprints list their events: truncated r1-r4 | p1-p2; standard a1-a4 | b1-b4 | p1-p4."""
    if schedule == "truncated":
        sprints = [
            {"id": "regular", "kind": "regular", "events": ["r1", "r2", "r3", "r4"]},
            {"id": "playoffs", "kind": "playoff", "events": ["p1", "p2"]},
        ]
    else:
        sprints = [
            {"id": "first-half", "kind": "regular", "events": ["a1", "a2", "a3", "a4"]},
            {"id": "second-half", "kind": "regular", "events": ["b1", "b2", "b3", "b4"]},
            {"id": "playoffs", "kind": "playoff", "events": ["p1", "p2", "p3", "p4"]},
        ]
    doc: dict[str, Any] = {
        "format": "topcut-league/1",
        "id": "nzl",
        "name": "Neutral Zone League",
        "director": {"name": "Quark", "handle": "quark"},
        "seed": "nzl-2026",
        "season": {"name": "2026-27", "schedule": schedule, "sprints": sprints},
        "events": [e for s in sprints for e in s["events"]],
        "qualification": {"per_sprint": 2},
    }
    doc.update(extra)
    return doc


def table(league: dict[str, Any], *events: dict[str, Any]) -> dict[str, Any]:
    return league_table(load_league(league), [load_event(e) for e in events])


def row(rows: list[dict[str, Any]], person: str) -> dict[str, Any]:
    return next(r for r in rows if r["person"] == person)


class LeagueTable(unittest.TestCase):
    def test_each_event_awards_table_points_by_players_and_place(self):
        out = table(league_doc(), event_doc("r1", ["a", "b", "c", "d"]), event_doc("r2", list("edcbaf")))
        self.assertEqual([e["id"] for e in out["events"]], ["r1", "r2"])
        self.assertEqual(out["events"][0]["points"], {"a": 12, "b": 8, "c": 6, "d": 6})
        self.assertEqual(out["events"][1]["points"], {"e": 16, "d": 12, "c": 10, "b": 10, "a": 8, "f": 8})
        self.assertEqual(out["events"][1]["players"], 6)
        self.assertEqual(out["events"][0]["sprint"], "regular")
        self.assertEqual(
            {r["person"]: (r["points"], r["events"]) for r in out["season"]},
            {"a": (20, 2), "b": (18, 2), "d": (18, 2), "c": (16, 2), "e": (16, 1), "f": (8, 1)},
        )
        self.assertEqual([r["rank"] for r in out["season"]], [1, 2, 3, 4, 5, 6])

    def test_the_table_is_json(self):
        out = table(league_doc(), event_doc("r1", ["a", "b", "c"]))
        self.assertEqual(json.loads(json.dumps(out)), out)
        self.assertEqual(out["league"]["director"], {"name": "Quark", "handle": "quark"})

    def test_an_event_of_two_players_awards_nothing_but_counts_as_attended(self):
        out = table(league_doc(), event_doc("r1", ["a", "b"]))
        self.assertEqual(out["events"][0]["points"], {"a": 0, "b": 0})
        self.assertEqual(row(out["season"], "a")["events"], 1)
        self.assertTrue(any("below 3" in w for w in out["warnings"]))

    def test_events_the_league_does_not_flag_are_skipped(self):
        out = table(league_doc(), event_doc("r1", ["a", "b", "c"]), event_doc("casual", ["a", "b", "c"]))
        self.assertEqual(out["skipped"], ["casual"])
        self.assertEqual(row(out["season"], "a")["points"], 12)

    def test_rating_id_names_the_person_across_events(self):
        one = event_doc("r1", ["a", "b", "c"])
        one["players"][0]["rating_id"] = "trek-1"
        two = event_doc("r2", ["x", "b", "c"])
        two["players"][-1]["rating_id"] = "trek-1"
        out = table(league_doc(), one, two)
        self.assertEqual(row(out["season"], "trek-1")["points"], 24)


class Seasons(unittest.TestCase):
    def truncated(self) -> dict[str, Any]:
        return table(
            league_doc("truncated"),
            event_doc("r1", list("abcde")),
            event_doc("r2", list("bacd")),
            event_doc("r3", list("cabe")),
            event_doc("r4", list("abdc")),
            event_doc("p1", list("ecab")),
            event_doc("p2", list("bdea")),
        )

    def test_a_truncated_six_event_season_qualifies_the_announced_top_of_its_four_event_regular_season(self):
        out = self.truncated()
        self.assertEqual([s["id"] for s in out["league"]["sprints"]], ["regular", "playoffs"])
        self.assertEqual(out["league"]["sprints"][0]["events"], ["r1", "r2", "r3", "r4"])
        self.assertEqual(out["league"]["sprints"][1]["events"], ["p1", "p2"])
        # regular season: a 12+8+8+12, b 8+12+6+8, c 6+6+12+6, d 6+6+0+6, e 4+0+6+0
        self.assertEqual(
            [(q["person"], q["sprint"], q["rank"]) for q in out["playoffs"]["qualified"]],
            [("a", "regular", 1), ("b", "regular", 2)],
        )
        self.assertEqual(out["warnings"], [])

    def test_only_qualified_players_score_playoff_points_and_the_playoff_alone_decides_the_champion(self):
        out = self.truncated()
        ranking = out["playoffs"]["ranking"]
        # p1 (4 players): e 12, c 8, a 6, b 6; p2 (4 players): b 12, d 8, e 6, a 6
        self.assertEqual([(r["person"], r["points"], r["events"]) for r in ranking], [("b", 18, 2), ("a", 12, 2)])
        self.assertEqual(ranking[0]["tiebreakers"]["playoff_wins"], 1)
        self.assertEqual(ranking[1]["decided_by"], "playoff_points")
        self.assertEqual(list(ranking[0]["tiebreakers"]), list(PLAYOFF_RANKING))
        # playoff events still earn league points as usual, for everyone
        self.assertEqual(row(out["season"], "e")["points"], 4 + 6 + 12 + 6)
        self.assertEqual(row(out["season"], "e")["playoff_points"], 12 + 6)

    def test_a_standard_season_qualifies_the_top_of_each_half_passing_over_those_already_qualified(self):
        halves = [
            event_doc("a1", list("abcdef")),
            event_doc("a2", list("abcdef")),
            event_doc("b1", list("fedcba")),
            event_doc("b2", list("fcbdea")),
        ]
        out = table(league_doc("standard"), *halves)
        qualified = [(q["person"], q["sprint"]) for q in out["playoffs"]["qualified"]]
        # first half: a 32, b 24, c 20, d 20; end of second half (season so far): a 48, f 48, c 42, b 42, d 40
        self.assertEqual(qualified[:2], [("a", "first-half"), ("b", "first-half")])
        self.assertEqual(len(qualified), 4)
        self.assertEqual(qualified[2:], [("f", "second-half"), ("c", "second-half")])
        self.assertEqual([q["rank"] for q in out["playoffs"]["qualified"]][:2], [1, 2])

    def test_a_half_with_no_league_event_played_yet_qualifies_nobody(self):
        out = table(league_doc("standard"), event_doc("a1", list("abcdef")))
        self.assertEqual(
            [(q["person"], q["sprint"]) for q in out["playoffs"]["qualified"]],
            [("a", "first-half"), ("b", "first-half")],
        )

    def test_qualified_players_can_be_listed_as_announced(self):
        out = table(league_doc(qualification={"players": ["e", "d"]}), event_doc("r1", list("abcde")))
        self.assertEqual([q["person"] for q in out["playoffs"]["qualified"]], ["e", "d"])
        self.assertEqual({r["person"] for r in out["playoffs"]["ranking"]}, {"e", "d"})

    def test_without_an_announced_qualification_nobody_qualifies_and_a_warning_says_so(self):
        doc = league_doc()
        del doc["qualification"]
        out = table(doc, event_doc("r1", list("abcde")))
        self.assertEqual(out["playoffs"]["qualified"], [])
        self.assertEqual(out["playoffs"]["ranking"], [])
        self.assertIsNone(out["league"]["qualification"])
        self.assertIn("no playoff qualification announced", out["warnings"][0])

    def test_sprints_by_dates_place_each_event_by_its_date(self):
        doc = league_doc("truncated")
        doc["season"]["sprints"] = [
            {"id": "regular", "kind": "regular", "from": "2026-10-01", "to": "2027-01-31"},
            {"id": "playoffs", "kind": "playoff", "from": "2027-02-01", "to": "2027-03-31"},
        ]
        rated = event_doc("r3", list("abc"), settings={"rating": {"date": "2026-12-01"}})
        reported = event_doc("p1", list("cba"), settings={"report": {"date": "2027-02-10"}})
        out = table(doc, event_doc("r1", list("abc"), "2026-10-14"), rated, reported)
        self.assertEqual(
            [(e["id"], e["sprint"], e["date"]) for e in out["events"]],
            [("r1", "regular", "2026-10-14"), ("r3", "regular", "2026-12-01"), ("p1", "playoffs", "2027-02-10")],
        )
        with self.assertRaises(DocumentError) as ctx:
            table(doc, event_doc("r2", list("abc"), "2027-04-02"))
        self.assertIn("in no sprint", str(ctx.exception))

    def test_more_events_than_the_schedule_plans_is_a_warning(self):
        doc = league_doc("truncated")
        doc["season"]["sprints"][1]["events"].append("p3")
        doc["events"].append("p3")
        out = table(doc, event_doc("p3", list("abc")))
        self.assertEqual(len(out["warnings"]), 1)
        self.assertIn("plans 2", out["warnings"][0])

    def test_places_awarded_by_the_director_replace_the_standings(self):
        doc = league_doc()
        doc["events"][0] = {"id": "r1", "places": ["c", "a", "b"]}
        out = table(doc, event_doc("r1", list("abc")))
        self.assertEqual(out["events"][0]["points"], {"c": 12, "a": 8, "b": 6})


class Bonus(unittest.TestCase):
    def test_bonus_points_are_kept_out_of_season_lifetime_and_qualification(self):
        events = [event_doc("r1", list("abcd")), event_doc("r2", list("abcd"))]
        plain = table(league_doc(lifetime={"c": 50}), *events)
        doc = league_doc(
            lifetime={"c": 50},
            bonus=[
                {"event": "r1", "person": "c", "points": 4, "scheme": "participation", "note": "first league event"},
                {"event": "r2", "person": "c", "points": 30, "scheme": "new-mission"},
            ],
        )
        out = table(doc, *events)
        self.assertEqual(
            out["season"], [dict(r, bonus=r["bonus"] + (34 if r["person"] == "c" else 0)) for r in plain["season"]]
        )
        self.assertEqual(out["lifetime"], plain["lifetime"])
        self.assertEqual(out["playoffs"], plain["playoffs"])
        self.assertEqual(row(out["lifetime"], "c")["points"], 50 + 12)
        bonus = out["bonus"]
        self.assertEqual([(b["person"], b["points"], b["bonus"], b["total"]) for b in bonus], [("c", 12, 34, 46)])
        self.assertEqual([e["scheme"] for e in bonus[0]["entries"]], ["participation", "new-mission"])

    def test_a_bonus_for_someone_who_did_not_play_the_event_is_refused(self):
        doc = league_doc(bonus=[{"event": "r1", "person": "zed", "points": 2}])
        with self.assertRaises(DocumentError) as ctx:
            table(doc, event_doc("r1", list("abc")))
        self.assertEqual(ctx.exception.path, "league.bonus[0].person")

    def test_a_bonus_at_an_event_that_is_not_a_league_event_is_refused(self):
        with self.assertRaises(DocumentError) as ctx:
            load_league(league_doc(bonus=[{"event": "casual", "person": "a", "points": 2}]))
        self.assertEqual(ctx.exception.path, "bonus[0].event")


class PlayoffTiebreakers(unittest.TestCase):
    """Star Trek OP Guide 12.6: each tiebreaker decides a tie the ones before it leave."""

    BASE = dict(
        playoff_points=20, playoff_wins=1, season_points=60, playoff_events=2, league_events=6, lifetime_points=200
    )

    def decide(self, key: str) -> list[tuple[str, str | None]]:
        better = Record("z-better", **{**self.BASE, key: self.BASE[key] + 1})
        worse = Record("a-worse", **self.BASE)
        return [(r.person, why) for r, _, why in rank_records([worse, better], PLAYOFF_RANKING, "seed")]

    def test_each_of_the_first_six_tiebreakers_decides_on_its_own(self):
        for key in PLAYOFF_RANKING[:-1]:
            with self.subTest(key=key):
                self.assertEqual(self.decide(key), [("z-better", None), ("a-worse", key)])

    def test_a_later_tiebreaker_never_overrides_an_earlier_one(self):
        for i, key in enumerate(PLAYOFF_RANKING[:-1]):
            for later in PLAYOFF_RANKING[i + 1 : -1]:
                a = Record("a", **{**self.BASE, key: self.BASE[key] + 1})
                b = Record("b", **{**self.BASE, later: self.BASE[later] + 50})
                with self.subTest(key=key, later=later):
                    self.assertEqual([r.person for r, _, _ in rank_records([b, a], PLAYOFF_RANKING, "s")], ["a", "b"])

    def test_the_coin_flip_decides_a_complete_tie_the_same_way_every_time_from_the_seed(self):
        a, b = Record("a", **self.BASE), Record("b", **self.BASE)
        orders = set()
        for seed in ("s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"):
            first = rank_records([a, b], PLAYOFF_RANKING, seed)
            again = rank_records([b, a], PLAYOFF_RANKING, seed)
            self.assertEqual([r.person for r, _, _ in first], [r.person for r, _, _ in again])
            self.assertEqual(first[1][2], "coin_flip")
            orders.add(tuple(r.person for r, _, _ in first))
        self.assertEqual(orders, {("a", "b"), ("b", "a")})

    def test_playoff_wins_decide_equal_playoff_points_in_a_league(self):
        doc = league_doc(qualification={"players": ["x", "y"]})
        out = table(doc, event_doc("p1", list("xzy")), event_doc("p2", list("zwy")))
        ranking = out["playoffs"]["ranking"]
        self.assertEqual([(r["person"], r["points"]) for r in ranking], [("x", 12), ("y", 12)])
        self.assertEqual(ranking[1]["decided_by"], "playoff_wins")

    def test_season_points_decide_equal_playoff_records_in_a_league(self):
        doc = league_doc(qualification={"players": ["x", "y"]})
        out = table(doc, event_doc("r1", list("xyz")), event_doc("p1", list("zxyw")), event_doc("p2", list("zyxw")))
        ranking = out["playoffs"]["ranking"]
        self.assertEqual([r["person"] for r in ranking], ["x", "y"])
        self.assertEqual(ranking[1]["decided_by"], "season_points")

    def test_lifetime_points_decide_when_everything_of_the_season_is_equal(self):
        doc = league_doc(qualification={"players": ["x", "y"]}, lifetime={"y": 10})
        out = table(doc, event_doc("p1", list("zxyw")), event_doc("p2", list("zyxw")))
        ranking = out["playoffs"]["ranking"]
        self.assertEqual([r["person"] for r in ranking], ["y", "x"])
        self.assertEqual(ranking[1]["decided_by"], "lifetime_points")


class ChampionsLeague(unittest.TestCase):
    def test_players_with_100_lifetime_points_are_seeded_by_lifetime_points(self):
        doc = league_doc(lifetime={"a": 90, "b": 150, "c": 40, "old": 300}, champions_league={"waived": ["c"]})
        out = table(doc, event_doc("r1", list("abcd")))
        # this season: a 12, b 8, c 6, d 6 -> lifetime a 102, b 158, c 46, d 6, old 300
        self.assertEqual(
            [(s["seed"], s["person"], s["lifetime"], s["waived"]) for s in out["champions_league_seeding"]],
            [(1, "old", 300, False), (2, "b", 158, False), (3, "a", 102, False), (4, "c", 46, True)],
        )
        self.assertEqual(row(out["lifetime"], "old")["season"], 0)

    def test_equal_lifetime_points_are_ordered_by_a_draw_from_the_seed(self):
        doc = league_doc(lifetime={"a": 100, "b": 100, "c": 100})
        first = table(doc, event_doc("r1", ["x", "y", "z"]))["champions_league_seeding"]
        self.assertEqual(len(first), 3)
        self.assertEqual(first, table(doc, event_doc("r1", ["x", "y", "z"]))["champions_league_seeding"])


class LeagueDocument(unittest.TestCase):
    def refused(self, doc: Any, path: str) -> str:
        with self.assertRaises(DocumentError) as ctx:
            load_league(doc)
        self.assertEqual(ctx.exception.path, path)
        return ctx.exception.problem

    def test_bad_fields_are_named(self):
        base = league_doc()
        cases = [
            ("director", None, "director"),
            ("id", "", "id"),
            ("name", 3, "name"),
            ("format", "topcut-league/2", "format"),
            ("events", "r1", "events"),
            ("qualification", {}, "qualification"),
            ("lifetime", {"a": -1}, "lifetime.a"),
            ("qualification", {"per_sprint": 0}, "qualification.per_sprint"),
        ]
        for field, value, path in cases:
            doc = copy.deepcopy(base)
            if value is None:
                del doc[field]
            else:
                doc[field] = value
            with self.subTest(field=field, value=value):
                self.refused(doc, path)

    def test_the_season_must_follow_a_schedule_of_section_12_2(self):
        doc = league_doc()
        doc["season"]["schedule"] = "monthly"
        self.assertIn("12.2", self.refused(doc, "season.schedule"))
        doc = league_doc("standard")
        doc["season"]["sprints"].pop(1)
        self.assertIn("2 regular", self.refused(doc, "season.sprints"))

    def test_an_event_is_in_one_sprint_and_in_the_league(self):
        doc = league_doc()
        doc["season"]["sprints"][1]["events"].append("r1")
        self.refused(doc, "season.sprints[1].events[2]")
        doc = league_doc()
        doc["events"].remove("p2")
        self.refused(doc, "season.sprints[1].events[1]")

    def test_a_league_event_must_be_star_trek_and_carry_its_id(self):
        doomtown = event_doc("r1", list("abcd"), ruleset="doomtown")
        for match in doomtown["rounds"][0]["matches"]:
            match["outcomes"] = ["win", "loss"]
        with self.assertRaises(DocumentError) as ctx:
            table(league_doc(), doomtown)
        self.assertEqual(ctx.exception.path, "events[0].ruleset")
        doc = event_doc("r1", list("abc"))
        del doc["id"]
        with self.assertRaises(DocumentError) as ctx:
            table(league_doc(), doc)
        self.assertEqual(ctx.exception.path, "events[0].id")

    def test_event_ids_can_be_given_beside_documents_that_carry_none(self):
        doc = event_doc("ignored", list("abc"))
        del doc["id"]
        out = league_table(load_league(league_doc()), [load_event(doc)], ["r2"])
        self.assertEqual(out["events"][0]["id"], "r2")
        for ids in ([], ["r1", "r2"], [""]):
            with self.subTest(ids=ids):
                with self.assertRaises(DocumentError) as ctx:
                    league_table(load_league(league_doc()), [load_event(doc)], ids)
                self.assertEqual(ctx.exception.path, "ids")

    def test_the_same_event_twice_is_refused(self):
        with self.assertRaises(DocumentError) as ctx:
            table(league_doc(), event_doc("r1", list("abc")), event_doc("r1", list("abc")))
        self.assertEqual(ctx.exception.path, "events[1].id")


class LeagueCommand(unittest.TestCase):
    def cli(self, *argv: str) -> tuple[int, Any, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(argv))
        return code, json.loads(out.getvalue()) if out.getvalue() else None, err.getvalue()

    def test_league_prints_the_table_as_json(self):
        league = json_file(self, league_doc())
        one, two = json_file(self, event_doc("r1", list("abcd"))), json_file(self, event_doc("r2", list("dcba")))
        code, out, err = self.cli("league", league, one, two)
        self.assertEqual((0, ""), (code, err))
        self.assertEqual(out, table(league_doc(), event_doc("r1", list("abcd")), event_doc("r2", list("dcba"))))

    def test_a_bad_league_or_event_is_one_line_naming_the_file_and_status_2(self):
        bad_league = json_file(self, league_doc(qualification={"per_sprint": "four"}))
        code, out, err = self.cli("league", bad_league)
        self.assertEqual((2, None), (code, out))
        self.assertEqual(
            err, f"error: {bad_league}: qualification.per_sprint: expected a whole number of at least 1, got 'four'\n"
        )
        league = json_file(self, league_doc())
        undated = event_doc("r1", list("abc"), date="soon")
        event = json_file(self, undated)
        code, out, err = self.cli("league", league, event)
        self.assertEqual(err, f"error: {event}: date: expected a date YYYY-MM-DD, got 'soon'\n")
        bonus = json_file(self, league_doc(bonus=[{"event": "r1", "person": "zed", "points": 1}]))
        code, out, err = self.cli("league", bonus, json_file(self, event_doc("r1", list("abc"))))
        self.assertEqual(err, f"error: {bonus}: bonus[0].person: 'zed' did not play in 'r1'\n")
        code, out, err = self.cli("league")
        self.assertEqual(2, code)
        self.assertEqual(1, len(err.strip().splitlines()))


if __name__ == "__main__":
    unittest.main()

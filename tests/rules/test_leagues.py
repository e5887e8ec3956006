"""WCT leagues (Star Trek OP Guide 12): the league document, league_table, 12.6 playoff ranking, 12.7 seeding."""

from __future__ import annotations

import copy
import json
import unittest
from typing import Any, Sequence

from shared_rules.errors import DocumentError
from shared_rules.event import load_event
from shared_rules.leagues import PLAYOFF_RANKING, league_table, load_league
from shared_rules.leagues.tiebreakers import Record, rank_records


def event_doc(eid: str, order: Sequence[str], date: str | None = None, ruleset: str = "startrek-1e",
              **extra: Any) -> dict[str, Any]:
    """A one-round Star Trek event whose final standings are exactly ``order`` (best first)."""
    n = len(order)
    m = n // 2
    paired = list(order[:2 * m])
    matches: list[dict[str, Any]] = []
    for i in range(m):
        # winners by falling differential, each beating the loser who must finish just as far from the end
        matches.append({"table": i + 1, "players": [paired[i], paired[2 * m - 1 - i]],
                        "outcomes": ["full-win", "full-loss"], "scores": [100 - i, i]})
    if n % 2:
        matches.append({"players": [order[-1]], "outcomes": ["missed-game"]})
    doc: dict[str, Any] = {"format": "topcut-event/1", "id": eid, "name": f"Event {eid}", "ruleset": ruleset,
                           "seed": eid, "players": [{"id": p, "name": p.upper(), "entry": k + 1}
                                                    for k, p in enumerate(sorted(order))],
                           "rounds": [{"number": 1, "stage": "swiss", "matches": matches}]}
    if date is not None:
        doc["date"] = date
    doc.update(extra)
    return doc


def league_doc(schedule: str = "truncated", **extra: Any) -> dict[str, Any]:
    """A league whose sprints list their events: truncated r1-r4 | p1-p2; standard a1-a4 | b1-b4 | p1-p4."""
    if schedule == "truncated":
        sprints = [{"id": "regular", "kind": "regular", "events": ["r1", "r2", "r3", "r4"]},
                   {"id": "playoffs", "kind": "playoff", "events": ["p1", "p2"]}]
    else:
        sprints = [{"id": "first-half", "kind": "regular", "events": ["a1", "a2", "a3", "a4"]},
                   {"id": "second-half", "kind": "regular", "events": ["b1", "b2", "b3", "b4"]},
                   {"id": "playoffs", "kind": "playoff", "events": ["p1", "p2", "p3", "p4"]}]
    doc: dict[str, Any] = {"format": "topcut-league/1", "id": "nzl", "name": "Neutral Zone League",
                           "director": {"name": "Quark", "handle": "quark"}, "seed": "nzl-2026",
                           "season": {"name": "2026-27", "schedule": schedule, "sprints": sprints},
                           "events": [e for s in sprints for e in s["events"]],
                           "qualification": {"per_sprint": 2}}
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
        self.assertEqual({r["person"]: (r["points"], r["events"]) for r in out["season"]},
                         {"a": (20, 2), "b": (18, 2), "d": (18, 2), "c": (16, 2), "e": (16, 1), "f": (8, 1)})
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


if __name__ == "__main__":
    unittest.main()

"""Pokémon TOP 3.1.1 age divisions: the season from the event's date, and no pairing while divisions are unknown."""

from __future__ import annotations

import unittest
from typing import Any

from shared_rules.errors import DocumentError, RulesError
from shared_rules.games.pokemon.divisions import (
    creation_settings,
    division_bands,
    division_for,
    division_view,
    event_season,
    season_for,
)
from shared_rules.games.pokemon.ruleset import check_kind
from shared_rules.games.pokemon.tom import to_tdf
from shared_rules.run import load_event, pair_next_round, standings_json
from shared_rules.state import apply, initial_state, to_event_document

# Pokémon TOP 3.1.1: "Junior (born in 2008 or later), Senior (born in 2004, 2005, 2006, or 2007), and
# Masters (born in 2003 or earlier)" — the document's own boundaries, for its season 2019.
TOP_2019 = {2003: "masters", 2004: "senior", 2005: "senior", 2006: "senior", 2007: "senior", 2008: "junior"}


def doc(players: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    settings = top.pop("settings", {"rounds": 3})
    return {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "name": "League Challenge",
        "seed": "divisions",
        "settings": settings,
        "players": [{"entry": i + 1, **p} for i, p in enumerate(players)],
        "rounds": [],
        **top,
    }


def born(*years: int | None) -> list[dict[str, Any]]:
    out = []
    for i, year in enumerate(years):
        row: dict[str, Any] = {"id": f"p{i + 1}", "name": f"Player {i + 1}"}
        if year is not None:
            row["birth_year"] = year
        out.append(row)
    return out


def create(at: int, settings: dict[str, Any] | None = None) -> dict[str, Any]:
    payload: dict[str, Any] = {"ruleset": "pokemon-tcg", "name": "Cup"}
    if settings is not None:
        payload["settings"] = settings
    op = {"type": "event.create", "op_id": "t:1", "device": "t", "actor": {"role": "organizer"}, "at": at}
    return apply(initial_state(), {**op, "payload": payload})


class SeasonFromTheDate(unittest.TestCase):
    """The season an event's divisions are told in, when ``settings.season`` is not set."""

    def test_the_tops_own_boundaries_hold_for_an_event_in_its_season(self) -> None:
        for date in ("2019-07-01", "2019-11-16", "2020-06-30"):
            with self.subTest(date=date):
                event = load_event(doc(born(*TOP_2019), date=date))
                self.assertEqual(event_season(event).year, 2019)  # type: ignore[union-attr]
                view = division_view(event)
                self.assertEqual([view["players"][f"p{i + 1}"] for i in range(6)], list(TOP_2019.values()))

    def test_every_year_of_the_tops_table_and_either_side(self) -> None:
        for year, division in {2002: "masters", **TOP_2019, 2009: "junior", 2012: "junior"}.items():
            with self.subTest(year=year):
                self.assertEqual(division_for(year, 2019), division)

    def test_the_season_turns_on_july_the_first(self) -> None:
        self.assertEqual([season_for(d) for d in ("2020-06-30", "2020-07-01")], [2019, 2020])
        # Born 2004: a Senior in season 2019, a Masters player once season 2020 begins (born <= 2020 - 16).
        for date, division in (("2020-06-30", "senior"), ("2020-07-01", "masters")):
            with self.subTest(date=date):
                self.assertEqual(division_view(load_event(doc(born(2004), date=date)))["players"]["p1"], division)

    def test_the_bands_say_each_divisions_birth_years(self) -> None:
        self.assertEqual(
            [(b["label"], b["from"], b["to"]) for b in division_bands(2019)],
            [("Masters", None, 2003), ("Senior", 2004, 2007), ("Junior", 2008, 2020)],
        )

    def test_the_season_setting_wins_over_the_date(self) -> None:
        event = load_event(doc(born(2004), date="2026-10-01", settings={"season": 2019}))
        self.assertEqual((event_season(event).year, event_season(event).basis), (2019, "settings.season"))  # type: ignore[union-attr]

    def test_a_date_setting_is_read_too(self) -> None:
        event = load_event(doc(born(2004), settings={"date": "2019-09-01"}))
        self.assertEqual((event_season(event).year, event_season(event).basis), (2019, "settings.date"))  # type: ignore[union-attr]

    def test_an_event_made_here_records_the_season_of_its_day(self) -> None:
        # 2026-10-26 (UTC): season 2026, written into the settings where everyone sees it.
        self.assertEqual(create(1_793_000_000_000)["settings"], {"season": 2026})
        self.assertEqual(create(1_780_000_000_000)["settings"], {"season": 2025})  # 2026-05-28
        self.assertEqual(create(0, {"date": "2019-08-03"})["settings"], {"date": "2019-08-03", "season": 2019})
        self.assertEqual(create(1_793_000_000_000, {"season": 2019})["settings"], {"season": 2019})
        self.assertEqual(creation_settings({"season": 2030}, 0), {"season": 2030})

    def test_a_tablet_and_the_server_derive_the_same_season_from_the_log(self) -> None:
        made = create(1_793_000_000_000)
        self.assertEqual(to_event_document(made)["settings"], create(1_793_000_000_000)["settings"])

    def test_standings_place_each_division_apart_by_the_derived_season(self) -> None:
        d = doc(born(1990, 2016), date="2026-10-01")
        d["rounds"] = [
            {
                "number": 1,
                "stage": "swiss",
                "matches": [{"table": 1, "players": ["p1", "p2"], "outcomes": ["win", "loss"]}],
            }
        ]
        rows = standings_json(load_event(d))["standings"]
        self.assertEqual(
            [(r["player"], r["division"], r["rank"]) for r in rows], [("p1", "masters", 1), ("p2", "junior", 1)]
        )


class PairingRefusesUnknownDivisions(unittest.TestCase):
    """Divisions are never dropped without a word: pairing names the players and what to do."""

    def refusal(self, d: dict[str, Any]) -> str:
        with self.assertRaises(RulesError) as caught:
            pair_next_round(load_event(d))
        return str(caught.exception)

    def test_the_issues_event_born_1979_to_2016_is_paired_in_divisions(self) -> None:
        years = [1979 + (i * 37) // 39 for i in range(40)]  # 40 players born 1979..2016
        d = doc(born(*years), date="2026-10-03")
        division = division_view(load_event(d))["players"]
        paired = pair_next_round(load_event(d))
        for match in paired.matches:
            if len(match.players) == 2:
                self.assertEqual(division[match.players[0]], division[match.players[1]], match.players)
        self.assertEqual(len(set(division.values())), 3)

    def test_birth_years_without_a_season_or_a_date_are_refused(self) -> None:
        message = self.refusal(doc(born(1990, 2012, 2015, 1985)))
        self.assertIn("round 1 cannot be paired", message)
        self.assertIn("Player 1, Player 2, Player 3, Player 4 have a birth year but the event has no season", message)
        self.assertIn("set the event's season", message)

    def test_a_player_without_a_birth_year_is_named(self) -> None:
        message = self.refusal(doc(born(1990, None, 2015, None), date="2026-10-03"))
        self.assertIn("2 of 4 players have no birth year (Player 2, Player 4)", message)
        self.assertIn("enter each one's birth year in the roster on the Players screen", message)

    def test_a_birth_year_after_the_season_fits_no_division(self) -> None:
        message = self.refusal(doc(born(1990, 2031), date="2026-10-03"))
        self.assertIn("Player 2 (born 2031): born after the 2026-27 season, so in no division", message)

    def test_a_division_that_contradicts_the_birth_year_is_refused(self) -> None:
        players = born(1990, 2015)
        players[0]["division"] = "junior"
        message = self.refusal(doc(players, date="2026-10-03"))
        self.assertIn("Player 1 (entered as Junior, born 1990: Masters)", message)
        self.assertIn("correct the birth year or the division", message)

    def test_a_division_alone_is_enough(self) -> None:
        players = born(None, None)
        players[0]["division"], players[1]["division"] = "junior", "masters"
        self.assertEqual(len(pair_next_round(load_event(doc(players))).matches), 1)

    def test_an_unfinished_event_with_a_missing_birth_year_exports_as_running_not_finalized(self) -> None:
        d = doc(born(1990, 1991, None, 1985), date="2026-10-03")
        d["rounds"] = [
            {
                "number": 1,
                "stage": "swiss",
                "matches": [
                    {"table": 1, "players": ["p1", "p2"], "outcomes": ["win", "loss"]},
                    {"table": 2, "players": ["p3", "p4"], "outcomes": ["win", "loss"]},
                ],
            }
        ]
        self.assertIn('stage="4"', to_tdf(d).splitlines()[1])

    def test_nobodys_age_recorded_pairs_one_pool_as_before(self) -> None:
        self.assertEqual(len(pair_next_round(load_event(doc(born(None, None, None, None)))).matches), 2)

    def test_a_dropped_player_without_a_birth_year_does_not_stop_pairing(self) -> None:
        players = born(1990, 1991, None)
        players[2]["dropped_after"] = 0
        self.assertEqual(len(pair_next_round(load_event(doc(players, date="2026-10-03"))).matches), 1)

    def test_many_players_are_counted_after_the_first_eight(self) -> None:
        message = self.refusal(doc(born(1990, *([None] * 10)), date="2026-10-03"))
        self.assertIn("10 of 11 players have no birth year (Player 2, ", message)
        self.assertIn("Player 9 and 2 more)", message)

    def test_the_players_screen_sees_the_same_problems_before_pairing(self) -> None:
        view = division_view(load_event(doc(born(1990, None), date="2026-10-03")))
        self.assertEqual(view["season"], {"year": 2026, "label": "2026-27", "basis": "date"})
        self.assertEqual(view["players"], {"p1": "masters", "p2": None})
        self.assertEqual(len(view["problems"]), 1)
        self.assertIsNone(view["note"])

    def test_the_players_screen_says_when_nobodys_age_is_recorded(self) -> None:
        view = division_view(load_event(doc(born(None, None), date="2026-10-03")))
        self.assertEqual((view["problems"], view["players"]), ([], {"p1": None, "p2": None}))
        self.assertIn("everyone is paired and placed as one Masters division", view["note"])


class KindSetting(unittest.TestCase):
    """``settings.kind`` keeps TOM's event type and mode; a bad one is refused naming the field."""

    def test_tom_kinds_are_accepted(self) -> None:
        for kind in ({"type": 3, "mode": "TCG1DAY"}, {"type": 2, "mode": "LEAGUECHALLENGE"}):
            load_event(doc(born(None), settings={"kind": kind}))

    def test_a_bad_kind_names_the_field(self) -> None:
        for kind, path in (
            ("league-cup", "settings.kind:"),
            ({"type": 3}, "settings.kind:"),
            ({"type": "3", "mode": "TCG1DAY"}, "settings.kind.type:"),
            ({"type": 3, "mode": "League Cup"}, "settings.kind.mode:"),
        ):
            with self.subTest(kind=kind):
                with self.assertRaises(DocumentError) as caught:
                    load_event(doc(born(None), settings={"kind": kind}))
                self.assertTrue(str(caught.exception).startswith(path), str(caught.exception))
        with self.assertRaises(DocumentError):
            check_kind({"type": True, "mode": "TCG1DAY"})

    def test_the_kind_can_be_configured_and_is_refused_in_words(self) -> None:
        made = create(1_793_000_000_000)
        op = {"type": "event.configure", "op_id": "t:2", "device": "t", "actor": {"role": "organizer"}, "at": 1}
        cup = apply(made, {**op, "payload": {"settings": {"kind": {"type": 3, "mode": "TCG1DAY"}}}})
        self.assertEqual(cup["settings"], {"season": 2026, "kind": {"type": 3, "mode": "TCG1DAY"}})
        with self.assertRaises(RulesError) as caught:
            apply(made, {**op, "payload": {"settings": {"kind": "cup"}}})
        self.assertIn("expected TOM's event type and mode", str(caught.exception))


if __name__ == "__main__":
    unittest.main()

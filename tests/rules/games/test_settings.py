"""Every game's event settings (the Settings screen's descriptor), the reducer's refusals of wrong values in the
organizer's words, and the documents' sanctioning warnings (Doomtown 5.A-5.C, Star Trek 2, 3, 6, 7.1, 11,
Pokémon 3.1.1, 3.3.3, 3.3.5). unittest only: it also runs inside Pyodide."""

from __future__ import annotations

import unittest
from typing import Any

from shared_rules.games import RULESET_IDS, game_of
from shared_rules.games.settings import KINDS, Notice, SettingsContext
from shared_rules.state import apply, check, initial_state

T0 = 1_700_000_000_000


class _Event:
    """An event driven by operations from one organizer device."""

    def __init__(self, ruleset: str, players: int, settings: dict[str, Any] | None = None) -> None:
        self.seq = 0
        self.state = initial_state()
        self.do("event.create", {"ruleset": ruleset, "name": "Cup", "seed": "seed-1", "settings": settings or {}})
        for i in range(1, players + 1):
            player: dict[str, Any] = {"id": f"p{i}", "name": f"Player {i}"}
            if ruleset.startswith("pokemon"):
                player["birth_year"] = 1990
            self.do("player.register", {"player": player})

    def op(self, op_type: str, payload: dict[str, Any]) -> dict[str, Any]:
        self.seq += 1
        return {
            "type": op_type,
            "op_id": f"desk:{self.seq}",
            "device": "desk",
            "actor": {"role": "organizer"},
            "at": T0 + self.seq * 1000,
            "payload": payload,
        }

    def do(self, op_type: str, payload: dict[str, Any]) -> None:
        self.state = apply(self.state, self.op(op_type, payload))

    def pair_round_one(self) -> None:
        ids = [p["id"] for p in self.state["players"]]
        matches = [{"table": i // 2 + 1, "players": ids[i : i + 2]} for i in range(0, len(ids), 2)]
        self.do("round.pair", {"number": 1, "matches": matches})

    def why(self, op_type: str, payload: dict[str, Any]) -> str | None:
        reason = check(self.state, self.op(op_type, payload))
        self.seq -= 1  # nothing was applied: the next operation takes the same sequence number
        return reason


def _warnings(ruleset: str, settings: dict[str, Any], players: int, **kw: Any) -> list[Notice]:
    game = game_of(ruleset)
    assert game.settings_warnings is not None
    ctx = SettingsContext(ruleset=ruleset, settings=settings, before=kw.pop("before", {}), players=players, **kw)
    return game.settings_warnings(ctx)


def _texts(notices: list[Notice]) -> str:
    return " | ".join(f"{n.text} ({n.source})" for n in notices)


class DescriptorTest(unittest.TestCase):
    def test_every_game_declares_its_settings_with_labels_hints_and_kinds(self) -> None:
        for rid in RULESET_IDS:
            with self.subTest(ruleset=rid):
                sections = game_of(rid).settings_descriptor()["sections"]
                keys = [f["key"] for s in sections for f in s["fields"]]
                self.assertIn("rounds", keys)
                self.assertIn("round_minutes", keys)
                self.assertIn("date", keys)
                self.assertEqual(len(keys), len(set(keys)), "a setting declared twice")
                for s in sections:
                    for f in s["fields"]:
                        self.assertIn(f["kind"], KINDS)
                        self.assertTrue(f["label"] and f["hint"], f)
                        if f["kind"] == "choice":
                            self.assertTrue(f["choices"], f)

    def test_games_offer_the_settings_their_documents_have(self) -> None:
        def keys(rid: str) -> set[str]:
            return {f["key"] for s in game_of(rid).settings_descriptor()["sections"] for f in s["fields"]}

        self.assertLessEqual({"season", "kind", "structure", "flights", "playoff_3rd_4th", "cut"}, keys("pokemon-tcg"))
        self.assertLessEqual({"roundup", "cut_untimed", "best_of", "final_best_of"}, keys("doomtown"))
        self.assertLessEqual({"rating", "bracket", "variant", "td_plays", "online"}, keys("startrek-2e"))
        self.assertIn("rating", keys("tribbles"))
        self.assertNotIn("bracket", keys("tribbles"))  # pods, no match play
        rating = next(
            f
            for s in game_of("startrek-1e").settings_descriptor()["sections"]
            for f in s["fields"]
            if f["key"] == "rating"
        )
        self.assertEqual(["sanctioned", "level", "format", "scenario", "date"], [f["key"] for f in rating["fields"]])


class RefusalTest(unittest.TestCase):
    def test_a_wrong_value_is_refused_naming_the_setting_and_nothing_changes(self) -> None:
        event = _Event("custom", 4)
        cases = {
            "rounds": (0, "Swiss rounds: 0 is out of range: give a whole number from 1 to 30"),
            "cut": (1, "Top cut (players): 1 is not allowed: give 0 for none, or at least 2"),
            "round_minutes": ("fifty", "Round length (minutes): give a whole number from 1 to 600"),
            "date": ("14/03/2026", "Event date: give a date as YYYY-MM-DD"),
            "best_of": (2, "Elimination matches: choose one of: Best of one, Best of three"),
        }
        for key, (value, words) in cases.items():
            with self.subTest(key=key):
                reason = event.why("event.configure", {"settings": {key: value}})
                self.assertIsNotNone(reason)
                self.assertIn(words, str(reason))
        self.assertEqual({}, event.state["settings"])
        event.do("event.configure", {"settings": {"rounds": 5, "cut": 4, "date": "2026-03-14", "best_of": 3}})
        self.assertEqual(5, event.state["settings"]["rounds"])

    def test_a_rating_field_is_refused_by_its_label(self) -> None:
        event = _Event("startrek-2e", 6)
        reason = event.why("event.configure", {"settings": {"rating": {"sanctioned": "yes"}}})
        self.assertIn("Sanctioning and ratings: Sanctioned (registered on trekcc.org): answer yes or no", str(reason))
        reason = event.why("event.configure", {"settings": {"rating": {"format": "booster"}}})
        self.assertIn("Format: choose one of: Constructed, Draft, Sealed", str(reason))
        event.do("event.configure", {"settings": {"rating": {"sanctioned": True, "level": 2, "format": "constructed"}}})
        self.assertEqual(2, event.state["settings"]["rating"]["level"])

    def test_doomtown_rounds_cannot_change_once_round_one_is_paired(self) -> None:
        # Doomtown Floor Rules 5.B: "once announced, it cannot be changed".
        event = _Event("doomtown", 8)
        event.do("event.configure", {"settings": {"rounds": 4}})
        event.pair_round_one()
        reason = event.why("event.configure", {"settings": {"rounds": 5}})
        self.assertIn("Swiss rounds cannot change once round 1 is paired (Doomtown Floor Rules 5.B", str(reason))
        self.assertIsNone(event.why("event.configure", {"settings": {"rounds": 4, "round_minutes": 61}}))

    def test_star_trek_rounds_may_change_during_the_event(self) -> None:
        # Star Trek OP Guide 6: with every player's agreement (a warning on the screen, not a refusal).
        event = _Event("startrek-2e", 6)
        event.pair_round_one()
        self.assertIsNone(event.why("event.configure", {"settings": {"rounds": 4}}))

    def test_a_pokemon_cut_must_be_a_power_of_two(self) -> None:
        event = _Event("pokemon-tcg", 8)
        self.assertIn("power of two", str(event.why("event.configure", {"settings": {"cut": 6}})))


class HouseRulesTest(unittest.TestCase):
    """Custom: settings.points (outcome → whole number) and settings.tiebreakers (ordered metric keys)."""

    def test_points_and_tiebreakers_are_declared_with_the_registry_labels(self) -> None:
        fields = {f.key: f for section in game_of("custom").settings_ui for f in section.fields}
        self.assertEqual("points", fields["points"].kind)
        self.assertIn(("win", "Win"), fields["points"].choices)
        order = dict(fields["tiebreakers"].choices)
        self.assertEqual("order", fields["tiebreakers"].kind)
        self.assertEqual("Op Win %", order["owp"])
        self.assertNotIn("points", order)  # points always rank first
        self.assertEqual(len(set(order.values())), len(order))  # repeated labels are told apart

    def test_house_rules_set_by_the_organizer_rank_the_players(self) -> None:
        event = _Event("custom", 4)
        event.do(
            "event.configure",
            {"settings": {"points": {"win": 2, "tie": 1, "loss": 0, "bye": 2}, "tiebreakers": ["entry", "random"]}},
        )
        event.pair_round_one()
        event.do("round.start", {"number": 1, "duration_s": 3000})
        event.do("result.report", {"round": 1, "table": 1, "outcomes": ["tie", "tie"]})
        event.do("result.report", {"round": 1, "table": 2, "outcomes": ["loss", "win"]})
        from shared_rules.run import load_event, standings_json
        from shared_rules.state.state import to_event_document

        rows = standings_json(load_event(to_event_document(event.state, operational=False)))["standings"]
        self.assertEqual(["p4", "p1", "p2", "p3"], [r["player"] for r in rows])  # ties on 1 point: entry order
        self.assertEqual([2, 1, 1, 0], [r["points"] for r in rows])

    def test_wrong_house_rules_are_refused_in_the_organizers_words(self) -> None:
        event = _Event("custom", 4)
        cases = {
            "points": ({"win": "three"}, "Points per outcome: Win: give a whole number from -100 to 100"),
            "tiebreakers": (["owp", "owp"], "Tiebreakers, in order: Op Win % is listed twice"),
        }
        for key, (value, words) in cases.items():
            with self.subTest(key=key):
                self.assertIn(words, str(event.why("event.configure", {"settings": {key: value}})))
        self.assertIn(
            "'nope' is not one of", str(event.why("event.configure", {"settings": {"tiebreakers": ["nope"]}}))
        )
        self.assertEqual({}, event.state["settings"])

    def test_points_that_no_longer_fit_a_recorded_result_are_refused_naming_the_table(self) -> None:
        event = _Event("custom", 4)
        event.pair_round_one()
        event.do("round.start", {"number": 1, "duration_s": 3000})
        event.do("result.report", {"round": 1, "table": 1, "outcomes": ["tie", "tie"]})
        reason = str(event.why("event.configure", {"settings": {"points": {"win": 3, "loss": 0}}}))
        self.assertIn("the result recorded at round 1 table 1 no longer fits", reason)
        self.assertNotIn("rounds[", reason)
        self.assertIsNone(event.why("event.configure", {"settings": {"points": {"win": 2, "tie": 1, "loss": 0}}}))


class WarningTest(unittest.TestCase):
    def test_pokemon_season_shows_the_divisions_birth_years(self) -> None:
        # Pokémon TOP 3.1.1 (the document's example season is 2019).
        text = _texts(_warnings("pokemon-tcg", {"season": 2019}, 41, rounds_paired=0))
        self.assertIn(
            "Season 2019-20: Masters born 2003 or earlier; Senior born 2004–2007; Junior born 2008 or later", text
        )

    def test_pokemon_rounds_and_flights_outside_the_document(self) -> None:
        text = _texts(_warnings("pokemon-tcg", {"rounds": 4, "flights": 2}, 41, rounds_paired=0))
        self.assertIn(
            "4 Swiss rounds: the table gives 6 for 41 players, and the organizer may run only one fewer", text
        )
        self.assertIn("flights need a division of at least 64 and 32 players in each flight. (Pokémon TOP 3.3.3)", text)
        self.assertNotIn("Swiss rounds", _texts(_warnings("pokemon-tcg", {"rounds": 5}, 41, rounds_paired=0)))

    def test_doomtown_attendance_minimum_by_kind_of_roundup(self) -> None:
        # Doomtown Floor Rules 5.A: 8 for Official Convention/Badge/Destination, 4 for Season and Social.
        text = _texts(_warnings("doomtown", {"roundup": "convention"}, 6, rounds_paired=0))
        self.assertIn("needs at least 8 who start round 1", text)
        self.assertNotIn("needs at least", _texts(_warnings("doomtown", {"roundup": "season"}, 6, rounds_paired=0)))

    def test_doomtown_tells_the_organizer_the_secret_time_and_the_fixed_rounds(self) -> None:
        notices = _warnings("doomtown", {}, 8, rounds_paired=1, seed="seed-1")
        text = _texts(notices)
        self.assertRegex(text, r"secret d6 is [1-6]: rounds end after 60 \+ [1-6] minutes")
        self.assertIn("number of rounds was announced and cannot change. (Doomtown Floor Rules 5.B)", text)
        self.assertNotIn("secret d6", _texts(_warnings("doomtown", {}, 8, rounds_paired=0, seed="")))
        # 3.A: another length must be cleared with PBE; the fixed 55-minute warning is left out of a shorter round.
        text = _texts(_warnings("doomtown", {"round_minutes": 45}, 8, rounds_paired=0, seed="seed-1"))
        self.assertIn("must be cleared with PBE", text)
        self.assertNotIn("minute 55", text)

    def test_star_trek_sanctioning_minimums_and_a_rating_without_level(self) -> None:
        # Star Trek OP Guide 2: 3 players, 3 rounds (Tribbles 5); 11: the level sets k.
        rating = {"sanctioned": True, "format": "constructed"}
        text = _texts(_warnings("startrek-2e", {"rating": rating, "rounds": 2}, 2, rounds_paired=0))
        self.assertIn("a sanctioned event needs at least 3", text)
        self.assertIn("2 rounds: a sanctioned event plays at least 3", text)
        self.assertIn("A rated event needs its level", text)
        text = _texts(_warnings("tribbles", {"rating": {**rating, "level": 2}, "rounds": 4}, 12, rounds_paired=0))
        self.assertIn("4 rounds: a sanctioned Tribbles event plays at least 5", text)
        self.assertEqual([], _warnings("startrek-2e", {"rating": {**rating, "level": 2}}, 6, rounds_paired=0))

    def test_star_trek_changing_rounds_once_begun_needs_every_player(self) -> None:
        text = _texts(_warnings("startrek-1e", {"rounds": 5}, 8, rounds_paired=2, before={"rounds": 4}))
        self.assertIn("only if every player agrees", text)
        self.assertIn("Star Trek OP Guide 6", text)

    def test_star_trek_director_playing_in_their_own_event(self) -> None:
        # Star Trek OP Guide 7.1: > 50 % approval, secondary and tertiary directors; not with > 16 others or a bye.
        text = _texts(_warnings("startrek-2e", {"td_plays": True}, 19, rounds_paired=0))
        self.assertIn("more than half of the other players to approve", text)
        self.assertIn("18 other players", text)
        self.assertIn("their playing makes a bye", text)
        self.assertNotIn("bye", _texts(_warnings("startrek-2e", {"td_plays": True}, 8, rounds_paired=0)))

    def test_agot_leaders_play_only_in_a_relaxed_tier_event(self) -> None:
        # AGoT Leader Participation: Relaxed with a second leader; never in Formal or Premier.
        self.assertIn(
            "cannot participate in a Premier tier",
            _texts(_warnings("agot", {"td_plays": True, "tier": "premier"}, 9, rounds_paired=0)),
        )
        self.assertIn(
            "only with a second leader",
            _texts(_warnings("agot", {"td_plays": True, "tier": "relaxed"}, 9, rounds_paired=0)),
        )
        self.assertEqual([], _warnings("agot", {"tier": "formal"}, 9, rounds_paired=0))

    def test_pokemon_flights_need_a_top_cut(self) -> None:
        # Pokémon TOP 3.3.3.1: flights only in Swiss plus single elimination.
        text = _texts(_warnings("pokemon-tcg", {"flights": 2, "cut": 0}, 200, rounds_paired=0))
        self.assertIn("Flights are only for Swiss plus single elimination", text)
        self.assertNotIn("Flights are only", _texts(_warnings("pokemon-tcg", {"flights": 2}, 200, rounds_paired=0)))


if __name__ == "__main__":
    unittest.main()

"""A player's own game ID (``players[].game_id``): declared per game, checked at registration, read from older
documents' ``pop_id``/``rating_id``, and exported as the player's ID (TOM userid, Star Trek report, ratings)."""

from __future__ import annotations

import unittest
import xml.etree.ElementTree as ET
from typing import Any

from shared_rules.games import RULESETS, game_of
from shared_rules.games.pokemon.tom import import_tdf, to_tdf
from shared_rules.games.startrek.ratings.games import identities
from shared_rules.games.startrek.report import tournament_report
from shared_rules.run import load_event
from shared_rules.state import OperationRejected, apply, initial_state, to_event_document


def _op(seq: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": kind,
        "op_id": f"d:{seq}",
        "device": "d",
        "actor": {"role": "organizer"},
        "at": seq,
        "payload": payload,
    }


def _event(ruleset: str, *players: dict[str, Any]) -> dict[str, Any]:
    state = apply(initial_state(), _op(0, "event.create", {"ruleset": ruleset, "name": "Cup", "seed": "s"}))
    for i, player in enumerate(players, 1):
        state = apply(state, _op(i, "player.register", {"player": player}))
    return state


class Declared(unittest.TestCase):
    def test_every_game_names_its_id_pokemon_and_star_trek_in_their_documents_words(self):
        for rid in RULESETS:
            with self.subTest(ruleset=rid):
                self.assertTrue(game_of(rid).player_id.label)
        self.assertEqual(game_of("pokemon-tcg").player_id.label, "Play! Pokémon ID")
        for rid in ("startrek-1e", "startrek-2e", "tribbles"):
            self.assertEqual(game_of(rid).player_id.label, "trekcc.org forum handle")
        self.assertEqual(game_of("doomtown").player_id.label, "Player ID")


class AtRegistration(unittest.TestCase):
    def test_a_play_pokemon_id_must_be_digits(self):
        with self.assertRaises(OperationRejected) as ctx:
            _event("pokemon-tcg", {"id": "p-a", "name": "Ash", "game_id": "1000-925"})
        self.assertIn("'1000-925' is not a Play! Pokémon ID (digits only)", str(ctx.exception))

    def test_two_players_cannot_share_an_id_even_an_older_documents_pop_id(self):
        state = _event("pokemon-tcg", {"id": "p-a", "name": "Ash", "pop_id": "1000925"})
        with self.assertRaises(OperationRejected) as ctx:
            apply(state, _op(9, "player.register", {"player": {"id": "p-b", "name": "Gary", "game_id": "1000925"}}))
        self.assertIn("Ash is already registered with Play! Pokémon ID 1000925", str(ctx.exception))

    def test_an_edit_is_checked_the_same_way_and_the_id_is_kept_in_game_id(self):
        state = _event(
            "startrek-2e", {"id": "p-a", "name": "Kirk", "game_id": "jtkirk"}, {"id": "p-b", "name": "Spock"}
        )
        with self.assertRaises(OperationRejected):
            apply(state, _op(9, "player.edit", {"player": "p-b", "fields": {"game_id": "jtkirk"}}))
        state = apply(state, _op(9, "player.edit", {"player": "p-b", "fields": {"game_id": "spock"}}))
        doc = to_event_document(state)
        self.assertEqual([p.get("game_id") for p in doc["players"]], ["jtkirk", "spock"])

    def test_a_handle_with_spaces_around_it_is_refused_for_any_game(self):
        with self.assertRaises(OperationRejected) as ctx:
            _event("doomtown", {"id": "p-a", "name": "Doc", "game_id": " 42 "})
        self.assertIn("spaces around it", str(ctx.exception))


class OlderDocuments(unittest.TestCase):
    def test_pop_id_and_rating_id_read_as_the_game_id(self):
        event = load_event(
            {
                "ruleset": "startrek-2e",
                "seed": "s",
                "players": [
                    {"id": "a", "name": "Kirk", "entry": 1, "rating_id": "jtkirk"},
                    {"id": "b", "name": "Spock", "entry": 2, "game_id": "spock"},
                    {"id": "c", "name": "Bones", "entry": 3},
                ],
            }
        )
        self.assertEqual([p.game_id for p in event.players], ["jtkirk", "spock", None])
        self.assertEqual(identities(event), {"a": "jtkirk", "b": "spock", "c": "c"})


class Exported(unittest.TestCase):
    def pokemon(self) -> dict[str, Any]:
        return {
            "ruleset": "pokemon-tcg",
            "name": "Cup",
            "seed": "s",
            "settings": {"season": 2025},
            "players": [
                {"id": "p-qa3v5i", "name": "Ash Ketchum", "entry": 1, "birth_year": 2001, "game_id": "1000925"},
                {"id": "p-zz9k2m", "name": "Misty Waterflower", "entry": 2, "birth_year": 2001, "pop_id": "1000926"},
                {"id": "p-r2d2c3", "name": "Brock Harrison", "entry": 3, "birth_year": 2001},
            ],
            "rounds": [
                {
                    "number": 1,
                    "matches": [
                        {"table": 1, "players": ["p-qa3v5i", "p-zz9k2m"], "outcomes": ["win", "loss"]},
                        {"players": ["p-r2d2c3"], "outcomes": ["bye"]},
                    ],
                }
            ],
        }

    def test_the_tom_file_names_each_player_by_their_play_pokemon_id(self):
        root = ET.fromstring(to_tdf(self.pokemon()))
        self.assertEqual(
            [p.get("userid") for p in root.iter("player") if p.get("userid") and p.find("firstname") is not None],
            ["1000925", "1000926", "p-r2d2c3"],
        )
        match = root.find(".//match")
        assert match is not None
        self.assertEqual(
            (match.find("player1").get("userid"), match.find("player2").get("userid")), ("1000925", "1000926")
        )  # type: ignore[union-attr]

    def test_the_tom_file_reimports_to_the_same_file(self):
        tdf = to_tdf(self.pokemon())
        self.assertEqual(to_tdf(import_tdf(tdf)), tdf)

    def test_two_players_with_one_id_cannot_be_written_to_tom(self):
        doc = self.pokemon()
        doc["players"][2]["game_id"] = "1000925"
        with self.assertRaises(Exception) as ctx:
            to_tdf(doc)
        self.assertIn("1000925", str(ctx.exception))

    def test_the_star_trek_report_names_players_by_their_trekcc_handle(self):
        event = load_event(
            {
                "ruleset": "startrek-2e",
                "name": "Regional",
                "seed": "s",
                "players": [
                    {"id": "a", "name": "Kirk", "entry": 1, "game_id": "jtkirk"},
                    {"id": "b", "name": "Spock", "entry": 2, "rating_id": "spock"},
                ],
            }
        )
        players = tournament_report(event)["tournaments"][0]["players"]
        self.assertEqual([(p["name"], p["handle"]) for p in players], [("Kirk", "jtkirk"), ("Spock", "spock")])


if __name__ == "__main__":
    unittest.main()

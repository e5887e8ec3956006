"""Deck-list checks that need no card database, each game's with its document's section, and the seeded
pick of players for a deck check. unittest only: the same file runs under pytest and in Pyodide."""

from __future__ import annotations

import unittest
from typing import Any

from shared_rules.decklists import check_list, pick_for_check
from shared_rules.games import RULESET_IDS, game_of


def problems(ruleset: str, sections: dict[str, str], settings: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """(message, source) of each problem of a list."""
    spec = game_of(ruleset).decklists
    return [(p["message"], p["source"]) for p in check_list(spec, settings or {}, sections)]


AGOT_OK = {"faction": "1 House Stark", "plot": "7 A Noble Cause", "draw": "3 Hedge Knight\n57 Winterfell Steward"}


class GameChecksTest(unittest.TestCase):
    def test_agot_plot_deck_is_exactly_seven_and_draw_deck_at_least_sixty(self) -> None:
        self.assertEqual([], problems("agot", AGOT_OK))
        short = dict(AGOT_OK, plot="6 A Noble Cause", draw="3 Hedge Knight\n50 Winterfell Steward")
        self.assertEqual(
            [
                ("Plot deck: 6 cards; it must be exactly 7", "AGoT Deck Building"),
                ("Draw deck: 53 cards; at least 60 are needed", "AGoT Deck Building"),
            ],
            problems("agot", short),
        )

    def test_agot_needs_its_faction_and_takes_at_most_one_agenda(self) -> None:
        no_faction = dict(AGOT_OK, faction="", agenda="1 Banner of the Wolf\n1 Fealty")
        self.assertEqual(
            [
                ("Faction: empty", "AGoT Deck Building"),
                ("Agenda: 2 cards; at most 1 are allowed", "AGoT Deck Building"),
            ],
            problems("agot", no_faction),
        )

    def test_star_trek_second_edition_allows_three_copies_of_a_title_in_deck_and_dilemma_pile(self) -> None:
        found = problems(
            "startrek-2e", {"deck": "3 Data, Aspirer", "dilemmas": "4 The Weak Will Perish", "missions": "1 Excavation"}
        )
        self.assertEqual(
            [
                (
                    "Dilemma pile: 4 copies of 'The Weak Will Perish'; at most 3 of a title",
                    "Star Trek OP Guide Appendix B D1 (three-card limit, Second Edition)",
                )
            ],
            found,
        )

    def test_star_trek_first_edition_q_tent_holds_at_most_thirteen_cards(self) -> None:
        found = problems(
            "startrek-1e", {"deck": "1 Data", "dilemmas": "1 Armus", "missions": "1 Excavation", "q-tent": "14 Tribble"}
        )
        self.assertEqual(
            [
                (
                    "Q's Tent: 14 cards; at most 13 are allowed",
                    "Star Trek OP Guide Appendix B D2 (13-card maximum in a Q's Tent)",
                )
            ],
            found,
        )

    def test_star_trek_deck_checks_offer_d2_then_d1_from_appendix_b(self) -> None:
        for rid in ("startrek-1e", "startrek-2e", "tribbles"):
            with self.subTest(rid):
                game = game_of(rid)
                self.assertEqual(("D2", "D1"), game.decklists.infractions)
                codes = {code for code, _, _ in game.penalties.infractions}
                self.assertLessEqual({"D1", "D2"}, codes, "offered infractions are in the penalty index")

    def test_doomtown_needs_one_outfit_and_at_most_one_legend(self) -> None:
        found = problems("doomtown", {"outfit": "", "legend": "1 Doc Holliday\n1 Ivor Hawley", "deck": "52 Gunslinger"})
        self.assertEqual([("Outfit: empty", ""), ("Legend: 2 cards; at most 1 are allowed", "")], found)

    def test_shatterpoint_squads_are_held_to_the_organizers_points(self) -> None:
        team = {"squad-1": "0 Lord Maul\n6 Gar Saxon\n2 Mandalorian Super Commandos", "squad-2": "0 Ahsoka\n9 Bo-Katan"}
        self.assertEqual([], problems("shatterpoint", team))
        self.assertEqual(
            [("Squad 2: 9 points; the organizer allows at most 8", "organizer")],
            problems("shatterpoint", team, {"decklists": {"points": 8}}),
        )

    def test_the_organizers_deck_size_and_copy_limit_apply_to_the_main_deck(self) -> None:
        settings = {"decklists": {"min_cards": 60, "max_cards": 60, "copies": 4}}
        found = problems("pokemon-tcg", {"deck": "5 Pikachu\n4 Potion"}, settings)
        self.assertEqual(
            [
                ("Deck: 9 cards; it must be exactly 60", "organizer"),
                ("Deck: 5 copies of 'Pikachu'; at most 4 of a title", "organizer"),
            ],
            found,
        )

    def test_a_title_on_two_lines_and_an_unreadable_line_are_named(self) -> None:
        found = problems("custom", {"deck": "2 Lightning Bolt\n0 Island\n2 lightning  bolt"})
        self.assertEqual(
            [
                ("Deck: line 2: '0 Island': a quantity of 0", ""),
                ("Deck: 'lightning  bolt' is on lines 1 and 3; put it on one line with the total", ""),
            ],
            found,
        )

    def test_every_game_declares_sections_with_their_labels_and_a_main_section(self) -> None:
        for rid in RULESET_IDS:
            with self.subTest(rid):
                spec = game_of(rid).decklists
                self.assertTrue(spec.sections)
                self.assertIsNotNone(spec.section(spec.main))
                self.assertEqual(
                    [f"{s.label}: empty" for s in spec.sections if s.required],
                    [p["message"] for p in check_list(spec, {}, {})],
                )


class DeckCheckPickTest(unittest.TestCase):
    def test_the_pick_is_replayable_from_the_event_seed_round_and_draw(self) -> None:
        players = [f"p{i}" for i in range(1, 41)]
        first = pick_for_check("seed-1", 3, 0, players, 4)
        self.assertEqual(first, pick_for_check("seed-1", 3, 0, list(reversed(players)), 4))
        self.assertEqual(4, len(set(first)))
        self.assertNotEqual(first, pick_for_check("seed-1", 3, 1, players, 4), "another draw picks again")
        self.assertNotEqual(first, pick_for_check("seed-2", 3, 0, players, 4), "another event picks others")


if __name__ == "__main__":
    unittest.main()

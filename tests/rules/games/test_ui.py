"""Every game's UI descriptor (shared_rules/games/base.py Game.ui): the shape the PWA reads, and each
game's values from its documents. unittest only: the same file runs under pytest and in Pyodide."""

from __future__ import annotations

import json
import unittest
from typing import Any

from shared_rules.games import RULESET_IDS, game_of

LEVELS = [
    ["0", "Level 0 — verbal warning"],
    ["1", "Level 1 — written warning"],
    ["2", "Level 2 — turn loss"],
    ["3", "Level 3 — game loss"],
    ["4", "Level 4 — disqualification"],
]
LEVELS_HINT = "Star Trek OP Guide Appendix B: a repeat of the same infraction is upgraded one level."
GENERIC = [["warning", "Warning"], ["game-loss", "Game loss"], ["disqualification", "Disqualification"]]


def ui(ruleset: str) -> dict[str, Any]:
    return game_of(ruleset).ui()


class DescriptorShapeTest(unittest.TestCase):
    def assertKeys(self, keys: set[str], value: Any, where: str) -> None:
        self.assertIsInstance(value, dict, where)
        self.assertEqual(keys, set(value), where)

    def test_every_ruleset_has_the_descriptor_shape(self) -> None:
        for rid in RULESET_IDS:
            with self.subTest(rid):
                d = ui(rid)
                self.assertEqual(d, json.loads(json.dumps(d)), "plain JSON")
                self.assertKeys({"result", "timer", "round_start", "penalties", "decklists"}, d, rid)
                lists = d["decklists"]
                self.assertKeys({"sections", "main", "source", "infractions", "noun"}, lists, "decklists")
                self.assertIn(lists["main"], [s["key"] for s in lists["sections"]], "the main section is a section")
                result = d["result"]
                self.assertKeys({"stats", "scores", "best_of_three", "time_called"}, result, "result")
                if result["stats"] is not None:
                    self.assertKeys({"legend", "table_size", "fields"}, result["stats"], "stats")
                    for f in result["stats"]["fields"]:
                        self.assertKeys({"key", "label", "max"}, f, "stats field")
                if result["scores"] is not None:
                    self.assertKeys({"legend", "min"}, result["scores"], "scores")
                self.assertIn(result["best_of_three"], ("always", "elimination"))
                if result["time_called"] is not None:
                    self.assertKeys({"inputs", "uses"}, result["time_called"], "time_called")
                    self.assertIn(result["time_called"]["uses"], (None, "stats", "scores"))
                    uses = result["time_called"]["uses"]
                    if uses is not None:
                        self.assertIsNotNone(result[uses], "time called reads a section the form shows")
                self.assertKeys({"notes"}, d["timer"], "timer")
                for note in d["timer"]["notes"]:
                    self.assertKeys({"at_or_below_ms", "text"}, note, "timer note")
                self.assertKeys({"attack_dice"}, d["round_start"], "round_start")
                pen = d["penalties"]
                self.assertKeys(
                    {
                        "system",
                        "choices",
                        "floor",
                        "infraction_field",
                        "hint",
                        "consequences",
                        "infractions",
                        "ejection_warnings",
                        "source",
                    },
                    pen,
                    "penalties",
                )
                self.assertIn(pen["system"], ("levels", "kinds"))
                values = {c[0] for c in pen["choices"]}
                self.assertTrue(set(pen["floor"]) <= values, "floor choices are choices")
                self.assertTrue(all(len(c) == 2 for c in pen["choices"]))
                self.assertTrue(set(pen["consequences"]) <= values - set(pen["floor"]), "warnings need no confirm")
                self.assertTrue(pen["source"], "every system names its document")
                for code, _name, level in pen["infractions"]:
                    self.assertIn(str(level), values, code)

    def test_every_choice_that_removes_or_costs_a_game_names_its_consequence(self) -> None:
        from shared_rules.state.penalties import CONSEQUENTIAL

        for rid in RULESET_IDS:
            system = game_of(rid).penalties
            effects = (
                {str(level): effect for level, (_, effect, _) in system.levels.items()}
                if system.uses_levels
                else {kind: effect for kind, (effect, _) in system.kinds.items()}
            )
            for value, effect in effects.items():
                if effect in CONSEQUENTIAL:
                    with self.subTest(rid, choice=value):
                        self.assertIn(value, system.consequences)


class DescriptorValuesTest(unittest.TestCase):
    def test_shatterpoint_shows_struggle_cards_and_wounds_and_mission_critical(self) -> None:
        d = ui("shatterpoint")
        self.assertEqual(
            {
                "legend": "Struggle cards and wounds",
                "table_size": 2,
                "fields": [
                    {"key": "struggle", "label": "Struggle cards", "max": 3},
                    {"key": "wounds", "label": "Wounds", "max": None},
                ],
            },
            d["result"]["stats"],
        )
        self.assertEqual({"inputs": [], "uses": "stats"}, d["result"]["time_called"])
        self.assertEqual([{"at_or_below_ms": 1_800_000, "text": "Mission Critical"}], d["timer"]["notes"])
        self.assertEqual({"attack_dice": 5}, d["round_start"])
        pen = d["penalties"]
        self.assertEqual(
            {
                "system": "kinds",
                "choices": [["warning", "Warning"], ["ejection", "Ejection"]],
                "floor": ["warning"],
                "infraction_field": False,
                "hint": None,
                "infractions": [],
                "ejection_warnings": 3,
                "source": "Shatterpoint: Arbiters",
            },
            {k: v for k, v in pen.items() if k != "consequences"},
        )
        self.assertIn("cannot rejoin", pen["consequences"]["ejection"])

    def test_star_trek_asks_for_final_scores_and_uses_appendix_b_levels(self) -> None:
        for rid, inputs in (("startrek-1e", []), ("startrek-2e", ["planet_missions", "space_missions"])):
            d = ui(rid)
            self.assertEqual({"legend": "Final scores", "min": None}, d["result"]["scores"])
            self.assertEqual({"inputs": inputs, "uses": "scores"}, d["result"]["time_called"])
            pen = d["penalties"]
            self.assertEqual(
                {
                    "system": "levels",
                    "choices": LEVELS,
                    "floor": ["0", "1"],
                    "infraction_field": True,
                    "hint": LEVELS_HINT,
                },
                {k: pen[k] for k in ("system", "choices", "floor", "infraction_field", "hint")},
            )
            self.assertEqual(["3", "4"], sorted(pen["consequences"]))
            self.assertIn("Full Loss", pen["consequences"]["3"])
            self.assertIn("forfeits all prizes", pen["consequences"]["4"])
            # Appendix B's index of penalties, each with the level its section gives
            codes = {code: (name, level) for code, name, level in pen["infractions"]}
            self.assertEqual(13, len(codes))
            self.assertEqual(("Procedural error, severe", 2), codes["A3"])
            self.assertEqual(("Contempt: deception", 4), codes["C1"])
            self.assertEqual(("Deck error: non-random presentation", 0), codes["D3"])

    def test_tribbles_asks_for_pod_scores_and_has_no_time_called_helper(self) -> None:
        d = ui("tribbles")
        self.assertEqual({"legend": "Pod scores (points this round)", "min": 0}, d["result"]["scores"])
        self.assertIsNone(d["result"]["time_called"])
        self.assertEqual("levels", d["penalties"]["system"])

    def test_time_called_inputs_per_game(self) -> None:
        self.assertEqual(
            {"inputs": ["control", "influence", "bullets"], "uses": None}, ui("doomtown")["result"]["time_called"]
        )
        self.assertEqual({"inputs": ["power"], "uses": None}, ui("agot")["result"]["time_called"])
        for rid in ("pokemon-tcg", "pokemon-vg", "custom", "tribbles"):
            self.assertIsNone(ui(rid)["result"]["time_called"], rid)

    def test_only_pokemon_offers_best_of_three_in_every_round(self) -> None:
        for rid in RULESET_IDS:
            expected = "always" if rid.startswith("pokemon") else "elimination"
            self.assertEqual(expected, ui(rid)["result"]["best_of_three"], rid)

    def test_each_game_names_its_penalties_in_its_documents_words(self) -> None:
        doomtown = ui("doomtown")["penalties"]
        self.assertEqual(
            [
                ["warning", "Warning"],
                ["written-warning", "Written Warning"],
                ["game-loss", "Game loss"],
                ["disqualification", "Roundup Disqualification"],
            ],
            doomtown["choices"],
        )
        self.assertIn("PBE investigates", doomtown["consequences"]["disqualification"])
        self.assertEqual("Doomtown Floor Rules 6.B", doomtown["source"])
        agot = ui("agot")["penalties"]
        self.assertEqual(["disqualification", "Removal from the tournament (unsporting conduct)"], agot["choices"][-1])
        for rid in ("pokemon-tcg", "pokemon-vg"):
            pokemon = ui(rid)["penalties"]
            self.assertEqual(GENERIC, pokemon["choices"], rid)
            self.assertIn("(TOP 3.2)", pokemon["consequences"]["disqualification"], rid)
        self.assertEqual(GENERIC, ui("custom")["penalties"]["choices"])

    def test_other_games_use_the_generic_penalty_form_and_no_timer_notes_or_dice(self) -> None:
        for rid in ("pokemon-tcg", "pokemon-vg", "doomtown", "agot", "custom"):
            d = ui(rid)
            pen = d["penalties"]
            self.assertEqual(
                {"system": "kinds", "floor": ["warning"], "infraction_field": False, "infractions": []},
                {k: pen[k] for k in ("system", "floor", "infraction_field", "infractions")},
                rid,
            )
            self.assertEqual(["game-loss", "disqualification"], sorted(pen["consequences"], reverse=True), rid)
            self.assertEqual([], d["timer"]["notes"], rid)
            self.assertEqual({"attack_dice": 0}, d["round_start"], rid)
            self.assertIsNone(d["result"]["stats"], rid)
            self.assertIsNone(d["result"]["scores"], rid)


if __name__ == "__main__":
    unittest.main()

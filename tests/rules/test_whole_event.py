"""The command line runs the whole event: Swiss, the cut, every elimination round, and the extra subcommands."""

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
from shared_rules.run import load_event, next_round
from shared_rules.seeded import Rng
from tests.rules.helpers import json_file
from tests.rules.test_pairing_swiss import new_doc, result_row

WINS = {
    "pokemon-tcg": ("win", "loss"),
    "doomtown": ("win", "loss"),
    "agot": ("win", "loss"),
    "shatterpoint": ("win", "loss"),
    "startrek-1e": ("full-win", "full-loss"),
    "custom": ("win", "loss"),
}


def _report(doc: dict[str, Any], paired: dict[str, Any], rng: Rng) -> None:
    """Append the paired round with random results (elimination: a winner)."""
    ruleset = doc["ruleset"]
    if paired["stage"] != "elimination":
        doc["rounds"].append(
            {
                "number": paired["round"],
                "stage": paired["stage"],
                "matches": [result_row(ruleset, m, rng) for m in paired["matches"]],
            }
        )
        return
    rows = []
    for m in paired["matches"]:
        row = dict(m)
        if len(m["players"]) == 2:
            win, loss = WINS[ruleset]
            first = rng.below(2) == 0
            row["outcomes"] = [win, loss] if first else [loss, win]
            if ruleset.startswith("startrek"):
                row["scores"] = [100, 30] if first else [30, 100]
        rows.append(row)
    extra = {k: v for k, v in paired.items() if k not in ("round", "stage", "matches", "warnings")}
    doc["rounds"].append({"number": paired["round"], "stage": "elimination", "matches": rows, **extra})


def _run_to_the_end(doc: dict[str, Any], seed: str, limit: int = 20) -> tuple[list[dict[str, Any]], str]:
    """Pair and report until the bracket is finished; returns the paired rounds and the last error."""
    rng = Rng(seed, "whole")
    rounds = []
    for _ in range(limit):
        try:
            paired = next_round(load_event(doc))
        except RulesError as exc:
            return rounds, str(exc)
        rounds.append(paired)
        _report(doc, paired, rng)
    raise AssertionError("the event never finished")


def _cli(*argv: str) -> tuple[int, Any, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, json.loads(out.getvalue()) if out.getvalue() else None, err.getvalue()


class WholeEventTest(unittest.TestCase):
    def test_pokemon_swiss_then_top_eight_to_a_champion(self) -> None:
        doc = new_doc("pokemon-tcg", 40, 6, seed="whole-pokemon")
        doc["settings"]["cut"] = 8
        rounds, end = _run_to_the_end(doc, "p")
        self.assertEqual([r["stage"] for r in rounds], ["swiss"] * 6 + ["elimination"] * 3)
        self.assertEqual([len(r["matches"]) for r in rounds[6:]], [4, 2, 1])
        self.assertEqual(rounds[6]["matches"][0]["seeds"], [1, 8])
        self.assertIn("the bracket is finished", end)

    def test_pokemon_playoff_for_third_place_beside_the_final(self) -> None:
        doc = new_doc("pokemon-tcg", 20, 5, seed="playoff")
        doc["settings"].update({"cut": 4, "playoff_3rd_4th": True})
        rounds, _ = _run_to_the_end(doc, "q")
        final = rounds[-1]["matches"]
        self.assertEqual(sorted(bool(m.get("playoff")) for m in final), [False, True])

    def test_pokemon_single_elimination_only_gives_eleven_byes_to_the_top_seeds(self) -> None:
        # Pokémon TOP 3.2: 53 players, the next power of two is 64, so the top 11 seeds get byes.
        doc = new_doc("pokemon-tcg", 53, 6, seed="se-53")
        doc["settings"] = {"structure": "single-elimination"}
        first = next_round(load_event(doc))
        byes = [m for m in first["matches"] if len(m["players"]) == 1]
        self.assertEqual(len(byes), 11)
        self.assertEqual(sorted(m["seeds"][0] for m in byes), list(range(1, 12)))
        self.assertTrue(all(m["outcomes"] == ["bye"] for m in byes))
        rounds, end = _run_to_the_end(doc, "se")
        self.assertEqual(len(rounds), 6)  # 64 places: six rounds
        self.assertIn("the bracket is finished", end)

    def test_agot_cut_uses_game_numbers_and_folds_them(self) -> None:
        doc = new_doc("agot", 16, 4, seed="agot-cut")
        doc["settings"]["cut"] = 8
        rounds, _ = _run_to_the_end(doc, "a")
        cut = rounds[4]
        self.assertEqual(cut["bracket"]["scheme"], "agot")
        self.assertEqual([len(r["matches"]) for r in rounds[4:]], [4, 2, 1])

    def test_agot_single_elimination_from_the_start(self) -> None:
        doc = new_doc("agot", 13, 4, seed="agot-se")
        doc["settings"] = {"structure": "single-elimination"}
        rounds, end = _run_to_the_end(doc, "s")
        self.assertEqual(sum(1 for m in rounds[0]["matches"] if len(m["players"]) == 1), 3)
        self.assertEqual(len(rounds), 4)
        self.assertIn("the bracket is finished", end)

    def test_star_trek_modified_mcintyre_reseeds_every_round(self) -> None:
        doc = new_doc("startrek-1e", 12, 4, seed="mcintyre")
        doc["settings"].update({"cut": 8, "bracket": "modified-mcintyre"})
        rounds, end = _run_to_the_end(doc, "m")
        self.assertEqual([r["bracket"]["scheme"] for r in rounds[4:]], ["mcintyre"] * 3)
        self.assertIn("the bracket is finished", end)

    def test_doomtown_final_is_best_of_three(self) -> None:
        doc = new_doc("doomtown", 16, 4, seed="doom")
        doc["settings"]["cut"] = 4
        rounds, _ = _run_to_the_end(doc, "d")
        self.assertEqual(len(rounds[-1]["matches"]), 1)
        self.assertEqual(len(rounds), 6)

    def test_heat_seeds_then_a_match_play_event(self) -> None:
        # Star Trek OP Guide 9: heat one takes seeds 1, 2, 5, 6; heat two 3, 4, 7, 8.
        heats = []
        for name in ("h1", "h2"):
            doc = new_doc("startrek-1e", 8, 3, seed=name)
            for p in doc["players"]:
                p["id"] = f"{name}-{p['id']}"
            rng = Rng(name, "heat")
            for _ in range(3):
                _report(doc, next_round(load_event(doc)), rng)
            heats.append(doc)
        with tempfile.TemporaryDirectory() as folder:
            paths = []
            for i, doc in enumerate(heats):
                paths.append(os.path.join(folder, f"heat{i + 1}.json"))
                with open(paths[-1], "w", encoding="utf-8") as fh:
                    json.dump(doc, fh)
            code, out, err = _cli("heats", *paths, "--cut", "8")
        self.assertEqual((code, err), (0, ""))
        seeds = out["seeds"]
        self.assertEqual([s.split("-")[0] for s in seeds], ["h1", "h1", "h2", "h2"] * 2)
        match_play = {
            "format": "topcut-event/1",
            "ruleset": "startrek-1e",
            "seed": "mp",
            "settings": {"seeds": seeds},
            "players": [{"id": pid, "name": pid, "entry": i} for i, pid in enumerate(seeds, 1)],
            "rounds": [],
        }
        first = next_round(load_event(match_play))
        self.assertEqual([m["seeds"] for m in first["matches"]], [[1, 8], [4, 5], [2, 7], [3, 6]])


class SubcommandTest(unittest.TestCase):
    def _file(self, doc: dict[str, Any]) -> str:
        return json_file(self, doc)

    def test_pair_after_the_swiss_without_a_cut_says_the_event_is_complete(self) -> None:
        doc = new_doc("shatterpoint", 8, 3, seed="nocut")
        doc["settings"]["cut"] = 0
        rounds, end = _run_to_the_end(doc, "n")
        self.assertEqual(len(rounds), 3)
        self.assertIn("the event is complete", end)
        code, out, err = _cli("pair", self._file(doc))
        self.assertEqual((code, out), (2, None))
        self.assertEqual(err.count("\n"), 1)

    def test_bracket_view_of_a_cut(self) -> None:
        doc = new_doc("pokemon-tcg", 20, 5, seed="view")
        doc["settings"]["cut"] = 4
        _run_to_the_end(doc, "v")
        code, out, _ = _cli("bracket", self._file(doc))
        self.assertEqual(code, 0)
        self.assertEqual(len(out["rounds"]), 2)
        code, _, err = _cli("bracket", self._file(new_doc("pokemon-tcg", 4, 3)))
        self.assertEqual(code, 2)
        self.assertIn("no elimination round yet", err)

    def test_game_end_names_the_winner_and_refuses_missing_numbers(self) -> None:
        code, out, _ = _cli("game-end", "agot", '{"power": [11, 13]}')
        self.assertEqual((code, out["winner"]), (0, 1))
        code, _, err = _cli("game-end", "agot", "{}")
        self.assertEqual(code, 2)
        self.assertIn("needs 'power'", err)
        code, _, err = _cli("game-end", "agot", "not json")
        self.assertEqual(code, 2)
        self.assertIn("not valid JSON", err)

    def test_flights_split_a_division(self) -> None:
        doc = new_doc("pokemon-tcg", 64, 6, seed="flights")
        doc["settings"].update({"flights": 2, "season": 2026})
        for p in doc["players"]:
            p["division"] = "masters"
        code, out, _ = _cli("flights", self._file(doc))
        self.assertEqual(code, 0)
        self.assertEqual(sorted(len(v) for v in out["flights"]["masters"].values()), [32, 32])

    def test_day_two_qualifiers_are_nineteen_points_or_the_top_32(self) -> None:
        doc = new_doc("pokemon-tcg", 40, 9, seed="day2")
        doc["settings"]["season"] = 2026
        for p in doc["players"]:
            p["division"] = "masters"
        rng = Rng("day2", "r")
        for _ in range(3):
            paired = next_round(load_event(doc))
            _report(doc, paired, rng)
        code, out, _ = _cli("day-two", self._file(doc))
        self.assertEqual(code, 0)
        self.assertEqual(len(out["day_two"]["masters"]), 32)


if __name__ == "__main__":
    unittest.main()

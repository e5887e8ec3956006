"""Swiss pairing across every ruleset: simulated events, the documents' worked examples, golden outputs."""

from __future__ import annotations

import copy
import json
import unittest
from pathlib import Path
from typing import Any

from shared_rules.errors import RulesError
from shared_rules.run import compute_standings, load_event, pair_next_round, pair_next_round_json, pairing_state
from shared_rules.seeded import Rng

GOLDEN = Path(__file__).resolve().parent.parent / "golden"

RESULTS: dict[str, list[tuple[str, str]]] = {
    "pokemon-tcg": [("win", "loss"), ("loss", "win"), ("tie", "tie")],
    "pokemon-vg": [("win", "loss"), ("loss", "win")],
    "doomtown": [("win", "loss"), ("win-at-time", "loss"), ("loss", "win")],
    "shatterpoint": [("win", "loss"), ("loss", "win")],
    "agot": [("win", "loss"), ("modified-win", "modified-loss"), ("draw", "draw"), ("loss", "win")],
    "startrek-1e": [
        ("full-win", "full-loss"),
        ("modified-win", "modified-loss"),
        ("true-tie", "true-tie"),
        ("full-loss", "full-win"),
    ],
    "startrek-2e": [("full-win", "full-loss"), ("modified-loss", "modified-win")],
    "custom": [("win", "loss"), ("loss", "win"), ("tie", "tie")],
}
_TREK_SCORES = {"full-win": 100, "modified-win": 60, "true-tie": 50, "modified-loss": 40, "full-loss": 30}


def new_doc(ruleset: str, players: int, rounds: int, seed: str = "seed-1", **settings: Any) -> dict[str, Any]:
    """A fresh event document with players p001..pNNN."""
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "seed": seed,
        "settings": {"rounds": rounds, **settings},
        "players": [{"id": f"p{i:03d}", "name": f"Player {i}", "entry": i} for i in range(1, players + 1)],
        "rounds": [],
    }


def result_row(ruleset: str, match: dict[str, Any], rng: Rng) -> dict[str, Any]:
    """A random reported result for a paired match (byes keep their outcome)."""
    if len(match["players"]) == 1:
        return {"players": match["players"], "outcomes": match["outcomes"]}
    outcomes = rng.choice(RESULTS[ruleset])
    row: dict[str, Any] = {"table": match["table"], "players": match["players"], "outcomes": list(outcomes)}
    if ruleset == "shatterpoint":
        row["stats"] = [{"struggle": 3 if o == "win" else 1, "wounds": 2} for o in outcomes]
    if ruleset.startswith("startrek"):
        row["scores"] = [_TREK_SCORES[o] for o in outcomes]
    return row


def play_round(doc: dict[str, Any], rng: Rng, drops: dict[int, list[str]] | None = None) -> dict[str, Any]:
    """Pair the next round of ``doc`` through the CLI's function, report random results, apply drops."""
    paired = pair_next_round_json(load_event(doc))
    doc["rounds"].append(
        {
            "number": paired["round"],
            "stage": paired["stage"],
            "matches": [result_row(doc["ruleset"], m, rng) for m in paired["matches"]],
        }
    )
    for pid in (drops or {}).get(paired["round"], []):
        for p in doc["players"]:
            if p["id"] == pid:
                p["dropped_after"] = paired["round"]
    return paired


def simulate(
    ruleset: str,
    players: int,
    rounds: int,
    seed: str = "seed-1",
    drops: dict[int, list[str]] | None = None,
    **settings: Any,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A whole simulated Swiss: pair, report random results, pair again."""
    doc = new_doc(ruleset, players, rounds, seed, **settings)
    rng = Rng(seed, "simulated-results")
    out = [play_round(doc, rng, drops) for _ in range(rounds)]
    return doc, out


class SimulatedEventsTest(unittest.TestCase):
    """Every ruleset: no rematch, one bye each at most, dropped never paired, everyone else paired once."""

    def check_event(self, ruleset: str, players: int, rounds: int, drops: dict[int, list[str]]) -> None:
        doc, paired = simulate(ruleset, players, rounds, drops=drops)
        met: set[frozenset[str]] = set()
        byes: dict[str, int] = {}
        dropped: set[str] = set()
        for number, rnd in enumerate(paired, start=1):
            self.assertEqual(rnd["round"], number)
            self.assertEqual(rnd["stage"], "swiss")
            seen = [pid for m in rnd["matches"] for pid in m["players"]]
            self.assertEqual(len(seen), len(set(seen)), "a player is paired twice")
            self.assertFalse(dropped & set(seen), "a dropped player was paired")
            self.assertEqual(set(seen), {p["id"] for p in doc["players"]} - dropped)
            solo = [m for m in rnd["matches"] if len(m["players"]) == 1]
            self.assertLessEqual(len(solo), 1)
            self.assertEqual(len(solo), len(seen) % 2)
            for m in rnd["matches"]:
                if len(m["players"]) == 2:
                    pair = frozenset(m["players"])
                    self.assertNotIn(pair, met, f"rematch in round {number}")
                    met.add(pair)
                    self.assertIn("table", m)
                else:
                    self.assertNotIn("table", m)
                    self.assertEqual(m["outcomes"], ["bye"])
                    byes[m["players"][0]] = byes.get(m["players"][0], 0) + 1
            dropped |= set(drops.get(number, []))
        self.assertTrue(all(n == 1 for n in byes.values()), byes)

    def test_every_ruleset_pairs_a_full_event_without_rematch_or_second_bye(self) -> None:
        for ruleset in RESULTS:
            with self.subTest(ruleset=ruleset):
                self.check_event(ruleset, 13, 5, {2: ["p004"], 3: ["p010", "p011"]})

    def test_larger_event_with_many_drops(self) -> None:
        for ruleset in ("pokemon-tcg", "agot", "startrek-2e"):
            with self.subTest(ruleset=ruleset):
                self.check_event(ruleset, 41, 7, {1: ["p001", "p002"], 4: ["p030"], 5: ["p031", "p032", "p033"]})

    def test_pairs_within_equal_points_and_pairs_down_one_player_per_odd_group(self) -> None:
        doc, _ = simulate("pokemon-tcg", 32, 3)
        doc["settings"]["rounds"] = 5
        event = load_event(doc)
        state = pairing_state(event, 4)
        paired = pair_next_round(event)
        groups: dict[float, int] = {}
        for pid in state.present:
            groups[state.points[pid]] = groups.get(state.points[pid], 0) + 1
        odd = sum(1 for n in groups.values() if n % 2)
        cross = [
            m
            for m in paired.matches
            if len(m.players) == 2 and state.points[m.players[0]] != state.points[m.players[1]]
        ]
        # Each odd bracket sends exactly one player down (Pokémon TOP 3.1); never further than needed.
        self.assertLessEqual(len(cross), odd)


class DocumentExamplesTest(unittest.TestCase):
    """The worked examples of the documents' pairing sections."""

    def test_agot_pairing_example_john_stella_laramy_kyle(self) -> None:
        # AGoT Tournament Regulations, Swiss Rounds, "Pairing example".
        for seed in ("a", "b", "c", "d", "e"):
            doc = _agot_example(seed)
            paired = pair_next_round(load_event(doc))
            top = {"J", "S", "L"}
            with_k = [m.players for m in paired.matches if "K" in m.players][0]
            other = next(p for p in with_k if p != "K")
            self.assertIn(other, top)
            rest = top - {other}
            self.assertIn(tuple(sorted(rest)), [tuple(sorted(m.players)) for m in paired.matches])

    def test_pokemon_round_two_pairs_one_winner_down_and_gives_the_bye_in_the_lowest_bracket(self) -> None:
        # Pokémon TOP 3.1, Round 2.
        for seed in ("1", "2", "3", "4", "5", "6"):
            doc = new_doc("pokemon-tcg", 5, 3, seed)
            play_round(doc, Rng(seed, "r"))
            event = load_event(doc)
            state = pairing_state(event, 2)
            paired = pair_next_round(event)
            bye = [m.players[0] for m in paired.matches if len(m.players) == 1]
            self.assertEqual(len(bye), 1)
            self.assertEqual(state.points[bye[0]], min(state.points.values()))
            self.assertFalse(state.had_bye.get(bye[0]))

    def test_shatterpoint_round_one_bye_is_random_and_later_to_lowest_ranked_without_bye(self) -> None:
        # Shatterpoint Showdown, Swiss Pairing.
        doc, _ = simulate("shatterpoint", 9, 2)
        doc["settings"]["rounds"] = 4
        event = load_event(doc)
        ranking = [s.player for s in compute_standings(event)]
        state = pairing_state(event, 3)
        paired = pair_next_round(event)
        bye = [m.players[0] for m in paired.matches if len(m.players) == 1][0]
        eligible = [pid for pid in ranking if not state.had_bye.get(pid)]
        self.assertEqual(bye, eligible[-1])

    def test_star_trek_pending_delayed_result_counts_two_victory_points(self) -> None:
        # Star Trek OP Guide 13.4.
        doc = new_doc("startrek-1e", 6, 4)
        play_round(doc, Rng("x", "r"))
        match = next(m for m in doc["rounds"][0]["matches"] if len(m["players"]) == 2)
        del match["outcomes"], match["scores"]
        match["delayed"] = True
        event = load_event(doc)
        state = pairing_state(event, 2)
        for pid in match["players"]:
            self.assertEqual(state.points[pid], 2)
        paired = pair_next_round(event)
        self.assertEqual(paired.number, 2)

    def test_star_trek_only_rematches_left_gives_both_players_byes(self) -> None:
        # Star Trek OP Guide 7.5.1 / 7.6: four players who have all met each other.
        doc = new_doc("startrek-2e", 4, 4)
        rng = Rng("t", "r")
        for _ in range(3):
            play_round(doc, rng)
        paired = pair_next_round(load_event(doc))
        self.assertEqual(sorted(len(m.players) for m in paired.matches), [1, 1, 1, 1])
        self.assertTrue(all(m.outcomes == ("bye",) for m in paired.matches))
        self.assertTrue(paired.warnings)

    def test_star_trek_earned_byes_first_then_paired_against_players_who_played(self) -> None:
        # Star Trek OP Guide 7.2, 7.5.1, 7.6.
        doc = new_doc("startrek-1e", 9, 4)
        doc["players"][0]["earned_byes"] = 2
        doc["players"][1]["earned_byes"] = 2
        rng = Rng("e", "r")
        first = play_round(doc, rng)
        earned = [m["players"][0] for m in first["matches"] if m.get("outcomes") == ["earned-bye"]]
        self.assertEqual(sorted(earned), ["p001", "p002"])
        self.assertEqual(sum(1 for m in first["matches"] if m.get("outcomes") == ["bye"]), 1)
        second = play_round(doc, rng)
        self.assertEqual(
            sorted(m["players"][0] for m in second["matches"] if m.get("outcomes") == ["earned-bye"]), ["p001", "p002"]
        )
        third = pair_next_round(load_event(doc))
        pair = [m.players for m in third.matches if "p001" in m.players][0]
        self.assertNotIn("p002", pair)
        self.assertEqual(len(pair), 2)

    def test_star_trek_round_one_odd_gives_the_last_scorecard_a_bye(self) -> None:
        first = pair_next_round(load_event(new_doc("startrek-1e", 7, 3)))
        self.assertEqual([len(m.players) for m in first.matches], [2, 2, 2, 1])
        self.assertEqual(first.matches[-1].outcomes, ("bye",))


def _agot_example(seed: str) -> dict[str, Any]:
    doc = new_doc("agot", 0, 5, seed)
    names = ["J", "S", "L", "K"] + [f"f{i:02d}" for i in range(1, 13)]
    doc["players"] = [{"id": n, "name": n, "entry": i} for i, n in enumerate(names, start=1)]
    win, draw = ["win", "loss"], ["draw", "draw"]
    rounds = [
        [
            ("J", "f01", win),
            ("S", "f02", win),
            ("L", "f03", win),
            ("K", "f04", win),
            ("f05", "f06", draw),
            ("f07", "f08", draw),
            ("f09", "f10", draw),
            ("f11", "f12", draw),
        ],
        [
            ("J", "f05", win),
            ("S", "f06", win),
            ("L", "f07", win),
            ("K", "f08", win),
            ("f01", "f02", draw),
            ("f03", "f04", draw),
            ("f09", "f11", draw),
            ("f10", "f12", draw),
        ],
        [
            ("J", "f09", win),
            ("S", "f10", win),
            ("L", "f11", win),
            ("f12", "K", win),
            ("f01", "f03", draw),
            ("f02", "f04", draw),
            ("f05", "f07", draw),
            ("f06", "f08", draw),
        ],
    ]
    for number, matches in enumerate(rounds, start=1):
        doc["rounds"].append(
            {
                "number": number,
                "stage": "swiss",
                "matches": [
                    {"table": t, "players": [a, b], "outcomes": o} for t, (a, b, o) in enumerate(matches, start=1)
                ],
            }
        )
    return doc


class RefusalsAndStagesTest(unittest.TestCase):
    """Pairing waits for results, stops after the planned rounds, and knows its stage."""

    def test_missing_result_refuses_with_round_and_table(self) -> None:
        doc = new_doc("pokemon-tcg", 8, 3)
        play_round(doc, Rng("m", "r"))
        del doc["rounds"][0]["matches"][3]["outcomes"]
        table = doc["rounds"][0]["matches"][3]["table"]
        with self.assertRaises(RulesError) as caught:
            pair_next_round(load_event(doc))
        self.assertEqual(str(caught.exception), f"round 2 cannot be paired: round 1 table {table} has no result")

    def test_disputed_result_refuses(self) -> None:
        doc = new_doc("agot", 8, 3)
        play_round(doc, Rng("m", "r"))
        doc["rounds"][0]["matches"][0]["disputed"] = True
        with self.assertRaisesRegex(RulesError, "disputed"):
            pair_next_round(load_event(doc))

    def test_pending_star_trek_result_without_delay_still_refuses(self) -> None:
        doc = new_doc("startrek-1e", 8, 3)
        play_round(doc, Rng("m", "r"))
        match = doc["rounds"][0]["matches"][0]
        del match["outcomes"], match["scores"]
        with self.assertRaisesRegex(RulesError, "has no result"):
            pair_next_round(load_event(doc))

    def test_swiss_over_after_planned_rounds(self) -> None:
        doc, _ = simulate("doomtown", 6, 3)
        with self.assertRaisesRegex(RulesError, "all 3 Swiss rounds are paired"):
            pair_next_round(load_event(doc))

    def test_rounds_default_to_the_structure_table(self) -> None:
        doc = new_doc("shatterpoint", 4, 1)
        del doc["settings"]["rounds"]
        rng = Rng("d", "r")
        for _ in range(3):  # Shatterpoint Showdown, Progression Cut: 4 players, 3 rounds
            play_round(doc, rng)
        with self.assertRaisesRegex(RulesError, "all 3 Swiss rounds"):
            pair_next_round(load_event(doc))

    def test_pokemon_two_day_event_pairs_day_two_with_qualifiers_only(self) -> None:
        doc = new_doc("pokemon-tcg", 40, 5, day_one_rounds=3)
        rng = Rng("two", "r")
        for _ in range(3):
            play_round(doc, rng)
        event = load_event(doc)
        paired = pair_next_round(event)
        self.assertEqual(paired.stage, "swiss-day2")
        state = pairing_state(event, 4)
        seated = {pid for m in paired.matches for pid in m.players}
        self.assertEqual(len(seated), 32)  # nobody can reach 19 points in three rounds: the top 32
        self.assertTrue(all(state.points[pid] >= 0 for pid in seated))
        play_round(doc, rng)
        again = pair_next_round(load_event(doc))
        self.assertEqual({pid for m in again.matches for pid in m.players}, seated)

    def test_late_player_joins_and_dropped_player_is_not_paired(self) -> None:
        doc = new_doc("pokemon-tcg", 8, 4)
        rng = Rng("late", "r")
        play_round(doc, rng)
        doc["players"].append({"id": "late1", "name": "Late", "entry": 99, "late": True})
        doc["rounds"][0]["matches"].append({"players": ["late1"], "outcomes": ["late"]})
        doc["players"][0]["dropped_after"] = 1
        paired = pair_next_round(load_event(doc))
        seated = {pid for m in paired.matches for pid in m.players}
        self.assertIn("late1", seated)
        self.assertNotIn("p001", seated)

    def test_elimination_round_ends_swiss_pairing(self) -> None:
        doc, _ = simulate("agot", 8, 3)
        doc["rounds"].append({"number": 4, "stage": "elimination", "matches": []})
        with self.assertRaisesRegex(RulesError, "elimination"):
            pair_next_round(load_event(doc))


class DeterminismTest(unittest.TestCase):
    """Same document, same pairing; another seed, another round 1."""

    def test_same_document_same_json(self) -> None:
        doc, _ = simulate("agot", 21, 3)
        doc["settings"]["rounds"] = 5
        first = json.dumps(pair_next_round_json(load_event(copy.deepcopy(doc))), sort_keys=True)
        second = json.dumps(pair_next_round_json(load_event(copy.deepcopy(doc))), sort_keys=True)
        self.assertEqual(first, second)

    def test_different_seed_changes_round_one(self) -> None:
        a = pair_next_round_json(load_event(new_doc("pokemon-tcg", 16, 4, "alpha")))
        b = pair_next_round_json(load_event(new_doc("pokemon-tcg", 16, 4, "beta")))
        self.assertNotEqual(a["matches"], b["matches"])

    def test_player_order_in_document_does_not_change_the_pairing(self) -> None:
        doc, _ = simulate("shatterpoint", 12, 2)
        doc["settings"]["rounds"] = 4
        flipped = copy.deepcopy(doc)
        flipped["players"].reverse()
        for rnd in flipped["rounds"]:
            rnd["matches"].reverse()
        self.assertEqual(pair_next_round_json(load_event(doc)), pair_next_round_json(load_event(flipped)))


class GoldenPairTest(unittest.TestCase):
    """``tests/golden/pair-*.json``: the CLI's function must print exactly the ``.expected.json``."""

    def test_golden_pair_outputs(self) -> None:
        found = sorted(p for p in GOLDEN.glob("pair-*.json") if not p.name.endswith(".expected.json"))
        self.assertTrue(found)
        for path in found:
            with self.subTest(golden=path.name):
                expected = json.loads(path.with_name(path.name[:-5] + ".expected.json").read_text("utf-8"))
                doc = json.loads(path.read_text("utf-8"))
                self.assertEqual(pair_next_round_json(load_event(doc)), expected)


if __name__ == "__main__":
    unittest.main()

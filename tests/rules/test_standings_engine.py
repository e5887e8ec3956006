"""The standings engine's exact-integer helpers and ranking properties on seeded random events.

The fast paths (integer numerators over one common denominator instead of
fractions, cached per-context tables) are checked against straightforward
fraction computations; the properties (ranks 1..N, re-ranking is identical,
the order players and matches are listed in does not matter) are checked for
every ruleset. unittest only: the same file runs under pytest and in Pyodide.
"""

from __future__ import annotations

import json
import unittest
from fractions import Fraction
from typing import Any

import shared_rules.games.agot.standings  # noqa: F401  (registers agot-esos, read below even when run alone)
from shared_rules.games import get_ruleset
from shared_rules.games.doomtown.standings import match_win_percentage
from shared_rules.games.pokemon.standings import floor_log10, round_significant, round_significant_int
from shared_rules.games.startrek.scoring import differential
from shared_rules.games.startrek.standings import _final_vp
from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import Rng
from shared_rules.standings import StandingsContext
from shared_rules.standings.common import (
    NOT_PLAYED_OUTCOMES,
    ExactValues,
    lcm_of,
    scaled_mean_of_opponents,
    scaled_points,
    scaled_points_per_round,
)

RULESETS = ("pokemon-tcg", "doomtown", "shatterpoint", "agot", "startrek-1e", "custom")

_RESULTS: dict[str, tuple[tuple[str, str], ...]] = {
    "pokemon-tcg": (("win", "loss"), ("loss", "win"), ("tie", "tie")),
    "doomtown": (("win", "loss"), ("loss", "win"), ("win-at-time", "loss")),
    "agot": (("win", "loss"), ("loss", "win"), ("modified-win", "modified-loss"), ("draw", "draw")),
    "startrek-1e": (
        ("full-win", "full-loss"),
        ("full-loss", "full-win"),
        ("modified-win", "modified-loss"),
        ("true-tie", "true-tie"),
    ),
    "shatterpoint": (("win", "loss"), ("loss", "win"), ("draw", "draw")),
    "custom": (("win", "loss"), ("loss", "win"), ("tie", "tie")),
}
_MISSED = {"pokemon-tcg": "late", "shatterpoint": "unpaired-loss", "startrek-1e": "missed-game", "custom": "late"}
_CUSTOM = {
    "points": {"win": 3, "tie": 1.5, "loss": 0.25, "bye": 3, "late": 0},
    "tiebreakers": ["mwp", "omwp", "sos-mean", "agot-esos", "owp", "oowp", "entry"],
}


def random_event(ruleset: str, players: int, rounds: int, seed: str) -> dict[str, Any]:
    """A seeded Swiss event: adjacent pairs by points, random results, some drops and late players."""
    rng = Rng(seed, "standings-engine-test")
    ids = [f"q{i:03d}" for i in range(1, players + 1)]
    points = {pid: 0 for pid in ids}
    dropped = {pid: 1 + rng.below(rounds) for pid in ids if rng.below(8) == 0}
    late = {pid for pid in ids if pid not in dropped and rng.below(10) == 0}
    earned = {pid for pid in ids if pid not in dropped and pid not in late and rng.below(12) == 0}
    results = _RESULTS[ruleset]
    doc_rounds = []
    for number in range(1, rounds + 1):
        matches: list[dict[str, Any]] = []
        active = []
        for pid in ids:
            if pid in dropped and number > dropped[pid]:
                continue
            if pid in late and number == 1:
                if ruleset in _MISSED:
                    matches.append({"players": [pid], "outcomes": [_MISSED[ruleset]]})
                continue
            if pid in earned and number == 1 and ruleset in ("pokemon-tcg", "startrek-1e"):
                outcome = "earned-bye" if ruleset == "startrek-1e" else "bye"
                match = {"players": [pid], "outcomes": [outcome]}
                if ruleset == "pokemon-tcg":
                    match["earned"] = True
                matches.append(match)
                continue
            active.append(pid)
        order = sorted(rng.shuffled(active), key=lambda pid: -points[pid])
        if len(order) % 2:
            lone = order.pop()
            matches.append({"players": [lone], "outcomes": ["bye"]})
            points[lone] += 3
        for i in range(0, len(order), 2):
            a, b = order[i], order[i + 1]
            outcome = list(rng.choice(results))
            match = {"table": i // 2 + 1, "players": [a, b], "outcomes": outcome}
            if ruleset == "shatterpoint":
                first = {"struggle": rng.below(4), "wounds": rng.below(12)}
                second = dict(first) if outcome[0] == "draw" else {"struggle": rng.below(4), "wounds": rng.below(12)}
                match["stats"] = [first, second]
            if ruleset == "startrek-1e" and outcome[0] != "true-tie":
                match["scores"] = [rng.below(130) - 5, rng.below(130) - 5]
            if rng.below(40) == 0:
                match["disputed"] = True
            matches.append(match)
            for pid, o in zip((a, b), outcome):
                points[pid] += 3 if "win" in o else 1 if o in ("tie", "draw", "true-tie") else 0
        doc_rounds.append({"number": number, "stage": "swiss", "matches": matches})
    doc_players = []
    for entry, pid in enumerate(ids, start=1):
        row: dict[str, Any] = {"id": pid, "name": pid, "entry": entry}
        if pid in dropped:
            row["dropped_after"] = dropped[pid]
        if pid in late:
            row["late"] = True
        if pid in earned and ruleset == "startrek-1e":
            row["earned_byes"] = 1
        doc_players.append(row)
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "seed": seed,
        "settings": dict(_CUSTOM) if ruleset == "custom" else {"rounds": rounds},
        "players": doc_players,
        "rounds": doc_rounds,
    }


def shuffled_doc(doc: dict[str, Any], seed: str) -> dict[str, Any]:
    """The same event with its players and each round's matches listed in another order."""
    rng = Rng(seed, "shuffle")
    out = json.loads(json.dumps(doc))
    out["players"] = rng.shuffled(out["players"])
    for rnd in out["rounds"]:
        rnd["matches"] = rng.shuffled(rnd["matches"])
    return out


def reference_round_significant(value: Fraction, figures: int = 4) -> Fraction:
    """The fraction-only definition (percentage, 4 significant figures, half to even)."""
    if value <= 0:
        return Fraction(0)
    percent = value * 100
    exponent = 0
    while Fraction(10) ** (exponent + 1) <= percent:
        exponent += 1
    while Fraction(10) ** exponent > percent:
        exponent -= 1
    quantum = Fraction(10) ** (exponent - figures + 1)
    return round(percent / quantum) * quantum / 100


def context(doc: dict[str, Any]) -> StandingsContext:
    event = load_event(doc)
    return StandingsContext(event, get_ruleset(event.ruleset, event.settings))


class IntegerHelpersTest(unittest.TestCase):
    def test_floor_log10_matches_the_definition(self) -> None:
        rng = Rng("log10", "test")
        for _ in range(400):
            num, den = 1 + rng.below(10 ** (1 + rng.below(12))), 1 + rng.below(10 ** (1 + rng.below(12)))
            e = floor_log10(num, den)
            value = Fraction(num, den)
            self.assertLessEqual(Fraction(10) ** e, value)
            self.assertGreater(Fraction(10) ** (e + 1), value)
        self.assertEqual([floor_log10(10**k, 1) for k in range(6)], list(range(6)))
        self.assertEqual([floor_log10(1, 10**k) for k in range(6)], [-k for k in range(6)])

    def test_round_significant_int_matches_the_fraction_definition(self) -> None:
        rng = Rng("round", "test")
        cases = [Fraction(n, 100000) for n in (58325, 58335, 58345, 99995, 100000, 25000, 1, 5)]
        cases += [Fraction(1 + rng.below(10**6), 1 + rng.below(10**6)) for _ in range(500)]
        cases += [Fraction(n, 8 * 10**6) for n in range(1, 200, 7)]  # many exact halves
        for value in cases:
            k, s = round_significant_int(value.numerator, value.denominator)
            self.assertGreaterEqual(s, 0)
            self.assertEqual(Fraction(k, 10**s), reference_round_significant(value), value)
            self.assertEqual(round_significant(value), reference_round_significant(value), value)
            self.assertEqual(k / 10**s, float(reference_round_significant(value)))
        for figures in (1, 2, 3, 6):
            for value in cases[:60]:
                k, s = round_significant_int(value.numerator, value.denominator, figures)
                self.assertEqual(Fraction(k, 10**s), reference_round_significant(value, figures))

    def test_round_significant_int_of_zero_or_less(self) -> None:
        self.assertEqual(round_significant_int(0, 7), (0, 0))
        self.assertEqual(round_significant_int(-3, 7), (0, 0))

    def test_half_to_even_in_integers(self) -> None:
        self.assertEqual(round_significant_int(58325, 100000), (5832, 4))  # 58.325 % -> 58.32 %
        self.assertEqual(round_significant_int(58335, 100000), (5834, 4))  # 58.335 % -> 58.34 %
        self.assertEqual(round_significant_int(21, 32), (6562, 4))  # 65.625 % -> 65.62 %
        self.assertEqual(round_significant_int(19, 32), (5938, 4))  # 59.375 % -> 59.38 %

    def test_lcm_of(self) -> None:
        self.assertEqual(lcm_of([]), 1)
        self.assertEqual(lcm_of([0, 0]), 1)
        self.assertEqual(lcm_of(range(1, 13)), 27720)
        self.assertEqual(lcm_of([4, 6, 4]), 12)

    def test_scaled_points_are_exact(self) -> None:
        points = {"a": 3, "b": 1.5, "c": 0.1, "d": 0, "e": 0.25 + 0.1}
        nums, den = scaled_points(points)
        for pid, value in points.items():
            self.assertEqual(Fraction(nums[pid], den), Fraction(value))
        self.assertEqual(scaled_points({"a": 3, "b": 0}), ({"a": 3, "b": 0}, 1))

    def test_scaled_exact_values(self) -> None:
        values = ExactValues.scaled({"a": 1, "b": 2, "c": 6, "d": 0}, 6)
        self.assertEqual(values.exact, {"a": Fraction(1, 6), "b": Fraction(1, 3), "c": Fraction(1), "d": Fraction(0)})
        for pid in values:
            self.assertEqual(values[pid], float(values.exact[pid]))
        self.assertEqual(len(values), 4)
        self.assertLess(values.key("a"), values.key("b"))
        plain = ExactValues({"a": Fraction(1, 6)})
        self.assertEqual(plain.key("a"), Fraction(1, 6))
        self.assertEqual(plain["a"], float(Fraction(1, 6)))

    def test_huge_numerators_print_as_the_nearest_float(self) -> None:
        num, den = 10**40 + 1, 3 * 10**40
        self.assertEqual(ExactValues.scaled({"a": num}, den)["a"], float(Fraction(num, den)))


class ContextTablesTest(unittest.TestCase):
    """The per-context tables and integer metrics against direct fraction computations."""

    def test_the_counts_of_the_one_pass_agree_with_the_history_on_every_golden_event(self) -> None:
        import os

        from tests.rules.helpers import GOLDEN

        names = sorted(n for n in os.listdir(GOLDEN) if n.endswith(".json") and ".standings." not in n)
        names = [n for n in names if os.path.exists(os.path.join(GOLDEN, n[:-5] + ".standings.json"))]
        self.assertIn("tribbles-pod.json", names)  # tables of more than two
        for name in names:
            with open(os.path.join(GOLDEN, name), encoding="utf-8") as fh:
                ctx = context(json.load(fh))
            for pid, games in ctx.history.items():
                results = [ctx.ruleset.outcome(g.outcome).result for g in games]
                wins, losses = results.count("win"), results.count("loss")
                with self.subTest(event=name, player=pid):
                    self.assertEqual(ctx.record(pid), (wins, losses, len(results) - wins - losses))
                    self.assertEqual(ctx.faced()[pid], [q for g in games for q in g.opponents])
                    self.assertEqual(pid in ctx.solo, any(not g.opponents for g in games))

    def test_every_ruleset_against_fractions(self) -> None:
        for ruleset in RULESETS:
            with self.subTest(ruleset=ruleset):
                ctx = context(random_event(ruleset, 31, 5, f"ctx-{ruleset}"))
                for pid, games in ctx.history.items():
                    self.assertEqual(ctx.points[pid], sum(g.points for g in games))
                    self.assertEqual(
                        ctx.opponents_in_context(pid), [q for g in games for q in g.opponents if q in ctx.history]
                    )
                    self.assertEqual(ctx.faced()[pid], [q for g in games for q in g.opponents])
                    self.assertEqual(pid in ctx.solo, any(not g.opponents for g in games))
                    self.assertEqual(
                        ctx.rounds_counted(NOT_PLAYED_OUTCOMES)[pid],
                        sum(1 for g in games if g.outcome not in NOT_PLAYED_OUTCOMES),
                    )
                    results = [ctx.ruleset.outcome(g.outcome).result for g in games]
                    self.assertEqual(
                        ctx.record(pid),
                        (
                            results.count("win"),
                            results.count("loss"),
                            len(results) - results.count("win") - results.count("loss"),
                        ),
                    )
                played = ctx.rounds_counted(NOT_PLAYED_OUTCOMES)
                ratio = {
                    pid: Fraction(ctx.points[pid]) / played[pid] if played[pid] else Fraction(0) for pid in ctx.history
                }
                nums, den = scaled_points_per_round(ctx)
                self.assertEqual({pid: Fraction(n, den) for pid, n in nums.items()}, ratio)

                def mean_of(values: dict[str, Fraction], pid: str, none: Fraction) -> Fraction:
                    faced = ctx.opponents_in_context(pid)
                    return sum((values[q] for q in faced), Fraction(0)) / len(faced) if faced else none

                sos = {pid: mean_of(ratio, pid, Fraction(0)) for pid in ctx.history}
                self.assertEqual(ctx.metric("sos-mean").exact, sos)  # type: ignore[attr-defined]
                esos = {pid: mean_of(sos, pid, Fraction(0)) for pid in ctx.history}
                self.assertEqual(ctx.metric("agot-esos").exact, esos)  # type: ignore[attr-defined]
                top = ctx.ruleset.max_points
                mwp = {pid: match_win_percentage(ctx.points[pid], played[pid], top) for pid in ctx.history}
                self.assertEqual(ctx.metric("mwp").exact, mwp)  # type: ignore[attr-defined]
                omwp = {pid: mean_of(mwp, pid, Fraction(33, 100)) for pid in ctx.history}
                self.assertEqual(ctx.metric("omwp").exact, omwp)  # type: ignore[attr-defined]
                for key, exact in (("sos-mean", sos), ("agot-esos", esos), ("mwp", mwp), ("omwp", omwp)):
                    shown = ctx.metric(key)
                    self.assertEqual({pid: shown[pid] for pid in shown}, {pid: float(v) for pid, v in exact.items()})

    def test_star_trek_differential_equals_the_per_game_function(self) -> None:
        for seed in ("diff-1", "diff-2"):
            doc = random_event("startrek-1e", 33, 5, seed)
            for n, rnd in enumerate(doc["rounds"]):
                for m, match in enumerate(rnd["matches"]):
                    if len(match["players"]) == 2 and match.get("scores") and (n + m) % 5 == 0:
                        match["ending"] = "concession"  # not the inlined path: 1E concession
                        if match["outcomes"][0] not in ("full-win", "full-loss"):
                            del match["ending"]
            ctx = context(doc)
            values = ctx.metric("startrek-differential")
            for pid, games in ctx.history.items():
                total: float = 0
                for g in games:
                    other = g.match.outcomes[1 - g.seat] if g.opponents and g.match.outcomes else None
                    total += differential(
                        g.outcome,
                        g.score,
                        g.opponent_scores[0] if g.opponent_scores else None,
                        opponent_outcome=other,
                        ending=g.match.ending,
                        edition="1e",
                        cap=100,
                    )
                self.assertEqual(values[pid], total, pid)
                self.assertIs(type(values[pid]), type(total))

    def test_star_trek_final_vp_from_the_context_equals_the_walk_over_the_event(self) -> None:
        for ruleset in ("startrek-1e", "custom"):  # random_event gives custom its _CUSTOM points
            doc = random_event(ruleset, 27, 4, f"vp-{ruleset}")
            event = load_event(doc)
            rules = get_ruleset(event.ruleset, event.settings)
            full = StandingsContext(event, rules)
            part = StandingsContext(event, rules, include=lambda p: p.entry != 1)  # the walk over the event
            walked = _final_vp(part)
            self.assertEqual(_final_vp(full), walked)
            self.assertEqual(
                {pid: type(v) for pid, v in _final_vp(full).items()}, {pid: type(v) for pid, v in walked.items()}
            )

    def test_mean_with_a_floor_that_is_no_whole_numerator(self) -> None:
        ctx = context(random_event("doomtown", 9, 3, "floor"))
        nums = {pid: 1 for pid in ctx.history}
        out, den = scaled_mean_of_opponents(ctx, nums, 7, 3)
        for pid in ctx.history:
            expected = Fraction(1, 7) if ctx.opponents_in_context(pid) else Fraction(3, 7)
            self.assertEqual(Fraction(out[pid], den), expected)


class RankingPropertiesTest(unittest.TestCase):
    """Ranks are 1..N, ranking is repeatable and does not depend on the order of the document."""

    def test_properties_for_every_ruleset(self) -> None:
        for ruleset in RULESETS:
            for players, rounds in ((24, 4), (41, 6)):
                seed = f"{ruleset}-{players}-{rounds}"
                with self.subTest(ruleset=ruleset, players=players):
                    doc = random_event(ruleset, players, rounds, seed)
                    event = load_event(doc)
                    rows = compute_standings(event)
                    by_division: dict[str, list[int]] = {}
                    for row in rows:
                        by_division.setdefault(str(row.extra.get("division", "")), []).append(row.rank)
                    for ranks in by_division.values():
                        self.assertEqual(ranks, list(range(1, len(ranks) + 1)))
                    self.assertEqual(sorted(row.player for row in rows), sorted(p["id"] for p in doc["players"]))
                    first = json.dumps(standings_json(event))
                    self.assertEqual(json.dumps(standings_json(event)), first)
                    self.assertEqual(json.dumps(standings_json(load_event(doc))), first)
                    for n in range(2):
                        again = shuffled_doc(doc, f"{seed}-{n}")
                        self.assertEqual(json.dumps(standings_json(load_event(again))), first)


if __name__ == "__main__":
    unittest.main()


class RegistryVisitsTest(unittest.TestCase):
    def test_standings_of_an_event_with_a_cut_look_the_game_up_once(self) -> None:
        import os
        from unittest import mock

        import shared_rules.games as registry
        from tests.rules.helpers import GOLDEN

        with open(os.path.join(GOLDEN, "bracket-doomtown-top8.json"), encoding="utf-8") as f:
            event = load_event(json.load(f)["event"])
        with (
            mock.patch.object(registry, "game_of", wraps=registry.game_of) as game_of,
            mock.patch.object(registry, "ruleset_of", wraps=registry.ruleset_of) as ruleset_of,
        ):
            lines = compute_standings(event)
        self.assertEqual(8, sum(1 for line in lines if line.rank <= 8))
        self.assertEqual(1, ruleset_of.call_count)  # the ruleset
        self.assertEqual(1, game_of.call_count)  # the bracket rules, not once per elimination match

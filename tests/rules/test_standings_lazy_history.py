"""The standings context's columns and its lazily built games agree with the match-by-match walk.

The context fills per-player columns in one pass and builds the per-seat ``Game`` history only when a
metric reads it; :func:`reference_history` walks the matches game by game. Both must give the same
games, records, opponents, points and tables of one on every golden event of every ruleset and on
generated ones (drops, late players, byes, earned byes, pods, unreported and disputed tables), over any
stages, any last round and with players left out. Only Star Trek's standings read the whole history.
"""

from __future__ import annotations

import json
import os
import unittest
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any
from unittest import mock

from shared_rules.event.model import Event, Match, Player
from shared_rules.games import get_ruleset
from shared_rules.run import load_event, standings_json
from shared_rules.standings import StandingsContext
from shared_rules.standings.common import NOT_PLAYED_OUTCOMES
from shared_rules.standings.context import reference_history
from tests.rules.helpers import GOLDEN, shuffled_document
from tests.rules.test_standings_engine import RULESETS
from tests.rules.test_standings_engine import random_event as engine_event


def golden_events() -> list[tuple[str, dict[str, Any]]]:
    """Every event document among the golden files (not the expected outputs)."""
    out = []
    for name in sorted(os.listdir(GOLDEN)):
        if not name.endswith(".json") or name.endswith((".standings.json", ".expected.json")):
            continue
        with open(os.path.join(GOLDEN, name), encoding="utf-8") as fh:
            doc = json.load(fh)
        out.append((name, doc if "ruleset" in doc else doc["event"]))  # a bracket or pairing case wraps one
    return out


def _pending(doc: dict[str, Any]) -> dict[str, Any]:
    """The same event with some tables left unreported and some disputed."""
    out = json.loads(json.dumps(doc))
    for r, rnd in enumerate(out["rounds"]):
        for t, match in enumerate(rnd["matches"]):
            if len(match["players"]) == 2 and (r + t) % 5 == 0:
                if (r + t) % 2:
                    match["outcomes"] = None
                else:
                    match["disputed"] = True
    return out


def generated_events() -> list[tuple[str, dict[str, Any]]]:
    """Seeded events of every ruleset: drops, late players, earned and random byes; reordered; pending."""
    out = []
    for ruleset in RULESETS:
        for i in range(3):
            doc = engine_event(ruleset, 17 + 4 * i, 3 + i, f"lazy-{ruleset}-{i}")
            out.append((f"{ruleset}-{i}", doc))
            out.append((f"{ruleset}-{i}-shuffled", shuffled_document(doc, f"lazy-{i}")))
            out.append((f"{ruleset}-{i}-pending", _pending(doc)))
    return out


def contexts(event: Event) -> Iterator[tuple[str, Callable[[], StandingsContext]]]:
    """Fresh contexts over the event: Swiss, every stage, up to each round, without some players."""
    ruleset = get_ruleset(event.ruleset, event.settings)
    stages = {rnd.stage for rnd in event.rounds} or {"swiss"}
    yield "swiss", lambda: StandingsContext(event, ruleset)
    yield "every stage", lambda: StandingsContext(event, ruleset, stages=stages)
    for number in sorted({rnd.number for rnd in event.rounds})[:3]:
        yield f"through {number}", lambda n=number: StandingsContext(event, ruleset, stages=stages, through_round=n)  # type: ignore[misc]

    def some(player: Player) -> bool:
        return player.entry % 3 != 1

    yield "some players", lambda: StandingsContext(event, ruleset, stages=stages, include=some)


class LazyHistoryTest(unittest.TestCase):
    """The columns and the games built from them against the walk over every match."""

    def check(self, name: str, doc: dict[str, Any]) -> None:
        event = load_event(doc)
        for label, make in contexts(event):
            reference = reference_history(make())
            with self.subTest(event=name, context=label):
                self.assertEqual(make().history, reference)
                ctx = make()  # player by player, in another order, before the history exists
                for pid in reversed(list(ctx.players)):
                    self.assertEqual(ctx.games(pid), reference[pid], pid)
                self.assertIsNone(ctx._history)
                self.check_columns(ctx, reference)

    def check_columns(self, ctx: StandingsContext, reference: dict[str, list[Any]]) -> None:
        counted = ctx.rounds_counted(NOT_PLAYED_OUTCOMES)
        for pid, games in reference.items():
            results = [ctx.ruleset.outcome(g.outcome).result for g in games]
            wins, losses = results.count("win"), results.count("loss")
            self.assertEqual(ctx.round_numbers[pid], [g.round for g in games])
            self.assertEqual(ctx.outcomes[pid], [g.outcome for g in games])
            self.assertEqual(ctx.matches[pid], [g.match for g in games])
            self.assertEqual(ctx.seats(pid), [g.seat for g in games])
            self.assertEqual(ctx.stages_of(pid), [g.stage for g in games])
            self.assertEqual(ctx.record(pid), (wins, losses, len(results) - wins - losses))
            self.assertEqual(ctx.faced()[pid], [q for g in games for q in g.opponents])
            self.assertEqual(ctx.opponents_in_context(pid), [q for g in games for q in g.opponents if q in reference])
            self.assertEqual(pid in ctx.solo, any(not g.opponents for g in games))
            total: float = sum(g.points for g in games)
            self.assertEqual((ctx.points[pid], type(ctx.points[pid])), (total, type(total)))
            self.assertEqual(counted[pid], sum(1 for g in games if g.outcome not in NOT_PLAYED_OUTCOMES))

    def test_golden_events(self) -> None:
        events = golden_events()
        self.assertIn("tribbles-pod.json", [name for name, _ in events])  # tables of more than two
        for name, doc in events:
            self.check(name, doc)

    def test_generated_events(self) -> None:
        for name, doc in generated_events():
            self.check(name, doc)

    def test_a_player_seated_twice_keeps_both_seats(self) -> None:
        event = load_event(engine_event("custom", 6, 2, "twice"))
        first = event.rounds[0]
        pid = first.matches[0].players[0]
        twice = Match((pid, pid), ("win", "loss"))  # never in a loaded document: built by hand
        rounds = (replace(first, matches=(twice, *first.matches[1:])), *event.rounds[1:])
        ctx = StandingsContext(replace(event, rounds=rounds), get_ruleset(event.ruleset, event.settings))
        self.assertEqual(ctx.games(pid), reference_history(ctx)[pid])
        self.assertEqual([g.seat for g in ctx.games(pid) if g.match is twice], [0, 1])
        self.assertEqual(ctx.seats(pid), [g.seat for g in reference_history(ctx)[pid]])


#: Rulesets whose standings read only the columns: all of them (Star Trek's head-to-head builds two players' games).
COLUMNAR = (
    "pokemon-tcg",
    "pokemon-vg",
    "custom",
    "doomtown",
    "agot",
    "shatterpoint",
    "tribbles",
    "startrek-1e",
    "startrek-2e",
)


class NoHistoryTest(unittest.TestCase):
    """No ruleset's standings build the whole history: each reads the context's columns."""

    def test_columnar_standings_never_read_the_history(self) -> None:
        events = [(n, d) for n, d in golden_events() if d.get("ruleset") in COLUMNAR]
        events += [(n, d) for n, d in generated_events() if d["ruleset"] in COLUMNAR]
        self.assertIn("tribbles-pod.json", [name for name, _ in events])
        self.assertGreater(len(events), 10)
        expected = {name: standings_json(load_event(doc)) for name, doc in events}

        def refuse(ctx: StandingsContext) -> None:
            raise AssertionError("the whole history was read")

        with mock.patch.object(StandingsContext, "history", property(refuse)):
            for name, doc in events:
                with self.subTest(event=name):
                    self.assertEqual(standings_json(load_event(doc)), expected[name])


class PokemonTieGroupsTest(unittest.TestCase):
    """Pokémon's one-sort tie groups equal ``order_groups`` over the keys before the last opponent."""

    def test_tie_groups_match_order_groups(self) -> None:
        from shared_rules.games.pokemon.standings import PRE_LAST_OPPONENT, _tie_groups
        from shared_rules.standings.engine import order_groups

        events = [(n, d) for n, d in golden_events() + generated_events() if d.get("ruleset", "").startswith("pokemon")]
        self.assertGreater(len(events), 5)
        for name, doc in events:
            event = load_event(doc)
            for label, make in contexts(event):
                ctx = make()
                ordered = sorted(ctx.players, key=lambda pid: ctx.players[pid].entry)
                with self.subTest(event=name, context=label):
                    self.assertEqual(_tie_groups(ctx, ordered), order_groups(make(), ordered, PRE_LAST_OPPONENT))
                    shuffled = ordered[::-1]  # ties keep the given order
                    self.assertEqual(_tie_groups(ctx, shuffled), order_groups(make(), shuffled, PRE_LAST_OPPONENT))

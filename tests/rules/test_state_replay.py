"""Replay: a whole event played through operations, exported, and folded again deterministically."""

from __future__ import annotations

import json
import unittest
from typing import Any

from shared_rules.run import compute_standings, load_event, standings_json
from shared_rules.seeded import Rng
from shared_rules.state import apply, from_event_document, initial_state, replay, to_event_document
from tests.rules import test_state_reducer as base

POINTS = {"win": 3, "tie": 1, "loss": 0, "bye": 3}


def _dumps(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def _outcomes(a: str, b: str, table: int) -> list[str]:
    """A made-up but fixed result: every fifth table ties, otherwise the earlier entry wins."""
    if table % 5 == 0:
        return ["tie", "tie"]
    return ["win", "loss"] if int(a[1:]) < int(b[1:]) else ["loss", "win"]


class SixteenPlayerEvent:
    """A 16-player ``custom`` event played through three Swiss rounds, entirely by operations."""

    def __init__(self) -> None:
        self.ev = base.Event(16, settings={"rounds": 3, "tiebreakers": ["owp", "random"]})
        self.points = {f"p{i}": 0 for i in range(1, 17)}
        self.met: set[frozenset[str]] = set()
        for i in range(1, 17):
            pid = f"p{i}"
            self.ev.do("player.check_in", {"player": pid}, role="player", player=pid, device=f"phone-{pid}")
        for number in (1, 2, 3):
            if number == 3:
                self.ev.do("player.drop", {"player": "p16"}, role="player", player="p16", device="phone-p16")
            self.play(number)

    def pairings(self) -> list[list[str]]:
        """Pair by points then entry, avoiding rematches greedily; the last player left gets the bye."""
        active = [p["id"] for p in self.ev.state["players"] if p["dropped_after"] is None]
        order = sorted(active, key=lambda pid: (-self.points[pid], int(pid[1:])))
        tables: list[list[str]] = []
        while len(order) > 1:
            a = order.pop(0)
            b = next((q for q in order if frozenset((a, q)) not in self.met), order[0])
            order.remove(b)
            tables.append([a, b])
        if order:
            tables.append(order)
        return tables

    def play(self, number: int) -> None:
        ev = self.ev
        tables = self.pairings()
        ev.play(number, tables)
        for t, players in enumerate(tables, start=1):
            if len(players) == 1:
                self.points[players[0]] += POINTS["bye"]
                continue
            a, b = players
            result = _outcomes(a, b, t)
            self.met.add(frozenset(players))
            self.points[a] += POINTS[result[0]]
            self.points[b] += POINTS[result[1]]
            self.report(number, t, players, result)
        self.assertion_round_complete(number)

    def report(self, number: int, table: int, players: list[str], result: list[str]) -> None:
        ev, (a, b) = self.ev, players
        path = (number + table) % 3
        if path == 0:  # self-report, the opponent confirms
            ev.report(number, table, result, role="player", player=a, device=f"phone-{a}")
            ev.do("result.confirm", {"round": number, "table": table}, role="player", player=b, device=f"phone-{b}")
        elif path == 1:  # a judge's tablet
            ev.report(number, table, result, role="judge", device=f"judge-{table % 2}")
        else:  # both players disagree; the head judge rules
            ev.report(number, table, result, role="player", player=a, device=f"phone-{a}")
            other = ["win", "loss"] if result == ["tie", "tie"] else list(reversed(result))
            ev.report(number, table, other, role="player", player=b, device=f"phone-{b}")
            assert ev.match(number, table)["status"] == "disputed"
            ev.do(
                "result.resolve",
                {"round": number, "table": table, "result": {"outcomes": result}},
                role="head-judge",
                device="hj",
            )

    def assertion_round_complete(self, number: int) -> None:
        rnd = self.ev.round(number)
        assert rnd["status"] == "complete", (number, [m["status"] for m in rnd["matches"]])


class FullEventTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.event = SixteenPlayerEvent()

    def test_three_rounds_are_played_and_complete(self) -> None:
        state = self.event.ev.state
        self.assertEqual(
            [(1, "complete"), (2, "complete"), (3, "complete")], [(r["number"], r["status"]) for r in state["rounds"]]
        )
        self.assertEqual([], state["disputes"])
        self.assertEqual(2, self.event.ev.player("p16")["dropped_after"])
        byes = [m for m in state["rounds"][2]["matches"] if len(m["players"]) == 1]
        self.assertEqual([(["bye"], "confirmed")], [(m["outcomes"], m["status"]) for m in byes])
        self.assertEqual(8, len(state["rounds"][2]["matches"]))  # 15 players: 7 tables and a bye

    def test_exported_standings_match_the_results_played(self) -> None:
        doc = to_event_document(self.event.ev.state)
        event = load_event(doc)
        standings = compute_standings(event)
        self.assertEqual(self.event.points, {s.player: s.points for s in standings})
        self.assertEqual(list(range(1, 17)), [s.rank for s in standings])
        self.assertEqual(["p16"], [s.player for s in standings if s.dropped])

    def test_standings_are_the_same_from_plain_and_operational_exports_and_after_import(self) -> None:
        state = self.event.ev.state
        plain = standings_json(load_event(to_event_document(state, operational=False)))
        full = standings_json(load_event(to_event_document(state)))
        imported = standings_json(load_event(to_event_document(from_event_document(to_event_document(state)))))
        self.assertEqual(plain, full)
        self.assertEqual(plain, imported)

    def test_round_trip_through_the_document_is_exact(self) -> None:
        state = self.event.ev.state
        doc = json.loads(json.dumps(to_event_document(state)))
        self.assertEqual(_dumps(state), _dumps(from_event_document(doc)))

    def test_replay_of_the_log_is_byte_identical_every_time(self) -> None:
        ops = json.loads(json.dumps(self.event.ev.ops))
        first = replay(ops)
        second = replay(ops)
        self.assertEqual(_dumps(first), _dumps(second))
        self.assertEqual(json.dumps(first), json.dumps(second))  # key order is deterministic too
        self.assertEqual(_dumps(self.event.ev.state), _dumps(first))

    def test_replay_equals_applying_one_by_one(self) -> None:
        state = initial_state()
        for op in self.event.ev.ops:
            state = apply(state, op)
        self.assertEqual(_dumps(replay(self.event.ev.ops)), _dumps(state))

    def test_a_log_can_be_replayed_in_two_parts(self) -> None:
        ops = self.event.ev.ops
        middle = len(ops) // 2
        self.assertEqual(_dumps(replay(ops)), _dumps(replay(ops[middle:], replay(ops[:middle]))))


class CommutingOperationsTest(unittest.TestCase):
    def _round_one(self) -> tuple[base.Event, list[dict[str, Any]]]:
        ev = base.Event(8)
        ev.play(1, [["p1", "p2"], ["p3", "p4"], ["p5", "p6"], ["p7", "p8"]])
        ops = []
        for table in range(1, 5):
            ops.append(
                ev.log.op(
                    "result.report",
                    {"round": 1, "table": table, "outcomes": ["win", "loss"]},
                    role="judge",
                    device=f"tablet-{table}",
                )
            )
            ops.append(
                ev.log.op(
                    "player.check_in",
                    {"player": f"p{table}"},
                    role="player",
                    player=f"p{table}",
                    device=f"phone-{table}",
                )
            )
        return ev, ops

    def test_results_of_different_matches_commute(self) -> None:
        ev, ops = self._round_one()
        expected = _dumps(replay(ops, ev.state))
        for k in range(6):
            shuffled = Rng("commute", k).shuffled(ops)
            with self.subTest(order=[op["op_id"] for op in shuffled]):
                self.assertEqual(expected, _dumps(replay(shuffled, ev.state)))

    def test_interleaving_two_offline_tablets_gives_one_state(self) -> None:
        ev, ops = self._round_one()
        tab_a = [op for op in ops if op["device"] in ("tablet-1", "tablet-2", "phone-1")]
        tab_b = [op for op in ops if op not in tab_a]
        self.assertEqual(_dumps(replay(tab_a + tab_b, ev.state)), _dumps(replay(tab_b + tab_a, ev.state)))
        self.assertEqual("complete", replay(tab_b + tab_a, ev.state)["rounds"][0]["status"])

    def test_conflicting_reports_dispute_whichever_arrives_first(self) -> None:
        ev, _ = self._round_one()
        x = ev.log.op("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"]}, device="tab-1")
        y = ev.log.op("result.report", {"round": 1, "table": 1, "outcomes": ["loss", "win"]}, device="tab-2")
        one, two = replay([x, y], ev.state), replay([y, x], ev.state)
        for state in (one, two):
            self.assertEqual("disputed", state["rounds"][0]["matches"][0]["status"])
        self.assertEqual(one["disputes"], two["disputes"])


if __name__ == "__main__":
    unittest.main()

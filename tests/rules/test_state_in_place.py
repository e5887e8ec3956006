"""``apply_in_place`` equals ``apply``, and a refused operation leaves the state untouched (no trace).

The server applies pushes to its working copy in place (cost proportional to
the operation); that is only safe because every handler checks before it
changes. Random streams of valid and invalid operations check it for every
operation type.
"""

from __future__ import annotations

import json
import unittest
from typing import Any

from shared_rules.state import OperationRejected, apply, apply_in_place, initial_state
from shared_rules.state.state import clone
from tests.rules.test_pairing_matching import _Lcg

PLAYERS = [f"p{i}" for i in range(1, 9)]


def _stream(gen: _Lcg, length: int) -> list[dict[str, Any]]:
    """Operations a busy event sees, many of them wrong (bad rounds, tables, players, repeated steps)."""
    seq: dict[str, int] = {}

    def op(
        op_type: str, payload: dict[str, Any], device: str = "desk", role: str = "organizer", player: str | None = None
    ) -> dict[str, Any]:
        seq[device] = seq.get(device, 0) + 1
        actor: dict[str, Any] = {"role": role}
        if player:
            actor["player"] = player
        return {
            "type": op_type,
            "op_id": f"{device}:{seq[device]}",
            "device": device,
            "actor": actor,
            "at": 1_000 * len(seq) + seq[device],
            "payload": payload,
        }

    out = [op("event.create", {"ruleset": "agot", "name": "Cup", "seed": "s", "settings": {"rounds": 4}})]
    out += [op("player.register", {"player": {"id": p, "name": p.upper()}}) for p in PLAYERS]

    def pick(options: list[Any]) -> Any:
        return options[gen.below(len(options))]

    for _ in range(length):
        rnd = 1 + gen.below(3)
        table = 1 + gen.below(5)
        player = pick(PLAYERS + ["ghost"])
        shuffled = PLAYERS[:]
        for i in range(len(shuffled) - 1, 0, -1):
            j = gen.below(i + 1)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        matches = [{"table": k // 2 + 1, "players": shuffled[k : k + 2]} for k in range(0, len(shuffled), 2)]
        if gen.below(5) == 0:
            matches[0]["players"] = [shuffled[0], shuffled[0]]
        choices = [
            ("round.pair", {"number": rnd, "matches": matches}),
            ("round.publish", {"number": rnd}),
            ("round.start", {"number": rnd, "duration_s": 3000}),
            (
                "result.report",
                {
                    "round": rnd,
                    "table": table,
                    "outcomes": pick([["win", "loss"], ["loss", "win"], ["draw", "draw"], ["win"]]),
                },
            ),
            ("result.confirm", {"round": rnd, "table": table}),
            ("result.correct", {"round": rnd, "table": table, "outcomes": ["loss", "win"]}),
            ("result.resolve", {"round": rnd, "table": table, "result": {"outcomes": ["win", "loss"]}}),
            ("timer.pause", {"round": rnd}),
            ("timer.resume", {"round": rnd}),
            ("timer.extend", {"round": rnd, "seconds": 60}),
            ("player.drop", {"player": player}),
            ("player.reinstate", {"player": player}),
            ("player.check_in", {"player": player}),
            ("player.edit", {"player": player, "name": "Renamed"}),
            ("round.swap", {"number": rnd, "a": pick(PLAYERS), "b": pick(PLAYERS)}),
            ("round.discard", {"number": rnd}),
            ("player.remove", {"player": player}),
            (
                "penalty.issue",
                {"player": player, "reason": "slow play", "kind": pick(["warning", "game-loss", "disqualification"])},
            ),
            ("penalty.rescind", {"penalty": pick(["desk", "tab-2"]) + f":{1 + gen.below(60)}", "reason": "appeal"}),
            ("device.void", {}),
            ("event.configure", {"name": "Renamed"}),
            ("cut.make", {"size": 4, "matches": matches[:2]}),
            ("event.close", {}),
        ]
        op_type, payload = pick(choices)
        device, role = pick([("desk", "organizer"), ("tab-1", "judge"), ("tab-2", "head-judge")])
        out.append(op(op_type, payload, device, role))
    return out


class InPlaceTest(unittest.TestCase):
    def test_in_place_equals_pure_and_refusals_leave_no_trace(self) -> None:
        gen = _Lcg(20261124)
        accepted = refused = 0
        for stream in range(12):
            pure = initial_state()
            work = initial_state()
            for op in _stream(gen, 120):
                before = json.dumps(work, sort_keys=True)
                try:
                    expected = apply(pure, op)
                except OperationRejected:
                    expected = None
                try:
                    apply_in_place(work, op)
                except OperationRejected:
                    refused += 1
                    self.assertIsNone(expected, op)
                    self.assertEqual(before, json.dumps(work, sort_keys=True), f"{op['type']} left a trace")
                    continue
                accepted += 1
                self.assertIsNotNone(expected, op)
                pure = expected
                self.assertEqual(json.dumps(pure, sort_keys=True), json.dumps(work, sort_keys=True), op)
            with self.subTest(stream=stream):
                self.assertEqual(pure, work)
        self.assertGreater(accepted, 200)
        self.assertGreater(refused, 200)

    def test_in_place_does_not_share_structure_with_the_operation(self) -> None:
        state = initial_state()
        op = {
            "type": "event.create",
            "op_id": "d:1",
            "device": "d",
            "actor": {"role": "organizer"},
            "at": 0,
            "payload": {"ruleset": "custom", "name": "Cup", "settings": {"rounds": 3}},
        }
        apply_in_place(state, op)
        op["payload"]["settings"]["rounds"] = 99
        self.assertEqual(3, state["settings"]["rounds"])
        self.assertEqual(clone(state), state)


if __name__ == "__main__":
    unittest.main()

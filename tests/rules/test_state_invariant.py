"""One invariant for the whole engine: an operation the reducer accepts never leaves an event whose
standings or next pairing fail.

Random operation streams for all nine rulesets (a seeded generator, so the same streams run here and in
Pyodide): rounds paired as the app pairs them (the next round, the cut, the next elimination round), and
between them results from every seat and staff role with any outcome words (allowed pairs or not), with
and without scores, statistics and endings, corrections, resolutions, drops, reinstatements and penalties.
After every accepted operation the standings are computed; while every round is complete the next
round is paired too, unless the event says it is over.
"""

from __future__ import annotations

import unittest
from typing import Any

from shared_rules.errors import RulesError
from shared_rules.games import RULESET_IDS, game_of, get_ruleset
from shared_rules.run import load_event, next_round, standings_json
from shared_rules.state import OperationRejected, apply_in_place, initial_state
from shared_rules.state.state import SETTLED, to_event_document
from tests.rules.test_pairing_matching import _Lcg

#: Small events each ruleset can run: a few Swiss rounds and a cut where the game has one.
SETTINGS: dict[str, dict[str, Any]] = {
    "pokemon-tcg": {"rounds": 3, "cut": 4},
    "pokemon-vg": {"rounds": 3, "cut": 0},
    "doomtown": {"rounds": 3, "cut": 4},
    "shatterpoint": {"rounds": 3, "cut": 4},
    "agot": {"rounds": 3, "cut": 4},
    "startrek-1e": {"rounds": 3, "cut": 4},
    "startrek-2e": {"rounds": 3, "cut": 0},
    "tribbles": {"rounds": 5},
    "custom": {"rounds": 3, "cut": 4, "points": {"win": 3, "tie": 1, "loss": 0, "bye": 3}},
}
#: What ``next_round`` says when nothing is left to pair: the event is over, not broken.
FINISHED = (
    "the event is complete",
    "bracket is finished",
    "won the event",
    "is over",
    "has no elimination",
    "no bracket",
    "champion",
)


class _Run:
    """One event's stream: the state, the generator and the operations made so far."""

    def __init__(self, ruleset: str, seed: int) -> None:
        self.gen = _Lcg(seed)
        self.state = initial_state()
        self.seq: dict[str, int] = {}
        self.ruleset = ruleset
        self.players = [f"p{i}" for i in range(1, 10)]
        self.accepted: dict[str, int] = {}
        self.refused = 0

    def pick(self, options: list[Any]) -> Any:
        return options[self.gen.below(len(options))]

    def op(self, op_type: str, payload: dict[str, Any], role: str = "organizer", player: str | None = None) -> bool:
        """Apply one operation; whether it was accepted."""
        device = f"{role}-{player}" if player else {"organizer": "desk", "head-judge": "hj", "judge": "tab"}[role]
        self.seq[device] = self.seq.get(device, 0) + 1
        actor: dict[str, Any] = {"role": role}
        if player:
            actor["player"] = player
        raw = {
            "type": op_type,
            "op_id": f"{device}:{self.seq[device]}",
            "device": device,
            "actor": actor,
            "at": 1_000 * sum(self.seq.values()),
            "payload": payload,
        }
        try:
            apply_in_place(self.state, raw)
        except OperationRejected:
            self.refused += 1
            self.seq[device] -= 1
            return False
        self.accepted[op_type] = self.accepted.get(op_type, 0) + 1
        return True

    def result(self, match: dict[str, Any]) -> dict[str, Any]:
        """A result for a match: often one the game allows, sometimes anything at all."""
        rs = get_ruleset(self.ruleset, self.state["settings"])
        n = len(match["players"])
        keys = [o.key for o in rs.outcomes]
        if n == 2 and rs.result_pairs and self.gen.below(3):
            pair = self.pick(list(rs.result_pairs))
            outcomes = list(pair.seats(self.gen.below(2)))
        else:
            outcomes = [self.pick(keys) for _ in range(n)]
        out: dict[str, Any] = {"outcomes": outcomes}
        if self.gen.below(3):
            out["scores"] = [self.gen.below(120) - 10 for _ in range(n)]
        if self.gen.below(3):
            out["stats"] = [{"struggle": self.gen.below(4), "wounds": self.gen.below(6)} for _ in range(n)]
        if rs.endings and self.gen.below(3) == 0:
            out["ending"] = self.pick(list(rs.endings))
        return out

    def started_matches(self) -> list[tuple[dict[str, Any], int]]:
        return [
            (rnd, i)
            for rnd in self.state["rounds"]
            if rnd["status"] in ("started", "complete")
            for i in range(len(rnd["matches"]))
        ]

    def target(self, rnd: dict[str, Any], i: int) -> dict[str, Any]:
        match = rnd["matches"][i]
        where: dict[str, Any] = {"table": match["table"]} if match["table"] is not None else {"match": i}
        return {"round": rnd["number"], "stage": rnd["stage"], **where}

    def next_round(self) -> None:
        """Pair what the event plays next, as the app does, publish and start it."""
        event = load_event(to_event_document(self.state, operational=False))
        try:
            nxt = next_round(event)
        except RulesError as exc:
            if not any(word in str(exc) for word in FINISHED):
                raise AssertionError(f"{self.ruleset}: the next round cannot be paired: {exc}") from None
            return
        matches = nxt["matches"]  # as the app pushes them: with the bracket's fields (slot, seeds, dropped)
        first_elimination = nxt["stage"] == "elimination" and not any(
            r["stage"] == "elimination" for r in self.state["rounds"]
        )
        if first_elimination:
            size = sum(len(m["players"]) for m in matches)
            ok = self.op("cut.make", {"size": size, "number": nxt["round"], "matches": matches})
        else:
            ok = self.op("round.pair", {"number": nxt["round"], "stage": nxt["stage"], "matches": matches})
        if not ok:
            raise AssertionError(f"{self.ruleset}: the engine's own pairing of round {nxt['round']} was refused")
        self.op("round.publish", {"number": nxt["round"], "stage": nxt["stage"]})
        self.op("round.start", {"number": nxt["round"], "stage": nxt["stage"]})

    def step(self) -> None:
        """One random operation (many of them refused)."""
        rounds = self.state["rounds"]
        if not rounds or all(r["status"] == "complete" for r in rounds) and self.gen.below(3) == 0:
            self.next_round()
            return
        started = self.started_matches()
        kind = self.gen.below(20)
        if not started or kind == 0:
            player = self.pick(self.players)
            choice = self.gen.below(3)
            if choice == 0:
                self.op("player.drop", {"player": player})
            elif choice == 1:
                self.op("player.reinstate", {"player": player})
            else:
                system = game_of(self.ruleset).penalties.ui()
                value = self.pick([c[0] for c in system["choices"]])
                chosen = {"level": int(value)} if system["system"] == "levels" else {"kind": value}
                self.op("penalty.issue", {"player": player, "reason": "test", **chosen}, "head-judge")
            return
        open_matches = [(r, j) for r, j in started if r["matches"][j]["status"] not in SETTLED]
        if open_matches and self.gen.below(4) == 0:
            started = open_matches
        rnd, i = self.pick(started)
        match = rnd["matches"][i]
        where = self.target(rnd, i)
        if kind < 10:
            seat = self.pick(match["players"])
            self.op("result.report", {**where, **self.result(match)}, "player", seat)
        elif kind < 12:
            self.op("result.confirm", where, "player", self.pick(match["players"]))
        elif kind < 16:
            self.op("result.report", {**where, **self.result(match)}, self.pick(["judge", "head-judge"]))
        elif kind < 18:
            self.op("result.correct", {**where, **self.result(match), "reason": "fix"}, "head-judge")
        else:
            self.op("result.resolve", {**where, "result": self.result(match), "reason": "judge"}, "head-judge")

    def check(self) -> None:
        """Standings compute; while every round is complete, so does the next pairing."""
        doc = to_event_document(self.state, operational=False)
        try:
            event = load_event(doc)
            standings_json(event)
        except RulesError as exc:
            raise AssertionError(f"{self.ruleset}: standings fail after an accepted operation: {exc}") from None
        done = all(r["status"] == "complete" for r in self.state["rounds"])
        unsettled = any(m["status"] not in SETTLED for r in self.state["rounds"] for m in r["matches"])
        if done and not unsettled and self.state["rounds"]:
            try:
                next_round(event)
            except RulesError as exc:
                if not any(word in str(exc) for word in FINISHED):
                    raise AssertionError(f"{self.ruleset}: the next round cannot be paired: {exc}") from None


class AcceptedOperationsKeepTheEventWorkingTest(unittest.TestCase):
    def test_every_accepted_operation_leaves_standings_and_the_next_pairing_working(self) -> None:
        for ruleset in RULESET_IDS:
            with self.subTest(ruleset=ruleset):
                accepted: dict[str, int] = {}
                for stream in range(6):
                    run = _Run(ruleset, 20261127 + stream)
                    run.op(
                        "event.create",
                        {"ruleset": ruleset, "name": "Cup", "seed": f"s{stream}", "settings": SETTINGS[ruleset]},
                    )
                    for pid in run.players:
                        run.op("player.register", {"player": {"id": pid, "name": pid.upper()}})
                    for _ in range(260):
                        before = sum(run.accepted.values())
                        run.step()
                        if sum(run.accepted.values()) != before:
                            run.check()
                    for key, value in run.accepted.items():
                        accepted[key] = accepted.get(key, 0) + value
                self.assertGreater(accepted.get("result.report", 0), 10, accepted)
                self.assertGreater(accepted.get("round.pair", 0), 1, accepted)


if __name__ == "__main__":
    unittest.main()

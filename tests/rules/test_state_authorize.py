"""Authorization: the role table, and ownership rules for players and floor judges."""

from __future__ import annotations

import unittest
from collections.abc import Callable
from typing import Any

from shared_rules.errors import RulesError
from shared_rules.state import (
    ALLOWED,
    OPERATION_TYPES,
    ROLES,
    NotAuthorized,
    OperationRejected,
    apply,
    authorize,
    check,
    initial_state,
)
from tests.rules import test_state_reducer as base

Scenario = Callable[[], tuple[dict[str, Any], dict[str, Any], str]]


def _registered() -> base.Event:
    return base.Event(4)


def _draft() -> base.Event:
    ev = base.Event(4)
    ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
    return ev


def _started() -> base.Event:
    ev = _draft()
    ev.do("round.start", {"number": 1, "duration_s": 3000})
    return ev


def _paused() -> base.Event:
    ev = _started()
    ev.do("timer.pause")
    return ev


def _self_reported() -> base.Event:
    ev = _started()
    ev.report(1, 1, ["win", "loss"], role="player", player="p1", device="phone-1")
    return ev


def _disputed() -> base.Event:
    ev = _started()
    ev.report(1, 1, ["win", "loss"], device="tab-1")
    ev.report(1, 1, ["loss", "win"], device="tab-2")
    return ev


def _complete() -> base.Event:
    ev = _started()
    ev.report(1, 1, ["win", "loss"])
    ev.report(1, 2, ["win", "loss"])
    return ev


def _dropped() -> base.Event:
    ev = base.Event(4)
    ev.do("player.drop", {"player": "p1"})
    return ev


def _penalized() -> base.Event:
    ev = base.Event(4)
    ev.do("penalty.issue", {"player": "p2", "kind": "disqualification", "reason": "cheating"}, device="hj")
    return ev


def _called() -> base.Event:
    ev = _started()
    ev.do("call.judge", {"table": 1, "reason": "Rules question"}, role="player", player="p1", device="phone-1")
    return ev


_RESULT = {"round": 1, "table": 1, "outcomes": ["win", "loss"]}

#: Operation type -> (state builder, payload an allowed role could apply, the player a player actor is).
SCENARIOS: dict[str, tuple[Callable[[], Any], dict[str, Any], str]] = {
    "event.create": (lambda: None, {"ruleset": "custom"}, "p1"),
    "event.configure": (_registered, {"name": "Renamed"}, "p1"),
    "event.close": (_complete, {}, "p1"),
    "player.register": (_registered, {"player": {"id": "p9"}}, "p1"),
    "player.edit": (_registered, {"player": "p1", "name": "Ash"}, "p1"),
    "player.check_in": (_registered, {"player": "p1"}, "p1"),
    "player.drop": (_started, {"player": "p1"}, "p1"),
    "player.reinstate": (_dropped, {"player": "p1"}, "p2"),
    "player.remove": (_registered, {"player": "p4"}, "p1"),
    "round.pair": (_registered, {"number": 1, "matches": [{"players": ["p1", "p2"]}, {"players": ["p3", "p4"]}]}, "p1"),
    "round.swap": (_draft, {"number": 1, "a": "p2", "b": "p3"}, "p2"),
    "round.publish": (_draft, {"number": 1}, "p1"),
    "round.discard": (_draft, {"number": 1}, "p1"),
    "round.start": (_draft, {"number": 1}, "p1"),
    "timer.pause": (_started, {}, "p1"),
    "timer.resume": (_paused, {}, "p1"),
    "timer.extend": (_started, {"seconds": 60}, "p1"),
    "result.report": (_started, _RESULT, "p1"),
    "result.confirm": (_self_reported, {"round": 1, "table": 1}, "p2"),
    "result.correct": (_started, _RESULT, "p1"),
    "result.resolve": (_disputed, {"round": 1, "table": 1, "result": {"outcomes": ["tie", "tie"]}}, "p1"),
    "cut.make": (_complete, {"size": 2, "matches": [{"players": ["p1", "p3"]}]}, "p1"),
    "penalty.issue": (_registered, {"player": "p2", "kind": "warning", "reason": "slow play"}, "p1"),
    "penalty.rescind": (_penalized, {"penalty": "hj:1", "reason": "appeal upheld"}, "p1"),
    "decklist.submit": (_registered, {"player": "p1", "sections": {"deck": "4 Pikachu"}}, "p1"),
    "deckcheck.record": (_started, {"player": "p1", "outcome": "ok", "table": 1}, "p1"),
    "device.void": (_started, {"dismissed": "timer.resume"}, "p1"),
    "call.judge": (_started, {"table": 1, "reason": "Rules question"}, "p1"),
    "call.player": (_started, {"player": "p1", "where": "judge-station"}, "p1"),
    "call.answer": (_called, {"call": "phone-1:1"}, "p1"),
}


def _case(op_type: str, role: str) -> tuple[dict[str, Any], dict[str, Any]]:
    build, payload, player = SCENARIOS[op_type]
    ev = build()
    state = ev.state if ev is not None else initial_state()
    op = base.Log().op(op_type, payload, device="tab-x", role=role, player=player if role == "player" else None)
    return state, op


class RoleTableTest(unittest.TestCase):
    def test_every_operation_type_has_a_rule_and_a_scenario(self) -> None:
        self.assertEqual(set(OPERATION_TYPES), set(ALLOWED))
        self.assertEqual(set(OPERATION_TYPES), set(SCENARIOS))

    def test_every_role_is_refused_every_operation_it_must_not_perform(self) -> None:
        for op_type in OPERATION_TYPES:
            for role in ROLES:
                if role in ALLOWED[op_type]:
                    continue
                with self.subTest(op=op_type, role=role):
                    state, op = _case(op_type, role)
                    with self.assertRaises(NotAuthorized) as caught:
                        authorize(state, op)
                    self.assertIn(f"a {role} may not do this", str(caught.exception))
                    with self.assertRaises(NotAuthorized):
                        apply(state, op)

    def test_every_allowed_role_is_accepted(self) -> None:
        for op_type in OPERATION_TYPES:
            for role in sorted(ALLOWED[op_type]):
                with self.subTest(op=op_type, role=role):
                    state, op = _case(op_type, role)
                    self.assertIsNone(check(state, op))

    def test_the_lead_roles_alone_pair_cut_resolve_and_reinstate(self) -> None:
        lead_only = ("round.pair", "round.swap", "round.discard", "cut.make", "result.resolve", "player.reinstate")
        for op_type in (*lead_only, "penalty.rescind"):
            self.assertEqual({"organizer", "head-judge"}, set(ALLOWED[op_type]), op_type)

    def test_refusal_is_a_rules_error_with_one_line(self) -> None:
        state, op = _case("round.pair", "player")
        reason = check(state, op)
        self.assertEqual("round.pair: a player may not do this (allowed: head-judge, organizer)", reason)
        self.assertTrue(issubclass(NotAuthorized, OperationRejected))
        self.assertTrue(issubclass(NotAuthorized, RulesError))


class OwnershipTest(unittest.TestCase):
    def test_a_player_reports_only_their_own_match(self) -> None:
        ev = _started()
        self.assertIsNone(ev.why("result.report", _RESULT, role="player", player="p2"))
        self.assertEqual(
            "result.report: player p3 is not in that match of round 1",
            ev.why("result.report", _RESULT, role="player", player="p3"),
        )

    def test_a_player_confirms_only_their_own_match_and_not_their_own_report(self) -> None:
        ev = _self_reported()
        self.assertEqual(
            "result.confirm: player p1 cannot confirm their own report",
            ev.why("result.confirm", {"round": 1, "table": 1}, role="player", player="p1"),
        )
        self.assertEqual(
            "result.confirm: player p1 cannot confirm their own report",
            ev.why("result.confirm", {"round": 1, "table": 1, "report": "phone-1:1"}, role="player", player="p1"),
        )
        self.assertEqual(
            "result.confirm: player p4 is not in that match of round 1",
            ev.why("result.confirm", {"round": 1, "table": 1}, role="player", player="p4"),
        )

    def test_a_player_checks_in_and_drops_only_themselves(self) -> None:
        ev = _started()
        for op_type in ("player.check_in", "player.drop"):
            with self.subTest(op_type):
                self.assertEqual(
                    f"{op_type}: player p2 may only act for themselves, not for p1",
                    ev.why(op_type, {"player": "p1"}, role="player", player="p2"),
                )

    def test_an_unregistered_player_may_do_nothing(self) -> None:
        ev = _started()
        self.assertEqual(
            "result.report: 'p9' is not a player of this event",
            ev.why("result.report", _RESULT, role="player", player="p9"),
        )

    def test_a_floor_judge_issues_warnings_only(self) -> None:
        ev = _registered()
        self.assertIsNone(ev.why("penalty.issue", {"player": "p1", "kind": "warning", "reason": "x"}, role="judge"))
        for kind in ("game-loss", "disqualification"):
            with self.subTest(kind):
                self.assertEqual(
                    f"penalty.issue: a judge may issue warnings only; a {kind} is for the head judge",
                    ev.why("penalty.issue", {"player": "p1", "kind": kind, "reason": "x"}, role="judge"),
                )
                self.assertIsNone(
                    ev.why("penalty.issue", {"player": "p1", "kind": kind, "reason": "x"}, role="head-judge")
                )

    def test_staff_may_report_any_match(self) -> None:
        ev = _started()
        for role in ("organizer", "head-judge", "judge", "scorekeeper"):
            with self.subTest(role):
                self.assertIsNone(ev.why("result.report", _RESULT, role=role))


if __name__ == "__main__":
    unittest.main()

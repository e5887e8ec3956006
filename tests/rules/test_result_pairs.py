"""Each game declares the results one two-player game can end in; everything else is refused, in words.

The result form offers only the declared pairs (``ruleset_info()["pairs"]``), the quick buttons only the
ones marked quick, and the reducer refuses every other pair for every ruleset.
"""

from __future__ import annotations

import itertools
import unittest
from typing import Any

from shared_rules.errors import DocumentError
from shared_rules.games import get_ruleset
from shared_rules.state import OperationRejected, apply, initial_state

#: The pairs each document allows (either seat order), quick ones marked, as the documents word them.
EXPECTED: dict[str, dict[tuple[str, str], bool]] = {
    # Pokémon TOP 3.1 (and TOM's double loss)
    "pokemon-tcg": {("win", "loss"): True, ("tie", "tie"): True, ("loss", "loss"): False},
    "pokemon-vg": {("win", "loss"): True, ("tie", "tie"): True, ("loss", "loss"): False},
    # Doomtown Floor Rules 3.D, 3.H, 7.A: no draw
    "doomtown": {("win", "loss"): True, ("win-at-time", "loss"): False, ("loss", "loss"): False},
    # Shatterpoint Showdown, End of Match: no double loss
    "shatterpoint": {("win", "loss"): True, ("draw", "draw"): True},
    # AGoT Tournament Regulations, End of Round
    "agot": {("win", "loss"): True, ("modified-win", "modified-loss"): False, ("draw", "draw"): True},
    "custom": {("win", "loss"): True, ("tie", "tie"): True, ("loss", "loss"): False},
}
# Star Trek OP Guide 7.5.1, 13.5: played games, then games not played.
for _edition in ("startrek-1e", "startrek-2e"):
    EXPECTED[_edition] = {
        ("full-win", "full-loss"): True,
        ("modified-win", "modified-loss"): False,
        ("true-tie", "true-tie"): True,
        ("full-win", "missed-game"): False,
        ("bye", "full-loss"): False,
        ("bye", "missed-game"): False,
        ("missed-game", "missed-game"): False,
        ("bye", "bye"): False,
    }


def _op(n: int, op_type: str, payload: dict[str, Any], role: str = "organizer") -> dict[str, Any]:
    return {"type": op_type, "op_id": f"d:{n}", "device": "d", "actor": {"role": role}, "at": n, "payload": payload}


def _started(ruleset: str) -> dict[str, Any]:
    """An event of two players with round 1 started at table 1."""
    ops = [
        _op(1, "event.create", {"ruleset": ruleset, "name": "Cup"}),
        _op(2, "player.register", {"player": {"id": "a", "name": "Ada"}}),
        _op(3, "player.register", {"player": {"id": "b", "name": "Bo"}}),
        _op(4, "round.pair", {"number": 1, "matches": [{"table": 1, "players": ["a", "b"]}]}),
        _op(5, "round.publish", {"number": 1}),
        _op(6, "round.start", {"number": 1}),
    ]
    state = initial_state()
    for op in ops:
        state = apply(state, op)
    return state


class DeclaredPairsTest(unittest.TestCase):
    def test_each_game_declares_the_pairs_its_document_allows(self) -> None:
        for ruleset, expected in EXPECTED.items():
            with self.subTest(ruleset=ruleset):
                rs = get_ruleset(ruleset)
                self.assertEqual(expected, {(p.first, p.second): p.quick for p in rs.result_pairs})
                self.assertTrue(rs.pairs_source)

    def test_tribbles_pods_declare_no_pairs(self) -> None:
        self.assertEqual((), get_ruleset("tribbles").result_pairs)

    def test_every_other_pair_is_refused_with_the_document_named(self) -> None:
        for ruleset in EXPECTED:
            rs = get_ruleset(ruleset)
            allowed = {pair for p in rs.result_pairs for pair in ((p.first, p.second), (p.second, p.first))}
            for pair in itertools.product(sorted(rs.outcome_keys), repeat=2):
                with self.subTest(ruleset=ruleset, pair=pair):
                    if pair in allowed:
                        rs.check_outcomes(("a", "b"), pair, "outcomes")
                        continue
                    with self.assertRaises(DocumentError) as caught:
                        rs.check_outcomes(("a", "b"), pair, "outcomes")
                    if not any(rs.outcome(o).solo and o not in {x for p in allowed for x in p} for o in pair):
                        self.assertIn(rs.pairs_source, caught.exception.problem)


class ReducerRefusesForbiddenPairsTest(unittest.TestCase):
    def test_agot_win_against_modified_loss_is_refused_in_words(self) -> None:
        state = _started("agot")
        op = _op(7, "result.report", {"round": 1, "table": 1, "outcomes": ["win", "modified-loss"]}, "judge")
        with self.assertRaises(OperationRejected) as caught:
            apply(state, op)
        self.assertEqual(
            "result.report: round 1 table 1: win against modified loss is not a result of one A Game of Thrones: "
            "The Card Game (2nd ed.) game; one game ends in win / loss, modified win / modified loss or draw "
            "(AGoT Tournament Regulations, End of Round)",
            str(caught.exception),
        )
        self.assertNotIn("payload", str(caught.exception))

    def test_star_trek_full_win_against_modified_loss_is_refused_in_words(self) -> None:
        for ruleset in ("startrek-1e", "startrek-2e"):
            with self.subTest(ruleset=ruleset):
                state = _started(ruleset)
                op = _op(7, "result.report", {"round": 1, "table": 1, "outcomes": ["full-win", "modified-loss"]})
                with self.assertRaises(OperationRejected) as caught:
                    apply(state, op)
                self.assertIn("full win against modified loss is not a result of one", str(caught.exception))
                self.assertIn("(Star Trek OP Guide 7.5.1, 13.5)", str(caught.exception))

    def test_every_declared_pair_is_accepted_by_the_reducer(self) -> None:
        for ruleset, expected in EXPECTED.items():
            state = _started(ruleset)
            for first, second in expected:
                with self.subTest(ruleset=ruleset, pair=(first, second)):
                    payload: dict[str, Any] = {"round": 1, "table": 1, "outcomes": [first, second]}
                    if ruleset.startswith("startrek"):
                        payload["scores"] = [100, 40]
                    if ruleset == "shatterpoint":
                        payload["stats"] = (
                            [{"struggle": 3, "wounds": 5}] * 2
                            if first == "draw"
                            else [
                                {"struggle": 3, "wounds": 5},
                                {"struggle": 1, "wounds": 2},
                            ]
                        )
                    after = apply(state, _op(7, "result.report", payload, "judge"))
                    self.assertEqual("confirmed", after["rounds"][0]["matches"][0]["status"])

    def test_a_result_the_whole_event_checks_refuse_is_refused_at_once(self) -> None:
        # Star Trek OP Guide 7.4: a Full Win needs both final scores for the differential.
        state = _started("startrek-2e")
        op = _op(7, "result.report", {"round": 1, "table": 1, "outcomes": ["full-win", "full-loss"]}, "judge")
        with self.assertRaises(OperationRejected) as caught:
            apply(state, op)
        self.assertIn("both final scores are needed for the differential", str(caught.exception))
        self.assertIn("enter the final scores of a and b", str(caught.exception))  # the screens name them

    def test_every_game_refuses_on_the_device_what_the_whole_event_refuses(self) -> None:
        # The device's check (check_op: the reducer) answers as the server's whole-event load does: a
        # result the event document would refuse is refused by the operation itself, for every game.
        from shared_rules.games import RULESETS
        from shared_rules.run import load_event
        from shared_rules.state.state import to_event_document

        for ruleset in RULESETS:
            state = _started(ruleset)
            match = state["rounds"][0]["matches"][0]
            for outcomes in itertools.product([o.key for o in get_ruleset(ruleset, {}).outcomes], repeat=2):
                payload = {"round": 1, "table": match["table"], "outcomes": list(outcomes)}
                with self.subTest(ruleset=ruleset, outcomes=outcomes):
                    try:
                        after = apply(state, _op(7, "result.report", payload, "judge"))
                    except OperationRejected:
                        continue
                    load_event(to_event_document(after, operational=False))  # the server takes it too


if __name__ == "__main__":
    unittest.main()

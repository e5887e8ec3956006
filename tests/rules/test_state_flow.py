"""The organizer's next step (shared_rules/state/flow.py), walked through whole events of every kind of game."""

from __future__ import annotations

import unittest
from typing import Any

from shared_rules.games import get_ruleset
from shared_rules.pairing.whole_event import round_json
from shared_rules.run import load_event, make_cut, next_elimination_round, pair_next_round_json
from shared_rules.state import to_event_document
from shared_rules.state.flow import STEPS, next_step

from .test_state_reducer import Event


def _document(ev: Event) -> Any:
    return load_event(to_event_document(ev.state, operational=False))


def _result(ruleset: str, settings: dict[str, Any], players: list[str]) -> dict[str, Any]:
    """The first player wins: a pod (Tribbles) by score, a Star Trek game with its scores."""
    if len(players) > 2:
        return {"outcomes": ["win"] + ["loss"] * (len(players) - 1), "scores": [100 - i for i in range(len(players))]}
    pair = get_ruleset(ruleset, settings).result_pairs[0]
    out: dict[str, Any] = {"outcomes": [pair.first, pair.second][: len(players)]}
    if ruleset.startswith("startrek"):
        out["scores"] = [100, 40][: len(players)]
    return out


def do_step(ev: Event, ruleset: str, settings: dict[str, Any]) -> bool:
    """Do what the next step says, as the organizer's screen would; False once nothing is left to do."""
    step = next_step(ev.state)
    if step.step == "pair":
        draft = pair_next_round_json(_document(ev))
        ev.do("round.pair", {"number": draft["round"], "stage": draft["stage"], "matches": draft["matches"]})
    elif step.step == "publish":
        ev.do("round.publish", {"number": step.round, "stage": step.stage})
    elif step.step == "start":
        ev.do("round.start", {"number": step.round, "stage": step.stage, "duration_s": 3000})
    elif step.step == "results":
        rnd = ev.state["rounds"][-1]
        for m in rnd["matches"]:
            if m["status"] not in ("confirmed", "resolved"):
                result = _result(ruleset, settings, m["players"])
                ev.do("result.report", {"round": rnd["number"], "stage": rnd["stage"], "table": m["table"], **result})
    elif step.step == "cut":
        cut = round_json(make_cut(_document(ev)))
        ev.do("cut.make", {"size": step.cut, "number": cut["round"], "matches": cut["matches"]})
    elif step.step == "elimination":
        nxt = round_json(next_elimination_round(_document(ev)))
        ev.do("round.pair", {"number": nxt["round"], "stage": "elimination", "matches": nxt["matches"]})
    elif step.step == "close":
        ev.do("event.close", {})
    else:
        return False
    return True


def walk(ruleset: str, players: int, settings: dict[str, Any] | None = None) -> tuple[Event, list[str]]:
    """The event played to its end by following the next step; the labels in order (repeats folded)."""
    settings = settings or {}
    ev = Event(players, ruleset, settings)
    labels: list[str] = []
    for _ in range(200):
        step = next_step(ev.state)
        if not labels or labels[-1] != step.label:
            labels.append(step.label)
        if not do_step(ev, ruleset, settings):
            return ev, labels
    raise AssertionError(f"{ruleset}: the flow never ended: {labels[-6:]}")


class DayFlowTest(unittest.TestCase):
    def test_a_doomtown_roundup_runs_from_round_one_to_its_champion(self) -> None:
        ev, labels = walk("doomtown", 8, {"rounds": 3, "cut": 4})
        self.assertEqual(
            ["Pair round 1", "Publish round 1", "Start round 1", "Waiting for 4 results of round 1", "Pair round 2"],
            labels[:5],
        )
        after_swiss = labels.index("Swiss is over: make the top 4")
        self.assertEqual("Waiting for 4 results of round 3", labels[after_swiss - 1])
        self.assertIn("Pair the final", labels)
        self.assertEqual(["Close the event", "The event is closed"], labels[-2:])
        closed = next_step(ev.state)
        self.assertEqual("closed", closed.step)
        self.assertRegex(closed.champion_name or "", r"^Player \d$")

    def test_the_cut_is_the_step_only_once_every_planned_swiss_round_is_complete(self) -> None:
        ev = Event(8, "pokemon-tcg", {"season": 2024, "rounds": 3, "cut": 4})
        seen = []
        while (step := next_step(ev.state)).step != "cut":
            seen.append((step.step, step.swiss_complete))
            do_step(ev, "pokemon-tcg", {})
        self.assertNotIn(True, [done for _, done in seen])
        self.assertEqual(3, len([s for s, _ in seen if s == "pair"]))
        self.assertEqual((4, True, 3, True), (step.cut, step.swiss_complete, step.swiss_rounds, step.can_cut))
        self.assertFalse(Event(8, "pokemon-tcg", {"season": 2024}).state["rounds"])
        self.assertFalse(next_step(Event(8, "pokemon-tcg", {"season": 2024}).state).can_cut)  # nothing played yet
        self.assertIn("All 3 Swiss rounds are complete", step.reason)

    def test_a_pokemon_top_eight_names_each_round_then_the_champion(self) -> None:
        ev, labels = walk("pokemon-tcg", 12, {"season": 2024, "rounds": 3, "cut": 8})
        names = [x for x in labels if x.startswith("Pair the") or x.startswith("Swiss")]
        self.assertEqual(
            ["Swiss is over: make the top 8", "Pair the semifinals", "Pair the final"],
            names,
        )
        done = next_step(ev.state)
        self.assertTrue(done.champion_name)
        self.assertNotEqual(done.champion, done.champion_name)  # a name, never a bare player id

    def test_the_champions_name_comes_before_the_close(self) -> None:
        ev = Event(4, "doomtown", {"rounds": 1, "cut": 2})
        while next_step(ev.state).step != "close":
            do_step(ev, "doomtown", {})
        step = next_step(ev.state)
        self.assertEqual("Close the event", step.label)
        self.assertTrue(step.reason.startswith(f"Champion: {step.champion_name}."))

    def test_pokemon_day_two_rounds_are_paired_before_the_cut(self) -> None:
        settings = {"season": 2024, "rounds": 4, "day_one_rounds": 2, "cut": 4}
        ev = Event(10, "pokemon-tcg", settings)
        while next_step(ev.state).step != "cut":
            do_step(ev, "pokemon-tcg", settings)
        self.assertEqual(["swiss", "swiss", "swiss-day2", "swiss-day2"], [r["stage"] for r in ev.state["rounds"]])

    def test_the_first_round_of_day_two_says_so(self) -> None:
        settings = {"season": 2024, "rounds": 4, "day_one_rounds": 2, "cut": 4}
        ev = Event(10, "pokemon-tcg", settings)
        labels = []
        while (step := next_step(ev.state)).step != "cut":
            if step.step == "pair":
                labels.append((step.label, step.stage))
            do_step(ev, "pokemon-tcg", settings)
        self.assertEqual(
            [
                ("Pair round 1", "swiss"),
                ("Pair round 2", "swiss"),
                ("Pair round 3: day two begins", "swiss-day2"),
                ("Pair round 4 (day two)", "swiss-day2"),
            ],
            labels,
        )

    def test_a_game_without_a_bracket_closes_after_its_swiss_rounds(self) -> None:
        ev, labels = walk("tribbles", 9, {"rounds": 2})
        self.assertEqual(["Swiss is over: close the event", "The event is closed"], labels[-2:])
        self.assertFalse(any(x.startswith("Swiss is over: make") for x in labels))

    def test_an_event_whose_structure_has_no_cut_closes_after_its_swiss_rounds(self) -> None:
        ev = Event(6, "agot", {"rounds": 2})
        while next_step(ev.state).step not in ("close", "cut"):
            do_step(ev, "agot", {})
        step = next_step(ev.state)
        self.assertEqual(("close", True), (step.step, step.swiss_complete))
        self.assertIn("no cut", step.reason)

    def test_star_trek_second_edition_runs_its_modified_mcintyre_cut_to_the_champion(self) -> None:
        ev, labels = walk("startrek-2e", 6, {"rounds": 2, "cut": 4})
        self.assertIn("Swiss is over: make the top 4", labels)
        self.assertEqual("The event is closed", labels[-1])
        self.assertIsNotNone(next_step(ev.state).champion)

    def test_an_open_dispute_is_the_step_before_the_next_round(self) -> None:
        ev = Event(4, "doomtown", {"rounds": 3})
        while next_step(ev.state).step != "results":
            do_step(ev, "doomtown", {})
        a, b = ev.match(1, 1)["players"]
        ev.do("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"]}, role="player", player=a)
        ev.do("result.report", {"round": 1, "table": 1, "outcomes": ["loss", "win"]}, role="player", player=b)
        step = next_step(ev.state)
        self.assertEqual(("dispute", "Resolve the dispute at table 1 of round 1"), (step.step, step.label))

    def test_register_comes_first_and_every_step_is_known(self) -> None:
        ev = Event(1, "doomtown")
        self.assertEqual(("register", "Register players"), (next_step(ev.state).step, next_step(ev.state).label))
        _, labels = walk("doomtown", 4, {"rounds": 1, "cut": 2})
        self.assertTrue(labels)
        self.assertLessEqual({"pair", "publish", "start", "results", "cut", "close", "closed"}, set(STEPS))


class SwapCountTest(unittest.TestCase):
    def test_a_draft_counts_its_manual_swaps_and_a_re_pair_starts_again_from_none(self) -> None:
        ev = Event(4)
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]])
        ev.do("round.swap", {"number": 1, "a": "p1", "b": "p3"})
        ev.do("round.swap", {"number": 1, "a": "p2", "b": "p4"})
        self.assertEqual(2, ev.round(1)["paired_by"]["swaps"])
        ev.pair(1, [["p1", "p2"], ["p3", "p4"]], replace=True)
        self.assertNotIn("swaps", ev.round(1)["paired_by"])


if __name__ == "__main__":
    unittest.main()

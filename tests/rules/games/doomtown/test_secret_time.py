"""Doomtown's secret d6 (Floor Rules 3.A, 5.C): rolled once per event from its seed, hidden from players.

3.A: "Before the first round, the TO should roll a six-sided die (d6) hidden from everyone else's sight
and secretly record the result. The TO adds that number of minutes onto the base allotment of an hour
per round for the time limit of each round in that roundup. ... The exact length of rounds will not be
announced to the players."
"""

from __future__ import annotations

import unittest

from shared_rules.games.doomtown.ruleset import secret_d6
from shared_rules.state import is_withheld, timer_remaining_ms
from tests.rules.test_state_reducer import T0, Event

TABLES = [["p1", "p2"], ["p3", "p4"]]


def _doomtown(seed: str = "seed-1") -> Event:
    ev = Event(4, "doomtown")
    if seed != "seed-1":
        ev.state["seed"] = seed
    return ev


def _finish(ev: Event, number: int, stage: str | None = None) -> None:
    for table in (1, 2):
        ev.do(
            "result.report",
            {"round": number, "table": table, "outcomes": ["win", "loss"], **({"stage": stage} if stage else {})},
            role="scorekeeper",
        )


class SecretD6(unittest.TestCase):
    def test_one_roll_per_event_the_same_every_round(self) -> None:
        ev = _doomtown()
        lengths = []
        for number in (1, 2, 3):
            ev.pair(number, TABLES)
            ev.do("round.start", {"number": number, "duration_s": 3600, "secret": True, "at": T0})
            timer = ev.round(number)["timer"]
            lengths.append(timer_remaining_ms(timer, T0) // 1000)
            self.assertEqual(3600, timer["duration_s"])  # the announced hour, as in the log
            _finish(ev, number)
        d6 = secret_d6("seed-1")
        self.assertEqual([3600 + 60 * d6] * 3, lengths)
        self.assertEqual(d6 * 60, ev.round(3)["timer"]["secret_s"])

    def test_the_roll_comes_from_the_seed_and_is_a_d6(self) -> None:
        rolls = {secret_d6(f"event-{i}") for i in range(200)}
        self.assertEqual({1, 2, 3, 4, 5, 6}, rolls)
        self.assertEqual(secret_d6("event-7"), secret_d6("event-7"))

    def test_a_withheld_seed_gives_no_end(self) -> None:
        ev = _doomtown()
        ev.state["seed"] = "withheld-0123abcd"  # what a player's device folds
        self.assertTrue(is_withheld(ev.state["seed"]))
        ev.pair(1, TABLES)
        ev.do("round.start", {"number": 1, "duration_s": 3600, "secret": True, "at": T0})
        timer = ev.round(1)["timer"]
        self.assertIn("secret_s", timer)
        self.assertIsNone(timer["secret_s"])
        self.assertEqual(3_600_000, timer_remaining_ms(timer, T0))  # the announced hour only

    def test_no_secret_unless_asked_and_only_for_doomtown(self) -> None:
        ev = _doomtown()
        ev.pair(1, TABLES)
        ev.do("round.start", {"number": 1, "duration_s": 3600, "at": T0})
        self.assertNotIn("secret_s", ev.round(1)["timer"])
        self.assertEqual(3_600_000, timer_remaining_ms(ev.round(1)["timer"], T0))
        custom = Event(4, "custom")
        custom.pair(1, TABLES)
        why = custom.why("round.start", {"number": 1, "duration_s": 3600, "secret": True})
        self.assertIn("payload.secret", why)
        self.assertIn("no secret time", why)
        untimed = _doomtown()
        untimed.pair(1, TABLES)
        self.assertIn("untimed round", untimed.why("round.start", {"number": 1, "duration_s": 0, "secret": True}))

    def test_pause_and_extension_keep_the_secret_time(self) -> None:
        ev = _doomtown()
        ev.pair(1, TABLES)
        ev.do("round.start", {"number": 1, "duration_s": 3600, "secret": True, "at": T0})
        ev.do("timer.pause", {"at": T0 + 60_000}, role="judge")
        ev.do("timer.resume", {"at": T0 + 120_000}, role="judge")
        ev.do("timer.extend", {"seconds": 60}, role="judge")
        d6 = secret_d6("seed-1")
        self.assertEqual((3600 + 60 + d6 * 60) * 1000 - 60_000, timer_remaining_ms(ev.round(1)["timer"], T0 + 120_000))


if __name__ == "__main__":
    unittest.main()

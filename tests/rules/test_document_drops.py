"""The loader refuses a player seated after their drop, wherever the seat is in a large round (issue #27)."""

from __future__ import annotations

import unittest

from shared_rules.errors import DocumentError
from shared_rules.run import load_event


def _event(extra_seat: str | None) -> dict:
    players = [{"id": f"p{i:03d}", "entry": i} for i in range(1, 201)]
    players[150]["dropped_after"] = 1  # p151
    rounds = []
    for number in (1, 2):
        ids = [p["id"] for p in players if number == 1 or p["id"] != "p151"]
        if number == 2 and extra_seat is not None:
            ids[ids.index(extra_seat)] = "p151"
        matches = [
            {"table": t + 1, "players": ids[2 * t : 2 * t + 2], "outcomes": ["win", "loss"]}
            for t in range(len(ids) // 2)
        ]
        if len(ids) % 2:
            matches.append({"players": [ids[-1]], "outcomes": ["bye"]})
        rounds.append({"number": number, "matches": matches})
    return {"ruleset": "doomtown", "players": players, "rounds": rounds}


class DroppedSeatTest(unittest.TestCase):
    def test_a_document_without_seats_after_a_drop_loads(self) -> None:
        event = load_event(_event(None))
        self.assertEqual(1, event.player("p151").dropped_after)

    def test_a_dropped_player_seated_at_a_late_table_is_named_with_the_seat(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(_event("p180"))
        self.assertEqual(
            str(caught.exception),
            "rounds[1].matches[89].players[0]: player 'p151' plays in round 2 but dropped after round 1 "
            "(players[150].dropped_after)",
        )

    def test_a_dropped_player_on_a_later_bye_is_refused_too(self) -> None:
        with self.assertRaises(DocumentError) as caught:
            load_event(_event("p200"))
        self.assertIn("player 'p151' plays in round 2 but dropped after round 1", str(caught.exception))


if __name__ == "__main__":
    unittest.main()

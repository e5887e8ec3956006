"""Table numbers: top point groups first, byes without a table, fixed tables kept."""

from __future__ import annotations

import unittest

from shared_rules.pairing.tables import number_tables
from shared_rules.run import load_event, pair_next_round, pairing_state
from shared_rules.seeded import Rng
from tests.rules.test_pairing_swiss import new_doc, play_round


class TableNumbersTest(unittest.TestCase):
    """How tables are numbered."""

    def test_highest_points_at_lowest_tables_and_byes_without_table(self) -> None:
        tables, warnings = number_tables([("a", "b"), ("c",), ("d", "e")], {"a": 3, "b": 3, "c": 0, "d": 6, "e": 6}, {})
        self.assertEqual(tables, [2, None, 1])
        self.assertEqual(warnings, [])

    def test_round_tables_descend_with_points(self) -> None:
        doc = new_doc("agot", 20, 5)
        rng = Rng("t", "r")
        for _ in range(2):
            play_round(doc, rng)
        event = load_event(doc)
        state = pairing_state(event, 3)
        paired = pair_next_round(event)
        tops = [max(state.points[p] for p in m.players) for m in paired.matches if m.table is not None]
        self.assertEqual(tops, sorted(tops, reverse=True))
        self.assertEqual([m.table for m in paired.matches if m.table], list(range(1, 11)))

    def test_fixed_table_is_kept_every_round_and_others_renumber_around_it(self) -> None:
        doc = new_doc("pokemon-tcg", 12, 4)
        doc["players"][4]["fixed_table"] = 2
        rng = Rng("f", "r")
        for _ in range(4):
            paired = play_round(doc, rng)
            table = [m["table"] for m in paired["matches"] if "p005" in m["players"]][0]
            self.assertEqual(table, 2)
            self.assertEqual(sorted(m["table"] for m in paired["matches"]), list(range(1, 7)))

    def test_two_claims_on_one_fixed_table_warn(self) -> None:
        tables, warnings = number_tables([("a", "b"), ("c", "d")], {"a": 3, "b": 3, "c": 0, "d": 0}, {"a": 5, "c": 5})
        self.assertEqual(tables, [5, 1])
        self.assertEqual(len(warnings), 1)


if __name__ == "__main__":
    unittest.main()

"""Organizer control: swaps with warnings, validation, and corrections (Pokémon TOP 4)."""

from __future__ import annotations

import copy
import unittest

from shared_rules.pairing.corrections import can_change_result, changed_players
from shared_rules.run import (
    load_event,
    pair_next_round,
    pairing_state,
    repair_after_correction,
    swap_players,
    validate_pairing,
)
from shared_rules.seeded import Rng
from tests.rules.test_pairing_swiss import new_doc, play_round


def _event_after(rounds: int, players: int = 10, ruleset: str = "pokemon-tcg", seed: str = "d"):
    doc = new_doc(ruleset, players, rounds + 2, seed)
    rng = Rng(seed, "r")
    for _ in range(rounds):
        play_round(doc, rng)
    return doc


class SwapTest(unittest.TestCase):
    """swap_players warns of each rematch, repeated bye or wider score gap it creates."""

    def test_swap_into_a_rematch_warns(self) -> None:
        doc = _event_after(1)
        event = load_event(doc)
        paired = pair_next_round(event)
        first = next(m for m in doc["rounds"][0]["matches"] if len(m["players"]) == 2)
        a, b = first["players"]
        partner_of_b = next(p for m in paired.matches if b in m.players for p in m.players if p != b)
        _, warnings = swap_players(paired, a, partner_of_b, event)
        if a not in [p for m in paired.matches if b in m.players for p in m.players]:
            self.assertTrue(any("rematch" in w for w in warnings), warnings)

    def test_swap_bye_to_a_player_who_had_one_warns(self) -> None:
        doc = _event_after(1, players=9)
        event = load_event(doc)
        first_bye = next(m["players"][0] for m in doc["rounds"][0]["matches"] if len(m["players"]) == 1)
        paired = pair_next_round(event)
        bye = next(m.players[0] for m in paired.matches if len(m.players) == 1)
        new, warnings = swap_players(paired, bye, first_bye, event)
        self.assertIn(f"repeated bye: {first_bye} already had a bye", warnings)
        self.assertEqual(next(m.players[0] for m in new.matches if len(m.players) == 1), first_bye)

    def test_swap_across_point_groups_warns_of_the_gap(self) -> None:
        doc = _event_after(2, players=16)
        event = load_event(doc)
        state = pairing_state(event, 3)
        paired = pair_next_round(event)
        top = paired.matches[0].players[0]
        bottom = paired.matches[-1].players[0]
        self.assertGreater(state.points[top], state.points[bottom])
        _, warnings = swap_players(paired, top, bottom, event)
        self.assertTrue(any(w.startswith("score gap") for w in warnings), warnings)

    def test_swap_within_one_match_changes_nothing(self) -> None:
        event = load_event(_event_after(1))
        paired = pair_next_round(event)
        a, b = paired.matches[0].players
        self.assertEqual(swap_players(paired, a, b, event), (paired, []))


class ValidateTest(unittest.TestCase):
    """validate_pairing on engine output and on hand-made rounds."""

    def test_engine_pairing_has_no_warning(self) -> None:
        event = load_event(_event_after(2, players=15))
        self.assertEqual(validate_pairing(event, pair_next_round(event)), [])

    def test_dropped_and_missing_players_are_reported(self) -> None:
        doc = _event_after(1)
        doc["players"][0]["dropped_after"] = 1
        event = load_event(doc)
        paired = pair_next_round(event)
        self.assertEqual(validate_pairing(event, paired), [])
        hand = paired.to_round()
        from shared_rules.event.model import Match, Round

        broken = Round(hand.number, hand.stage, hand.matches[1:] + (Match(("p001",), ("bye",)),))
        warnings = validate_pairing(event, broken)
        self.assertTrue(any("p001 has dropped" in w for w in warnings))
        self.assertTrue(any("is not paired" in w for w in warnings))

    def test_a_cut_round_warns_only_of_what_breaks_a_bracket(self) -> None:
        """A top cut pairs some players (the rest are out, not "not paired"), and a rematch or a
        score gap is what a bracket is: only unknown, dropped or doubled players are problems."""
        from shared_rules.event.model import Match, Round
        from shared_rules.run import compute_standings

        doc = _event_after(3, players=8)
        event = load_event(doc)
        top = [s.player for s in compute_standings(event)][:4]
        cut = Round(4, "elimination", (Match((top[0], top[3])), Match((top[1], top[2]))))
        self.assertEqual(validate_pairing(event, cut), [])
        doubled = Round(4, "elimination", (Match((top[0], top[3])), Match((top[1], top[0]))))
        self.assertEqual(validate_pairing(event, doubled), [f"{top[0]} is paired twice"])


class CorrectionsTest(unittest.TestCase):
    """Pokémon TOP 4: re-pair the minimum; records lock after the second following round."""

    def test_result_locked_once_the_second_following_round_is_paired(self) -> None:
        doc = _event_after(3)
        event = load_event(doc)
        self.assertFalse(can_change_result(event, 1))
        self.assertTrue(can_change_result(event, 2))

    def test_correction_repairs_only_the_affected_players(self) -> None:
        doc = _event_after(2, players=24)
        event = load_event(doc)
        draft = pair_next_round(event)
        corrected = copy.deepcopy(doc)
        match = next(m for m in corrected["rounds"][1]["matches"] if m.get("outcomes") == ["win", "loss"])
        match["outcomes"] = ["loss", "win"]
        fixed_event = load_event(corrected)
        repaired = repair_after_correction(event, draft, fixed_event)
        changed = changed_players(draft, repaired)
        self.assertLessEqual(len(changed), 8)
        self.assertEqual(validate_pairing(fixed_event, repaired), [])
        fresh = pair_next_round(fixed_event)
        self.assertLessEqual(len(changed), len(changed_players(draft, fresh)) or 8)

    def test_no_change_keeps_the_draft(self) -> None:
        event = load_event(_event_after(2, players=12))
        draft = pair_next_round(event)
        self.assertEqual(repair_after_correction(event, draft, event), draft)


if __name__ == "__main__":
    unittest.main()

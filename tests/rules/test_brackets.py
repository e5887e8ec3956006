"""Elimination brackets: seeding, byes, AGoT game numbers, drops, best-of-three, final placing.

unittest only: the same file runs under pytest and inside Pyodide.
"""

from __future__ import annotations

import json
import os
import unittest
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from shared_rules.brackets import bracket_order, bye_count, first_round_pairs, match_winner_from_games
from shared_rules.errors import RulesError
from shared_rules.event import Event, Match, Player, Round, dump_event
from shared_rules.games import bracket_rules
from shared_rules.run import (
    apply_drop_in_bracket,
    bracket_view,
    compute_standings,
    load_event,
    make_cut,
    next_elimination_round,
    place_elimination,
    start_single_elimination,
    swiss_order,
)

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
WIN_WORD = {
    "pokemon-tcg": "win",
    "doomtown": "win",
    "shatterpoint": "win",
    "agot": "win",
    "startrek-1e": "full-win",
    "custom": "win",
}
LOSS_WORD = {"startrek-1e": "full-loss"}


def make_event(
    ruleset: str,
    n: int,
    settings: dict[str, Any] | None = None,
    seed: str = "bracket-test",
    rounds: Sequence[Round] = (),
    extra: Callable[[int], dict[str, Any]] | None = None,
) -> Event:
    players = tuple(Player(f"p{i:02d}", f"Player {i}", i, extra=extra(i) if extra else {}) for i in range(1, n + 1))
    return Event(ruleset, seed, players, tuple(rounds), "test", settings or {})


def with_round(event: Event, rnd: Round) -> Event:
    return replace(event, rounds=event.rounds + (rnd,))


def seed_of(event: Event) -> dict[str, int]:
    seeds: dict[str, int] = {}
    for rnd in event.rounds:
        for m in rnd.matches:
            for pid, s in zip(m.players, m.extra.get("seeds") or ()):
                if s is not None:
                    seeds.setdefault(pid, s)
    return seeds


def report(event: Event, winner: Callable[[Match], str]) -> Event:
    """Report every pending two-player match of the last round with ``winner(match)`` winning."""
    last = event.rounds[-1]
    win, loss = WIN_WORD.get(event.ruleset, "win"), LOSS_WORD.get(event.ruleset, "loss")
    matches = []
    for m in last.matches:
        if len(m.players) == 2 and m.outcomes is None:
            w = winner(m)
            m = replace(m, outcomes=tuple(win if p == w else loss for p in m.players))
        matches.append(m)
    return replace(event, rounds=event.rounds[:-1] + (replace(last, matches=tuple(matches)),))


def higher_seed_wins(event: Event) -> Callable[[Match], str]:
    seeds = seed_of(event)
    return lambda m: min(m.players, key=seeds.__getitem__)


def seed_pairs(event: Event, rnd: Round) -> list[tuple[int, ...]]:
    seeds = seed_of(with_round(event, rnd) if rnd not in event.rounds else event)
    return [tuple(seeds[p] for p in m.players) for m in rnd.matches if not m.extra.get("playoff")]


def play_out(event: Event, winner: Callable[[Event], Callable[[Match], str]] = higher_seed_wins) -> Event:
    """Report and advance until the bracket is finished."""
    while True:
        event = report(event, winner(event))
        try:
            event = with_round(event, next_elimination_round(event))
        except RulesError as exc:
            if "finished" in str(exc):
                return event
            raise


class BracketOrderTest(unittest.TestCase):
    # Doomtown Floor Rules 5.B: 1 v lowest, 2 v second lowest..., and it holds in every round.
    def test_one_meets_lowest_surviving_seed_every_round_when_higher_seeds_win(self) -> None:
        for size in (2, 4, 8, 16, 32):
            with self.subTest(size=size):
                line = bracket_order(size)
                self.assertEqual(sorted(line), list(range(1, size + 1)))
                while len(line) > 1:
                    pairs = list(zip(line[0::2], line[1::2]))
                    alive = len(line)
                    for a, b in pairs:
                        self.assertEqual(alive + 1, a + b, f"{a} v {b} with {alive} left")
                    line = [min(p) for p in pairs]

    def test_sixteen_players_one_meets_sixteen_then_the_winner_of_eight_v_nine(self) -> None:
        event = make_event("doomtown", 16, {"cut": 16})
        first = make_cut(event)
        self.assertEqual([(1, 16), (8, 9)], seed_pairs(event, first)[:2])
        event = report(with_round(event, first), higher_seed_wins(with_round(event, first)))
        second = next_elimination_round(event)
        self.assertEqual((1, 8), seed_pairs(event, second)[0])

    def test_played_rounds_keep_one_v_lowest_for_2_to_32(self) -> None:
        for size in (2, 4, 8, 16, 32):
            with self.subTest(size=size):
                event = make_event("doomtown", size, {"cut": size})
                event = with_round(event, make_cut(event))
                alive = size
                while True:
                    for pair in seed_pairs(event, event.rounds[-1]):
                        self.assertEqual(alive + 1, sum(pair))
                    event = report(event, higher_seed_wins(event))
                    if alive == 2:
                        break
                    event = with_round(event, next_elimination_round(event))
                    alive //= 2

    def test_cut_takes_the_top_n_by_swiss_standing(self) -> None:
        event = make_event("doomtown", 12, {"cut": 4})
        order = swiss_order(event)
        rnd = make_cut(event)
        self.assertEqual(sorted(order[:4]), sorted(p for m in rnd.matches for p in m.players))
        self.assertEqual("elimination", rnd.stage)
        self.assertEqual(1, rnd.number)

    def test_first_round_json_has_the_event_format_shape(self) -> None:
        event = make_event("doomtown", 8, {"cut": 4})
        event = with_round(event, make_cut(event))
        doc = dump_event(event)["rounds"][0]
        self.assertEqual("elimination", doc["stage"])
        self.assertEqual({"table": 1, "players": ["p01", "p04"], "slot": 1, "seeds": [1, 4]}, doc["matches"][0])
        self.assertEqual(event, load_event(json.loads(json.dumps(dump_event(event)))))


class ByePaddingTest(unittest.TestCase):
    # Doomtown Floor Rules 5.B: fill in byes to the next power of 2; byes go to the top seeds.
    def test_six_players_pad_to_eight_with_byes_for_seeds_one_and_two(self) -> None:
        self.assertEqual([(1, None), (4, 5), (2, None), (3, 6)], first_round_pairs(6))
        event = make_event("doomtown", 6, {"cut": 8})
        rnd = make_cut(event)
        byes = [m for m in rnd.matches if len(m.players) == 1]
        self.assertEqual([("p01",), ("p02",)], [m.players for m in byes])
        self.assertTrue(all(m.outcomes == ("bye",) for m in byes))
        event = report(with_round(event, rnd), higher_seed_wins(with_round(event, rnd)))
        self.assertEqual([(1, 4), (2, 3)], seed_pairs(event, next_elimination_round(event)))

    def test_cut_with_fewer_eligible_players_than_places_is_padded(self) -> None:
        event = make_event("doomtown", 9, {"cut": 8})
        event = replace(event, players=tuple(replace(p, dropped_after=1) if p.entry <= 3 else p for p in event.players))
        rnd = make_cut(event)
        self.assertEqual(6, len({p for m in rnd.matches for p in m.players}))
        self.assertEqual(2, sum(1 for m in rnd.matches if len(m.players) == 1))

    def test_byes_in_elimination_count_as_reaching_the_next_round_in_the_placing(self) -> None:
        event = play_out(
            with_round(make_event("doomtown", 6, {"cut": 8}), make_cut(make_event("doomtown", 6, {"cut": 8})))
        )
        self.assertEqual(["p01", "p02", "p03", "p04", "p05", "p06"], [s.player for s in compute_standings(event)])


class AgotGameNumberTest(unittest.TestCase):
    # AGoT Tournament Regulations, Single Elimination Rounds.
    def test_game_numbers_for_eight_players_over_three_rounds(self) -> None:
        event = make_event("agot", 8, {"cut": 8})
        first = make_cut(event)
        self.assertEqual([(1, 8), (2, 7), (3, 6), (4, 5)], seed_pairs(event, first))
        self.assertEqual([1, 2, 3, 4], [m.extra["slot"] for m in first.matches])
        event = with_round(event, first)
        # Upsets: 8 beats 1 (Game #1), 6 beats 3 (Game #3).
        seeds = seed_of(event)
        upset = {p for p, s in seeds.items() if s in (8, 6)}

        def pick(ev: Any) -> Any:
            return lambda m: next((p for p in m.players if p in upset), higher_seed_wins(ev)(m))

        event = report(event, pick(event))
        second = next_elimination_round(event)
        # New Game #1: winner of #1 v winner of the last game (#4); new #2: winner of #2 v winner of #3.
        self.assertEqual([(8, 4), (2, 6)], seed_pairs(event, second))
        event = report(with_round(event, second), pick(event))
        final = next_elimination_round(event)
        self.assertEqual([(8, 6)], seed_pairs(event, final))  # 6 also beat 2 in Game #2

    def test_listing_by_game_number_differs_from_the_standard_bracket_order(self) -> None:
        agot = make_cut(make_event("agot", 8, {"cut": 8}))
        doom = make_cut(make_event("doomtown", 8, {"cut": 8}))
        self.assertEqual([(1, 8), (2, 7), (3, 6), (4, 5)], seed_pairs(make_event("agot", 8), agot))
        self.assertEqual([(1, 8), (4, 5), (2, 7), (3, 6)], seed_pairs(make_event("doomtown", 8), doom))

    def test_from_start_thirteen_players_get_three_random_byes_and_random_game_numbers(self) -> None:
        event = make_event("agot", 13, seed="agot-13")
        rnd = start_single_elimination(event)
        self.assertEqual(rnd, start_single_elimination(event))  # deterministic from the seed
        byes = [m for m in rnd.matches if len(m.players) == 1]
        games = [m for m in rnd.matches if len(m.players) == 2]
        self.assertEqual((3, 5), (len(byes), len(games)))
        self.assertEqual(3, bye_count(13))
        self.assertEqual(list(range(1, 9)), sorted(m.extra["slot"] for m in rnd.matches))
        self.assertEqual(sorted(p.id for p in event.players), sorted(p for m in rnd.matches for p in m.players))
        other = start_single_elimination(replace(event, seed="another seed"))
        self.assertNotEqual([m.players for m in rnd.matches], [m.players for m in other.matches])
        # Next round folds game numbers: winner of #1 v winner of #8, #2 v #7...
        event = with_round(event, rnd)
        event = report(event, lambda m: m.players[0])
        winner_by_slot = {m.extra["slot"]: m.players[0] for m in event.rounds[-1].matches}
        second = next_elimination_round(event)
        self.assertEqual(
            [tuple(sorted((winner_by_slot[k], winner_by_slot[9 - k]))) for k in range(1, 5)],
            [tuple(sorted(m.players)) for m in second.matches],
        )

    def test_from_start_byes_are_random_not_to_top_entries(self) -> None:
        bye_players = set()
        for seed in ("a", "b", "c", "d"):
            rnd = start_single_elimination(make_event("agot", 13, seed=seed))
            bye_players |= {m.players[0] for m in rnd.matches if len(m.players) == 1}
        self.assertGreater(len(bye_players), 3)


class PokemonSingleEliminationTest(unittest.TestCase):
    # Pokémon TOP 3.2.
    def test_fifty_three_players_give_the_top_eleven_seeds_byes(self) -> None:
        event = make_event("pokemon-tcg", 53, seed="cup")
        rnd = start_single_elimination(event)
        byes = [m for m in rnd.matches if len(m.players) == 1]
        self.assertEqual(11, len(byes))
        self.assertEqual(list(range(1, 12)), sorted(m.extra["seeds"][0] for m in byes))
        self.assertEqual(21, sum(1 for m in rnd.matches if len(m.players) == 2))
        seeds = {p: s for m in rnd.matches for p, s in zip(m.players, m.extra["seeds"])}
        self.assertNotEqual(list(range(1, 54)), [seeds[f"p{i:02d}"] for i in range(1, 54)])  # random seeds
        self.assertEqual(rnd, start_single_elimination(event))

    def test_after_the_byes_no_further_byes_are_needed(self) -> None:
        event = make_event("pokemon-tcg", 53, seed="cup")
        event = with_round(event, start_single_elimination(event))
        event = report(event, higher_seed_wins(event))
        second = next_elimination_round(event)
        self.assertEqual(16, len(second.matches))
        self.assertTrue(all(len(m.players) == 2 for m in second.matches))

    def test_third_and_fourth_playoff_is_marked_and_places_3rd_and_4th(self) -> None:
        event = make_event("pokemon-tcg", 8, {"cut": 4, "playoff_3rd_4th": True})
        order = swiss_order(event)
        event = with_round(event, make_cut(event))
        event = report(event, higher_seed_wins(event))
        final_round = next_elimination_round(event)
        playoff = [m for m in final_round.matches if m.extra.get("playoff") == "third-place"]
        self.assertEqual(1, len(playoff))
        self.assertEqual({order[2], order[3]}, set(playoff[0].players))
        event = with_round(event, final_round)
        # Seed 4 wins the playoff, seed 2 wins the final.
        seeds = seed_of(event)
        event = report(event, lambda m: max(m.players, key=seeds.__getitem__))
        placing = [s.player for s in compute_standings(event)]
        self.assertEqual([order[1], order[0], order[3], order[2]], placing[:4])
        self.assertEqual(order[4:], placing[4:])

    def test_no_playoff_unless_announced(self) -> None:
        event = make_event("pokemon-tcg", 8, {"cut": 4})
        event = with_round(event, make_cut(event))
        event = report(event, higher_seed_wins(event))
        self.assertEqual(1, len(next_elimination_round(event).matches))

    def test_flights_send_their_top_players_merged_by_swiss_standing(self) -> None:
        # Pokémon TOP 3.3.3.2: an equal number from each flight, merged and sorted by Swiss standing.
        event = make_event("pokemon-tcg", 16, {"cut": 4}, extra=lambda i: {"flight": 1 + (i > 4)})
        order = swiss_order(event)
        rnd = make_cut(event)
        flight_one = [p for p in order if int(p[1:]) <= 4][:2]
        flight_two = [p for p in order if int(p[1:]) > 4][:2]
        expected = sorted(flight_one + flight_two, key=order.index)
        seeds = {p: s for m in rnd.matches for p, s in zip(m.players, m.extra["seeds"])}
        self.assertEqual(expected, sorted(seeds, key=seeds.__getitem__))


class BestOfThreeTest(unittest.TestCase):
    def test_games_decide_the_match(self) -> None:
        self.assertEqual("a", match_winner_from_games(["a", "b"], ["a", "a"]))
        self.assertEqual("b", match_winner_from_games(["a", "b"], ["b", "a", "b"]))

    def test_games_that_do_not_finish_the_match_are_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "1-0 does not finish a best-of-3"):
            match_winner_from_games(["a", "b"], ["a"])

    def test_a_game_after_the_match_was_won_is_refused(self) -> None:
        with self.assertRaisesRegex(RulesError, "already won"):
            match_winner_from_games(["a", "b"], ["b", "b", "a"])

    def test_a_stranger_cannot_win_a_game(self) -> None:
        with self.assertRaisesRegex(RulesError, "'c' is not a player"):
            match_winner_from_games(["a", "b"], ["a", "c"])

    def test_outcomes_must_agree_with_the_games(self) -> None:
        results = {"win": "win", "loss": "loss"}.__getitem__
        self.assertEqual(
            "b", match_winner_from_games(["a", "b"], ["b", "b"], outcomes=["loss", "win"], results=results)
        )
        with self.assertRaisesRegex(RulesError, "disagree with the games"):
            match_winner_from_games(["a", "b"], ["b", "b"], outcomes=["win", "loss"], results=results)

    def test_doomtown_top_two_is_best_of_three_and_games_decide_it(self) -> None:
        # Doomtown Floor Rules 5.C: the Top 2 should be a best-of-3 match in Official roundups.
        self.assertEqual((1, 3), (bracket_rules("doomtown").best_of, bracket_rules("doomtown").final_best_of))
        event = make_event("doomtown", 8, {"cut": 2})
        event = with_round(event, make_cut(event))
        final = event.rounds[-1].matches[0]
        played = replace(final, outcomes=("loss", "win"), games=("p02", "p01", "p02"))
        event = replace(event, rounds=(replace(event.rounds[-1], matches=(played,)),))
        self.assertEqual("p02", bracket_view(event)["champion"])
        self.assertEqual("p02", compute_standings(event)[0].player)
        short = replace(final, outcomes=("loss", "win"), games=("p02",))
        event = replace(event, rounds=(replace(event.rounds[-1], matches=(short,)),))
        with self.assertRaisesRegex(RulesError, "does not finish a best-of-3"):
            bracket_view(event)


class DropTest(unittest.TestCase):
    def _cut(self, ruleset: str, n: int = 8, cut: int = 4) -> Event:
        event = make_event(ruleset, n, {"cut": cut})
        return with_round(event, make_cut(event))

    def test_doomtown_drop_after_the_cut_gives_the_opponent_a_bye_and_no_replacement(self) -> None:
        # Doomtown Floor Rules 3.G.
        event = self._cut("doomtown")
        event = apply_drop_in_bracket(event, "p04")
        rnd = event.rounds[-1]
        self.assertIn(Match(("p01",), ("bye",)), [Match(m.players, m.outcomes) for m in rnd.matches])
        placeholder = next(m for m in rnd.matches if m.players == ("p04",))
        self.assertIsNone(placeholder.outcomes)
        self.assertTrue(placeholder.extra["dropped"])
        self.assertEqual(0, event.player("p04").dropped_after)
        self.assertNotIn("p05", {p for m in rnd.matches for p in m.players})
        event = play_out(event)
        self.assertEqual(["p01", "p02", "p03", "p04"], [s.player for s in compute_standings(event)][:4])

    def test_doomtown_winner_who_drops_before_the_next_round_leaves_a_bye(self) -> None:
        event = self._cut("doomtown")
        event = report(event, higher_seed_wins(event))
        event = apply_drop_in_bracket(event, "p02")
        final = next_elimination_round(event)
        self.assertEqual([("p01",), ("p02",)], [m.players for m in final.matches])
        self.assertEqual(("bye",), final.matches[0].outcomes)
        self.assertTrue(final.matches[1].extra["dropped"])

    def test_pokemon_drop_is_a_loss_regardless_of_the_result(self) -> None:
        # Pokémon TOP 3.2: a player who drops or is disqualified is marked the loser.
        event = self._cut("pokemon-tcg")
        first = event.rounds[-1].matches[0]
        event = report(event, lambda m: m.players[0])
        event = apply_drop_in_bracket(event, first.players[0])
        changed = event.rounds[-1].matches[0]
        self.assertEqual(("loss", "win"), changed.outcomes)
        self.assertEqual(first.players[0], changed.extra["dropped"])

    def test_shatterpoint_replaces_a_qualifier_who_drops_before_the_stage_plays(self) -> None:
        # Shatterpoint Showdown, Progression Cut: the next-ranked player joins as the lowest seed.
        event = make_event("shatterpoint", 8, {"cut": 4})
        order = swiss_order(event)
        event = with_round(event, make_cut(event))
        event = apply_drop_in_bracket(event, order[1])
        seeds = {p: s for m in event.rounds[-1].matches for p, s in zip(m.players, m.extra["seeds"])}
        self.assertEqual([order[0], order[2], order[3], order[4]], sorted(seeds, key=seeds.__getitem__))
        self.assertEqual(1, len([r for r in event.rounds if r.stage == "elimination"]))

    def test_shatterpoint_drop_after_the_stage_started_gives_a_bye(self) -> None:
        event = make_event("shatterpoint", 8, {"cut": 4})
        event = with_round(event, make_cut(event))
        first, second = event.rounds[-1].matches
        played = replace(first, outcomes=("win", "loss"))
        event = replace(event, rounds=(replace(event.rounds[-1], matches=(played, second)),))
        event = apply_drop_in_bracket(event, second.players[1])
        self.assertIn((second.players[0],), [m.players for m in event.rounds[-1].matches])

    def test_a_player_who_dropped_before_the_cut_is_skipped(self) -> None:
        event = make_event("doomtown", 8, {"cut": 4})
        event = replace(
            event, players=tuple(replace(p, dropped_after=0) if p.id == "p02" else p for p in event.players)
        )
        rnd = make_cut(event)
        self.assertEqual({"p01", "p03", "p04", "p05"}, {p for m in rnd.matches for p in m.players})


class FullCutTest(unittest.TestCase):
    def test_a_top_eight_played_to_the_end_places_everyone(self) -> None:
        # Pokémon TOP 3.3.6 reading for every game: eliminated players of one round by Swiss rank;
        # players outside the cut keep their Swiss place.
        event = make_event("doomtown", 12, {"cut": 8})
        order = swiss_order(event)
        event = with_round(event, make_cut(event))
        upsets = {"p08", "p06"}  # 8 and 6 win every match they play; otherwise higher seeds win

        def chooser(ev: Any) -> Any:
            return lambda m: next((p for p in m.players if p in upsets), higher_seed_wins(ev)(m))

        event = play_out(event, chooser)
        placing = [s.player for s in compute_standings(event)]
        # Champion 8, finalist 6; semifinal losers 2 and 4 and quarterfinal losers 1, 3, 5, 7 by Swiss rank.
        self.assertEqual(["p08", "p06", "p02", "p04", "p01", "p03", "p05", "p07"], placing[:8])
        self.assertEqual(order[8:], placing[8:])
        self.assertEqual(placing, place_elimination(event, order))
        view = bracket_view(event)
        self.assertEqual("p08", view["champion"])
        self.assertEqual(["Quarterfinals", "Semifinals", "Final"], [r["name"] for r in view["rounds"]])

    def test_next_round_waits_for_every_result(self) -> None:
        event = make_event("doomtown", 8, {"cut": 4})
        event = with_round(event, make_cut(event))
        with self.assertRaisesRegex(RulesError, r"results still missing \(table 1, table 2\)"):
            next_elimination_round(event)

    def test_a_finished_bracket_has_no_next_round(self) -> None:
        event = make_event("doomtown", 4, {"cut": 2})
        event = report(with_round(event, make_cut(event)), lambda m: m.players[0])
        with self.assertRaisesRegex(RulesError, "bracket is finished: Player 1 is the champion"):
            next_elimination_round(event)

    def test_a_tie_cannot_decide_an_elimination_match_outside_star_trek(self) -> None:
        event = make_event("agot", 4, {"cut": 4})
        event = with_round(event, make_cut(event))
        first, second = event.rounds[-1].matches
        event = replace(
            event,
            rounds=(
                replace(
                    event.rounds[-1],
                    matches=(replace(first, outcomes=("draw", "draw")), replace(second, outcomes=("win", "loss"))),
                ),
            ),
        )
        with self.assertRaisesRegex(RulesError, "does not decide an elimination match"):
            next_elimination_round(event)

    def test_a_second_cut_is_refused(self) -> None:
        event = make_event("doomtown", 8, {"cut": 4})
        event = with_round(event, make_cut(event))
        with self.assertRaisesRegex(RulesError, "already has elimination rounds"):
            make_cut(event)

    def test_cut_size_comes_from_the_structure_table(self) -> None:
        # Doomtown Floor Rules 5.B: 9-16 players cut to Top 4.
        rnd = make_cut(make_event("doomtown", 12))
        self.assertEqual(4, rnd.extra["bracket"]["cut"])


def golden_events() -> dict[str, Event]:
    doom = make_event("doomtown", 12, {"cut": 8}, seed="golden-doomtown")
    doom = play_out(
        with_round(doom, make_cut(doom)),
        lambda ev: lambda m: next((p for p in m.players if p in {"p07", "p05"}), higher_seed_wins(ev)(m)),
    )
    agot = make_event("agot", 13, seed="golden-agot")
    agot = play_out(with_round(agot, start_single_elimination(agot)), lambda ev: lambda m: m.players[1])
    poke = make_event("pokemon-tcg", 6, {"cut": 8, "playoff_3rd_4th": True}, seed="golden-pokemon")
    poke = play_out(with_round(poke, make_cut(poke)))
    return {"doomtown-top8": doom, "agot-from-start-13": agot, "pokemon-top8-six-players": poke}


def golden_doc(event: Event) -> dict[str, Any]:
    return {
        "event": dump_event(event),
        "bracket": bracket_view(event),
        "standings": [s.player for s in compute_standings(event)],
    }


class GoldenBracketTest(unittest.TestCase):
    def test_brackets_match_their_golden_files(self) -> None:
        for name, event in golden_events().items():
            path = GOLDEN / f"bracket-{name}.json"
            doc = json.loads(json.dumps(golden_doc(event)))
            if os.environ.get("TOPCUT_UPDATE_GOLDEN"):
                path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            with self.subTest(name=name):
                self.assertEqual(json.loads(path.read_text(encoding="utf-8")), doc)


if __name__ == "__main__":
    unittest.main()

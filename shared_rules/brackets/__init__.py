"""Elimination brackets: the cut, seeding, next rounds, drops and a JSON view.

- :func:`make_cut` — top-N by Swiss standing into a seeded bracket (Doomtown
  Floor Rules 5.B; Pokémon TOP 3.3, 3.3.3, 3.3.6; Shatterpoint Progression Cut;
  AGoT Single Elimination Rounds; Star Trek OP Guide 10).
- :func:`start_single_elimination` — single elimination from the start
  (Pokémon TOP 3.2; AGoT Single Elimination Rounds).
- :func:`next_elimination_round`, :func:`apply_drop_in_bracket`,
  :func:`bracket_view`.
- :func:`match_winner_from_games` (best-of-three), :func:`two_heat_seeds`
  (Star Trek OP Guide 9).

>>> bracket_order(16)[:4]
[1, 16, 8, 9]
"""

from .advance import (SlotResult, apply_drop_in_bracket, bracket_view, match_winner, next_elimination_round,
                      round_name, slot_results)
from .cut import cut_size, elimination_rounds_of, make_cut, seed_bracket, start_single_elimination, swiss_order
from .heats import two_heat_seeds
from .matchplay import TIED_GAME, first_turn_chooser, match_winner_from_games
from .rules import RULES, SCHEMES, BracketRules, bracket_rules
from .seeding import bracket_order, bye_count, first_round_pairs, fold_pairs, next_power_of_two

__all__ = ["RULES", "SCHEMES", "TIED_GAME", "BracketRules", "SlotResult", "apply_drop_in_bracket",
           "bracket_order", "bracket_rules", "bracket_view", "bye_count", "cut_size", "elimination_rounds_of",
           "first_round_pairs", "first_turn_chooser", "fold_pairs", "make_cut", "match_winner",
           "match_winner_from_games", "next_elimination_round", "next_power_of_two", "round_name",
           "seed_bracket", "slot_results", "start_single_elimination", "swiss_order", "two_heat_seeds"]

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

>>> from shared_rules.brackets import bracket_order
>>> bracket_order(16)[:4]
[1, 16, 8, 9]
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "SCHEMES",
    "TIED_GAME",
    "BracketRules",
    "SlotResult",
    "apply_drop_in_bracket",
    "bracket_order",
    "bracket_view",
    "bye_count",
    "cut_size",
    "elimination_rounds_of",
    "first_round_pairs",
    "first_turn_chooser",
    "fold_pairs",
    "make_cut",
    "match_winner",
    "match_winner_from_games",
    "next_elimination_round",
    "next_power_of_two",
    "round_name",
    "seed_bracket",
    "slot_results",
    "start_single_elimination",
    "swiss_order",
    "two_heat_seeds",
]

#: Public name → the submodule defining it (``..matches``: who won one match, shared with the standings); loaded on first use (the cut and advance modules pull in
#: standings, which a game's bracket rules must not).
_HOME: dict[str, str] = {
    "SlotResult": "advance",
    "apply_drop_in_bracket": "advance",
    "bracket_view": "advance",
    "match_winner": "..matches.winner",
    "next_elimination_round": "advance",
    "round_name": "advance",
    "slot_results": "advance",
    "cut_size": "cut",
    "elimination_rounds_of": "..matches.winner",
    "make_cut": "cut",
    "seed_bracket": "cut",
    "start_single_elimination": "cut",
    "swiss_order": "cut",
    "two_heat_seeds": "heats",
    "TIED_GAME": "..matches.matchplay",
    "first_turn_chooser": "..matches.matchplay",
    "match_winner_from_games": "..matches.matchplay",
    "SCHEMES": "rules",
    "BracketRules": "rules",
    "bracket_order": "seeding",
    "bye_count": "seeding",
    "first_round_pairs": "seeding",
    "fold_pairs": "seeding",
    "next_power_of_two": "seeding",
}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        home = _HOME[name]
        return getattr(importlib.import_module(home if home.startswith(".") else f".{home}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""Who won one elimination match, handed the game's bracket rules and ruleset.

- :func:`match_winner` — best-of-three games, a double loss (nobody advances), Star Trek's
  tie to the higher seed (OP Guide 10); the standings engine places a cut with it and the
  brackets advance with it.
- :func:`match_winner_from_games`, :func:`first_turn_chooser` — Star Trek match play (OP Guide
  10, 10.1).
"""

from .matchplay import TIED_GAME, first_turn_chooser, match_winner_from_games
from .winner import elimination_rounds_of, higher_seed, match_winner, results_of, seed_map

__all__ = [
    "TIED_GAME",
    "elimination_rounds_of",
    "first_turn_chooser",
    "higher_seed",
    "match_winner",
    "match_winner_from_games",
    "results_of",
    "seed_map",
]

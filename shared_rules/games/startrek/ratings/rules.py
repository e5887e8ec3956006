"""The Star Trek rating rules as data (Star Trek CCG Organized Play Guide 5.1, Sections 1, 4, 7.5.1, 8, 11).

Everything here is declarative; ``elo.py`` and ``games.py`` are the small
functions that use it. See the package docstring for the readings made where
the Guide is loose.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = [
    "RULESETS",
    "START",
    "FLOOR",
    "CEILING",
    "SCALE",
    "K_BY_LEVEL",
    "LEVEL_EVENTS",
    "FORMATS",
    "RATINGS",
    "SCENARIOS",
    "UNSANCTIONED_SCENARIOS",
    "GAME_SCORES",
    "PLAYED_PAIRS",
    "SCORE_OF_PAIR",
]

DOCUMENT = "Star Trek OP Guide"

# Star Trek OP Guide 1, 4.1: ratings are kept per game (1E, 2E, Tribbles),
# "for that specific game".
RULESETS: tuple[str, ...] = ("startrek-1e", "startrek-2e", "tribbles")

# Star Trek OP Guide 8: "Players begin with a lifetime rating of 1500, and their
# rating can range from 0 to 3000."
START = 1500
FLOOR = 0
CEILING = 3000

# Star Trek OP Guide 8 ("based on the ELO system"): the Guide gives no scale;
# 400 is Elo's own (a 400-point gap expects 10:1). A reading, see __init__.
SCALE = 400

# Star Trek OP Guide 11.1.1, 11.1.2, 11.1.3, 11.2.1, 11.2.2: "Ratings k-Value" by event level.
K_BY_LEVEL: Mapping[int, int] = MappingProxyType(
    {
        2: 28,  # Star Trek OP Guide 11.1.1 Regional Championships (Level 2)
        3: 40,  # Star Trek OP Guide 11.2.1 National, 11.2.2 Trek Masters Championships (Level 3)
        4: 52,  # Star Trek OP Guide 11.1.2 Continental Championships (Level 4)
        5: 64,  # Star Trek OP Guide 11.1.3 World Championships (Level 5)
    }
)
LEVEL_EVENTS: Mapping[int, str] = MappingProxyType(
    {
        2: "Regional Championships (11.1.1)",
        3: "National / Trek Masters Championships (11.2.1, 11.2.2)",
        4: "Continental Championships (11.1.2)",
        5: "World Championships (11.1.3)",
    }
)

# Star Trek OP Guide 4.1: constructed events move the constructed rating; "draft
# or sealed" events move the sealed rating.
FORMATS: Mapping[str, str] = MappingProxyType({"constructed": "constructed", "draft": "sealed", "sealed": "sealed"})
# Star Trek OP Guide 8: "individual ratings for both constructed deck and sealed
# deck play, as well as an overall rating combining the two".
RATINGS: tuple[str, ...] = ("constructed", "sealed", "overall")

# Star Trek OP Guide 4.4: optional scenarios "will not affect a player's respective
# constructed deck or sealed deck rating"; each is "sanctioned but unrated"
# (4.4.1-4.4.7, 4.4.9), Biermeister "unsanctioned and unrated" (4.4.8).
SCENARIOS: Mapping[str, str] = MappingProxyType(
    {
        "deck-lottery": "4.4.1",
        "no-such-thing-as-luck": "4.4.2",
        "standard-orbit": "4.4.3",
        "cool": "4.4.4",
        "race-to-the-alpha-quadrant": "4.4.5",
        "bend-the-rules": "4.4.6",
        "public-play-testing": "4.4.7",
        "biermeister": "4.4.8",
        "custom": "4.4.9",
    }
)
UNSANCTIONED_SCENARIOS = frozenset({"biermeister"})

# Star Trek OP Guide 7.5.1 and 8 ("how well they do in each tournament match"):
# a game's score for Elo, in halves: Full and Modified Win 1, True Tie 1/2, losses 0.
GAME_SCORES: Mapping[str, int] = MappingProxyType(
    {
        "full-win": 2,
        "modified-win": 2,
        "true-tie": 1,
        "modified-loss": 0,
        "full-loss": 0,
    }
)
# Star Trek OP Guide 7.5.1: the results of a game actually played. Everything else
# (Bye, Earned Bye, Missed Game, and 13.5's Full Win or Full Loss against a Bye
# or Missed Game) is no game and is not rated.
PLAYED_PAIRS = frozenset(
    {
        ("full-win", "full-loss"),
        ("full-loss", "full-win"),
        ("modified-win", "modified-loss"),
        ("modified-loss", "modified-win"),
        ("true-tie", "true-tie"),
    }
)
#: A played game's outcomes -> the first seat's score in halves.
SCORE_OF_PAIR: Mapping[tuple[str, ...], int] = MappingProxyType({pair: GAME_SCORES[pair[0]] for pair in PLAYED_PAIRS})

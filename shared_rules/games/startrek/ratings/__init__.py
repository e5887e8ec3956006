"""Star Trek CCG player ratings (Star Trek CCG Organized Play Guide 5.1, Sections 1, 4, 7.5.1, 8, 11).

``compute_ratings(events)`` recomputes every player's constructed, sealed and
overall rating from a list of ``topcut-event/1`` documents (loaded
:class:`~shared_rules.event.model.Event` objects), oldest first, and each
event's change per player. ``settings.rating`` says how an event counts (see
``games.py``). Pure and deterministic: whole-number arithmetic only, so CPython
and Pyodide give the same ratings.

What the Guide says (cited in ``rules.py``): Elo ("based on the ELO system"),
a lifetime start of 1500, range 0-3000 (8); constructed, sealed and an overall
rating combining the two (8), per game: 1E, 2E and Tribbles each have their
own (1, 4.1); draft counts as sealed (4.1); only sanctioned events count and
a sanctioned event may be unrated (1); optional scenarios are unrated (4.4;
Public Play Testing 4.4.7), Biermeister also unsanctioned (4.4.8); Missed
Games from a drop or lateness do not count (7.5.1); k-values by level:
Level 2 (Regional) 28, Level 3 (National, Trek Masters) 40, Level 4
(Continental) 52, Level 5 (World) 64 (11.1.1-11.2.2).

Readings where the Guide is loose (the project's; the Guide has no formula
and no worked example of a rating):

- Expected score is Elo's: E = 1 / (1 + 10 ** ((Ropp - R) / 400)). The Guide
  names neither the curve nor the 400; it is Elo's standard scale.
- A game scores 1 for a Full or Modified Win, 1/2 for a True Tie (also the
  7.10 double game loss), 0 for a Full or Modified Loss. Byes, Earned Byes
  and Missed Games are not games; nor is 13.5's Full Win or Full Loss against
  a Bye or Missed Game (a game not played). Every 7.5.1 Missed Game comes
  from lateness or a drop (or, in match play, elimination: Appendix A), so
  none is rated.
- Per event, not per game: 8 rates a player on "each tournament match and
  the ratings of the opponents that were played during that specific
  tournament", and Appendix A processes a tournament as a whole. Every game
  of an event is scored against the ratings both players brought to it;
  the change is k x sum(score - expected), rounded once per event to a whole
  point (half away from zero), then the rating is held inside 0-3000. So
  the order of games inside an event cannot matter: the sums are whole
  numbers (expected scores in billionths), exact in any order, and a game
  gives its two players exactly opposite terms whichever seat is first.
- The overall rating "combining the two" is a third Elo rating fed by every
  rated game, constructed or sealed, with the event's k; it starts at 1500.
- Levels the Guide does not list (a local event, Level 1) have no k-value
  there: such an event needs ``settings.rating.k``; nothing is assumed.
- Match play (elimination rounds) counts like Swiss: each reported match is
  one game by its outcomes (Appendix A enters elimination results too).
- Tribbles pods (the Guide has no multi-player rule): a pod round of n
  players is every pairing of two of them, the higher round score winning
  (7.7 ranks by score; equal scores a tie), each pairing weighing 1/(n-1)
  of a game, so one round moves a rating about as much as one 1E/2E game.
- A person is ``players[].rating_id`` (e.g. a trekcc.org member id), else
  ``players[].id``, the same in every document.
"""

from __future__ import annotations

from .compute import compute_ratings
from .elo import clamp, event_change, expected
from .games import Rating, rated_games, rating_of
from .rules import CEILING, FLOOR, K_BY_LEVEL, SCALE, START

__all__ = [
    "compute_ratings",
    "expected",
    "event_change",
    "clamp",
    "rating_of",
    "rated_games",
    "Rating",
    "K_BY_LEVEL",
    "START",
    "FLOOR",
    "CEILING",
    "SCALE",
]

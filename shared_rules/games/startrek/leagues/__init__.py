"""World Championship Trek leagues (Star Trek CCG Organized Play Guide 5.1, Section 12).

``load_league(doc)`` reads a league document (``topcut-league/1``, see
docs/event-format-additions.md); ``league_table(league, events)`` computes,
from the league's events (loaded ``topcut-event/1`` documents, each with its
``id``), every event's league points (Table 12.4.1, ``league_points``), the
season and lifetime totals, the director's bonus points kept apart (12.5),
playoff qualification as announced and the playoff ranking by 12.6's seven
tiebreakers (``tiebreakers.py``), and the Champions League seeding (12.7).
Pure and deterministic: the coin flip is drawn from the league's ``seed``.

Readings where Section 12 is loose (the project's):

- Participants: every player of the event document (Appendix A: the
  director removes players who did not take part before entering results).
  Place: the event's final standings (Swiss, then the cut), unless the league
  document gives the event's ``places`` (12.4: formats with no clear places,
  places awarded by the League Director); a player not listed there earns
  nothing. An event of fewer than 3 players awards no points (12.4) but is
  still a league event attended.
- Places beyond 32nd, and the table's empty or "-" cells (e.g. 9th of 7,
  17th of 12), earn no points.
- A person is ``players[].game_id`` (older documents: ``rating_id``), else ``players[].id``, as for ratings.
- Playoff points (12.6): qualified players' league points from the playoff
  sprint's events, earned as usual against every participant (the events are
  open to all and "earn league points as usual"). A playoff tournament
  victory is 1st place at a playoff event. Season points include the playoff
  events' points (they are league points scored that season).
- Qualification (12.2, 12.6): at the end of each regular sprint, players
  are ranked by their season league points so far and the announced number
  qualifies; players already qualified are passed over, so each half adds
  that number ("the top four qualifiers (inclusive)"). The Guide gives no
  tiebreak here: the season table and qualification apply 12.6's keys that
  exist before the playoffs, in 12.6's order: season points, league events
  attended, lifetime points, coin flip. A director may instead list the
  qualified players as announced (``qualification.players``).
- Bonus points (12.5) are entered by the director per event and person; they
  appear only in ``bonus`` (league points + bonus for this league's own
  table) and never in season, lifetime, qualification or playoff figures.
- Lifetime points: the league document's ``lifetime`` (points before this
  season, from the trekcc.org hub) plus this season's league points.
- Champions League (12.7): players with at least 100 lifetime points (the
  ``champions_league.minimum``), plus any the director waives in, seeded by
  lifetime points; equal lifetime points are ordered by a draw from the seed.
- Schedules (12.2): ``standard`` is two regular sprints and a playoff
  sprint, ``truncated`` one regular sprint and a playoff sprint; a sprint
  with more events than the Guide plans (4, 4, 4 / 4, 2) gives a warning,
  not an error (scheduling is at the League Director's discretion).
"""

from __future__ import annotations

from .document import FORMAT, SCHEDULES, Bonus, League, LeagueEvent, Sprint, load_league
from .points import MINIMUM_PLAYERS, PLACE_BANDS, POINT_TABLE, league_points
from .table import LEAGUE_RULESETS, league_table
from .tiebreakers import PLAYOFF_RANKING, SEASON_RANKING, Record, get_metric, metric_keys, rank_records

__all__ = [
    "FORMAT",
    "SCHEDULES",
    "Bonus",
    "League",
    "LeagueEvent",
    "Sprint",
    "load_league",
    "MINIMUM_PLAYERS",
    "PLACE_BANDS",
    "POINT_TABLE",
    "league_points",
    "LEAGUE_RULESETS",
    "league_table",
    "PLAYOFF_RANKING",
    "SEASON_RANKING",
    "Record",
    "get_metric",
    "metric_keys",
    "rank_records",
]

"""``tribbles``: Tribbles CCG events (Star Trek CCG Organized Play Guide 5.1).

One document round is one Tribbles round (a hand) played by a pod of 4-8
players (3 when only three play: see ``SMALLEST_POD``); a pod stays together
for five rounds (7.2, 7.6). Each player's
``scores`` entry is the points they scored that round (7.5.2: Tribbles in the
play pile for whoever went out, plus Poison, Score, Tally and Bonus points);
a player's total score is the sum over their rounds.

Readings where the document is loose (the project's):

- ``win`` marks the player(s) who emptied their hand first (7.5.2 says
  "player or players": several may go out together), so a reported pod
  round needs at least one ``win``; a round ended because time expired
  (7.4: nobody scores for going out) is written with ``ending: "time"`` and
  has no ``win``.
- Scores are required on every reported pod round and may not be negative;
  a Head Start (Glossary) is simply part of the first round's score; a
  conceding player's recorded score is already capped (7.9, see
  ``shared_rules.games.startrek.scoring.tribbles_concession_score``).
- Ranking (7.7): total score, then rounds won, then a seeded random draw
  (the document's "cut for the highest Tribble"). Outcome points are 0, so
  the generic engine ranks correctly; the standings print the total score as
  ``points``. Appendix A's procedure for multi-table events on the trekcc.org
  system (finals ranked by table, then by rounds 6-10 only) is not applied:
  7.7 ranks by total score.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ...errors import DocumentError
from ...rulesets.base import Outcome, Policy, Ruleset
from ...standings.context import StandingsContext
from ...standings.engine import place_elimination, rank_swiss, standing_line, standings_from_order

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event

__all__ = [
    "OUTCOMES",
    "ENDINGS",
    "TIEBREAKERS",
    "REPORTED",
    "TIME_LIMITS",
    "POLICIES",
    "POD_SIZES",
    "SMALLEST_POD",
    "ROUNDS_PER_POD",
    "TribblesRuleset",
    "build",
]

DOCUMENT = "Star Trek CCG Organized Play Guide 5.1 (Tribbles)"

# Star Trek OP Guide 7.5.2: who emptied their hand first; points come from ``scores``.
OUTCOMES: tuple[Outcome, ...] = (Outcome("win", 0, "win"), Outcome("loss", 0, "loss"))
# Star Trek OP Guide 7.4: a round may end because time expired (no one scores for going out).
ENDINGS: tuple[str, ...] = ("normal", "time")
# Star Trek OP Guide 7.7: total score, then rounds won, then cut for the highest Tribble.
TIEBREAKERS: tuple[str, ...] = ("tribbles-score", "tribbles-rounds-won", "random")
REPORTED: tuple[tuple[str, str], ...] = (("score", "tribbles-score"), ("rounds_won", "tribbles-rounds-won"))
# Star Trek OP Guide 7.2: pods of four to eight players.
POD_SIZES: tuple[int, int] = (4, 8)
# Reading of Section 2 with 7.2: a sanctioned event needs "a minimum of three players", so a field of three
# plays as one pod of three (7.2's four to eight is how a larger field is split), and a pod that drops leave
# with three inside a five-round block plays on. Two players are no Tribbles pod.
SMALLEST_POD = 3
_POD_RULE = (
    "a Tribbles pod takes 4-8 players, or 3 when the field or drops leave only three "
    "(Star Trek OP Guide Section 2, 7.2)"
)
# Star Trek OP Guide 2, 7.6: five rounds per pod (and at least five rounds per event).
ROUNDS_PER_POD = 5
# Star Trek OP Guide 7.2, 13.3: minutes per match of five rounds.
TIME_LIMITS: Mapping[str, int] = MappingProxyType({"in-person": 60, "online": 70})

POLICIES: Mapping[str, Policy] = MappingProxyType(
    {
        "minimum-rounds": Policy("a sanctioned Tribbles event plays at least five rounds", "Star Trek OP Guide 2, 3"),
        "pods": Policy(
            "players split at random into pods of about equal size, 4-8 players; one scorekeeper each",
            "Star Trek OP Guide 7.2",
        ),
        "re-forming pods": Policy(
            "after five rounds, the best of each pod form the top pod, filled by the next "
            "highest scores; further pods by score",
            "Star Trek OP Guide 7.6",
        ),
        "time-called": Policy(
            "the round ends at once; hands go to the discard pile; nobody scores for going out, "
            "points already scored count",
            "Star Trek OP Guide 7.4",
        ),
        "concession": Policy(
            "the others play on; the conceder keeps their score, at most the highest remaining final score minus 1",
            "Star Trek OP Guide 7.9",
        ),
        "head-start": Policy(
            "an awarded head start is added to the first-round score", "Star Trek OP Guide Glossary, 11.1"
        ),
        "ranking": Policy(
            "total score, then most rounds won, then cut for the highest Tribble", "Star Trek OP Guide 7.7"
        ),
    }
)


class TribblesRuleset(Ruleset):
    """A Ruleset whose pod checks follow 7.2 and 7.5.2."""

    __slots__ = ()

    def check_outcomes(self, players: tuple[str, ...], outcomes: tuple[str, ...], path: str) -> None:
        if len(players) < SMALLEST_POD:
            raise DocumentError(path.rsplit(".", 1)[0] + ".players", f"{len(players)} players in a pod; {_POD_RULE}")


def _check_event(event: Event) -> None:
    """Pods of 4-8, scores on every reported round, one or more ``win`` unless time ended it."""
    for i, rnd in enumerate(event.rounds):
        for j, match in enumerate(rnd.matches):
            path = f"rounds[{i}].matches[{j}]"
            if len(match.players) < SMALLEST_POD:
                raise DocumentError(f"{path}.players", f"{len(match.players)} players in a pod; {_POD_RULE}")
            if match.outcomes is None:
                continue
            if match.scores is None:
                raise DocumentError(
                    f"{path}.scores", "a reported Tribbles round needs every player's points (Star Trek OP Guide 7.5.2)"
                )
            for k, score in enumerate(match.scores):
                if score < 0:
                    raise DocumentError(f"{path}.scores[{k}]", f"a Tribbles score cannot be negative, got {score}")
            wins = match.outcomes.count("win")
            if match.ending == "time" and wins:
                raise DocumentError(
                    f"{path}.outcomes", "a round ended by time has no 'win': nobody went out (Star Trek OP Guide 7.4)"
                )
            if match.ending != "time" and not wins:
                raise DocumentError(
                    f"{path}.outcomes",
                    "no player went out: mark who emptied their hand first "
                    "with 'win', or set ending 'time' (Star Trek OP Guide 7.4, 7.5.2)",
                )


def _standings(event: Event, ruleset: Ruleset) -> list[Any]:
    """The generic ranking; ``points`` printed as the total Tribbles score (7.5.2, 7.7).

    Pods, not a bracket (Star Trek OP Guide 7.6): no elimination match is decided by bracket rules.
    """
    ctx = StandingsContext(event, ruleset)
    lines = standings_from_order(ctx, place_elimination(event, rank_swiss(ctx), ruleset, bracket=None))
    score = ctx.metric("tribbles-score")
    # dataclasses.replace(line, points=...), without its per-field dispatch
    return [
        standing_line(
            line.rank, line.player, score[line.player], line.record, line.tiebreakers, line.dropped, line.extra
        )
        for line in lines
    ]


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The Tribbles ruleset.

    >>> build("tribbles", {}).match_sizes
    (3, 8)
    """
    return TribblesRuleset(
        id=ruleset_id,
        title="Tribbles CCG",
        document=DOCUMENT,
        outcomes=OUTCOMES,
        tiebreakers=TIEBREAKERS,
        match_sizes=(SMALLEST_POD, POD_SIZES[1]),
        endings=ENDINGS,
        policies=POLICIES,
        time_limits=TIME_LIMITS,
        standings_hook=_standings,
        event_check=_check_event,
        reported=REPORTED,
        settings=MappingProxyType(dict(settings)),
    )

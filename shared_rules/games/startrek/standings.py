"""Star Trek CCG tiebreakers (Star Trek OP Guide 5.1, 7.4.1, 7.4.2, 7.5.1, 7.7, Glossary).

Every Swiss round of the event counts for every player: a round with no
match for them in the document is a Missed Game (7.5.1; see the readings in
``shared_rules/rulesets/startrek.py``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...standings.context import Game, is_counted
from ...standings.metrics import GroupMetric, ValueMetric, register
from .scoring import LOSSES, NO_GAME, WINS, differential

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Match
    from ...standings.context import StandingsContext

__all__ = [
    "strength_of_schedule",
    "cumulative_victory_points",
    "round_keys",
    "games_by_round",
    "StarTrekSoS",
    "StarTrekDifferential",
    "StarTrekCVP",
    "StarTrekHeadToHead",
]


def strength_of_schedule(entries: Sequence[float]) -> float:
    """Sum of the opponents' final VP minus the single lowest (Star Trek OP Guide Glossary).

    >>> strength_of_schedule([13, 11, 6, 0])
    30
    """
    return sum(entries) - min(entries) if entries else 0


def cumulative_victory_points(round_vp: Sequence[float]) -> float:
    """Sum of the running VP totals after each round (Star Trek OP Guide 7.4.2).

    >>> cumulative_victory_points([4, 2, 4, 1])
    31
    """
    total: float = 0
    running: float = 0
    for vp in round_vp:
        running += vp
        total += running
    return total


def round_keys(ctx: StandingsContext) -> list[tuple[int, str]]:
    """The (number, stage) of every round the standings cover, in order."""
    keys = {
        (r.number, r.stage)
        for r in ctx.event.rounds
        if r.stage in ctx.stages and (ctx.through_round is None or r.number <= ctx.through_round)
    }
    return sorted(keys)


def games_by_round(ctx: StandingsContext, pid: str) -> dict[tuple[int, str], Game]:
    """The player's counted game of each round (a round missing here is a Missed Game)."""
    return dict(_games_by_round(ctx)[pid])


def _games_by_round(ctx: StandingsContext) -> dict[str, dict[tuple[int, str], Game]]:
    """:func:`games_by_round` of every player, built once per context (read-only)."""
    found = ctx.memo.get("startrek-games-by-round")
    if found is None:
        found = ctx.memo["startrek-games-by-round"] = {
            pid: {(g.round, g.stage): g for g in games} for pid, games in ctx.history.items()
        }
    return found


def _final_vp(ctx: StandingsContext) -> Mapping[str, float]:
    """Every entrant's VP over the covered rounds, also for players the context leaves out."""
    totals: Mapping[str, Any] = ctx.points  # ints or floats, as the points table adds them
    if len(totals) == len(ctx.event.players) and all(
        v.__class__ is float or (v.__class__ is int and -(2**53) < v < 2**53) for v in totals.values()
    ):
        # Every entrant is in the context, whose points add the same outcomes in the same order
        # (from 0 rather than 0.0: the same floats, and whole numbers below 2**53 are exact).
        return {pid: float(v) for pid, v in totals.items()}
    points = {o.key: o.points for o in ctx.ruleset.outcomes}
    vp = {p.id: 0.0 for p in ctx.event.players}
    for rnd in ctx.event.rounds:
        if rnd.stage not in ctx.stages or (ctx.through_round is not None and rnd.number > ctx.through_round):
            continue
        for match in rnd.matches:
            if is_counted(match):
                assert match.outcomes is not None
                for pid, outcome in zip(match.players, match.outcomes):
                    vp[pid] += points[outcome]
    return vp


def _rows(ctx: StandingsContext, pid: str) -> Iterator[tuple[int, str, str, Match, int]]:
    """(round, stage, outcome, match, seat) of each of the player's counted games, read from the context's
    columns: the fields of :class:`Game` these tiebreakers need, without building a game per seat."""
    return zip(ctx.round_numbers[pid], ctx.stages_of(pid), ctx.outcomes[pid], ctx.matches[pid], ctx.seats(pid))


def _opponent_outcome(game: Game) -> str | None:
    if not game.opponents or game.match.outcomes is None:
        return None
    return game.match.outcomes[1 - game.seat]


@register
class StarTrekSoS(ValueMetric):
    """Strength of Schedule (Star Trek OP Guide Glossary, 7.5.1)."""

    key = "startrek-sos"
    label = "Strength of Schedule"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        rounds = round_keys(ctx)
        vp = _final_vp(ctx)
        # Star Trek OP Guide 7.5.1: an Earned Bye counts as the maximum SoS possible —
        # read as an opponent with the most VP anyone can have: 4 VP every round.
        best = ctx.ruleset.max_points * len(rounds)
        slot = {key: i for i, key in enumerate(rounds)}
        out: dict[str, float] = {}
        for pid in ctx.players:
            # One entry per covered round, in order; a round's last game counts (as games_by_round keeps it).
            entries: list[float] = [0] * len(rounds)  # no game: a Missed Game faces nobody
            for number, stage, outcome, match, seat in _rows(ctx, pid):
                ids = match.players
                if outcome == "earned-bye":
                    entry = best
                elif outcome == "bye" or outcome == "missed-game" or len(ids) < 2:
                    entry = 0  # Glossary: a Bye is 0 VP; a Missed Game faces nobody.
                else:
                    entry = vp[ids[1] if seat == 0 else ids[0]]  # the first player across the table
                entries[slot[(number, stage)]] = entry
            out[pid] = strength_of_schedule(entries)
        return out


@register
class StarTrekDifferential(ValueMetric):
    """Sum of the per-game differentials (Star Trek OP Guide 7.4.1, 7.9, 7.10, 13.5)."""

    key = "startrek-differential"
    label = "Differential"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        edition = "1e" if ctx.ruleset.id.endswith("1e") else "2e"
        cap = int(ctx.ruleset.settings.get("differential_cap", 100))
        out: dict[str, float] = {}
        for pid in ctx.players:
            total: float = 0
            for _number, _stage, outcome, match, seat in _rows(ctx, pid):
                outcomes, scores = match.outcomes, match.scores
                against = 1 if seat == 0 else 0  # the first player across the table (Game.opponents[0])
                faced = len(match.players) > 1
                # _opponent_outcome inlined (a counted match has its outcomes)
                other = outcomes[1 - seat] if faced and outcomes is not None else None
                score = scores[seat] if scores else None
                opponent_score = scores[against] if scores and len(scores) > 1 else None
                if (
                    (match.ending is None or match.ending == "normal")
                    and score is not None
                    and opponent_score is not None
                    and other not in NO_GAME
                    and (outcome in WINS or outcome in LOSSES)
                ):
                    # The common case, a game played to its end, without differential()'s dispatch;
                    # played_margin() inlined: min(max(x, 0), cap) written out, the same values and types.
                    if outcome in WINS:
                        winner, loser = score, opponent_score
                    else:
                        winner, loser = opponent_score, score
                    winner = 0 if 0 > winner else winner
                    winner = cap if cap < winner else winner
                    loser = 0 if 0 > loser else loser
                    loser = cap if cap < loser else loser
                    margin = winner - loser
                    if not margin > 0:
                        margin = 1
                    if outcome in WINS:
                        total += margin
                    else:
                        total -= margin
                    continue
                total += differential(
                    outcome,
                    score,
                    opponent_score,
                    opponent_outcome=other,
                    ending=match.ending,
                    edition=edition,
                    cap=cap,
                )
            out[pid] = total
        return out


@register
class StarTrekCVP(ValueMetric):
    """Cumulative Victory Points: the running VP totals after each round, summed (7.4.2)."""

    key = "startrek-cvp"
    label = "Cumulative VP"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        rounds = round_keys(ctx)
        out: dict[str, float] = {}
        slot = {key: i for i, key in enumerate(rounds)}
        points_of = {o.key: o.points for o in ctx.ruleset.outcomes}  # Game.points
        for pid in ctx.players:
            # A round without a game is a Missed Game: 0 VP, the running total carries on (7.5.1).
            per_round: list[float] = [0] * len(rounds)
            for number, stage, outcome, _match, _seat in _rows(ctx, pid):
                per_round[slot[(number, stage)]] = points_of[outcome]
            out[pid] = cumulative_victory_points(per_round)
        return out


@register
class StarTrekHeadToHead(GroupMetric):
    """Exactly two tied players who played each other: the winner ranks higher (7.7, Glossary).

    A True Tie, a game not played, or no game between them leaves them tied.
    """

    key = "startrek-h2h"
    label = "Head-to-head"

    def split(self, ctx: StandingsContext, group: Sequence[str]) -> list[list[str]]:
        if len(group) != 2:
            return [list(group)]
        a, b = group
        score = 0
        for g in ctx.games(a):  # two players' games, built for them alone
            other = _opponent_outcome(g)
            if g.opponents != (b,) or other is None or other in NO_GAME:
                continue
            if g.outcome in WINS:
                score += 1
            elif g.outcome in LOSSES:
                score -= 1
        if score > 0:
            return [[a], [b]]
        if score < 0:
            return [[b], [a]]
        return [list(group)]

"""Per-player histories that every standings metric reads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, NamedTuple

from ..event.model import SWISS_STAGES, Event, Match, Player

if TYPE_CHECKING:  # pragma: no cover
    from ..rulesets.base import Ruleset

__all__ = ["Game", "StandingsContext", "is_counted"]


class Game(NamedTuple):
    """One player's view of one reported match (a named tuple: cheap to build by the thousand)."""

    round: int
    stage: str
    outcome: str
    points: float
    opponents: tuple[str, ...]
    score: float | None
    opponent_scores: tuple[float, ...]
    stats: Mapping[str, Any] | None
    opponent_stats: tuple[Mapping[str, Any], ...]
    match: Match
    seat: int

    @property
    def is_solo(self) -> bool:
        """A bye, a late loss or a missed game: nobody across the table."""
        return not self.opponents


def is_counted(match: Match) -> bool:
    """Whether a match's result counts: reported and not under dispute.

    >>> is_counted(Match(("a", "b"), ("win", "loss")))
    True
    """
    return match.outcomes is not None and not match.extra.get("disputed", False)


class StandingsContext:
    """The event seen through one ruleset, over some stages and rounds, with a metric cache."""

    def __init__(self, event: Event, ruleset: "Ruleset", stages: Collection[str] = SWISS_STAGES,
                 through_round: int | None = None,
                 include: Callable[[Player], bool] | None = None) -> None:
        self.event = event
        self.ruleset = ruleset
        self.stages = frozenset(stages)
        self.through_round = through_round
        self.players: dict[str, Player] = {p.id: p for p in event.players if include is None or include(p)}
        self.history: dict[str, list[Game]] = {pid: [] for pid in self.players}
        self.rounds_played: int = 0
        self._cache: dict[str, Mapping[str, Any]] = {}
        points_of = {o.key: o.points for o in ruleset.outcomes}
        numbers: set[int] = set()
        history = self.history
        no_scores: tuple[float, ...] = ()
        for rnd in event.rounds:
            if rnd.stage not in self.stages or (through_round is not None and rnd.number > through_round):
                continue
            numbers.add(rnd.number)
            number, stage = rnd.number, rnd.stage
            for match in rnd.matches:
                outcomes = match.outcomes
                if outcomes is None or match.extra.get("disputed", False):
                    continue
                ids = match.players
                scores, stats = match.scores, match.stats
                if len(ids) == 2:
                    a, b = ids
                    ga, gb = history.get(a), history.get(b)
                    if ga is not None:
                        ga.append(Game(number, stage, outcomes[0], points_of[outcomes[0]], (b,),
                                       scores[0] if scores else None, (scores[1],) if scores else no_scores,
                                       stats[0] if stats else None, (stats[1],) if stats else (), match, 0))
                    if gb is not None:
                        gb.append(Game(number, stage, outcomes[1], points_of[outcomes[1]], (a,),
                                       scores[1] if scores else None, (scores[0],) if scores else no_scores,
                                       stats[1] if stats else None, (stats[0],) if stats else (), match, 1))
                    continue
                for seat, pid in enumerate(ids):
                    games = history.get(pid)
                    if games is None:
                        continue
                    opp = tuple(s for s in range(len(ids)) if s != seat)
                    games.append(Game(
                        number, stage, outcomes[seat], points_of[outcomes[seat]],
                        tuple(ids[s] for s in opp),
                        scores[seat] if scores else None,
                        tuple(scores[s] for s in opp) if scores else no_scores,
                        stats[seat] if stats else None,
                        tuple(stats[s] for s in opp) if stats else (),
                        match, seat))
        self.rounds_played = len(numbers)
        self.points: dict[str, float] = {pid: sum(g.points for g in games) for pid, games in self.history.items()}

    def metric(self, key: str) -> Mapping[str, Any]:
        """The values of a registered value metric for every player (cached)."""
        found = self._cache.get(key)
        if found is None:
            from .metrics import get_metric

            found = get_metric(key).values(self)
            self._cache[key] = found
        return found

    def record(self, pid: str) -> tuple[int, int, int]:
        """Wins, losses and ties on the player's record.

        Counted per player seat, so a double loss is a loss for both.
        """
        w = l = t = 0
        omap = self.ruleset.outcome_map
        for g in self.history[pid]:
            result = omap[g.outcome].result
            if result == "win":
                w += 1
            elif result == "loss":
                l += 1
            else:
                t += 1
        return w, l, t

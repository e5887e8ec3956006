"""Per-player histories that every standings metric reads."""

from __future__ import annotations

import itertools
import operator
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ..event.model import SWISS_STAGES, Event, Match, Player
from .metrics import ValueMetric, get_metric

if TYPE_CHECKING:  # pragma: no cover
    from ..rulesets.base import Ruleset

__all__ = ["Game", "StandingsContext", "is_counted"]


_OUTCOME = operator.itemgetter(2)  # Game.outcome, for map()
_OPPONENTS = operator.itemgetter(4)  # Game.opponents
_chain = itertools.chain.from_iterable


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

    def __init__(
        self,
        event: Event,
        ruleset: Ruleset,
        stages: Collection[str] = SWISS_STAGES,
        through_round: int | None = None,
        include: Callable[[Player], bool] | None = None,
    ) -> None:
        self.event = event
        self.ruleset = ruleset
        self.stages = frozenset(stages)
        self.through_round = through_round
        self.players: dict[str, Player] = {p.id: p for p in event.players if include is None or include(p)}
        self.history: dict[str, list[Game]] = {pid: [] for pid in self.players}
        self.rounds_played: int = 0
        self._cache: dict[str, Mapping[str, Any]] = {}
        #: Free-form per-context memo for metric modules (derived tables built once per context).
        self.memo: dict[Any, Any] = {}
        #: Players with a game nobody else sat at (a bye, a late loss, a missed game): tables of one.
        self.solo: set[str] = set()
        outcome_map = ruleset.outcome_map
        points_of = {o.key: o.points for o in ruleset.outcomes}
        # Where each outcome counts on a W-L-T record: 0 win, 1 loss, 2 anything else (a tie).
        code = {key: 0 if o.result == "win" else 1 if o.result == "loss" else 2 for key, o in outcome_map.items()}
        numbers: set[int] = set()
        history = self.history
        points: dict[str, Any] = {pid: 0 for pid in history}
        #: Per player, filled in the same pass as the history: wins, losses and ties; every opponent
        #: across the table, once per game (players outside the context included), in history order
        #: (with tables of three or more, gathered from the history when first read instead).
        self._tally: dict[str, list[int]] = {pid: [0, 0, 0] for pid in history}
        self._faced: dict[str, list[str]] | None = {pid: [] for pid in history}
        pods = False
        faced = self._faced
        seats = {pid: (games, self._tally[pid], faced[pid]) for pid, games in history.items()}
        no_scores: tuple[float, ...] = ()
        new = tuple.__new__  # Game(...) through its Python __new__ is several times slower
        for rnd in event.rounds:
            if rnd.stage not in self.stages or (through_round is not None and rnd.number > through_round):
                continue
            numbers.add(rnd.number)
            number, stage = rnd.number, rnd.stage
            for match in rnd.matches:
                outcomes = match.outcomes
                if outcomes is None or (match.extra and match.extra.get("disputed", False)):
                    continue
                ids = match.players
                scores, stats = match.scores, match.stats
                if len(ids) == 2:
                    a, b = ids
                    sa, sb = seats.get(a), seats.get(b)
                    oa, ob = outcomes
                    if sa is not None:
                        sa[1][code[oa]] += 1
                        sa[2].append(b)
                    if sb is not None:
                        sb[1][code[ob]] += 1
                        sb[2].append(a)
                    if scores and not stats:  # scores only (Star Trek)
                        if sa is not None:
                            pa = points_of[oa]
                            points[a] += pa
                            sa[0].append(
                                new(Game, (number, stage, oa, pa, (b,), scores[0], (scores[1],), None, (), match, 0))
                            )
                        if sb is not None:
                            pb = points_of[ob]
                            points[b] += pb
                            sb[0].append(
                                new(Game, (number, stage, ob, pb, (a,), scores[1], (scores[0],), None, (), match, 1))
                            )
                        continue
                    if not scores and not stats:  # the common case, without the per-field tests
                        if sa is not None:
                            pa = points_of[oa]
                            points[a] += pa
                            sa[0].append(new(Game, (number, stage, oa, pa, (b,), None, no_scores, None, (), match, 0)))
                        if sb is not None:
                            pb = points_of[ob]
                            points[b] += pb
                            sb[0].append(new(Game, (number, stage, ob, pb, (a,), None, no_scores, None, (), match, 1)))
                        continue
                    if sa is not None:
                        pa = points_of[oa]
                        points[a] += pa
                        sa[0].append(
                            new(
                                Game,
                                (
                                    number,
                                    stage,
                                    oa,
                                    pa,
                                    (b,),
                                    scores[0] if scores else None,
                                    (scores[1],) if scores else no_scores,
                                    stats[0] if stats else None,
                                    (stats[1],) if stats else (),
                                    match,
                                    0,
                                ),
                            )
                        )
                    if sb is not None:
                        pb = points_of[ob]
                        points[b] += pb
                        sb[0].append(
                            new(
                                Game,
                                (
                                    number,
                                    stage,
                                    ob,
                                    pb,
                                    (a,),
                                    scores[1] if scores else None,
                                    (scores[0],) if scores else no_scores,
                                    stats[1] if stats else None,
                                    (stats[0],) if stats else (),
                                    match,
                                    1,
                                ),
                            )
                        )
                    continue
                if (
                    ids.__class__ is not tuple
                    or (scores and scores.__class__ is not tuple)
                    or (stats and stats.__class__ is not tuple)
                ):
                    self._add_table(match, number, stage, points_of, points, code)
                    continue
                if len(ids) == 1:
                    if ids[0] in history:
                        self.solo.add(ids[0])
                elif len(ids) > 2:
                    pods = True  # the opponents of larger tables are gathered only when read (faced())
                for seat, pid in enumerate(ids):  # a pod: tuples, whose slices are the same tuples
                    found = seats.get(pid)
                    if found is None:
                        continue
                    pts = points_of[outcomes[seat]]
                    points[pid] += pts
                    after = seat + 1  # everyone else at the table, in seat order
                    others = ids[:seat] + ids[after:]
                    found[1][code[outcomes[seat]]] += 1
                    found[0].append(
                        new(
                            Game,
                            (
                                number,
                                stage,
                                outcomes[seat],
                                pts,
                                others,
                                scores[seat] if scores else None,
                                scores[:seat] + scores[after:] if scores else no_scores,
                                stats[seat] if stats else None,
                                stats[:seat] + stats[after:] if stats else (),
                                match,
                                seat,
                            ),
                        )
                    )
        if pods:
            self._faced = None
        self.rounds_played = len(numbers)
        # sum() of an empty history is the int 0, as before; points accumulate in history order.
        self.points: dict[str, float] = points
        self._records: dict[str, tuple[int, int, int]] | None = None

    def _add_table(
        self,
        match: Match,
        number: int,
        stage: str,
        points_of: Mapping[str, Any],
        points: dict[str, Any],
        code: Mapping[str, int],
    ) -> None:
        """Each seat's game of a table of any size (players, scores or stats not given as tuples)."""
        ids, outcomes, scores, stats = match.players, match.outcomes, match.scores, match.stats
        assert outcomes is not None
        for seat, pid in enumerate(ids):
            games = self.history.get(pid)
            if games is None:
                continue
            if len(ids) == 1:
                self.solo.add(pid)
            opp = tuple(s for s in range(len(ids)) if s != seat)
            pts = points_of[outcomes[seat]]
            points[pid] += pts
            others = tuple(ids[s] for s in opp)
            self._tally[pid][code[outcomes[seat]]] += 1
            if self._faced is not None:
                self._faced[pid].extend(others)
            games.append(
                Game(
                    number,
                    stage,
                    outcomes[seat],
                    pts,
                    others,
                    scores[seat] if scores else None,
                    tuple(scores[s] for s in opp) if scores else (),
                    stats[seat] if stats else None,
                    tuple(stats[s] for s in opp) if stats else (),
                    match,
                    seat,
                )
            )

    def metric(self, key: str) -> Mapping[str, Any]:
        """The values of a registered value metric for every player (cached)."""
        found = self._cache.get(key)
        if found is None:
            found = cast(ValueMetric, get_metric(key)).values(self)
            self._cache[key] = found
        return found

    def record(self, pid: str) -> tuple[int, int, int]:
        """Wins, losses and ties on the player's record.

        Counted per player seat, so a double loss is a loss for both.
        """
        records = self._records
        if records is None:  # counted in the pass that built the history
            records = self._records = {player: (w, lost, t) for player, (w, lost, t) in self._tally.items()}
        return records[pid]

    def faced(self) -> Mapping[str, list[str]]:
        """Per player, every opponent across the table once per game in history order (outside players too)."""
        faced = self._faced
        if faced is None:  # tables of three or more: gathered from the history once
            faced = self._faced = {pid: list(_chain(map(_OPPONENTS, games))) for pid, games in self.history.items()}
        return faced

    def opponents_in_context(self, pid: str) -> list[str]:
        """Every opponent across the table within the context, once per game (cached)."""
        table = self.memo.get("opponents-in-context")
        if table is None:
            history = self.history
            known = history.__contains__
            table = self.memo["opponents-in-context"] = {}
            for player, opps in self.faced().items():  # gathered in the pass that built the history
                if not all(map(known, opps)):  # someone the context leaves out
                    opps = [opp for opp in opps if opp in history]
                table[player] = opps
        return cast(list[str], table[pid])

    def rounds_counted(self, not_played: Collection[str]) -> dict[str, int]:
        """Each player's games whose outcome is not in ``not_played`` (cached per set of outcomes)."""
        key = ("rounds-counted", frozenset(not_played))
        found = self.memo.get(key)
        if found is None:
            skip = key[1]
            found = self.memo[key] = {}
            skipped = skip.__contains__
            for player, games in self.history.items():
                found[player] = len(games) - sum(map(skipped, map(_OUTCOME, games)))
        return found

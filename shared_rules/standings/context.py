"""Per-player histories that every standings metric reads."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import reduce
from itertools import compress
from operator import add, mul
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from ..event.model import SWISS_STAGES, Event, Match, Player
from .metrics import ValueMetric, get_metric

if TYPE_CHECKING:  # pragma: no cover
    from ..rulesets.base import Ruleset

__all__ = ["Game", "StandingsContext", "is_counted", "reference_history"]


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


_TUPLE_OR_NONE = (tuple, type(None))


def _game_at(match: Match, seat: int, number: int, stage: str, points_of: Mapping[str, Any]) -> Game:
    """The game of one seat at a table of any size (a pod, a table of one, players given as a list)."""
    ids, scores, stats = match.players, match.scores, match.stats
    outcome = cast(tuple[str, ...], match.outcomes)[seat]
    after = seat + 1
    if ids.__class__ is tuple and scores.__class__ in _TUPLE_OR_NONE and stats.__class__ in _TUPLE_OR_NONE:
        # As loaded: tuples, whose slices are the same tuples.
        return tuple.__new__(
            Game,
            (
                number,
                stage,
                outcome,
                points_of[outcome],
                ids[:seat] + ids[after:],
                scores[seat] if scores else None,
                scores[:seat] + scores[after:] if scores else (),
                stats[seat] if stats else None,
                stats[:seat] + stats[after:] if stats else (),
                match,
                seat,
            ),
        )
    others = [s for s in range(len(ids)) if s != seat]
    return Game(
        number,
        stage,
        outcome,
        points_of[outcome],
        tuple(ids[s] for s in others),
        scores[seat] if scores else None,
        tuple(scores[s] for s in others) if scores else (),
        stats[seat] if stats else None,
        tuple(stats[s] for s in others) if stats else (),
        match,
        seat,
    )


def _seat_of(ids: Sequence[str], pid: str, start: int) -> int:
    """The first seat of ``pid`` at the table from ``start`` on (from the first seat if none is left)."""
    for seat in range(start, len(ids)):
        if ids[seat] == pid:
            return seat
    return list(ids).index(pid)


class StandingsContext:
    """The event seen through one ruleset, over some stages and rounds, with a metric cache.

    One pass over the matches fills per-player columns (round numbers, outcomes, tables, the W-L-T
    record, the opponents faced, points); the per-seat :class:`Game` history is built from them only
    when a metric first reads ``history`` or :meth:`games`.
    """

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
        self.rounds_played: int = 0
        self._cache: dict[str, Mapping[str, Any]] = {}
        #: Free-form per-context memo for metric modules (derived tables built once per context).
        self.memo: dict[Any, Any] = {}
        #: Players with a game nobody else sat at (a bye, a late loss, a missed game): tables of one.
        self.solo: set[str] = set()
        self._points_of = {o.key: o.points for o in ruleset.outcomes}
        # Each player counts their games per outcome (a slot per outcome key); the W-L-T record and the
        # points are read from those counts after the pass.
        keys = list(ruleset.outcome_map)
        code = {key: slot for slot, key in enumerate(keys)}
        included = [
            rnd
            for rnd in event.rounds
            if rnd.stage in self.stages and (through_round is None or rnd.number <= through_round)
        ]
        stage_names = {rnd.stage for rnd in included}
        #: The one stage of every counted game, or None when the rounds counted span several.
        self._stage: str | None = next(iter(stage_names)) if len(stage_names) == 1 else None
        several = self._stage is None
        players = self.players
        # Per player, one row per counted game, in history order (round by round, seat order within a table):
        #: the round number and outcome of each row,
        self.round_numbers: dict[str, list[int]] = {pid: [] for pid in players}
        self.outcomes: dict[str, list[str]] = {pid: [] for pid in players}
        #: its match, and (rounds of several stages) its stage;
        self.matches: dict[str, list[Match]] = {pid: [] for pid in players}
        self._stages: dict[str, list[str]] = {pid: [] for pid in players} if several else {}
        #: wins, losses and ties; every opponent across the table, once per game (players outside the
        #: context included).
        counts: dict[str, list[int]] = {pid: [0] * len(keys) for pid in players}
        self._faced: dict[str, list[str]] = {pid: [] for pid in players}
        no_stages: list[str] = []
        seats = {
            pid: (
                counts[pid],
                self._faced[pid],
                self.round_numbers[pid],
                self.outcomes[pid],
                self.matches[pid],
                self._stages[pid] if several else no_stages,  # appended to only with several stages
            )
            for pid in players
        }
        self._history: dict[str, list[Game]] | None = None
        self._games: dict[str, list[Game]] = {}
        for rnd in included:
            number, stage = rnd.number, rnd.stage
            for match in rnd.matches:
                outcomes = match.outcomes
                if outcomes is None or (match.extra and match.extra.get("disputed", False)):
                    continue
                ids = match.players
                if len(ids) == 2:  # the two seats written out: this is the hot loop of every ranking
                    a, b = ids
                    oa, ob = outcomes
                    sa = seats.get(a)
                    if sa is not None:
                        sa[0][code[oa]] += 1
                        sa[1].append(b)
                        sa[2].append(number)
                        sa[3].append(oa)
                        sa[4].append(match)
                        if several:
                            sa[5].append(stage)
                    sb = seats.get(b)
                    if sb is not None:
                        sb[0][code[ob]] += 1
                        sb[1].append(a)
                        sb[2].append(number)
                        sb[3].append(ob)
                        sb[4].append(match)
                        if several:
                            sb[5].append(stage)
                    continue
                if len(ids) == 1 and ids[0] in players:
                    self.solo.add(ids[0])
                for seat, pid in enumerate(ids):  # a table of one or a pod
                    found = seats.get(pid)
                    if found is None:
                        continue
                    outcome = outcomes[seat]
                    found[0][code[outcome]] += 1
                    found[1].extend(ids[:seat] + ids[seat + 1 :])  # everyone else, in seat order
                    found[2].append(number)
                    found[3].append(outcome)
                    found[4].append(match)
                    if several:
                        found[5].append(stage)
        self.rounds_played = len({rnd.number for rnd in included})
        self.points: dict[str, float] = {}
        self._tally: dict[str, tuple[int, int, int]] = {}
        self._count_up(counts, keys)
        self._records: dict[str, tuple[int, int, int]] | None = None

    def _count_up(self, counts: Mapping[str, list[int]], keys: list[str]) -> None:
        """Each player's W-L-T record and points from their games per outcome (``counts``, a slot per key)."""
        outcome_map, points_of = self.ruleset.outcome_map, self._points_of
        wins = [outcome_map[key].result == "win" for key in keys]
        losses = [outcome_map[key].result == "loss" for key in keys]  # anything else is a tie
        values = [points_of.get(key) for key in keys]
        # Whole points add up to the same total in any order; others are added one by one in history
        # order from the int 0 (an outcome without points fails there, as it did).
        whole = all(value.__class__ is int for value in values)
        tally, points = self._tally, self.points
        for pid, counted in counts.items():
            won, lost = sum(compress(counted, wins)), sum(compress(counted, losses))
            tally[pid] = (won, lost, sum(counted) - won - lost)
            if whole:
                points[pid] = sum(map(mul, counted, values))
            else:
                points[pid] = reduce(add, map(points_of.__getitem__, self.outcomes[pid]), 0)

    @property
    def history(self) -> dict[str, list[Game]]:
        """Per player, a :class:`Game` for each counted game, in round order (built on first read)."""
        found = self._history
        if found is None:
            # Each player's games from the columns; no ruleset's standings read every player's (the tests say so).
            found = self._history = {pid: self.games(pid) for pid in self.players}
        return found

    def games(self, pid: str) -> list[Game]:
        """One player's :class:`Game` list (``history[pid]``), built from the columns on first read."""
        found = self._games.get(pid)
        if found is None:
            found = self._games[pid] = self._build_games(pid)
        return found

    def stages_of(self, pid: str) -> list[str]:
        """The stage of each of the player's rows (``Game.stage``), without building games."""
        found = self._stages.get(pid)
        if found is not None:
            return found
        return [cast(str, self._stage)] * len(self.round_numbers[pid])  # one stage counted

    def seats(self, pid: str) -> list[int]:
        """The player's seat at the table of each of their rows (``Game.seat``), without building games."""
        out = []
        previous: Match | None = None
        seat = -1
        for match in self.matches[pid]:
            ids = match.players
            # Seated twice at one table (never in a loaded document): consecutive rows, the next seat.
            seat = _seat_of(ids, pid, seat + 1) if match is previous else ids.index(pid)
            previous = match
            out.append(seat)
        return out

    def _build_games(self, pid: str) -> list[Game]:
        """The player's games from their rows: round, stage, outcome, and the seat found at the table."""
        points_of = self._points_of
        stages = self._stages.get(pid)
        new = tuple.__new__  # Game(...) through its Python __new__ is several times slower
        out: list[Game] = []
        append = out.append
        previous: Match | None = None
        seat = -1
        for number, outcome, match, stage in zip(
            self.round_numbers[pid],
            self.outcomes[pid],
            self.matches[pid],
            stages if stages is not None else itertools.repeat(self._stage),
        ):
            ids, scores, stats = match.players, match.scores, match.stats
            if match is previous:  # seated twice at one table (never in a loaded document): the next seat
                seat = _seat_of(ids, pid, seat + 1)
            elif len(ids) == 2:
                seat = 0 if ids[0] == pid else 1
            else:
                seat = ids.index(pid)
            previous = match
            if len(ids) == 2:
                other = 1 - seat
                append(
                    new(
                        Game,
                        (
                            number,
                            stage,
                            outcome,
                            points_of[outcome],
                            (ids[other],),
                            scores[seat] if scores else None,
                            (scores[other],) if scores else (),
                            stats[seat] if stats else None,
                            (stats[other],) if stats else (),
                            match,
                            seat,
                        ),
                    )
                )
                continue
            append(_game_at(match, seat, number, cast(str, stage), points_of))
        return out

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
        if records is None:  # counted in the pass over the matches
            records = self._records = self._tally
        return records[pid]

    def records(self) -> Mapping[str, tuple[int, int, int]]:
        """Every player's :meth:`record`."""
        if self._records is None:
            self._records = self._tally
        return self._records

    def faced(self) -> Mapping[str, list[str]]:
        """Per player, every opponent across the table once per game in history order (outside players too)."""
        return self._faced

    def opponents_in_context(self, pid: str) -> list[str]:
        """Every opponent across the table within the context, once per game (cached)."""
        table = self.memo.get("opponents-in-context")
        if table is None:
            players = self.players
            known = players.__contains__
            table = self.memo["opponents-in-context"] = {}
            for player, opps in self._faced.items():  # gathered in the pass over the matches
                if not all(map(known, opps)):  # someone the context leaves out
                    opps = [opp for opp in opps if opp in players]
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
            for player, outcomes in self.outcomes.items():
                found[player] = len(outcomes) - sum(map(skipped, outcomes))
        return found


def reference_history(ctx: StandingsContext) -> dict[str, list[Game]]:
    """Per player, a :class:`Game` per seat walked match by match: the reference ``history`` must equal."""
    points_of = {o.key: o.points for o in ctx.ruleset.outcomes}
    history: dict[str, list[Game]] = {pid: [] for pid in ctx.players}
    through = ctx.through_round
    for rnd in ctx.event.rounds:
        if rnd.stage not in ctx.stages or (through is not None and rnd.number > through):
            continue
        for match in rnd.matches:
            if not is_counted(match):
                continue
            ids, outcomes, scores, stats = match.players, match.outcomes, match.scores, match.stats
            assert outcomes is not None
            for seat, pid in enumerate(ids):
                games = history.get(pid)
                if games is None:
                    continue
                opp = [s for s in range(len(ids)) if s != seat]
                games.append(
                    Game(
                        rnd.number,
                        rnd.stage,
                        outcomes[seat],
                        points_of[outcomes[seat]],
                        tuple(ids[s] for s in opp),
                        scores[seat] if scores else None,
                        tuple(scores[s] for s in opp) if scores else (),
                        stats[seat] if stats else None,
                        tuple(stats[s] for s in opp) if stats else (),
                        match,
                        seat,
                    )
                )
    return history

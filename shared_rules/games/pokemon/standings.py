"""Pokémon tiebreakers (Pokémon TOP 3.1.4.1, as RULES.md "Decision — match TOM" reads it).

Keys: ``pokemon-win-pct`` (a player's own win %), ``owp``, ``oowp``,
``pokemon-tardiness``, ``pokemon-h2h`` and ``pokemon-last-opponent``.
Everything is computed exactly (in integers: win % as numerators over one
common denominator, rounded values as ``k / 10 ** s``; :func:`tiebreakers`
gives them as fractions); OWP and OOWP are then rounded to four significant
figures of the percentage, half to even, and printed as the nearest float
(0.5833 for 58.33 %).

Readings (the ruleset docstring in ``shared_rules/rulesets/pokemon.py`` lists
them all; these are the ones this module implements):

- Win % = wins / rounds, a tie counting half a win. Rounds are the rounds the
  player has a result in, so a completed player divides by the rounds of the
  event and a dropped player by the rounds they took part in (3.1.4.1). A late
  player's ``late`` loss is a lost round. A normal bye is left out entirely
  (3.1, 3.1.4.1: "not considered at all"); an earned bye (``"earned": true`` on
  the match, an ``earned-bye`` outcome, or a bye in the player's opening rounds
  1..``earned_byes``) is a won round and adds a 100 % opponent to the player's
  OWP (not to their OOWP). A later unflagged bye of a player with earned byes
  is a random bye like any other. No rounds at all gives 0, raised to 25 %.
- Late players (3.1.3: "will receive losses for all of the rounds that have
  already started"): a late player (``late`` set) whose document has no row
  for some day-one Swiss rounds of their pod (the whole event without pods)
  played before their first row gets a ``late`` loss for each of them
  (:func:`late_losses`): a lost round in win %, in the cap's round count and in
  the W-L-T record (0 points), exactly as if the rows were written — which is
  what the reducer writes when a late player registers, so both documents give
  the same standings. Rejecting such a document instead would stop the
  organizer's standings for a row the rules already determine; ignoring the
  rounds would silently inflate the player's win % and their opponents' OWP.
- Floor 25 % for everyone; cap 75 % only for a dropped player who has a result
  in fewer rounds (byes included) than the Swiss rounds their pod plans.
- OWP = mean of the opponents' win %, OOWP = mean of the opponents' OWP as
  rounded (the figure TOM prints); 0 without opponents; a repeated opponent
  counts once per match. Only the OWP and OOWP are rounded, never win %.
- A dropped player's OWP and OOWP are frozen at the round they dropped: they
  are computed over the rounds up to that one, and the frozen OWP is also what
  their opponents average into OOWP.
- Day two (``swiss-day2``): OWP/OOWP are not carried over (3.1.4.1), so a
  player who played on day two gets win %, OWP and OOWP computed over the
  day-two rounds alone (opponents' win % over day two too); everybody else
  over day one. Match points carry over.
- Head-to-head applies when exactly two players are tied ("If two players are
  tied ... and played each other"): more wins against the other ranks higher.
- Standing of the last opponent: the last opponent is the opponent of the
  player's latest Swiss match that had one (byes and late losses skipped).
  "Standing" is the place (the first place of its tie group) the opponent
  holds in its own division's standings by every earlier tiebreaker. Players
  whose last opponents hold the same place stay tied; the places are then
  recomputed with the new splits and applied again until nothing changes —
  this is how "it goes through all of the previous tiebreakers for the last
  opponents" recursively. A player without any opponent ranks below the others
  of the tie. What is still tied keeps roster order (RULES.md Decision).
"""

from __future__ import annotations

import itertools
import math
import operator
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import accumulate
from typing import TYPE_CHECKING, NamedTuple, cast

from ...event.model import Match
from ...standings.context import Game, is_counted
from ...standings.engine import order_groups
from ...standings.metrics import GroupMetric, ValueMetric, get_metric, register

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event, Player
    from ...standings.context import StandingsContext

__all__ = [
    "WIN_FLOOR",
    "DROPPED_CAP",
    "SIGNIFICANT_FIGURES",
    "DAY_ONE",
    "DAY_TWO",
    "PRE_LAST_OPPONENT",
    "PokemonTiebreakers",
    "round_significant",
    "round_significant_int",
    "floor_log10",
    "win_percentage",
    "tiebreakers",
    "phase_of",
    "last_opponents",
    "swiss_groups",
    "refine_by_last_opponent",
    "rank_universes",
    "late_losses",
    "implied_late_record",
    "elimination_depth",
    "WinPercentage",
    "OpponentsWinPercentage",
    "OpponentsOpponentsWinPercentage",
    "Tardiness",
    "HeadToHead",
    "LastOpponent",
]

#: Pokémon TOP 3.1.4.1: "the minimum win percentage that ANY player can have is 25%".
WIN_FLOOR = Fraction(1, 4)
#: Pokémon TOP 3.1.4.1: a dropped player's "maximum win percentage of 75%".
DROPPED_CAP = Fraction(3, 4)
#: RULES.md Decision: OWP and OOWP are rounded to 4 significant figures (half-even).
SIGNIFICANT_FIGURES = 4
#: Stage sets: Pokémon TOP 3.1.4.1, day-one OWP/OOWP are not carried to day two.
DAY_ONE = "swiss"
DAY_TWO = "swiss-day2"
#: Keys that rank players before the last-opponent tiebreaker (Pokémon TOP 3.1.4.1).
PRE_LAST_OPPONENT: tuple[str, ...] = ("points", "pokemon-tardiness", "owp", "oowp", "pokemon-h2h")

_EARNED_OUTCOMES = frozenset({"earned-bye"})


def round_significant(value: Fraction, figures: int = SIGNIFICANT_FIGURES) -> Fraction:
    """A fraction rounded half-even to ``figures`` significant figures of its percentage.

    >>> round_significant(Fraction(7, 12))
    Fraction(5833, 10000)
    >>> [float(round_significant(Fraction(n, 100000))) for n in (58325, 58335)]  # half to even
    [0.5832, 0.5834]
    >>> round_significant(Fraction(0)), round_significant(Fraction(1))
    (Fraction(0, 1), Fraction(1, 1))
    """
    k, s = round_significant_int(value.numerator, value.denominator, figures)
    return Fraction(k, _pow10(s))


_POW10 = [10**i for i in range(40)]
#: Between 10 % and 100 %, the rounded figure is percent * 10 ** (figures - 2), i.e. k / 10 ** figures.
_FIGURES_UP = 10 ** (SIGNIFICANT_FIGURES - 2)


def _pow10(n: int) -> int:
    return _POW10[n] if n < 40 else int(10**n)


def floor_log10(num: int, den: int) -> int:
    """The largest ``e`` with ``10 ** e <= num / den`` (both positive), with integers only.

    >>> floor_log10(1, 1), floor_log10(99, 1), floor_log10(100, 1), floor_log10(1, 1000), floor_log10(999, 1000)
    (0, 1, 2, -3, -1)
    """
    e = (num.bit_length() - den.bit_length()) * 3 // 10  # log10(2) ~ 0.301: off by at most one or two
    while not (num >= den * _pow10(e) if e >= 0 else num * _pow10(-e) >= den):
        e -= 1
    while num >= den * _pow10(e + 1) if e + 1 >= 0 else num * _pow10(-e - 1) >= den:
        e += 1
    return e


def round_significant_int(num: int, den: int, figures: int = SIGNIFICANT_FIGURES) -> tuple[int, int]:
    """:func:`round_significant` of ``num / den`` (``den`` > 0) as ``(k, s)``: the value ``k / 10 ** s``.

    Integers only (half to even); ``s`` is never negative; 0 or less gives ``(0, 0)``.

    >>> round_significant_int(7, 12), round_significant_int(58325, 100000), round_significant_int(58335, 100000)
    ((5833, 4), (5832, 4), (5834, 4))
    >>> round_significant_int(1, 1), round_significant_int(1, 30000), round_significant_int(-1, 2)
    ((1000, 3), (3333, 8), (0, 0))
    """
    if num <= 0:
        return 0, 0
    percent = num * 100
    if den * 10 <= percent < den * 100:  # 10 % to 100 % (every OWP above the 25 % floor): two digits
        t = figures - 2
    else:
        t = figures - 1 - floor_log10(percent, den)  # the rounded figure is percent * 10 ** t
    if t >= 0:
        qn, qd = percent * _pow10(t), den
    else:
        qn, qd = percent, den * _pow10(-t)
    k, r = divmod(qn, qd)
    r += r
    if r > qd or (r == qd and k & 1):
        k += 1
    s = t + 2  # k * 10 ** -t percent = k / 10 ** (t + 2)
    if s < 0:
        return k * _pow10(-s), 0
    return k, s


@dataclass(frozen=True, slots=True)
class PokemonTiebreakers:
    """One player's exact win %, OWP and OOWP over the Swiss rounds of their phase."""

    win: Fraction
    owp: Fraction
    oowp: Fraction


def win_percentage(wins: Fraction | int, rounds: int, capped: bool = False) -> Fraction:
    """Pokémon TOP 3.1.4.1: wins / rounds, at least 25 %, at most 75 % when ``capped``.

    >>> win_percentage(3, 5), win_percentage(0, 5), win_percentage(0, 1, True), win_percentage(1, 1, True)
    (Fraction(3, 5), Fraction(1, 4), Fraction(1, 4), Fraction(3, 4))
    """
    rate = Fraction(wins) / rounds if rounds else Fraction(0)
    return min(DROPPED_CAP if capped else Fraction(1), max(WIN_FLOOR, rate))


# ---------- the per-player view of one phase ----------


def phase_of(ctx: StandingsContext) -> dict[str, str]:
    """The stage whose rounds set each player's tiebreakers: day two if they played on it.

    Pokémon TOP 3.1.4.1: day-one OWP/OOWP are not carried over to day two.
    """
    found = ctx.memo.get("pokemon-phase")
    if found is None:
        found = ctx.memo["pokemon-phase"] = {}
        day_two = DAY_TWO in ctx.stages and any(r.stage == DAY_TWO for r in ctx.event.rounds)
        for pid in ctx.players:
            found[pid] = DAY_TWO if day_two and DAY_TWO in ctx.stages_of(pid) else DAY_ONE
    return dict(found)


def _earned_rounds(ctx: StandingsContext) -> set[tuple[str, int]]:
    """(player, round) of every earned bye (RULES.md Decision).

    A bye is earned when the match says so (``"earned": true``, an
    ``earned-bye`` outcome) or when it falls in the opening rounds
    1..``earned_byes`` of the player; any other bye is a random bye, "not
    considered at all" (Pokémon TOP 3.1.4.1), even for a player with earned byes.
    """
    earned: set[tuple[str, int]] = set()
    results = {o.key: o.result for o in ctx.ruleset.outcomes}
    players = ctx.players
    for pid in ctx.solo:  # the players with a game without opponents: the only ones with byes
        allowance = players[pid].earned_byes
        for g in ctx.games(pid):
            if g.opponents or results[g.outcome] != "win":
                continue
            if g.round <= allowance or g.match.extra.get("earned") is True or g.outcome in _EARNED_OUTCOMES:
                earned.add((pid, g.round))
    return earned


_FIRST = operator.itemgetter(0)
_SECOND = operator.itemgetter(1)
# Game fields by position (C-level getters for map()).
_ROUND_OF = operator.itemgetter(0)
_OUTCOME = operator.itemgetter(2)
_OPPONENTS = operator.itemgetter(4)
_LAST = operator.itemgetter(-1)
_THIRD = operator.itemgetter(2)
_ENTRY = operator.attrgetter("entry")
_chain = itertools.chain.from_iterable
repeat = itertools.repeat


def _planned_rounds(ctx: StandingsContext, stage: str) -> dict[str, int]:
    """Swiss rounds each player's pod plans in one stage (for the 75 % cap).

    ``settings.rounds_by_pod[pod]``, else ``settings.rounds`` (day one of an
    event without day-two rounds), and never fewer than the rounds of that
    stage in which the pod has a match.
    """
    event = ctx.event
    pod = {p.id: str(p.extra.get("pod", "")) if p.extra else "" for p in event.players}
    paired: dict[str, set[int]] = {}
    podded = any(pod.values())
    for rnd in event.rounds:
        if rnd.stage != stage:
            continue
        if not podded:  # one pod (""): every round with a match
            if rnd.matches and any(m.players for m in rnd.matches):
                paired.setdefault("", set()).add(rnd.number)
            continue
        for match in rnd.matches:
            for pid in match.players:
                paired.setdefault(pod.get(pid, ""), set()).add(rnd.number)
    has_day_two = any(r.stage == DAY_TWO for r in event.rounds)
    by_pod = event.settings.get("rounds_by_pod")
    total = event.settings.get("rounds")

    def planned_in(name: str) -> int:
        planned = len(paired.get(name, ()))
        if stage == DAY_ONE and not has_day_two:
            if isinstance(by_pod, Mapping) and isinstance(by_pod.get(name), int):
                planned = max(planned, by_pod[name])
            elif isinstance(total, int) and not isinstance(total, bool):
                planned = max(planned, total)
        return planned

    if not podded:  # one pod (""): the same figure for everyone
        return dict.fromkeys(ctx.players, planned_in(""))
    return {pid: planned_in(pod[pid]) for pid in ctx.players}


def late_losses(ctx: StandingsContext) -> dict[str, tuple[int, ...]]:
    """The ``late`` losses a late player is missing in the document, by player (Pokémon TOP 3.1.3).

    A late player "will receive losses for all of the rounds that have already
    started": every day-one Swiss round of the player's pod (the whole event
    without pods) that comes before the player's first row in the document (a
    match or a ``late`` loss, reported or not, in any stage), up to their drop
    and the context's last round, counts as a ``late`` loss. Only late players
    (``late`` set) get them, and only for rounds without a row: a document
    with the rows (as the reducer writes them) and one without give the same
    standings. Cached per context.

    >>> from shared_rules.run import load_event
    >>> from shared_rules.games import get_ruleset
    >>> from shared_rules.standings.context import StandingsContext
    >>> ev = load_event({"ruleset": "pokemon-tcg", "players": [{"id": "a", "entry": 1}, {"id": "b", "entry": 2},
    ...     {"id": "c", "entry": 3, "late": True}],
    ...     "rounds": [{"number": 1, "matches": [{"players": ["a", "b"], "outcomes": ["win", "loss"]}]},
    ...                {"number": 2, "matches": [{"players": ["a", "c"], "outcomes": ["win", "loss"]},
    ...                                          {"players": ["b"], "outcomes": ["bye"]}]}]})
    >>> late_losses(StandingsContext(ev, get_ruleset("pokemon-tcg")))
    {'c': (1,)}
    """
    found = ctx.memo.get("pokemon-late-losses")
    if found is not None:
        return cast(dict[str, tuple[int, ...]], found)
    found = ctx.memo["pokemon-late-losses"] = {}
    late = [p for p in ctx.players.values() if p.late]
    if not late or DAY_ONE not in ctx.stages or "late" not in ctx.ruleset.outcome_keys:
        return found
    event, through = ctx.event, ctx.through_round
    podded = any(p.extra.get("pod") for p in event.players if p.extra)

    def pod_of(player: Player) -> str:
        return str(player.extra.get("pod", "")) if podded and player.extra else ""

    pods = {pod_of(p) for p in late}
    pod = {p.id: pod_of(p) for p in event.players} if podded else {}
    paired: dict[str, set[int]] = {}  # pod -> day-one rounds with a match of that pod
    for rnd in event.rounds:
        if rnd.stage != DAY_ONE or (through is not None and rnd.number > through):
            continue
        for match in rnd.matches:
            if not match.players:
                continue
            if not podded:
                paired.setdefault("", set()).add(rnd.number)
                break
            for pid in match.players:
                paired.setdefault(pod.get(pid, ""), set()).add(rnd.number)
    first_of_pod = {name: min(paired[name]) for name in pods if name in paired}
    # The earliest reported row is an upper bound on the first row: most late players have one in the first round.
    numbers = ctx.round_numbers
    open_players = {}
    for p in late:
        start = first_of_pod.get(pod_of(p))
        if start is None:
            continue
        played = numbers.get(p.id)
        if played and min(played) <= start:
            continue
        open_players[p.id] = p
    if not open_players:
        return found
    first: dict[str, int] = {}
    for rnd in event.rounds:
        number = rnd.number
        for match in rnd.matches:
            for pid in match.players:
                if pid in open_players and first.get(pid, number + 1) > number:
                    first[pid] = number
    for pid, p in open_players.items():
        before = first.get(pid)
        rounds = tuple(
            sorted(
                r
                for r in paired.get(pod_of(p), ())
                if (before is None or r < before) and (p.dropped_after is None or r <= p.dropped_after)
            )
        )
        if rounds:
            found[pid] = rounds
    return found


def _history(ctx: StandingsContext) -> Mapping[str, list[Game]]:
    """``ctx.history`` with every missing late loss (:func:`late_losses`) added as a ``late`` game."""
    implied = late_losses(ctx)
    if not implied:
        return ctx.history
    found = ctx.memo.get("pokemon-history")
    if found is None:
        found = dict(ctx.history)
        for pid, rounds in implied.items():
            found[pid] = _with_late_losses(ctx, pid, rounds, found[pid])
        ctx.memo["pokemon-history"] = found
    return found


def _with_late_losses(ctx: StandingsContext, pid: str, rounds: Sequence[int], games: list[Game]) -> list[Game]:
    """The player's games with a ``late`` loss for each of ``rounds``, by round (Pokémon TOP 3.1.3)."""
    points = ctx.ruleset.outcome("late").points
    match = Match((pid,), ("late",), extra={"implied": True})
    late = [Game(r, DAY_ONE, "late", points, (), None, (), None, (), match, 0) for r in rounds]
    return sorted(late + games, key=_ROUND_OF)


def _games(ctx: StandingsContext, pid: str) -> list[Game]:
    """One player's ``_history(ctx)[pid]``, built for that player alone (cached per context)."""
    rounds = late_losses(ctx).get(pid)
    if not rounds:
        return ctx.games(pid)
    memo = ctx.memo.setdefault("pokemon-games", {})
    found = memo.get(pid)
    if found is None:
        found = memo[pid] = _with_late_losses(ctx, pid, rounds, ctx.games(pid))
    return cast(list[Game], found)


def implied_late_record(ctx: StandingsContext, pid: str) -> tuple[int, int, int]:
    """``ctx.record(pid)`` with the player's missing late losses (:func:`late_losses`) added."""
    wins, losses, ties = ctx.record(pid)
    return wins, losses + len(late_losses(ctx).get(pid, ())), ties


#: (k, s): the value k / 10 ** s — how rounded OWP and OOWP are kept.
_Rounded = tuple[int, int]


def _common_scale(values: Mapping[str, _Rounded]) -> tuple[dict[str, int], int]:
    """Rounded values as numerators over one power of ten ``10 ** S``; returns (numerators, S)."""
    scales = list(map(_SECOND, values.values()))
    top = max(scales, default=0)
    if min(scales, default=0) == top:  # one scale already (the common case): the numerators as they are
        return dict(zip(values, map(_FIRST, values.values()))), top
    return {pid: k * _pow10(top - s) for pid, (k, s) in values.items()}, top


class _Prefix(NamedTuple):
    """One player's games of the phase (by round) summed up: entry ``k`` of each running total covers the first ``k``."""

    rounds: list[int]  # each row's round
    half: list[int]  # half wins in the rounds counted
    counted: list[int]  # rounds counted (a random bye is not)
    earned: list[int]  # earned byes
    offsets: list[int]  # how many of ``flat`` the first k rows' opponents are
    flat: list[str]  # every row's opponents, in row order


class _Phase:
    """Win %, OWP and OOWP over the rounds of one stage, with drops frozen.

    Exact, in integers: win % as numerators over one denominator per pass,
    rounded OWP/OOWP as ``(k, s)`` = ``k / 10 ** s``. The pass over every
    round uses per-player totals; a pass up to a drop walks the games by round.
    """

    def __init__(self, ctx: StandingsContext, stage: str, earned: set[tuple[str, int]], fast: bool = True) -> None:
        """Per-player totals of the stage; ``fast`` false walks every game (the reference the tests compare)."""
        self.ctx = ctx
        self.stage = stage
        self.earned = earned
        results = {o.key: o.result for o in ctx.ruleset.outcomes}
        self.half_wins_of = {key: 2 if r == "win" else 1 if r == "tie" else 0 for key, r in results.items()}
        self.won = {key: r == "win" for key, r in results.items()}
        self.single = not any(r.stage != stage and r.stage in ctx.stages for r in ctx.event.rounds)
        half_wins_of, won, single = self.half_wins_of, self.won, self.single
        has_earned = bool(earned)
        # Per player over every round of the stage: (half wins, rounds counted, games), opponents, earned byes.
        self.totals: dict[str, tuple[int, int, int]] = {}
        self.opponents: dict[str, list[str]] = {}
        self.earned_byes: dict[str, int] = {}
        last = 0
        earned_players = {pid for pid, _ in earned}
        # Pokémon TOP 3.1.3: missing late losses added; the reference reads every player's games at once.
        self.games_of: Callable[[str], list[Game]] = (
            (lambda pid: _games(ctx, pid)) if fast else _history(ctx).__getitem__
        )
        numbers = [r.number for r in ctx.event.rounds]
        # Rounds listed in order: every history (and its implied late losses, sorted in) is by round.
        self.by_round = numbers == sorted(numbers)
        #: The players whose every game counts (no bye, no late loss): the context's columns are theirs.
        self.plain: set[str] = set()
        half_of = half_wins_of.__getitem__
        faced, solo, implied = ctx.faced(), ctx.solo, late_losses(ctx)
        plain: list[str] = []  # no bye, no late loss (written or implied): every game counts
        if fast and single:
            skip = earned_players.union(solo, implied)
            plain = [pid for pid, rounds in ctx.round_numbers.items() if rounds and pid not in skip]
            last = self._plain_columns(plain, half_of, faced)
        done = set(plain)
        for pid in ctx.players:
            if pid in done:
                continue
            games = self.games_of(pid)
            half_wins = rounds = count = earned_byes = 0
            opps: list[str] = []
            for rnd, game_stage, outcome, _, opponents, _, _, _, _, _, _ in games:
                if not single and game_stage != stage:
                    continue
                count += 1
                if rnd > last:
                    last = rnd
                is_earned = has_earned and (pid, rnd) in earned
                if opponents:
                    opps += opponents
                    rounds += 1
                    half_wins += half_wins_of[outcome]
                elif is_earned or not won[outcome]:  # Pokémon TOP 3.1.4.1: a (random) bye "is not considered at all"
                    rounds += 1
                    half_wins += half_wins_of[outcome]
                if is_earned:
                    earned_byes += 1
            self.totals[pid] = (half_wins, rounds, count)
            self.opponents[pid] = opps
            self.earned_byes[pid] = earned_byes
        self.last = last
        players = self.totals
        self.outside = set(_chain(self.opponents.values())).difference(players)
        self._prefix: dict[str, _Prefix] | None = None
        self._den: int | None = None
        self.planned = _planned_rounds(ctx, stage)
        through = ctx.through_round
        self.dropped = {
            pid: p.dropped_after
            for pid, p in ctx.players.items()
            if p.dropped_after is not None and (through is None or p.dropped_after <= through)
        }

    def _plain_columns(self, plain: list[str], half_of: Callable[[str], int], faced: Mapping[str, list[str]]) -> int:
        """Totals of the players whose every game counts, from the context's columns in C-level passes.

        Their rows are their games (no late loss is implied for them). Returns the latest round among them
        (0 for none).
        """
        numbers, outcomes = self.ctx.round_numbers, self.ctx.outcomes
        rows = list(map(outcomes.__getitem__, plain))
        half_wins = map(sum, map(map, repeat(half_of), rows))
        games = list(map(len, rows))
        self.totals.update(zip(plain, zip(half_wins, games, games)))
        self.opponents.update(zip(plain, map(faced.__getitem__, plain)))  # the same lists (never changed)
        self.earned_byes.update(dict.fromkeys(plain, 0))
        self.plain.update(plain)
        rounds = map(numbers.__getitem__, plain)
        if self.by_round:  # each player's rows are by round: the last is the latest
            return max(map(_LAST, rounds), default=0)
        return max(_chain(rounds), default=0)

    @property
    def prefix(self) -> dict[str, _Prefix]:
        """Per player, running totals over their games by round: what the rounds up to any round sum to."""
        if self._prefix is None:
            self._prefix = {}
            stage, earned, single = self.stage, self.earned, self.single
            half_of, won = self.half_wins_of.__getitem__, self.won
            earned_players = {pid for pid, _ in earned}
            plain, by_round, opponents = self.plain, self.by_round, self.opponents
            numbers, outcomes = self.ctx.round_numbers, self.ctx.outcomes
            new = tuple.__new__  # _Prefix(...) through its Python __new__ is several times slower
            counts: dict[int, list[int]] = {}  # 0..size, shared (read only) by every player with ``size`` rows
            zeros: dict[int, list[int]] = {}
            for pid in self.ctx.players:
                if pid in plain and by_round:
                    rounds = numbers[pid]  # read only, as the context's
                    size = len(rounds)
                    if len(opponents[pid]) == size:  # one opponent every game (the common case)
                        if size not in counts:
                            counts[size], zeros[size] = list(range(size + 1)), [0] * (size + 1)
                        self._prefix[pid] = new(
                            _Prefix,
                            (
                                rounds,
                                list(accumulate(map(half_of, outcomes[pid]), initial=0)),
                                counts[size],
                                zeros[size],
                                counts[size],
                                opponents[pid],  # the same names in the same order (never changed)
                            ),
                        )
                        continue
                games = self.games_of(pid)
                if not single:
                    games = [g for g in games if g.stage == stage]
                games = sorted(games, key=_ROUND_OF)  # by round, stable: the games' order within a round is kept
                rounds = list(map(_ROUND_OF, games))
                tables = list(map(_OPPONENTS, games))
                size = len(games)
                if pid not in earned_players and sum(map(len, tables)) == size and () not in tables:
                    # One opponent every game: every row counts, in C-level passes.
                    self._prefix[pid] = _Prefix(
                        rounds,
                        list(accumulate(map(half_of, map(_OUTCOME, games)), initial=0)),
                        list(range(size + 1)),
                        [0] * (size + 1),
                        list(range(size + 1)),
                        list(_chain(tables)),
                    )
                    continue
                half, counted, earned_count, offsets = [0], [0], [0], [0]
                flat: list[str] = []
                for g in games:
                    is_earned = (pid, g.round) in earned
                    is_counted = bool(g.opponents) or not won[g.outcome] or is_earned
                    half.append(half[-1] + half_of(g.outcome) if is_counted else half[-1])
                    counted.append(counted[-1] + 1 if is_counted else counted[-1])
                    earned_count.append(earned_count[-1] + 1 if is_earned else earned_count[-1])
                    flat += g.opponents
                    offsets.append(len(flat))
                self._prefix[pid] = _Prefix(rounds, half, counted, earned_count, offsets, flat)
        return self._prefix

    def _opponents_through(self, pid: str, through: int) -> list[str]:
        """The player's opponents in the rounds up to ``through``, once per game."""
        found = self.prefix.get(pid)
        if found is None:
            return []
        return found.flat[: found.offsets[bisect_right(found.rounds, through)]]

    def _rates(self, through: int | None, only: set[str] | None = None) -> tuple[dict[str, int], int]:
        """Every player's win % over the rounds up to ``through`` (None: all), over one denominator.

        With ``through``, ``only`` (when given) limits the players rated to those (and the outside ones).
        """
        dropped, planned = self.dropped, self.planned
        if through is None:
            return self._rates_of_every_round()
        prefix = self.prefix
        den = self._den_through()  # any common denominator keeps OWP exact: one for every ``through``
        floor, cap = den // 4, 3 * den // 4
        rates = {}
        for pid in prefix if only is None else only:
            found = prefix.get(pid)
            if found is None:
                continue
            games = bisect_right(found.rounds, through)  # the rows up to ``through`` (rows are by round)
            rounds = found.counted[games]
            rate = found.half[games] * (den // (2 * rounds)) if rounds else 0
            if rate < floor:
                rate = floor
            capped = pid in dropped and dropped[pid] <= through and games < planned.get(pid, 0)
            top = cap if capped else den
            rates[pid] = top if rate > top else rate
        for q in self.outside:  # an opponent outside the context: no rounds, WIN_FLOOR
            rates.setdefault(q, floor)
        return rates, den

    def _den_through(self) -> int:
        """A denominator for every win % up to any round: 4 and ``2k`` divide it for every count ``k`` (cached)."""
        if self._den is None:
            most = max((found.counted[-1] for found in self.prefix.values()), default=0)
            den = 4
            for k in range(1, most + 1):
                den = den * (2 * k) // math.gcd(den, 2 * k)
            self._den = den
        return self._den

    def _rates_of_every_round(self) -> tuple[dict[str, int], int]:
        """:meth:`_rates` over every round, from the totals in one loop."""
        dropped, planned, totals = self.dropped, self.planned, self.totals
        den = 4
        for r in {r for _, r, _ in totals.values()}:
            if r:
                den = den * (2 * r) // math.gcd(den, 2 * r)
        floor, cap = den // 4, 3 * den // 4
        rates = {}
        for pid, (half_wins, rounds, games) in totals.items():
            rate = half_wins * (den // (2 * rounds)) if rounds else 0
            if rate < floor:
                rate = floor
            top = cap if pid in dropped and games < planned.get(pid, 0) else den
            rates[pid] = top if rate > top else rate
        for q in self.outside:  # an opponent outside the context: no rounds, WIN_FLOOR
            rates.setdefault(q, floor)
        return rates, den

    def _owp_map(
        self,
        through: int | None,
        frozen: Mapping[str, tuple[_Rounded, _Rounded]],
        rates: Mapping[str, int],
        den: int,
        only: set[str] | None = None,
    ) -> dict[str, _Rounded]:
        if through is None and only is None:
            return self._owp_of_every_round(frozen, rates, den)
        out = {}
        floor = den // 4  # an opponent outside the context: WIN_FLOOR
        for pid in self.totals if only is None else only:
            if pid in frozen:
                out[pid] = frozen[pid][0]
                continue
            if through is None:
                opps = self.opponents[pid]
                earned_byes = self.earned_byes[pid]
                count = len(opps) + earned_byes
                total = sum(map(rates.__getitem__, opps)) + earned_byes * den
                out[pid] = round_significant_int(total, count * den) if count else (0, 0)
                continue
            found = self.prefix[pid]
            games = bisect_right(found.rounds, through)
            opps = found.flat[: found.offsets[games]]
            earned_byes = found.earned[games]  # RULES.md Decision: an earned bye is a 100 % opponent
            count = len(opps) + earned_byes
            total = sum(map(rates.get, opps, repeat(floor))) + earned_byes * den
            if not count:
                out[pid] = 0, 0
                continue
            whole = count * den
            percent = total * 100
            if whole * 10 <= percent < whole * 100:  # round_significant_int's 10 % to 100 % case, inlined
                k, r = divmod(percent * _FIGURES_UP, whole)
                r += r
                out[pid] = (k + 1 if r > whole or (r == whole and k & 1) else k), SIGNIFICANT_FIGURES
            else:
                out[pid] = round_significant_int(total, whole)
        return out

    def _owp_of_every_round(
        self, frozen: Mapping[str, tuple[_Rounded, _Rounded]], rates: Mapping[str, int], den: int
    ) -> dict[str, _Rounded]:
        """:meth:`_owp_map` over every round for every player, the sums in C-level passes.

        The rounding is written out here and in :meth:`_owp_map` on purpose: a call per player costs about what
        separates Pokémon's standings from the 1.3x goal of bench/README.md.
        """
        players = list(self.totals)
        opponents = list(map(self.opponents.__getitem__, players))
        sums = map(sum, map(map, repeat(rates.__getitem__), opponents))
        earned = map(self.earned_byes.__getitem__, players)
        rounded = round_significant_int
        out = {}
        for pid, total, faced, earned_byes in zip(players, sums, map(len, opponents), earned):
            found = frozen.get(pid)
            if found is not None:
                out[pid] = found[0]
                continue
            count = faced + earned_byes  # RULES.md Decision: an earned bye is a 100 % opponent
            if not count:
                out[pid] = 0, 0
                continue
            total += earned_byes * den
            whole = count * den
            percent = total * 100
            if whole * 10 <= percent < whole * 100:  # round_significant_int's 10 % to 100 % case, inlined
                k, r = divmod(percent * _FIGURES_UP, whole)
                r += r
                out[pid] = (k + 1 if r > whole or (r == whole and k & 1) else k), SIGNIFICANT_FIGURES
            else:
                out[pid] = rounded(total, whole)
        return out

    def _oowp(self, pid: str, through: int | None, owp: Mapping[str, int], scale: int) -> _Rounded:
        if through is None and not self.outside:
            opps = self.opponents.get(pid, ())
            return round_significant_int(sum(map(owp.__getitem__, opps)), len(opps) * _pow10(scale)) if opps else (0, 0)
        found = self.prefix.get(pid)
        if found is None:
            return 0, 0
        opps = found.flat if through is None else found.flat[: found.offsets[bisect_right(found.rounds, through)]]
        count = len(opps)
        total = sum(map(owp.get, opps, repeat(0)))
        return round_significant_int(total, count * _pow10(scale)) if count else (0, 0)

    def compute(self) -> dict[str, tuple[int, int, _Rounded, _Rounded]]:
        """Every player's (win % numerator, its denominator, OWP, OOWP); drops frozen (RULES.md Decision)."""
        last = self.last
        frozen: dict[str, tuple[_Rounded, _Rounded]] = {}
        for at in sorted({d for d in self.dropped.values() if d < last}):
            leaving = sorted(p for p, d in self.dropped.items() if d == at and p in self.totals)
            # Only the players leaving now, their opponents up to ``at`` (OOWP) and those opponents'
            # opponents (OWP) are read: each value is exact, whatever the others' common denominator.
            needed = set(leaving).union(*(self._opponents_through(pid, at) for pid in leaving))
            needed = set(filter(self.totals.__contains__, needed))  # a few hundred, not every player
            rated = set().union(*(self._opponents_through(pid, at) for pid in needed if pid not in frozen))
            rates, den = self._rates(at, rated)
            owp = self._owp_map(at, frozen, rates, den, needed)
            scaled, scale = _common_scale(owp)
            for pid in leaving:
                frozen[pid] = (owp[pid], self._oowp(pid, at, scaled, scale))
        rates, den = self._rates(None)
        owp = self._owp_map(None, frozen, rates, den)
        scaled, scale = _common_scale(owp)
        out = {}
        if self.outside:
            for pid in self.totals:
                if pid in frozen:
                    out[pid] = (rates[pid], den, frozen[pid][0], frozen[pid][1])
                else:
                    out[pid] = (rates[pid], den, owp[pid], self._oowp(pid, None, scaled, scale))
            return out
        # Everyone's opponents are rated: _oowp over every round, inlined.
        players = list(self.totals)
        opponents = list(map(self.opponents.__getitem__, players))
        sums = map(sum, map(map, repeat(scaled.__getitem__), opponents))
        unit, rounded = _pow10(scale), round_significant_int
        for pid, total, count in zip(players, sums, map(len, opponents)):
            found = frozen.get(pid)
            if found is not None:
                out[pid] = (rates[pid], den, found[0], found[1])
                continue
            if not count:
                out[pid] = (rates[pid], den, owp[pid], (0, 0))
                continue
            whole = count * unit
            percent = total * 100
            if whole * 10 <= percent < whole * 100:  # round_significant_int's 10 % to 100 % case, inlined
                k, r = divmod(percent * _FIGURES_UP, whole)
                r += r
                oowp = (k + 1 if r > whole or (r == whole and k & 1) else k), SIGNIFICANT_FIGURES
            else:
                oowp = rounded(total, whole)
            out[pid] = (rates[pid], den, owp[pid], oowp)
        return out


def _table(ctx: StandingsContext) -> dict[str, tuple[int, int, _Rounded, _Rounded]]:
    """Every player's (win % numerator, denominator, OWP, OOWP) in integers (cached per context)."""
    found = ctx.memo.get("pokemon-tiebreakers")
    if found is None:
        earned = _earned_rounds(ctx)
        phases = phase_of(ctx)
        computed = {stage: _Phase(ctx, stage, earned).compute() for stage in sorted(set(phases.values()))}
        if len(computed) == 1:  # one phase for everyone: its values in the players' order
            found = dict(zip(ctx.players, map(next(iter(computed.values())).__getitem__, ctx.players)))
        else:
            found = {pid: computed[phases[pid]][pid] for pid in ctx.players}
        ctx.memo["pokemon-tiebreakers"] = found
    return found


def tiebreakers(ctx: StandingsContext) -> dict[str, PokemonTiebreakers]:
    """Every player's win %, OWP and OOWP over their phase's Swiss rounds (cached per context)."""
    found = ctx.memo.get("pokemon-tiebreakers-exact")
    if found is None:
        found = ctx.memo["pokemon-tiebreakers-exact"] = {
            pid: PokemonTiebreakers(
                Fraction(win, den), Fraction(owp[0], _pow10(owp[1])), Fraction(oowp[0], _pow10(oowp[1]))
            )
            for pid, (win, den, owp, oowp) in _table(ctx).items()
        }
    return found


# ---------- metrics ----------


@register
class WinPercentage(ValueMetric):
    """Pokémon TOP 3.1.4.1: the player's own win % (what their opponents average)."""

    key = "pokemon-win-pct"
    label = "Win %"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        return {pid: win / den for pid, (win, den, _, _) in _table(ctx).items()}


def _rounded_values(
    table: Mapping[str, tuple[int, int, _Rounded, _Rounded]],
    which: Callable[[tuple[int, int, _Rounded, _Rounded]], _Rounded],
) -> dict[str, float]:
    """``{pid: k / 10 ** s}`` of one rounded column of the table, ``(k, s)`` read by ``which``, in C-level passes."""
    rounded = list(map(which, table.values()))
    if max(map(_SECOND, rounded), default=0) >= len(_POW10):  # never for a percentage rounded to 4 figures
        return {pid: k / _pow10(s) for pid, (k, s) in zip(table, rounded)}
    return dict(zip(table, map(operator.truediv, map(_FIRST, rounded), map(_POW10.__getitem__, map(_SECOND, rounded)))))


@register
class OpponentsWinPercentage(ValueMetric):
    """Pokémon TOP 3.1.4.1 second tiebreaker: opponents' win percentage."""

    key = "owp"
    label = "Op Win %"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        return _rounded_values(_table(ctx), _THIRD)


@register
class OpponentsOpponentsWinPercentage(ValueMetric):
    """Pokémon TOP 3.1.4.1 third tiebreaker: opponents' opponents' win percentage."""

    key = "oowp"
    label = "Op Op Win %"

    def values(self, ctx: StandingsContext) -> Mapping[str, float]:
        return _rounded_values(_table(ctx), _LAST)


@register
class Tardiness(ValueMetric):
    """Pokémon TOP 3.1.3, 3.1.4.1 first tiebreaker: late players rank below on-time ones (1 = late)."""

    key = "pokemon-tardiness"
    label = "Late"
    descending = False

    def values(self, ctx: StandingsContext) -> Mapping[str, int]:
        outcomes = ctx.outcomes
        late_outcome = ctx.ruleset.outcome_map.get("late")
        # A solo outcome stands only at a table of one (Ruleset.check_outcomes): only those players can have it.
        players = ctx.solo if late_outcome is None or late_outcome.solo else outcomes
        late = {pid for pid in players if "late" in outcomes[pid]}
        return {pid: int(p.late or pid in late) for pid, p in ctx.players.items()}


def _wins_against(ctx: StandingsContext, pid: str, other: str) -> int:
    return sum(
        1
        for g in (ctx.games(pid) if pid in ctx.players else ())
        if other in g.opponents and ctx.ruleset.outcome(g.outcome).result == "win"
    )


@register
class HeadToHead(GroupMetric):
    """Pokémon TOP 3.1.4.1 fourth tiebreaker: of exactly two tied players who played, the winner."""

    key = "pokemon-h2h"
    label = "Head to head"

    def split(self, ctx: StandingsContext, group: Sequence[str]) -> list[list[str]]:
        if len(group) != 2:
            return [list(group)]
        a, b = group
        net = _wins_against(ctx, a, b) - _wins_against(ctx, b, a)
        if net == 0:
            return [list(group)]
        return [[a], [b]] if net > 0 else [[b], [a]]


def last_opponents(ctx: StandingsContext) -> dict[str, str | None]:
    """Each player's opponent in their latest Swiss match that had one.

    >>> from shared_rules.run import load_event
    >>> from shared_rules.standings.context import StandingsContext
    >>> from shared_rules.games import get_ruleset
    >>> ev = load_event({"ruleset": "pokemon-tcg", "players": [{"id": i, "entry": n} for n, i in enumerate("abc")],
    ...     "rounds": [{"number": 1, "matches": [{"players": ["a", "b"], "outcomes": ["win", "loss"]},
    ...                                           {"players": ["c"], "outcomes": ["bye"]}]},
    ...                {"number": 2, "matches": [{"players": ["a", "c"], "outcomes": ["tie", "tie"]},
    ...                                           {"players": ["b"], "outcomes": ["bye"]}]}]})
    >>> last_opponents(StandingsContext(ev, get_ruleset("pokemon-tcg")))
    {'a': 'c', 'b': 'a', 'c': 'a'}
    """
    found = ctx.memo.get("pokemon-last-opponents")
    if found is None:
        found = ctx.memo["pokemon-last-opponents"] = {}
        faced, solo = ctx.faced(), ctx.solo
        for pid, rounds in ctx.round_numbers.items():
            if rounds and pid not in solo and len(faced[pid]) == len(rounds):  # every game has one opponent
                found[pid] = faced[pid][rounds.index(max(rounds))]
                continue
            games = ctx.games(pid)
            best = None  # the first game of the latest round with exactly one opponent (as max() picks)
            latest = 0
            for g in games:
                if (best is None or g.round > latest) and len(g.opponents) == 1:
                    best, latest = g, g.round
            found[pid] = best.opponents[0] if best is not None else None
    return dict(found)


def swiss_groups(ctx: StandingsContext, ids: Iterable[str]) -> list[list[str]]:
    """Tie groups of ``ids`` by every tiebreaker before the last opponent; day-two players first."""
    phases = phase_of(ctx)
    ids = list(ids)
    entries = list(map(_ENTRY, map(ctx.players.__getitem__, ids)))
    ordered = list(map(ids.__getitem__, sorted(range(len(ids)), key=entries.__getitem__)))  # stable, by entry
    if DAY_TWO not in phases.values():  # everyone on day one
        return _tie_groups(ctx, ordered) if ordered else []
    groups: list[list[str]] = []
    for stage in (DAY_TWO, DAY_ONE):
        part = [pid for pid in ordered if phases.get(pid, DAY_ONE) == stage]
        if part:
            groups.extend(_tie_groups(ctx, part))
    return groups


_ROUNDED_COLUMNS = {"owp": _THIRD, "oowp": _LAST}


def _rounded_within(ctx: StandingsContext, metric: ValueMetric) -> bool:
    """Whether ``round(value, metric.precision)`` gives every value back: OWP and OOWP of ``s`` decimals or fewer.

    The float nearest ``k / 10 ** s`` lies within a 2 ** -53 relative step of it; with ``s`` at most the
    precision, rounding it to that many decimals gives ``k / 10 ** s`` again, hence the same float.
    """
    which = _ROUNDED_COLUMNS.get(metric.key)
    if which is None:
        return False
    return max(map(_SECOND, map(which, _table(ctx).values())), default=0) <= metric.precision


def _tie_groups(ctx: StandingsContext, ordered: list[str]) -> list[list[str]]:
    """``order_groups(ctx, ordered, PRE_LAST_OPPONENT)`` in one stable sort (the reference the tests compare).

    Points, lateness, OWP and OOWP (Pokémon TOP 3.1.4.1) are value metrics compared in turn: one sort by the
    tuple of the four comparable values (as :meth:`ValueMetric.split` compares them, ties in ``ordered``
    order) gives the same groups; head-to-head then splits the groups of exactly two.
    """
    value_keys, last = PRE_LAST_OPPONENT[:-1], PRE_LAST_OPPONENT[-1]
    metrics = [cast(ValueMetric, get_metric(key)) for key in value_keys]
    if len(ordered) < 2 or any(
        type(m).split is not ValueMetric.split or type(m).comparable is not ValueMetric.comparable for m in metrics
    ):
        return order_groups(ctx, ordered, PRE_LAST_OPPONENT)
    columns = []
    for metric in metrics:
        values = list(map(ctx.metric(metric.key).__getitem__, ordered))
        # round(v, precision) gives an int back unchanged, and OWP/OOWP too (see _rounded_within).
        if set(map(type, values)) != {int} and not _rounded_within(ctx, metric):
            values = list(map(round, values, repeat(metric.precision)))
        columns.append(list(map(operator.neg, values)) if metric.descending else list(values))
    # One stable sort per key, the last key first: each later sort keeps the order the earlier ones set
    # among its ties, which is the order of the four keys compared in turn (and ``ordered`` among full ties).
    positions = list(range(len(ordered)))
    for column in reversed(columns):
        positions.sort(key=column.__getitem__)
    keys = list(zip(*columns))
    at = ordered.__getitem__
    groups = [list(map(at, run)) for _, run in itertools.groupby(positions, keys.__getitem__)]
    head_to_head = get_metric(last)
    out: list[list[str]] = []
    for group in groups:
        if len(group) == 2:
            out.extend(head_to_head.split(ctx, group))
        else:
            out.append(group)
    return out


def refine_by_last_opponent(
    ctx: StandingsContext, universes: Sequence[Sequence[Sequence[str]]]
) -> list[list[list[str]]]:
    """Pokémon TOP 3.1.4.1 fifth tiebreaker, applied until stable (see the module docstring).

    ``universes`` are separately placed standings (divisions), each as ordered tie groups.
    """
    last = last_opponents(ctx)
    nobody = sum(len(g) for u in universes for g in u) + 1
    current = [[list(g) for g in u] for u in universes]
    place: dict[str, int] = {}  # each player's place: the first place of their group
    for groups in current:
        position = 1
        for group in groups:
            for pid in group:
                place[pid] = position
            position += len(group)
    while True:
        split: list[tuple[int, list[list[str]]]] = []  # (first place, the parts) of each group split now
        refined: list[list[list[str]]] = []
        for groups in current:
            out: list[list[str]] = []
            for group in groups:
                if len(group) == 1:
                    out.append(group)
                    continue
                keyed: dict[int, list[str]] = {}
                for pid in group:
                    opponent = last.get(pid)
                    keyed.setdefault(place.get(opponent, nobody) if opponent else nobody, []).append(pid)
                parts = [keyed[k] for k in sorted(keyed)]
                if len(parts) > 1:
                    split.append((place[group[0]], parts))
                out.extend(parts)
            refined.append(out)
        current = refined
        if not split:
            return current
        # The places the next round reads: a split group's parts take its places in turn, the rest keep theirs.
        for position, parts in split:
            for part in parts:
                for pid in part:
                    place[pid] = position
                position += len(part)


def rank_universes(ctx: StandingsContext, universes: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each universe (division) in Swiss order: Pokémon TOP 3.1.4.1, then roster order (Decision)."""
    groups = refine_by_last_opponent(ctx, [swiss_groups(ctx, ids) for ids in universes])
    players = ctx.players

    def entry(pid: str) -> int:
        return players[pid].entry

    out = []
    for u in groups:
        order: list[str] = []
        for group in u:
            order.extend(sorted(group, key=entry) if len(group) > 1 else group)
        out.append(order)
    return out


@register
class LastOpponent(ValueMetric):
    """Pokémon TOP 3.1.4.1 fifth tiebreaker: the place of the player's last opponent (lower is better).

    Over all players of the context as one standings; the Pokémon ruleset
    itself places each division separately (see ``shared_rules.games.pokemon.ruleset``).
    """

    key = "pokemon-last-opponent"
    label = "Last opponent"
    descending = False

    def values(self, ctx: StandingsContext) -> Mapping[str, int]:
        groups = refine_by_last_opponent(ctx, [swiss_groups(ctx, ctx.players)])[0]
        place: dict[str, int] = {}
        position = 1
        for group in groups:
            for pid in group:
                place[pid] = position
            position += len(group)
        nobody = len(place) + 1
        return {pid: place.get(opp, nobody) if opp else nobody for pid, opp in last_opponents(ctx).items()}


# ---------- single elimination ----------


def elimination_depth(event: Event, ids: Iterable[str], win_results: Mapping[str, str]) -> dict[str, int]:
    """How far each player of ``ids`` went in the elimination rounds (higher is further).

    The loser of the k-th elimination round scores 2k, a player still in after
    it 2k + 2. A 3rd/4th playoff (a match marked ``"playoff": "third-place"``,
    or one between two players who had both already been eliminated) is "for
    3rd and 4th place" (Pokémon TOP 3.2.3, 3.3.6): whatever round it is
    recorded in, its loser keeps the score of the round they were eliminated
    in (2s for the semifinal s; the higher of the two if they differ) and its
    winner scores one more, so the winner ranks directly above the loser and
    both below the losing finalist (2s + 2). ``win_results`` maps outcome keys
    to "win"/"loss"/"tie".

    >>> from shared_rules.run import load_event
    >>> ev = load_event({"ruleset": "pokemon-tcg", "players": [{"id": i, "entry": n} for n, i in enumerate("abcd")],
    ...     "rounds": [{"number": 1, "stage": "elimination", "matches": [
    ...                    {"players": ["a", "d"], "outcomes": ["win", "loss"]},
    ...                    {"players": ["b", "c"], "outcomes": ["win", "loss"]}]},
    ...                {"number": 2, "stage": "elimination", "matches": [
    ...                    {"players": ["a", "b"], "outcomes": ["win", "loss"]}]},
    ...                {"number": 3, "stage": "elimination", "matches": [
    ...                    {"players": ["d", "c"], "outcomes": ["win", "loss"], "playoff": "third-place"}]}]})
    >>> sorted(elimination_depth(ev, "abcd", {"win": "win", "loss": "loss"}).items())
    [('a', 6), ('b', 4), ('c', 2), ('d', 3)]
    """
    wanted = set(ids)
    rounds = sorted((r for r in event.rounds if r.stage == "elimination"), key=lambda r: r.number)
    depth: dict[str, int] = {}
    lost_in: dict[str, int] = {}
    k = 0
    for rnd in rounds:
        matches = [m for m in rnd.matches if wanted.intersection(m.players)]
        if not matches:
            continue
        k += 1
        for match in matches:
            decided = is_counted(match) and match.outcomes is not None
            results = [win_results.get(o, "loss") for o in match.outcomes] if decided and match.outcomes else []
            playoff = match.extra.get("playoff") == "third-place" or (
                len(match.players) == 2 and all(pid in lost_in for pid in match.players)
            )
            if playoff:
                # Pokémon TOP 3.2.3, 3.3.6: the playoff places 3rd and 4th, below the losing finalist.
                base = max((2 * lost_in[pid] if pid in lost_in else 2 * k - 2 for pid in match.players), default=0)
                for seat, pid in enumerate(match.players):
                    won = bool(results) and results[seat] == "win"
                    depth[pid] = base + 1 if won else base
                continue
            for seat, pid in enumerate(match.players):
                if results and results[seat] != "win":
                    depth[pid] = 2 * k
                    lost_in[pid] = k
                else:
                    depth[pid] = 2 * k + 2
    return {pid: d for pid, d in depth.items() if pid in wanted}

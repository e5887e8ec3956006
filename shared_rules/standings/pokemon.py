"""Pokémon tiebreakers (Pokémon TOP 3.1.4.1, as RULES.md "Decision — match TOM" reads it).

Keys: ``pokemon-win-pct`` (a player's own win %), ``owp``, ``oowp``,
``pokemon-tardiness``, ``pokemon-h2h`` and ``pokemon-last-opponent``.
Everything is computed with exact fractions; OWP and OOWP are then rounded to
four significant figures of the percentage, half to even, and printed as the
nearest float (0.5833 for 58.33 %).

Readings (the ruleset docstring in ``shared_rules/rulesets/pokemon.py`` lists
them all; these are the ones this module implements):

- Win % = wins / rounds, a tie counting half a win. Rounds are the rounds the
  player has a result in, so a completed player divides by the rounds of the
  event and a dropped player by the rounds they took part in (3.1.4.1). A late
  player's ``late`` loss is a lost round. A normal bye is left out entirely
  (3.1, 3.1.4.1: "not considered at all"); an earned bye (``"earned": true`` on
  the match, an ``earned-bye`` outcome, or one of the player's first
  ``earned_byes`` byes) is a won round and adds a 100 % opponent to the
  player's OWP (not to their OOWP). No rounds at all gives 0, raised to 25 %.
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

import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from .metrics import GroupMetric, ValueMetric, register

if TYPE_CHECKING:  # pragma: no cover
    from ..event.model import Event
    from .context import Game, StandingsContext

__all__ = ["WIN_FLOOR", "DROPPED_CAP", "SIGNIFICANT_FIGURES", "DAY_ONE", "DAY_TWO", "PRE_LAST_OPPONENT",
           "PokemonTiebreakers", "round_significant", "win_percentage", "tiebreakers", "phase_of",
           "last_opponents", "swiss_groups", "refine_by_last_opponent", "rank_universes",
           "elimination_depth", "WinPercentage", "OpponentsWinPercentage",
           "OpponentsOpponentsWinPercentage", "Tardiness", "HeadToHead", "LastOpponent"]

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
    if value <= 0:
        return Fraction(0)
    percent = value * 100
    exponent = 0
    while Fraction(10) ** (exponent + 1) <= percent:
        exponent += 1
    while Fraction(10) ** exponent > percent:
        exponent -= 1
    quantum = Fraction(10) ** (exponent - figures + 1)
    return round(percent / quantum) * quantum / 100


def _mean(values: Sequence[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


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


def phase_of(ctx: "StandingsContext") -> dict[str, str]:
    """The stage whose rounds set each player's tiebreakers: day two if they played on it.

    Pokémon TOP 3.1.4.1: day-one OWP/OOWP are not carried over to day two.
    """
    out = {}
    for pid, games in ctx.history.items():
        out[pid] = DAY_TWO if any(g.stage == DAY_TWO for g in games) else DAY_ONE
    return out


def _earned_rounds(ctx: "StandingsContext") -> set[tuple[str, int]]:
    """(player, round) of every earned bye (RULES.md Decision)."""
    earned: set[tuple[str, int]] = set()
    for pid, games in ctx.history.items():
        byes = sorted((g for g in games if g.is_solo and ctx.ruleset.outcome(g.outcome).result == "win"),
                      key=lambda g: (g.round, g.stage))
        allowance = ctx.players[pid].earned_byes
        for index, g in enumerate(byes):
            if index < allowance or g.match.extra.get("earned") is True or g.outcome in _EARNED_OUTCOMES:
                earned.add((pid, g.round))
    return earned


def _planned_rounds(ctx: "StandingsContext", stage: str) -> dict[str, int]:
    """Swiss rounds each player's pod plans in one stage (for the 75 % cap).

    ``settings.rounds_by_pod[pod]``, else ``settings.rounds`` (day one of an
    event without day-two rounds), and never fewer than the rounds of that
    stage in which the pod has a match.
    """
    event = ctx.event
    pod = {pid: str(p.extra.get("pod", "")) for pid, p in ((p.id, p) for p in event.players)}
    paired: dict[str, set[int]] = {}
    for rnd in event.rounds:
        if rnd.stage != stage:
            continue
        for match in rnd.matches:
            for pid in match.players:
                paired.setdefault(pod.get(pid, ""), set()).add(rnd.number)
    has_day_two = any(r.stage == DAY_TWO for r in event.rounds)
    by_pod = event.settings.get("rounds_by_pod")
    total = event.settings.get("rounds")
    out = {}
    for pid in ctx.players:
        planned = len(paired.get(pod[pid], ()))
        if stage == DAY_ONE and not has_day_two:
            if isinstance(by_pod, Mapping) and isinstance(by_pod.get(pod[pid]), int):
                planned = max(planned, by_pod[pod[pid]])
            elif isinstance(total, int) and not isinstance(total, bool):
                planned = max(planned, total)
        out[pid] = planned
    return out


class _Phase:
    """Win %, OWP and OOWP over the rounds of one stage, with drops frozen."""

    def __init__(self, ctx: "StandingsContext", stage: str, earned: set[tuple[str, int]]) -> None:
        self.ctx = ctx
        self.games: dict[str, list["Game"]] = {
            pid: sorted((g for g in games if g.stage == stage), key=lambda g: g.round)
            for pid, games in ctx.history.items()}
        self.earned = earned
        self.planned = _planned_rounds(ctx, stage)
        through = ctx.through_round
        self.dropped = {pid: p.dropped_after for pid, p in ctx.players.items()
                        if p.dropped_after is not None and (through is None or p.dropped_after <= through)}

    def _result(self, outcome: str) -> str:
        return self.ctx.ruleset.outcome(outcome).result

    def rate(self, pid: str, through: int | None) -> Fraction:
        """The player's win % over the rounds up to ``through`` (None: all)."""
        games = [g for g in self.games.get(pid, ()) if through is None or g.round <= through]
        half_wins = rounds = 0
        for g in games:
            result = self._result(g.outcome)
            if g.is_solo and result == "win" and (pid, g.round) not in self.earned:
                continue  # Pokémon TOP 3.1.4.1: a (random) bye "is not considered at all"
            rounds += 1
            half_wins += 2 if result == "win" else 1 if result == "tie" else 0
        gone = pid in self.dropped and (through is None or self.dropped[pid] <= through)
        capped = gone and len(games) < self.planned.get(pid, 0)
        return win_percentage(Fraction(half_wins, 2), rounds, capped)

    def _opponents(self, pid: str, through: int | None) -> list[str]:
        return [q for g in self.games.get(pid, ()) if through is None or g.round <= through for q in g.opponents]

    def _earned_count(self, pid: str, through: int | None) -> int:
        return sum(1 for g in self.games.get(pid, ())
                   if (pid, g.round) in self.earned and (through is None or g.round <= through))

    def _owp_map(self, through: int | None, frozen: Mapping[str, PokemonTiebreakers],
                 rates: Mapping[str, Fraction]) -> dict[str, Fraction]:
        out = {}
        for pid in self.games:
            if pid in frozen:
                out[pid] = frozen[pid].owp
                continue
            values = [rates.get(q, WIN_FLOOR) for q in self._opponents(pid, through)]
            values += [Fraction(1)] * self._earned_count(pid, through)  # RULES.md Decision: earned bye
            out[pid] = round_significant(_mean(values))
        return out

    def _oowp(self, pid: str, through: int | None, owp: Mapping[str, Fraction]) -> Fraction:
        return round_significant(_mean([owp.get(q, Fraction(0)) for q in self._opponents(pid, through)]))

    def _rates(self, through: int | None) -> dict[str, Fraction]:
        everyone = set(self.games) | {q for gs in self.games.values() for g in gs for q in g.opponents}
        return {pid: self.rate(pid, through) for pid in sorted(everyone)}

    def compute(self) -> dict[str, PokemonTiebreakers]:
        """Every player's values; dropped players frozen at their drop (RULES.md Decision)."""
        numbers = sorted({g.round for gs in self.games.values() for g in gs})
        last = numbers[-1] if numbers else 0
        frozen: dict[str, PokemonTiebreakers] = {}
        for at in sorted({d for d in self.dropped.values() if d < last}):
            rates = self._rates(at)
            owp = self._owp_map(at, frozen, rates)
            for pid in sorted(p for p, d in self.dropped.items() if d == at and p in self.games):
                frozen[pid] = PokemonTiebreakers(rates[pid], owp[pid], self._oowp(pid, at, owp))
        rates = self._rates(None)
        owp = self._owp_map(None, frozen, rates)
        out = {}
        for pid in self.games:
            if pid in frozen:
                out[pid] = PokemonTiebreakers(rates[pid], frozen[pid].owp, frozen[pid].oowp)
            else:
                out[pid] = PokemonTiebreakers(rates[pid], owp[pid], self._oowp(pid, None, owp))
        return out


_TABLES: "weakref.WeakKeyDictionary[StandingsContext, dict[str, PokemonTiebreakers]]" = weakref.WeakKeyDictionary()


def tiebreakers(ctx: "StandingsContext") -> dict[str, PokemonTiebreakers]:
    """Every player's win %, OWP and OOWP over their phase's Swiss rounds (cached per context)."""
    found = _TABLES.get(ctx)
    if found is None:
        earned = _earned_rounds(ctx)
        phases = phase_of(ctx)
        computed = {stage: _Phase(ctx, stage, earned).compute() for stage in sorted(set(phases.values()))}
        found = {pid: computed[phases[pid]][pid] for pid in ctx.history}
        _TABLES[ctx] = found
    return found


# ---------- metrics ----------


@register
class WinPercentage(ValueMetric):
    """Pokémon TOP 3.1.4.1: the player's own win % (what their opponents average)."""

    key = "pokemon-win-pct"
    label = "Win %"

    def values(self, ctx: "StandingsContext") -> Mapping[str, float]:
        return {pid: float(t.win) for pid, t in tiebreakers(ctx).items()}


@register
class OpponentsWinPercentage(ValueMetric):
    """Pokémon TOP 3.1.4.1 second tiebreaker: opponents' win percentage."""

    key = "owp"
    label = "Op Win %"

    def values(self, ctx: "StandingsContext") -> Mapping[str, float]:
        return {pid: float(t.owp) for pid, t in tiebreakers(ctx).items()}


@register
class OpponentsOpponentsWinPercentage(ValueMetric):
    """Pokémon TOP 3.1.4.1 third tiebreaker: opponents' opponents' win percentage."""

    key = "oowp"
    label = "Op Op Win %"

    def values(self, ctx: "StandingsContext") -> Mapping[str, float]:
        return {pid: float(t.oowp) for pid, t in tiebreakers(ctx).items()}


@register
class Tardiness(ValueMetric):
    """Pokémon TOP 3.1.3, 3.1.4.1 first tiebreaker: late players rank below on-time ones (1 = late)."""

    key = "pokemon-tardiness"
    label = "Late"
    descending = False

    def values(self, ctx: "StandingsContext") -> Mapping[str, int]:
        return {pid: int(p.late or any(g.outcome == "late" for g in ctx.history.get(pid, ())))
                for pid, p in ctx.players.items()}


def _wins_against(ctx: "StandingsContext", pid: str, other: str) -> int:
    return sum(1 for g in ctx.history.get(pid, ())
               if other in g.opponents and ctx.ruleset.outcome(g.outcome).result == "win")


@register
class HeadToHead(GroupMetric):
    """Pokémon TOP 3.1.4.1 fourth tiebreaker: of exactly two tied players who played, the winner."""

    key = "pokemon-h2h"
    label = "Head to head"

    def split(self, ctx: "StandingsContext", group: Sequence[str]) -> list[list[str]]:
        if len(group) != 2:
            return [list(group)]
        a, b = group
        net = _wins_against(ctx, a, b) - _wins_against(ctx, b, a)
        if net == 0:
            return [list(group)]
        return [[a], [b]] if net > 0 else [[b], [a]]


def last_opponents(ctx: "StandingsContext") -> dict[str, str | None]:
    """Each player's opponent in their latest Swiss match that had one.

    >>> from shared_rules.event import load_event
    >>> from shared_rules.standings.context import StandingsContext
    >>> from shared_rules.rulesets import get_ruleset
    >>> ev = load_event({"ruleset": "pokemon-tcg", "players": [{"id": i, "entry": n} for n, i in enumerate("abc")],
    ...     "rounds": [{"number": 1, "matches": [{"players": ["a", "b"], "outcomes": ["win", "loss"]},
    ...                                           {"players": ["c"], "outcomes": ["bye"]}]},
    ...                {"number": 2, "matches": [{"players": ["a", "c"], "outcomes": ["tie", "tie"]},
    ...                                           {"players": ["b"], "outcomes": ["bye"]}]}]})
    >>> last_opponents(StandingsContext(ev, get_ruleset("pokemon-tcg")))
    {'a': 'c', 'b': 'a', 'c': 'a'}
    """
    out: dict[str, str | None] = {}
    for pid, games in ctx.history.items():
        paired = [g for g in games if len(g.opponents) == 1]
        out[pid] = max(paired, key=lambda g: g.round).opponents[0] if paired else None
    return out


def swiss_groups(ctx: "StandingsContext", ids: Iterable[str]) -> list[list[str]]:
    """Tie groups of ``ids`` by every tiebreaker before the last opponent; day-two players first."""
    from .engine import order_groups

    phases = phase_of(ctx)
    ordered = sorted(ids, key=lambda pid: ctx.players[pid].entry)
    groups: list[list[str]] = []
    for stage in (DAY_TWO, DAY_ONE):
        part = [pid for pid in ordered if phases.get(pid, DAY_ONE) == stage]
        if part:
            groups.extend(order_groups(ctx, part, PRE_LAST_OPPONENT))
    return groups


def refine_by_last_opponent(ctx: "StandingsContext",
                            universes: Sequence[Sequence[Sequence[str]]]) -> list[list[list[str]]]:
    """Pokémon TOP 3.1.4.1 fifth tiebreaker, applied until stable (see the module docstring).

    ``universes`` are separately placed standings (divisions), each as ordered tie groups.
    """
    last = last_opponents(ctx)
    nobody = sum(len(g) for u in universes for g in u) + 1
    current = [[list(g) for g in u] for u in universes]
    while True:
        place: dict[str, int] = {}
        for groups in current:
            position = 1
            for group in groups:
                for pid in group:
                    place[pid] = position
                position += len(group)
        changed = False
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
                changed = changed or len(keyed) > 1
                out.extend(keyed[k] for k in sorted(keyed))
            refined.append(out)
        current = refined
        if not changed:
            return current


def rank_universes(ctx: "StandingsContext", universes: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each universe (division) in Swiss order: Pokémon TOP 3.1.4.1, then roster order (Decision)."""
    groups = refine_by_last_opponent(ctx, [swiss_groups(ctx, ids) for ids in universes])
    return [[pid for group in u for pid in sorted(group, key=lambda pid: ctx.players[pid].entry)] for u in groups]


@register
class LastOpponent(ValueMetric):
    """Pokémon TOP 3.1.4.1 fifth tiebreaker: the place of the player's last opponent (lower is better).

    Over all players of the context as one standings; the Pokémon ruleset
    itself places each division separately (see ``shared_rules.rulesets.pokemon``).
    """

    key = "pokemon-last-opponent"
    label = "Last opponent"
    descending = False

    def values(self, ctx: "StandingsContext") -> Mapping[str, int]:
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


def elimination_depth(event: "Event", ids: Iterable[str], win_results: Mapping[str, str]) -> dict[str, int]:
    """How far each player of ``ids`` went in the elimination rounds (higher is further).

    The loser of the k-th elimination round scores 2k, a player still in after
    it 2k + 2; a 3rd/4th playoff (a match marked ``"playoff": "third-place"``
    or one between two players who lost in the previous elimination round)
    gives its winner 2k - 1 and leaves its loser at 2k - 2 (Pokémon TOP 3.2.3,
    3.3.6). ``win_results`` maps outcome keys to "win"/"loss"/"tie".
    """
    from .context import is_counted

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
                len(match.players) == 2 and all(lost_in.get(pid) == k - 1 for pid in match.players))
            for seat, pid in enumerate(match.players):
                if playoff:
                    won = bool(results) and results[seat] == "win"
                    depth[pid] = 2 * k - 1 if won else 2 * k - 2
                    continue
                if results and results[seat] != "win":
                    depth[pid] = 2 * k
                    lost_in[pid] = k
                else:
                    depth[pid] = 2 * k + 2
    return {pid: d for pid, d in depth.items() if pid in wanted}

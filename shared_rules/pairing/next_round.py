"""The next Swiss round of an event: ``pair_next_round(event, game)`` and the CLI's ``pair_next_round_json``.

The next round is the last Swiss round + 1, in stage ``swiss`` (or
``swiss-day2`` after a Pokémon two-day event's day one, TOP 3.3.5). Pairing
is refused while a result is missing or disputed — except Star Trek's
delayed results (13.4: a pending match marked ``"delayed": true``, or any
pending match when ``settings.online`` is true), which count 2 VP each for
pairing. Dropped players are never paired; players who join late simply
join (Pokémon's ``late`` losses for missed rounds are in the document, 3.1.3).

Readings: the planned Swiss rounds are ``settings.rounds``, else the
document's structure table for the players who started (Pokémon: the
largest division, or ``settings.rounds_by_pod[division]`` per Age-Separated
division). Day two takes every player with 19+ match points or the top 32
of their division, whichever is more (Pokémon TOP 3.3.5), computed when day
two starts; later day-two rounds pair whoever played day two and has not
dropped. Every random choice is drawn from the event seed with the round
number in its context, so the same document always gives the same round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..event.model import SWISS_STAGES, Event, Match, Player, Round
from ..standings import compute_standings
from .byes import bye_outcome_for, byes_received, earned_bye_players
from .divisions import assign_flights, division_mode, division_pools, divisions_of
from .policies import PairingPolicy
from .swiss import PoolInput, PoolResult, integer_points, pair_pool, pair_round_one
from .tables import fixed_table_of, number_tables

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game
    from ..rulesets.base import Ruleset
    from ..structures import Structure

__all__ = [
    "PairedMatch",
    "PairedRound",
    "PairingState",
    "pair_next_round",
    "pair_next_round_json",
    "pairing_state",
    "next_round_number",
    "check_results_complete",
    "planned_rounds",
    "swiss_rounds",
    "day_one_rounds",
    "day_two_qualifiers",
]


@dataclass(frozen=True, slots=True)
class PairedMatch:
    """One table of a paired round (a one-player match is a bye and has no table)."""

    players: tuple[str, ...]
    table: int | None = None
    outcomes: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"table", "players"}``; a bye has no table and carries its outcome."""
        row: dict[str, Any] = {}
        if self.table is not None:
            row["table"] = self.table
        row["players"] = list(self.players)
        if self.outcomes is not None:
            row["outcomes"] = list(self.outcomes)
        return row


@dataclass(frozen=True, slots=True)
class PairedRound:
    """A drafted round: pure data until the organizer publishes it."""

    number: int
    stage: str
    matches: tuple[PairedMatch, ...]
    warnings: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """EVENT-FORMAT.md's ``pair`` output (``warnings`` only when there are some)."""
        out: dict[str, Any] = {
            "round": self.number,
            "stage": self.stage,
            "matches": [m.to_json() for m in self.matches],
        }
        if self.warnings:
            out["warnings"] = list(self.warnings)
        return out

    def to_round(self) -> Round:
        """The round as the event model holds it (results pending, byes decided)."""
        return Round(self.number, self.stage, tuple(Match(m.players, m.outcomes, m.table) for m in self.matches))

    def pairs(self) -> list[tuple[str, ...]]:
        """The player groups, in table order."""
        return [m.players for m in self.matches]


@dataclass(frozen=True, slots=True)
class PairingState:
    """What pairing round ``number`` knows: points, opponents and byes so far."""

    number: int
    stage: str
    ruleset: Ruleset
    policy: PairingPolicy
    present: tuple[str, ...]
    points: Mapping[str, float]
    opponents: Mapping[str, frozenset[str]]
    had_bye: Mapping[str, int]
    earned_last_round: frozenset[str]


def _describe(rnd: Round, index: int, match: Match) -> str:
    if match.table is not None:
        return f"round {rnd.number} table {match.table}"
    return f"round {rnd.number} match {index + 1} ({', '.join(match.players)})"


def _pending_allowed(event: Event, policy: PairingPolicy, match: Match) -> bool:
    # Star Trek OP Guide 13.4: a delayed result counts 2 VP for pairing until it is known.
    return policy.pending_points is not None and (
        match.extra.get("delayed") is True or event.settings.get("online") is True
    )


def check_results_complete(event: Event, number: int, policy: PairingPolicy) -> None:
    """Raise RulesError naming the first missing or disputed result before round ``number``."""
    for rnd in sorted(event.rounds, key=lambda r: r.number):
        if rnd.number >= number:
            continue
        for i, match in enumerate(rnd.matches):
            if match.extra and match.extra.get("disputed"):  # most matches have no extra fields
                raise RulesError(f"round {number} cannot be paired: {_describe(rnd, i, match)} has a disputed result")
            if match.outcomes is None and not _pending_allowed(event, policy, match):
                raise RulesError(f"round {number} cannot be paired: {_describe(rnd, i, match)} has no result")


def next_round_number(event: Event) -> int:
    """The last Swiss round + 1 (RulesError once an elimination round exists)."""
    elim = [r.number for r in event.rounds if r.stage == "elimination"]
    if elim:
        raise RulesError(
            f"the Swiss rounds are over: round {min(elim)} is an elimination round (the cut is paired by its bracket)"
        )
    return max((r.number for r in event.rounds), default=0) + 1


def _started(event: Event) -> int:
    return sum(1 for p in event.players if p.dropped_after is None or p.dropped_after >= 1)


def _settings_rounds(event: Event) -> int | None:
    """``settings.rounds`` when it is a positive whole number, else None."""
    rounds = event.settings.get("rounds")
    if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds > 0:
        return rounds
    return None


def planned_rounds(event: Event, game: Game, divisions: Mapping[str, str] | None = None) -> int:
    """The event's Swiss rounds: ``settings.rounds``, else the document's structure table."""
    rounds = _settings_rounds(event)
    if rounds is not None:
        return rounds
    structure = event.settings.get("structure")
    structure = structure if isinstance(structure, str) else None
    try:
        if game.division_structures is not None and divisions:
            counts: dict[str, int] = {}
            for d in divisions.values():
                counts[d] = counts.get(d, 0) + 1
            return max(s.swiss_rounds for s in _division_structures(game, counts, structure).values())
        return game.suggest_structure(_started(event), structure).swiss_rounds
    except RulesError as exc:
        raise RulesError(f"settings.rounds: not set and the structure table gives none ({exc})") from None


def _division_structures(game: Game, counts: Mapping[str, int], structure: str | None) -> dict[str, Structure]:
    """Per age division structures of a game with age divisions (Pokémon TOP 3.3.5)."""
    build = game.division_structures
    if build is None:
        raise RulesError(f"ruleset: {game.id!r} has no age divisions")
    return build(counts, game.structure_name(structure))


def _day_one_rounds(event: Event, game: Game, counts: Mapping[str, int]) -> int | None:
    """Day-one Swiss rounds of a Pokémon two-day event (TOP 3.3.5), or None."""
    if game.division_structures is None:
        return None
    given = event.settings.get("day_one_rounds")
    if isinstance(given, int) and not isinstance(given, bool) and given > 0:
        return given
    structure = event.settings.get("structure")
    if structure not in ("two-day", "international"):
        return None
    try:
        found = _division_structures(game, counts, structure)
    except RulesError:
        return None
    days = [s.day_two.day_one_rounds for s in found.values() if s.day_two is not None]
    return min(days) if days else None


def pairing_state(
    event: Event,
    game: Game,
    number: int,
    stage: str = "swiss",
    ruleset: Ruleset | None = None,
    present: tuple[str, ...] | None = None,
) -> PairingState:
    """Points, opponents (within the rematch scope) and byes of every player before round ``number``."""
    ruleset = ruleset or game.ruleset(event.settings)
    policy = game.pairing_policy(event.settings)
    points_of = {o.key: o.points for o in ruleset.outcomes}
    points: dict[str, float] = {p.id: 0 for p in event.players}
    # Each player's opponents, listed as met (a list grows faster than a set; frozen once at the end).
    opponents: dict[str, list[str]] = {p.id: [] for p in event.players}
    earned_last: set[str] = set()
    scope = policy.rematch_scope
    points_get = points_of.get
    for rnd in event.rounds:
        if rnd.number >= number:
            continue
        swiss = rnd.stage in SWISS_STAGES
        in_scope = scope == "event" or (scope == "swiss" and swiss) or (scope == "stage" and rnd.stage == stage)
        for match in rnd.matches:
            ids = match.players
            outcomes = match.outcomes
            extra = match.extra
            if len(ids) == 2 and outcomes is not None and (not extra or not extra.get("disputed")):
                # The usual table (two players, a result not disputed), without the general checks below.
                a, b = ids
                if in_scope:
                    opponents[a].append(b)
                    opponents[b].append(a)
                if swiss:
                    oa, ob = outcomes
                    points[a] += points_get(oa, 0)
                    points[b] += points_get(ob, 0)
                continue
            if in_scope and len(ids) == 2:
                a, b = ids
                opponents[a].append(b)
                opponents[b].append(a)
            elif in_scope and len(ids) > 2:
                for pid in ids:
                    opponents[pid].extend(o for o in ids if o != pid)
            if not swiss:
                continue
            if match.outcomes is None or (match.extra and match.extra.get("disputed")):
                if policy.pending_points is not None and match.outcomes is None and len(ids) > 1:
                    for pid in ids:  # Star Trek OP Guide 13.4
                        points[pid] += policy.pending_points
                continue
            if len(ids) == 2:  # the usual table, without the loop
                a, b = ids
                oa, ob = match.outcomes
                points[a] += points_of.get(oa, 0)
                points[b] += points_of.get(ob, 0)
                continue
            for pid, outcome in zip(ids, match.outcomes):
                points[pid] += points_of.get(outcome, 0)
                if rnd.number == number - 1 and len(ids) == 1 and outcome == policy.earned_bye_outcome:
                    earned_last.add(pid)
    if present is None:
        present = tuple(p.id for p in event.players if p.active_in(number))
    swiss_numbers = [r.number for r in event.rounds if r.stage in SWISS_STAGES and r.number < number]
    had_bye = byes_received(event, policy, swiss_numbers)
    return PairingState(
        number,
        stage,
        ruleset,
        policy,
        present,
        points,
        {pid: frozenset(s) for pid, s in opponents.items()},
        had_bye,
        frozenset(earned_last),
    )


def _ranking(event: Event, game: Game, ruleset: Ruleset) -> list[str]:
    bracket = game.deciding_bracket(event.settings)
    return [s.player for s in compute_standings(event, ruleset, bracket=bracket)]


def pair_next_round(
    event: Event,
    game: Game,
    *,
    ruleset: Ruleset | None = None,
    keep: PairedRound | None = None,
    only: frozenset[str] | None = None,
) -> PairedRound:
    """Pair the next Swiss round of the event, deterministically from its seed.

    ``keep`` (corrections, Pokémon TOP 4): among the best pairings, prefer the
    one that changes the fewest of that draft's matches and byes. ``only``
    pairs just those players (the rest of the draft stands).
    """
    ruleset = ruleset or game.ruleset(event.settings)
    policy = game.pairing_policy(event.settings)
    number = next_round_number(event)
    check_results_complete(event, number, policy)
    present = [p.id for p in event.players if p.active_in(number)]
    division_check = game.division_check
    if policy.divisions and division_check is not None:
        division_check(event, present, number)  # Pokémon TOP 3.1.1: never pair without the divisions
    divisions = _divisions(event, game, policy)
    started = _started_divisions(event, divisions)
    total = planned_rounds(event, game, started)
    if number > total:
        raise RulesError(
            f"all {total} Swiss rounds are paired: the Swiss is over (the cut, if any, is paired by its bracket)"
        )
    counts: dict[str, int] = {}
    for d in started.values():
        counts[d] = counts.get(d, 0) + 1
    day_one = _day_one_rounds(event, game, counts)
    stage = "swiss-day2" if day_one is not None and number > day_one else "swiss"
    ranking: list[str] | None = None
    if stage == "swiss-day2":
        present, ranking = _day_two_players(event, game, ruleset, number, present, divisions)
    if only is not None:
        present = [pid for pid in present if pid in only]
    state = pairing_state(event, game, number, stage, ruleset, tuple(present))
    return _pair(event, game, ruleset, policy, state, divisions, ranking, keep, future_rounds=total - number)


def _divisions(event: Event, game: Game, policy: PairingPolicy) -> dict[str, str]:
    """Each player's Pokémon age division (TOP 3.1.1), or {} where the ruleset has none."""
    if not policy.divisions:
        return {}
    return divisions_of(event, game)


def _started_divisions(event: Event, divisions: Mapping[str, str]) -> dict[str, str]:
    players = {p.id: p for p in event.players}
    return {pid: d for pid, d in divisions.items() if (dropped := players[pid].dropped_after) is None or dropped >= 1}


def swiss_rounds(event: Event, game: Game) -> int:
    """The event's planned Swiss rounds (``settings.rounds``, else the document's structure table)."""
    rounds = _settings_rounds(event)
    if rounds is not None:  # the divisions are not needed
        return rounds
    policy = game.pairing_policy(event.settings)
    return planned_rounds(event, game, _started_divisions(event, _divisions(event, game, policy)))


def _qualifiers(game: Game, points_by_player: Mapping[str, int], swiss_rank: list[str]) -> list[str]:
    """The game's day-two qualifiers of one division (Pokémon TOP 3.3.5)."""
    qualifiers = game.day_two_qualifiers
    if qualifiers is None:
        raise RulesError(f"ruleset: {game.id} has no day two")
    return qualifiers(points_by_player, swiss_rank)


def day_two_qualifiers(event: Event, game: Game) -> dict[str, list[str]]:
    """Pokémon TOP 3.3.5: each division's day-two players (19+ match points or the top 32), best first."""
    if game.day_two_qualifiers is None:
        raise RulesError(f"ruleset: {event.ruleset} has no day two (Pokémon TOP 3.3.5)")
    ruleset = game.ruleset(event.settings)
    divisions = _divisions(event, game, game.pairing_policy(event.settings))
    day_one = [r.number for r in event.rounds if r.stage == "swiss"]
    state = pairing_state(event, game, max(day_one, default=0) + 1, "swiss", ruleset)
    ranking = _ranking(event, game, ruleset)
    played = {pid for r in event.rounds if r.stage == "swiss-day2" for m in r.matches for pid in m.players}
    out: dict[str, list[str]] = {}
    for division in sorted(set(divisions.values()) or {""}):
        rank = [pid for pid in ranking if divisions.get(pid, "") == division]
        # Once day two has started, its players are the qualifiers (made when it started).
        chosen = played or set(_qualifiers(game, {pid: int(state.points[pid]) for pid in rank}, rank))
        out[division or "all"] = [pid for pid in rank if pid in chosen]
    return out


def day_one_rounds(event: Event, game: Game) -> int | None:
    """Day-one Swiss rounds of a two-day event (Pokémon TOP 3.3.5: ``settings.day_one_rounds`` or the
    structure's), or None: the event has no day two."""
    if game.division_structures is None:
        return None
    divisions = _started_divisions(event, _divisions(event, game, game.pairing_policy(event.settings)))
    counts: dict[str, int] = {}
    for d in divisions.values():
        counts[d] = counts.get(d, 0) + 1
    return _day_one_rounds(event, game, counts)


def _day_two_players(
    event: Event, game: Game, ruleset: Ruleset, number: int, present: list[str], divisions: Mapping[str, str]
) -> tuple[list[str], list[str]]:
    """Pokémon TOP 3.3.5: day two = 19+ match points or the top 32 of the division."""
    played = {pid for r in event.rounds if r.stage == "swiss-day2" for m in r.matches for pid in m.players}
    ranking = _ranking(event, game, ruleset)
    if played:
        return [pid for pid in present if pid in played], ranking
    state = pairing_state(event, game, number, "swiss", ruleset)
    chosen: set[str] = set()
    for division in sorted(set(divisions.values()) or {""}):
        rank = [pid for pid in ranking if divisions.get(pid, "") == division]
        pts = {pid: int(state.points[pid]) for pid in rank}
        chosen.update(_qualifiers(game, pts, rank))
    return [pid for pid in present if pid in chosen], ranking


def _pair(
    event: Event,
    game: Game,
    ruleset: Ruleset,
    policy: PairingPolicy,
    state: PairingState,
    divisions: Mapping[str, str],
    ranking: list[str] | None,
    keep: PairedRound | None = None,
    future_rounds: int = 0,
) -> PairedRound:
    number = state.number
    kept_pairs = frozenset(frozenset(m.players) for m in keep.matches if len(m.players) == 2) if keep else frozenset()
    kept_byes = frozenset(m.players[0] for m in keep.matches if len(m.players) == 1) if keep else frozenset()
    players = {p.id: p for p in event.players}
    warnings: list[str] = []
    present = list(state.present)
    groups: list[tuple[tuple[str, ...], tuple[str, ...] | None]] = []  # (players, outcomes)
    pool_index: dict[str, int] = {}

    if policy.pod_rounds:
        ranking = ranking if ranking is not None else _ranking(event, game, ruleset)
        form_pods = game.form_pods
        if form_pods is None:
            raise RulesError(f"ruleset: {event.ruleset} does not play in pods")
        pods = form_pods(event, number, present, ranking, policy.pod_rounds)
        order: dict[str, Any] = {pid: -i for i, pod in enumerate(pods) for pid in pod}
        return _assemble(number, state.stage, [(tuple(p), None) for p in pods], order, {}, players, warnings)

    # Earned byes (Star Trek OP Guide 7.2, 7.5.1): the player sits the opening round(s) out.
    earned = earned_bye_players([players[pid] for pid in present], number)
    outcome = bye_outcome_for(policy, earned=True)
    for pid in earned:
        groups.append(((pid,), (outcome,) if outcome else None))
    earned_set = set(earned)
    present = [pid for pid in present if pid not in earned_set]

    pools = _pools(event, policy, present, divisions, number)
    needs_rank = policy.bye_rule == "lowest-ranked-without-bye" and number > 1
    if needs_rank and ranking is None:
        ranking = _ranking(event, game, ruleset)
    rank = {pid: i for i, pid in enumerate(ranking or [])}
    int_points = integer_points({pid: state.points[pid] for pid in present})
    for index, (label, ids, modified) in enumerate(pools):
        for pid in ids:
            pool_index[pid] = index
        if number == 1 and not modified and not keep:
            result = pair_round_one(ids, policy, event.seed, number, label)
        else:
            scores = {pid: int_points[pid] for pid in ids}
            bye_points = {pid: int_points[pid] for pid in ids}
            if modified:
                bye_points = _modified_bye_points(ids, bye_points, divisions)
            secondary = _secondary(policy, state, kept_pairs, len(ids))
            # Star Trek 7.6 criterion 5 looks ahead over everyone still in (earned-bye holders included).
            future_ids = tuple(state.present) if len(pools) == 1 else tuple(ids)
            pool = PoolInput(
                tuple(ids),
                scores,
                bye_points,
                {pid: rank.get(pid, len(rank)) for pid in ids},
                state.opponents,
                state.had_bye,
                event.seed,
                (number, label),
                secondary,
                kept_byes,
                future_rounds,
                future_ids,
                {pid: divisions[pid] for pid in ids} if modified else None,
            )
            result = pair_pool(pool, policy)
        warnings.extend(result.warnings)
        groups.extend(_groups(result, policy))
    points = {pid: state.points[pid] for pid in state.present}
    order = {pid: (-pool_index.get(pid, 0), points.get(pid, 0)) for pid in state.present}
    return _assemble(number, state.stage, groups, order, pool_index, players, warnings)


def _secondary(
    policy: PairingPolicy, state: PairingState, kept: frozenset[frozenset[str]], size: int
) -> Callable[[str, str], int] | None:
    """Cost after the score gap: earned-bye holders not meeting the top group (Star Trek 7.6), then a changed draft match."""
    fresh = state.earned_last_round if policy.earned_bye_first else frozenset()
    if not fresh and not kept:
        return None
    weight = size + 1
    played = [state.points[pid] for pid in state.present if pid not in fresh]
    top = max(played, default=None)

    def cost(a: str, b: str) -> int:
        # Star Trek OP Guide 7.6: earned-bye scorecards are "paired first randomly against the scorecard(s)
        # of the player(s) with the highest victory point total from the first round".
        # Two of them meeting is worse than one meeting a lower group ("paired down" in turn).
        first = 0
        if a in fresh or b in fresh:
            other = b if a in fresh else a
            first = 2 if other in fresh else (1 if state.points[other] != top else 0)
        return first * weight + (0 if not kept or frozenset((a, b)) in kept else 1)

    return cost


def _modified_bye_points(ids: list[str], points: dict[str, int], divisions: Mapping[str, str]) -> dict[str, int]:
    """Age-Modified bye: lowest bracket first; in it, a player of an odd-sized division (3.1.2 reading)."""
    counts: dict[str, int] = {}
    for pid in ids:
        counts[divisions[pid]] = counts.get(divisions[pid], 0) + 1
    return {pid: 2 * p + (0 if counts[divisions[pid]] % 2 else 1) for pid, p in points.items()}


def _groups(result: PoolResult, policy: PairingPolicy) -> list[tuple[tuple[str, ...], tuple[str, ...] | None]]:
    out: list[tuple[tuple[str, ...], tuple[str, ...] | None]] = [(tuple(p), None) for p in result.pairs]
    outcome = bye_outcome_for(policy, earned=False)
    for pid in result.byes:
        out.append(((pid,), (outcome,) if outcome else None))
    return out


def _pools(
    event: Event, policy: PairingPolicy, present: list[str], divisions: Mapping[str, str], number: int
) -> list[tuple[str, list[str], bool]]:
    """(label, players, age-modified?) for each separately paired pool."""
    if not policy.divisions:
        return [("all", present, False)]
    here = {pid: divisions[pid] for pid in present}
    mode = division_mode(here)
    if mode == "modified":
        return [("all", present, mode == "modified")]
    by_pod = event.settings.get("rounds_by_pod")
    out = []
    for division, members in division_pools(present, here):
        limit = by_pod.get(division) if isinstance(by_pod, Mapping) else None
        if isinstance(limit, int) and not isinstance(limit, bool) and number > limit:
            continue  # this division's Swiss is over (Pokémon TOP 3.3.5 per age division)
        everyone = [p for p in event.players if divisions.get(p.id) == division]
        flights = assign_flights(event, division, everyone)
        if not flights:
            out.append((division, members, False))
            continue
        for flight in sorted(set(flights.values())):
            chosen = [pid for pid in members if flights.get(pid) == flight]
            if chosen:
                out.append((f"{division}-flight-{flight}", chosen, False))
    return out


def _assemble(
    number: int,
    stage: str,
    groups: list[tuple[tuple[str, ...], tuple[str, ...] | None]],
    order: Mapping[str, Any],
    pool_index: Mapping[str, int],
    players: Mapping[str, Player],
    warnings: list[str],
) -> PairedRound:
    # Sort players inside a match best first, then number the tables.
    def inner(pid: str) -> Any:
        return (order.get(pid, 0), pid)

    def best_first(g: tuple[str, ...]) -> tuple[str, ...]:
        a, b = g  # sorted(g, key=inner, reverse=True): the keys differ (they end with the id)
        return g if inner(a) > inner(b) else (b, a)

    seated = [(best_first(g) if len(g) == 2 else g, o) for g, o in groups]
    fixed = {pid: t for pid, p in players.items() if p.extra and (t := fixed_table_of(p.extra)) is not None}
    table_points = {pid: float(value[-1] if value.__class__ is tuple else value) for pid, value in order.items()}
    tables, table_warnings = number_tables(
        [g for g, _ in seated], table_points, fixed, {pid: i for pid, i in pool_index.items()}
    )
    warnings = warnings + table_warnings
    rows = sorted(zip(seated, tables), key=lambda row: (row[1] is None, row[1] or 0, row[0][0]))
    matches = tuple(PairedMatch(g, t, o) for (g, o), t in rows)
    return PairedRound(number, stage, matches, tuple(warnings))


def pair_next_round_json(event: Event, game: Game) -> dict[str, Any]:
    """The ``pair`` command's output: ``{"round", "stage", "matches": [{"table", "players"}]}``."""
    return pair_next_round(event, game).to_json()

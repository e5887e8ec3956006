"""The cut: top-N by Swiss standings into a seeded bracket, and single elimination from the start.

Every elimination match carries ``slot`` (its position in the round: the
bracket line pair, or AGoT's game number) and ``seeds`` in its extra fields;
the round carries ``bracket`` (``scheme``, ``slots``, ``cut``). Byes are
one-player matches with the outcome ``bye``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..event.model import Event, Match, Round
from ..matches.winner import elimination_rounds_of
from ..seeded import Rng
from ..standings import compute_standings
from ..structures.flights import merge_flight_tops
from .rules import GAME_NUMBERS
from .seeding import bye_count, first_round_pairs, next_power_of_two

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = [
    "make_cut",
    "seed_bracket",
    "start_single_elimination",
    "swiss_order",
    "cut_size",
    "elimination_rounds_of",
    "Entry",
]

#: One slot of a round: the players in it with their seeds (``None`` where unseeded).
Entry = tuple[tuple[str, int | None], ...]


def swiss_order(event: Event, game: Game) -> list[str]:
    """Player ids by Swiss standing (the standings before any elimination round)."""
    swiss = Event(
        event.ruleset,
        event.seed,
        event.players,
        tuple(r for r in event.rounds if r.stage != "elimination"),
        event.name,
        event.settings,
        event.extra,
    )
    # Swiss rounds only: no elimination match to decide.
    return [s.player for s in compute_standings(swiss, game.ruleset(event.settings), bracket=None)]


def cut_size(event: Event, game: Game) -> int:
    """``settings.cut``, else the document's table for the number of players."""
    cut = event.settings.get("cut")
    if cut is None:
        starters = [p for p in event.players if p.dropped_after is None or p.dropped_after >= 1]
        cut = game.suggest_structure(len(starters), event.settings.get("structure")).cut
    if isinstance(cut, bool) or not isinstance(cut, int) or cut < 2:
        raise RulesError(f"settings.cut: {cut!r} is not a cut of at least 2 players")
    return cut


def _build_round(
    number: int, entries: Sequence[Entry], scheme: str, cut: int | None = None, extra_matches: Sequence[Match] = ()
) -> Round:
    matches: list[Match] = []
    table = 0
    for slot, entry in enumerate(entries, start=1):
        ids = tuple(pid for pid, _ in entry)
        extra: dict[str, Any] = {"slot": slot, "seeds": [seed for _, seed in entry]}
        if len(ids) == 1:
            matches.append(Match(ids, ("bye",), extra=extra))
        elif len(ids) == 2:
            table += 1
            matches.append(Match(ids, table=table, extra=extra))
    for m in extra_matches:
        if len(m.players) == 2 and m.table is None:
            table += 1
            m = Match(m.players, m.outcomes, table, m.scores, m.stats, m.ending, m.games, m.extra)
        matches.append(m)
    info: dict[str, Any] = {"scheme": scheme, "slots": len(entries)}
    if cut is not None:
        info["cut"] = cut
    return Round(number, "elimination", tuple(matches), {"bracket": info})


def _next_number(event: Event) -> int:
    return max((r.number for r in event.rounds), default=0) + 1


def _seed_entries(seeds: Sequence[str], scheme: str) -> list[Entry]:
    """Round-one slots for players listed best first (byes to the top seeds)."""
    n = len(seeds)
    if scheme == "standard":
        pairs = first_round_pairs(n)
    else:
        # AGoT game numbers / McIntyre: slot k is seed k v the k-th lowest (the same meetings
        # as the standard bracket, listed by game number).
        size = next_power_of_two(n)
        pairs = [(k, size + 1 - k if size + 1 - k <= n else None) for k in range(1, size // 2 + 1)]
    return [tuple((seeds[s - 1], s) for s in pair if s is not None) for pair in pairs]


def seed_bracket(event: Event, game: Game, seeds: Sequence[str], *, cut: int | None = None) -> Round:
    """The first elimination round for players already in seed order (best first)."""
    rules = game.bracket_rules(event.settings)
    if len(seeds) < 2:
        raise RulesError(f"cut: {len(seeds)} eligible player(s) cannot make a bracket")
    if len(set(seeds)) != len(seeds):
        raise RulesError("seeds: a player is seeded twice")
    known = {p.id for p in event.players}
    for pid in seeds:
        if pid not in known:
            raise RulesError(f"seeds: unknown player '{pid}'")
    return _build_round(_next_number(event), _seed_entries(seeds, rules.scheme), rules.scheme, cut)


def _eligible(event: Event, order: Sequence[str]) -> list[str]:
    # A player who dropped before the cut was made is not in it; the next-ranked player takes
    # the place (Doomtown Floor Rules 3.G only forbids replacement once the cut is made;
    # Shatterpoint Showdown, Progression Cut replaces a qualifier who drops).
    dropped = {p.id for p in event.players if p.dropped_after is not None}
    return [pid for pid in order if pid not in dropped]


def _flight_qualifiers(event: Event, order: Sequence[str], cut: int) -> list[str] | None:
    """Pokémon TOP 3.3.3.2: top-N of each flight, merged and sorted by Swiss standing."""
    flights: dict[Any, list[str]] = {}
    flagged = [p for p in event.players if "flight" in p.extra]
    if not flagged:
        return None
    if len(flagged) != len(event.players):
        raise RulesError("players[].flight: every player of a flighted event needs a flight")
    eligible = _eligible(event, order)
    flight_of = {p.id: p.extra["flight"] for p in event.players}
    for pid in eligible:
        flights.setdefault(flight_of[pid], [])
    for pid in eligible:
        flights[flight_of[pid]].append(pid)
    names = sorted(flights, key=str)
    if cut % len(names):
        raise RulesError(f"cut: top {cut} cannot take an equal number from each of {len(names)} flights")
    position = {pid: i for i, pid in enumerate(order)}
    return merge_flight_tops([flights[n] for n in names], cut // len(names), position.__getitem__)


def make_cut(event: Event, game: Game, size: int | None = None, *, seeding: Sequence[str] | None = None) -> Round:
    """The first elimination round: the top ``size`` by Swiss standing, seeded 1 v lowest.

    ``size`` defaults to ``settings.cut`` or the document's table. ``seeding``
    replaces the Swiss order (e.g. Star Trek heats, :func:`..heats.two_heat_seeds`).
    Players who dropped are skipped; fewer eligible players than the cut are
    padded with byes to the top seeds (Doomtown Floor Rules 5.B).
    """
    game.bracket_rules(event.settings)  # a game without a bracket, or refused settings: no cut
    if elimination_rounds_of(event):
        raise RulesError("cut: the event already has elimination rounds")
    cut = cut_size(event, game) if size is None else size
    if isinstance(cut, bool) or not isinstance(cut, int) or cut < 2:
        raise RulesError(f"cut: {cut!r} is not a cut of at least 2 players")
    if seeding is not None:
        seeds = _eligible(event, seeding)[:cut]
    else:
        order = swiss_order(event, game)
        merged = _flight_qualifiers(event, order, cut)
        seeds = merged if merged is not None else _eligible(event, order)[:cut]
    return seed_bracket(event, game, seeds, cut=cut)


def start_single_elimination(event: Event, game: Game) -> Round:
    """Round one of an event that is single elimination from the start.

    Pokémon TOP 3.2: seeds are random, the top seeds get the byes (53 players:
    11 byes), then the standard bracket. AGoT Tournament Regulations, Single
    Elimination Rounds: random byes to fill to a power of two, random pairings,
    every pairing and bye given a game number in random order.
    """
    rules = game.bracket_rules(event.settings)
    if any(r.stage != "elimination" for r in event.rounds) or elimination_rounds_of(event):
        raise RulesError("rounds: single elimination from the start needs an event with no rounds yet")
    ids = [p.id for p in sorted(event.players, key=lambda p: (p.entry, p.id)) if p.dropped_after is None]
    if len(ids) < 2:
        raise RulesError(f"players: {len(ids)} player(s) cannot make a bracket")
    if rules.start == "agot-random":
        rng = Rng(event.seed, "bracket", "agot-start")
        drawn = rng.shuffled(ids)
        byes = bye_count(len(ids))
        units: list[Entry] = [((pid, None),) for pid in drawn[:byes]]
        rest = drawn[byes:]
        units += [((rest[i], None), (rest[i + 1], None)) for i in range(0, len(rest), 2)]
        entries = rng.shuffled(units)  # random game numbers, starting with Game #1
        return _build_round(_next_number(event), entries, GAME_NUMBERS)
    seeds = Rng(event.seed, "bracket", "random-seeds").shuffled(ids)
    return _build_round(_next_number(event), _seed_entries(seeds, "standard"), "standard")

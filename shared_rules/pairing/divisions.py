"""Pokémon age divisions (TOP 3.1.1, 3.1.2) and flights (3.3.3) as pairing pools and costs.

- Age-Separated (3.1.1): every division present has at least 6 players → one
  pool per division, paired as separate tournaments.
- Age-Modified (3.1.2): otherwise one pool where "same record and same
  division" is best and "division takes precedence over match record":
  :mod:`.age_modified` minimises the rematches, then the cross-division
  pairs, then the score gaps, exactly. ``division_scores`` (divisions far
  apart on one number line) is only its last resort for very large pools it
  cannot settle otherwise.
- The division count uses the players present for the round (not dropped);
  a division with no player present does not count (3.1.1 "players from each
  age division at the tournament").
- Flights (3.3.3): ``settings.flights`` (a count, or an object division → count)
  splits an Age-Separated division; a player's ``flight`` field wins, others
  are dealt at random (seeded) into :func:`flight_sizes` order, late players
  (``late`` set) join the smallest starting flight (3.3.3.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from ..event.model import Event, Player
from ..seeded import Rng
from ..structures.flights import assign_late_player_flight, flight_sizes

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = [
    "DIVISION_ORDER",
    "AGE_SEPARATED_MINIMUM",
    "divisions_of",
    "division_mode",
    "division_pools",
    "division_scores",
    "assign_flights",
]

#: Age order used for the Age-Modified number line (Pokémon TOP 3.1.1).
DIVISION_ORDER: tuple[str, ...] = ("junior", "senior", "masters")
#: Pokémon TOP 3.1.1: Age-Separated needs at least six players in each division.
AGE_SEPARATED_MINIMUM = 6


def divisions_of(event: Event, game: Game) -> dict[str, str]:
    """Every player's division under the game's rule (Pokémon: the ``division`` field, else birth year and
    the event's season, RULES.md Decision); RulesError for a game without age divisions."""
    rule = game.player_division
    if rule is None:
        raise RulesError(f"ruleset: {event.ruleset} has no age divisions")
    if game.division_season is not None:
        season = game.division_season(event)
    else:
        given = event.settings.get("season")
        season = given if isinstance(given, int) and not isinstance(given, bool) else None
    return {p.id: rule(p, season) for p in event.players}


def division_mode(divisions: Mapping[str, str]) -> str:
    """``separated``, ``modified`` or ``single`` for the divisions of the players present.

    >>> division_mode({"a": "masters", "b": "junior"})
    'modified'
    """
    counts: dict[str, int] = {}
    for division in divisions.values():
        counts[division] = counts.get(division, 0) + 1
    if len(counts) <= 1:
        return "single"
    # Pokémon TOP 3.1.1 / 3.1.2.
    return "separated" if min(counts.values()) >= AGE_SEPARATED_MINIMUM else "modified"


def division_pools(ids: Sequence[str], divisions: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """One pool per division, oldest first (Masters, Senior, Junior), ids kept in order."""
    out = []
    for division in reversed(DIVISION_ORDER):
        members = [pid for pid in ids if divisions[pid] == division]
        if members:
            out.append((division, members))
    return out


def division_scores(points: Mapping[str, int], divisions: Mapping[str, str]) -> dict[str, int]:
    """Age-Modified numbers: ``division × span + points``; a cross-division pair outweighs all score gaps.

    >>> s = division_scores({"a": 3, "b": 0, "c": 3}, {"a": "masters", "b": "masters", "c": "senior"})
    >>> (s["a"] - s["b"]) ** 2 < (s["a"] - s["c"]) ** 2
    True
    """
    if not points:
        return {}
    low, high = min(points.values()), max(points.values())
    gap = high - low
    # n/2 pairs, each gap at most `gap`: total squared gaps < n * gap^2 + 1 <= span^2.
    span = (gap + 1) * (len(points) + 1)
    index = {d: i for i, d in enumerate(DIVISION_ORDER)}
    return {pid: index.get(divisions[pid], len(DIVISION_ORDER)) * span + (p - low) for pid, p in points.items()}


def _flight_count(settings: Mapping[str, Any], division: str) -> int:
    value = settings.get("flights")
    if isinstance(value, Mapping):
        value = value.get(division)
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(f"settings.flights: {value!r} is not a number of flights")
    return value


def assign_flights(event: Event, division: str, members: Sequence[Player]) -> dict[str, int]:
    """Flight (1-based) of every member of an Age-Separated division, or {} without flights (3.3.3)."""
    count = _flight_count(event.settings, division)
    if count <= 1:
        return {}
    out: dict[str, int] = {}
    for p in members:
        given = p.extra.get("flight")
        if given is not None:
            if isinstance(given, bool) or not isinstance(given, int) or not 1 <= given <= count:
                raise RulesError(f"player '{p.id}': flight {given!r} is not between 1 and {count}")
            out[p.id] = given
    on_time = sorted((p for p in members if not p.late and p.id not in out), key=lambda p: (p.entry, p.id))
    late = sorted((p for p in members if p.late and p.id not in out), key=lambda p: (p.entry, p.id))
    # Pokémon TOP 3.3.3.2: random assignment, flight sizes as close to identical as possible.
    sizes = flight_sizes(len(on_time) + sum(1 for p in members if not p.late and p.id in out), count)
    filled = [0] * count
    for flight in out.values():
        filled[flight - 1] += 1
    shuffled = Rng(event.seed, "flights", division).shuffled([p.id for p in on_time])
    index = 0
    for pid in shuffled:
        while index < count - 1 and filled[index] >= sizes[index]:
            index += 1
        out[pid] = index + 1
        filled[index] += 1
    # Pokémon TOP 3.3.3.2: late players join the flight that was smaller at the start.
    current = list(sizes)
    rng = Rng(event.seed, "late-flights", division)
    for p in late:
        flight = assign_late_player_flight(current, rng)
        out[p.id] = flight + 1
        current[flight] += 1
    return out

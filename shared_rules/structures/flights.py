"""Pokémon flights for large age divisions (Pokémon TOP 3.3.3).

Readings:
- Flight sizes: "as close to identical as possible, with only one flight
  having an odd number of players if the total number of players is odd".
  We deal players out in pairs as evenly as possible (earlier flights take
  the extra pairs) and give an odd last player to the last flight. This
  reproduces the document's example (143 -> 72/71 and 36/36/36/35) and never
  leaves more than one flight odd; flights differ by at most two players.
- "Each flight cannot contain fewer than 32 players" is checked on that
  split, i.e. the smallest flight.
- Late players (3.3.3.2) join the flight that was smaller at the start; when
  several flights tie for smallest the document says "randomly": pass an
  ``Rng`` for that draw, or without one the lowest index is used.
- Flights must also be Age-Separated (3.3.3.1), which only the caller can
  know; :func:`plan_flights` cannot check it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shared_rules.errors import RulesError
from shared_rules.seeded import Rng

__all__ = [
    "FLIGHT_COUNTS",
    "MIN_DIVISION_PLAYERS",
    "MIN_FLIGHT_PLAYERS",
    "MIN_TOP_PER_FLIGHT",
    "FlightPlan",
    "allowed_flight_counts",
    "flight_sizes",
    "plan_flights",
    "assign_late_player_flight",
    "merge_flight_tops",
]

# Pokémon TOP 3.3.3.2: the number of flights must be 2, 4, 8, or 16.
FLIGHT_COUNTS: tuple[int, ...] = (2, 4, 8, 16)
# Pokémon TOP 3.3.3.1: a flighted division has at least 64 players, each flight at least 32.
MIN_DIVISION_PLAYERS = 64
MIN_FLIGHT_PLAYERS = 32
# Pokémon TOP 3.3.3.2: an equal number from each flight makes the finals, at least 2.
MIN_TOP_PER_FLIGHT = 2


@dataclass(frozen=True, slots=True)
class FlightPlan:
    """How one age division is split into flights and what each flight plays."""

    division_players: int
    flights: int
    flight_sizes: tuple[int, ...]
    swiss_rounds: int
    cut: int | None
    top_per_flight: int | None

    def to_json(self) -> dict[str, Any]:
        """Plain JSON types."""
        return {
            "division_players": self.division_players,
            "flights": self.flights,
            "flight_sizes": list(self.flight_sizes),
            "swiss_rounds": self.swiss_rounds,
            "cut": self.cut,
            "top_per_flight": self.top_per_flight,
        }


def flight_sizes(division_players: int, flights: int) -> tuple[int, ...]:
    """Starting flight sizes: pairs spread evenly, an odd player in the last flight.

    >>> flight_sizes(143, 4)
    (36, 36, 36, 35)
    """
    pairs, odd = divmod(division_players, 2)
    base, extra = divmod(pairs, flights)
    sizes = [2 * (base + (1 if i < extra else 0)) for i in range(flights)]
    sizes[-1] += odd
    return tuple(sizes)


def allowed_flight_counts(division_players: int) -> tuple[int, ...]:
    """Flight counts the document allows for a division of this size.

    >>> allowed_flight_counts(143)
    (2, 4)
    """
    if division_players < MIN_DIVISION_PLAYERS:
        return ()
    return tuple(k for k in FLIGHT_COUNTS if min(flight_sizes(division_players, k)) >= MIN_FLIGHT_PLAYERS)


def plan_flights(division_players: int, flights: int, base_rounds: int, cut: int | None = None) -> FlightPlan:
    """Check a flight plan against Pokémon TOP 3.3.3 and work out its numbers.

    ``base_rounds`` is the division's unflighted Swiss rounds (3.3.5); each
    doubling of the flights removes one. ``cut`` of ``None`` leaves the
    top-per-flight open; ``0`` is refused (flights need a single-elimination cut).

    >>> plan_flights(143, 2, 8, cut=8).top_per_flight
    4
    """
    if isinstance(division_players, bool) or not isinstance(division_players, int):
        raise RulesError(f"division_players: {division_players!r} is not a player count")
    if flights not in FLIGHT_COUNTS:
        raise RulesError(f"flights: {flights} is not one of 2, 4, 8, 16 (Pokémon TOP 3.3.3.2)")
    if division_players < MIN_DIVISION_PLAYERS:
        raise RulesError(
            f"division_players: {division_players} is below the minimum of {MIN_DIVISION_PLAYERS} "
            "for flights (Pokémon TOP 3.3.3.1)"
        )
    sizes = flight_sizes(division_players, flights)
    if min(sizes) < MIN_FLIGHT_PLAYERS:
        allowed = ", ".join(str(k) for k in allowed_flight_counts(division_players))
        raise RulesError(
            f"flights: {flights} flights of {division_players} leaves a flight of {min(sizes)}, "
            f"below the minimum of {MIN_FLIGHT_PLAYERS} (allowed: {allowed}) (Pokémon TOP 3.3.3.1)"
        )
    rounds = base_rounds - (flights.bit_length() - 1)
    if rounds < 1:
        raise RulesError(f"base_rounds: {base_rounds} leaves no Swiss rounds with {flights} flights")
    top = None
    if cut is not None:
        top = _top_per_flight(cut, flights)
    return FlightPlan(division_players, flights, sizes, rounds, cut, top)


def _top_per_flight(cut: int, flights: int) -> int:
    # Pokémon TOP 3.3.3.1: flights only in Swiss plus Single Elimination; 3.3: the cut is a power of two.
    if cut <= 0:
        raise RulesError("cut: flights need a single-elimination cut (Pokémon TOP 3.3.3.1)")
    if cut & (cut - 1):
        raise RulesError(f"cut: {cut} is not a power of two (Pokémon TOP 3.3)")
    # Pokémon TOP 3.3.3.2: an equal number from each flight, with a minimum of 2 from each.
    if cut % flights or cut // flights < MIN_TOP_PER_FLIGHT:
        raise RulesError(
            f"cut: top {cut} cannot take an equal number of at least {MIN_TOP_PER_FLIGHT} "
            f"from each of {flights} flights (Pokémon TOP 3.3.3.2)"
        )
    return cut // flights


def assign_late_player_flight(flight_sizes: Sequence[int], rng: Rng | None = None) -> int:
    """Index of the flight a late player joins (Pokémon TOP 3.3.3.2).

    ``flight_sizes`` are the starting sizes plus late players already added
    (drops are ignored: flights are never rebalanced). The smallest flight
    takes the player; a tie is drawn from ``rng`` if given, else the lowest index.

    >>> assign_late_player_flight([72, 71])
    1
    >>> assign_late_player_flight([36, 36, 36, 36])
    0
    """
    if not flight_sizes:
        raise RulesError("flight_sizes: no flights")
    smallest = min(flight_sizes)
    candidates = [i for i, size in enumerate(flight_sizes) if size == smallest]
    if rng is not None and len(candidates) > 1:
        return rng.choice(candidates)
    return candidates[0]


def merge_flight_tops(
    flight_rankings: Sequence[Sequence[str]],
    top_per_flight: int,
    standing_key: Callable[[str], Any],
) -> list[str]:
    """The finalists: the top ``top_per_flight`` of each flight, sorted by Swiss standing.

    ``standing_key`` orders players by standing and tiebreakers (lower first),
    as in Pokémon TOP 3.3.3.2 / 3.1.4.1.

    >>> merge_flight_tops([["a1", "a2", "a3"], ["b1", "b2"]], 2, {"a1": 2, "a2": 4, "b1": 1, "b2": 3}.get)
    ['b1', 'a1', 'b2', 'a2']
    """
    if top_per_flight < MIN_TOP_PER_FLIGHT:
        raise RulesError(f"top_per_flight: {top_per_flight} is below the minimum of {MIN_TOP_PER_FLIGHT}")
    chosen: list[str] = []
    for index, ranking in enumerate(flight_rankings):
        if len(ranking) < top_per_flight:
            raise RulesError(f"flight_rankings[{index}]: fewer than {top_per_flight} players")
        chosen.extend(ranking[:top_per_flight])
    return sorted(chosen, key=standing_key)

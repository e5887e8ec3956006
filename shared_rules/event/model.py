"""The event model: frozen, typed views of a ``topcut-event/1`` document."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["Player", "Match", "Round", "Event", "STAGES", "SWISS_STAGES", "GAME_ID_FIELDS", "game_id_in"]

#: Stages a round may belong to (EVENT-FORMAT.md ``rounds[].stage``).
STAGES = ("swiss", "swiss-day2", "elimination")
#: Stages whose results count towards Swiss standings.
SWISS_STAGES = frozenset({"swiss", "swiss-day2"})

_EMPTY: Mapping[str, Any] = MappingProxyType({})

#: Where a player's own ID in the game's organized play is kept (docs/event-format-additions.md): ``game_id``,
#: and in documents written before it, ``pop_id`` (a Play! Pokémon ID typed at the desk) or ``rating_id`` (Star
#: Trek), read as the same field.
GAME_ID_FIELDS = ("game_id", "pop_id", "rating_id")


def game_id_in(extra: Mapping[str, Any]) -> str | None:
    """The game ID among a player's extra fields (``game_id``, else an older document's ``pop_id``/``rating_id``).

    >>> game_id_in({"pop_id": " 1000925 "}), game_id_in({"game_id": "kirk"}), game_id_in({})
    ('1000925', 'kirk', None)
    """
    for key in GAME_ID_FIELDS:
        value = extra.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


@dataclass(frozen=True, slots=True)
class Player:
    """One entrant; ``extra`` keeps any project-added field untouched."""

    id: str
    name: str
    entry: int
    birth_year: int | None = None
    late: bool = False
    dropped_after: int | None = None
    earned_byes: int = 0
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False)

    def active_in(self, round_number: int) -> bool:
        """Whether the player is still in the event for that round.

        >>> Player("p1", "Ash", 1, dropped_after=3).active_in(4)
        False
        """
        return self.dropped_after is None or round_number <= self.dropped_after

    @property
    def game_id(self) -> str | None:
        """The player's ID in the game's organized play (Play! Pokémon ID, trekcc.org handle…), or None.

        >>> Player("p-x1", "Ash", 1, extra={"game_id": "1000925"}).game_id
        '1000925'
        """
        return game_id_in(self.extra)


@dataclass(frozen=True, slots=True)
class Match:
    """A table: 2 players, 1 for a bye or missed round, 4-8 for a Tribbles pod.

    ``outcomes`` is ``None`` while the result is pending.
    """

    players: tuple[str, ...]
    outcomes: tuple[str, ...] | None = None
    table: int | None = None
    scores: tuple[float, ...] | None = None
    stats: tuple[Mapping[str, Any], ...] | None = None
    ending: str | None = None
    games: tuple[Any, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False)

    @property
    def reported(self) -> bool:
        """Whether the result is in.

        >>> Match(("p1", "p2")).reported
        False
        """
        return self.outcomes is not None


@dataclass(frozen=True, slots=True)
class Round:
    """One round of one stage."""

    number: int
    stage: str
    matches: tuple[Match, ...]
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False)


@dataclass(frozen=True, slots=True)
class Event:
    """A whole event: who entered, what was played, and the seed of every draw."""

    ruleset: str
    seed: str
    players: tuple[Player, ...]
    rounds: tuple[Round, ...]
    name: str = ""
    settings: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False)
    extra: Mapping[str, Any] = field(default_factory=lambda: _EMPTY, compare=False)

    def player(self, player_id: str) -> Player:
        """The player with that id (KeyError if unknown)."""
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

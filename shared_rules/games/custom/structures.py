"""A generic Swiss for the ``custom`` ruleset (no document: the project's default).

ceil(log2 players) Swiss rounds and no cut, unless the organizer gives
``rounds`` or ``cut``.
"""

from __future__ import annotations

from shared_rules.errors import RulesError

from ...structures._model import Elimination, Structure, elimination_rounds, require_players

__all__ = ["NAMES", "MINIMUM_PLAYERS", "default_rounds", "structure"]

NAMES: tuple[str, ...] = ("swiss",)

MINIMUM_PLAYERS = 2


def default_rounds(players: int) -> int:
    """ceil(log2 players), exactly, with at least one round.

    >>> default_rounds(8), default_rounds(9)
    (3, 4)
    """
    return max(1, (players - 1).bit_length())


def structure(players: int, name: str, rounds: int | None = None, cut: int | None = None) -> Structure:
    """A Swiss structure for a custom event.

    >>> s = structure(20, "swiss"); (s.swiss_rounds, s.cut)
    (5, 0)
    """
    require_players(players, MINIMUM_PLAYERS, "custom")
    notes = []
    if rounds is None:
        rounds = default_rounds(players)
        notes.append("custom: ceil(log2 players) Swiss rounds by default")
    elif isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise RulesError(f"rounds: {rounds!r} is not a positive number of rounds")
    cut = 0 if cut is None else cut
    if isinstance(cut, bool) or not isinstance(cut, int) or cut < 0:
        raise RulesError(f"cut: {cut!r} is not a cut size")
    if cut:
        if cut == 1 or cut & (cut - 1):
            raise RulesError(f"cut: {cut} is not a power of two of at least 2")
        if cut > players:
            raise RulesError(f"cut: top {cut} is more than the {players} players")
    return Structure(
        ruleset="custom",
        players=players,
        structure=name,
        swiss_rounds=rounds,
        cut=cut,
        minimum_players=MINIMUM_PLAYERS,
        source="custom",
        elimination=Elimination(rounds=elimination_rounds(cut)) if cut else None,
        notes=tuple(notes),
    )

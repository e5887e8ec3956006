"""Check-in and the first round: once check-in is used, round 1 pairs the players who checked in.

Project decision (RULES.md is silent; EventLink and TOM work this way): check-in
is optional. When no player has checked in, everybody registered is paired.
Once any active player has checked in, the first round's pairing leaves out the
active players who have not: they are not in the hall. They stay registered; a
late arrival is paired from the next round on (or checked in before round 1 is
paired). Later rounds ignore check-in.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..event.model import Event

__all__ = ["absent_from_first_round", "without"]


def absent_from_first_round(state: Mapping[str, Any]) -> list[str]:
    """The active players the first round leaves out because check-in is used and they did not check in.

    >>> from shared_rules.state.state import initial_state, new_player
    >>> st = dict(initial_state(), players=[new_player("p1", "Ash", 1), new_player("p2", "Misty", 2)])
    >>> absent_from_first_round(st)
    []
    >>> st["players"][0]["checked_in"] = True
    >>> absent_from_first_round(st)
    ['p2']
    """
    if state.get("rounds"):
        return []
    active = [p for p in state["players"] if p.get("dropped_after") is None and not p.get("ejected")]
    if not any(p.get("checked_in") for p in active):
        return []
    return [p["id"] for p in active if not p.get("checked_in")]


def without(event: Event, absent: list[str]) -> Event:
    """``event`` with the ``absent`` players out of the first round (as if dropped before it), for pairing it."""
    if not absent:
        return event
    gone = set(absent)
    players = tuple(dataclasses.replace(p, dropped_after=0) if p.id in gone else p for p in event.players)
    return dataclasses.replace(event, players=players)

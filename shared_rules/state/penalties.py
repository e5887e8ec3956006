"""Penalties given under a game's penalty system (each game declares its system in its package).

- Star Trek CCG (1E, 2E, Tribbles) — OP Guide Appendix B: levels 0-4 (verbal
  warning, written warning, turn loss, game loss, disqualification); a repeat
  of the same infraction at the event is upgraded one level per earlier one
  (capped at 4). Repeats are recognized by ``infraction`` (the Appendix B
  index code, e.g. ``"A3"``), or by the reason text when no code is given.
  Level 0 is kept (so repeats can be counted) but marked off the score card.
- Shatterpoint — Arbiters: ``warning``; three warnings → ejection; or
  ``ejection`` outright.
- Every other ruleset: ``warning``, ``game-loss``, ``disqualification``.

Ejection and disqualification drop the player (after the current round) and
they cannot be reinstated (Shatterpoint "ejected players can't rejoin"; Star
Trek Level 4 "immediately dropped"). A game loss's result is entered by the
judge with ``result.correct`` (ending ``game-loss`` where the ruleset has one);
the reducer only records the penalty.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..games import game_of
from ..games.base import GENERIC_PENALTIES as GENERIC
from ..games.base import PenaltySystem
from .operations import OperationRejected

__all__ = ["GENERIC", "WARNING_ONLY", "REMOVING", "system_of", "requested_kind", "decide"]

#: What a floor judge may issue (see authorize.py): warnings only.
WARNING_ONLY: frozenset[str] = frozenset({"verbal-warning", "written-warning", "warning"})
#: Effects that remove the player from the event for good.
REMOVING = frozenset({"ejection", "disqualification"})


def system_of(ruleset_id: str) -> PenaltySystem:
    """The penalty system of a ruleset.

    >>> system_of("startrek-2e").name, system_of("doomtown").name
    ('levels', 'generic')
    """
    return game_of(ruleset_id).penalties


def requested_kind(ruleset_id: str, kind: str | None, level: int | None) -> str:
    """The kind asked for, before repeats are counted (for authorization)."""
    system = system_of(ruleset_id)
    if system.uses_levels:
        top = max(system.levels)
        if level is None:
            raise OperationRejected(
                f"penalty.issue: payload.level: {ruleset_id} penalties take a level 0-{top} ({system.source})"
            )
        if level not in system.levels:
            raise OperationRejected(f"penalty.issue: payload.level: {level} is not a level (0-{top})")
        name = system.levels[level][0]
        if kind is not None and kind != name:
            raise OperationRejected(f"penalty.issue: payload.kind: '{kind}' does not match level {level} ({name})")
        return name
    kinds = system.kinds
    if level is not None:
        raise OperationRejected(
            f"penalty.issue: payload.level: {ruleset_id} has no penalty levels (use kind: {', '.join(kinds)})"
        )
    if kind not in kinds:
        shown = f"'{kind}'" if kind is not None else "missing"
        raise OperationRejected(
            f"penalty.issue: payload.kind: {shown} is not a penalty of {ruleset_id} (use {', '.join(kinds)})"
        )
    return cast(str, kind)  # a key of kinds


def decide(
    ruleset_id: str,
    history: list[Mapping[str, Any]],
    player: str,
    kind: str | None,
    level: int | None,
    infraction: str | None,
    reason: str,
) -> dict[str, Any]:
    """The penalty actually given: kind, level and effect, counting the player's earlier penalties.

    >>> earlier = [{"player": "p1", "infraction": "A3", "reason": "x", "kind": "turn-loss", "level": 2}]
    >>> decide("startrek-1e", earlier, "p1", None, 2, "A3", "again")["kind"]
    'game-loss'
    >>> warned = [{"player": "p1", "kind": "warning", "level": None, "infraction": None, "reason": "r"}] * 2
    >>> decide("shatterpoint", warned, "p1", "warning", None, None, "third")["effect"]
    'ejection'
    """
    asked = requested_kind(ruleset_id, kind, level)
    mine = [p for p in history if p["player"] == player]
    system = system_of(ruleset_id)
    if system.uses_levels:
        assert level is not None
        key = infraction or reason
        repeats = sum(1 for p in mine if (p.get("infraction") or p.get("reason")) == key)
        given = min(max(system.levels), level + repeats)  # a repeat upgrades one level per earlier one
        name, effect, _ = system.levels[given]
        return {"kind": name, "level": given, "effect": effect, "scorecard": given >= 1}
    effect = system.kinds[asked][0]
    if system.ejection_warnings is not None and asked == "warning":
        warnings = 1 + sum(1 for p in mine if p["kind"] == "warning")
        if warnings >= system.ejection_warnings:
            effect = "ejection"  # this many warnings eject the player
    return {"kind": asked, "level": None, "effect": effect, "scorecard": True}

"""Penalties given under a game's penalty system (each game declares its system in its package).

- Star Trek CCG (1E, 2E, Tribbles) — OP Guide Appendix B: levels 0-4 (verbal
  warning, written warning, turn loss, game loss, disqualification); a repeat
  of the same infraction at the event is upgraded one level per earlier one
  (capped at 4). Repeats are recognized by ``infraction`` (the Appendix B
  index code, e.g. ``"A3"``), or by the reason text when no code is given.
  Level 0 is kept (so repeats can be counted) but marked off the score card.
- Shatterpoint — Arbiters: ``warning``; three warnings → ejection; or
  ``ejection`` outright.
- Every other ruleset: ``warning``, ``game-loss``, ``disqualification``, labelled in
  its document's words where it has them (Doomtown 6.B also names the
  ``written-warning`` and the "Roundup Disqualification"; AGoT's is the
  organizer's "remove players from the tournament"; Pokémon TOP 3.2).

Ejection and disqualification drop the player (after the current round) and
they cannot be reinstated while the penalty stands (Shatterpoint "ejected
players can't rejoin"; Star Trek Level 4 "immediately dropped"). A game loss's
result is entered by the judge with ``result.correct`` (ending ``game-loss``
where the ruleset has one); the reducer only records the penalty.

A penalty given in error, or overturned on appeal, is rescinded
(``penalty.rescind``, head judge or organizer, with a reason): it stays on
record, marked ``rescinded``, but no longer counts — not for a repeat's
upgrade, not for a warning count — and a rescinded ejection or
disqualification leaves the player dropped but free to be reinstated
(Doomtown 6.B: the head judge and TO are the final word at the roundup).
A later penalty that an earlier one upgraded keeps what it was given.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from ..games import game_of
from ..games.base import GENERIC_PENALTIES as GENERIC
from ..games.base import PenaltySystem
from .operations import OperationRejected

__all__ = [
    "GENERIC",
    "WARNING_ONLY",
    "REMOVING",
    "CONSEQUENTIAL",
    "system_of",
    "requested_kind",
    "decide",
    "standing",
    "removing_penalty",
]

#: What a floor judge may issue (see authorize.py): warnings only.
WARNING_ONLY: frozenset[str] = frozenset({"verbal-warning", "written-warning", "warning"})
#: Effects that remove the player from the event for good.
REMOVING = frozenset({"ejection", "disqualification"})
#: Effects that decide a match (the judge enters its result) or the player's place in the event: the form
#: asks to confirm these, naming what they do (a turn loss or a warning goes straight through).
CONSEQUENTIAL = REMOVING | {"game-loss"}


def standing(history: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The penalties that count: those not rescinded.

    >>> [p["kind"] for p in standing([{"kind": "warning"}, {"kind": "game-loss", "rescinded": {"reason": "x"}}])]
    ['warning']
    """
    return [p for p in history if not p.get("rescinded")]


def removing_penalty(history: list[Mapping[str, Any]], player: str) -> Mapping[str, Any] | None:
    """The standing penalty that removed ``player`` from the event (the latest), or None."""
    found = [p for p in standing(history) if p.get("player") == player and p.get("effect") in REMOVING]
    return found[-1] if found else None


def system_of(ruleset_id: str) -> PenaltySystem:
    """The penalty system of a ruleset.

    >>> system_of("startrek-2e").name, system_of("custom").name
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
    mine = [p for p in standing(history) if p["player"] == player]  # a rescinded penalty never counts
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

"""Penalty systems, one per ruleset, as tables.

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

from typing import Any, Mapping

from .operations import OperationRejected

__all__ = ["SYSTEMS", "LEVEL_NAMES", "KINDS", "WARNING_ONLY", "REMOVING", "system_of", "requested_kind", "decide"]

#: Ruleset id -> penalty system; any other ruleset uses ``generic``.
SYSTEMS: dict[str, str] = {
    "startrek-1e": "levels", "startrek-2e": "levels", "tribbles": "levels",  # Star Trek OP Guide Appendix B
    "shatterpoint": "warnings",                                               # Shatterpoint: Arbiters
}
#: Star Trek OP Guide Appendix B, level -> (kind, effect).
LEVEL_NAMES: dict[int, tuple[str, str | None]] = {
    0: ("verbal-warning", None),
    1: ("written-warning", None),
    2: ("turn-loss", "turn-loss"),
    3: ("game-loss", "game-loss"),
    4: ("disqualification", "disqualification"),
}
#: Kinds per non-level system -> effect.
KINDS: dict[str, dict[str, str | None]] = {
    "warnings": {"warning": None, "ejection": "ejection"},
    "generic": {"warning": None, "game-loss": "game-loss", "disqualification": "disqualification"},
}
#: Shatterpoint: "A player has received three or more warnings during the event" → ejection.
EJECTION_WARNINGS = 3
#: What a floor judge may issue (see authorize.py): warnings only.
WARNING_ONLY: frozenset[str] = frozenset({"verbal-warning", "written-warning", "warning"})
#: Effects that remove the player from the event for good.
REMOVING = frozenset({"ejection", "disqualification"})


def system_of(ruleset_id: str) -> str:
    """The penalty system of a ruleset.

    >>> system_of("startrek-2e"), system_of("doomtown")
    ('levels', 'generic')
    """
    return SYSTEMS.get(ruleset_id, "generic")


def requested_kind(ruleset_id: str, kind: str | None, level: int | None) -> str:
    """The kind asked for, before repeats are counted (for authorization)."""
    system = system_of(ruleset_id)
    if system == "levels":
        if level is None:
            raise OperationRejected(f"penalty.issue: payload.level: {ruleset_id} penalties take a level 0-4 "
                                    "(Star Trek OP Guide Appendix B)")
        if level > 4:
            raise OperationRejected(f"penalty.issue: payload.level: {level} is not a level (0-4)")
        if kind is not None and kind != LEVEL_NAMES[level][0]:
            raise OperationRejected(f"penalty.issue: payload.kind: '{kind}' does not match level {level} "
                                    f"({LEVEL_NAMES[level][0]})")
        return LEVEL_NAMES[level][0]
    kinds = KINDS[system]
    if level is not None:
        raise OperationRejected(f"penalty.issue: payload.level: {ruleset_id} has no penalty levels "
                                f"(use kind: {', '.join(kinds)})")
    if kind not in kinds:
        shown = f"'{kind}'" if kind is not None else "missing"
        raise OperationRejected(f"penalty.issue: payload.kind: {shown} is not a penalty of {ruleset_id} "
                                f"(use {', '.join(kinds)})")
    return kind


def decide(ruleset_id: str, history: list[Mapping[str, Any]], player: str, kind: str | None,
           level: int | None, infraction: str | None, reason: str) -> dict[str, Any]:
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
    if system == "levels":
        assert level is not None
        key = infraction or reason
        repeats = sum(1 for p in mine if (p.get("infraction") or p.get("reason")) == key)
        given = min(4, level + repeats)  # Appendix B: repeats upgrade one level per infraction
        name, effect = LEVEL_NAMES[given]
        return {"kind": name, "level": given, "effect": effect, "scorecard": given >= 1}
    effect = KINDS[system][asked]
    if system == "warnings" and asked == "warning":
        warnings = 1 + sum(1 for p in mine if p["kind"] == "warning")
        if warnings >= EJECTION_WARNINGS:
            effect = "ejection"  # Shatterpoint Arbiters: three warnings → ejection
    return {"kind": asked, "level": None, "effect": effect, "scorecard": True}

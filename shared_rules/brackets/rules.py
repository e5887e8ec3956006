"""Per-ruleset bracket policy, as a small table.

Settings that adjust it (all optional): ``best_of`` and ``final_best_of``
(1 or 3), ``playoff_3rd_4th`` (Pokémon TOP 3.2.3 / 3.3.6), ``bracket``
(Star Trek OP Guide 10.2: ``standard`` or ``modified-mcintyre``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from ..errors import RulesError

__all__ = ["BracketRules", "RULES", "SCHEMES", "bracket_rules"]

#: standard: fixed bracket, 1 v lowest every round; agot: game numbers folded each round;
#: mcintyre: re-seeded each round, highest surviving seed v lowest.
SCHEMES = ("standard", "agot", "mcintyre")


@dataclass(frozen=True, slots=True)
class BracketRules:
    """How one game runs its elimination rounds."""

    ruleset: str
    scheme: str               # see SCHEMES
    start: str                # single elimination from the start: "random-seeds" or "agot-random"
    best_of: int | None       # None: the document does not fix it (games optional)
    final_best_of: int | None
    third_place: bool         # a 3rd/4th playoff alongside the final
    drop: str                 # a qualified player who drops after the cut: "bye" (opponent) or "loss"
    replace_before_stage: bool  # the next-ranked player replaces a qualifier who drops before the stage plays
    tie_to_higher_seed: bool  # a tied game or match goes to the higher seed
    source: str

    def best_of_for(self, players_left: int) -> int | None:
        """Best-of for a round that starts with ``players_left`` players in the bracket."""
        return self.final_best_of if players_left <= 2 else self.best_of


_STANDARD = BracketRules("", "standard", "random-seeds", 1, 1, False, "bye", False, False, "")

RULES: Mapping[str, BracketRules] = {
    # Doomtown Floor Rules 5.B (bracket, byes to the next power of two), 3.G (drop after a cut:
    # the opponent gets a bye, no replacement), 5.C (Top 2 best-of-3 in Official roundups).
    "doomtown": replace(_STANDARD, ruleset="doomtown", final_best_of=3,
                        source="Doomtown Floor Rules 3.G, 5.B, 5.C"),
    # Pokémon TOP 3.2 (random seeds, top seeds get byes; a drop or DQ is a loss; optional 3rd/4th
    # playoff), 3.3 / 3.3.6 (seeded by Swiss rank). Best-of is not fixed by the document.
    "pokemon-tcg": replace(_STANDARD, ruleset="pokemon-tcg", best_of=None, final_best_of=None, drop="loss",
                           source="Pokémon TOP 3.2, 3.3, 3.3.6"),
    "pokemon-vg": replace(_STANDARD, ruleset="pokemon-vg", best_of=None, final_best_of=None, drop="loss",
                          source="Pokémon TOP 3.2, 3.3, 3.3.6"),
    # Shatterpoint Showdown, Progression Cut: a qualifier who drops before the next stage plays is
    # replaced by the next-ranked player as the lowest-ranked player in the cut.
    "shatterpoint": replace(_STANDARD, ruleset="shatterpoint", replace_before_stage=True,
                            source="Shatterpoint Showdown, Progression Cut"),
    # AGoT Tournament Regulations, Single Elimination Rounds: game numbers, untimed final.
    "agot": replace(_STANDARD, ruleset="agot", scheme="agot", start="agot-random",
                    source="AGoT Tournament Regulations, Single Elimination Rounds"),
    # Star Trek OP Guide 10 / 10.2: Standard or Modified McIntyre, best-of-one or three, ties to
    # the higher seed; 7.5.1: a player who drops leaves their opponent a bye.
    "startrek-1e": replace(_STANDARD, ruleset="startrek-1e", tie_to_higher_seed=True,
                           source="Star Trek OP Guide 10, 10.2"),
    "startrek-2e": replace(_STANDARD, ruleset="startrek-2e", tie_to_higher_seed=True,
                           source="Star Trek OP Guide 10, 10.2"),
    "custom": replace(_STANDARD, ruleset="custom", source="custom"),
}

_BRACKETS = {"standard": "standard", "modified-mcintyre": "mcintyre"}


def _best_of(value: Any, key: str) -> int:
    if value not in (1, 3) or isinstance(value, bool):
        raise RulesError(f"settings.{key}: {value!r} is not 1 or 3")
    return int(value)


def bracket_rules(ruleset: str, settings: Mapping[str, Any] | None = None) -> BracketRules:
    """The ruleset's bracket policy with the event's settings applied.

    >>> bracket_rules("pokemon-tcg", {"playoff_3rd_4th": True}).third_place
    True
    >>> bracket_rules("startrek-1e", {"bracket": "modified-mcintyre"}).scheme
    'mcintyre'
    >>> bracket_rules("tribbles")
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: ruleset: tribbles has no elimination bracket (pods, Star Trek OP Guide 7.6)
    """
    settings = settings or {}
    if ruleset == "tribbles":
        raise RulesError("ruleset: tribbles has no elimination bracket (pods, Star Trek OP Guide 7.6)")
    if ruleset not in RULES:
        raise RulesError(f"ruleset: {ruleset!r} has no bracket rules")
    rules = RULES[ruleset]
    if "best_of" in settings:
        best = _best_of(settings["best_of"], "best_of")
        rules = replace(rules, best_of=best, final_best_of=best)
    if "final_best_of" in settings:
        rules = replace(rules, final_best_of=_best_of(settings["final_best_of"], "final_best_of"))
    if settings.get("playoff_3rd_4th"):
        rules = replace(rules, third_place=True)
    if "bracket" in settings:
        name = settings["bracket"]
        if not ruleset.startswith("startrek") or name not in _BRACKETS:
            raise RulesError(f"settings.bracket: {name!r} is not a bracket of {ruleset}"
                             + (" (standard, modified-mcintyre)" if ruleset.startswith("startrek") else ""))
        rules = replace(rules, scheme=_BRACKETS[name])
    return rules

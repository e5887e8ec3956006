"""The bracket policy model; each game declares its own in its package (``shared_rules/games/<game>/``).

Settings that adjust it (all optional): ``best_of`` and ``final_best_of``
(1 or 3), ``playoff_3rd_4th`` (Pokémon TOP 3.2.3 / 3.3.6), ``bracket``
(Star Trek OP Guide 10.2: ``standard`` or ``modified-mcintyre``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..errors import RulesError
from ..games import game_of

__all__ = ["BracketRules", "SCHEMES", "STANDARD", "GAME_NUMBERS", "MCINTYRE", "bracket_rules"]

#: standard: fixed bracket, 1 v lowest every round; agot: game numbers folded each round;
#: mcintyre: re-seeded each round, highest surviving seed v lowest.
#: The names are what event documents store in a round's ``bracket.scheme`` (EVENT-FORMAT.md).
STANDARD, GAME_NUMBERS, MCINTYRE = "standard", "agot", "mcintyre"
SCHEMES = (STANDARD, GAME_NUMBERS, MCINTYRE)


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketRules:
    """How one game runs its elimination rounds.

    >>> BracketRules(ruleset="x", source="house rules").best_of_for(2)
    1
    """

    ruleset: str
    scheme: str = "standard"  # see SCHEMES
    start: str = "random-seeds"  # single elimination from the start: "random-seeds" or "agot-random"
    best_of: int | None = 1  # None: the document does not fix it (games optional)
    final_best_of: int | None = 1
    third_place: bool = False  # a 3rd/4th playoff alongside the final
    drop: str = "bye"  # a qualified player who drops after the cut: "bye" (opponent) or "loss"
    replace_before_stage: bool = False  # the next-ranked player replaces a qualifier who drops before the stage
    tie_to_higher_seed: bool = False  # a tied game or match goes to the higher seed
    source: str

    def best_of_for(self, players_left: int) -> int | None:
        """Best-of for a round that starts with ``players_left`` players in the bracket."""
        return self.final_best_of if players_left <= 2 else self.best_of


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
    try:
        game = game_of(ruleset)
    except RulesError:
        raise RulesError(f"ruleset: {ruleset!r} has no bracket rules") from None
    if game.brackets is None:
        raise RulesError(f"ruleset: {ruleset} has no elimination bracket ({game.no_bracket})")
    rules = game.brackets
    if "best_of" in settings:
        best = _best_of(settings["best_of"], "best_of")
        rules = replace(rules, best_of=best, final_best_of=best)
    if "final_best_of" in settings:
        rules = replace(rules, final_best_of=_best_of(settings["final_best_of"], "final_best_of"))
    if settings.get("playoff_3rd_4th"):
        rules = replace(rules, third_place=True)
    if "bracket" in settings:
        name = settings["bracket"]
        names = game.bracket_names
        if name not in names:
            raise RulesError(
                f"settings.bracket: {name!r} is not a bracket of {ruleset}"
                + (f" ({', '.join(names)})" if names else "")
            )
        rules = replace(rules, scheme=names[name])
    return rules

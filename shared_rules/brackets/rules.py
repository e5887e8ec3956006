"""The bracket policy model; each game declares its own in its package (``shared_rules/games/<game>/``),
and :meth:`shared_rules.games.base.Game.bracket_rules` applies an event's settings to it.

Settings that adjust it (all optional): ``best_of`` and ``final_best_of``
(1 or 3), ``playoff_3rd_4th`` (Pokémon TOP 3.2.3 / 3.3.6), ``bracket``
(Star Trek OP Guide 10.2: ``standard`` or ``modified-mcintyre``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BracketRules", "SCHEMES", "STANDARD", "GAME_NUMBERS", "MCINTYRE"]

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

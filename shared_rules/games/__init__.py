"""The game registry: ruleset id → :class:`~.base.Game`, one package per game.

Each game package (``pokemon``, ``doomtown``, ``shatterpoint``, ``agot``,
``startrek``, ``tribbles``, ``custom``) holds everything its documents say: its
``ruleset`` module builds the configured :class:`~shared_rules.rulesets.base.Ruleset`
(all that standings need), its ``game`` module declares ``GAMES``: its ruleset
ids → Game (pairing, brackets, structures, forms). Each is imported on first
use, so a tablet loads only the game it runs, and computing standings loads
only the ruleset.

>>> game_of("doomtown").brackets.final_best_of
3
>>> game_of("chess")
Traceback (most recent call last):
...
shared_rules.errors.DocumentError: ruleset: 'chess' is not a ruleset (use pokemon-tcg, pokemon-vg, doomtown, shatterpoint, agot, startrek-1e, startrek-2e, tribbles, custom)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..errors import DocumentError, RulesError

if TYPE_CHECKING:  # pragma: no cover
    from ..brackets.rules import BracketRules
    from ..pairing.policies import PairingPolicy
    from ..rulesets.base import Ruleset
    from .base import Game

__all__ = ["RULESET_IDS", "PACKAGES", "bracket_rules", "game_of", "games", "policy_for", "ruleset_of"]

#: Ruleset id → the game package that declares it.
_PACKAGE_OF: dict[str, str] = {
    "pokemon-tcg": "pokemon",
    "pokemon-vg": "pokemon",
    "doomtown": "doomtown",
    "shatterpoint": "shatterpoint",
    "agot": "agot",
    "startrek-1e": "startrek",
    "startrek-2e": "startrek",
    "tribbles": "tribbles",
    "custom": "custom",
}

#: Every ruleset id, as used in the API, files and UI (RULES.md).
RULESET_IDS: tuple[str, ...] = tuple(_PACKAGE_OF)
#: Every game package, in registry order.
PACKAGES: tuple[str, ...] = tuple(dict.fromkeys(_PACKAGE_OF.values()))


def _package(ruleset_id: str) -> str:
    package = _PACKAGE_OF.get(ruleset_id) if isinstance(ruleset_id, str) else None
    if package is None:
        raise DocumentError("ruleset", f"'{ruleset_id}' is not a ruleset (use {', '.join(RULESET_IDS)})")
    return package


def ruleset_of(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The ruleset of an id configured by an event's settings (imports only the game's ruleset and metrics)."""
    module = importlib.import_module(f"{__name__}.{_package(ruleset_id)}.ruleset")
    ruleset: Ruleset = module.build(ruleset_id, settings)
    return ruleset


def game_of(ruleset_id: str) -> Game:
    """The game of a ruleset id (its declarations imported on first use)."""
    game: Game = importlib.import_module(f"{__name__}.{_package(ruleset_id)}.game").GAMES[ruleset_id]
    return game


def bracket_rules(ruleset_id: str, settings: Mapping[str, Any] | None = None) -> BracketRules:
    """The ruleset's bracket rules with the event's settings applied.

    >>> bracket_rules("pokemon-tcg", {"playoff_3rd_4th": True}).third_place
    True
    >>> bracket_rules("startrek-1e", {"bracket": "modified-mcintyre"}).scheme
    'mcintyre'
    >>> bracket_rules("tribbles")
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: ruleset: tribbles has no elimination bracket (pods, Star Trek OP Guide 7.6)
    """
    try:
        game = game_of(ruleset_id)
    except RulesError:
        raise RulesError(f"ruleset: {ruleset_id!r} has no bracket rules") from None
    return game.bracket_rules(settings)


def policy_for(ruleset_id: str, settings: Mapping[str, Any] | None = None) -> PairingPolicy:
    """The ruleset's Swiss pairing policy with the event's settings applied.

    >>> policy_for("agot").bye_rule
    'lowest-ranked-without-bye'
    """
    return game_of(ruleset_id).pairing_policy(settings)


def games() -> tuple[Game, ...]:
    """Every game, in registry order (imports every game package).

    >>> [g.id for g in games()][:2]
    ['pokemon-tcg', 'pokemon-vg']
    """
    return tuple(game_of(rid) for rid in RULESET_IDS)

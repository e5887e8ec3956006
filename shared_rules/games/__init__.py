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

The engines are handed what a game declares; the functions here resolve it by ruleset id for the
command line, the reducer and the PWA's rules API: the configured ruleset, the bracket rules, the
pairing policy, the time-called helper and the structure table.

>>> s = suggest_structure("doomtown", 9)
>>> (s.structure, s.swiss_rounds, s.cut)
('single-day', 4, 4)
>>> structure_names("pokemon-tcg")
('single-day', 'two-day')
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import DocumentError, RulesError

if TYPE_CHECKING:  # pragma: no cover
    from ..brackets.rules import BracketRules
    from ..event.model import Event
    from ..game_end import GameEnd
    from ..pairing.policies import PairingPolicy
    from ..rulesets.base import Ruleset
    from ..standings.engine import Standing
    from ..structures import Structure
    from .base import Game

__all__ = [
    "RULESET_IDS",
    "RULESETS",
    "PACKAGES",
    "bracket_rules",
    "deciding_bracket",
    "event_standings",
    "day_two_qualifiers",
    "division_structures",
    "game_of",
    "games",
    "get_ruleset",
    "policy_for",
    "ruleset_of",
    "structure_names",
    "suggest_structure",
    "time_called",
]

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
#: Every ruleset id (the structure tables' name for them).
RULESETS: tuple[str, ...] = RULESET_IDS
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


def get_ruleset(ruleset_id: str, settings: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset for an id, configured by the event's settings.

    >>> get_ruleset("agot").id
    'agot'
    """
    return ruleset_of(ruleset_id, dict(settings or {}))


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


def deciding_bracket(ruleset_id: str, settings: Mapping[str, Any] | None = None) -> BracketRules | None:
    """The bracket rules that decide elimination matches in the standings; None without a bracket or with refused settings.

    >>> deciding_bracket("doomtown").scheme, deciding_bracket("tribbles")
    ('standard', None)
    """
    try:
        game = game_of(ruleset_id)
    except RulesError:
        return None  # no match is decided
    return game.deciding_bracket(settings)


def event_standings(event: Event) -> list[Standing]:
    """The standings of an event under its own game: the ruleset and bracket rules resolved once for the walk."""
    from ..standings.engine import compute_standings

    ruleset = get_ruleset(event.ruleset, event.settings)
    # Only an elimination round is decided by the bracket rules: without one, the game's other
    # declarations (settings, structures, deck lists…) are not even imported (issue #27).
    elimination = any(r.stage == "elimination" for r in event.rounds)
    bracket = deciding_bracket(event.ruleset, event.settings) if elimination else None
    return compute_standings(event, ruleset, bracket=bracket)


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


def time_called(ruleset_id: str, args: Mapping[str, Any]) -> GameEnd:
    """The ruleset's time-called (or concession) helper, its numbers given by name.

    Doomtown ``control``, ``influence``, ``bullets`` (``pulls``, ``coin``);
    Shatterpoint ``struggle``, ``wounds`` (``conceding``); AGoT ``power``;
    Star Trek ``scores`` (``planet_missions``, ``space_missions``). Each is a
    pair, player 0 then player 1. A missing or malformed number is a RulesError.

    >>> time_called("startrek-1e", {"scores": [100, 60]}).winner
    0
    >>> time_called("agot", {"power": [11, 13]}).winner
    1
    """
    helper = game_of(ruleset_id).time_called
    if helper is None:
        with_helper = [g.id for g in games() if g.time_called is not None]
        raise RulesError(f"{ruleset_id}: has no time-called helper ({', '.join(with_helper)})")
    try:
        return helper.decide(args)
    except KeyError as exc:
        raise RulesError(f"{ruleset_id}: time called needs '{exc.args[0]}'") from None
    except TypeError as exc:
        raise RulesError(f"{ruleset_id}: time called: {exc}") from None


def _game(ruleset: str) -> Game:
    try:
        return game_of(ruleset)
    except RulesError:
        raise RulesError(f"ruleset: {ruleset!r} is not one of {', '.join(RULESET_IDS)}") from None


def structure_names(ruleset: str) -> tuple[str, ...]:
    """Valid ``--structure`` values for a ruleset; the first is the default.

    >>> structure_names("agot")
    ('basic', 'advanced')
    """
    return _game(ruleset).structure_names


def _resolve_name(ruleset: str, structure: str | None) -> str:
    return _game(ruleset).structure_name(structure)


def suggest_structure(
    ruleset: str,
    players: int,
    structure: str | None = None,
    *,
    rounds: int | None = None,
    cut: int | None = None,
) -> Structure:
    """The document's rounds and cut for ``players`` (``rounds``/``cut`` overrides: ``custom`` only).

    >>> suggest_structure("startrek-1e", 3).swiss_rounds
    3
    >>> suggest_structure("startrek-1e", 2)
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: players: 2 is below the minimum of 3 for startrek-1e
    """
    return _game(ruleset).suggest_structure(players, structure, rounds=rounds, cut=cut)


def day_two_qualifiers(ruleset: str, points_by_player: Mapping[str, int], swiss_rank: Sequence[str]) -> list[str]:
    """Day-two players of a two-day event (Pokémon TOP 3.3.5: 19+ match points or the top 32).

    >>> day_two_qualifiers("pokemon-tcg", {"a": 19, "b": 0}, ["a", "b"])
    ['a', 'b']
    """
    qualifiers = _game(ruleset).day_two_qualifiers
    if qualifiers is None:
        raise RulesError(f"ruleset: {ruleset} has no day two")
    return qualifiers(points_by_player, swiss_rank)


def division_structures(
    ruleset: str, division_players: Mapping[str, int], structure: str | None = None
) -> dict[str, Structure]:
    """Per age division structures; Age-Modified events use the largest division (Pokémon TOP 3.3.5).

    >>> division_structures("pokemon-vg", {"masters": 40, "senior": 9})["senior"].swiss_rounds
    4
    """
    build = _game(ruleset).division_structures
    if build is None:
        with_divisions = [g.id for g in games() if g.division_structures is not None]
        raise RulesError(f"ruleset: {ruleset!r} has no age divisions ({', '.join(with_divisions)})")
    return build(division_players, _resolve_name(ruleset, structure))

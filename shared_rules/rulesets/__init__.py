"""The public ruleset entry: ``get_ruleset(id, settings)``.

Every game lives in its own package under :mod:`shared_rules.games`; this
module asks the game registry, which imports the game on first use so a tablet
only loads what it needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games import RULESET_IDS, ruleset_of
from .base import Outcome, Policy, Ruleset

__all__ = ["RULESET_IDS", "Outcome", "Policy", "Ruleset", "get_ruleset"]


def get_ruleset(ruleset_id: str, settings: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset for an id, configured by the event's settings.

    >>> get_ruleset("chess")
    Traceback (most recent call last):
    ...
    shared_rules.errors.DocumentError: ruleset: 'chess' is not a ruleset (use pokemon-tcg, pokemon-vg, doomtown, shatterpoint, agot, startrek-1e, startrek-2e, tribbles, custom)
    """
    return ruleset_of(ruleset_id, dict(settings or {}))

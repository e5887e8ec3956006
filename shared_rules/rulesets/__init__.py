"""The ruleset registry: ``get_ruleset(id, settings)``.

Each game lives in its own module that exposes ``build(ruleset_id, settings)``;
modules are imported on first use so a tablet only loads what it needs.
"""

from __future__ import annotations

import importlib
from typing import Any, Mapping

from ..errors import DocumentError
from .base import Outcome, Policy, Ruleset

__all__ = ["RULESET_IDS", "Outcome", "Policy", "Ruleset", "get_ruleset"]

_MODULES: dict[str, str] = {
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
RULESET_IDS: tuple[str, ...] = tuple(_MODULES)


def get_ruleset(ruleset_id: str, settings: Mapping[str, Any] | None = None) -> Ruleset:
    """The ruleset for an id, configured by the event's settings.

    >>> get_ruleset("chess")
    Traceback (most recent call last):
    ...
    shared_rules.errors.DocumentError: ruleset: 'chess' is not a ruleset (use pokemon-tcg, pokemon-vg, doomtown, shatterpoint, agot, startrek-1e, startrek-2e, tribbles, custom)
    """
    if ruleset_id not in _MODULES:
        raise DocumentError("ruleset", f"'{ruleset_id}' is not a ruleset (use {', '.join(RULESET_IDS)})")
    module = importlib.import_module(f"{__name__}.{_MODULES[ruleset_id]}")
    return module.build(ruleset_id, dict(settings or {}))

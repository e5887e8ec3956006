"""Optimal Swiss pairing core: exact, seeded, fast on real fields.

The names below load :mod:`.matching` on first use, so a module that only needs
the pairing policy model (:mod:`.policies`, which every game declares) stays light.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Entrant", "Pairing", "pair_players", "total_squared_difference"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return getattr(importlib.import_module(f"{__name__}.matching"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

"""The ruleset model: outcomes, points, tiebreakers and policies of one configured ruleset.

Every game builds its own in its package (``shared_rules/games/<game>/ruleset.py``);
:func:`shared_rules.games.get_ruleset` resolves a ruleset id and an event's settings to one.
"""

from __future__ import annotations

from .base import Outcome, Policy, Ruleset

__all__ = ["Outcome", "Policy", "Ruleset"]

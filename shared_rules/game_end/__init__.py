"""Game-end results a judge needs at the table: who won when time is called.

Each game declares its helper in its package (``shared_rules/games/<game>/game_end.py``,
citing its section); each takes both players' numbers (index 0 and 1) and
returns a :class:`GameEnd`: ``winner`` (``None`` for a draw), the outcome word
of each player from the event format's vocabulary, and the ``reason`` naming
the step that decided. :func:`shared_rules.games.time_called` reaches them by ruleset id.
"""

from __future__ import annotations

from ._result import GameEnd, Stats

__all__ = ["GameEnd", "Stats"]

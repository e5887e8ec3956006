"""Game-end helpers a judge needs at the table: who won when time is called.

Each game declares its helper in its package (``shared_rules/games/<game>/game_end.py``,
citing its section); each takes both players' numbers (index 0 and 1) and
returns a :class:`GameEnd`: ``winner`` (``None`` for a draw), the outcome word
of each player from the event format's vocabulary, and the ``reason`` naming
the step that decided. :func:`time_called` reaches them by ruleset id.

>>> time_called("agot", {"power": [11, 13]}).winner
1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RulesError
from ..games import game_of, games
from ._result import GameEnd, Stats

__all__ = ["time_called", "GameEnd", "Stats"]


def time_called(ruleset: str, args: Mapping[str, Any]) -> GameEnd:
    """The ruleset's time-called (or concession) helper, its numbers given by name.

    Doomtown ``control``, ``influence``, ``bullets`` (``pulls``, ``coin``);
    Shatterpoint ``struggle``, ``wounds`` (``conceding``); AGoT ``power``;
    Star Trek ``scores`` (``planet_missions``, ``space_missions``). Each is a
    pair, player 0 then player 1. A missing or malformed number is a RulesError.

    >>> time_called("startrek-1e", {"scores": [100, 60]}).winner
    0
    """
    helper = game_of(ruleset).time_called
    if helper is None:
        with_helper = [g.id for g in games() if g.time_called is not None]
        raise RulesError(f"{ruleset}: has no time-called helper ({', '.join(with_helper)})")
    try:
        return helper.decide(args)
    except KeyError as exc:
        raise RulesError(f"{ruleset}: time called needs '{exc.args[0]}'") from None
    except TypeError as exc:
        raise RulesError(f"{ruleset}: time called: {exc}") from None

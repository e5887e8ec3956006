"""Game-end helpers a judge needs at the table: who won when time is called.

Each takes both players' numbers (index 0 and 1) and returns a
:class:`GameEnd`: ``winner`` (``None`` for a draw), the outcome word of each
player from the event format's vocabulary, and the ``reason`` naming the
step that decided. One module per game, citing its section.

>>> agot_time_called(power=(11, 13)).winner
1
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import RulesError
from ._result import GameEnd, Stats
from .agot import time_called as agot_time_called
from .doomtown import time_called as doomtown_time_called
from .shatterpoint import bye as shatterpoint_bye
from .shatterpoint import concession as shatterpoint_concession
from .shatterpoint import mission_critical_minute as shatterpoint_mission_critical_minute
from .shatterpoint import round_minutes as shatterpoint_round_minutes
from .shatterpoint import time_called as shatterpoint_time_called
from .startrek import time_called as startrek_time_called
from .startrek import time_called_1e as startrek_1e_time_called
from .startrek import time_called_2e as startrek_2e_time_called

__all__ = [
    "time_called",
    "GameEnd",
    "Stats",
    "doomtown_time_called",
    "shatterpoint_time_called",
    "shatterpoint_concession",
    "shatterpoint_bye",
    "shatterpoint_round_minutes",
    "shatterpoint_mission_critical_minute",
    "agot_time_called",
    "startrek_time_called",
    "startrek_1e_time_called",
    "startrek_2e_time_called",
]


def time_called(ruleset: str, args: Mapping[str, Any]) -> GameEnd:
    """The ruleset's time-called (or concession) helper, its numbers given by name.

    Doomtown ``control``, ``influence``, ``bullets`` (``pulls``, ``coin``);
    Shatterpoint ``struggle``, ``wounds`` (``conceding``); AGoT ``power``;
    Star Trek ``scores`` (``planet_missions``, ``space_missions``). Each is a
    pair, player 0 then player 1. A missing or malformed number is a RulesError.

    >>> time_called("agot", {"power": [11, 13]}).winner
    1
    """
    try:
        if ruleset == "doomtown":
            return doomtown_time_called(args["control"], args["influence"], args["bullets"],
                                        args.get("pulls") or (), coin=args.get("coin"))
        if ruleset == "shatterpoint":
            if args.get("conceding") is not None:
                return shatterpoint_concession(args["conceding"], args["struggle"], args["wounds"])
            return shatterpoint_time_called(args["struggle"], args["wounds"])
        if ruleset == "agot":
            return agot_time_called(args["power"])
        if ruleset in ("startrek-1e", "startrek-2e"):
            return startrek_time_called(ruleset, args["scores"], args.get("planet_missions"),
                                        args.get("space_missions"))
    except KeyError as exc:
        raise RulesError(f"{ruleset}: time called needs '{exc.args[0]}'") from None
    except TypeError as exc:
        raise RulesError(f"{ruleset}: time called: {exc}") from None
    raise RulesError(f"{ruleset}: has no time-called helper (doomtown, shatterpoint, agot, startrek-1e, "
                     "startrek-2e)")

"""Game-end helpers a judge needs at the table: who won when time is called.

Each takes both players' numbers (index 0 and 1) and returns a
:class:`GameEnd`: ``winner`` (``None`` for a draw), the outcome word of each
player from the event format's vocabulary, and the ``reason`` naming the
step that decided. One module per game, citing its section.

>>> agot_time_called(power=(11, 13)).winner
1
"""

from __future__ import annotations

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

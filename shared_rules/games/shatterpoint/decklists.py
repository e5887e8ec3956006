"""Shatterpoint strike teams (Shatterpoint Showdown event document, "Strike Team").

"A player must submit a strike team to the EO before the event begins and may not change their strike
team once the event begins. A strike team is built as described in the Shatterpoint Core Rules book"
(not among the project's documents): the list is two squads of units, each unit with its point cost;
the squads' point limit is the organizer's setting (``settings.decklists.points``).
"""

from __future__ import annotations

from ...decklists.model import DeckLists, ListSection

__all__ = ["DECKLISTS"]

_UNITS = "One unit per line: its point cost, then its name (e.g. 6 Lord Maul). The primary unit: 0."

DECKLISTS = DeckLists(
    sections=(
        ListSection(key="squad-1", label="Squad 1", points=True, source="Shatterpoint Strike Team", hint=_UNITS),
        ListSection(key="squad-2", label="Squad 2", points=True, source="Shatterpoint Strike Team", hint=_UNITS),
    ),
    main="squad-1",
    source="Shatterpoint Strike Team: submitted to the EO before the event begins; no change once it begins",
    noun="strike team",
)

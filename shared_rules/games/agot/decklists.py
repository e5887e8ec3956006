"""AGoT deck lists (AGoT Tournament Regulations 1.0.1, "Player Materials", "Deck Building").

"When a deck list is required, players should bring a completed list or arrive at the venue early to
fill one out" (Player Materials). Deck Building: "Each draw deck must contain one faction card and a
minimum of 60 other cards. A player may also include one agenda card that does not count toward the
60-card minimum" and "Each plot deck must contain exactly seven cards."
"""

from __future__ import annotations

from ...decklists.model import DeckLists, ListSection

__all__ = ["DECKLISTS"]

_LINES = "One line per title: the quantity, then the name (e.g. 3 Hedge Knight)."

DECKLISTS = DeckLists(
    sections=(
        ListSection(
            key="faction",
            label="Faction",
            minimum=1,
            maximum=1,
            source="AGoT Deck Building",
            hint="The faction card (e.g. House Stark).",
        ),
        ListSection(
            key="agenda",
            label="Agenda",
            maximum=1,
            required=False,
            source="AGoT Deck Building",
            hint="The agenda card, if any; it does not count toward the 60 cards.",
        ),
        ListSection(key="plot", label="Plot deck", minimum=7, maximum=7, source="AGoT Deck Building", hint=_LINES),
        ListSection(key="draw", label="Draw deck", minimum=60, source="AGoT Deck Building", hint=_LINES),
    ),
    main="draw",
    source="AGoT Player Materials: a completed list when one is required; Deck Building: sizes",
)

"""Doomtown deck lists (Doomtown Floor Rules 1.2, 2.A, 2.D).

2.A: the TO is responsible for "Collecting and submitting the 1st and 2nd place deck lists for any
Official roundup"; 2.D: players bring "any materials specifically required for a particular roundup
format, such as assembled decks and/or deck lists". A list names its outfit, its legend (if any) and
its deck; the Floor Rules set no deck size, so the organizer's settings apply to the deck.
"""

from __future__ import annotations

from ...decklists.model import DeckLists, ListSection

__all__ = ["DECKLISTS"]

DECKLISTS = DeckLists(
    sections=(
        ListSection(
            key="outfit", label="Outfit", minimum=1, maximum=1, hint="The outfit card (e.g. 1 The Sloane Gang)."
        ),
        ListSection(key="legend", label="Legend", maximum=1, required=False, hint="The legend, if the deck has one."),
        ListSection(
            key="deck",
            label="Deck",
            hint="One line per card: the quantity, then the name (e.g. 4 Pair of Six-Shooters).",
        ),
    ),
    main="deck",
    source="Doomtown Floor Rules 2.A: the TO collects and submits the 1st and 2nd place deck lists",
)

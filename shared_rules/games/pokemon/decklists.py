"""Pokémon deck lists and teams: the TOP (the seed document) asks for none and sets no deck size, so
the list is one deck (TCG) or one team (VG), checked only against the organizer's settings."""

from __future__ import annotations

from ...decklists.model import DeckLists, ListSection

__all__ = ["decklists_of"]

_TCG = DeckLists(
    sections=(
        ListSection(
            key="deck",
            label="Deck",
            hint="One line per card: the quantity, then the name (e.g. 4 Professor's Research). "
            "The Tournament Operation Procedures set no deck size: the organizer's settings apply.",
        ),
    ),
    main="deck",
    source="Pokémon TOP: no deck-list requirement; the organizer decides",
)
_VG = DeckLists(
    sections=(
        ListSection(
            key="team",
            label="Team",
            hint="One Pokémon per line (e.g. 1 Incineroar). The Tournament Operation Procedures set no "
            "team size: the organizer's settings apply.",
        ),
    ),
    main="team",
    source="Pokémon TOP: no team-list requirement; the organizer decides",
    noun="team list",
)


def decklists_of(ruleset_id: str) -> DeckLists:
    """The list of a Pokémon ruleset: a TCG deck or a VG team."""
    return _VG if ruleset_id == "pokemon-vg" else _TCG

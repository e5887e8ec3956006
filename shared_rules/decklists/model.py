"""What a game declares about deck lists: the sections a list has and the checks its documents cite.

A game's :class:`DeckLists` names each section of a list (Star Trek's deck, dilemma pile and missions;
AGoT's faction, agenda, plot deck and draw deck; Shatterpoint's squads…) with the sizes and copy limits
its documents set, the document sections that ask for lists, and the infractions a deck check may lead
to (Star Trek OP Guide Appendix B D1, D2). What the documents leave to the organizer (a deck's size, the
copies of one title, a strike team's points) comes from the event's ``settings.decklists``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["ListSection", "DeckLists", "GENERIC_DECKLISTS"]


@dataclass(frozen=True, slots=True, kw_only=True)
class ListSection:
    """One section of a list: its key and label, the counts its document sets, how its lines read."""

    key: str
    label: str
    #: The document's smallest and largest number of cards (None: the document sets none).
    minimum: int | None = None
    maximum: int | None = None
    #: A list without this section is incomplete (an optional one, AGoT's agenda, may be left empty).
    required: bool = True
    #: The most copies of one title the document allows in this section (None: none cited).
    copies: int | None = None
    #: Lines are units with their point cost (``5 Cad Bane``), not card quantities.
    points: bool = False
    #: Where the counts come from (the document's section).
    source: str = ""
    #: What to type here, shown beside the box.
    hint: str = ""

    def to_json(self) -> dict[str, Any]:
        """The section as the app's list form reads it."""
        return {
            "key": self.key,
            "label": self.label,
            "minimum": self.minimum,
            "maximum": self.maximum,
            "required": self.required,
            "copies": self.copies,
            "points": self.points,
            "source": self.source,
            "hint": self.hint,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class DeckLists:
    """A game's deck lists: sections, the section the organizer's size and copy settings apply to,
    the documents' words about lists, and the infractions (codes) a deck check offers."""

    sections: tuple[ListSection, ...]
    #: The section ``settings.decklists`` ``min_cards``/``max_cards``/``copies`` apply to (the main deck).
    main: str
    #: What the documents say about lists, with the section (shown on the staff screen).
    source: str = ""
    #: Infraction codes of the game's penalty index a deck check offers (Star Trek D1, D2), in order.
    infractions: tuple[str, ...] = ()
    #: What the list is called in the game's words ("deck list", "strike team").
    noun: str = "deck list"

    def section(self, key: str) -> ListSection | None:
        """The section named ``key``, or None."""
        return next((s for s in self.sections if s.key == key), None)

    def to_json(self) -> dict[str, Any]:
        """The descriptor the app builds its list form and deck-check screen from."""
        return {
            "sections": [s.to_json() for s in self.sections],
            "main": self.main,
            "source": self.source,
            "infractions": list(self.infractions),
            "noun": self.noun,
        }


_CARD_LINES = "One line per title: the quantity, then the name (e.g. 3 Professor Snape). A name alone counts one."

#: A game whose documents say nothing of lists: one deck, checked only against the organizer's settings.
GENERIC_DECKLISTS = DeckLists(
    sections=(ListSection(key="deck", label="Deck", hint=_CARD_LINES),),
    main="deck",
    source="",
)

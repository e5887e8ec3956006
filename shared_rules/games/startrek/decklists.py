"""Star Trek CCG deck lists (OP Guide 5.1, Section 7, Appendix B D1, D2).

Section 7: the director brings "Blank deck list forms (if required)", players "A completed deck list
form (if required)"; Appendix A: the event's Special Rules say "if deck lists are required". Appendix
B D2 (Illegal Deck list, Level 2): a list with an illegal number of cards, cards illegal in the
format, a game-rule violation "such as the 13-card maximum in a Q's Tent in First Edition", or
contents that differ from the deck; D1 (Illegal Deck, Level 2): the deck itself, "the three-card
limit rule in Second Edition" (its example: four copies of The Weak Will Perish in a dilemma pile).
The fix is due "by the beginning of the next round". Deck sizes are the format's rules, not the
Guide's: the organizer's settings apply to the draw deck.
"""

from __future__ import annotations

from ...decklists.model import DeckLists, ListSection

__all__ = ["decklists_of"]

_LINES = "One line per card: the quantity, then the name (e.g. 2 Data, Aspirer)."
_SOURCE = "Star Trek OP Guide 7 (deck list forms), Appendix B D1, D2"


def decklists_of(ruleset_id: str) -> DeckLists:
    """The list of a Star Trek ruleset: 1E with its Q's Tent, 2E with the three-card limit, Tribbles a deck."""
    if ruleset_id == "tribbles":
        return DeckLists(
            sections=(ListSection(key="deck", label="Deck", hint=_LINES),),
            main="deck",
            source=_SOURCE,
            infractions=("D2", "D1"),
        )
    two = ruleset_id == "startrek-2e"
    copies = 3 if two else None
    limit = "Star Trek OP Guide Appendix B D1 (three-card limit, Second Edition)" if two else ""
    sections = [
        ListSection(key="deck", label="Draw deck", copies=copies, source=limit, hint=_LINES),
        ListSection(key="dilemmas", label="Dilemma pile", copies=copies, source=limit, hint=_LINES),
        ListSection(key="missions", label="Missions", hint="One mission per line (e.g. 1 Excavation)."),
    ]
    if not two:
        sections.append(
            ListSection(
                key="q-tent",
                label="Q's Tent",
                maximum=13,
                required=False,
                source="Star Trek OP Guide Appendix B D2 (13-card maximum in a Q's Tent)",
                hint="The cards in your Q's Tent, if you play one.",
            )
        )
    return DeckLists(sections=tuple(sections), main="deck", source=_SOURCE, infractions=("D2", "D1"))

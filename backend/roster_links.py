"""Roster entries linked to people: the automatic link made when a ``player.register`` op is accepted.

A tablet registers players offline, so a roster entry is linked to a person when its register op reaches the
server (inside the push's transaction), or later by staff (backend/people.py). The automatic link never
guesses on names: it needs the game id the op carries — ``game_id``, which the game declares as a Play!
Pokémon ID (with ``birth_year`` agreeing when both are known) or a Star Trek trekcc.org handle
(``Game.player_id.person``; older clients' ``pop_id`` and ``rating_id`` are read too) — held by exactly one
person, neither the entry nor the person being linked in the event already, and the person linked by no
other event (a game id is no proof of consent: anyone's staff can search it; backend/consent.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, insert, or_, select

from backend.db import db
from backend.models import Person, RosterLink, now_ms

__all__ = ["game_ids_of", "auto_link", "unlink_removed", "matching_people"]


def _text(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def game_ids_of(player: dict[str, Any], ruleset: str | None) -> tuple[str | None, str | None, int | None]:
    """(Play! Pokémon ID, trekcc id, birth year) a registered player of an event of ``ruleset`` carries.

    >>> game_ids_of({"id": "p1", "name": "Ash", "game_id": "1234567", "birth_year": 2001}, "pokemon-tcg")
    ('1234567', None, 2001)
    >>> game_ids_of({"id": "p1", "name": "Ash", "pop_id": " 1234567 ", "birth_year": 2001}, "pokemon-tcg")
    ('1234567', None, 2001)
    >>> game_ids_of({"id": "p2", "name": "Kirk", "game_id": "4711"}, "startrek-2e")
    (None, '4711', None)
    >>> game_ids_of({"id": "p3", "name": "Doc", "game_id": "4711"}, "doomtown")
    (None, None, None)
    """
    birth = player.get("birth_year")
    birth = birth if isinstance(birth, int) and not isinstance(birth, bool) else None
    pop, trek = _text(player.get("pop_id")), _text(player.get("rating_id"))
    own = _text(player.get("game_id"))
    kept_as = _person_field(ruleset)
    if own is not None and kept_as == "pokemon_id":
        pop = own
    elif own is not None and kept_as == "trekcc_id":
        trek = own
    return pop, trek, birth


def _person_field(ruleset: str | None) -> str | None:
    """The person's field the game's ID is kept in (``pokemon_id``, ``trekcc_id``), or None."""
    from shared_rules.games import RULESETS, game_of

    return game_of(ruleset).player_id.person if ruleset in RULESETS else None


def matching_people(
    candidates: Iterable[Person], pop_id: str | None, trekcc_id: str | None, birth_year: int | None
) -> list[Person]:
    """The people a player's game ids name (a Play! Pokémon ID with a different birth year does not)."""
    found: dict[str, Person] = {}
    for person in candidates:
        if (
            pop_id is not None
            and person.pokemon_id == pop_id
            and (birth_year is None or person.birth_year is None or person.birth_year == birth_year)
        ):
            found[person.id] = person
        if trekcc_id is not None and person.trekcc_id == trekcc_id:
            found[person.id] = person
    return list(found.values())


def auto_link(event_id: str, players: list[dict[str, Any]], ruleset: str | None) -> int:
    """Link newly registered players to the one person their game ids name; how many links were made.

    Call inside the push's transaction, with the players of the accepted ``player.register`` ops (no query
    at all when none carries a game id).
    """
    wanted = [(p, *game_ids_of(p, ruleset)) for p in players if isinstance(p.get("id"), str)]
    wanted = [w for w in wanted if w[1] is not None or w[2] is not None]
    if not wanted:
        return 0
    pops = {w[1] for w in wanted if w[1] is not None}
    treks = {w[2] for w in wanted if w[2] is not None}
    conditions = []
    if pops:
        conditions.append(Person.pokemon_id.in_(pops))
    if treks:
        conditions.append(Person.trekcc_id.in_(treks))
    candidates = list(
        db.session.execute(select(Person).where(Person.merged_into.is_(None), or_(*conditions))).scalars()
    )
    if not candidates:
        return 0
    # A game id is no proof of consent (staff of any event see it in a search): only a person no other event
    # links yet is linked by it (backend/consent.py); a returning player is linked with their consent.
    elsewhere = set(
        db.session.execute(
            select(RosterLink.person_id).where(
                RosterLink.person_id.in_([p.id for p in candidates]), RosterLink.event_id != event_id
            )
        ).scalars()
    )
    linked = db.session.execute(
        select(RosterLink.player_id, RosterLink.person_id).where(RosterLink.event_id == event_id)
    ).all()
    taken_players = {row.player_id for row in linked}
    taken_people = {row.person_id for row in linked}
    rows = []
    stamp = now_ms()
    for player, pop_id, trekcc_id, birth_year in wanted:
        found = matching_people(candidates, pop_id, trekcc_id, birth_year)
        if len(found) != 1 or player["id"] in taken_players or found[0].id in taken_people or found[0].id in elsewhere:
            continue
        rows.append({"event_id": event_id, "player_id": player["id"], "person_id": found[0].id, "created_at": stamp})
        taken_players.add(player["id"])
        taken_people.add(found[0].id)
    if rows:
        db.session.execute(insert(RosterLink), rows)
    return len(rows)


def unlink_removed(event_id: str, players: Iterable[str]) -> None:
    """A roster entry taken off the event (``player.remove``) is linked to nobody any more."""
    players = list(players)
    if players:
        db.session.execute(delete(RosterLink).where(RosterLink.event_id == event_id, RosterLink.player_id.in_(players)))

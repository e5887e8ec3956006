"""The role table the server and the app share: the roles, and who holds each power outside the log.

What each role may write to an event's log is ``ALLOWED`` (``authorize.py``, from the documents' roles);
this table adds what the server guards beside the log, so that the backend and the app read one list
instead of typing role sets out:

- **manage-event**: the organizer's alone — staff invitations, tokens, backups, changing or importing the
  event (Doomtown 2.A: the TO has final authority);
- **claim-codes**: seeing, printing, reissuing and revoking players' claim codes — the registration desk
  (organizer, head judge, scorekeeper: those who may drop a player, ``ALLOWED["player.drop"]``);
- **link-people**: linking an event's roster to people across events — the same desk;
- **staff-push**: the event's push notification status — the same desk;
- **vouch**: consenting, with a token of another event, to a person played there being linked here — that
  event's organizer, or the player themself (docs/people.md);
- **staff**: reading the whole log and the staff screens — every role but the player.
"""

from __future__ import annotations

from typing import Any

from .authorize import ALLOWED
from .operations import ROLES, STAFF_ROLES

__all__ = ["ROLES", "STAFF_ROLES", "POWERS", "holders", "role_table"]

_DESK: frozenset[str] = ALLOWED["player.drop"] - {"player"}

#: Power -> the roles that hold it.
POWERS: dict[str, frozenset[str]] = {
    "manage-event": frozenset({"organizer"}),
    "claim-codes": _DESK,
    "link-people": _DESK,
    "staff-push": _DESK,
    "vouch": frozenset({"organizer", "player"}),
    "staff": STAFF_ROLES,
}


def holders(power: str) -> frozenset[str]:
    """The roles that hold a power.

    >>> sorted(holders("claim-codes"))
    ['head-judge', 'organizer', 'scorekeeper']
    """
    return POWERS[power]


def role_table() -> dict[str, Any]:
    """The whole table as JSON-ready lists, for the app: roles in order, powers, and each operation's roles.

    >>> table = role_table()
    >>> table["roles"][0], table["staff"][-1], table["operations"]["round.pair"]
    ('organizer', 'scorekeeper', ['organizer', 'head-judge'])
    """

    def ordered(roles: frozenset[str]) -> list[str]:
        return [role for role in ROLES if role in roles]

    return {
        "roles": list(ROLES),
        "staff": ordered(STAFF_ROLES),
        "powers": {power: ordered(roles) for power, roles in POWERS.items()},
        "operations": {op_type: ordered(roles) for op_type, roles in ALLOWED.items()},
    }

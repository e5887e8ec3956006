"""Star Trek CCG structures (Star Trek OP Guide 5.1, Sections 2, 3 and 7.2).

Readings:
- Section 2's "minimum of three players" is read as applying to Tribbles too
  (only the three-round minimum is marked "(1E and 2E.)"); a 3-player
  Tribbles event is one pod of 3, below 7.2's "between four and eight".
- Table 3.0.1 gives minimum *recommended* rounds; we suggest exactly those.
- Tribbles: 5 rounds (the sanctioning minimum) played in pods; pods are
  ceil(players / 8) of as equal a size as possible, larger pods first.
"""

from __future__ import annotations

from ...structures._model import Structure, require_players, row_for

__all__ = ["NAMES", "TRIBBLES_NAMES", "TABLE_3_0_1", "MINIMUM_PLAYERS", "MINIMUM_ROUNDS", "structure", "tribbles_pods"]

NAMES: tuple[str, ...] = ("swiss",)
TRIBBLES_NAMES: tuple[str, ...] = ("pods",)

# Star Trek OP Guide Section 2: sanctioned events need at least three players.
MINIMUM_PLAYERS = 3
# Star Trek OP Guide Sections 2 and 3: at least 3 rounds for 1E/2E, 5 for Tribbles.
MINIMUM_ROUNDS = {"startrek-1e": 3, "startrek-2e": 3, "tribbles": 5}
# Star Trek OP Guide 7.2: Tribbles pods hold between four and eight players.
POD_MIN, POD_MAX = 4, 8

# Star Trek OP Guide Table 3.0.1, Minimum Recommended Number of Rounds (1E/2E):
# (min players, max players, rounds)
TABLE_3_0_1: tuple[tuple[int, int | None, int], ...] = (
    (3, 7, 3),
    (8, 15, 4),
    (16, 24, 5),
    (25, 34, 6),
    (35, 45, 7),
    (46, None, 8),
)

_TIME_LIMITS = {"startrek-1e": 75, "startrek-2e": 60, "tribbles": 60}


def tribbles_pods(players: int) -> tuple[int, ...]:
    """Pod sizes for a Tribbles event: fewest pods of at most 8, sizes as equal as possible.

    >>> tribbles_pods(9), tribbles_pods(17)
    ((5, 4), (6, 6, 5))
    """
    count = -(-players // POD_MAX)
    base, extra = divmod(players, count)
    return tuple(base + (1 if i < extra else 0) for i in range(count))


def structure(ruleset: str, players: int, name: str) -> Structure:
    """Rounds for a Star Trek CCG or Tribbles event (no cut: match play is a separate event).

    >>> structure("startrek-2e", 16, "swiss").swiss_rounds
    5
    """
    require_players(players, MINIMUM_PLAYERS, ruleset)
    notes = [f"7.2: rounds are {_TIME_LIMITS[ruleset]} minutes in person"]
    pods: tuple[int, ...] = ()
    if ruleset == "tribbles":
        rounds = MINIMUM_ROUNDS["tribbles"]
        pods = tribbles_pods(players)
        source = "Star Trek OP Guide Section 2 and 7.2 (Tribbles)"
        notes.append("Section 2: sanctioned Tribbles events play at least 5 rounds, whatever the player count")
        notes.append("7.6: after 5 rounds, further rounds re-form pods by score (top scorer of each pod together)")
        if players < POD_MIN:
            notes.append(f"7.2: a pod of {players} is below the 4 to 8 players a pod should hold")
    else:
        _low, _high, rounds = row_for(TABLE_3_0_1, players)
        source = "Star Trek OP Guide Table 3.0.1"
        notes.append("Section 3: Table 3.0.1 gives the minimum recommended rounds; at least 3 to sanction")
        if players == 3:
            notes.append("Section 2: with 3 players each plays 2 games and has a bye in the third")
        if players > 8:
            notes.append("Section 3: more rounds may be needed for an outright winner above 8 players")
    return Structure(
        ruleset=ruleset,
        players=players,
        structure=name,
        swiss_rounds=rounds,
        cut=0,
        minimum_players=MINIMUM_PLAYERS,
        source=source,
        pods=pods,
        notes=tuple(notes),
    )

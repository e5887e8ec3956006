"""Shatterpoint game end, byes and round length (Shatterpoint Showdown).

Readings:
- End of Match, Time: the Struggle is resolved first by the caller; this
  helper takes the claimed Struggle Cards and Wounds Inflicted after that.
- Concession: the conceding player keeps their own statistics.
- Event Round Times: attack dice faces are ``critical``, ``strike``,
  ``expertise`` and ``failure`` (``blank`` accepted for failure); one
  minute per critical or strike. Mission Critical runs "during the final
  30 minutes", so it starts 30 minutes before the (lengthened) end: minute
  90 of a plain 120-minute round.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared_rules.errors import RulesError

from ...game_end._result import GameEnd, Stats, decided, higher, pair

__all__ = [
    "BASE_ROUND_MINUTES",
    "MISSION_CRITICAL_MINUTES",
    "ROUND_DICE",
    "ATTACK_FACES",
    "BYE_STATS",
    "time_called",
    "concession",
    "bye",
    "round_minutes",
    "mission_critical_minute",
]

# Shatterpoint Showdown, Event Round Times: 120-minute rounds, Mission Critical at 90 minutes.
BASE_ROUND_MINUTES = 120
MISSION_CRITICAL_MINUTES = 30
# Shatterpoint Showdown, Event Round Times: roll 5 Attack Dice, +1 minute per critical and strike.
ROUND_DICE = 5
ATTACK_FACES: dict[str, int] = {"critical": 1, "strike": 1, "expertise": 0, "failure": 0, "blank": 0}
# Shatterpoint Showdown, Pairings: a bye is a win with 2 Struggle Cards Claimed and 3 Wounds Inflicted.
BYE_STATS = Stats(struggle=2, wounds=3)
# Shatterpoint Showdown, End of Match, Concession: the winner gets at least these.
CONCESSION_MINIMUM = Stats(struggle=2, wounds=3)


def time_called(struggle: Sequence[int], wounds: Sequence[int]) -> GameEnd:
    """Result when the timer runs out: most Struggle Cards, then most Wounds, else a draw.

    >>> time_called(struggle=(2, 2), wounds=(5, 7)).winner
    1
    """
    struggle = pair("struggle", struggle)
    wounds = pair("wounds", wounds)
    stats = (Stats(struggle[0], wounds[0]), Stats(struggle[1], wounds[1]))
    # Shatterpoint Showdown, End of Match, Time.
    for reason, values in (("struggle-cards", struggle), ("wounds", wounds)):
        best = higher(values)
        if best is not None:
            return decided(best, "win", "loss", reason, stats)
    return GameEnd(None, ("draw", "draw"), "draw", stats)


def concession(conceding: int, struggle: Sequence[int], wounds: Sequence[int]) -> GameEnd:
    """Result of a concession: the winner gets max(2, current) struggle cards and max(3, current) wounds.

    >>> concession(0, struggle=(3, 1), wounds=(9, 4)).stats[1]
    Stats(struggle=2, wounds=4)
    """
    if conceding not in (0, 1):
        raise RulesError(f"conceding: {conceding!r} is not a player index (0 or 1)")
    struggle = pair("struggle", struggle)
    wounds = pair("wounds", wounds)
    winner = 1 - conceding
    # Shatterpoint Showdown, End of Match, Concession.
    stats = [Stats(struggle[0], wounds[0]), Stats(struggle[1], wounds[1])]
    stats[winner] = Stats(
        max(CONCESSION_MINIMUM.struggle, struggle[winner]),
        max(CONCESSION_MINIMUM.wounds, wounds[winner]),
    )
    return decided(winner, "win", "loss", "concession", (stats[0], stats[1]))


def bye() -> GameEnd:
    """A bye: a win with 2 Struggle Cards Claimed and 3 Wounds Inflicted (one player).

    >>> bye().stats
    (Stats(struggle=2, wounds=3),)
    """
    return GameEnd(0, ("bye",), "bye", (BYE_STATS,))


def round_minutes(dice_faces: Sequence[str], base: int = BASE_ROUND_MINUTES) -> int:
    """Round length: base minutes plus one per critical or strike on the 5 attack dice.

    >>> round_minutes(["critical", "strike", "strike", "expertise", "failure"])
    123
    """
    if isinstance(dice_faces, str) or len(dice_faces) != ROUND_DICE:
        raise RulesError(f"dice_faces: roll exactly {ROUND_DICE} attack dice")
    extra = 0
    for index, face in enumerate(dice_faces):
        key = str(face).strip().lower()
        if key not in ATTACK_FACES:
            raise RulesError(
                f"dice_faces[{index}]: {face!r} is not an attack die face (critical, strike, expertise, failure)"
            )
        extra += ATTACK_FACES[key]
    return base + extra


def mission_critical_minute(minutes: int) -> int:
    """Minute at which Mission Critical begins: the final 30 minutes of the round.

    >>> mission_critical_minute(120), mission_critical_minute(123)
    (90, 93)
    """
    return minutes - MISSION_CRITICAL_MINUTES

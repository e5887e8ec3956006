"""``shatterpoint``: Star Wars: Shatterpoint Showdown events.

Ranking (Tiebreakers): event points, then cumulative Struggle Cards Claimed,
then Strength of Schedule, then cumulative Wounds Inflicted, then random.

Readings where the document is loose:

- Statistics (``matches[].stats``, ``{"struggle": S, "wounds": W}``) are whole
  numbers, not negative. Every reported, undisputed two-player match of a
  Swiss stage must carry them: two of the three tiebreakers are built from
  them, and 0 for a forgotten entry would silently rank players wrongly.
  Elimination matches may leave them out (they rank nobody).
- A bye is a win with 2 Struggle Cards and 3 Wounds (Pairings): its stats are
  implied when absent and must be exactly those when given.
- Rejoining (Pairings): "an unpaired loss for each round they did not
  participate in" is the one-player outcome ``unpaired-loss`` (0 points, a
  loss on the record, no stats or 0/0). It is not a round played for Strength
  of Schedule. (The core takes only solo outcomes in a one-player match, so a
  plain ``loss`` there is refused.)
- A draw only arises at time with equal Struggle Cards and equal Wounds (End
  of Match, Time), so a draw with different stats is refused; so is any pair
  other than win/loss or draw/draw (the document has no double loss).
- ``ending`` (optional) is ``victory``, ``time`` or ``concession`` (End of
  Match). At ``time`` the winner must have more Struggle Cards, or as many
  and more Wounds; at ``concession`` the winner has at least 2 Struggle Cards
  and 3 Wounds.
- Strength of Schedule is the shared ``sos-mean`` metric (same definition as
  AGoT): byes are no opponent; a bye is a round played by its receiver.
- Warnings and ejection are conduct records, not results: an ejected player
  is a dropped player who may not rejoin (policy).
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ...errors import DocumentError
from ...event.model import SWISS_STAGES
from ...rulesets.base import Outcome, Policy, ResultPair, Ruleset

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event, Match

__all__ = [
    "OUTCOMES",
    "TIEBREAKERS",
    "POLICIES",
    "TIME_LIMITS",
    "REPORTED",
    "STATS",
    "BYE_STATS",
    "CONCESSION_MINIMUM",
    "ENDINGS",
    "build",
]

DOCUMENT = "Star Wars: Shatterpoint Showdown Event"

# Shatterpoint Showdown, Event Points: win 3, draw 1, loss 0; Pairings: a bye is a win;
# a rejoining player gets an unpaired loss for each round missed.
OUTCOMES: tuple[Outcome, ...] = (
    Outcome("win", 3, "win"),
    Outcome("draw", 1, "tie"),
    Outcome("loss", 0, "loss"),
    Outcome("bye", 3, "win", solo=True),
    Outcome("unpaired-loss", 0, "loss", solo=True),
)

# Shatterpoint Showdown, Tiebreakers (after event points).
TIEBREAKERS: tuple[str, ...] = ("shatterpoint-struggle", "sos-mean", "shatterpoint-wounds", "random")

REPORTED: tuple[tuple[str, str], ...] = (
    ("struggle", "shatterpoint-struggle"),
    ("sos", "sos-mean"),
    ("wounds", "shatterpoint-wounds"),
)

# Shatterpoint Showdown, End of Match: the statistics recorded per player per game.
STATS: tuple[str, ...] = ("struggle", "wounds")
# Shatterpoint Showdown, Pairings / Swiss Pairing: a bye is a win with 2 Struggle Cards and 3 Wounds.
BYE_STATS: Mapping[str, int] = MappingProxyType({"struggle": 2, "wounds": 3})
# Shatterpoint Showdown, End of Match, Concession: the winner gets at least these.
CONCESSION_MINIMUM: Mapping[str, int] = MappingProxyType({"struggle": 2, "wounds": 3})
# Shatterpoint Showdown, End of Match: Victory, Time, Concession.
ENDINGS: tuple[str, ...] = ("victory", "time", "concession")

# Minutes. Shatterpoint Showdown, Event Round Times: 120-minute rounds, Mission Critical from
# minute 90 (the final 30 minutes); +1 minute per critical or strike on 5 Attack Dice.
TIME_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "round_minutes": 120,
        "mission_critical_minute": 90,
        "extra_attack_dice": 5,
    }
)

POLICIES: Mapping[str, Policy] = MappingProxyType(
    {
        "bye": Policy(
            "round 1: a random player; later: the lowest-ranked player without a bye; a win with "
            "2 Struggle Cards and 3 Wounds",
            "Shatterpoint Showdown, Pairings, Swiss Pairing",
        ),
        "rematch": Policy(
            "no rematch within a stage; a stage ends at a progression cut", "Shatterpoint Showdown, Pairings"
        ),
        "drop": Policy("a player who tells the EO is dropped and not paired again", "Shatterpoint Showdown, Pairings"),
        "no-show": Policy(
            "a player not appearing within a reasonable time for a paired round may be dropped",
            "Shatterpoint Showdown, Pairings",
        ),
        "rejoin": Policy(
            "a dropped player may rejoin at the EO's leave with an unpaired loss for each round missed",
            "Shatterpoint Showdown, Pairings",
        ),
        "ejection": Policy("an ejected player is removed and cannot rejoin", "Shatterpoint Showdown, Pairings"),
        "warnings": Policy("three or more warnings: ejection", "Shatterpoint Showdown, Arbiters"),
        "cut-replacement": Policy(
            "a qualifier who drops before any game of the next stage is replaced by the next "
            "highest-ranking player, as the lowest-ranked in the cut",
            "Shatterpoint Showdown, Progression Cut",
        ),
        "concession": Policy(
            "the conceding player loses; the winner gets max(2, current) Struggle Cards and max(3, current) Wounds",
            "Shatterpoint Showdown, End of Match",
        ),
        "time": Policy(
            "finish the Turn; most Struggle Cards wins, then most Wounds, else a draw",
            "Shatterpoint Showdown, End of Match",
        ),
        "collusion": Policy(
            "players manipulating the scoring are warned or ejected", "Shatterpoint Showdown, End of Match"
        ),
        "announce-rounds": Policy(
            "with a progression cut, the Swiss rounds and the cut are announced before the event",
            "Shatterpoint Showdown, Pairings",
        ),
    }
)

# Shatterpoint Showdown, End of Match: a game is won (victory, time or concession) or drawn at time;
# there is no double loss.
PAIRS: tuple[ResultPair, ...] = (
    ResultPair("win", "loss", "win / loss", quick=True),
    ResultPair("draw", "draw", "draw", quick=True),
)
PAIRS_SOURCE = "Shatterpoint Showdown, End of Match"
_PAIRS = frozenset(pair for p in PAIRS for pair in ((p.first, p.second), (p.second, p.first)))
_STAT_VALUES = itemgetter(*STATS)  # a seat's statistics as a tuple, in STATS order


def _whole(value: Any) -> bool:
    return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float) and value.is_integer()))


def _check_stats(match: Match, path: str) -> None:
    assert match.stats is not None
    for seat, stats in enumerate(match.stats):
        for name in STATS:
            where = f"{path}.stats[{seat}].{name}"
            if name not in stats:
                raise DocumentError(
                    f"{path}.stats[{seat}]",
                    f"missing '{name}' (Shatterpoint records Struggle Cards Claimed and Wounds Inflicted per player)",
                )
            value = stats[name]
            if not _whole(value):
                raise DocumentError(where, f"expected a whole number, got {value!r}")
            if value < 0:
                raise DocumentError(where, f"must be at least 0, got {value}")


def _check_match(match: Match, path: str, swiss: bool) -> None:
    if match.stats is not None:
        _check_stats(match, path)
    if match.outcomes is None:
        return
    outcomes = match.outcomes
    if len(match.players) == 1:
        # Shatterpoint Showdown, Pairings: a bye is 2 Struggle Cards and 3 Wounds; an unpaired loss is nothing.
        implied = BYE_STATS if outcomes[0] == "bye" else {name: 0 for name in STATS}
        if match.stats is not None and any(match.stats[0][n] != implied[n] for n in STATS):
            raise DocumentError(
                f"{path}.stats[0]",
                f"a '{outcomes[0]}' counts "
                + " and ".join(f"{implied[n]} {n}" for n in STATS)
                + "; leave stats out or give those",
            )
        return
    if (outcomes[0], outcomes[1]) not in _PAIRS:
        raise DocumentError(
            f"{path}.outcomes", f"{list(outcomes)} is not a Shatterpoint result (win/loss or draw/draw; End of Match)"
        )
    if match.stats is None:
        if swiss and not match.extra.get("disputed", False):
            raise DocumentError(
                f"{path}.stats",
                "a reported Swiss game needs both players' Struggle Cards and "
                "Wounds: the tiebreakers are built from them (Shatterpoint Showdown, Tiebreakers)",
            )
        return
    a, b = match.stats
    if outcomes[0] == "draw":
        # Shatterpoint Showdown, End of Match, Time: a draw only with equal Struggle Cards and Wounds.
        if any(a[n] != b[n] for n in STATS):
            raise DocumentError(
                f"{path}.stats", "a draw needs equal Struggle Cards and equal Wounds (End of Match, Time)"
            )
        return
    win, lose = (a, b) if outcomes[0] == "win" else (b, a)
    if match.ending == "time" and (win["struggle"], win["wounds"]) <= (lose["struggle"], lose["wounds"]):
        raise DocumentError(
            f"{path}.stats",
            "at time the winner has more Struggle Cards, or as many and more Wounds (End of Match, Time)",
        )
    if match.ending == "concession" and any(win[n] < CONCESSION_MINIMUM[n] for n in STATS):
        raise DocumentError(
            f"{path}.stats",
            "after a concession the winner has at least 2 Struggle Cards and 3 Wounds (End of Match, Concession)",
        )


def _plain(match: Match) -> bool:
    """Whether :func:`_check_match` has nothing to say, seen quickly: a finished game between two
    players with whole, non-negative Struggle Cards and Wounds, ended neither by time nor by a
    concession. False leaves the match to :func:`_check_match`."""
    outcomes, stats = match.outcomes, match.stats
    if outcomes is None or stats is None or len(outcomes) != 2 or match.ending in ("time", "concession"):
        return False
    a, b = stats
    try:
        values = _STAT_VALUES(a) + _STAT_VALUES(b)  # both seats' Struggle Cards and Wounds
    except KeyError:
        return False
    for value in values:
        if value.__class__ is not int or value < 0:
            return False
    pair = (outcomes[0], outcomes[1])
    if pair not in _PAIRS:
        return False
    return pair[0] != "draw" or _STAT_VALUES(a) == _STAT_VALUES(b)


def check_event(event: Event) -> None:
    """Whole-event checks: result pairs, statistics, byes and unpaired losses."""
    for i, rnd in enumerate(event.rounds):
        swiss = rnd.stage in SWISS_STAGES
        for j, match in enumerate(rnd.matches):
            if not _plain(match):
                _check_match(match, f"rounds[{i}].matches[{j}]", swiss)


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The Shatterpoint Showdown ruleset.

    >>> build("shatterpoint", {}).tiebreakers[0]
    'shatterpoint-struggle'
    """
    return Ruleset(
        id="shatterpoint",
        title="Star Wars: Shatterpoint",
        document=DOCUMENT,
        outcomes=OUTCOMES,
        tiebreakers=TIEBREAKERS,
        match_sizes=(2, 2),
        endings=ENDINGS,
        policies=POLICIES,
        time_limits=TIME_LIMITS,
        event_check=check_event,
        reported=REPORTED,
        result_pairs=PAIRS,
        pairs_source=PAIRS_SOURCE,
        settings=MappingProxyType(dict(settings)),
    )

"""``doomtown``: Doomtown roundups (Doomtown Floor Rules 1.2).

Ranking (section 7): match points, then match-win percentage (``mwp``), then
opponents' match-win percentage (``omwp``), then roundup entry (earlier entry
ranks higher).

Readings where the document is loose:

- "Rounds played" (7.B) are the Swiss rounds with a result on the player's
  record: a bye is a played round won inside time (7.E); a double loss is a
  played round worth 0; a round the player was not in (dropped, 3.G, or
  entered late) is not played. So a dropped player's MWP is over the rounds
  they took part in, and their points stay on the table for their opponents.
- "The total match points possible in those rounds" is 5 per round even in a
  round that ended at time (3 for the winner), as the document's
  "generally, 5 times the number of rounds played" says.
- 7.E "a player's byes are ignored when computing his/her opponents'
  match-win ... percentage": a bye round adds no opponent to the player's
  OMWP; the opponents' MWP themselves include their own byes as wins (7.B).
  A player who faced no opponent at all gets the 0.33 floor as OMWP.
- Only reported, undisputed results count; an unreported result is entered
  as ``loss``, ``loss`` (3.D, 5.C) — the engine never invents it.
- Roundup entry (7.D) is ``players[].entry``; two players with the same entry
  could not be ordered, so entries must be unique.
- Elimination rounds do not change MWP/OMWP; final placings after a cut are
  the generic ones (how far a player went, then Swiss order).
- The secret d6 (3.A, 5.C) is rolled once per roundup: :func:`secret_d6` draws
  it from the event seed, so every staff device and the server agree on it
  offline and it is the same for every round of the event (cut rounds
  included). A round started with ``secret: true`` gets ``d6`` minutes of
  secret time on top of its announced length. Players are never sent the seed
  (the server withholds it in their view of the log), so their devices show
  the announced hour, then "secret time", never the end (3.A "The exact
  length of rounds will not be announced to the players").
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ...errors import DocumentError
from ...rulesets.base import Outcome, Policy, ResultPair, Ruleset
from ...seeded import Rng

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event

__all__ = [
    "OUTCOMES",
    "TIEBREAKERS",
    "TOP_2_BEST_OF",
    "POLICIES",
    "TIME_LIMITS",
    "REPORTED",
    "PAIRS",
    "build",
    "secret_d6",
]

DOCUMENT = "Doomtown Floor Rules 1.2"

# Doomtown Floor Rules 3.H, 7.A, 7.E: 5 for a win inside time, 3 at or after time, 0 for a loss;
# a bye is a win inside time. A double loss (3.D, 5.C) is reported as loss, loss.
OUTCOMES: tuple[Outcome, ...] = (
    Outcome("win", 5, "win"),
    Outcome("win-at-time", 3, "win"),
    Outcome("loss", 0, "loss"),
    Outcome("bye", 5, "win", solo=True),
)

# Doomtown Floor Rules 3.H, 7.A: one player wins, inside time or at/after it; 3.D, 5.C: a result not
# reported in time is a double loss. The Floor Rules have no draw.
PAIRS: tuple[ResultPair, ...] = (
    ResultPair("win", "loss", "win / loss", quick=True),
    ResultPair("win-at-time", "loss", "win at time / loss"),
    ResultPair("loss", "loss", "double loss"),
)
PAIRS_SOURCE = "Doomtown Floor Rules 3.D, 3.H, 7.A"

# Doomtown Floor Rules 7 (7.B, 7.C, 7.D): after match points.
TIEBREAKERS: tuple[str, ...] = ("mwp", "omwp", "entry")

REPORTED: tuple[tuple[str, str], ...] = (("mwp", "mwp"), ("omwp", "omwp"))

# Minutes. Doomtown Floor Rules 3.A, 3.D, 5.C: 1 hour plus a secret d6 rolled once per
# roundup by the TO; a fixed warning at 55 minutes; results due within the report window.
TIME_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "round_minutes": 60,
        "secret_d6_sides": 6,
        "warning_minute": 55,
        "report_window_minutes": 5,
    }
)


def secret_d6(seed: str, sides: int = 6) -> int:
    """The roundup's secret d6 (1..sides), drawn once per event from its seed (Floor Rules 3.A, 5.C).

    "Before the first round, the TO should roll a six-sided die (d6) hidden from everyone else's
    sight ... The TO adds that number of minutes onto the base allotment of an hour per round for
    the time limit of each round in that roundup" (3.A): one draw, the same for every round.

    >>> secret_d6("cup") == secret_d6("cup") and 1 <= secret_d6("cup") <= 6
    True
    """
    return 1 + Rng(seed, "doomtown", "secret-d6").below(sides)


# Doomtown Floor Rules 5.C: "the Top 2 of an Official roundup is a best-of-3 match" (the bracket's final,
# the policy text and the structure notes all read it from here).
TOP_2_BEST_OF = 3

POLICIES: Mapping[str, Policy] = MappingProxyType(
    {
        "unreported-result": Policy(
            "a result not reported inside the report window is a double loss (loss, loss)",
            "Doomtown Floor Rules 3.D, 5.C",
        ),
        "round-time-secret": Policy(
            "the d6 is rolled once per roundup, hidden, and the exact round length is not announced",
            "Doomtown Floor Rules 3.A",
        ),
        "drop": Policy(
            "a player may drop at any time; a drop told after the TO begins pairing the next round "
            "is paired for that round",
            "Doomtown Floor Rules 3.G",
        ),
        "drop-before-round-1": Policy(
            "a player dropping before round 1 has not participated and does not count towards attendance",
            "Doomtown Floor Rules 3.G, 5.B",
        ),
        "no-show": Policy(
            "a player not at their match is dropped 10 minutes after the round begins unless they report to the TO",
            "Doomtown Floor Rules 3.G",
        ),
        "re-entry": Policy(
            "a dropped player may re-enter at the TO's discretion, never after a cut has been made",
            "Doomtown Floor Rules 3.G",
        ),
        "drop-after-cut": Policy(
            "no replacement is advanced; the dropped player's opponent receives a bye for the round",
            "Doomtown Floor Rules 3.G",
        ),
        "cut-made": Policy(
            "a cut is made once the cut or the next round's pairings are posted or announced",
            "Doomtown Floor Rules 3.G",
        ),
        "bye": Policy("a bye is a match won 1-0 inside time: 5 match points", "Doomtown Floor Rules 7.A, 7.E"),
        "concession": Policy(
            "either player may concede until the result is reported; refusing to play is "
            "conceding; no concession for a reward",
            "Doomtown Floor Rules 3.C",
        ),
        "cut-untimed": Policy(
            "elimination rounds may be run with no time limit (announced before they start, then "
            "kept); advised for the Top 2",
            "Doomtown Floor Rules 3.E, 5.C",
        ),
        f"top-2-best-of-{TOP_2_BEST_OF}": Policy(
            f"the Top 2 of an Official roundup is a best-of-{TOP_2_BEST_OF} match", "Doomtown Floor Rules 5.C"
        ),
        "rounds-fixed": Policy(
            "the number of rounds is announced by round 1 and cannot change", "Doomtown Floor Rules 5.B"
        ),
    }
)


def check_event(event: Event) -> None:
    """Whole-event checks: roundup entry must order every pair of players (7.D)."""
    seen: dict[int, int] = {}
    for i, player in enumerate(event.players):
        if player.entry in seen:
            raise DocumentError(
                f"players[{i}].entry",
                f"entry {player.entry} is also players[{seen[player.entry]}]'s; roundup entry is "
                "Doomtown's last tie break (Floor Rules 7.D), so entries must differ",
            )
        seen[player.entry] = i


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The Doomtown ruleset.

    >>> build("doomtown", {}).points("win-at-time")
    3
    """
    return Ruleset(
        id="doomtown",
        title="Doomtown",
        document=DOCUMENT,
        outcomes=OUTCOMES,
        tiebreakers=TIEBREAKERS,
        match_sizes=(2, 2),
        policies=POLICIES,
        time_limits=TIME_LIMITS,
        event_check=check_event,
        reported=REPORTED,
        result_pairs=PAIRS,
        pairs_source=PAIRS_SOURCE,
        settings=MappingProxyType(dict(settings)),
    )

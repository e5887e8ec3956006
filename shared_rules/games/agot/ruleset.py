"""``agot``: A Game of Thrones: The Card Game (2nd ed.) Joust tournaments
(AGoT Tournament Regulations 1.0.1).

Ranking (Tiebreakers): tournament points, then head-to-head, then Strength of
Schedule, then extended Strength of Schedule, then random.

Readings where the document is loose:

- Head-to-head: "any player that has played and defeated all other players in
  the group is ranked above the other players in the group". "Defeated" is a
  win or a modified win (the other player took a loss or a modified loss); a
  draw is no defeat. If the two met more than once (possible across Swiss
  stages), every game between them must be a win. The others of the group are
  not re-examined for head-to-head: they stay tied and go on to Strength of
  Schedule, which the document applies to "the group not yet ranked".
- Head-to-head is not applied again after Strength of Schedule has placed a
  player of the group (issue reviewed against the text): the Tiebreakers
  section says they "are used in the following order until all players within
  that group have been given a standing", and Strength of Schedule itself
  ranks everyone not yet ranked ("the player with the second-highest ... is
  ranked second ... and so on"), so two players still tied on Strength of
  Schedule go on to Extended Strength of Schedule, then random. Unlike Star
  Trek 7.7 ("used only if there are two tied players"), nothing in the AGoT
  text returns to head-to-head for a remaining pair: ``two_tied_key`` is None.
- Strength of Schedule is the shared ``sos-mean`` metric (same wording as
  Shatterpoint): a bye gives a win and "no addition to his or her strength of
  schedule" (Definitions), so it is no opponent; it is a round played by its
  receiver when they are someone else's opponent. A player with no opponent
  has SoS 0. Extended SoS: the mean of the opponents' SoS, over the same
  opponents.
- Only the Swiss stages rank; the elimination stage places the players who
  made the cut (generic placing).
- An intentional draw (Intentional Draws) is reported as ``draw``, ``draw``.
- Results at one table are win/loss, modified-win/modified-loss or
  draw/draw (End of Round); the document has no double loss.
- The final of single elimination is untimed (``final_round_minutes`` 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ...errors import DocumentError
from ...rulesets.base import Outcome, Policy, ResultPair, Ruleset

if TYPE_CHECKING:  # pragma: no cover
    from ...event.model import Event

__all__ = ["OUTCOMES", "TIEBREAKERS", "POLICIES", "TIME_LIMITS", "REPORTED", "PAIRS", "RESULT_PAIRS", "build"]

DOCUMENT = "A Game of Thrones: The Card Game Tournament Regulations 1.0.1"

# AGoT Tournament Regulations, Tournament Points: 5 / 4 / 2 / 1 / 0; Definitions: a bye is a win.
OUTCOMES: tuple[Outcome, ...] = (
    Outcome("win", 5, "win"),
    Outcome("modified-win", 4, "win"),
    Outcome("draw", 2, "tie"),
    Outcome("modified-loss", 1, "loss"),
    Outcome("loss", 0, "loss"),
    Outcome("bye", 5, "win", solo=True),
)

# AGoT Tournament Regulations, Tiebreakers (after tournament points).
TIEBREAKERS: tuple[str, ...] = ("agot-h2h", "sos-mean", "agot-esos", "random")

REPORTED: tuple[tuple[str, str], ...] = (("sos", "sos-mean"), ("esos", "agot-esos"))

# AGoT Tournament Regulations, End of Round (and Tournament Points, Intentional Draws): the results one
# game can give its two players; a concession is a win / loss. Time called: modified win / modified loss.
PAIRS: tuple[ResultPair, ...] = (
    ResultPair("win", "loss", "win / loss", quick=True),
    ResultPair("modified-win", "modified-loss", "modified win / modified loss"),
    ResultPair("draw", "draw", "draw", quick=True),
)
PAIRS_SOURCE = "AGoT Tournament Regulations, End of Round"
RESULT_PAIRS = frozenset(pair for p in PAIRS for pair in ((p.first, p.second), (p.second, p.first)))

# Minutes. AGoT Tournament Regulations, Pairings: "rounds are 55 minutes long";
# Single Elimination: the final is untimed (0 = no time limit).
TIME_LIMITS: Mapping[str, int] = MappingProxyType(
    {
        "round_minutes": 55,
        "final_round_minutes": 0,
    }
)

POLICIES: Mapping[str, Policy] = MappingProxyType(
    {
        "bye": Policy(
            "round 1: a random player; later: the lowest-ranked player without a bye; a win with no "
            "addition to strength of schedule",
            "AGoT Tournament Regulations, Swiss Rounds, Definitions",
        ),
        "rematch": Policy(
            "no player is paired against the same opponent twice during Swiss rounds",
            "AGoT Tournament Regulations, Swiss Rounds",
        ),
        "announce": Policy(
            "the number of rounds, any single elimination and the cut size are announced before the start",
            "AGoT Tournament Regulations, Pairings",
        ),
        "time": Policy(
            "finish through taxation; closer to the victory total: modified win / modified loss; equally close: draw",
            "AGoT Tournament Regulations, End of Round",
        ),
        "final-untimed": Policy(
            "the game between the two finalists is untimed", "AGoT Tournament Regulations, Single Elimination Rounds"
        ),
        "intentional-draw": Policy(
            "Swiss only, with a leader present; 2 points each, reported as a draw",
            "AGoT Tournament Regulations, Intentional Draws",
        ),
        "concession": Policy(
            "the conceding player receives a loss, the opponent a win", "AGoT Tournament Regulations, End of Round"
        ),
        "elimination-drop": Policy(
            "the loser of a single elimination game is eliminated and dropped",
            "AGoT Tournament Regulations, Definitions",
        ),
        "removal": Policy(
            "the organizer may remove players for unsportsmanlike conduct",
            "AGoT Tournament Regulations, Unsporting Conduct",
        ),
        "collusion": Policy(
            "collusion to manipulate scoring is forbidden", "AGoT Tournament Regulations, Unsporting Conduct"
        ),
    }
)


def check_event(event: Event) -> None:
    """Whole-event checks: each two-player result is one the End of Round can give."""
    for i, rnd in enumerate(event.rounds):
        for j, match in enumerate(rnd.matches):
            if match.outcomes is None or len(match.outcomes) != 2:
                continue
            if (match.outcomes[0], match.outcomes[1]) not in RESULT_PAIRS:
                raise DocumentError(
                    f"rounds[{i}].matches[{j}].outcomes",
                    f"{list(match.outcomes)} is not an AGoT result (win/loss, "
                    "modified-win/modified-loss or draw/draw; End of Round)",
                )


def build(ruleset_id: str, settings: Mapping[str, Any]) -> Ruleset:
    """The AGoT 2nd edition Joust ruleset.

    >>> build("agot", {}).points("modified-loss")
    1
    """
    return Ruleset(
        id="agot",
        title="A Game of Thrones: The Card Game (2nd ed.)",
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

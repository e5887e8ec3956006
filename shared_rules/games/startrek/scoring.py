"""Star Trek CCG scoring: per-game differential and the Tribbles concession cap.

Star Trek OP Guide 5.1, Sections 4.3, 7.4.1, 7.9, 7.10 and 13.5.

Readings (the document is loose here; these are the project's):
- Every fixed "100" of 7.4.1, 7.9, 7.10 and 13.5 (earned bye +100, automatic
  loss -100/+100, "ends the game on 100 points") is the format's point
  threshold: 100, or 50 in Slipstream and 70 in Infinite Diversity Draft,
  because 4.3.6/4.3.7 cap the differential "regardless of total points
  scored". Warp Speed (4.3.4) states no cap, so it keeps 100.
- The winner is whoever the outcomes say won; the "both above 100" and
  "both below 0" rules of 7.4.1 then reduce to the "winner's score is equal
  or lower" rule once scores are clamped, and all give +1 / -1.
- 13.5 (a game not played): a Full Win or Full Loss against a Bye or a
  Missed Game carries +100 / -100; a Bye or Missed Game carries 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = [
    "VARIANT_CAPS",
    "WINS",
    "LOSSES",
    "NO_GAME",
    "differential_cap",
    "clamp_score",
    "played_margin",
    "differential",
    "tribbles_concession_score",
]

# Star Trek OP Guide 7.4.1, 4.3.6, 4.3.7: points beyond the format's threshold do not count.
VARIANT_CAPS: Mapping[str, int] = {"standard": 100, "warp-speed": 100, "slipstream": 50, "id-draft": 70}

#: Outcomes won at the table (Star Trek OP Guide 7.5.1).
WINS = frozenset({"full-win", "modified-win"})
#: Outcomes lost at the table (Star Trek OP Guide 7.5.1).
LOSSES = frozenset({"full-loss", "modified-loss"})
#: Results that mean the player had no game that round (7.5.1, 13.5).
NO_GAME = frozenset({"bye", "earned-bye", "missed-game"})


def differential_cap(variant: str = "standard") -> int:
    """The point threshold a variant counts differential up to (Star Trek OP Guide 7.4.1).

    >>> differential_cap("slipstream"), differential_cap("id-draft"), differential_cap()
    (50, 70, 100)
    """
    return VARIANT_CAPS[variant]


def clamp_score(score: float, cap: int = 100) -> float:
    """A final score as it counts for differential: within [0, cap] (Star Trek OP Guide 7.4.1).

    >>> clamp_score(120), clamp_score(-5), clamp_score(65, 50)
    (100, 0, 50)
    """
    return min(max(score, 0), cap)


def _winner_margin(winner: float | None, loser: float | None, ending: str, edition: str, cap: int) -> float:
    # Star Trek OP Guide 7.4.1 (cases outside normal victory conditions), 7.10: a game loss or an
    # automatic loss costs the loser all points; 7.9: so does a 2E concession. The winner is
    # treated as having the maximum score, so the margin is the whole cap.
    if ending == "game-loss" or (ending == "concession" and edition == "2e"):
        return cap
    if ending in ("outright", "concession"):
        # Star Trek OP Guide 7.4.1: an outright win ends the game on 100 points;
        # 7.9: a 1E concession loser keeps their points, the winner has the maximum score.
        winner = cap
    if winner is None or loser is None:
        raise ValueError("this game's differential needs both final scores (Star Trek OP Guide 7.4.1)")
    return played_margin(winner, loser, cap)


def played_margin(winner: float, loser: float, cap: int = 100) -> float:
    """The winner's margin of a game played to its end: clamped scores apart, at least 1.

    Star Trek OP Guide 7.4.1: scores count within [0, cap]; a winner whose score is
    equal or lower gets +1 (the loser -1).

    >>> played_margin(100, 35), played_margin(40, 55), played_margin(130, -10, 50)
    (65, 1, 50)
    """
    margin = clamp_score(winner, cap) - clamp_score(loser, cap)
    return margin if margin > 0 else 1


def differential(
    outcome: str,
    score: float | None = None,
    opponent_score: float | None = None,
    *,
    opponent_outcome: str | None = None,
    ending: str | None = None,
    edition: str = "2e",
    cap: int = 100,
) -> float:
    """One player's differential for one game (Star Trek OP Guide 7.4.1, 7.9, 7.10, 13.5).

    ``edition`` is ``"1e"`` or ``"2e"``; ``cap`` is :func:`differential_cap` of the variant;
    ``ending`` is the match's ``normal``/``outright``/``concession``/``game-loss``.

    >>> differential("full-win", 100, 35), differential("full-loss", 35, 100)
    (65, -65)
    >>> differential("full-loss", 60, 100, ending="concession", edition="1e")
    -40
    >>> differential("full-loss", 60, 100, ending="concession", edition="2e")
    -100
    >>> differential("earned-bye"), differential("bye"), differential("true-tie", 80, 20)
    (100, 0, 0)
    """
    if outcome in ("true-tie", "bye", "missed-game"):
        # Star Trek OP Guide 7.4.1 (True Tie, normal Bye: 0), 7.10 (both auto-lose: True Tie, 0),
        # 13.5 (Missed Game: 0 differential).
        return 0
    if outcome == "earned-bye":
        return cap  # Star Trek OP Guide 7.4.1, 7.5.1: an Earned Bye is +100.
    if outcome in WINS:
        sign = 1
    elif outcome in LOSSES:
        sign = -1
    else:
        raise ValueError(f"'{outcome}' is not a Star Trek result")
    if opponent_outcome in NO_GAME:
        # Star Trek OP Guide 13.5: a Full Win / Full Loss awarded for a game that was not played.
        return sign * cap
    winner, loser = (score, opponent_score) if sign > 0 else (opponent_score, score)
    return sign * _winner_margin(winner, loser, ending or "normal", edition, cap)


def tribbles_concession_score(score: float, remaining_final_scores: Sequence[float]) -> float:
    """A conceding Tribbles player's recorded score (Star Trek OP Guide 7.9).

    They keep their score, to a maximum of the highest remaining player's final score minus 1.

    >>> tribbles_concession_score(700_000, [300_000, 120_000])
    299999
    >>> tribbles_concession_score(5_000, [300_000])
    5000
    """
    if not remaining_final_scores:
        return score
    return min(score, max(remaining_final_scores) - 1)

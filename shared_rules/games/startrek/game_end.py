"""Star Trek CCG modified win at time (Star Trek OP Guide 7.4 and 7.5.1).

When time expires the game continues until both players have finished an
equal number of turns (7.4); if neither met all the victory conditions the
result is a Modified Win / Modified Loss or a True Tie (7.5.1):

- First Edition: the highest total score (only points that count toward
  winning) gets the Modified Win.
- Second Edition: the highest score among players commanding both a
  completed planet and a completed space mission; if none, the highest
  score among players with at least one completed mission; if none, the
  highest score.
- Same exact score (and, in 2E, the same step) is a True Tie.

Readings: a 2E player qualifying at an earlier step wins even with a lower
score than an opponent who does not ("the player with the highest score who
commands both ..."). ``turns``, if given, must be equal (7.4).
"""

from __future__ import annotations

from collections.abc import Sequence

from shared_rules.errors import RulesError

from ...game_end._result import GameEnd, decided, higher, pair

__all__ = ["time_called_1e", "time_called_2e", "time_called"]

WIN, LOSS, TIE = "modified-win", "modified-loss", "true-tie"

# Star Trek OP Guide 7.5.1, Modified Win (Second Edition): the qualifying steps, best first.
STEPS_2E: tuple[str, ...] = ("planet-and-space-missions", "one-completed-mission", "highest-score")


def _check_turns(turns: Sequence[int] | None) -> None:
    # Star Trek OP Guide 7.4: incomplete games continue until both players have finished an equal number of turns.
    if turns is None:
        return
    first, second = pair("turns", turns)
    if first != second:
        raise RulesError(f"turns: {first} and {second} differ; play on until both have taken equal turns (7.4)")


def time_called_1e(scores: Sequence[int], *, turns: Sequence[int] | None = None) -> GameEnd:
    """First Edition at time: highest score is a Modified Win; equal is a True Tie.

    ``scores`` count only points that count toward winning (7.4.1).

    >>> time_called_1e((40, 35)).outcomes
    ('modified-win', 'modified-loss')
    """
    _check_turns(turns)
    scores = pair("scores", scores, minimum=None)
    best = higher(scores)
    if best is None:
        return GameEnd(None, (TIE, TIE), "true-tie")
    return decided(best, WIN, LOSS, "highest-score")


def time_called_2e(
    scores: Sequence[int],
    planet_missions: Sequence[int],
    space_missions: Sequence[int],
    *,
    turns: Sequence[int] | None = None,
) -> GameEnd:
    """Second Edition at time: planet+space completed, then one completed mission, then score.

    ``planet_missions``/``space_missions`` count completed missions each player commands.

    >>> time_called_2e((30, 60), planet_missions=(1, 2), space_missions=(1, 0)).reason
    'planet-and-space-missions'
    """
    _check_turns(turns)
    scores = pair("scores", scores, minimum=None)
    planets = pair("planet_missions", planet_missions)
    spaces = pair("space_missions", space_missions)

    def step(i: int) -> int:
        if planets[i] and spaces[i]:
            return 0
        if planets[i] or spaces[i]:
            return 1
        return 2

    steps = (step(0), step(1))
    level = min(steps)
    if steps[0] != steps[1]:
        return decided(steps.index(level), WIN, LOSS, STEPS_2E[level])
    best = higher(scores)
    if best is None:
        return GameEnd(None, (TIE, TIE), "true-tie")
    return decided(best, WIN, LOSS, STEPS_2E[level])


def time_called(
    ruleset: str,
    scores: Sequence[int],
    planet_missions: Sequence[int] | None = None,
    space_missions: Sequence[int] | None = None,
    *,
    turns: Sequence[int] | None = None,
) -> GameEnd:
    """Dispatch on ``startrek-1e`` / ``startrek-2e``.

    >>> time_called("startrek-1e", (10, 10)).reason
    'true-tie'
    """
    if ruleset == "startrek-1e":
        return time_called_1e(scores, turns=turns)
    if ruleset == "startrek-2e":
        if planet_missions is None or space_missions is None:
            raise RulesError("planet_missions/space_missions: Second Edition needs each player's completed missions")
        return time_called_2e(scores, planet_missions, space_missions, turns=turns)
    raise RulesError(f"ruleset: {ruleset!r} has no modified win at time (startrek-1e, startrek-2e)")

"""AGoT time called (AGoT Tournament Regulations, End of Round: Time).

When time is called, players play through the taxation phase; if neither
player has won, the player closer to their victory total in power earns a
modified win and the other a modified loss; equally close is a draw.

Readings:
- The victory total defaults to 15 power (the End of Round Example: 13 power
  "needs 2 more"); pass ``victory_totals`` when a card changes it.
- A player who reached their victory total has met the victory condition:
  ``win``/``loss`` (5/0), reason ``victory-condition``. Both at once is refused.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared_rules.errors import RulesError

from ...game_end._result import GameEnd, decided, higher, pair

__all__ = ["VICTORY_TOTAL", "time_called"]

VICTORY_TOTAL = 15


def time_called(power: Sequence[int], victory_totals: Sequence[int] = (VICTORY_TOTAL, VICTORY_TOTAL)) -> GameEnd:
    """Result of an AGoT game at time, after the taxation phase.

    >>> time_called(power=(11, 13)).outcomes
    ('modified-loss', 'modified-win')
    """
    power = pair("power", power)
    totals = pair("victory_totals", victory_totals, minimum=1)
    reached = (power[0] >= totals[0], power[1] >= totals[1])
    # AGoT Tournament Regulations, End of Round: Victory Condition.
    if all(reached):
        raise RulesError("power: both players cannot have reached their victory total")
    if any(reached):
        return decided(0 if reached[0] else 1, "win", "loss", "victory-condition")
    # AGoT Tournament Regulations, End of Round: Time - closest to the victory total.
    needed = (totals[0] - power[0], totals[1] - power[1])
    closer = higher((-needed[0], -needed[1]))
    if closer is None:
        return GameEnd(None, ("draw", "draw"), "equally-close")
    return decided(closer, "modified-win", "modified-loss", "closest-to-victory")

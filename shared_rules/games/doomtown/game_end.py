"""Doomtown time-called winner (Doomtown Floor Rules 1.2, 3.D End-of-Match Procedure).

After time is called, unresolved play is finished and sundown is enforced;
then, in order (3.D steps 1-8):

1. ``normal-victory``: exactly one player has more control points than the
   other player's influence.
2. ``most-control``: both players do; the greater control wins.
3. ``closest-to-victory``: each player's control is compared with the
   other's influence; the larger margin (control minus opposing influence,
   i.e. the fewer control points still needed) wins.
4. ``control``: highest total control.  5. ``influence``.  6. ``bullets``.
7. ``card-pull``: each player pulls a card, highest value wins; repeated
   while tied.  8. ``coin``: only when both decks have only the same values left.

Readings:
- Step 2's sentence is run together in the document ("... wins if both
  players have more influence than the other has control, continue ...");
  we read it as two sentences: both victorious -> greater control wins;
  neither victorious -> go on to step 3. Both victorious with equal control
  also goes on (to step 3, then 4 ...).
- With "closest" measured as that margin, step 5 (influence) is kept for
  fidelity but cannot decide: equal margins and equal control force equal
  influence, so such games go on to bullets.
- Every winner here won at or after time: outcome ``win-at-time`` (3 match
  points, 3.H), the other ``loss``. A normal victory inside time is ``win``
  and needs no helper.
- The helper cannot see the decks: the caller decides when step 8 applies
  and passes ``coin`` (the winner's index) or an ``Rng`` to flip it.
"""

from __future__ import annotations

from collections.abc import Sequence

from shared_rules.errors import RulesError
from shared_rules.seeded import Rng

from ...game_end._result import GameEnd, decided, higher, pair

__all__ = ["STEPS", "time_called"]

# Doomtown Floor Rules 3.D, steps 1-8 (the reason names each returns).
STEPS: tuple[str, ...] = (
    "normal-victory",
    "most-control",
    "closest-to-victory",
    "control",
    "influence",
    "bullets",
    "card-pull",
    "coin",
)

WIN, LOSS = "win-at-time", "loss"


def time_called(
    control: Sequence[int],
    influence: Sequence[int],
    bullets: Sequence[int],
    pulls: Sequence[Sequence[int]] = (),
    *,
    coin: int | None = None,
    rng: Rng | None = None,
) -> GameEnd:
    """Winner of a Doomtown game when time is called (3.D).

    ``pulls`` are the card values pulled in step 7, one pair per repetition.

    >>> time_called(control=(7, 2), influence=(4, 6), bullets=(0, 0)).reason
    'normal-victory'
    """
    control = pair("control", control)
    influence = pair("influence", influence)
    bullets = pair("bullets", bullets)
    # Doomtown Floor Rules 3.D step 1: normal victory, control above the opponent's influence.
    victorious = (control[0] > influence[1], control[1] > influence[0])
    if victorious[0] != victorious[1]:
        return decided(0 if victorious[0] else 1, WIN, LOSS, "normal-victory")
    # 3.D step 2: both would win -> greatest control wins.
    most = higher(control)
    if all(victorious) and most is not None:
        return decided(most, WIN, LOSS, "most-control")
    # 3.D steps 3-6.
    margins = (control[0] - influence[1], control[1] - influence[0])
    for reason, values in (
        ("closest-to-victory", margins),
        ("control", control),
        ("influence", influence),
        ("bullets", bullets),
    ):
        best = higher(values)
        if best is not None:
            return decided(best, WIN, LOSS, reason)
    # 3.D steps 7-8: card pulls until one is higher.
    for index, pull in enumerate(pulls):
        best = higher(pair(f"pulls[{index}]", pull))
        if best is not None:
            return decided(best, WIN, LOSS, "card-pull")
    if coin is not None:
        if coin not in (0, 1):
            raise RulesError(f"coin: {coin!r} is not a player index (0 or 1)")
        return decided(coin, WIN, LOSS, "coin")
    if rng is not None:
        return decided(rng.below(2), WIN, LOSS, "coin")
    raise RulesError(
        f"doomtown time called: still tied after bullets and {len(pulls)} card pull(s); "
        "pull again (3.D step 7) or flip a coin if the decks hold only the same values (step 8)"
    )

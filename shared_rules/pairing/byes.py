"""Who receives a bye, and with which outcome (earned byes first).

- Pokémon TOP 3.1: a random player of the lowest bracket; nobody gets two.
- Shatterpoint (Swiss Pairing), AGoT (Swiss Rounds), Doomtown (reading), custom:
  the lowest-ranked player who has not had a bye.
- Star Trek OP Guide 7.5.1, 7.6: the lowest VP total, random among ties, one
  bye each (earned byes excluded).
- Earned byes (Star Trek 7.2, 7.5.1; TOM): a player with ``earned_byes = k``
  sits out rounds 1..k with ``earned-bye`` (or ``bye`` where the ruleset has
  no such outcome); Star Trek 7.2 lets a player forfeit them, which the
  document records by lowering ``earned_byes``.

Reading: a bye counts against the one-bye limit when it is a ``bye`` outcome
in a round after the player's earned byes (and not marked ``"earned": true``).
A Star Trek Bye given to the opponent of a Missed Game (7.5.1) is such a bye.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from ..event.model import Event, Player
from ..seeded import draw_key
from .policies import PairingPolicy

__all__ = ["byes_received", "bye_order", "earned_bye_players", "bye_outcome_for"]


def byes_received(event: Event, policy: PairingPolicy, rounds: Iterable[int] | None = None) -> dict[str, int]:
    """How many limited (not earned) byes each player has had in the Swiss rounds."""
    earned = {p.id: p.earned_byes for p in event.players}
    wanted = None if rounds is None else set(rounds)
    out: dict[str, int] = {}
    for rnd in event.rounds:
        if rnd.stage == "elimination" or (wanted is not None and rnd.number not in wanted):
            continue
        for match in rnd.matches:
            if len(match.players) != 1 or match.outcomes is None:
                continue
            outcome = match.outcomes[0]
            pid = match.players[0]
            if outcome != policy.bye_outcome or outcome == policy.earned_bye_outcome:
                continue
            if match.extra.get("earned") is True or rnd.number <= earned.get(pid, 0):
                continue
            out[pid] = out.get(pid, 0) + 1
    return out


def earned_bye_players(players: Sequence[Player], round_number: int) -> list[str]:
    """Players sitting out this round on an earned bye (Star Trek 7.2, 7.5.1), in entry order."""
    sitting = [p for p in players if round_number <= p.earned_byes]  # usually nobody: sort only them
    return [p.id for p in sorted(sitting, key=lambda p: (p.entry, p.id))]


def bye_outcome_for(policy: PairingPolicy, earned: bool) -> str | None:
    """The outcome written on a bye: ``earned-bye`` where the ruleset has one, else ``bye``."""
    if earned and policy.earned_bye_outcome:
        return policy.earned_bye_outcome
    return policy.bye_outcome


def bye_order(
    policy: PairingPolicy,
    pool: Sequence[str],
    points: Mapping[str, float],
    rank: Mapping[str, int],
    had_bye: Mapping[str, int],
    seed: str,
    *context: object,
) -> list[str]:
    """Bye candidates, most deserving first: eligible players by the ruleset's rule, then the rest.

    >>> from shared_rules.games import policy_for
    >>> bye_order(policy_for("agot"), ["a", "b", "c"], {"a": 5, "b": 0, "c": 0}, {"a": 0, "b": 1, "c": 2}, {"c": 1}, "s")
    ['b', 'a', 'c']
    """
    rule = policy.bye_rule
    key: Callable[[str], tuple[Any, ...]]
    if rule == "lowest-ranked-without-bye":
        key = lambda pid: (-rank[pid], pid)  # noqa: E731
    else:
        # Pokémon TOP 3.1 / Star Trek 7.5.1: the lowest bracket, at random within it.
        key = lambda pid: (points[pid], draw_key(seed, "bye", *context, pid), pid)  # noqa: E731
    ordered = sorted(pool, key=key)
    eligible = [pid for pid in ordered if not had_bye.get(pid)]
    return eligible + [pid for pid in ordered if had_bye.get(pid)]

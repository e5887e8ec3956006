"""Fixing a wrong record before a round starts (Pokémon TOP 4), applied to every ruleset.

- :func:`repair_after_correction` re-pairs the minimum number of players. The
  players whose points (or presence) the correction changed, with their
  draft opponents, are re-paired among themselves — preferring to keep their
  draft matches — while every other match stands. If that leaves a pairing
  worse than a fresh one (more rematches or a larger total squared point
  gap), the whole point groups those players left and joined are re-paired
  as well; failing that, the fresh pairing is used. Kept matches keep their
  tables; new matches take the freed tables in order.
- :func:`can_change_result`: a round's records cannot change after the
  second following round is paired (round 1 is locked once round 3 is paired).

Reading: a re-paired bye follows the bye rule among the re-paired players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import RulesError
from ..event.model import Event
from .next_round import PairedMatch, PairedRound, next_round_number, pair_next_round, pairing_state

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = ["repair_after_correction", "can_change_result", "changed_players"]


def can_change_result(event: Event, round_number: int) -> bool:
    """Whether round ``round_number``'s results may still be corrected (Pokémon TOP 4).

    >>> from shared_rules.event.model import Event, Round
    >>> ev = Event("pokemon-tcg", "s", (), (Round(1, "swiss", ()), Round(2, "swiss", ()), Round(3, "swiss", ())))
    >>> can_change_result(ev, 1), can_change_result(ev, 2)
    (False, True)
    """
    return not any(r.number >= round_number + 2 for r in event.rounds)


def changed_players(old: PairedRound, new: PairedRound) -> list[str]:
    """Players whose opponent (or bye) differs between two pairings of a round."""

    def seats(rnd: PairedRound) -> dict[str, frozenset[str]]:
        return {pid: frozenset(m.players) for m in rnd.matches for pid in m.players}

    before, after = seats(old), seats(new)
    return sorted(pid for pid in set(before) | set(after) if before.get(pid) != after.get(pid))


def _quality(rnd: PairedRound, points: dict[str, float], opponents: dict[str, frozenset[str]]) -> tuple[float, ...]:
    rematches = sum(1 for m in rnd.matches if len(m.players) == 2 and m.players[1] in opponents.get(m.players[0], ()))
    gap = sum((points[m.players[0]] - points[m.players[1]]) ** 2 for m in rnd.matches if len(m.players) == 2)
    byes = sum(1 for m in rnd.matches if len(m.players) == 1)
    return (rematches, byes, gap)


def repair_after_correction(event: Event, game: Game, paired_round: PairedRound, corrected_event: Event) -> PairedRound:
    """The draft round re-paired for the corrected records, changing as few matches as possible."""
    number = next_round_number(corrected_event)
    if number != paired_round.number:
        raise RulesError(f"round {paired_round.number} is not the next round of the corrected event (that is {number})")
    old = pairing_state(event, game, number, paired_round.stage)
    new = pairing_state(corrected_event, game, number, paired_round.stage)
    fresh = pair_next_round(corrected_event, game)
    target = _quality(fresh, dict(new.points), dict(new.opponents))
    seated = {pid for m in paired_round.matches for pid in m.players}
    affected = {
        pid
        for pid in set(old.present) | set(new.present)
        if pid not in seated or pid not in new.present or old.points.get(pid) != new.points.get(pid)
    }
    if not affected:
        return paired_round
    partners = {pid for m in paired_round.matches if affected & set(m.players) for pid in m.players}
    levels = {old.points.get(pid) for pid in affected} | {new.points.get(pid) for pid in affected}
    grouped = partners | {
        pid
        for m in paired_round.matches
        if any(new.points.get(p) in levels or old.points.get(p) in levels for p in m.players)
        for pid in m.players
    }
    for free in (partners | affected, grouped | affected):
        candidate = _repair(corrected_event, game, paired_round, free & set(new.present))
        if _quality(candidate, dict(new.points), dict(new.opponents)) <= target:
            return candidate
    return fresh


def _repair(corrected_event: Event, game: Game, draft: PairedRound, free: set[str]) -> PairedRound:
    repaired = pair_next_round(corrected_event, game, keep=draft, only=frozenset(free))
    kept = [m for m in draft.matches if not free & set(m.players)]
    old_tables = {frozenset(m.players): m.table for m in draft.matches if m.table is not None}
    used = {m.table for m in kept if m.table is not None}
    free_tables = sorted(t for t in old_tables.values() if t is not None and t not in used)
    nxt = max([t for t in old_tables.values() if t is not None] + [0]) + 1
    matches = list(kept)
    for m in repaired.matches:
        if len(m.players) == 1:
            matches.append(m)
            continue
        table = old_tables.get(frozenset(m.players))
        if table is None or table in used:
            if free_tables:
                table = free_tables.pop(0)
            else:
                table, nxt = nxt, nxt + 1
        else:
            free_tables.remove(table)
        used.add(table)
        matches.append(PairedMatch(m.players, table, m.outcomes))
    matches.sort(key=lambda m: (m.table is None, m.table or 0, m.players))
    return PairedRound(draft.number, draft.stage, tuple(matches), repaired.warnings)

"""Organizer control over a drafted round: swap two players, and check any pairing for problems.

A round is a draft until published (the reducer keeps that status); these
are pure functions. Warnings are one-line strings for the organizer, never
errors: the organizer may publish a pairing the rules would not make.

Readings: a "score gap" is a pair whose players' points differ by more than
the gap between neighbouring point groups of the round (a pair that skips a
point group), or, for a swap, any pair whose gap the swap widened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import RulesError
from ..event.model import SWISS_STAGES, Event, Round
from .next_round import PairedMatch, PairedRound, PairingState, pairing_state

if TYPE_CHECKING:  # pragma: no cover
    from ..games.base import Game

__all__ = ["as_paired", "swap_players", "validate_pairing"]


def as_paired(rnd: PairedRound | Round) -> PairedRound:
    """A round as a :class:`PairedRound` (a pairing draft), whichever of the two it is."""
    if isinstance(rnd, PairedRound):
        return rnd
    return PairedRound(rnd.number, rnd.stage, tuple(PairedMatch(m.players, m.table, m.outcomes) for m in rnd.matches))


def _fmt(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _state(event: Event, game: Game, rnd: PairedRound) -> PairingState:
    return pairing_state(event, game, rnd.number, rnd.stage)


def _pair_warnings(state: PairingState, group: Sequence[str], outcomes: Sequence[str] | None) -> list[str]:
    out = []
    policy = state.policy
    if len(group) == 2:
        a, b = group
        if b in state.opponents.get(a, ()):
            out.append(f"rematch: {a} and {b} have already played each other")
    elif len(group) == 1:
        pid = group[0]
        earned = outcomes is not None and outcomes[0] == policy.earned_bye_outcome and policy.earned_bye_outcome
        if not earned and state.had_bye.get(pid):
            out.append(f"repeated bye: {pid} already had a bye")
    return out


def validate_pairing(event: Event, game: Game, rnd: PairedRound | Round) -> list[str]:
    """Every problem of a pairing: unknown, dropped, doubled or missing players, rematches, repeated byes, score gaps
    (a cut round: unknown, dropped or doubled players only)."""
    paired = as_paired(rnd)
    state = _state(event, game, paired)
    swiss = paired.stage in SWISS_STAGES
    known = {p.id: p for p in event.players}
    warnings: list[str] = []
    seen: dict[str, int] = {}
    for i, match in enumerate(paired.matches):
        for pid in match.players:
            if pid not in known:
                warnings.append(f"unknown player {pid}")
            elif not known[pid].active_in(paired.number):
                warnings.append(f"{pid} has dropped and is paired")
            if pid in seen:
                warnings.append(f"{pid} is paired twice")
            seen[pid] = i
        if swiss:
            warnings.extend(_pair_warnings(state, match.players, match.outcomes))
    if not swiss:
        # A cut pairs only the players still in it, by seed: rematches and score gaps are the bracket.
        return warnings
    for pid in state.present:
        if pid not in seen and known[pid].active_in(paired.number):
            warnings.append(f"{pid} is not paired")
    levels = sorted({state.points.get(pid, 0) for m in paired.matches for pid in m.players}, reverse=True)
    step = {high: low for high, low in zip(levels, levels[1:])}
    for match in paired.matches:
        if len(match.players) != 2:
            continue
        a, b = match.players
        high, low = max(state.points[a], state.points[b]), min(state.points[a], state.points[b])
        if high != low and step.get(high) != low:
            warnings.append(
                f"score gap: {a} ({_fmt(state.points[a])}) v {b} ({_fmt(state.points[b])}) skips a point group"
            )
    return warnings


def swap_players(paired_round: PairedRound, a: str, b: str, event: Event, game: Game) -> tuple[PairedRound, list[str]]:
    """Exchange two players' seats (a bye moves with the seat); warn of each rematch, repeated bye or wider gap."""
    where: dict[str, int] = {pid: i for i, m in enumerate(paired_round.matches) for pid in m.players}
    for pid in (a, b):
        if pid not in where:
            raise RulesError(f"cannot swap: {pid} is not in round {paired_round.number}")
    if a == b or where[a] == where[b]:
        return paired_round, []
    state = _state(event, game, paired_round)
    matches = list(paired_round.matches)
    before = {i: matches[i] for i in (where[a], where[b])}

    def moved(match: PairedMatch) -> PairedMatch:
        players = tuple(b if pid == a else a if pid == b else pid for pid in match.players)
        outcomes = match.outcomes
        if len(players) == 1 and outcomes is not None:
            # A bye moves with the seat; an earned bye cannot be handed to someone else.
            player = next(p for p in event.players if p.id == players[0])
            earned = state.policy.earned_bye_outcome
            if outcomes[0] == earned and paired_round.number > player.earned_byes:
                outcomes = (state.policy.bye_outcome,) if state.policy.bye_outcome else None
        return replace(match, players=players, outcomes=outcomes)

    for i in before:
        matches[i] = moved(matches[i])
    warnings: list[str] = []
    for i, old in before.items():
        new = matches[i]
        for w in _pair_warnings(state, new.players, new.outcomes):
            if w not in _pair_warnings(state, old.players, old.outcomes):
                warnings.append(w)
        if len(new.players) == 2:
            gap_new = abs(state.points[new.players[0]] - state.points[new.players[1]])
            gap_old = abs(state.points[old.players[0]] - state.points[old.players[1]]) if len(old.players) == 2 else 0
            if gap_new > gap_old:
                x, y = new.players
                warnings.append(
                    f"score gap: {x} ({_fmt(state.points[x])}) v {y} ({_fmt(state.points[y])}), "
                    f"a gap of {_fmt(gap_new)} points (was {_fmt(gap_old)})"
                )
    for pid in (a, b):
        player = next(p for p in event.players if p.id == pid)
        if not player.active_in(paired_round.number):
            warnings.append(f"{pid} has dropped and is paired")
    return replace(paired_round, matches=tuple(matches)), warnings

"""Who won one elimination match: the bracket's rule (best-of-three games, a double loss, Star Trek's
tie to the higher seed). Handed the bracket rules and the ruleset; needs no standings, so the standings
engine places a cut with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import RulesError
from .matchplay import match_winner_from_games

if TYPE_CHECKING:  # pragma: no cover
    from ..brackets.rules import BracketRules
    from ..event.model import Event, Match, Round
    from ..rulesets.base import Ruleset

__all__ = ["elimination_rounds_of", "match_winner", "seed_map", "results_of", "higher_seed"]


def elimination_rounds_of(event: Event) -> list[Round]:
    """The event's elimination rounds in play order."""
    return sorted((r for r in event.rounds if r.stage == "elimination"), key=lambda r: r.number)


def seed_map(event: Event) -> dict[str, int]:
    """Each player's seed in the bracket (the first one the elimination rounds record)."""
    seeds: dict[str, int] = {}
    for rnd in elimination_rounds_of(event):
        for m in rnd.matches:
            for pid, seed in zip(m.players, m.extra.get("seeds") or ()):
                if seed is not None:
                    seeds.setdefault(pid, seed)
    return seeds


def results_of(event: Event, ruleset: Ruleset) -> Any:
    """outcome word → its W-L-T result under the event's ruleset (RulesError for an unknown word)."""
    rules_of = ruleset

    def result(outcome: str) -> str:
        try:
            return rules_of.outcome(outcome).result
        except KeyError:
            raise RulesError(f"outcomes: '{outcome}' is not an outcome of {event.ruleset}") from None

    return result


def higher_seed(players: Sequence[str], seeds: dict[str, int]) -> str:
    """The higher-seeded (lower number) of the players; RulesError when a seed is missing."""
    known = [p for p in players if p in seeds]
    if len(known) != len(players):
        raise RulesError("seeds: a tied match goes to the higher seed, but the players have no seeds")
    return min(known, key=seeds.__getitem__)


def match_winner(
    event: Event,
    match: Match,
    *,
    rules: BracketRules,
    ruleset: Ruleset,
    best_of: int | None = None,
) -> tuple[bool, str | None]:
    """``(decided, winner)`` of one elimination match; ``winner`` is ``None`` when nobody advances."""
    if match.extra.get("dropped") is True:
        return True, None
    result = results_of(event, ruleset)
    seeds = seed_map(event)
    if len(match.players) == 1:
        if match.outcomes is None:
            return False, None
        return True, match.players[0] if result(match.outcomes[0]) == "win" else None
    if len(match.players) != 2:
        raise RulesError(f"players: an elimination match has 2 players, not {len(match.players)}")
    higher = higher_seed(match.players, seeds) if rules.tie_to_higher_seed else None
    if match.games:
        return True, match_winner_from_games(
            match.players, match.games, best_of=best_of, outcomes=match.outcomes, results=result, higher_seed=higher
        )
    if match.outcomes is None:
        return False, None
    a, b = (result(o) for o in match.outcomes)
    if (a, b) == ("win", "loss"):
        return True, match.players[0]
    if (a, b) == ("loss", "win"):
        return True, match.players[1]
    if (a, b) == ("loss", "loss"):
        return True, None  # a double loss: nobody advances
    if higher is not None:
        return True, higher  # Star Trek OP Guide 10: a tied match goes to the higher seed
    raise RulesError(f"outcomes: {list(match.outcomes)} does not decide an elimination match; report the winner")

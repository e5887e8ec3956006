"""Match results from per-game winners, and Star Trek match play (Star Trek OP Guide 10).

Star Trek OP Guide 10: a tied game goes to the higher seed, and so does a
tied multi-game match; 10.1: a random method picks who goes first in game
one, then the loser of each game chooses for the next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..errors import RulesError
from ..seeded import Rng

__all__ = ["TIED_GAME", "match_winner_from_games", "first_turn_chooser"]

#: How a tied game is written in ``matches[].games`` (``null`` is read the same way).
TIED_GAME = "tie"

_WIN_RESULTS = frozenset({"win"})


def _tally(players: Sequence[str], games: Sequence[Any], higher_seed: str | None) -> list[str]:
    winners: list[str] = []
    for i, game in enumerate(games):
        if game is None or game == TIED_GAME:
            if higher_seed is None:
                raise RulesError(f"games[{i}]: a tied game needs a winner in this ruleset")
            # Star Trek OP Guide 10: a tied game is awarded to the higher seed.
            winners.append(higher_seed)
        elif game in players:
            winners.append(game)
        else:
            raise RulesError(f"games[{i}]: '{game}' is not a player of this match")
    return winners


def match_winner_from_games(
    players: Sequence[str],
    games: Sequence[Any],
    *,
    best_of: int | None = 3,
    outcomes: Sequence[str] | None = None,
    results: Any = None,
    higher_seed: str | None = None,
) -> str:
    """The match winner from per-game winners; checks the games agree with the outcomes.

    ``results`` maps an outcome key to ``"win"``/``"loss"``/``"tie"`` (a ruleset's
    outcome table); without it, outcomes are only checked when it is given.

    >>> match_winner_from_games(["a", "b"], ["a", "b", "b"])
    'b'
    >>> match_winner_from_games(["a", "b"], ["a", "a", "b"])
    Traceback (most recent call last):
    ...
    shared_rules.errors.RulesError: games: 'a' had already won the best-of-3 before game 3
    >>> match_winner_from_games(["a", "b"], ["b", "tie"], higher_seed="a", best_of=3)
    'a'
    """
    if len(players) != 2:
        raise RulesError("games: only a two-player match has games")
    if best_of is not None and (best_of < 1 or best_of % 2 == 0):
        raise RulesError(f"best_of: {best_of} is not an odd number of games")
    if not games:
        raise RulesError("games: no games were reported")
    if best_of is not None and len(games) > best_of:
        raise RulesError(f"games: {len(games)} games reported for a best-of-{best_of}")
    winners = _tally(players, games, higher_seed)
    need = (best_of // 2 + 1) if best_of is not None else None
    counts = {p: 0 for p in players}
    decided: str | None = None
    for i, w in enumerate(winners):
        if decided is not None:
            raise RulesError(f"games: '{decided}' had already won the best-of-{best_of} before game {i + 1}")
        counts[w] += 1
        if need is not None and counts[w] >= need:
            decided = w
    if decided is None:
        a, b = players
        if counts[a] != counts[b]:
            decided = a if counts[a] > counts[b] else b
            if need is not None:
                raise RulesError(f"games: {counts[a]}-{counts[b]} does not finish a best-of-{best_of}")
        elif higher_seed is not None:
            # Star Trek OP Guide 10: a tied match is awarded to the higher seed.
            decided = higher_seed
        else:
            raise RulesError(f"games: {counts[a]}-{counts[b]} leaves the match without a winner")
    if outcomes is not None and results is not None:
        mine = results(outcomes[list(players).index(decided)])
        other = results(outcomes[1 - list(players).index(decided)])
        tied_match = mine == other == "tie" and higher_seed == decided
        if not tied_match and (mine != "win" or other != "loss"):
            raise RulesError(f"outcomes: {list(outcomes)} disagree with the games, which '{decided}' won")
    return decided


def first_turn_chooser(
    seed: str, match_key: object, players: Sequence[str], games: Sequence[Any], higher_seed: str | None = None
) -> str:
    """Who chooses to go first or second in the next game (Star Trek OP Guide 10.1).

    Game one: a seeded random draw; later games: the loser of the previous game
    (a tied game counts as lost by the lower seed, who was not awarded it).

    >>> first_turn_chooser("s", 1, ["a", "b"], ["a"])
    'b'
    """
    if not games:
        return Rng(seed, "first-turn", match_key).choice(list(players))
    winner = _tally(players, games[-1:], higher_seed)[0]
    return players[1] if winner == players[0] else players[0]

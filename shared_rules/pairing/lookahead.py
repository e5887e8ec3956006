"""Star Trek OP Guide 7.6, criterion 5: "ability to pair future rounds".

7.6 ranks a round's pairings by five criteria, in order: (1) no duplicate
opponent, (2) victory point totals match, (3) victory point totals are
similar, (4) maximum one bye per player, (5) ability to pair future rounds.
Criteria 1-4 are the matching core's objective and the bye rule
(:mod:`.swiss`). This module adds criterion 5 on top, without ever trading
any of 1-4 for it:

* :func:`may_fail` is the guard. By Dirac's theorem a graph on ``n >= 3``
  vertices whose every vertex has at least ``ceil(n / 2)`` neighbours has a
  Hamiltonian cycle, hence a perfect matching (``n`` even) or a perfect
  matching of the other players whoever sits out (``n`` odd). Each round
  takes at most one possible opponent from each player, so when every player
  still has ``ceil(n / 2) + rounds left`` possible (non-rematch) opponents
  before this round - and, for an odd field, enough players without a bye
  for this round and every later one - the remaining rounds are pairable
  whatever this round does, and the lookahead is skipped. In a typical event
  (rounds about log2 of the players) it therefore never runs; it runs only
  when the rounds approach half the field (``players <= ~2 x rounds``),
  which is exactly when the future can fail.
* :func:`future_cost` checks a candidate round: the remaining rounds are
  simulated one after the other with the matching core (everyone on equal
  points, so only legality matters; previous opponents and this round's pairs
  forbidden; the bye only to a player without one where possible). It
  returns ``(players left with only rematches, second byes)`` summed over the
  simulated rounds; ``(0, 0)`` means the future is pairable. The next round
  is checked exactly (the core finds a maximum rematch-free pairing); the
  rounds after it are paired greedily, one at a time (with a few seeded
  orders, :data:`SIMULATIONS`), so a future that could only be saved by a
  particular choice two rounds ahead may be reported as failing (the approximation: deciding whether ``k`` more rounds fit is the
  edge-disjoint perfect matchings problem). That can only make the
  lookahead try an equally good alternative, or warn, needlessly.
* :func:`choose` searches the pairings that are exactly as good as the best
  one on criteria 1-4 (same players left without a legal opponent, same
  total squared point gap, same secondary cost, bye to a player of the same
  points and bye history) in a deterministic breadth-first order: the best
  pairing, then the best pairing with one of its pairs forbidden, and so on
  (forbidding the pairs of each candidate in turn reaches every optimal
  pairing, since another optimal pairing misses at least one of its pairs),
  for each equally deserving bye candidate, within :data:`SEARCH_BUDGET`
  matcher calls. The first candidate whose future is pairable wins; if none
  is, the candidate with the smallest future cost (the best pairing on ties)
  is kept and the caller adds a warning.

Every step works on sorted lists and the seeded :class:`~shared_rules.seeded.Rng`,
so the same document always gives the same round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..seeded import Rng
from .matching import Entrant, pair_players

__all__ = ["Future", "Choice", "SEARCH_BUDGET", "SIMULATIONS", "may_fail", "future_cost", "choose"]

#: Most matcher calls spent looking for an equally good pairing with a pairable future.
SEARCH_BUDGET = 64
#: Greedy simulations of the remaining rounds (different seeded orders) before a future counts as failing.
SIMULATIONS = 4

Pair = tuple[str, str]
#: ``solve(bye, banned)``: the pool's best pairing with ``bye`` sitting out (None: no bye) and the
#: ``banned`` pairs forbidden on top of the rematches, as ``(pairs, players left without a legal game)``.
Solve = Callable[[str | None, frozenset[frozenset[str]]], tuple[Sequence[Pair], Sequence[str]]]


@dataclass(frozen=True, slots=True)
class Future:
    """What the rest of the event looks like from the round being paired."""

    #: Players expected in the remaining rounds (everyone active now).
    ids: tuple[str, ...]
    #: Previous opponents (every round of the event, Star Trek 7.6).
    opponents: Mapping[str, frozenset[str]]
    #: Limited byes received so far.
    had_bye: Mapping[str, int]
    #: Rounds still to be paired after this one.
    rounds: int
    seed: str
    context: tuple[object, ...]
    #: Players left without a legal opponent receive byes (Star Trek 7.5.1, 7.6) rather than a rematch.
    stranded_get_byes: bool = True


@dataclass(frozen=True, slots=True)
class Choice:
    """The pairing picked for criterion 5 and what the lookahead saw."""

    bye: str | None
    pairs: tuple[Pair, ...]
    left: tuple[str, ...]
    #: ``(players left with only rematches, second byes)`` over the simulated remaining rounds.
    cost: tuple[int, int]
    #: How many candidate pairings were examined.
    examined: int


def may_fail(future: Future) -> bool:
    """Whether the remaining rounds might not be pairable (the guard; see the module docstring).

    >>> may_fail(Future(tuple(f"p{i:02d}" for i in range(64)), {}, {}, 5, "s", ()))
    False
    >>> may_fail(Future(("a", "b", "c", "d"), {}, {}, 2, "s", ()))
    True
    """
    ids = future.ids
    n = len(ids)
    if future.rounds <= 0 or n < 2:
        return False
    members = frozenset(ids)
    least = min(n - 1 - len(future.opponents.get(pid, frozenset()) & members) for pid in ids)
    if least - future.rounds < (n + 1) // 2:
        return True
    if n % 2:
        without = sum(1 for pid in ids if not future.had_bye.get(pid))
        if without - 1 < future.rounds:
            return True
    return False


def future_cost(future: Future, pairs: Sequence[Pair], byes: Sequence[str]) -> tuple[int, int]:
    """``(players left with only rematches, second byes)`` over the remaining rounds after this one.

    The greedy simulation is run with up to :data:`SIMULATIONS` seeded orders
    (stopping at the first without a problem) and the least cost is returned.

    >>> f = Future(("a", "b", "c", "d"), {}, {}, 2, "s", ())
    >>> future_cost(f, [("a", "b"), ("c", "d")], [])
    (0, 0)
    >>> future_cost(Future(("a", "b", "c", "d"), {}, {}, 3, "s", ()), [("a", "b"), ("c", "d")], [])
    (4, 0)
    """
    best: tuple[int, int] | None = None
    for attempt in range(SIMULATIONS):
        cost = _simulate(future, pairs, byes, attempt)
        if best is None or cost < best:
            best = cost
        if best == (0, 0) or future.rounds <= 1:
            break  # one round ahead the core's answer is exact, whatever the order
    assert best is not None
    return best


def _simulate(future: Future, pairs: Sequence[Pair], byes: Sequence[str], attempt: int) -> tuple[int, int]:
    """One greedy run of the remaining rounds, in the seeded order ``attempt``."""
    ids = sorted(future.ids)
    members = set(ids)
    forbidden: set[frozenset[str]] = set()
    for pid in ids:
        forbidden.update(frozenset((pid, o)) for o in future.opponents.get(pid, frozenset()) if o in members)
    forbidden.update(frozenset(p) for p in pairs)
    had = {pid: future.had_bye.get(pid, 0) for pid in ids}
    for pid in byes:
        if pid in had:
            had[pid] += 1
    stranded = second = 0
    entrants = [Entrant(pid, 0) for pid in ids]
    for k in range(1, future.rounds + 1):
        rng_context = ("lookahead", *future.context, attempt, k)
        pairing = pair_players(
            entrants,
            rng=Rng(future.seed, *rng_context),
            forbidden=forbidden,
            bye_cost=lambda pid: None if had[pid] else 0,
            allow_unpaired=True,
        )
        if pairing.unpaired and len(ids) % 2:
            # Maybe only the one-bye limit blocks: a second bye beats a rematch (criterion 4 after 1).
            anyone = pair_players(
                entrants, rng=Rng(future.seed, *rng_context, "any-bye"), forbidden=forbidden, allow_unpaired=True
            )
            if len(anyone.unpaired) < len(pairing.unpaired):
                pairing = anyone
        if pairing.bye is not None:
            if had[pairing.bye]:
                second += 1
            had[pairing.bye] += 1
        stranded += len(pairing.unpaired)
        forbidden.update(frozenset(p) for p in pairing.pairs)
        if future.stranded_get_byes:
            for pid in pairing.unpaired:
                had[pid] += 1
    return stranded, second


def choose(
    future: Future, byes: Sequence[str | None], solve: Solve, key: Callable[[Sequence[Pair], Sequence[str]], Any]
) -> Choice:
    """The first pairing, as good as the best on criteria 1-4, whose future is pairable.

    ``byes`` are the equally deserving bye candidates, the best pairing's bye
    first (``[None]`` for an even pool); ``solve(byes[0], frozenset())`` must
    be the best pairing itself. ``key(pairs, left)`` is the criteria 1-4 value
    that every alternative must equal.
    """
    queue: list[tuple[str | None, frozenset[frozenset[str]]]] = [(bye, frozenset()) for bye in byes]
    seen: set[tuple[str | None, frozenset[frozenset[str]]]] = set()
    tried: set[frozenset[frozenset[str]]] = set()
    best: Choice | None = None
    target: Any = None
    examined = 0
    budget = SEARCH_BUDGET
    while queue and budget > 0:
        bye, banned = queue.pop(0)
        if (bye, banned) in seen:
            continue
        seen.add((bye, banned))
        budget -= 1
        found, unpaired = solve(bye, banned)
        pairs, left = tuple(found), tuple(sorted(unpaired))
        value = key(pairs, left)
        if best is None:
            target = value
        elif value != target:
            continue  # worse on criteria 1-4; forbidding more pairs cannot make it better
        signature = frozenset(frozenset(p) for p in pairs) | {frozenset(("bye", str(bye)))}
        if signature in tried:
            continue
        tried.add(signature)
        examined += 1
        sitting = ([bye] if bye is not None else []) + (list(left) if future.stranded_get_byes else [])
        cost = future_cost(future, pairs, sitting)
        choice = Choice(bye, pairs, left, cost, examined)
        if best is None or cost < best.cost:
            best = choice
        if cost == (0, 0):
            break
        for pair in sorted(tuple(sorted(p)) for p in pairs):
            queue.append((bye, banned | {frozenset(pair)}))
    assert best is not None
    return Choice(best.bye, best.pairs, best.left, best.cost, examined)

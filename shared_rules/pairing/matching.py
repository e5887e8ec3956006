"""The optimal Swiss pairing core shared by every ruleset.

Objective, compared lexicographically over all pairings of the entrants:

1. cardinality: as many legal pairs as possible (a legal pair is not a
   forbidden rematch; a legal bye goes to a player whose ``bye_cost`` is not
   ``None``).  Odd fields get exactly one bye when ``allow_bye``;
2. the total squared score difference, where the bye counts as a game against
   a phantom player whose score is ``bye_score`` (default: one point below the
   lowest score, so the bye naturally goes to the lowest bracket);
3. the caller's secondary cost (``extra_cost`` per pair, ``bye_cost`` per bye,
   non-negative integers: the hook for finer criteria such as "no one paired
   down twice");
4. ties are broken by the event seed: players are laid on a line sorted by
   score, in a seeded random order inside each score group.

Algorithm (exact, and fast on real Swiss fields):

* Lower bound.  Put every player (and the phantom) on the score line.  A pair
  spanning the gaps ``g1 .. gk`` between consecutive score groups costs
  ``(g1 + .. + gk)^2 >= g1^2 + .. + gk^2``, and a cut between groups with an odd
  number of players above it is crossed by at least one pair.  Hence every
  pairing costs at least ``LB = sum of gap^2 over the odd cuts``, with equality
  exactly when each odd cut is crossed once by a pair of *adjacent* groups and
  even cuts are not crossed.
* Fast path.  Walk the groups top-down; each group (plus the player floated
  down into it) is paired with legal, zero-secondary-cost pairs by a greedy
  walk in seeded order, leaving one player to float down when its size is odd.
  When the greedy walk dead-ends, the tail of the group is re-solved exactly
  with the blossom algorithm on growing blocks, up to the whole group.  If the
  walk completes, the pairing costs exactly ``LB`` with secondary cost 0, so it
  is optimal for (1)-(3) by the bound above - no search over other groups is
  needed.  This costs about O(n) pair checks for a typical field.
* Exact fallback.  Otherwise (dense rematches, forced secondary costs, no
  legal bye...) the whole problem is solved by Edmonds' maximum-weight
  matching (:mod:`.blossom`) on the complete graph with integer weights that
  encode (1)-(4) lexicographically: illegal pairs carry a penalty larger than
  any sum of lower criteria, and the seeded tie-break term ``|line position
  difference|`` is scaled below one unit of the secondary cost.  This is
  O(n^3) but only reached on small or pathological fields.

Every decision is made on sorted lists and integers, so the result depends on
the inputs and the seed only, never on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Callable, Iterable, Mapping, Sequence

from ..errors import RulesError
from ..seeded import Rng
from .blossom import max_weight_matching

__all__ = ["Entrant", "Pairing", "pair_players", "total_squared_difference"]

Score = int | float | Fraction


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player to pair and the score that brackets them.

    >>> Entrant("p1", 6).score
    6
    """

    id: str
    score: Score


@dataclass(frozen=True, slots=True)
class Pairing:
    """Pairs (higher score first), the bye, and players left without a legal opponent."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None = None
    unpaired: tuple[str, ...] = ()


def total_squared_difference(pairs: Iterable[tuple[str, str]], scores: Mapping[str, Score]) -> Score:
    """Sum of squared score differences over the pairs.

    >>> total_squared_difference([("a", "b"), ("c", "d")], {"a": 3, "b": 1, "c": 0, "d": 0})
    4
    """
    return sum(((scores[a] - scores[b]) ** 2 for a, b in pairs), 0)


@dataclass(frozen=True, slots=True)
class _Problem:
    """Entrants (and the bye phantom, id ``None``) on the seeded score line."""

    ids: tuple[str | None, ...]
    scores: tuple[int, ...]
    forbidden: frozenset[frozenset[str]]
    extra_cost: Callable[[str, str], int] | None
    bye_cost: Callable[[str], int | None] | None

    def legal(self, u: int, v: int) -> bool:
        """Whether vertices ``u`` and ``v`` may be paired at all."""
        a, b = self.ids[u], self.ids[v]
        if a is None or b is None:
            player = b if a is None else a
            return player is not None and (self.bye_cost is None or self.bye_cost(player) is not None)
        return frozenset((a, b)) not in self.forbidden

    def extra(self, u: int, v: int) -> int:
        """Secondary cost of a legal pair ``u < v`` (checked non-negative)."""
        a, b = self.ids[u], self.ids[v]
        if a is None or b is None:
            cost = 0 if self.bye_cost is None else self.bye_cost(b if a is None else a)
        else:
            cost = 0 if self.extra_cost is None else self.extra_cost(a, b)
        if cost is None or cost < 0:
            raise ValueError("secondary pairing costs must be non-negative integers")
        return int(cost)

    def free(self, u: int, v: int) -> bool:
        """Legal and with no secondary cost (order-insensitive)."""
        if u > v:
            u, v = v, u
        return self.legal(u, v) and self.extra(u, v) == 0


def pair_players(
    entrants: Sequence[Entrant],
    *,
    rng: Rng,
    forbidden: Iterable[Iterable[str]] = (),
    allow_bye: bool = True,
    bye_score: Score | None = None,
    bye_cost: Callable[[str], int | None] | None = None,
    extra_cost: Callable[[str, str], int] | None = None,
    allow_unpaired: bool = False,
) -> Pairing:
    """Optimal Swiss pairing of the entrants (see the module docstring for the objective).

    ``forbidden`` lists pairs of ids that may not meet (rematches); ``bye_cost``
    returns ``None`` for players who may not get the bye; ``extra_cost(a, b)``
    is called with ``a`` ranked above ``b`` on the score line.  When some
    players cannot be given a legal opponent, a ``RulesError`` is raised unless
    ``allow_unpaired``, in which case they are listed in ``unpaired``.

    >>> pair_players([Entrant("a", 3), Entrant("b", 3), Entrant("c", 0)], rng=Rng("s")).bye
    'c'
    """
    problem = _build(entrants, rng, forbidden, allow_bye, bye_score, bye_cost, extra_cost)
    mate = _fast_path(problem)
    if mate is None:
        mate = _exact(problem)
    pairing = _to_pairing(problem, mate)
    if pairing.unpaired and not allow_unpaired:
        names = ", ".join(pairing.unpaired)
        raise RulesError(f"no pairing without a rematch or illegal bye exists; cannot pair: {names}")
    return pairing


# -- building the score line ---------------------------------------------------
def _exact_score(value: Score) -> int | Fraction:
    """A score as an exact int or fraction (floats are read by their shortest repr)."""
    if isinstance(value, bool):
        raise ValueError("a score must be a number")
    if isinstance(value, float):
        return Fraction(repr(value))
    return value if isinstance(value, int) else Fraction(value)


def _build(
    entrants: Sequence[Entrant],
    rng: Rng,
    forbidden: Iterable[Iterable[str]],
    allow_bye: bool,
    bye_score: Score | None,
    bye_cost: Callable[[str], int | None] | None,
    extra_cost: Callable[[str, str], int] | None,
) -> _Problem:
    """Lay the entrants (and the phantom) on the seeded score line with integer scores."""
    by_id: dict[str, int | Fraction] = {}
    for e in entrants:
        if e.id in by_id:
            raise RulesError(f"player {e.id} is listed twice for pairing")
        by_id[e.id] = _exact_score(e.score)
    ids = rng.shuffled(sorted(by_id))
    phantom: int | Fraction | None = None
    if allow_bye and len(ids) % 2 == 1:
        phantom = _exact_score(bye_score) if bye_score is not None else min(by_id.values()) - 1
    den = lcm(*{f.denominator for f in by_id.values()}, phantom.denominator if phantom is not None else 1)
    line: list[tuple[int, int, str | None]] = [(-int(by_id[i] * den), k, i) for k, i in enumerate(ids)]
    if phantom is not None:
        line.append((-int(phantom * den), len(ids), None))
    line.sort(key=lambda t: (t[0], t[1]))
    pairs = frozenset(frozenset(p) for p in (tuple(q) for q in forbidden) if len(set(p)) == 2)
    return _Problem(
        ids=tuple(t[2] for t in line),
        scores=tuple(-t[0] for t in line),
        forbidden=pairs,
        extra_cost=extra_cost,
        bye_cost=bye_cost,
    )


def _groups(problem: _Problem) -> list[list[int]]:
    """Vertices split into runs of equal score along the line."""
    out: list[list[int]] = []
    for v, s in enumerate(problem.scores):
        if out and problem.scores[out[-1][0]] == s:
            out[-1].append(v)
        else:
            out.append([v])
    return out


# -- fast path: attain the lower bound group by group -------------------------
def _fast_path(problem: _Problem) -> list[int] | None:
    """A pairing meeting the lower bound with zero secondary cost, or None if not found."""
    mate = [-1] * len(problem.ids)
    groups = _groups(problem)
    incoming: int | None = None
    for gi, group in enumerate(groups):
        members = ([incoming] if incoming is not None else []) + group
        need_down = len(members) % 2 == 1
        if need_down and gi + 1 == len(groups):
            return None
        below = groups[gi + 1] if need_down else []
        cache: dict[int, bool] = {}

        def can_float(x: int, below: list[int] = below, cache: dict[int, bool] = cache) -> bool:
            if x not in cache:
                cache[x] = any(problem.free(x, y) for y in below)
            return cache[x]

        solved = _solve_group(problem, members, incoming, need_down, can_float)
        if solved is None:
            return None
        pairs, floater = solved
        for a, b in pairs:
            mate[a], mate[b] = b, a
        incoming = floater
    return mate


def _solve_group(
    problem: _Problem,
    members: list[int],
    incoming: int | None,
    need_down: bool,
    can_float: Callable[[int], bool],
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Pair a group with free pairs, leaving one floatable player when odd; None if impossible."""
    rest = list(members)
    pairs: list[tuple[int, int]] = []
    exposed: list[int] = []
    while rest:
        v = rest.pop(0)
        for j, u in enumerate(rest):
            if problem.free(v, u):
                pairs.append((v, rest.pop(j)))
                break
        else:
            exposed.append(v)
    if not need_down and not exposed:
        return pairs, None
    if need_down and len(exposed) == 1 and exposed[0] != incoming and can_float(exposed[0]):
        return pairs, exposed[0]
    tail = 2
    while True:
        tail = min(tail, len(pairs))
        kept = pairs[: len(pairs) - tail]
        block = sorted(exposed + [v for p in pairs[len(pairs) - tail :] for v in p], key=members.index)
        solved = _solve_block(problem, block, incoming, need_down, can_float)
        if solved is not None:
            return kept + solved[0], solved[1]
        if tail == len(pairs):
            return None
        tail *= 4


def _solve_block(
    problem: _Problem,
    block: list[int],
    incoming: int | None,
    need_down: bool,
    can_float: Callable[[int], bool],
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Perfectly pair a block exactly (blossom), one player floating down when odd."""
    size = len(block) + (1 if need_down else 0)
    if size % 2 == 1:
        return None
    w = [[0] * size for _ in range(size)]
    for i, u in enumerate(block):
        for j in range(i + 1, len(block)):
            if problem.free(u, block[j]):
                w[i][j] = w[j][i] = 1
        if need_down and u != incoming and can_float(u):
            w[i][size - 1] = w[size - 1][i] = 1
    mate = max_weight_matching(w)
    if any(m == -1 for m in mate):
        return None
    pairs = [(block[i], block[m]) for i, m in enumerate(mate) if i < m < len(block)]
    floater = block[mate[size - 1]] if need_down else None
    return pairs, floater


# -- exact fallback ------------------------------------------------------------
def _exact(problem: _Problem) -> list[int]:
    """Lexicographically optimal pairing by maximum-weight matching on the complete graph."""
    size = len(problem.ids)
    if size < 2:
        return [-1] * size
    cells = []
    max_p = max_e = 0
    for u in range(size):
        for v in range(u + 1, size):
            legal = problem.legal(u, v)
            p = (problem.scores[u] - problem.scores[v]) ** 2 if legal else 0
            e = problem.extra(u, v) if legal else 0
            max_p, max_e = max(max_p, p), max(max_e, e)
            cells.append((u, v, legal, p, e))
    half = size // 2 + 1
    unit_r = half * (size + 1)
    unit_e = half * (max_e + 1) * unit_r
    unit_p = half * (max_p + 1) * unit_e  # one player left without a legal game
    cost = {}
    for u, v, legal, p, e in cells:
        stranded = 0 if legal else 2 - (problem.ids[u] is None) - (problem.ids[v] is None)
        cost[u, v] = stranded * unit_p + p * unit_e + e * unit_r + (v - u)
    top = half * max(cost.values()) + 1
    w = [[0] * size for _ in range(size)]
    for (u, v), c in cost.items():
        w[u][v] = w[v][u] = top - c
    return max_weight_matching(w)


def _to_pairing(problem: _Problem, mate: list[int]) -> Pairing:
    """Read pairs, bye and unpaired players off a mate list."""
    pairs: list[tuple[str, str]] = []
    bye: str | None = None
    unpaired: list[str] = []
    for u, v in enumerate(mate):
        a = problem.ids[u]
        if v == -1:
            if a is not None:
                unpaired.append(a)
            continue
        if v < u:
            continue
        b = problem.ids[v]
        if not problem.legal(u, v):
            unpaired.extend(x for x in (a, b) if x is not None)
        elif a is None or b is None:
            bye = b if a is None else a
        else:
            pairs.append((a, b))
    return Pairing(pairs=tuple(pairs), bye=bye, unpaired=tuple(unpaired))

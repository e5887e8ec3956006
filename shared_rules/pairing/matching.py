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
* Windows (when the walk gets stuck somewhere, e.g. two players alone on the
  top score who already met).  The line is cut into *stretches* ``[lo, hi)``
  of even length, solved by the fast path at their own lower bound (free
  pairs only), and *windows* ``[l, r)`` (even length, may start or end inside
  a score group), each solved by the blossom.  A window starts around the run
  where the walk got stuck and is widened (doubling, towards the side where
  its unmatched players' best outside partner lies), merged with touching or
  conflicting windows, until the certificate below holds; if it reaches the
  whole line, the exact fallback runs.  Typical cost: a few blossoms on
  windows of 2-30 players plus O(n) fast-path work.

  Certificate.  Use integer costs ``c(u, v) = D * (U * gap^2 + extra)`` on
  legal pairs, with ``D = n + 1``, and the LP dual of min-cost perfect
  matching: vertex duals ``y`` and ``z_S >= 0`` on odd sets ``S``, feasible
  when ``y_u + y_v + sum(z_S: S separates u, v) <= c(u, v)`` for every legal
  pair; then every perfect legal pairing costs at least ``sum y + sum z``
  (weak duality: each odd set is crossed at least once).  The dual is built as
  follows.  Fast-path vertices get ``y = 0``; every score cut inside a
  stretch crossed by its pairing (``p - lo`` odd, so ``[0, p)`` is odd because
  all stretches and windows have even length) gets ``z = D * U * gap^2`` -
  feasible for all pairs of fast-path vertices as in the lower bound, and
  tight on the fast-path pairs.  For a window vertex ``u`` let ``kappa_u`` be
  the least ``c(t, u) - (cut duals crossed)`` over legal fast-path vertices
  ``t`` (exact: the first term only grows along the line, so a short outward
  scan finds it).  The window is solved as a *maximum-weight* matching with
  ``w(u, v) = kappa_u + kappa_v - c(u, v) + 1``; when the
  result is perfect, Edmonds' theorem gives an optimal dual ``y' >= 0, z' >=
  0`` of that LP with value ``sum w`` over the matching, and ``Y_u = kappa_u
  - y'_u`` (with ``z'/2`` on the window's odd sets) is a feasible dual for the
  window pairs whose effective value on any pair leaving the window is at most
  ``kappa_u`` - hence feasible on window-to-stretch pairs by the choice of
  ``kappa``.  Pairs between two windows are checked directly (``kappa_u +
  kappa_v + crossed duals <= c``), else the windows merge.  The dual value is
  then ``cost(pairing) - (number of window pairs)``, and since every cost is a
  multiple of ``D > n / 2`` no perfect legal pairing is cheaper: the result
  is optimal for ``c``.  A perfect legal pairing also settles (1).
  Lexicographic (2)-(3): ``U`` exceeds any window's total secondary cost, and
  when secondary costs exist the same certificate is also run with ``c = D *
  gap^2`` (run A) and must give the same total squared difference; run A
  proves the squared difference minimal, run B proves the secondary cost
  minimal among pairings with that squared difference, so neither criterion
  can override the one above it.  (4) inside a window is the blossom's
  deterministic choice on the seeded line.
* Exact fallback.  Otherwise (no perfect legal pairing, odd field without a
  bye, or windows covering the whole line) the whole problem is solved by
  Edmonds' maximum-weight matching (:mod:`.blossom`) on the complete graph
  with integer weights that encode (1)-(4) lexicographically: illegal pairs
  carry a penalty larger than any sum of lower criteria, and the seeded
  tie-break term ``|line position difference|`` is scaled below one unit of
  the secondary cost.  This is O(n^3) but only reached on small or
  pathological fields.

Every decision is made on sorted lists and integers, so the result depends on
the inputs and the seed only, never on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import cast

from ..errors import RulesError
from ..seeded import Rng
from .blossom import max_weight_matching

__all__ = ["Entrant", "Pairing", "match_even", "pair_players", "total_squared_difference"]

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
            cost = 0 if self.bye_cost is None else self.bye_cost(cast(str, b if a is None else a))
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
    mate = _windowed(problem)
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
def _runs(problem: _Problem, lo: int, hi: int) -> list[list[int]]:
    """Positions ``lo .. hi-1`` split into runs of equal score."""
    scores = problem.scores
    out: list[list[int]] = []
    for v in range(lo, hi):
        if out and scores[out[-1][0]] == scores[v]:
            out[-1].append(v)
        else:
            out.append([v])
    return out


def _fast_range(problem: _Problem, lo: int, hi: int) -> tuple[list[tuple[int, int]] | None, tuple[int, int]]:
    """Pair positions ``lo .. hi-1`` at their local lower bound with free pairs.

    Returns ``(pairs, (lo, hi))`` on success, or ``(None, (start, end))`` with
    the positions of the score run where the walk got stuck.
    """
    pairs_out: list[tuple[int, int]] = []
    groups = _runs(problem, lo, hi)
    incoming: int | None = None
    for gi, group in enumerate(groups):
        members = ([incoming] if incoming is not None else []) + group
        need_down = len(members) % 2 == 1
        if need_down and gi + 1 == len(groups):
            return None, (group[0], group[-1] + 1)
        below = groups[gi + 1] if need_down else []
        cache: dict[int, bool] = {}

        def can_float(x: int, below: list[int] = below, cache: dict[int, bool] = cache) -> bool:
            if x not in cache:
                cache[x] = any(problem.free(x, y) for y in below)
            return cache[x]

        solved = _solve_group(problem, members, incoming, need_down, can_float)
        if solved is None:
            return None, (group[0], group[-1] + 1)
        pairs, floater = solved
        pairs_out.extend(pairs)
        incoming = floater
    return pairs_out, (lo, hi)


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


# -- windows: exact blossom on a few stretches of the line, with a certificate --
_UP, _DOWN = 1, 2


def _windowed(problem: _Problem) -> list[int] | None:
    """An optimal pairing for (1)-(3) built from fast-path stretches and blossom windows.

    Returns None when the field has no perfect legal pairing, is odd without a
    phantom, or the windows grew to the whole line (the caller then runs
    :func:`_exact`).  See the module docstring for the proof of optimality.
    """
    size = len(problem.ids)
    if size % 2 == 1:
        return None
    if size == 0:
        return []
    phantom = problem.ids.index(None) if None in problem.ids else -1
    with_e = problem.extra_cost is not None or any(
        problem.legal(v, phantom) and problem.extra(min(v, phantom), max(v, phantom))
        for v in range(size)
        if phantom >= 0 and v != phantom
    )
    windows: list[tuple[int, int]] = []
    fast_cache: dict[tuple[int, int], tuple[list[tuple[int, int]] | None, tuple[int, int]]] = {}
    edge_cache: dict[tuple[int, int], list[tuple[int, int, int, int]]] = {}
    while True:
        if windows == [(0, size)]:
            return None
        parts = _complement(windows, size)
        lb_pairs: list[tuple[int, int]] = []
        grown = False
        for lo, hi in parts:
            if (lo, hi) not in fast_cache:
                fast_cache[lo, hi] = _fast_range(problem, lo, hi)
            pairs, (start, end) = fast_cache[lo, hi]
            if pairs is None:
                windows.append((start - ((start - lo) & 1), end + ((end - lo) & 1)))
                grown = True
            else:
                lb_pairs.extend(pairs)
        if grown:
            windows = _merge(windows)
            continue
        cum = _lb_cut_prefix(problem, parts, size)
        for w in windows:
            if w not in edge_cache:
                edge_cache[w] = _window_edges(problem, w[0], w[1], with_e)
        max_e = max((e for w in windows for *_, e in edge_cache[w]), default=0)
        unit = (size // 2 + 1) * (max_e + 1) if with_e else 1
        # run A: squared gaps only; run B: squared gaps then secondary costs
        runs = [(unit, with_e)] + ([(1, False)] if with_e else [])
        options = []
        clash = None
        for run_unit, use_e in runs:
            kappa: dict[int, int | None] = {}
            side: dict[int, int] = {}
            for lo, hi in windows:
                for u in range(lo, hi):
                    kappa[u], side[u] = _outside_option(problem, u, windows, cum, run_unit, use_e)
            options.append((run_unit, use_e, kappa, side))
            clash = _window_clash(problem, windows, kappa, cum, run_unit, use_e)
            if clash is not None:
                break
        if clash is not None:
            windows[clash : clash + 2] = [(windows[clash][0], windows[clash + 1][1])]
            continue
        scale = size + 1
        widened: list[tuple[int, int]] = []
        mate = [-1] * size
        totals = [0, 0]
        for lo, hi in windows:
            edges = edge_cache[lo, hi]
            p_of = {(u, v): p for u, v, p, _ in edges}
            directions = 0
            for r, (run_unit, use_e, kappa, side) in enumerate(options):
                solved = _solve_window(lo, hi, edges, kappa, run_unit, use_e, scale)
                for i, j in enumerate(solved):
                    if j == -1:
                        directions |= side[lo + i]
                    elif i < j:
                        totals[r] += p_of[lo + i, lo + j]
                        if r == 0:
                            mate[lo + i], mate[lo + j] = lo + j, lo + i
            if directions:
                step = max(2, hi - lo)
                widened.append(
                    (
                        max(0, lo - step) if directions & _UP else lo,
                        min(size, hi + step) if directions & _DOWN else hi,
                    )
                )
            else:
                widened.append((lo, hi))
        if widened != windows:
            windows = _merge(widened)
            continue
        if with_e and totals[0] != totals[1]:  # cannot happen with this unit; stay exact regardless
            return None
        for a, b in lb_pairs:
            mate[a], mate[b] = b, a
        return mate


def _complement(windows: list[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    """The stretches of the line outside the (sorted, disjoint) windows."""
    parts: list[tuple[int, int]] = []
    at = 0
    for lo, hi in windows:
        if lo > at:
            parts.append((at, lo))
        at = hi
    if at < size:
        parts.append((at, size))
    return parts


def _merge(windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort the windows and merge those that overlap or touch."""
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(windows):
        if out and lo <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], hi))
        else:
            out.append((lo, hi))
    return out


def _lb_cut_prefix(problem: _Problem, parts: list[tuple[int, int]], size: int) -> list[int]:
    """``cum[x]``: sum of gap^2 over the dual-carrying cuts at positions ``<= x``.

    A cut at position ``p`` (between ``p - 1`` and ``p``) carries ``gap^2``
    when it separates two score groups strictly inside a fast-path stretch
    ``[lo, hi)`` with ``p - lo`` odd: exactly the cuts its pairing crosses.
    """
    scores = problem.scores
    z = [0] * (size + 1)
    for lo, hi in parts:
        for p in range(lo + 1, hi, 2):
            if scores[p] != scores[p - 1]:
                z[p] = (scores[p - 1] - scores[p]) ** 2
    total = 0
    for x in range(size + 1):
        total += z[x]
        z[x] = total
    return z


def _outside_option(
    problem: _Problem, u: int, windows: list[tuple[int, int]], cum: list[int], unit: int, use_e: bool
) -> tuple[int | None, int]:
    """Least reduced cost from window vertex ``u`` to a legal fast-path vertex, and its side(s).

    The reduced cost of ``(t, u)`` is ``unit * (gap^2 - crossed cut duals) +
    extra`` (``extra`` only when ``use_e``).  Its first term never decreases
    with the distance along the line and the second is non-negative, so each
    side is scanned outwards only until the first term alone reaches the best
    value found.
    """
    scores = problem.scores
    best: list[int | None] = []
    for step in (-1, 1):
        found: int | None = None
        t = u + step
        while 0 <= t < len(scores):
            inside = next((w for w in windows if w[0] <= t < w[1]), None)
            if inside is not None:
                t = inside[0] - 1 if step < 0 else inside[1]
                continue
            a, b = (t, u) if t < u else (u, t)
            if problem.legal(a, b):
                value = unit * ((scores[t] - scores[u]) ** 2 - abs(cum[u] - cum[t]))
                if found is not None and value >= found:
                    break
                if use_e:
                    value += problem.extra(a, b)
                if found is None or value < found:
                    found = value
            t += step
        best.append(found)
    up, down = best
    if up is None and down is None:
        return None, _UP | _DOWN
    if down is None or (up is not None and up < down):
        return up, _UP
    if up is None or down < up:
        return down, _DOWN
    return up, _UP | _DOWN


def _window_clash(
    problem: _Problem,
    windows: list[tuple[int, int]],
    kappa: dict[int, int | None],
    cum: list[int],
    unit: int,
    use_e: bool,
) -> int | None:
    """Index ``i`` of two windows ``i, i+1`` to merge because the certificate cannot cover a pair between windows.

    Every legal pair ``(u, v)`` in two different windows must satisfy
    ``kappa[u] + kappa[v] + unit * crossed cut duals <= unit * gap^2 + extra``.
    """
    scores = problem.scores
    for i, (lo1, hi1) in enumerate(windows):
        for j in range(i + 1, len(windows)):
            lo2, hi2 = windows[j]
            for u in range(lo1, hi1):
                ku = kappa[u]
                for v in range(lo2, hi2):
                    kv = kappa[v]
                    if ku is not None and kv is not None:
                        slack = unit * ((scores[u] - scores[v]) ** 2 - cum[v] + cum[u]) - ku - kv
                        if slack >= 0:
                            continue
                    if not problem.legal(u, v):
                        continue
                    if ku is not None and kv is not None and use_e and slack + problem.extra(u, v) >= 0:
                        continue
                    return i
    return None


def _window_edges(problem: _Problem, lo: int, hi: int, with_e: bool) -> list[tuple[int, int, int, int]]:
    """Legal pairs of a window with their squared gap and secondary cost."""
    scores = problem.scores
    out = []
    for u in range(lo, hi):
        for v in range(u + 1, hi):
            if problem.legal(u, v):
                out.append((u, v, (scores[u] - scores[v]) ** 2, problem.extra(u, v) if with_e else 0))
    return out


def _solve_window(
    lo: int,
    hi: int,
    edges: list[tuple[int, int, int, int]],
    kappa: dict[int, int | None],
    unit: int,
    use_e: bool,
    scale: int,
) -> list[int]:
    """Maximum-weight matching of a window with the outside options subtracted (local mate indices).

    Weight of a pair: ``scale * (kappa_u + kappa_v - cost) + 1`` with ``cost =
    unit * gap^2 + extra`` (``extra`` only when ``use_e``).  A vertex with no
    legal outside vertex gets a ``kappa`` larger than any pair cost.
    """
    m = hi - lo
    big = max((unit * p + e for _, _, p, e in edges), default=0) + 1
    k = [big if (x := kappa[u]) is None else x for u in range(lo, hi)]
    w = [[0] * m for _ in range(m)]
    for u, v, p, e in edges:
        i, j = u - lo, v - lo
        value = scale * (k[i] + k[j] - unit * p - (e if use_e else 0)) + 1
        if value > 0:
            w[i][j] = w[j][i] = value
    return max_weight_matching(w)


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


def match_even(
    ids: Sequence[str],
    scores: Mapping[str, int],
    opponents: Mapping[str, frozenset[str]],
    rng: Rng,
    secondary: Callable[[str, str], int] | None = None,
    allow_rematch: bool = False,
) -> tuple[list[tuple[str, str]], list[str]]:
    """Pairs and players left unpaired (only rematches left for them), from the matching core."""
    members = set(ids)
    forbidden: list[tuple[str, str]] = []
    if not allow_rematch:
        for pid in ids:
            forbidden.extend((pid, o) for o in opponents.get(pid, ()) if o in members and pid < o)
    pairing = pair_players(
        [Entrant(pid, scores[pid]) for pid in sorted(ids)],
        rng=rng,
        forbidden=forbidden,
        allow_bye=False,
        extra_cost=secondary,
        allow_unpaired=True,
    )
    left = list(pairing.unpaired) + ([pairing.bye] if pairing.bye else [])
    return list(pairing.pairs), sorted(left)

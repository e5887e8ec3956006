"""Exact maximum-weight matching on a small dense graph (Edmonds' blossom method).

This is the primal-dual algorithm of Edmonds with the O(n^3) bookkeeping of
Gabow/Lawler: vertex duals, duals on shrunken odd sets ("blossoms"), one
Hungarian forest per phase and, for every top-level node, the least-slack edge
to the forest.  All arithmetic is on Python integers, so the optimum is exact.
Blossom node ids are ``n .. 2n-1``; ``_eu[x][y]``/``_ev[x][y]`` hold the
original endpoints (in ``x`` and in ``y``) of the best known edge between the
nodes ``x`` and ``y``.

It is only used on small graphs: repair blocks of the Swiss fast path and the
exact fallback (see :mod:`shared_rules.pairing.matching`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

__all__ = ["max_weight_matching"]

_NONE = -1


def max_weight_matching(weights: Sequence[Sequence[int]]) -> list[int]:
    """Mate of each vertex (``-1`` if single) in a maximum-weight matching; ``weights[u][v] > 0`` is an edge.

    >>> max_weight_matching([[0, 5, 1], [5, 0, 1], [1, 1, 0]])
    [1, 0, -1]
    """
    n = len(weights)
    if n < 2:
        return [_NONE] * n
    return _Solver([list(row) for row in weights]).solve()


class _Solver:
    """State of one run of the blossom algorithm."""

    def __init__(self, w: list[list[int]]) -> None:
        n = len(w)
        size = 2 * n + 1
        self.n = n
        self.w = w
        self.nx = n
        self.eu = [[_NONE] * size for _ in range(size)]
        self.ev = [[_NONE] * size for _ in range(size)]
        for u in range(n):
            row_u, row_v, wu = self.eu[u], self.ev[u], w[u]
            for v in range(n):
                if v != u and wu[v] > 0:
                    row_u[v] = u
                    row_v[v] = v
        wmax = max((x for row in w for x in row), default=0)
        self.lab = [wmax if x < n else 0 for x in range(size)]
        self.mate = [_NONE] * size
        self.st = [x if x < n else _NONE for x in range(size)]
        self.flower: list[list[int]] = [[] for _ in range(size)]
        self.ffrom = [[_NONE] * n for _ in range(size)]
        for v in range(n):
            self.ffrom[v][v] = v
        self.S = [_NONE] * size
        self.slack = [_NONE] * size
        self.pa = [_NONE] * size
        self.vis = [0] * size
        self.stamp = 0
        self.queue: deque[int] = deque()

    # -- small helpers -------------------------------------------------
    def delta(self, x: int, y: int) -> int:
        """Slack (doubled units) of the stored edge between nodes ``x`` and ``y``."""
        a, b = self.eu[x][y], self.ev[x][y]
        return self.lab[a] + self.lab[b] - 2 * self.w[a][b]

    def update_slack(self, u: int, x: int) -> None:
        """Remember vertex ``u``'s edge to node ``x`` if it has less slack."""
        s = self.slack[x]
        if s == _NONE or self.delta(u, x) < self.delta(s, x):
            self.slack[x] = u

    def set_slack(self, x: int) -> None:
        """Recompute node ``x``'s least-slack edge to an even vertex."""
        self.slack[x] = _NONE
        st, S, eu = self.st, self.S, self.eu
        for u in range(self.n):
            if eu[u][x] != _NONE and st[u] != x and S[st[u]] == 0:
                self.update_slack(u, x)

    def q_push(self, x: int) -> None:
        """Queue the vertices of node ``x`` for scanning."""
        if x < self.n:
            self.queue.append(x)
        else:
            for c in self.flower[x]:
                self.q_push(c)

    def set_st(self, x: int, b: int) -> None:
        """Make ``b`` the top-level node of everything inside ``x``."""
        self.st[x] = b
        if x >= self.n:
            for c in self.flower[x]:
                self.set_st(c, b)

    def get_pr(self, b: int, xr: int) -> int:
        """Even position of child ``xr`` in blossom ``b``, reversing the cycle if needed."""
        fl = self.flower[b]
        pr = fl.index(xr)
        if pr % 2 == 1:
            fl[1:] = fl[1:][::-1]
            return len(fl) - pr
        return pr

    def set_match(self, u: int, v: int) -> None:
        """Match node ``u`` to node ``v`` along their stored edge, fixing inside ``u``."""
        self.mate[u] = self.ev[u][v]
        if u < self.n:
            return
        xr = self.ffrom[u][self.eu[u][v]]
        pr = self.get_pr(u, xr)
        fl = self.flower[u]
        for i in range(pr):
            self.set_match(fl[i], fl[i ^ 1])
        self.set_match(xr, v)
        self.flower[u] = fl[pr:] + fl[:pr]

    def augment(self, u: int, v: int) -> None:
        """Flip the alternating path from node ``u`` (entered from ``v``) to its root."""
        st, mate, pa = self.st, self.mate, self.pa
        while True:
            xnv = st[mate[u]] if mate[u] != _NONE else _NONE
            self.set_match(u, v)
            if xnv == _NONE:
                return
            self.set_match(xnv, st[pa[xnv]])
            u, v = st[pa[xnv]], xnv

    def get_lca(self, u: int, v: int) -> int:
        """Common ancestor of even nodes ``u`` and ``v``, or ``-1`` if in different trees."""
        self.stamp += 1
        st, mate, pa, vis = self.st, self.mate, self.pa, self.vis
        while u != _NONE or v != _NONE:
            if u != _NONE:
                if vis[u] == self.stamp:
                    return u
                vis[u] = self.stamp
                u = st[mate[u]] if mate[u] != _NONE else _NONE
                if u != _NONE:
                    u = st[pa[u]]
            u, v = v, u
        return _NONE

    # -- blossoms --------------------------------------------------------
    def _walk_to_base(self, x: int, lca: int, fl: list[int]) -> None:
        """Append the cycle's blossoms from ``x`` down to ``lca`` (each one, then its mate's) to ``fl``,
        queueing the mates' blossoms, which become outer."""
        st, mate, pa = self.st, self.mate, self.pa
        while x != lca:
            fl.append(x)
            y = st[mate[x]]
            fl.append(y)
            self.q_push(y)
            x = st[pa[y]]

    def add_blossom(self, u: int, lca: int, v: int) -> None:
        """Shrink the odd cycle through ``u``, ``v`` and their common ancestor."""
        n, st, mate = self.n, self.st, self.mate
        b = n
        while b < self.nx and st[b] != _NONE:
            b += 1
        if b == self.nx:
            self.nx += 1
        self.lab[b] = 0
        self.S[b] = 0
        mate[b] = mate[lca]
        fl = [lca]
        self._walk_to_base(u, lca, fl)
        fl[1:] = fl[1:][::-1]
        self._walk_to_base(v, lca, fl)
        self.flower[b] = fl
        self.set_st(b, b)
        eu, ev = self.eu, self.ev
        nx = self.nx
        row_bu, row_bv = eu[b], ev[b]
        for x in range(nx):
            row_bu[x] = row_bv[x] = _NONE
            eu[x][b] = ev[x][b] = _NONE
        ffrom_b = self.ffrom[b] = [_NONE] * n
        for xs in fl:
            row_su, row_sv = eu[xs], ev[xs]
            for x in range(nx):
                if row_su[x] != _NONE and (row_bu[x] == _NONE or self.delta(xs, x) < self.delta(b, x)):
                    row_bu[x] = row_su[x]
                    row_bv[x] = row_sv[x]
                    eu[x][b] = eu[x][xs]
                    ev[x][b] = ev[x][xs]
            ff = self.ffrom[xs]
            for x in range(n):
                if ff[x] != _NONE:
                    ffrom_b[x] = xs
        self.set_slack(b)

    def expand_blossom(self, b: int) -> None:
        """Undo an odd blossom whose dual reached zero, relabelling its children."""
        S, pa = self.S, self.pa
        for x in self.flower[b]:
            self.set_st(x, x)
        xr = self.ffrom[b][self.eu[b][pa[b]]]
        pr = self.get_pr(b, xr)
        fl = self.flower[b]
        for i in range(0, pr, 2):
            xs, xns = fl[i], fl[i + 1]
            pa[xs] = self.eu[xns][xs]
            S[xs] = 1
            S[xns] = 0
            self.slack[xs] = _NONE
            self.set_slack(xns)
            self.q_push(xns)
        S[xr] = 1
        pa[xr] = pa[b]
        for i in range(pr + 1, len(fl)):
            S[fl[i]] = _NONE
            self.set_slack(fl[i])
        self.st[b] = _NONE

    def on_found_edge(self, u: int, v: int) -> bool:
        """Handle a tight edge from even vertex ``u``; True once the matching grew."""
        st, S = self.st, self.S
        uu, vv = st[u], st[v]
        if S[vv] == _NONE:
            self.pa[vv] = u
            S[vv] = 1
            nu = st[self.mate[vv]]
            self.slack[vv] = self.slack[nu] = _NONE
            S[nu] = 0
            self.q_push(nu)
        elif S[vv] == 0:
            lca = self.get_lca(uu, vv)
            if lca == _NONE:
                self.augment(uu, vv)
                self.augment(vv, uu)
                return True
            self.add_blossom(uu, lca, vv)
        return False

    # -- main loop -------------------------------------------------------
    def phase(self) -> bool:
        """Grow the forest of free vertices until one augmentation (True) or optimality."""
        n, st, S, lab, slack, w = self.n, self.st, self.S, self.lab, self.slack, self.w
        size = len(S)
        S[:] = [_NONE] * size
        slack[:] = [_NONE] * size
        self.queue.clear()
        for x in range(self.nx):
            if st[x] == x and self.mate[x] == _NONE:
                self.pa[x] = _NONE
                S[x] = 0
                self.q_push(x)
        if not self.queue:
            return False
        while True:
            while self.queue:
                u = self.queue.popleft()
                if S[st[u]] == 1:
                    continue
                wu, lu = w[u], lab[u]
                for v in range(n):
                    if wu[v] > 0 and st[v] != st[u]:
                        if lu + lab[v] == 2 * wu[v]:
                            if self.on_found_edge(u, v):
                                return True
                        else:
                            self.update_slack(u, st[v])
            d = None
            for b in range(n, self.nx):
                if st[b] == b and S[b] == 1:
                    cand = lab[b] // 2
                    if d is None or cand < d:
                        d = cand
            for x in range(self.nx):
                if st[x] == x and slack[x] != _NONE:
                    if S[x] == _NONE:
                        cand = self.delta(slack[x], x)
                    elif S[x] == 0:
                        cand = self.delta(slack[x], x) // 2
                    else:
                        continue
                    if d is None or cand < d:
                        d = cand
            if d is None:
                return False
            for u in range(n):
                label = S[st[u]]
                if label == 0:
                    if lab[u] <= d:
                        return False
                    lab[u] -= d
                elif label == 1:
                    lab[u] += d
            for b in range(n, self.nx):
                if st[b] == b:
                    if S[b] == 0:
                        lab[b] += 2 * d
                    elif S[b] == 1:
                        lab[b] -= 2 * d
            self.queue.clear()
            for x in range(self.nx):
                s = slack[x]
                if st[x] == x and s != _NONE and st[s] != x and self.delta(s, x) == 0:
                    if self.on_found_edge(self.eu[s][x], self.ev[s][x]):
                        return True
            for b in range(n, self.nx):
                if st[b] == b and S[b] == 1 and lab[b] == 0:
                    self.expand_blossom(b)

    def solve(self) -> list[int]:
        """Run phases until no augmentation improves the weight."""
        while self.phase():
            pass
        return [m for m in self.mate[: self.n]]

"""Pokémon Age-Modified Swiss (TOP 3.1.2): same record and same division first; division before record.

"The best pairing is when the player and opponent both have the same match
record and both are in the same age division. If there are no opponents left
who meet those criteria, then age division takes precedence over match
record" (a lone 2-3 Masters player meets a 1-4 Masters player, not a 2-3
Senior). The objective, compared lexicographically over all pairings of the
pool (the bye, if any, already chosen):

1. the fewest rematches (Pokémon TOP 3.1);
2. the fewest cross-division pairs (division takes precedence over record);
3. the smallest total squared point gap (same record first, then the nearest);
4. the caller's secondary cost (e.g. a correction keeping its draft);
5. the seeded order.

Exact and fast on real fields, by decomposition. A division with an even
number of players present is paired on its own; with three divisions the
number of odd ones is 0 or 2 (the pool is even), and two odd divisions X and
Y need at least one cross pair, which is then exactly one: a floater x of X
meets a floater y of Y. For every point level L of X the exact matcher pairs
X with a phantom opponent that only level-L players may meet (cost 0), which
gives the best pairing of X without a level-L floater, ``f_X(L)``; likewise
``f_Y(M)``, and the floaters' levels minimise ``f_X(L) + f_Y(M) + (L - M)²``.
Whenever a division cannot be paired without a rematch, or the floaters have
met, the whole pool is solved by the exact maximum-weight matching with the
lexicographic weights above (``O(n³)``, reached on small or pathological
pools only).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..seeded import Rng
from .blossom import max_weight_matching
from .divisions import division_scores
from .matching import Entrant, match_even, pair_players

__all__ = ["pair_age_modified"]

Pair = tuple[str, str]
#: Above this many players the exact fallback is too slow for a tablet; the age-weighted line is used.
EXACT_FALLBACK_LIMIT = 160


def pair_age_modified(
    ids: Sequence[str],
    points: Mapping[str, int],
    divisions: Mapping[str, str],
    opponents: Mapping[str, frozenset[str]],
    rng: Callable[[], Rng],
    secondary: Callable[[str, str], int] | None = None,
    allow_rematch: bool = False,
) -> tuple[list[Pair], list[str]]:
    """Pairs and the players left without a legal opponent, by the objective above.

    >>> from shared_rules.seeded import Rng
    >>> pairs, left = pair_age_modified(["j", "m1", "m2", "m3"], {p: 0 for p in ["j", "m1", "m2", "m3"]},
    ...     {"j": "junior", "m1": "masters", "m2": "masters", "m3": "masters"}, {}, lambda: Rng("s"))
    >>> sum(1 for a, b in pairs if "j" in (a, b)), left
    (1, [])
    """
    groups: dict[str, list[str]] = {}
    for pid in sorted(ids):
        groups.setdefault(divisions[pid], []).append(pid)
    odd = [d for d in sorted(groups) if len(groups[d]) % 2]
    found: list[Pair] | None = None
    if not allow_rematch and len(odd) in (0, 2):
        found = _decomposed(groups, odd, points, opponents, rng, secondary)
    if found is not None:
        return found, []
    return _exact(sorted(ids), points, divisions, opponents, rng, secondary, allow_rematch)


def _decomposed(
    groups: Mapping[str, list[str]],
    odd: list[str],
    points: Mapping[str, int],
    opponents: Mapping[str, frozenset[str]],
    rng: Callable[[], Rng],
    secondary: Callable[[str, str], int] | None,
) -> list[Pair] | None:
    """Each division on its own, two odd divisions joined by one floater pair; None if that fails."""
    pairs: list[Pair] = []
    for division, members in sorted(groups.items()):
        if division in odd:
            continue
        solved = _solve(members, points, opponents, rng, secondary, None)
        if solved is None:
            return None
        pairs.extend(solved[2])
    if not odd:
        return pairs
    x_side, y_side = (groups[d] for d in odd)
    options_x = _floater_options(x_side, points, opponents, rng, secondary)
    options_y = _floater_options(y_side, points, opponents, rng, secondary)
    combos = []
    for lx, sx in sorted(options_x.items()):
        for ly, sy in sorted(options_y.items()):
            x, y = sx[3], sy[3]
            extra = secondary(*_ordered(x, y, points)) if secondary else 0
            combos.append(((sx[0] + sy[0] + (lx - ly) ** 2, sx[1] + sy[1] + extra), lx, ly, sx, sy))
    if not combos:
        return None
    # The cheapest combination is a lower bound on every pairing with one cross pair; it is the answer
    # when its floaters may meet, else (they met already) the exact fallback decides.
    low = min(c[0] for c in combos)
    for cost, _, _, sx, sy in combos:
        if cost == low and sy[3] not in opponents.get(sx[3], frozenset()):
            return pairs + sx[2] + sy[2] + [_ordered(sx[3], sy[3], points)]
    return None


def _ordered(a: str, b: str, points: Mapping[str, int]) -> Pair:
    """A pair with the higher score first (ties by id), as the matching core returns them."""
    return (a, b) if (points[a], b) >= (points[b], a) else (b, a)


def _floater_options(
    members: list[str],
    points: Mapping[str, int],
    opponents: Mapping[str, frozenset[str]],
    rng: Callable[[], Rng],
    secondary: Callable[[str, str], int] | None,
) -> dict[int, tuple[int, int, list[Pair], str]]:
    """Point level -> (squared gap, secondary cost, pairs, floater) of the best pairing leaving one of that level."""
    out = {}
    for level in sorted({points[pid] for pid in members}):
        solved = _solve(members, points, opponents, rng, secondary, level)
        if solved is not None:
            out[level] = solved
    return out


def _solve(
    members: list[str],
    points: Mapping[str, int],
    opponents: Mapping[str, frozenset[str]],
    rng: Callable[[], Rng],
    secondary: Callable[[str, str], int] | None,
    float_level: int | None,
) -> tuple[int, int, list[Pair], str] | None:
    """The exact best legal pairing of one division (one player of ``float_level`` left over), or None."""
    if not members or (float_level is None and len(members) == 1):
        return (0, 0, [], "") if not members else None
    inside = set(members)
    forbidden = [(a, b) for a in members for b in opponents.get(a, ()) if b in inside and a < b]
    pairing = pair_players(
        [Entrant(pid, points[pid]) for pid in members],
        rng=rng(),
        forbidden=forbidden,
        allow_bye=float_level is not None,
        bye_score=float_level,
        bye_cost=(lambda p: 0 if points[p] == float_level else None),
        extra_cost=secondary,
        allow_unpaired=True,
    )
    if pairing.unpaired or (float_level is not None and pairing.bye is None):
        return None
    gaps = sum((points[a] - points[b]) ** 2 for a, b in pairing.pairs)
    extra = sum(secondary(a, b) for a, b in pairing.pairs) if secondary else 0
    return gaps, extra, list(pairing.pairs), pairing.bye or ""


def _exact(
    ids: list[str],
    points: Mapping[str, int],
    divisions: Mapping[str, str],
    opponents: Mapping[str, frozenset[str]],
    rng: Callable[[], Rng],
    secondary: Callable[[str, str], int] | None,
    allow_rematch: bool,
) -> tuple[list[Pair], list[str]]:
    """The whole pool by maximum-weight matching with the lexicographic weights of the module docstring."""
    if len(ids) > EXACT_FALLBACK_LIMIT:
        return _line(ids, points, divisions, opponents, rng, secondary, allow_rematch)
    line = rng().shuffled(ids)
    size = len(line)
    terms = {}
    for u in range(size):
        for v in range(u + 1, size):
            a, b = line[u], line[v]
            rematch = b in opponents.get(a, frozenset())
            hi, lo = _ordered(a, b, points)
            terms[u, v] = (
                2 if rematch else 0,
                0 if divisions[a] == divisions[b] else 1,
                (points[a] - points[b]) ** 2,
                secondary(hi, lo) if secondary else 0,
                v - u,
            )
    cost = {key: 0 for key in terms}
    for index in range(5):
        unit = 1 + max(t[index] for t in terms.values()) * (size // 2 + 1)
        for key, t in terms.items():
            cost[key] = cost[key] * unit + t[index]
    top = (size // 2 + 1) * max(cost.values(), default=0) + 1
    weights = [[0] * size for _ in range(size)]
    for (u, v), c in cost.items():
        weights[u][v] = weights[v][u] = top - c
    mate = max_weight_matching(weights)
    pairs: list[Pair] = []
    left: list[str] = []
    for u, v in enumerate(mate):
        if v < u:
            continue
        a, b = line[u], line[v] if v >= 0 else ""
        if v < 0:
            left.append(a)
        elif not allow_rematch and b in opponents.get(a, frozenset()):
            left.extend((a, b))
        else:
            pairs.append(_ordered(a, b, points))
    return pairs, sorted(left)


def _line(
    ids: list[str],
    points: Mapping[str, int],
    divisions: Mapping[str, str],
    opponents: Mapping[str, frozenset[str]],
    rng: Callable[[], Rng],
    secondary: Callable[[str, str], int] | None,
    allow_rematch: bool,
) -> tuple[list[Pair], list[str]]:
    """A large pool the decomposition could not settle: divisions far apart on one number line."""
    return match_even(ids, division_scores(dict(points), divisions), opponents, rng(), secondary, allow_rematch)

"""Swiss pairing of one pool: random round 1, then the matching core within point groups.

Later rounds hand the pool to the optimal matching core
(:mod:`shared_rules.pairing.matching`), which pairs everyone it can without a
rematch and then minimises the total squared point gap — so equal points meet
(every document), an odd group sends exactly one player down to a random
player of the next group (Pokémon TOP 3.1; Shatterpoint, Swiss Pairing; AGoT,
Swiss Rounds; Star Trek 7.6), and nobody is paired down twice unless forced
(Star Trek 7.6) — with every remaining choice drawn from the event seed.

The bye is part of the optimization (:func:`choose_bye`): legality first (no
rematch, no second bye while a pairing without one exists), then the bye
rule's preference (:func:`~shared_rules.pairing.byes.bye_order`), then the
score gaps; a rematch (or, in Star Trek, extra byes) only when the exact
matcher proves that no legal pairing exists.

Star Trek 7.6 criterion 5 ("ability to pair future rounds"): when the
policy asks for it and the guard of :mod:`.lookahead` says the remaining
rounds could fail, the pairings equal to the best one on every other
criterion (and bye candidates of the same points and bye history) are
searched for one after which the remaining rounds stay pairable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING

from ..seeded import Rng
from .byes import bye_order
from .matching import Entrant, match_even, pair_players, total_squared_difference
from .policies import PairingPolicy

if TYPE_CHECKING:  # pragma: no cover
    from . import lookahead

# The Age-Modified matcher and Star Trek's lookahead are imported where a pool needs them: most
# pools need neither (issue #27: the pair command's imports).

__all__ = ["PoolInput", "PoolResult", "pair_pool", "pair_round_one", "integer_points", "match_even"]

#: How many equally deserving bye candidates Star Trek's criterion-5 lookahead compares.
BYE_ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class PoolInput:
    """Everything the Swiss pairing of one pool needs."""

    ids: tuple[str, ...]
    #: Integer pairing numbers (points, or Age-Modified division numbers).
    scores: Mapping[str, int]
    #: Integer points for the bye rule (lowest bracket).
    points: Mapping[str, int]
    #: Standing position (0 = best), for "lowest-ranked without a bye".
    rank: Mapping[str, int]
    opponents: Mapping[str, frozenset[str]]
    had_bye: Mapping[str, int]
    seed: str
    context: tuple[object, ...]
    #: Optional cost added for a pair after the score gap (e.g. earned-bye holders meeting each other).
    secondary: Callable[[str, str], int] | None = None
    #: Players whose existing bye should stand if the bye rule allows it (corrections, Pokémon TOP 4).
    keep_bye: frozenset[str] = frozenset()
    #: Swiss rounds still to be paired after this one (for the policy's ``future_lookahead``).
    future_rounds: int = 0
    #: Players expected in those rounds (empty: this pool's players).
    future_ids: tuple[str, ...] = ()
    #: Pokémon Age-Modified Swiss (TOP 3.1.2): each player's division; ``scores`` are then plain points.
    divisions: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class PoolResult:
    """Pairs, byes and any warning raised while pairing one pool."""

    pairs: tuple[tuple[str, str], ...]
    byes: tuple[str, ...]
    warnings: tuple[str, ...] = field(default=())


def integer_points(points: Mapping[str, float]) -> dict[str, int]:
    """Points scaled to integers (exactly), so the core's squared gaps are exact.

    >>> integer_points({"a": 1.5, "b": 3})
    {'a': 3, 'b': 6}
    """
    if all(p.__class__ is int for p in points.values()):
        return dict(points)  # type: ignore[arg-type]  # whole points already (the usual case): scale 1
    fractions = {pid: Fraction(str(p)) if isinstance(p, float) else Fraction(p) for pid, p in points.items()}
    scale = 1
    for f in fractions.values():
        scale = lcm(scale, f.denominator)
    return {pid: int(f * scale) for pid, f in fractions.items()}


def pair_round_one(ids: Sequence[str], policy: PairingPolicy, seed: str, *context: object) -> PoolResult:
    """Round 1: a seeded shuffle paired two by two; an odd last card gets the bye.

    Pokémon TOP 3.1, Shatterpoint and AGoT "matched randomly", Star Trek 7.2
    (shuffle the scorecards, pair the top two, the last card gets the bye).

    >>> from shared_rules.games import policy_for
    >>> r = pair_round_one(["a", "b", "c"], policy_for("agot"), "s")
    >>> len(r.pairs), len(r.byes)
    (1, 1)
    """
    order = Rng(seed, "round-one", *context).shuffled(sorted(ids))
    pairs = tuple((order[i], order[i + 1]) for i in range(0, len(order) - 1, 2))
    byes = (order[-1],) if len(order) % 2 else ()
    return PoolResult(pairs, byes)


def pair_pool(pool: PoolInput, policy: PairingPolicy) -> PoolResult:
    """A later Swiss round of one pool: the bye chosen inside the optimal matching (see :func:`choose_bye`)."""
    ids = sorted(pool.ids)
    warnings: list[str] = []
    rng_context = ("swiss", *pool.context)
    if len(ids) % 2 == 0 or policy.bye_rule == "none":
        pairs, left = _match(pool, ids, lambda: Rng(pool.seed, *rng_context))
        if policy.future_lookahead:
            found = _lookahead(pool, policy, ids, {None: ()}, pairs, left, warnings)
            if found is not None:
                pairs, left = list(found.pairs), list(found.left)
        return _finish(pool, policy, pairs, left, [], warnings)
    order = bye_order(policy, ids, pool.points, pool.rank, pool.had_bye, pool.seed, *pool.context)
    order = _prefer_kept_bye(order, pool, policy)
    choice = choose_bye(pool, policy, ids, order)
    pairs, left, chosen = list(choice.pairs), list(choice.left), choice.bye
    if policy.future_lookahead:
        # Equally deserving bye candidates: same points and bye history as the chosen one (criterion 4).
        tier = [
            c
            for c in order
            if c != chosen
            and pool.points[c] == pool.points[chosen]
            and bool(pool.had_bye.get(c)) == bool(pool.had_bye.get(chosen))
        ][: BYE_ATTEMPTS - 1]
        candidates: dict[str | None, tuple[object, ...]] = {chosen: ("bye", chosen), **{c: ("bye", c) for c in tier}}
        found = _lookahead(pool, policy, ids, candidates, pairs, left, warnings)
        if found is not None and found.bye is not None:
            pairs, left, chosen = list(found.pairs), list(found.left), found.bye
    if pool.had_bye.get(chosen):
        warnings.append(_second_bye_warning(chosen, order, pool))
    return _finish(pool, policy, pairs, left, [chosen], warnings)


@dataclass(frozen=True, slots=True)
class ByeChoice:
    """The bye of an odd pool and the matching of everyone else (``left``: no legal opponent)."""

    bye: str
    pairs: tuple[tuple[str, str], ...]
    left: tuple[str, ...] = ()


def choose_bye(pool: PoolInput, policy: PairingPolicy, ids: Sequence[str], order: Sequence[str]) -> ByeChoice:
    """The bye inside the optimization: legality first, then the bye rule's preference, then score gaps.

    Lexicographic, every ruleset (Pokémon TOP 3.1; Star Trek OP Guide 7.5.1,
    7.6 criteria 1-4; Shatterpoint, AGoT, Doomtown: no rematch):

    1. a pairing with no rematch, and no second bye while one without exists;
    2. the bye rule's preference among the byes such a pairing allows: the
       lowest-ranked player (``lowest-ranked-without-bye``), or the lowest
       point bracket (``random-lowest-bracket``, ``lowest-points-random``);
    3. inside that bracket, the smallest total squared point gap (then the
       secondary cost), so the bye never forces avoidable pair-downs (7.6);
    4. the seeded draw of :func:`.byes.bye_order`.

    ``order`` is the bye rule's order (eligible players first). The tiers of
    that order are searched with the exact matcher and a phantom "bye" vertex
    that only the tier's players may meet: the first tier (by binary search
    over prefixes, as legality only grows with more candidates) that admits a
    perfect legal pairing holds the bye. When no tier does, no legal pairing
    exists at all (the matcher is exact), and the pairing with the fewest
    players left without a legal opponent is returned.
    """
    tiers = _bye_tiers(policy, order, pool)
    # The common case, as cheap as a plain matching: the first tier admits a legal pairing.
    found = _solve_tier(pool, ids, tiers[0])
    if not found.left:
        return found
    if len(tiers) == 1 or _solve_tier(pool, ids, order).left:
        return _fewest_left(pool, ids, order)
    lo, hi = 2, len(tiers)
    while lo < hi:  # the shortest prefix of tiers that admits a legal pairing holds the bye
        mid = (lo + hi) // 2
        if _solve_tier(pool, ids, [p for t in tiers[:mid] for p in t]).left:
            lo = mid + 1
        else:
            hi = mid
    return _solve_tier(pool, ids, tiers[lo - 1])


def _solve_tier(pool: PoolInput, ids: Sequence[str], tier: Sequence[str]) -> ByeChoice:
    """The best pairing with the bye inside ``tier`` (``left`` non-empty when no legal one exists)."""
    if len(tier) == 1 or pool.divisions is not None:
        # Age-Modified pools: the bye random in its tier (TOP 3.1), the first that leaves a legal pairing.
        found = ByeChoice(tier[0], (), ("",))
        for candidate in tier:
            pairs, left = _match(pool, [pid for pid in ids if pid != candidate], lambda: _rng(pool))
            found = ByeChoice(candidate, tuple(pairs), tuple(left))
            if not left:
                break
        return found
    return _phantom(pool, ids, tier)


def _match(
    pool: PoolInput, ids: Sequence[str], rng: Callable[[], Rng], allow_rematch: bool = False
) -> tuple[list[tuple[str, str]], list[str]]:
    """The exact best pairing of an even set of the pool's players (Age-Modified when it has divisions)."""
    if pool.divisions is not None:
        from .age_modified import pair_age_modified

        return pair_age_modified(ids, pool.scores, pool.divisions, pool.opponents, rng, pool.secondary, allow_rematch)
    return match_even(ids, pool.scores, pool.opponents, rng(), pool.secondary, allow_rematch)


def _rng(pool: PoolInput) -> Rng:
    """A fresh draw for one matching of the pool, so no search path changes another's result."""
    return Rng(pool.seed, "swiss", *pool.context, 0)


def _tiers_by_rank(policy: PairingPolicy) -> bool:
    """Whether the bye rule ranks players one by one (else it names a lowest point bracket)."""
    return policy.bye_rule == "lowest-ranked-without-bye"


def _bye_tiers(policy: PairingPolicy, order: Sequence[str], pool: PoolInput) -> list[list[str]]:
    """The bye rule's order cut into tiers of equal preference (one player, or one point bracket)."""
    tiers: list[list[str]] = []
    last: tuple[bool, int] | None = None
    for pid in order:
        key = (bool(pool.had_bye.get(pid)), pool.points[pid])
        if _tiers_by_rank(policy) or key != last:
            tiers.append([])
        tiers[-1].append(pid)
        last = key
    return tiers


def _phantom(pool: PoolInput, ids: Sequence[str], candidates: Sequence[str]) -> ByeChoice:
    """The optimal pairing of the pool with the bye (a phantom opponent) limited to ``candidates``.

    Among equally good pairings the bye goes to the earliest candidate (the
    seeded order of the bye rule): its position is the bye's secondary cost,
    scaled below one unit of the pool's own secondary cost.
    """
    position = {pid: i for i, pid in enumerate(candidates)}
    scale = len(candidates) + 1
    secondary = pool.secondary

    def extra(a: str, b: str) -> int:
        return scale * secondary(a, b) if secondary is not None else 0

    members = set(ids)
    forbidden = [(pid, o) for pid in ids for o in pool.opponents.get(pid, ()) if o in members and pid < o]
    pairing = pair_players(
        [Entrant(pid, pool.scores[pid]) for pid in sorted(ids)],
        rng=_rng(pool),
        forbidden=forbidden,
        allow_bye=True,
        bye_cost=position.get,
        extra_cost=extra if secondary else None,
        allow_unpaired=True,
    )
    # An odd pool: without a legal bye some real player is unpaired too, so ``left`` says it all.
    return ByeChoice(pairing.bye or "", pairing.pairs, pairing.unpaired)


def _fewest_left(pool: PoolInput, ids: Sequence[str], order: Sequence[str]) -> ByeChoice:
    """No legal pairing exists: the rule's earliest bye among those leaving the fewest players unpaired."""
    best: ByeChoice | None = None
    for candidate in order:
        pairs, left = _match(pool, [pid for pid in ids if pid != candidate], lambda: _rng(pool))
        if best is None or len(left) < len(best.left):
            best = ByeChoice(candidate, tuple(pairs), tuple(left))
        if len(best.left) <= 2 or len(ids) > 64:
            break
    assert best is not None
    return best


def _second_bye_warning(chosen: str, order: Sequence[str], pool: PoolInput) -> str:
    """Why a player gets a second bye: nobody else can take it, or every other bye forces a rematch."""
    without = [pid for pid in order if not pool.had_bye.get(pid)]
    if not without:
        return f"{chosen} receives a second bye: every player in the pool has had one"
    return (
        f"{chosen} receives a second bye: a bye to any of the {len(without)} player(s) without one "
        "would leave a rematch"
    )


def _lookahead(
    pool: PoolInput,
    policy: PairingPolicy,
    ids: list[str],
    candidates: Mapping[str | None, tuple[object, ...]],
    pairs: list[tuple[str, str]],
    left: list[str],
    warnings: list[str],
) -> lookahead.Choice | None:
    """Star Trek 7.6 criterion 5: an equally good pairing that keeps the remaining rounds pairable.

    ``candidates`` maps each equally deserving bye (the chosen one first;
    ``None`` for an even pool) to the seeded context of its plain pairing, so
    the search starts from the pairing already found. Returns None when the
    guard skips the lookahead (see :func:`.lookahead.may_fail`).
    """
    from . import lookahead

    future = lookahead.Future(
        pool.future_ids or tuple(ids),
        pool.opponents,
        pool.had_bye,
        pool.future_rounds,
        pool.seed,
        pool.context,
        policy.rematch_fallback == "both-byes",
    )
    if not lookahead.may_fail(future):
        return None
    rng_context = ("swiss", *pool.context)
    first = next(iter(candidates))

    def solve(bye: str | None, banned: frozenset[frozenset[str]]) -> tuple[list[tuple[str, str]], list[str]]:
        if bye == first and not banned:
            return pairs, left
        rest = [pid for pid in ids if pid != bye]
        opponents: Mapping[str, frozenset[str]] = pool.opponents
        if banned:
            extra: dict[str, set[str]] = {}
            for pair in banned:
                for pid in pair:
                    extra.setdefault(pid, set()).update(pair - {pid})
            opponents = {pid: pool.opponents.get(pid, frozenset()) | extra.get(pid, set()) for pid in rest}
        return match_even(rest, pool.scores, opponents, Rng(pool.seed, *rng_context, *candidates[bye]), pool.secondary)

    def key(found: Sequence[tuple[str, str]], unpaired: Sequence[str]) -> tuple[int, object, int]:
        secondary = sum(pool.secondary(a, b) for a, b in found) if pool.secondary else 0
        return len(unpaired), total_squared_difference(found, pool.scores), secondary

    choice = lookahead.choose(future, list(candidates), solve, key)
    if choice.cost != (0, 0):
        stranded, second = choice.cost
        problems = ([f"{stranded} player-round(s) with only rematches left"] if stranded else []) + (
            [f"{second} second bye(s)"] if second else []
        )
        warnings.append(
            f"the remaining {pool.future_rounds} round(s) may not be pairable without rematches or "
            "second byes (Star Trek OP Guide 7.6, criterion 5): no pairing as good as this one on "
            "criteria 1-4 avoids " + " and ".join(problems)
        )
    return choice


def _prefer_kept_bye(order: list[str], pool: PoolInput, policy: PairingPolicy) -> list[str]:
    """Move a kept bye to the front when the bye rule would pick it as well as the first candidate."""
    if not pool.keep_bye or not order:
        return order
    first = order[0]
    for pid in order:
        if pid not in pool.keep_bye:
            continue
        same_tier = pid == first or (
            policy.bye_rule != "lowest-ranked-without-bye"
            and pool.points[pid] == pool.points[first]
            and bool(pool.had_bye.get(pid)) == bool(pool.had_bye.get(first))
        )
        if same_tier:
            return [pid] + [p for p in order if p != pid]
    return order


def _finish(
    pool: PoolInput,
    policy: PairingPolicy,
    pairs: list[tuple[str, str]],
    left: list[str],
    byes: list[str],
    warnings: list[str],
) -> PoolResult:
    if left:
        if policy.rematch_fallback == "both-byes":
            # Star Trek 7.5.1, 7.6: when only rematches remain, both players are awarded byes.
            byes = byes + sorted(left)
            rematches, _ = match_even(
                sorted(left),
                pool.scores,
                pool.opponents,
                Rng(pool.seed, "rematch", *pool.context),
                pool.secondary,
                allow_rematch=True,
            )
            warnings.append(
                "no pairing without a rematch exists: "
                + ", ".join(f"{a} v {b}" for a, b in rematches)
                + " would be rematches, so each of "
                + ", ".join(sorted(left))
                + " receives a bye (Star Trek OP Guide 7.5.1)"
            )
        else:
            extra, still = _match(
                pool, sorted(left), lambda: Rng(pool.seed, "rematch", *pool.context), allow_rematch=True
            )
            for a, b in extra:
                warnings.append(f"rematch {a} v {b}: no pairing without a rematch exists")
            pairs = pairs + extra
            byes = byes + still
    return PoolResult(tuple(pairs), tuple(byes), tuple(warnings))

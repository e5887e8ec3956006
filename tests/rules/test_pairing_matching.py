"""Swiss pairing core: exactness against exhaustive search, determinism, byes, errors."""

from __future__ import annotations

import unittest
from functools import cache

from shared_rules.errors import RulesError
from shared_rules.pairing import Entrant, Pairing, pair_players, total_squared_difference
from shared_rules.pairing.blossom import max_weight_matching
from shared_rules.pairing.matching import _build, _exact, _fast_range, _to_pairing, _windowed
from shared_rules.seeded import Rng


def _brute_max_weight(w: list[list[int]]) -> int:
    """Best matching weight by dynamic programming over vertex subsets."""

    @cache
    def best(mask: int) -> int:
        if not mask:
            return 0
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        value = best(rest)
        m = rest
        while m:
            j = (m & -m).bit_length() - 1
            m &= m - 1
            if w[i][j] > 0:
                value = max(value, w[i][j] + best(rest & ~(1 << j)))
        return value

    return best((1 << len(w)) - 1)


def _brute_objective(ids, score, forbidden, extra, bye_cost, allow_bye, bye_score):
    """(unpaired players, squared difference, secondary cost) of the best pairing, exhaustively."""
    verts = list(ids) + ([None] if allow_bye and len(ids) % 2 else [])

    def cost(a, b):
        if a is None or b is None:
            p = b if a is None else a
            c = bye_cost(p)
            return (1, 0, 0) if c is None else (0, (score[p] - bye_score) ** 2, c)
        if frozenset((a, b)) in forbidden:
            return (2, 0, 0)
        return (0, (score[a] - score[b]) ** 2, extra(a, b))

    @cache
    def best(mask: int):
        if not mask:
            return (0, 0, 0)
        i = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << i)
        options = []
        if bin(mask).count("1") % 2:
            u, p, e = best(rest)
            options.append((u + (verts[i] is not None), p, e))
        m = rest
        while m:
            j = (m & -m).bit_length() - 1
            m &= m - 1
            u, p, e = best(rest & ~(1 << j))
            cu, cp, ce = cost(verts[i], verts[j])
            options.append((u + cu, p + cp, e + ce))
        return min(options)

    return best((1 << len(verts)) - 1)


def _objective(pairing: Pairing, score, extra, bye_cost, bye_score):
    """The same triple for a pairing returned by the engine."""
    primary = total_squared_difference(pairing.pairs, score)
    secondary = sum(extra(a, b) for a, b in pairing.pairs)
    if pairing.bye is not None:
        primary += (score[pairing.bye] - bye_score) ** 2
        secondary += bye_cost(pairing.bye)
    return (len(pairing.unpaired), primary, secondary)


class _Lcg:
    """A tiny deterministic generator for test instances (no `random`, identical everywhere)."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def below(self, n: int) -> int:
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % n


class BlossomTest(unittest.TestCase):
    def test_max_weight_matching_equals_exhaustive_search_on_random_graphs(self) -> None:
        gen = _Lcg(7)
        for _ in range(600):
            n = 1 + gen.below(10)
            density = gen.below(4)
            top = (1, 3, 10, 1000)[gen.below(4)]
            w = [[0] * n for _ in range(n)]
            for i in range(n):
                for j in range(i + 1, n):
                    if gen.below(4) <= density:
                        w[i][j] = w[j][i] = 1 + gen.below(top)
            mate = max_weight_matching(w)
            for i, j in enumerate(mate):
                if j != -1:
                    self.assertEqual(mate[j], i)
                    self.assertGreater(w[i][j], 0)
            total = sum(w[i][j] for i, j in enumerate(mate) if j > i)
            self.assertEqual(total, _brute_max_weight(w))


class ExhaustiveSearchTest(unittest.TestCase):
    def test_pairing_objective_equals_exhaustive_optimum_on_random_small_events(self) -> None:
        gen = _Lcg(2024)
        fallback_cases = lb_cases = 0
        for case in range(2000):
            n = 1 + gen.below(11)
            ids = [f"p{i}" for i in range(n)]
            rounds = gen.below(6)
            score = {i: sum((0, 1, 3)[gen.below(3)] for _ in range(rounds)) for i in ids}
            density = (0, 1, 3, 6)[gen.below(4)]
            forbidden = {
                frozenset((ids[a], ids[b])) for a in range(n) for b in range(a + 1, n) if gen.below(10) < density
            }
            had_bye = {i for i in ids if gen.below(5) == 0}
            weighted = gen.below(3) == 0
            allow_bye = gen.below(10) != 0

            def extra(a: str, b: str, weighted: bool = weighted) -> int:
                x, y = int(a[1:]), int(b[1:])
                return (x * y + x + y) % 3 if weighted else 0

            def bye_cost(p: str, had_bye: set = had_bye, weighted: bool = weighted):
                return None if p in had_bye else (int(p[1:]) % 2 if weighted else 0)

            bye_score = min(score.values()) - 1 if n else 0
            expected = _brute_objective(ids, score, forbidden, extra, bye_cost, allow_bye, bye_score)
            pairing = pair_players(
                [Entrant(i, score[i]) for i in ids],
                rng=Rng("exhaustive", case),
                forbidden=forbidden,
                allow_bye=allow_bye,
                bye_cost=bye_cost,
                extra_cost=extra if weighted else None,
                allow_unpaired=True,
            )
            seen = sorted([p for pair in pairing.pairs for p in pair] + list(pairing.unpaired))
            seen += [pairing.bye] if pairing.bye else []
            self.assertEqual(sorted(seen), sorted(ids))
            for a, b in pairing.pairs:
                self.assertNotIn(frozenset((a, b)), forbidden)
            self.assertEqual(_objective(pairing, score, extra, bye_cost, bye_score), expected, f"case {case}")
            if expected[0] or expected[2]:
                fallback_cases += 1
            else:
                lb_cases += 1
        self.assertGreater(fallback_cases, 100)
        self.assertGreater(lb_cases, 100)


def _stuck_instance(gen: _Lcg, n: int):
    """Scores in few small groups, rematches concentrated inside groups, some byes barred."""
    ids = [f"p{i}" for i in range(n)]
    levels = 2 + gen.below(4)
    step = (1, 2, 3)[gen.below(3)]
    score = {}
    for i in ids:
        # skewed so that the top groups are tiny (often 1-3 players)
        r = gen.below(levels * levels)
        score[i] = step * int(r**0.5)
    inner = 4 + gen.below(7)  # chance /10 of a rematch between equal scores
    outer = gen.below(3)  # chance /10 between different scores
    forbidden = set()
    for a in range(n):
        for b in range(a + 1, n):
            same = score[ids[a]] == score[ids[b]]
            if gen.below(10) < (inner if same else outer):
                forbidden.add(frozenset((ids[a], ids[b])))
    # the two best players have always met (stuck top group when it has size 2)
    top = sorted(ids, key=lambda i: (-score[i], i))[:2]
    if len(top) == 2:
        forbidden.add(frozenset(top))
    had_bye = {i for i in ids if gen.below(3) == 0}
    return ids, score, forbidden, had_bye


def _check_exhaustive(test: unittest.TestCase, ids, score, forbidden, had_bye, weighted, allow_bye, case):
    def extra(a: str, b: str) -> int:
        # sparse, like real secondary criteria ("paired down twice")
        x, y = int(a[1:]), int(b[1:])
        return (1 + (x + y) % 2) * ((x * y + x + y) % 5 == 0) if weighted else 0

    def bye_cost(p: str):
        return None if p in had_bye else (int(p[1:]) % 4 == 1 if weighted else 0)

    bye_score = min(score.values()) - 1
    expected = _brute_objective(ids, score, forbidden, extra, bye_cost, allow_bye, bye_score)
    entrants = [Entrant(i, score[i]) for i in ids]
    kwargs = dict(forbidden=forbidden, allow_bye=allow_bye, bye_cost=bye_cost, extra_cost=extra if weighted else None)
    pairing = pair_players(entrants, rng=Rng("stuck", case), allow_unpaired=True, **kwargs)
    test.assertEqual(_objective(pairing, score, extra, bye_cost, bye_score), expected, f"case {case}")
    problem = _build(entrants, Rng("stuck", case), forbidden, allow_bye, None, bye_cost, extra if weighted else None)
    mate = _windowed(problem)
    if mate is None:
        return "exact"
    windowed = _to_pairing(problem, mate)
    test.assertEqual(windowed.unpaired, ())
    test.assertEqual(_objective(windowed, score, extra, bye_cost, bye_score), expected, f"windowed case {case}")
    fast, _ = _fast_range(problem, 0, len(problem.ids))
    return "fast" if fast is not None else "window"


class WindowExhaustiveTest(unittest.TestCase):
    """The window path (blossom on a stretch of the line + certificate) against exhaustive search."""

    def test_stuck_groups_equal_exhaustive_optimum(self) -> None:
        gen = _Lcg(99)
        seen = {"fast": 0, "window": 0, "exact": 0}
        for case in range(1500):
            n = 2 + gen.below(11)
            ids, score, forbidden, had_bye = _stuck_instance(gen, n)
            weighted = gen.below(3) == 0
            allow_bye = gen.below(8) != 0
            seen[_check_exhaustive(self, ids, score, forbidden, had_bye, weighted, allow_bye, case)] += 1
        self.assertGreater(seen["window"], 150, seen)
        self.assertGreater(seen["fast"], 150, seen)

    def test_several_stuck_pairs_of_two_equal_exhaustive_optimum(self) -> None:
        gen = _Lcg(5)
        seen = {"fast": 0, "window": 0, "exact": 0}
        for case in range(400):
            # groups of two who already met, separated by larger groups
            sizes = [(2, 3 + gen.below(3))[gen.below(2)] for _ in range(2 + gen.below(3))]
            ids, score, forbidden = [], {}, set()
            level = 3 * len(sizes)
            for size in sizes:
                group = [f"p{len(ids) + k}" for k in range(size)]
                ids += group
                score.update({p: level for p in group})
                if size == 2:
                    forbidden.add(frozenset(group))
                level -= 1 + gen.below(3)
            ids = ids[:12]
            score = {i: score[i] for i in ids}
            for a in range(len(ids)):
                for b in range(a + 1, len(ids)):
                    if gen.below(10) < 2:
                        forbidden.add(frozenset((ids[a], ids[b])))
            had_bye = {i for i in ids if gen.below(2) == 0}
            seen[_check_exhaustive(self, ids, score, forbidden, had_bye, gen.below(2) == 0, True, 10_000 + case)] += 1
        self.assertGreater(seen["window"], 60, seen)


def _swiss_history(n: int, rounds: int, seed: int):
    """Scores and rematches of a simulated Pokémon-style Swiss, then the top two made to have met."""
    gen = _Lcg(seed)
    ids = [f"q{i:03d}" for i in range(n)]
    score = {i: 0 for i in ids}
    played: set[frozenset[str]] = set()
    for rnd in range(rounds):
        pairing = pair_players([Entrant(i, score[i]) for i in ids], rng=Rng("hist", seed, rnd), forbidden=played)
        for a, b in pairing.pairs:
            played.add(frozenset((a, b)))
            roll = gen.below(100)
            if roll < 4:
                score[a] += 1
                score[b] += 1
            else:
                score[a if roll < 52 else b] += 3
        if pairing.bye:
            score[pairing.bye] += 3
    ranked = sorted(ids, key=lambda i: (-score[i], i))
    # the two leaders drew their last game against each other: alone on a new score, already met
    lead = score[ranked[0]] + 1
    for p in ranked[:2]:
        score[p] = lead
    played.add(frozenset(ranked[:2]))
    # and a pair in the middle likewise
    mid = ranked[n // 2 : n // 2 + 2]
    level = score[mid[0]] + 2 if score[mid[0]] % 3 == 0 else score[mid[0]]
    for p in mid:
        score[p] = level
    played.add(frozenset(mid))
    return ids, score, played


class WindowMediumTest(unittest.TestCase):
    """Medium fields with forced stuck groups: the window path against the dense blossom on the whole field."""

    def test_random_stuck_fields_match_dense_blossom(self) -> None:
        gen = _Lcg(31)
        partial = 0
        for case in range(120):
            n = 20 + gen.below(25)
            ids = [f"p{i}" for i in range(n)]
            levels = 3 + gen.below(5)
            score = {i: int(gen.below(levels * levels) ** 0.5) * (1 + gen.below(2)) for i in ids}
            forbidden = set()
            by_score: dict[int, list[str]] = {}
            for i in ids:
                by_score.setdefault(score[i], []).append(i)
            for group in by_score.values():
                if len(group) <= 3 or gen.below(4) == 0:  # tiny groups that already played each other
                    forbidden.update(frozenset((a, b)) for a in group for b in group if a < b)
            for a in range(n):
                for b in range(a + 1, n):
                    if gen.below(20) == 0:
                        forbidden.add(frozenset((ids[a], ids[b])))
            weighted = gen.below(2) == 0

            def extra(a: str, b: str, weighted: bool = weighted) -> int:
                return (int(a[1:]) * int(b[1:])) % 7 == 1 if weighted else 0

            def bye_cost(p: str):
                return None if int(p[1:]) % 3 == 0 else int(p[1:]) % 4 == 1

            entrants = [Entrant(i, score[i]) for i in ids]
            problem = _build(entrants, Rng("mid", case), forbidden, True, None, bye_cost, extra if weighted else None)
            mate = _windowed(problem)
            if mate is None:
                continue
            partial += _fast_range(problem, 0, len(problem.ids))[0] is None
            bye_score = min(score.values()) - 1
            got = _objective(_to_pairing(problem, mate), score, extra, bye_cost, bye_score)
            want = _objective(_to_pairing(problem, _exact(problem)), score, extra, bye_cost, bye_score)
            self.assertEqual(got, want, f"case {case}")
        self.assertGreater(partial, 40)

    def test_window_objective_equals_dense_blossom(self) -> None:
        for seed, n, weighted in ((1, 60, False), (2, 90, True), (3, 120, False), (4, 75, True)):
            ids, score, played = _swiss_history(n, 5, seed)

            def extra(a: str, b: str) -> int:
                return (int(a[1:]) * int(b[1:])) % 11 == 3 if weighted else 0

            def bye_cost(p: str):
                return int(p[1:]) % 5 == 2

            entrants = [Entrant(i, score[i]) for i in ids]
            problem = _build(entrants, Rng("medium", seed), played, True, None, bye_cost, extra if weighted else None)
            self.assertIsNone(_fast_range(problem, 0, len(problem.ids))[0])
            mate = _windowed(problem)
            self.assertIsNotNone(mate, f"seed {seed}")
            dense = _exact(problem)
            bye_score = min(score.values()) - 1
            got = _objective(_to_pairing(problem, mate), score, extra, bye_cost, bye_score)
            want = _objective(_to_pairing(problem, dense), score, extra, bye_cost, bye_score)
            self.assertEqual(got, want, f"seed {seed}")


def _field(n: int, seed: int) -> list[Entrant]:
    gen = _Lcg(seed)
    return [Entrant(f"p{i:03d}", 3 * gen.below(4)) for i in range(n)]


class DeterminismTest(unittest.TestCase):
    def test_same_seed_gives_same_pairing_regardless_of_input_order(self) -> None:
        field = _field(41, 3)
        forbidden = {frozenset(("p001", "p002")), frozenset(("p010", "p011"))}
        a = pair_players(field, rng=Rng("s", 4), forbidden=forbidden)
        b = pair_players(list(reversed(field)), rng=Rng("s", 4), forbidden=set(reversed(list(forbidden))))
        self.assertEqual(a, b)

    def test_pairings_within_a_score_group_vary_with_the_seed(self) -> None:
        field = [Entrant(f"p{i}", 6) for i in range(8)]
        seen = {pair_players(field, rng=Rng("seed", k)).pairs for k in range(30)}
        self.assertGreater(len(seen), 20)


class ByeAndErrorTest(unittest.TestCase):
    def test_bye_goes_to_the_lowest_bracket(self) -> None:
        field = [Entrant("a", 6), Entrant("b", 6), Entrant("c", 3), Entrant("d", 3), Entrant("e", 0)]
        self.assertEqual(pair_players(field, rng=Rng("x")).bye, "e")

    def test_player_who_had_a_bye_is_skipped(self) -> None:
        field = [Entrant("a", 6), Entrant("b", 6), Entrant("c", 3), Entrant("d", 3), Entrant("e", 0)]
        pairing = pair_players(field, rng=Rng("x"), bye_cost=lambda p: None if p == "e" else 0)
        self.assertIn(pairing.bye, {"c", "d"})
        self.assertEqual(total_squared_difference(pairing.pairs, {e.id: e.score for e in field}), 9)

    def test_impossible_rematch_free_pairing_raises_rules_error(self) -> None:
        field = [Entrant(x, 0) for x in "abcd"]
        forbidden = [("a", "b"), ("a", "c"), ("a", "d")]
        with self.assertRaises(RulesError):
            pair_players(field, rng=Rng("x"), forbidden=forbidden)
        pairing = pair_players(field, rng=Rng("x"), forbidden=forbidden, allow_unpaired=True)
        self.assertEqual(len(pairing.pairs), 1)
        self.assertIn("a", pairing.unpaired)

    def test_fractional_scores_are_compared_exactly(self) -> None:
        field = [Entrant("a", 0.5), Entrant("b", 0.5), Entrant("c", 0.1), Entrant("d", 0.3)]
        pairing = pair_players(field, rng=Rng("x"), forbidden=[("a", "b")])
        self.assertEqual(len(pairing.pairs), 2)
        self.assertNotIn(("a", "b"), pairing.pairs)

    def test_total_squared_difference_sums_pairs(self) -> None:
        self.assertEqual(total_squared_difference([("a", "b"), ("c", "d")], {"a": 3, "b": 0, "c": 1, "d": 1}), 9)


if __name__ == "__main__":
    unittest.main()

"""The bye is part of the optimization: no rematch and no second bye while a legal pairing exists.

Pokémon TOP 3.1; Star Trek OP Guide 7.5.1 and 7.6 (criteria 1 no duplicate
opponent, 2-3 equal then similar VP, 4 at most one bye); Shatterpoint, AGoT and
Doomtown forbid rematches. Small fields where the bye rule's first choice traps
the matcher are checked against exhaustive search.
"""

from __future__ import annotations

import unittest
from collections.abc import Iterator, Sequence

from shared_rules.games import policy_for
from shared_rules.pairing.byes import bye_order
from shared_rules.pairing.policies import PairingPolicy
from shared_rules.pairing.swiss import PoolInput, match_even, pair_pool
from shared_rules.seeded import Rng
from tests.rules.test_pairing_matching import _Lcg

RULESETS = ("pokemon-tcg", "agot", "doomtown", "shatterpoint", "startrek-1e")


def _pairings(ids: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    """Every perfect pairing of an even list of ids."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for i, other in enumerate(rest):
        for tail in _pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other)] + tail


def _key(
    pool: PoolInput, policy: PairingPolicy, order: Sequence[str], bye: str, pairs: Sequence[tuple[str, str]]
) -> tuple[int, int, int, int]:
    """The documented objective: rematches, second bye, the bye rule's preference, squared point gaps."""
    rematches = sum(1 for a, b in pairs if b in pool.opponents.get(a, ()))
    second = 1 if pool.had_bye.get(bye) else 0
    preference = order.index(bye) if policy.bye_rule == "lowest-ranked-without-bye" else pool.points[bye]
    gaps = sum((pool.scores[a] - pool.scores[b]) ** 2 for a, b in pairs)
    return rematches, second, preference, gaps


def _best_per_bye(pool: PoolInput) -> dict[str, tuple[int, int]]:
    """For each bye, the fewest rematches and then the smallest squared gap of the others' pairing."""
    ids = sorted(pool.ids)
    out = {}
    for bye in ids:
        out[bye] = min(
            (
                sum(1 for a, b in pairs if b in pool.opponents.get(a, ())),
                sum((pool.scores[a] - pool.scores[b]) ** 2 for a, b in pairs),
            )
            for pairs in _pairings([p for p in ids if p != bye])
        )
    return out


def _best(
    pool: PoolInput, policy: PairingPolicy, order: Sequence[str], per_bye: dict[str, tuple[int, int]]
) -> tuple[int, int, int, int]:
    """The exhaustive optimum of :func:`_key` (for a fixed bye only rematches and gaps vary)."""
    rule_rank = policy.bye_rule == "lowest-ranked-without-bye"
    return min(
        (r, 1 if pool.had_bye.get(bye) else 0, order.index(bye) if rule_rank else pool.points[bye], g)
        for bye, (r, g) in per_bye.items()
    )


def _field(gen: _Lcg, n: int, dense: int) -> PoolInput:
    """A random late-round field: few score levels, a dense rematch history, some byes already given."""
    ids = tuple(f"p{i:02d}" for i in range(n))
    points = {pid: 3 * gen.below(3) for pid in ids}
    opponents: dict[str, set[str]] = {pid: set() for pid in ids}
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if gen.below(10) < dense:
                opponents[a].add(b)
                opponents[b].add(a)
    had_bye = {pid: 1 for pid in ids if gen.below(4) == 0}
    ranked = sorted(ids, key=lambda pid: (-points[pid], pid))
    return PoolInput(
        ids,
        points,
        points,
        {pid: i for i, pid in enumerate(ranked)},
        {pid: frozenset(s) for pid, s in opponents.items()},
        had_bye,
        f"seed-{gen.below(1000)}",
        (4, "all"),
    )


class ByeInsideTheOptimizationTest(unittest.TestCase):
    def test_pool_pairing_equals_exhaustive_optimum_where_the_first_bye_choice_traps(self) -> None:
        gen = _Lcg(20261124)
        trapped = 0
        for case in range(160):
            n = (7, 9, 11)[case % 3]
            pool = _field(gen, n, dense=3 + case % 4)
            per_bye = _best_per_bye(pool)
            for ruleset in RULESETS:
                policy = policy_for(ruleset)
                ids = sorted(pool.ids)
                order = bye_order(policy, ids, pool.points, pool.rank, pool.had_bye, pool.seed, *pool.context)
                rest = [p for p in ids if p != order[0]]
                if match_even(rest, pool.scores, pool.opponents, Rng("x"))[1]:
                    trapped += 1
                best = _best(pool, policy, order, per_bye)
                result = pair_pool(pool, policy)
                with self.subTest(case=case, ruleset=ruleset):
                    if best[0] == 0:
                        # A legal pairing exists: it is found, with exactly one bye and the optimal objective.
                        self.assertEqual(len(result.byes), 1, result)
                        self.assertEqual(_key(pool, policy, order, result.byes[0], list(result.pairs)), best)
                    elif policy.rematch_fallback == "both-byes":
                        # Star Trek 7.5.1: only when no legal pairing exists do players get extra byes.
                        self.assertGreater(len(result.byes), 1)
                    else:
                        self.assertEqual(len(result.byes), 1)
                        got = _key(pool, policy, order, result.byes[0], list(result.pairs))
                        self.assertEqual(got[0], best[0], "fewest rematches")
        self.assertGreater(trapped, 40, "the generator must produce fields where the first bye choice traps")

    def test_second_bye_warning_names_what_forced_it(self) -> None:
        # A bye to a or b would leave a rematch (both met c); c already had a bye.
        ids = ("a", "b", "c")
        opponents = {"a": frozenset({"c"}), "b": frozenset({"c"}), "c": frozenset({"a", "b"})}
        pool = PoolInput(
            ids,
            {"a": 0, "b": 0, "c": 0},
            {"a": 0, "b": 0, "c": 0},
            {"a": 0, "b": 1, "c": 2},
            opponents,
            {"c": 1},
            "s",
            (3, "all"),
        )
        result = pair_pool(pool, policy_for("agot"))
        self.assertEqual(result.byes, ("c",))
        self.assertEqual({frozenset(p) for p in result.pairs}, {frozenset(("a", "b"))})
        self.assertIn("rematch", " ".join(result.warnings))
        self.assertNotIn("every other player", " ".join(result.warnings))
        everyone = PoolInput(
            ids,
            {"a": 0, "b": 0, "c": 0},
            {"a": 0, "b": 0, "c": 0},
            {"a": 0, "b": 1, "c": 2},
            {pid: frozenset() for pid in ids},
            {"a": 1, "b": 1, "c": 1},
            "s",
            (3, "all"),
        )
        warning = " ".join(pair_pool(everyone, policy_for("agot")).warnings)
        self.assertIn("every player in the pool has had one", warning)


if __name__ == "__main__":
    unittest.main()


class StarTrekByeAndEarnedByeTest(unittest.TestCase):
    """Star Trek OP Guide 7.5.1 and 7.6 on fields where the order of decisions used to matter."""

    def test_bye_among_the_lowest_group_is_the_one_that_pairs_best(self) -> None:
        # A and B have 4 VP; C, D, E have 1 VP and D has met both C and E. A bye to C or E would leave D to
        # be paired up, so both 4-VP players would be paired down; a bye to D pairs A-B and C-E.
        ids = ("A", "B", "C", "D", "E")
        vp = {"A": 4, "B": 4, "C": 1, "D": 1, "E": 1}
        opponents = {
            "A": frozenset(),
            "B": frozenset(),
            "C": frozenset({"D"}),
            "D": frozenset({"C", "E"}),
            "E": frozenset({"D"}),
        }
        for seed in range(16):
            with self.subTest(seed=seed):
                pool = PoolInput(
                    ids, vp, vp, {pid: i for i, pid in enumerate(ids)}, opponents, {}, f"s{seed}", (2, "all")
                )
                result = pair_pool(pool, policy_for("startrek-1e"))
                self.assertEqual(result.byes, ("D",))
                self.assertIn(frozenset(("A", "B")), {frozenset(p) for p in result.pairs})

    def test_earned_bye_players_meet_the_highest_victory_point_group(self) -> None:
        # 7.6: earned-bye scorecards are "paired first randomly against the scorecard(s) of the player(s)
        # with the highest victory point total from the first round"; odd ones are paired down in turn.
        from shared_rules.pairing.next_round import _secondary
        from shared_rules.run import load_event, pair_next_round, pairing_state
        from tests.rules.test_pairing_swiss import new_doc, play_round

        policy = policy_for("startrek-1e")
        for n, earned in ((7, 2), (7, 3), (9, 2), (10, 2), (11, 3)):
            for seed in range(12):
                with self.subTest(n=n, earned=earned, seed=seed):
                    doc = new_doc("startrek-1e", n, 4, seed=f"earned-{seed}")
                    for p in doc["players"][:earned]:
                        p["earned_byes"] = 1
                    play_round(doc, Rng("earned", seed))
                    event = load_event(doc)
                    state = pairing_state(event, 2)
                    cost = _secondary(policy, state, frozenset(), len(state.present))
                    vp = {pid: int(state.points[pid]) for pid in state.present}

                    def key(bye, pairs):
                        rematches = sum(1 for a, b in pairs if b in state.opponents[a])
                        return (
                            rematches,
                            vp[bye] if bye else 0,
                            sum((vp[a] - vp[b]) ** 2 for a, b in pairs),
                            sum(cost(a, b) for a, b in pairs),
                        )

                    ids = sorted(state.present)
                    byes = ids if len(ids) % 2 else [None]
                    best = min(key(bye, pairs) for bye in byes for pairs in _pairings([p for p in ids if p != bye]))
                    paired = pair_next_round(event)
                    got_bye = [m.players[0] for m in paired.matches if len(m.players) == 1]
                    got = key(
                        got_bye[0] if got_bye else None, [m.players for m in paired.matches if len(m.players) == 2]
                    )
                    self.assertEqual(got, best)

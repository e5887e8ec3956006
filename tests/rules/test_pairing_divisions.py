"""Pokémon age divisions (TOP 3.1.1, 3.1.2) and flights (3.3.3)."""

from __future__ import annotations

import unittest
from collections import Counter

from shared_rules.games import policy_for
from shared_rules.pairing.divisions import assign_flights, division_mode
from shared_rules.pairing.swiss import PoolInput, pair_pool
from shared_rules.run import load_event, pair_next_round
from shared_rules.seeded import Rng
from tests.rules.test_pairing_swiss import new_doc, play_round


def _divided(counts: dict[str, int], rounds: int = 4, **settings):
    doc = new_doc("pokemon-tcg", sum(counts.values()), rounds, **settings)
    it = iter(doc["players"])
    for division, n in counts.items():
        for _ in range(n):
            next(it)["division"] = division
    return doc


class DivisionModeTest(unittest.TestCase):
    """Age-Separated needs six in every division present."""

    def test_six_in_each_division_is_age_separated(self) -> None:
        self.assertEqual(
            division_mode({**{f"m{i}": "masters" for i in range(6)}, **{f"s{i}": "senior" for i in range(6)}}),
            "separated",
        )

    def test_five_in_one_division_is_age_modified(self) -> None:
        self.assertEqual(
            division_mode({**{f"m{i}": "masters" for i in range(6)}, **{f"s{i}": "senior" for i in range(5)}}),
            "modified",
        )

    def test_division_from_birth_year_and_season(self) -> None:
        doc = new_doc("pokemon-tcg", 14, 3, season=2019)
        for i, p in enumerate(doc["players"]):
            p["birth_year"] = 2001 if i < 7 else 2009  # Masters / Junior (RULES.md Decision)
        paired = pair_next_round(load_event(doc))
        for m in paired.matches:
            if len(m.players) == 2:
                self.assertEqual(int(m.players[0][1:]) <= 7, int(m.players[1][1:]) <= 7)


class AgeSeparatedTest(unittest.TestCase):
    """Pokémon TOP 3.1.1: three separate tournaments."""

    def test_divisions_never_meet_and_each_odd_division_has_its_own_bye(self) -> None:
        doc = _divided({"masters": 9, "senior": 7, "junior": 6})
        division = {p["id"]: p["division"] for p in doc["players"]}
        rng = Rng("sep", "r")
        for _ in range(4):
            paired = play_round(doc, rng)
            for m in paired["matches"]:
                self.assertEqual(len({division[p] for p in m["players"]}), 1)
            byes = Counter(division[m["players"][0]] for m in paired["matches"] if len(m["players"]) == 1)
            self.assertEqual(byes, Counter({"masters": 1, "senior": 1}))


class AgeModifiedTest(unittest.TestCase):
    """Pokémon TOP 3.1.2: same record and division best; division beats record."""

    def test_document_example_masters_two_three_meets_masters_one_four(self) -> None:
        divisions = {"M23": "masters", "M14": "masters", "S23": "senior", "S14": "senior"}
        points = {"M23": 6, "M14": 3, "S23": 6, "S14": 3}
        pool = PoolInput(tuple(points), points, points, {}, {}, {}, "s", ("x",), divisions=divisions)
        result = pair_pool(pool, policy_for("pokemon-tcg"))
        self.assertEqual(sorted(tuple(sorted(p)) for p in result.pairs), [("M14", "M23"), ("S14", "S23")])

    def test_eight_player_round_one_needs_one_cross_division_pair(self) -> None:
        # One Junior, two Seniors, five Masters: the Junior meets a Master, the Seniors meet, four Masters meet.
        for seed in range(12):
            with self.subTest(seed=seed):
                doc = _divided({"junior": 1, "senior": 2, "masters": 5}, rounds=3)
                doc["seed"] = f"lc-{seed}"
                division = {p["id"]: p["division"] for p in doc["players"]}
                paired = pair_next_round(load_event(doc))
                cross = [m.players for m in paired.matches if len({division[p] for p in m.players}) > 1]
                self.assertEqual(len(cross), 1, paired.matches)
                self.assertEqual(sorted(division[p] for p in cross[0]), ["junior", "masters"])

    def test_pairing_equals_exhaustive_optimum_on_random_league_challenges(self) -> None:
        # Lexicographic: rematches, cross-division pairs, squared point gaps (TOP 3.1, 3.1.2).
        from shared_rules.pairing.age_modified import pair_age_modified
        from tests.rules.test_pairing_bye_choice import _pairings
        from tests.rules.test_pairing_matching import _Lcg

        gen = _Lcg(3102)
        names = ("junior", "senior", "masters")
        for case in range(150):
            n = (6, 8, 10)[case % 3]
            ids = [f"p{i}" for i in range(n)]
            divisions = {pid: names[gen.below(3)] if gen.below(3) else "masters" for pid in ids}
            points = {pid: 3 * gen.below(3) + (gen.below(4) == 0) for pid in ids}
            opponents = {pid: set() for pid in ids}
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    if gen.below(10) < case % 5:
                        opponents[a].add(b)
                        opponents[b].add(a)
            frozen = {pid: frozenset(o) for pid, o in opponents.items()}

            def key(pairs, frozen=frozen, divisions=divisions, points=points):
                return (
                    sum(1 for a, b in pairs if b in frozen[a]),
                    sum(1 for a, b in pairs if divisions[a] != divisions[b]),
                    sum((points[a] - points[b]) ** 2 for a, b in pairs),
                )

            best = min(key(p) for p in _pairings(ids))
            pairs, left = pair_age_modified(ids, points, divisions, frozen, lambda: Rng("am", case))
            with self.subTest(case=case):
                if best[0] == 0:
                    self.assertEqual(left, [])
                    self.assertEqual(key(pairs), best)
                else:
                    rematches, _ = pair_age_modified(
                        left, points, divisions, frozen, lambda: Rng("r"), allow_rematch=True
                    )
                    self.assertEqual(key(pairs + rematches)[0], best[0])

    def test_cross_division_pairs_only_where_forced(self) -> None:
        doc = _divided({"masters": 11, "senior": 3, "junior": 2}, rounds=4)
        division = {p["id"]: p["division"] for p in doc["players"]}
        paired = play_round(doc, Rng("mod", "r"))
        cross = [
            m
            for m in paired["matches"]
            if len(m["players"]) == 2 and division[m["players"][0]] != division[m["players"][1]]
        ]
        self.assertEqual(len(cross), 1)  # 11 Masters and 3 Seniors: one odd player each


class FlightsTest(unittest.TestCase):
    """Pokémon TOP 3.3.3: flights paired separately."""

    def test_flights_are_split_as_the_document_example_and_never_meet(self) -> None:
        doc = _divided({"masters": 143}, rounds=7, flights=2)
        event = load_event(doc)
        flights = assign_flights(event, "masters", list(event.players))
        self.assertEqual(sorted(Counter(flights.values()).values()), [71, 72])
        paired = pair_next_round(event)
        for m in paired.matches:
            self.assertEqual(len({flights[p] for p in m.players}), 1)

    def test_late_player_joins_the_smaller_flight(self) -> None:
        doc = _divided({"masters": 143}, rounds=7, flights=2)
        doc["players"].append({"id": "late", "name": "Late", "entry": 500, "late": True, "division": "masters"})
        event = load_event(doc)
        flights = assign_flights(event, "masters", list(event.players))
        counts = Counter(v for k, v in flights.items() if k != "late")
        self.assertEqual(counts[flights["late"]], 71)

    def test_player_flight_field_wins(self) -> None:
        doc = _divided({"masters": 64}, rounds=6, flights=2)
        doc["players"][0]["flight"] = 2
        event = load_event(doc)
        self.assertEqual(assign_flights(event, "masters", list(event.players))["p001"], 2)


if __name__ == "__main__":
    unittest.main()

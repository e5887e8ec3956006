"""Benchmark of the Swiss pairing core against networkx (run: python -m bench.pairing)."""

from __future__ import annotations

import random
import time
import tracemalloc

from shared_rules.pairing import Entrant, pair_players, total_squared_difference
from shared_rules.seeded import Rng


def simulate(players: int, rounds: int, seed: str = "bench") -> tuple[dict[str, int], set[frozenset[str]]]:
    """Scores and played pairs of a Pokémon-style Swiss (3/1/0) after some rounds."""
    outcome = random.Random(f"{seed}/{players}/{rounds}")
    scores = {f"p{i:05d}": 0 for i in range(players)}
    played: set[frozenset[str]] = set()
    for rnd in range(1, rounds + 1):
        pairing = pair_players(
            [Entrant(i, s) for i, s in sorted(scores.items())], rng=Rng(seed, rnd), forbidden=played
        )
        for a, b in pairing.pairs:
            played.add(frozenset((a, b)))
            roll = outcome.random()
            if roll < 0.03:
                scores[a] += 1
                scores[b] += 1
            else:
                scores[a if roll < 0.515 else b] += 3
        if pairing.bye:
            scores[pairing.bye] += 3
    return scores, played


def make_stuck(scores: dict[str, int], played: set[frozenset[str]]) -> tuple[dict[str, int], set[frozenset[str]]]:
    """The same event where the two leaders drew their last game: alone on a new top score, already met.

    A pair in the middle of the field is treated alike (a tied score group of
    two who just played), so the fast path gets stuck at two places.
    """
    scores = dict(scores)
    played = set(played)
    ranked = sorted(scores, key=lambda i: (-scores[i], i))
    lead = scores[ranked[0]] + 1
    for pid in ranked[:2]:
        scores[pid] = lead
    played.add(frozenset(ranked[:2]))
    mid = ranked[len(ranked) // 2 : len(ranked) // 2 + 2]
    level = scores[mid[0]] + 2
    for pid in mid:
        scores[pid] = level
    played.add(frozenset(mid))
    return scores, played


def topcut(scores: dict[str, int], played: set[frozenset[str]], rnd: int) -> tuple[float, int]:
    """Seconds and squared difference of Topcut's pairing."""
    entrants = [Entrant(i, s) for i, s in sorted(scores.items())]
    start = time.perf_counter()
    pairing = pair_players(entrants, rng=Rng("bench", rnd), forbidden=played)
    elapsed = time.perf_counter() - start
    return elapsed, total_squared_difference(pairing.pairs, scores)


def networkx_pairing(scores: dict[str, int], played: set[frozenset[str]]) -> tuple[float, int]:
    """Seconds and squared difference of networkx max_weight_matching on the same instance."""
    import networkx as nx

    ids = sorted(scores)
    top = max(scores.values()) - min(scores.values())
    big = top * top + 1
    start = time.perf_counter()
    graph = nx.Graph()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if frozenset((a, b)) not in played:
                graph.add_edge(a, b, weight=big - (scores[a] - scores[b]) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    elapsed = time.perf_counter() - start
    return elapsed, total_squared_difference(sorted(tuple(sorted(p)) for p in matching), scores)


def full_event_pairing(players: int, rounds: int) -> tuple[float, float]:
    """Seconds to load a whole event document and to pair its next round (policies included)."""
    from bench.events import swiss_event
    from shared_rules.event import load_event
    from shared_rules.pairing.next_round import pair_next_round_json

    doc = swiss_event(players, rounds, "pokemon-tcg")
    doc["settings"] = {"rounds": rounds + 3}
    start = time.perf_counter()
    event = load_event(doc)
    loaded = time.perf_counter()
    pair_next_round_json(event)
    return loaded - start, time.perf_counter() - loaded


def main() -> None:
    """Print the comparison table and the 4,096-player figures, for ordinary and stuck fields."""
    import sys

    in_pyodide = sys.platform == "emscripten" or "--no-networkx" in sys.argv
    print(f"{'pyodide' if sys.platform == 'emscripten' else 'cpython'} {sys.version.split()[0]}", flush=True)
    for players, rounds in ((512, 8), (4096, 8)):
        load_s, pair_s = full_event_pairing(players, rounds)
        print(f"whole Pokémon event, {players} players, pairing round {rounds + 1}: "
              f"pair_next_round {pair_s:.3f} s (+ document load {load_s:.3f} s)", flush=True)
    for players, rounds in (() if in_pyodide else ((256, 6), (512, 7), (256, 8), (512, 8))):
        base = simulate(players, rounds)
        for label, (scores, played) in (("", base), (" stuck", make_stuck(*base))):
            t_top, d_top = topcut(scores, played, rounds + 1)
            t_nx, d_nx = networkx_pairing(scores, played)
            verdict = "ok" if t_top < t_nx and d_top <= d_nx else "FAIL"
            if players == 512 and t_top > 0.1:
                verdict += " (above the 0.1 s target)"
            print(
                f"{players} players{label}, round {rounds + 1}: topcut {t_top:.4f} s (sqdiff {d_top}) | "
                f"networkx {t_nx:.3f} s (sqdiff {d_nx}) -> {verdict}",
                flush=True,
            )
    base = simulate(4096, 8)
    for label, (scores, played) in (("", base), (" stuck", make_stuck(*base))):
        t_top, d_top = topcut(scores, played, 9)
        tracemalloc.start()
        topcut(scores, played, 9)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        target = "ok" if t_top <= 1.0 else "above the 1 s target"
        print(
            f"4096 players{label}, round 9: topcut {t_top:.4f} s (sqdiff {d_top}), "
            f"peak memory {peak / 2**20:.1f} MiB -> {target}",
            flush=True,
        )


if __name__ == "__main__":
    main()

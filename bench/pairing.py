"""Benchmark of Swiss pairing: whole events, and the matching core against networkx.

Run: ``python -m bench.pairing [--no-networkx] [--quick]`` (networkx is in the
``test`` extras; inside Pyodide, ``bench/run_in_pyodide.mjs pairing`` skips it).

Figures, printed as one table:

* the command a user waits for, ``python -m shared_rules pair EVENT`` at 4,096 and
  4,095 players (round 9), and at 4,096 as the app exports the event (with its
  operational ``state`` field on every match), as a whole process (CPU seconds, user + system: start,
  imports, reading and validating the document, pairing, the JSON out), side by
  side with the matching core's own CPU time on the same document in the same
  run (``pair_pool``: the score-gap matching and the bye, timed inside an
  in-process ``next_round`` of that document); goal (issue #27) whole ≤ 2× the core;
  then where the command's time goes, phase by phase (:func:`command_phases`);
* whole events (document load + ``pair_next_round``) of 512 and 4,096 players,
  even and odd (the bye chosen inside the optimization), late in the event;
* the matching core against networkx's exact ``max_weight_matching`` on the
  same instance: even and odd fields (odd: a phantom bye vertex one point below
  the lowest score, as the core uses), round 9 and a late round 13 with many
  score levels, "stuck" fields where the fast path fails, up to 1,024 players.
  Quality is the total squared point difference (the bye counted against the
  phantom); the verdict is ``ok`` when Topcut is faster and no worse.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable

from shared_rules.pairing import Entrant, pair_players, total_squared_difference
from shared_rules.seeded import Rng

#: Goals (bench/README.md): whole 4,096-player event ≤ 1 s CPython; 512 players ≤ 0.1 s; the ``pair``
#: command's whole process ≤ 2× the matching core's own time (issue #27).
GOAL_4096_S = 1.0
GOAL_512_S = 0.1
GOAL_COMMAND_RATIO = 2.0


def simulate(players: int, rounds: int, seed: str = "bench") -> tuple[dict[str, int], set[frozenset[str]]]:
    """Scores and played pairs of a Pokémon-style Swiss (3/1/0) after some rounds (byes win)."""
    outcome = random.Random(f"{seed}/{players}/{rounds}")
    scores = {f"p{i:05d}": 0 for i in range(players)}
    played: set[frozenset[str]] = set()
    for rnd in range(1, rounds + 1):
        pairing = pair_players([Entrant(i, s) for i, s in sorted(scores.items())], rng=Rng(seed, rnd), forbidden=played)
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


def _quality(pairs, bye: str | None, scores: dict[str, int]) -> int:
    """Total squared difference, a bye counted against a phantom one point below the lowest score."""
    phantom = min(scores.values()) - 1
    return total_squared_difference(pairs, scores) + ((scores[bye] - phantom) ** 2 if bye else 0)


def topcut(scores: dict[str, int], played: set[frozenset[str]], rnd: int) -> tuple[float, int]:
    """Seconds and quality of Topcut's pairing core."""
    entrants = [Entrant(i, s) for i, s in sorted(scores.items())]
    start = time.perf_counter()
    pairing = pair_players(entrants, rng=Rng("bench", rnd), forbidden=played)
    elapsed = time.perf_counter() - start
    return elapsed, _quality(pairing.pairs, pairing.bye, scores)


def networkx_pairing(scores: dict[str, int], played: set[frozenset[str]]) -> tuple[float, int]:
    """Seconds and quality of networkx max_weight_matching on the same instance (phantom bye if odd)."""
    import networkx as nx

    ids = sorted(scores)
    phantom = min(scores.values()) - 1
    values = dict(scores)
    if len(ids) % 2:
        ids.append("~bye")
        values["~bye"] = phantom
    top = max(values.values()) - phantom
    big = top * top + 1
    start = time.perf_counter()
    graph = nx.Graph()
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            if frozenset((a, b)) not in played:
                graph.add_edge(a, b, weight=big - (values[a] - values[b]) ** 2)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    elapsed = time.perf_counter() - start
    pairs = [tuple(sorted(p)) for p in matching if "~bye" not in p]
    bye = next((a if b == "~bye" else b for a, b in matching if "~bye" in (a, b)), None)
    return elapsed, _quality(pairs, bye, scores)


def full_event_pairing(players: int, rounds: int) -> tuple[float, float]:
    """Seconds to load a whole event document and to pair its next round (policies included)."""
    from bench.events import swiss_event
    from shared_rules.run import load_event, pair_next_round_json

    doc = swiss_event(players, rounds, "pokemon-tcg")
    doc["settings"] = {"rounds": rounds + 3}
    start = time.perf_counter()
    event = load_event(doc)
    loaded = time.perf_counter()
    pair_next_round_json(event)
    return loaded - start, time.perf_counter() - loaded


def _child_cpu(argv: list[str]) -> float:
    """CPU seconds (user + system) of one whole child process, its output to /dev/null."""
    import resource  # not in Pyodide, which runs no processes

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv[1:])} exited {proc.returncode}: {proc.stderr.decode().strip()[-300:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def core_cpu(path: str) -> tuple[float, dict]:
    """CPU seconds of the matching core (``pair_pool``) inside an in-process ``next_round`` of the document,
    and that ``next_round``'s answer (what the command must print)."""
    from shared_rules import cli
    from shared_rules.pairing import next_round as module
    from shared_rules.run import next_round

    event = cli._read_event(path)
    real = module.pair_pool
    spent: list[float] = []

    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            spent.append(time.process_time() - start)

    module.pair_pool = timed
    try:
        answer = next_round(event)
    finally:
        module.pair_pool = real
    return sum(spent), answer


#: Run in a fresh interpreter: the pair command's phases, CPU seconds each, as JSON (see :func:`command_phases`).
_PHASES = r"""
import gc, json, os, resource, sys, time
usage = resource.getrusage(resource.RUSAGE_SELF)
clock = time.process_time
phases = {"start + json": usage.ru_utime + usage.ru_stime}
mark = clock()

def lap(name):
    global mark
    now = clock()
    phases[name] = phases.get(name, 0.0) + now - mark
    mark = now

from shared_rules import cli
from shared_rules.games import game_of
from shared_rules.pairing import matching, next_round as module, whole_event
from shared_rules.run import load_event, next_round
game_of("pokemon-tcg")
lap("imports")
with open(sys.argv[1], encoding="utf-8") as fh:
    text = fh.read()
gc.disable()
doc = json.loads(text)
lap("read + decode")
event = load_event(doc)
del doc, text
gc.enable()
gc.freeze()
lap("load")
spent = {"pairing state": 0.0, "core": 0.0}

def timed(real, name):
    def run(*args, **kwargs):
        start = clock()
        try:
            return real(*args, **kwargs)
        finally:
            spent[name] += clock() - start
    return run

module.pairing_state = timed(module.pairing_state, "pairing state")
module.pair_pool = timed(module.pair_pool, "core")
answer = next_round(event)
lap("pairing")
phases["pairing"] -= spent["pairing state"] + spent["core"]
phases.update(spent)
cli.output_text(answer)
lap("output")
print(json.dumps(phases))
sys.stdout.flush()
os._exit(0)
"""


def command_phases(path: str, runs: int) -> dict[str, float]:
    """Where the ``pair`` command's CPU goes, phase by phase, each the best of ``runs`` fresh processes:
    the interpreter's start (with ``json``), the imports, reading and decoding the file, loading the event, the pairing
    state, the matching core, the rest of the pairing (checks, divisions, byes, table numbers) and the
    JSON text out (the interpreter's teardown, skipped by the command, is not counted)."""
    best: dict[str, float] = {}
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", _PHASES, path], capture_output=True, text=True, check=True)
        for name, seconds in json.loads(out.stdout).items():
            best[name] = min(best.get(name, seconds), seconds)
    return best


def _add_state_fields(doc: dict) -> None:
    """Give every match the operational ``state`` field the app's own export writes (``to_event_document``)."""
    for rnd in doc["rounds"]:
        for match in rnd["matches"]:
            report = {"op_id": "bench", "device": "desk", "outcomes": match.get("outcomes")}
            match["state"] = {"status": "settled", "reports": [report]}


def command_rows(runs: int) -> list[tuple[str, str, str, str, str]]:
    """The ``pair`` command as a whole process against the matching core, 4,096 and 4,095 players, round 9,
    and 4,096 players as the app exports the event (a ``state`` field on every match)."""
    from bench.events import swiss_event

    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-pairing-") as tmp:
        for players, exported in ((4096, False), (4095, False), (4096, True)):
            doc = swiss_event(players, 8, "pokemon-tcg")
            doc["settings"] = {"rounds": 11}
            if exported:
                _add_state_fields(doc)
            label = f"{players}{' app export' if exported else ''}"
            path = os.path.join(tmp, f"event-{label.replace(' ', '-')}.json")
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(doc, fh)
            argv = [sys.executable, "-m", "shared_rules", "pair", path]
            out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
            core, answer = min(core_cpu(path) for _ in range(runs))[0], core_cpu(path)[1]
            if json.loads(out) != answer:
                raise SystemExit(f"pair {label}: the command's answer differs from the in-process next_round")
            whole = min(_child_cpu(argv) for _ in range(runs))
            ratio = whole / core
            rows.append(
                (
                    f"pair command {label}, round 9 (CPU)",
                    f"{whole:.3f} s whole process",
                    f"core {core:.3f} s",
                    f"{ratio:.2f}× the core",
                    "ok" if ratio <= GOAL_COMMAND_RATIO else f"above {GOAL_COMMAND_RATIO}× the core",
                )
            )
            print(f"  measured {rows[-1][0]}", file=sys.stderr, flush=True)
            phases = command_phases(path, runs)
            split = ", ".join(f"{name} {seconds:.3f}" for name, seconds in phases.items())
            rows.append((f"pair command {label}, phases (CPU s, best of {runs})", split, "-", "-", "-"))
    return rows


def _best_of(runs: int, measure: Callable[[], tuple[float, float]]) -> tuple[float, float]:
    results = [measure() for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results)


def main() -> None:
    """Print one table: whole events, then the core against networkx, then peak memory at 4,096."""
    quick = "--quick" in sys.argv
    no_networkx = sys.platform == "emscripten" or "--no-networkx" in sys.argv
    rows: list[tuple[str, str, str, str, str]] = []
    print(f"{'pyodide' if sys.platform == 'emscripten' else 'cpython'} {sys.version.split()[0]}", flush=True)
    if sys.platform != "emscripten":
        print(f"load average {os.getloadavg()[0]:.2f}", flush=True)
        rows.extend(command_rows(1 if quick else 3))
    for players, rounds in ((512, 8), (511, 8), (4096, 8), (4095, 8), (4095, 11)):
        load_s, pair_s = _best_of(1 if quick else 3, lambda: full_event_pairing(players, rounds))
        goal = GOAL_4096_S if players > 512 else GOAL_512_S
        rows.append(
            (
                f"whole event {players}, round {rounds + 1}",
                f"{pair_s:.3f} s (+{load_s:.3f} s load)",
                "-",
                "-",
                "ok" if pair_s + load_s <= goal else f"above {goal} s",
            )
        )
    sizes = ((256, 8), (257, 8), (512, 8), (511, 12), (1024, 8), (1023, 12))
    for players, rounds in () if no_networkx or quick else sizes:
        base = simulate(players, rounds)
        for label, (scores, played) in (("", base), (" stuck", make_stuck(*base))):
            t_top, d_top = topcut(scores, played, rounds + 1)
            t_nx, d_nx = networkx_pairing(scores, played)
            verdict = "ok" if t_top < t_nx and d_top <= d_nx else "FAIL"
            rows.append(
                (
                    f"core {players}{label}, round {rounds + 1}",
                    f"{t_top:.4f} s",
                    f"{t_nx:.2f} s",
                    f"{d_top} / {d_nx}",
                    verdict,
                )
            )
            print(f"  measured {rows[-1][0]}", file=sys.stderr, flush=True)
    for players in (4096, 4095):
        base = simulate(players, 8)
        for label, (scores, played) in (("", base), (" stuck", make_stuck(*base))):
            t_top, d_top = topcut(scores, played, 9)
            tracemalloc.start()
            topcut(scores, played, 9)
            _, peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            rows.append(
                (
                    f"core {players}{label}, round 9",
                    f"{t_top:.4f} s, peak {peak / 2**20:.1f} MiB",
                    "-",
                    f"{d_top}",
                    "ok" if t_top <= GOAL_4096_S else f"above {GOAL_4096_S} s",
                )
            )
    header = ("what", "topcut", "networkx", "sqdiff topcut / networkx", "verdict")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths)), flush=True)


if __name__ == "__main__":
    main()

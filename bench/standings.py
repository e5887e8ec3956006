"""Standings speed: 4,096 players after 12 Swiss rounds (issue target ≤ 0.25 s
under CPython, ≤ 1 s inside Pyodide), with peak memory.

    .venv/bin/python -m bench.standings            # CPython, then Pyodide under Node
    .venv/bin/python -m bench.standings --here     # only the runtime it runs in

Figures: document validation (load) and ranking (standings) are timed
separately, best of ``--repeat`` runs; peak memory is tracemalloc's peak over
one load + standings.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from bench.events import swiss_event
from shared_rules.event import load_event
from shared_rules.standings import standings_json

RULESETS = ("pokemon-tcg", "doomtown", "shatterpoint", "agot", "startrek-1e")


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def measure(players: int, rounds: int, repeat: int) -> list[dict]:
    """Time load and standings for each ruleset in this runtime."""
    out = []
    for ruleset in RULESETS:
        doc = swiss_event(players, rounds, ruleset)
        event = load_event(doc)
        load_s = _best(lambda: load_event(doc), repeat)
        standings_s = _best(lambda: standings_json(event), repeat)
        tracemalloc.start()
        standings_json(load_event(doc))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        out.append({"ruleset": ruleset, "load_s": round(load_s, 4), "standings_s": round(standings_s, 4),
                    "peak_mib": round(peak / 2**20, 1)})
    return out


def _print(runtime: str, players: int, rounds: int, rows: list[dict]) -> None:
    print(f"{runtime}: {players} players, {rounds} rounds")
    for row in rows:
        print(f"  {row['ruleset']:<13} standings {row['standings_s']:.3f} s   load+validate {row['load_s']:.3f} s"
              f"   peak {row['peak_mib']} MiB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--here", action="store_true", help="measure only in this runtime")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runtime = "pyodide" if sys.platform == "emscripten" else "cpython"
    rows = measure(args.players, args.rounds, args.repeat)
    if args.json:
        print(json.dumps(rows))
        return
    _print(f"{runtime} {sys.version.split()[0]}", args.players, args.rounds, rows)
    if args.here or runtime == "pyodide":
        return
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(["node", str(root / "bench" / "run_in_pyodide.mjs"), "bench.standings", "--here",
                           "--players", str(args.players), "--rounds", str(args.rounds),
                           "--repeat", str(args.repeat)], cwd=root, capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    if proc.returncode:
        sys.stdout.write(f"pyodide run failed: {proc.stderr.strip().splitlines()[-1:]}\n")


if __name__ == "__main__":
    main()

"""Folding an event's whole operation log into its state, as a tablet does at every start and the server
does when its cache is cold: a 512-player Pokémon event after 3 rounds (bench.pwa's event) and late in the day
after 9 rounds, in CPython and then inside Pyodide under Node.

    .venv/bin/python -m bench.fold                  # CPython, then Pyodide
    .venv/bin/python -m bench.fold --here --rounds 3 9 --players 512

The log is made once per size by :func:`bench.events.operations_log` (create, register, then per round the
rules engine's pairing, the start and one result per table); ``fold`` is the best of ``--repeat`` folds of the
whole log from the empty state with ``shared_rules.state.apply_in_place`` (each operation checked as a device
checks it); ``per op`` divides it by the log's length.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from bench.events import operations_log

ROOT = Path(__file__).resolve().parent.parent


def measure(players: int, rounds: int, repeat: int) -> dict[str, float]:
    """Fold the log of a ``players`` × ``rounds`` event ``repeat`` times: the best time and the log's length."""
    from shared_rules.state import apply_in_place, initial_state

    ops = operations_log(players, rounds)
    best = float("inf")
    for _ in range(repeat):
        state = initial_state()
        start = time.perf_counter()
        for op in ops:
            apply_in_place(state, op)
        best = min(best, time.perf_counter() - start)
    return {"players": players, "rounds": rounds, "ops": len(ops), "fold_s": best}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--rounds", type=int, nargs="+", default=[3, 9])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--here", action="store_true", help="measure only in this runtime")
    args = parser.parse_args()
    runtime = "pyodide" if sys.platform == "emscripten" else "cpython"
    print(f"{runtime} {sys.version.split()[0]}: best of {args.repeat}")
    print(f"  {'players':>7} {'rounds':>6} {'ops':>6} {'fold s':>7} {'per op µs':>9}")
    for rounds in args.rounds:
        row = measure(args.players, rounds, args.repeat)
        print(
            f"  {row['players']:>7} {row['rounds']:>6} {row['ops']:>6} {row['fold_s']:>7.3f}"
            f" {1e6 * row['fold_s'] / row['ops']:>9.0f}"
        )
    if args.here or runtime == "pyodide":
        return
    sys.stdout.flush()
    more = ["--players", str(args.players), "--repeat", str(min(args.repeat, 3)), "--rounds", *map(str, args.rounds)]
    subprocess.run(["node", str(ROOT / "bench" / "run_in_pyodide.mjs"), "bench.fold", "--here", *more], check=True)


if __name__ == "__main__":
    main()

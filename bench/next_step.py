"""The Rounds screen's next step (``rules_api.next_step``, shared_rules/state/flow.py), asked at every redraw of
that screen: a Pokémon event of ``--players`` after ``--rounds`` rounds with the last round's results in (the
next Swiss round, or the cut once the Swiss is over), in CPython and then inside Pyodide under Node.

    .venv/bin/python -m bench.next_step                      # CPython, then Pyodide
    .venv/bin/python -m bench.next_step --here --players 2048 --rounds 3 10

The log is :func:`bench.events.operations_log` (create, register, per round the engine's pairing, the start
and one result per table), folded once by the worker's ``fold``; ``next step`` is the best of ``--repeat``
``next_step`` calls through ``call`` (JSON in and out, as the page asks), each on a state the worker has not
answered for yet (its answer is kept per folded state: ``again`` is the same question once more).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from bench.events import operations_log
from bench.fold import ROOT, _rules_api


def measure(players: int, rounds: int, repeat: int) -> tuple[float, float, str]:
    """Best ``next_step`` time (s) on a fresh fold and asked again, and its label, on a ``players`` × ``rounds``
    event folded by the worker."""
    api = _rules_api()
    ops = operations_log(players, rounds)
    api.fold("bench", True, None, [{"server_seq": n, "op": op} for n, op in enumerate(ops, start=1)], [], False)
    request = json.dumps({"fn": "next_step", "args": {"event_id": "bench"}})
    best = again = float("inf")
    label = ""
    for _ in range(repeat):
        api._EVENTS["bench"].pop("next_step", None)  # a state not answered for yet
        start = time.perf_counter()
        answer = json.loads(api.call(request))
        best = min(best, time.perf_counter() - start)
        start = time.perf_counter()
        api.call(request)
        again = min(again, time.perf_counter() - start)
        assert answer["ok"], answer
        label = answer["result"]["label"]
    return best, again, label


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2048)
    parser.add_argument("--rounds", type=int, nargs="+", default=[3, 10])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--here", action="store_true", help="measure only in this runtime")
    args = parser.parse_args()
    runtime = "pyodide" if sys.platform == "emscripten" else "cpython"
    print(f"{runtime} {sys.version.split()[0]}: next_step, best of {args.repeat}")
    print(f"  {'players':>7} {'rounds':>6} {'next step s':>11} {'again s':>8}  label")
    for rounds in args.rounds:
        seconds, again, label = measure(args.players, rounds, args.repeat)
        print(f"  {args.players:>7} {rounds:>6} {seconds:>11.3f} {again:>8.4f}  {label}")
    if args.here or runtime == "pyodide":
        return
    sys.stdout.flush()
    more = ["--players", str(args.players), "--repeat", str(min(args.repeat, 3)), "--rounds", *map(str, args.rounds)]
    subprocess.run(["node", str(ROOT / "bench" / "run_in_pyodide.mjs"), "bench.next_step", "--here", *more], check=True)


if __name__ == "__main__":
    main()

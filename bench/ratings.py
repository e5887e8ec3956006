"""Star Trek ratings recompute: 2,000 players x 50 events (issue target <= 1 s).

    .venv/bin/python -m bench.ratings            # CPython, then Pyodide under Node
    .venv/bin/python -m bench.ratings --here     # only the runtime it runs in

The history: ``--players`` people, ``--events`` sanctioned 2E events (levels 2-5,
constructed and sealed in turn), each with ``--field`` of the people (default:
all of them) over ``--rounds`` Swiss rounds (Table 3.0.1: 8 for 46+), paired at
random, with random Full Win / Modified Win / True Tie results, a Bye for an
odd field. Figures: ``compute_ratings`` over the loaded events (the recompute),
best of ``--repeat`` runs; loading and validating the documents is timed
once, apart.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from shared_rules.games.startrek.ratings import compute_ratings
from shared_rules.run import load_event

RESULTS = (
    ("full-win", "full-loss", [100, 40]),
    ("modified-win", "modified-loss", [60, 35]),
    ("true-tie", "true-tie", [50, 50]),
)


def history(players: int, events: int, field: int, rounds: int, seed: int = 13) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    people = [f"m{i:05d}" for i in range(players)]
    docs = []
    for number in range(events):
        entrants = rng.sample(people, field)
        doc_rounds = []
        for r in range(rounds):
            rng.shuffle(entrants)
            matches = []
            for t in range(len(entrants) // 2):
                win, loss, scores = RESULTS[rng.randrange(3)] if rng.random() < 0.5 else RESULTS[0]
                matches.append(
                    {
                        "table": t + 1,
                        "players": [entrants[2 * t], entrants[2 * t + 1]],
                        "outcomes": [win, loss],
                        "scores": scores,
                    }
                )
            if len(entrants) % 2:
                matches.append({"players": [entrants[-1]], "outcomes": ["bye"]})
            doc_rounds.append({"number": r + 1, "matches": matches})
        docs.append(
            {
                "format": "topcut-event/1",
                "ruleset": "startrek-2e",
                "name": f"event {number + 1}",
                "seed": str(number),
                "settings": {
                    "rating": {
                        "sanctioned": True,
                        "level": 2 + number % 4,
                        "format": ("constructed", "sealed")[number % 2],
                        "date": f"2025-{1 + number // 5:02d}-{1 + number % 5 * 6:02d}",
                    }
                },
                "players": [{"id": p, "entry": i + 1} for i, p in enumerate(entrants)],
                "rounds": doc_rounds,
            }
        )
    return docs


def measure(players: int, events: int, field: int, rounds: int, repeat: int) -> dict[str, Any]:
    docs = history(players, events, field, rounds)
    start = time.perf_counter()
    loaded = [load_event(d) for d in docs]
    load_s = time.perf_counter() - start
    best = float("inf")
    out: dict[str, Any] = {}
    for _ in range(repeat):
        start = time.perf_counter()
        out = compute_ratings(loaded)
        best = min(best, time.perf_counter() - start)
    games = sum(sum(row["games"] for row in ev["changes"].values()) for ev in out["events"]) // 2
    top = max(row["overall"] for row in out["ratings"]["startrek-2e"].values())
    low = min(row["overall"] for row in out["ratings"]["startrek-2e"].values())
    return {
        "players": players,
        "events": events,
        "field": field,
        "rounds": rounds,
        "games": games,
        "recompute_s": round(best, 3),
        "load_s": round(load_s, 2),
        "overall_range": [low, top],
    }


def _print(runtime: str, row: dict[str, Any]) -> None:
    print(
        f"{runtime}: {row['players']} players x {row['events']} events ({row['field']} per event, "
        f"{row['rounds']} rounds, {row['games']} rated games)"
    )
    print(
        f"  recompute {row['recompute_s']:.3f} s (goal <= 1 s)   load+validate {row['load_s']:.2f} s   "
        f"overall ratings {row['overall_range'][0]}-{row['overall_range'][1]}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--field", type=int, default=None, help="players per event (default: all)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--here", action="store_true", help="measure only in this runtime")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    field = args.field or args.players
    runtime = "pyodide" if sys.platform == "emscripten" else "cpython"
    row = measure(args.players, args.events, field, args.rounds, args.repeat)
    if args.json:
        print(json.dumps(row))
        return
    _print(f"{runtime} {sys.version.split()[0]}", row)
    if args.here or runtime == "pyodide":
        return
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        [
            "node",
            str(root / "bench" / "run_in_pyodide.mjs"),
            "bench.ratings",
            "--here",
            "--players",
            str(args.players),
            "--events",
            str(args.events),
            "--field",
            str(field),
            "--rounds",
            str(args.rounds),
            "--repeat",
            str(args.repeat),
        ],
        cwd=root,
        capture_output=True,
        text=True,
    )
    sys.stdout.write(proc.stdout)
    if proc.returncode:
        sys.stdout.write(f"pyodide run failed: {proc.stderr.strip().splitlines()[-1:]}\n")


if __name__ == "__main__":
    main()

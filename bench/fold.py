"""Folding an event's whole operation log into its state, as a tablet does at every start and the server
does when its cache is cold: a Pokémon event of 512 and of 2,048 players late in the day (after 9 rounds), in
CPython and then inside Pyodide under Node.

    .venv/bin/python -m bench.fold                  # CPython, then Pyodide
    .venv/bin/python -m bench.fold --here --rounds 3 9 --players 512 2048

The log is made once per size by :func:`bench.events.operations_log` (create, register, then per round the
rules engine's pairing, the start and one result per table); ``fold`` is the best of ``--repeat`` folds of the
whole log from the empty state with ``shared_rules.state.replay`` (each operation checked as a device checks
it), in CPU time; ``per op`` divides it by the log's length, and ``× first`` is that per-operation cost against
the first size's with as many rounds: the goal (issue 27) is a fold linear in the field, ≤ 1.2× from 512 to
2,048 players (it was ×1.8: a scan of the roster per registration and of the round per result).

``waiting``: the fold a judge's tablet makes after each change and each sync attempt while it holds the last
round's results unsent (offline for the round: one ``result.report`` per table, ``waiting ops``), on top of
the server's log it already folded: ``pwa/rules/rules_api.py``'s ``fold``, best of ``--repeat``. Until late on
2026-11-26 it copied the whole state once per waiting change (9.5 s in CPython, 19.4 s in Pyodide for 256
waiting results at 512 × 9); it copies it once per fold now (bench/README.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.events import operations_log

ROOT = Path(__file__).resolve().parent.parent


def _rules_api():
    """The tablet's rules worker module (pwa/rules/rules_api.py), as the worker imports it."""
    spec = importlib.util.spec_from_file_location("bench_rules_api", ROOT / "pwa" / "rules" / "rules_api.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(players: int, rounds: int, repeat: int) -> dict[str, float]:
    """Fold the log of a ``players`` × ``rounds`` event ``repeat`` times (best time, the log's length), and the
    device's fold with the last round's results waiting on top of the rest."""
    from shared_rules.state import replay

    # As a device and the server have the log: read from its JSON text (the worker is sent text; the server
    # reads its rows), not the objects the generator made while it folded its own copy.
    ops = json.loads(json.dumps(operations_log(players, rounds)))
    best = float("inf")
    for _ in range(repeat):
        start = _cpu()
        replay(ops)
        best = min(best, _cpu() - start)
    # The last round's results, reported on a judge's tablet that could not send them.
    tail = 0
    while tail < len(ops) and ops[len(ops) - 1 - tail]["type"] == "result.report":
        tail += 1
    confirmed = [{"server_seq": n, "op": op} for n, op in enumerate(ops[: len(ops) - tail], start=1)]
    waiting = [
        dict(op, device="tab-2", op_id=f"tab-2:{n}", actor={"role": "judge"})
        for n, op in enumerate(ops[len(ops) - tail :], start=1)
    ]
    api = _rules_api()
    api.fold("bench", True, None, confirmed, [], with_state=False)
    waiting_s = float("inf")
    for _ in range(repeat):
        api.fold("bench", False, None, [], [], with_state=False)  # nothing waiting: each fold below folds them all
        start = time.perf_counter()
        out = api.fold("bench", False, None, [], waiting, with_state=False)
        waiting_s = min(waiting_s, time.perf_counter() - start)
        assert not out["local_rejections"], out["local_rejections"][:1]
    change_s, sync_s, idle_s = _judge_change(api, ops, repeat)
    return {
        "players": players,
        "rounds": rounds,
        "ops": len(ops),
        "fold_s": best,
        "waiting_ops": tail,
        "waiting_s": waiting_s,
        "change_s": change_s,
        "sync_s": sync_s,
        "idle_s": idle_s,
    }


def _cpu() -> float:
    """CPU seconds of this process (wall time inside Pyodide, which has no other work)."""
    return time.perf_counter() if sys.platform == "emscripten" else time.process_time()


def _judge_change(api: Any, ops: list[dict[str, Any]], repeat: int) -> tuple[float, float, float]:
    """A judge's change on an online tablet, as the worker answers the page (from the request's JSON text to the
    answer's, the state included): the fold that shows it (``change``), the fold once the server took it
    (``sync``), and the timer's next sync, which brings nothing new (``idle``); best of ``repeat``. Between two
    changes the tablet is idle and the worker makes its spare copy (``prepare``, not timed; a worker without
    it copies the state at every change)."""

    api.fold("judge", True, None, [{"server_seq": n, "op": op} for n, op in enumerate(ops, start=1)], [], False)
    cursor = len(ops)
    change_s = sync_s = idle_s = float("inf")
    for n in range(1, repeat + 1):
        if "prepare" in api.FUNCTIONS:
            api.call(json.dumps({"fn": "prepare", "args": {"event_id": "judge"}}))
        warning = {
            "type": "penalty.issue",
            "op_id": f"tab-3:{n}",
            "device": "tab-3",
            "actor": {"role": "judge"},
            "at": ops[-1]["at"] + n,
            "payload": {"player": ops[1]["payload"]["player"]["id"], "reason": "slow play", "kind": "warning"},
        }
        args = {"event_id": "judge", "reset": False, "base": None, "confirmed": [], "pending": [warning]}
        request = json.dumps({"fn": "fold", "args": args})
        start = time.perf_counter()
        text = api.call(request)
        change_s = min(change_s, time.perf_counter() - start)
        answer = json.loads(text)
        assert answer["ok"] and not answer["result"]["local_rejections"], answer.get("error")
        cursor += 1
        args = {**args, "confirmed": [{"server_seq": cursor, "op": warning}], "pending": []}
        request = json.dumps({"fn": "fold", "args": args})
        start = time.perf_counter()
        text = api.call(request)
        sync_s = min(sync_s, time.perf_counter() - start)
        answer = json.loads(text)
        assert answer["ok"], answer.get("error")
        # The timer's next sync brings nothing new: the page holds this state already.
        revision = answer["result"].get("revision")  # (a worker of before 2026-11-27 knows none)
        args = {**args, "confirmed": [], **({"known": revision} if revision else {})}
        request = json.dumps({"fn": "fold", "args": args})
        start = time.perf_counter()
        text = api.call(request)
        idle_s = min(idle_s, time.perf_counter() - start)
        assert json.loads(text)["ok"]
    return change_s, sync_s, idle_s


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, nargs="+", default=[512, 2048])
    parser.add_argument("--rounds", type=int, nargs="+", default=[9])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--here", action="store_true", help="measure only in this runtime")
    args = parser.parse_args()
    runtime = "pyodide" if sys.platform == "emscripten" else "cpython"
    print(f"{runtime} {sys.version.split()[0]}: best of {args.repeat}")
    print(
        f"  {'players':>7} {'rounds':>6} {'ops':>6} {'fold s':>7} {'per op µs':>9} {'× first':>7} {'waiting ops':>11}"
        f" {'waiting s':>9} {'change s':>8} {'sync s':>7} {'idle s':>7}"
    )
    first: dict[int, float] = {}  # per-operation cost of the first size, by rounds
    for rounds in args.rounds:
        for players in args.players:
            row = measure(players, rounds, args.repeat)
            per_op = row["fold_s"] / row["ops"]
            ratio = per_op / first.setdefault(rounds, per_op)
            print(
                f"  {row['players']:>7} {row['rounds']:>6} {row['ops']:>6} {row['fold_s']:>7.3f}"
                f" {1e6 * per_op:>9.1f} {ratio:>7.2f} {row['waiting_ops']:>11} {row['waiting_s']:>9.3f}"
                f" {row['change_s']:>8.3f} {row['sync_s']:>7.3f} {row['idle_s']:>7.3f}",
                flush=True,
            )
    if args.here or runtime == "pyodide":
        return
    sys.stdout.flush()
    more = [
        "--players",
        *map(str, args.players),
        "--repeat",
        str(min(args.repeat, 3)),
        "--rounds",
        *map(str, args.rounds),
    ]
    subprocess.run(["node", str(ROOT / "bench" / "run_in_pyodide.mjs"), "bench.fold", "--here", *more], check=True)


if __name__ == "__main__":
    main()

"""Standings speed: the whole ``python -m shared_rules standings EVENT`` call for
every ruleset, 4,096 players after 12 Swiss rounds (issue #16: ≤ 0.25 s per
whole process under CPython; ≤ 1 s in-process inside Pyodide), with peak memory.

    .venv/bin/python -m bench.standings                 # CPython, then Pyodide under Node
    .venv/bin/python -m bench.standings --here          # only the runtime it runs in
    .venv/bin/python -m bench.standings --rulesets agot tribbles --repeat 9

For each ruleset, :func:`bench.events.swiss_event` makes a valid event document
(Tribbles in pods, Star Trek with scores, Shatterpoint with stats, ``custom``
with house rules), written to a temporary file. Figures:

- ``whole``: the command line as a subprocess, from process start to exit
  (interpreter start, imports, reading and validating the document, ranking,
  writing the JSON to /dev/null); best and median of ``--repeat`` runs, after
  one checked run whose output must equal the in-process result. The modules'
  byte-code caches are kept in the temporary directory (``PYTHONPYCACHEPREFIX``;
  the checked run writes them), as an installed package has them;
  ``--no-bytecode-cache`` compiles every module at each start instead. Not taken
  inside Pyodide (no processes there).
- ``floor``: a whole process that only starts the interpreter, reads the document and decodes its
  JSON (best of ``--repeat``): what any Python program given this file spends before validating or
  ranking anything; the goal has what is left of 0.25 s for imports, validation, ranking and output.
- in-process split, best of ``--repeat``: ``load`` (read the file, decode and
  validate it: the CLI's ``_read_event``), ``rank`` (``compute_standings``) and
  ``out`` (the CLI's JSON text of the standings lines).
- ``peak``: tracemalloc's peak over one in-process load + rank + out (MiB);
  ``rss``: the whole process's maximum resident set (MiB).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from bench.events import RULESET_IDS, swiss_event

ROOT = Path(__file__).resolve().parent.parent
#: Issue #16's goals: the whole CLI process (CPython), and in-process inside Pyodide.
GOAL_WHOLE_S = 0.25
GOAL_PYODIDE_S = 1.0


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _cli_env(tmp: str, bytecode_cache: bool) -> dict[str, str]:
    """The CLI's environment: byte-code caches written to (and read from) a folder of the temporary
    directory, as an installed package has them, unless ``bytecode_cache`` is false."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if bytecode_cache:
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tmp, "no-pycache")  # empty: nothing cached is read
    return env


def _run_cli(path: str, env: dict[str, str]) -> float:
    """One whole CLI call: seconds from spawn to exit."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "shared_rules", "standings", path],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    elapsed = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"standings {path} exited {proc.returncode}: {proc.stderr.decode().strip()}")
    return elapsed


# A child's maximum resident set starts from its parent's (Linux keeps it across fork and exec):
# a small interpreter forks the CLI, so the benchmark's own memory does not show.
_RSS = """import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execv(sys.executable, [sys.executable, "-m", "shared_rules", "standings", sys.argv[1]])
print(os.wait4(pid, 0)[2].ru_maxrss)
"""


# What any Python program reading this document spends before ranking anything: the interpreter's
# start (with site, as the command line has it), reading the file and decoding its JSON (the cyclic
# garbage collector paused, as the CLI pauses it).
_FLOOR = """import gc, json, sys
gc.disable()
with open(sys.argv[1], encoding="utf-8") as fh:
    json.loads(fh.read())
"""


def _floor(path: str, env: dict[str, str]) -> float:
    """One whole process that only starts, reads and decodes the document: seconds from spawn to exit."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", _FLOOR, path], cwd=ROOT, env=env, check=True)
    return time.perf_counter() - start


def _cli_rss_mib(path: str, env: dict[str, str]) -> float:
    """The whole CLI process's maximum resident set (MiB)."""
    proc = subprocess.run(
        [sys.executable, "-c", _RSS, path], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return int(proc.stdout) / 1024


def _json_text(result) -> str:
    # What shared_rules.cli printed before it had output_text().
    return json.dumps(result, ensure_ascii=False, indent=1) + "\n"


def measure(
    players: int, rounds: int, repeat: int, rulesets: list[str], whole: bool, bytecode_cache: bool = True
) -> list[dict]:
    """Time each ruleset: the whole CLI process (when ``whole``) and the in-process split."""
    from shared_rules import cli
    from shared_rules.run import compute_standings
    from shared_rules.standings import engine

    _cli_text = getattr(cli, "output_text", _json_text)
    # The CLI's output step: the standings text written line by line (lines_text), or, before it,
    # each line's dictionary through the JSON writer.
    _lines_text = getattr(
        engine, "lines_text", lambda lines: _cli_text({"standings": [s.to_json() for s in lines]}).rstrip("\n")
    )

    out = []
    with tempfile.TemporaryDirectory(prefix="bench-standings-") as tmp:
        env = _cli_env(tmp, bytecode_cache)
        for ruleset in rulesets:
            path = os.path.join(tmp, f"{ruleset}.json")
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(swiss_event(players, rounds, ruleset), fh, ensure_ascii=False)
            event = cli._read_event(path)
            lines = compute_standings(event)
            text = _json_text({"standings": [s.to_json() for s in lines]})  # EVENT-FORMAT.md's text
            if _lines_text(lines) + "\n" != text:
                raise SystemExit(f"{ruleset}: the standings text differs from json.dumps of the standings")
            row = {"ruleset": ruleset}
            if whole:
                check = subprocess.run(
                    [sys.executable, "-m", "shared_rules", "standings", path],
                    cwd=ROOT,
                    env=env,
                    capture_output=True,
                    text=True,
                    encoding="utf-8",
                )
                if check.returncode or check.stdout != text:
                    raise SystemExit(
                        f"{ruleset}: the CLI's output differs from the in-process result "
                        f"(exit {check.returncode}: {check.stderr.strip()[-200:]})"
                    )
                times = [_run_cli(path, env) for _ in range(repeat)]
                row.update(
                    floor_s=round(min(_floor(path, env) for _ in range(repeat)), 3),
                    whole_best_s=round(min(times), 3),
                    whole_median_s=round(statistics.median(times), 3),
                    rss_mib=round(_cli_rss_mib(path, env), 1),
                )
            row.update(
                load_s=round(_best(lambda path=path: cli._read_event(path), repeat), 3),
                rank_s=round(_best(lambda event=event: compute_standings(event), repeat), 3),
                out_s=round(_best(lambda lines=lines: _lines_text(lines), repeat), 3),
            )
            del event, lines, text
            gc.collect()
            tracemalloc.start()
            _lines_text(compute_standings(cli._read_event(path)))
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            row["peak_mib"] = round(peak / 2**20, 1)
            out.append(row)
    return out


def _print(runtime: str, players: int, rounds: int, repeat: int, rows: list[dict], note: str = "") -> None:
    load = "" if sys.platform == "emscripten" else f", load average {os.getloadavg()[0]:.2f}"
    print(f"{runtime}: {players} players, {rounds} rounds, best/median of {repeat}{load}{note}")
    whole = "whole_best_s" in rows[0]
    if whole:
        print(
            f"  {'ruleset':<13} {'floor':>6} {'whole best':>10} {'median':>7} {'load':>6} {'rank':>6} {'out':>6}"
            f" {'peak MiB':>8} {'RSS MiB':>7}  goal ≤ {GOAL_WHOLE_S} s whole"
        )
    else:
        print(
            f"  {'ruleset':<13} {'load':>6} {'rank':>6} {'out':>6} {'total':>6} {'peak MiB':>8}"
            f"  goal ≤ {GOAL_PYODIDE_S} s in-process"
        )
    for row in rows:
        if whole:
            met = "met" if row["whole_best_s"] <= GOAL_WHOLE_S else "NOT met"
            print(
                f"  {row['ruleset']:<13} {row['floor_s']:>6.3f} {row['whole_best_s']:>10.3f} {row['whole_median_s']:>7.3f}"
                f" {row['load_s']:>6.3f} {row['rank_s']:>6.3f} {row['out_s']:>6.3f}"
                f" {row['peak_mib']:>8.1f} {row['rss_mib']:>7.1f}  {met}"
            )
        else:
            total = row["load_s"] + row["rank_s"] + row["out_s"]
            met = "met" if total <= GOAL_PYODIDE_S else "NOT met"
            print(
                f"  {row['ruleset']:<13} {row['load_s']:>6.3f} {row['rank_s']:>6.3f} {row['out_s']:>6.3f}"
                f" {total:>6.3f} {row['peak_mib']:>8.1f}  {met}"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rulesets", nargs="+", choices=RULESET_IDS, default=list(RULESET_IDS))
    parser.add_argument("--here", action="store_true", help="measure only in this runtime")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="run the CLI without byte-code caches (every module compiled at each start)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    runtime = "pyodide" if sys.platform == "emscripten" else "cpython"
    rows = measure(
        args.players,
        args.rounds,
        args.repeat,
        args.rulesets,
        whole=runtime == "cpython",
        bytecode_cache=not args.no_bytecode_cache,
    )
    if args.json:
        print(json.dumps(rows))
        return
    _print(
        f"{runtime} {sys.version.split()[0]}",
        args.players,
        args.rounds,
        args.repeat,
        rows,
        ", no byte-code cache" if args.no_bytecode_cache and runtime == "cpython" else "",
    )
    if args.here or runtime == "pyodide":
        return
    sys.stdout.flush()
    proc = subprocess.run(
        [
            "node",
            str(ROOT / "bench" / "run_in_pyodide.mjs"),
            "bench.standings",
            "--here",
            "--players",
            str(args.players),
            "--rounds",
            str(args.rounds),
            "--repeat",
            str(min(args.repeat, 3)),
            "--rulesets",
            *args.rulesets,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    sys.stdout.write(proc.stdout)
    if proc.returncode:
        sys.stdout.write(f"pyodide run failed: {proc.stderr.strip().splitlines()[-1:]}\n")


if __name__ == "__main__":
    main()

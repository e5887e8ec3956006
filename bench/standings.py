"""Standings speed: the whole ``python -m shared_rules standings EVENT`` call for
every ruleset, 4,096 players after 12 Swiss rounds with drops, late players and
disputed tables, side by side with its floor and an independent minimal
implementation (issue #27: ≤ 2× the floor, ≤ 1.3× the minimal one, imports
≤ 50 ms; ≤ 1 s in-process inside Pyodide), with peak memory.

    .venv/bin/python -m bench.standings                 # CPython, then Pyodide under Node
    .venv/bin/python -m bench.standings --here          # only the runtime it runs in
    .venv/bin/python -m bench.standings --rulesets agot tribbles --repeat 9

For each ruleset, :func:`bench.events.swiss_event` makes a valid event document
(Tribbles in pods, Star Trek with scores, Shatterpoint with stats, ``custom``
with house rules; 10 % of the players drop after a random round, 2 % come late
and, in every round, the first tables are left unreported or disputed), written
to a temporary file. Figures, CPU time (user + system of the child process: the
machine is shared, so the goals are ratios taken in the same run):

- ``whole``: the command line as a subprocess, from process start to exit
  (interpreter start, imports, reading and validating the document, ranking,
  writing the JSON to /dev/null); best and median of ``--repeat`` runs, after
  one checked run whose output must equal the in-process result. The modules'
  byte-code caches are kept in the temporary directory (``PYTHONPYCACHEPREFIX``;
  the checked run writes them), as an installed package has them;
  ``--no-bytecode-cache`` compiles every module at each start instead. Not taken
  inside Pyodide (no processes there).
- ``floor``: a whole process that only starts the interpreter, reads the document, decodes its JSON
  and writes an answer of the command's size, encoded by ``json`` (a line per player with the
  standings' keys and tiebreaker names, the compact C encoder, padded with blanks to the size; best of
  ``--repeat``): what any Python program given this file spends; ``×floor`` = whole / floor (goal ≤ 2).
  ``bare``: the floor as first written, which writes ``size`` characters without encoding any JSON.
- ``minimal`` (Pokémon): ``bench/minimal_pokemon.py``, an independent minimal implementation, as a
  whole process; the benchmark first checks that it gives every player the CLI's points, record, OWP,
  OOWP and drop; ``×min`` = whole / minimal (goal ≤ 1.3).
- ``imports``: what the command's imports cost beyond the floor's (the interpreter's own start and
  ``json``; ``-X importtime``, best of ``--repeat``; goal ≤ 50 ms).
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


def bench_event(players: int, rounds: int, ruleset: str) -> dict:
    """The benchmark's event: 10 % drops, 2 % late players, unreported and disputed tables in every round."""
    return swiss_event(players, rounds, ruleset, drops=players // 10, late=players // 50, pending=8)


ROOT = Path(__file__).resolve().parent.parent
#: Issue #27's goals: the whole CLI process against its floor and the minimal implementation, and its
#: imports (CPython); issue #16's in-process goal inside Pyodide.
GOAL_FLOOR_RATIO = 2.0
GOAL_MINIMAL_RATIO = 1.3
GOAL_IMPORTS_MS = 50.0
GOAL_PYODIDE_S = 1.0
#: Rulesets the minimal implementation ranks (Pokémon TOP 3.1.4.1).
MINIMAL_RULESETS = ("pokemon-tcg", "pokemon-vg")
MINIMAL = Path(__file__).resolve().parent / "minimal_pokemon.py"


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


def _cpu(argv: list[str], env: dict[str, str]) -> float:
    """One whole process: its CPU seconds (user + system), its output to /dev/null."""
    import resource  # not in Pyodide, which runs no processes

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv[1:])} exited {proc.returncode}: {proc.stderr.decode().strip()[-300:]}")
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def _run_cli(path: str, env: dict[str, str]) -> float:
    """One whole CLI call: CPU seconds from spawn to exit."""
    return _cpu([sys.executable, "-m", "shared_rules", "standings", path], env)


def _top_level_imports_us(argv: list[str], env: dict[str, str]) -> dict[str, int]:
    """Cumulative microseconds of each top-level import of a process run with ``-X importtime``."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=True,
    )
    out = {}
    for line in proc.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            _, cumulative, name = line.split("|")
            if cumulative.strip().isdigit() and not name.startswith("  "):
                out[name.strip()] = int(cumulative)
    return out


def _imports_ms(path: str, env: dict[str, str]) -> float:
    """Milliseconds the standings command spends importing beyond what the floor imports (gc, json, sys)."""
    base = _top_level_imports_us(["-c", "import gc, json, sys"], env)
    found = _top_level_imports_us(["-m", "shared_rules", "standings", path], env)
    return sum(us for name, us in found.items() if name not in base) / 1000


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
# garbage collector paused, as the CLI pauses it), then encoding an answer-shaped value with the
# standard library's compact C encoder (one line per player with the standings' keys and the ruleset's
# tiebreaker names) and writing it padded with blanks to the command's size: the cheapest honest answer.
_FLOOR = """import gc, json, sys
gc.disable()
with open(sys.argv[1], encoding="utf-8") as fh:
    doc = json.loads(fh.read())
names = sys.argv[3].split(",") if sys.argv[3] else []
lines = [
    {"rank": n, "player": p["id"], "points": 0, "record": "0-0-0", "tiebreakers": dict.fromkeys(names, 0.5),
     "dropped": "dropped_after" in p}
    for n, p in enumerate(doc["players"], 1)
]
out = json.dumps({"standings": lines}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
sys.stdout.buffer.write(out + b" " * max(0, int(sys.argv[2]) - len(out)))
"""
# The floor as it was first written (issue #27's own figures imply more): start, read, decode, and
# write ``size`` characters without encoding anything.
_FLOOR_BARE = """import gc, json, sys
gc.disable()
with open(sys.argv[1], encoding="utf-8") as fh:
    json.loads(fh.read())
sys.stdout.write("x" * int(sys.argv[2]))
"""


def _floor(path: str, size: int, names: list[str], env: dict[str, str]) -> float:
    """One whole process that starts, reads and decodes the document and writes an answer of ``size``
    bytes encoded by ``json`` (one line per player, tiebreakers ``names``): CPU seconds."""
    return _cpu([sys.executable, "-c", _FLOOR, path, str(size), ",".join(names)], env)


def _floor_bare(path: str, size: int, env: dict[str, str]) -> float:
    """The bare floor: start, read and decode the document, write ``size`` characters, encode nothing."""
    return _cpu([sys.executable, "-c", _FLOOR_BARE, path, str(size)], env)


def check_minimal(doc: dict, lines: list) -> None:
    """Stop unless the minimal implementation gives every player the CLI's points, record, OWP, OOWP and drop."""
    sys.path.insert(0, str(MINIMAL.parent))
    try:
        import minimal_pokemon
    finally:
        sys.path.remove(str(MINIMAL.parent))
    mine = {row[0]: row for row in minimal_pokemon.standings(doc)}
    for line in lines:
        pid, points, record, owp, oowp, _, _, dropped = mine[line.player]
        got = (points, "{}-{}-{}".format(*record), owp / 10000, oowp / 10000, dropped)
        want = (line.points, line.record, line.tiebreakers["owp"], line.tiebreakers["oowp"], line.dropped)
        if got != want:
            raise SystemExit(f"the minimal implementation disagrees on {pid}: {got} against the CLI's {want}")


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
            doc = bench_event(players, rounds, ruleset)
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(doc, fh, ensure_ascii=False)
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
                size = len(text.encode("utf-8"))
                names = list(lines[0].tiebreakers) if lines else []
                row.update(
                    floor_s=round(min(_floor(path, size, names, env) for _ in range(repeat)), 3),
                    bare_floor_s=round(min(_floor_bare(path, size, env) for _ in range(repeat)), 3),
                    whole_best_s=round(min(times), 3),
                    whole_median_s=round(statistics.median(times), 3),
                    imports_ms=round(min(_imports_ms(path, env) for _ in range(repeat)), 1),
                    rss_mib=round(_cli_rss_mib(path, env), 1),
                )
                if ruleset in MINIMAL_RULESETS:
                    check_minimal(doc, lines)
                    minimal = [_cpu([sys.executable, str(MINIMAL), path], env) for _ in range(repeat)]
                    row["minimal_s"] = round(min(minimal), 3)
            del doc
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


def _ratio(value: float, anchor: float, goal: float) -> str:
    ratio = value / anchor if anchor else float("inf")
    return f"{ratio:.2f}× {'met' if ratio <= goal else 'NOT met'}"


def _print(runtime: str, players: int, rounds: int, repeat: int, rows: list[dict], note: str = "") -> None:
    load = "" if sys.platform == "emscripten" else f", load average {os.getloadavg()[0]:.2f}"
    print(f"{runtime}: {players} players, {rounds} rounds, best/median of {repeat}{load}{note}")
    whole = "whole_best_s" in rows[0]
    if whole:
        print("  CPU seconds (user + system) of whole processes; load/rank/out in-process wall seconds")
        print(
            f"  {'ruleset':<13} {'bare':>6} {'floor':>6} {'minimal':>7} {'whole':>6} {'median':>6} {'imports':>8}"
            f" {'load':>6} {'rank':>6} {'out':>6} {'peak MiB':>8} {'RSS MiB':>7}"
            f"  {'×floor (≤ ' + str(GOAL_FLOOR_RATIO) + ')':<16} {'×min (≤ ' + str(GOAL_MINIMAL_RATIO) + ')':<16}"
            f" imports ≤ {GOAL_IMPORTS_MS:.0f} ms"
        )
    else:
        print(
            f"  {'ruleset':<13} {'load':>6} {'rank':>6} {'out':>6} {'total':>6} {'peak MiB':>8}"
            f"  goal ≤ {GOAL_PYODIDE_S} s in-process"
        )
    for row in rows:
        if whole:
            minimal = row.get("minimal_s")
            print(
                f"  {row['ruleset']:<13} {row['bare_floor_s']:>6.3f} {row['floor_s']:>6.3f} {minimal if minimal is not None else '-':>7}"
                f" {row['whole_best_s']:>6.3f} {row['whole_median_s']:>6.3f} {row['imports_ms']:>5.1f} ms"
                f" {row['load_s']:>6.3f} {row['rank_s']:>6.3f} {row['out_s']:>6.3f}"
                f" {row['peak_mib']:>8.1f} {row['rss_mib']:>7.1f}"
                f"  {_ratio(row['whole_best_s'], row['floor_s'], GOAL_FLOOR_RATIO):<16}"
                f" {_ratio(row['whole_best_s'], minimal, GOAL_MINIMAL_RATIO) if minimal else '-':<16}"
                f" {'met' if row['imports_ms'] <= GOAL_IMPORTS_MS else 'NOT met'}"
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

"""Sync benchmark: gunicorn on loopback, 50 devices pushing at once, then one big pull.

    .venv/bin/python -m bench.sync [--devices 50] [--ops 20000] [--batch 10] [--workers 4] [--skip-postgres]
    .venv/bin/python -m bench.sync --growing [--players 512] [--rounds 8] [--workers 4] [--rate 20]
    .venv/bin/python -m bench.sync --cpu [--sizes 512x8,2000x6] [--workers 4] [--skip-postgres]

``--growing`` is a real event's shape, state that grows with it: the desk
registers the players, then each round is paired and started, and 50 judge
tablets report one result per push (one request per table), a tenth of the
tables get a correction from another tablet, a few players drop and late
entries register; the next round is paired once the results are in. It prints
accepted ops/s and push latency p50/p99 per round, and a staff and a player
pull of the whole log at the end.

``--cpu`` runs the growing event at each size on SQLite and PostgreSQL and prints, beside accepted ops/s and
p50/p99, the server's CPU per accepted one-result push: the user + system time the gunicorn workers used
while the round's results came in (from /proc), divided by those pushes (goal: <= 5 ms at 512 and 2,000
players on both stores). It is a CPU time, so it holds on a shared machine where the rates and latencies do
not; the push limits count every push as the default per-token limit does, only higher. Every player's phone is
subscribed to Web Push (``--subscribed N`` for fewer): each accepted result queues its notifications in the
outbox, whose sender is never started. To see where the workers' time goes, run it under
``bench/gunicorn_profile.py`` (its docstring says how).

By default the tablets push as fast as the server answers (closed loop): the
figures are the server's saturation throughput, and push latency is then the
queue of 50 waiting tablets (p50 ~ 50 / throughput). ``--rate R`` paces them
instead (open loop: the round's n-th push is sent at n / R seconds, by the
tablet it belongs to): latency is then what a tablet waits at that load. A real 512-player
round brings 256 results in its last 10-20 minutes, well under 1 push/s;
``--rate 20`` is twenty-five times that peak.

Targets (SQLite): >= 1,000 accepted operations per second from 50 concurrent
devices, and a pull of 20,000 operations in <= 0.3 s. The same figures are
printed for PostgreSQL when a throwaway cluster can be started
(scripts/postgres_for_tests.py), and then, on a PostgreSQL cluster that keeps
its durability, the transactions and WAL syncs per one-operation push
(``--commit-pushes``; goal: one durable commit per accepted push, the push's
own). Not a test: nothing asserts, it prints.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend import create_app  # noqa: E402
from backend.db import db  # noqa: E402
from tests.backend.helpers import Api, pair_ops, register_ops  # noqa: E402
from tests.backend.livegunicorn import Http, gunicorn  # noqa: E402

PLAYERS = [{"id": f"p{i:03d}", "name": f"Player {i}"} for i in range(1, 65)]


#: The server's cost is measured, not its rate limits (a bench device pushes far faster than a tablet does).
#: The per-token limit keeps the real one's cost: under ``LEASE_SHARE`` (backend/limits.py) a window, so every
#: push is counted in the shared counter as the default 300 a minute is.
UNLIMITED = {
    "TOPCUT_PUSH_LIMIT": "199 per second",
    "TOPCUT_PUSH_ADDRESS_LIMIT": "10000000 per minute",
    "TOPCUT_CREATE_EVENT_LIMIT": "10000000 per minute",
}


def prepare(url: str, tmp: Path, devices: int) -> tuple[str, str, list[str]]:
    # PUSH_SENDER external: no drainer lanes in this process (the server under test sends).
    app = create_app({"INSTANCE_PATH": tmp / "instance", "SQLALCHEMY_DATABASE_URI": url, "PUSH_SENDER": "external"})
    api = Api(app.test_client())
    created = api.create(name="Bench")
    eid, org = created["event_id"], created["token"]
    setup = register_ops(PLAYERS) + pair_ops(1, PLAYERS)
    setup[-1]["payload"]["duration_s"] = 3000
    api.push_ok(eid, org, "desk", setup)
    tokens = [api.staff_token(eid, org, "judge") for _ in range(devices)]
    with app.app_context():
        db.engine.dispose()
    return eid, org, tokens


def run(label: str, url: str, args: argparse.Namespace) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-"))
    try:
        eid, org, tokens = prepare(url, tmp, args.devices)
        per_device = args.ops // args.devices
        latencies: list[float] = []
        failures: list[str] = []
        lock = threading.Lock()
        barrier = threading.Barrier(args.devices + 1)

        def device(index: int, port: int) -> None:
            http = Http(port)
            seq, mine = 1, []
            barrier.wait()
            while seq <= per_device:
                size = min(args.batch, per_device - seq + 1)
                body = {
                    "device": f"tab-{index}",
                    "ops": [
                        {"seq": s, "op": {"type": "timer.extend", "payload": {"seconds": 1}}}
                        for s in range(seq, seq + size)
                    ],
                }
                t0 = time.perf_counter()
                status, answer = http.call("POST", f"/api/events/{eid}/push", body, tokens[index])
                mine.append(time.perf_counter() - t0)
                if status != 200 or any(v["status"] != "accepted" for v in answer["results"]):
                    with lock:
                        failures.append(f"{status} {str(answer)[:200]}")
                    break
                seq += size
            http.close()
            with lock:
                latencies.extend(mine)

        with gunicorn(url, workers=args.workers, tmp=tmp, env=UNLIMITED) as port:
            threads = [threading.Thread(target=device, args=(i, port), daemon=True) for i in range(args.devices)]
            for t in threads:
                t.start()
            barrier.wait()
            t0 = time.perf_counter()
            for t in threads:
                t.join()
            elapsed = time.perf_counter() - t0
            accepted = args.devices * per_device
            http = Http(port)
            pulls = []
            for _ in range(5):
                t1 = time.perf_counter()
                raw = http.raw_get(f"/api/events/{eid}/pull?cursor=0&limit=20000", org)
                pulls.append(time.perf_counter() - t1)
            body = json.loads(raw)
            http.close()
        print(
            f"[{label}] push: {accepted} operations from {args.devices} devices in batches of {args.batch} "
            f"({args.workers} gunicorn workers): {elapsed:.2f} s = {accepted / elapsed:,.0f} accepted ops/s; "
            f"request latency median {statistics.median(latencies) * 1000:.1f} ms, "
            f"p95 {sorted(latencies)[int(len(latencies) * 0.95)] * 1000:.1f} ms; failures: {len(failures)}"
        )
        if failures:
            print(f"[{label}]   first failure: {failures[0]}")
        print(
            f"[{label}] pull: {len(body['ops'])} operations ({len(raw) / 1e6:.1f} MB) "
            f"in best {min(pulls):.3f} s, median {statistics.median(pulls):.3f} s (5 pulls)"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _pg_counters(url: str) -> tuple[int, int, int]:
    """(transactions committed, rolled back, WAL syncs) of the whole cluster so far (PostgreSQL 14+)."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        committed, rolled_back = conn.execute(
            "SELECT sum(xact_commit), sum(xact_rollback) FROM pg_stat_database"
        ).fetchone()
        (syncs,) = conn.execute("SELECT wal_sync FROM pg_stat_wal").fetchone()
    return int(committed), int(rolled_back), int(syncs)


def run_commits(label: str, url: str, args: argparse.Namespace) -> None:
    """Durable commits per accepted push on PostgreSQL: one tablet pushing one operation at a time.

    The cluster keeps its durability (fsync, synchronous_commit on), so every commit that must reach the disk
    costs a WAL sync; pushes go one after another, so no two commits share one. The rate limits are the
    defaults (each push is counted per token and per address). The counters are read once the server has
    stopped (a backend reports its statistics when it exits).
    """
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-"))
    pushes = args.commit_pushes
    try:
        eid, _org, tokens = prepare(url, tmp, 1)
        time.sleep(1.5)  # the preparation's backends have exited and reported
        before = _pg_counters(url)
        with gunicorn(url, workers=1, tmp=tmp) as port:  # the real limits: they are what is measured
            http = Http(port)
            for seq in range(1, pushes + 1):
                body = {
                    "device": "tab-0",
                    "ops": [{"seq": seq, "op": {"type": "timer.extend", "payload": {"seconds": 1}}}],
                }
                status, answer = http.call("POST", f"/api/events/{eid}/push", body, tokens[0])
                assert status == 200 and answer["results"][0]["status"] == "accepted", answer
            http.close()
        time.sleep(1.5)
        after = _pg_counters(url)
        committed, rolled_back, syncs = (b - a for a, b in zip(before, after, strict=True))
        print(
            f"[{label}] durable commits: {pushes} one-operation pushes one after another: per accepted push "
            f"{committed / pushes:.2f} transactions committed, {rolled_back / pushes:.2f} rolled back, "
            f"{syncs / pushes:.2f} WAL syncs (goal: 1 durable commit, the push's own)"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _worker_memory(port: int) -> tuple[float, float]:
    """The gunicorn workers' largest resident set now and at its peak (MiB), from /proc (Linux)."""
    now = peak = 0.0
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
            status = (proc / "status").read_text()
        except OSError:
            continue
        if f"127.0.0.1:{port}".encode() not in cmdline or b"gunicorn" not in cmdline:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if int(fields["PPid"]) == os.getpid():
            continue  # the master, not a worker
        now = max(now, int(fields["VmRSS"].split()[0]) / 1024)
        peak = max(peak, int(fields["VmHWM"].split()[0]) / 1024)
    return now, peak


def _worker_cpu(port: int) -> dict[int, tuple[float, float]]:
    """CPU seconds (user, system) each gunicorn worker of ``port`` has used so far, by pid, from /proc (Linux)."""
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = {}
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
            stat = (proc / "stat").read_text()
        except OSError:
            continue
        if f"127.0.0.1:{port}".encode() not in cmdline or b"gunicorn" not in cmdline:
            continue
        fields = stat.rpartition(")")[2].split()  # after the command's name, which may hold spaces
        if int(fields[1]) == os.getpid():
            continue  # the master, not a worker
        cpu[int(proc.name)] = (int(fields[11]) / ticks, int(fields[12]) / ticks)  # utime, stime
    return cpu


def _cpu_spent(before: dict[int, tuple[float, float]], after: dict[int, tuple[float, float]]) -> tuple[float, float]:
    """CPU seconds (user, system) the workers used between two readings (a worker started since counts from 0)."""
    user = sum(u - before.get(pid, (0.0, 0.0))[0] for pid, (u, _) in after.items())
    system = sum(s - before.get(pid, (0.0, 0.0))[1] for pid, (_, s) in after.items())
    return user, system


#: Web Push on in the growing event's server, its outbox left to an external sender that the bench never starts:
#: each accepted result queues its notifications (the outbox rows, as a real event's pushes write them) and
#: nothing is sent.
#: ``--subscribed`` for every player of the event.
EVERY_PLAYER = 10**9
SUBSCRIBED_ENV = {"TOPCUT_VAPID_SUBJECT": "mailto:bench@topcut-bench.org", "TOPCUT_PUSH_SENDER": "external"}


def _subscribe_players(eid: str, count: int) -> None:
    """``count`` players' phones subscribed to the event's Web Push (rows as the subscribe endpoint leaves them)."""
    from backend.auth import new_token
    from backend.models import PushSubscription
    from backend.push.subscriptions import endpoint_hash

    for i in range(1, count + 1):
        token, _ = new_token(eid, "player", f"p{i:04d}")
        endpoint = f"https://push.example.com/wpush/bench/{eid}/{i}"
        db.session.add(
            PushSubscription(
                id=f"bench{i:027d}",
                event_id=eid,
                token_id=token.id,
                role="player",
                player=f"p{i:04d}",
                endpoint=endpoint,
                endpoint_hash=endpoint_hash(endpoint),
                p256dh="B" + "A" * 86,
                auth="A" * 22,
            )
        )
    db.session.commit()


def _outbox_rows(url: str, tmp: Path, eid: str) -> int:
    """How many notifications the server queued for the event (its push outbox's rows)."""
    from sqlalchemy import func, select

    from backend.models import PushOutbox

    app = create_app({"INSTANCE_PATH": tmp / "instance", "SQLALCHEMY_DATABASE_URI": url, "PUSH_SENDER": "external"})
    with app.app_context():
        count = db.session.scalar(select(func.count()).select_from(PushOutbox).where(PushOutbox.event_id == eid))
        db.engine.dispose()
    return int(count or 0)


def _growing_prepare(
    url: str, tmp: Path, devices: int, players: int, subscribed: int = 0
) -> tuple[str, str, list[str], str]:
    # PUSH_SENDER external: no drainer lanes in this process (the server under test sends).
    app = create_app({"INSTANCE_PATH": tmp / "instance", "SQLALCHEMY_DATABASE_URI": url, "PUSH_SENDER": "external"})
    api = Api(app.test_client())
    created = api.create(name="Regional", ruleset="pokemon-tcg")
    eid, org = created["event_id"], created["token"]
    roster = [{"id": f"p{i:04d}", "name": f"Player {i}"} for i in range(1, players + 1)]
    ops = register_ops(roster)
    for start in range(0, len(ops), 500):  # a push takes at most 500 operations
        api.push_ok(eid, org, "desk", ops[start : start + 500], first_seq=start + 1)
    tokens = [api.staff_token(eid, org, "judge") for _ in range(devices)]
    player = api.redeem(api.claims(eid, org)["p0001"])["token"]
    with app.app_context():
        _subscribe_players(eid, min(subscribed, players))
        db.engine.dispose()
    return eid, org, tokens, player


def run_growing(label: str, url: str, args: argparse.Namespace) -> dict[str, Any]:
    """A growing event through gunicorn: rounds of one-result pushes from 50 tablets."""
    import random

    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-"))
    try:
        subscribed = min(getattr(args, "subscribed", 0), args.players)
        eid, org, tokens, player = _growing_prepare(url, tmp, args.devices, args.players, subscribed)
        server_env = {**UNLIMITED, **(SUBSCRIBED_ENV if subscribed else {})}
        rng = random.Random(f"growing/{args.players}")
        desk_seq = args.players + 1
        active = [f"p{i:04d}" for i in range(1, args.players + 1)]
        device_seq = [1] * args.devices
        all_latencies: list[float] = []
        rows = []
        with gunicorn(url, workers=args.workers, tmp=tmp, env=server_env) as port:
            desk = Http(port)

            def desk_push(ops):
                nonlocal desk_seq
                body = {"device": "desk", "ops": [{"seq": desk_seq + i, "op": op} for i, op in enumerate(ops)]}
                status, answer = desk.call("POST", f"/api/events/{eid}/push", body, org)
                assert status == 200 and all(v["status"] == "accepted" for v in answer["results"]), answer
                desk_seq += len(ops)

            for number in range(1, args.rounds + 1):
                rng.shuffle(active)
                if len(active) % 2:
                    active.append(f"late{number}")  # a late entry evens the field
                    desk_push([{"type": "player.register", "payload": {"player": {"id": active[-1], "name": "Late"}}}])
                tables = [[active[i], active[i + 1]] for i in range(0, len(active), 2)]
                desk_push(
                    [
                        {
                            "type": "round.pair",
                            "payload": {
                                "number": number,
                                "matches": [{"table": t + 1, "players": ps} for t, ps in enumerate(tables)],
                            },
                        },
                        {"type": "round.start", "payload": {"number": number, "duration_s": 3000}},
                    ]
                )
                # (the push's place in the round's sequence of pushes, the operation) per tablet
                work: list[list[tuple[int, dict]]] = [[] for _ in range(args.devices)]
                for t in range(len(tables)):
                    work[t % args.devices].append(
                        (
                            t,
                            {
                                "type": "result.report",
                                "payload": {"round": number, "table": t + 1, "outcomes": ["win", "loss"]},
                            },
                        )
                    )
                for k, t in enumerate(range(0, len(tables), 10)):  # a correction from another tablet
                    work[(t + 1) % args.devices].append(
                        (
                            len(tables) + k,
                            {
                                "type": "result.correct",
                                "payload": {"round": number, "table": t + 1, "outcomes": ["loss", "win"]},
                            },
                        )
                    )
                latencies: list[float] = []
                lock = threading.Lock()

                def device(index: int) -> None:
                    http = Http(port)
                    mine = []
                    for place, op in work[index]:
                        if args.rate:  # open loop: the round's n-th push is due at n / rate seconds
                            time.sleep(max(0.0, started + place / args.rate - time.perf_counter()))
                        body = {"device": f"tab-{index}", "ops": [{"seq": device_seq[index], "op": op}]}
                        sent = time.perf_counter()
                        status, answer = http.call("POST", f"/api/events/{eid}/push", body, tokens[index])
                        mine.append(time.perf_counter() - sent)
                        assert status == 200, answer
                        device_seq[index] += 1
                    http.close()
                    with lock:
                        latencies.extend(mine)

                threads = [threading.Thread(target=device, args=(i,), daemon=True) for i in range(args.devices)]
                cpu_before = _worker_cpu(port)
                started = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                elapsed = time.perf_counter() - started
                user, system = _cpu_spent(cpu_before, _worker_cpu(port))
                drops = [active.pop() for _ in range(2)]  # two players drop after the round
                desk_push([{"type": "player.drop", "payload": {"player": pid}} for pid in drops])
                latencies.sort()
                all_latencies.extend(latencies)
                rows.append(
                    (
                        number,
                        len(latencies),
                        len(latencies) / elapsed,
                        latencies[len(latencies) // 2],
                        latencies[int(len(latencies) * 0.99)],
                        user + system,
                        system,
                    )
                )
            pulls = {}
            for who, token in (("staff", org), ("player", player)):
                times = []
                for _ in range(3):
                    t1 = time.perf_counter()
                    raw = desk.raw_get(f"/api/events/{eid}/pull?cursor=0&limit=20000", token)
                    times.append(time.perf_counter() - t1)
                pulls[who] = (min(times), len(json.loads(raw)["ops"]))
            desk.close()
            rss, hwm = _worker_memory(port)
        pace = f"paced at {args.rate:g} pushes/s in all" if args.rate else "each as fast as the server answers"
        print(
            f"[{label}] growing event: {args.players} players, {args.devices} tablets ({pace}), one result per "
            f"push, {args.workers} gunicorn workers, {subscribed} players' phones subscribed to Web Push"
        )
        if subscribed:
            print(f"[{label}] push outbox: {_outbox_rows(url, tmp, eid)} notifications queued (none sent)")
        print(f"[{label}] round | pushes | accepted ops/s | push p50 ms | push p99 ms | server CPU ms/push")
        for number, count, rate, p50, p99, cpu, _system in rows:
            print(
                f"[{label}] {number:5d} | {count:6d} | {rate:14,.0f} | {p50 * 1000:11.1f} | {p99 * 1000:11.1f} | "
                f"{cpu / count * 1000:18.2f}"
            )
        all_latencies.sort()
        pushes = len(all_latencies)
        total_cpu = sum(row[5] for row in rows)
        total_system = sum(row[6] for row in rows)
        summary = {
            "store": label,
            "players": args.players,
            "rounds": args.rounds,
            "pushes": pushes,
            "ops_s": pushes / sum(row[1] / row[2] for row in rows),
            "p50_ms": all_latencies[pushes // 2] * 1000,
            "p99_ms": all_latencies[int(pushes * 0.99)] * 1000,
            "cpu_ms": total_cpu / pushes * 1000,
            "system_ms": total_system / pushes * 1000,
            "subscribed": subscribed,
        }
        print(
            f"[{label}] all   | {pushes:6d} | {summary['ops_s']:14,.0f} | {summary['p50_ms']:11.1f} | "
            f"{summary['p99_ms']:11.1f} | {summary['cpu_ms']:18.2f}"
        )
        for who, (best, count) in pulls.items():
            print(f"[{label}] {who} pull of the whole log ({count} operations): best {best:.3f} s")
        print(f"[{label}] largest gunicorn worker: {rss:.0f} MiB resident at the end, {hwm:.0f} MiB at its peak")
        return summary
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _postgres() -> Any:
    """scripts/postgres_for_tests.py, loaded as a module."""
    spec = importlib.util.spec_from_file_location("postgres_for_tests", ROOT / "scripts" / "postgres_for_tests.py")
    pg = importlib.util.module_from_spec(spec)
    sys.modules["postgres_for_tests"] = pg
    spec.loader.exec_module(pg)
    return pg


def cpu_main(args: argparse.Namespace) -> int:
    """The growing event at each size on both stores, then one table: CPU per push beside ops/s and p50/p99."""
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    summaries = []

    def each_size(label: str, url_for: Callable[[int], str]) -> None:
        for players, rounds in sizes:
            summaries.append(
                run_growing(
                    label, url_for(players), argparse.Namespace(**{**vars(args), "players": players, "rounds": rounds})
                )
            )

    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-sqlite-"))
    try:
        each_size("sqlite", lambda players: f"sqlite:///{tmp / f'bench-{players}.sqlite'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not args.skip_postgres:
        pg = _postgres()
        try:
            with pg.throwaway_cluster() as cluster:
                each_size("postgresql", lambda players: _fresh_database(cluster.url, f"bench{players}"))
        except pg.PostgresUnavailable as exc:
            print(f"[postgresql] skipped: {exc}")
    print()
    print(
        f"server CPU per accepted one-result push ({args.workers} gunicorn workers, {args.devices} tablets, "
        f"{'every' if args.subscribed >= EVERY_PLAYER else args.subscribed} players' phones subscribed to Web Push; "
        "goal <= 5 ms)"
    )
    print(
        "store      | players x rounds | pushes | accepted ops/s | push p50 ms | push p99 ms | CPU ms/push "
        "(of it system)"
    )
    for row in summaries:
        print(
            f"{row['store']:10} | {row['players']:7d} x {row['rounds']:<6d} | {row['pushes']:6d} | "
            f"{row['ops_s']:14,.0f} | {row['p50_ms']:11.1f} | {row['p99_ms']:11.1f} | {row['cpu_ms']:11.2f} ({row['system_ms']:.2f})"
        )
    return 0


def _fresh_database(url: str, name: str) -> str:
    """A new empty database named ``name`` on the cluster of ``url``; its URL."""
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rpartition("/")[0] + "/" + name


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--growing", action="store_true", help="the growing-event workload (see the docstring)")
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--devices", type=int, default=50)
    parser.add_argument("--ops", type=int, default=20_000, help="operations pushed in total")
    parser.add_argument("--batch", type=int, default=20, help="operations per push (a device sends its pending queue)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="--growing: pushes per second from all tablets together (default: as fast as answered)",
    )
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument(
        "--commit-pushes",
        type=int,
        default=200,
        help="PostgreSQL: one-operation pushes counted for durable commits (under PUSH_LIMIT's 300 a minute)",
    )
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="server CPU per one-result push: the growing event at each of --sizes on SQLite and PostgreSQL",
    )
    parser.add_argument("--sizes", default="512x8,2000x6", help="--cpu: players x rounds, comma-separated")
    parser.add_argument(
        "--subscribed",
        type=int,
        default=None,
        help="--growing/--cpu: players whose phones are subscribed to Web Push (--cpu default: every player; "
        "--growing default: none)",
    )
    args = parser.parse_args()
    if args.cpu:
        args.subscribed = EVERY_PLAYER if args.subscribed is None else args.subscribed
        return cpu_main(args)
    args.subscribed = args.subscribed or 0
    runner = run_growing if args.growing else run
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-sqlite-"))
    try:
        runner("sqlite", f"sqlite:///{tmp / 'bench.sqlite'}", args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.skip_postgres:
        return 0
    pg = _postgres()
    try:
        with pg.throwaway_cluster() as cluster:
            runner("postgresql", cluster.url, args)
        with pg.throwaway_cluster(durable=True) as cluster:
            run_commits("postgresql", cluster.url, args)
    except pg.PostgresUnavailable as exc:
        print(f"[postgresql] skipped: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

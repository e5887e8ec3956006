"""Players' phones on a big event: the server-rendered player view against the old log-based pull, side by side.

    .venv/bin/python -m bench.player_pull [--players 2000] [--rounds 6] [--database sqlite postgresql]
                                          [--workers 4] [--phones 2000]

The event grows the real way in this process (registrations, then per round a pairing, publish, start and one
result per table, pushed by the desk, plus a penalty; every player claims their phone), then gunicorn serves it
with ``--workers`` sync workers on the same database, and a client here measures over loopback, as a hall's
phones would ask (gzip accepted):

* **first view cold**: the first ``GET /view`` each fresh worker answers (nothing in memory: it loads the log's
  snapshot and the shared parts from the database); **warm**: the median after;
* **old pull cold / warm**: a player's first ``GET /pull?cursor=0`` (the whole log in the player's view) on a
  fresh worker, and after;
* **up-to-date CPU**: the workers' CPU time (from /proc) per ``GET /view`` answered 304 with ``If-None-Match``;
  **capacity**: 304 answers per second with 4 client processes asking as fast as they can;
* **catch-up**: the desk pairs and publishes the next round, then 2,000 phones (32 at a time) pull the new view
  with their old ETag: seconds until every phone has it.

Goals (issue 26): first view <= 0.3 s even cold; up-to-date <= 2 ms of server CPU (>= 500/s here); catch-up of
2,000 phones <= 10 s. Not a test: it prints one table per database. PostgreSQL: TOPCUT_TEST_POSTGRES_URL, else a
throwaway cluster (scripts/postgres_for_tests.py).
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend import create_app  # noqa: E402
from backend.db import db  # noqa: E402
from tests.backend.helpers import Api, bearer  # noqa: E402
from tests.backend.livegunicorn import gunicorn  # noqa: E402

UNLIMITED = {
    "TOPCUT_PUSH_LIMIT": "10000000 per minute",
    "TOPCUT_PUSH_ADDRESS_LIMIT": "10000000 per minute",
    "TOPCUT_CREATE_EVENT_LIMIT": "10000000 per minute",
    "TOPCUT_REDEEM_FAILURES_LIMIT": "10000000 per minute",
    "TOPCUT_PUSH_SENDER": "external",
}


def _round_ops(number: int, players: int) -> list[dict]:
    matches = [
        {"table": t + 1, "players": [f"p{(2 * t + number) % players}", f"p{(2 * t + 1 + number) % players}"]}
        for t in range(players // 2)
    ]
    return [
        {"type": "round.pair", "payload": {"number": number, "matches": matches}},
        {"type": "round.publish", "payload": {"number": number}},
        {"type": "round.start", "payload": {"number": number, "duration_s": 3000}},
    ]


class _Desk:
    """The organizer's device: pushes in batches of 500, numbering its operations."""

    def __init__(self, api: Api, eid: str, org: str) -> None:
        self.api, self.eid, self.org, self.seq = api, eid, org, 1

    def push(self, ops: list[dict]) -> None:
        for i in range(0, len(ops), 500):
            batch = ops[i : i + 500]
            self.api.push_ok(self.eid, self.org, "desk", batch, first_seq=self.seq)
            self.seq += len(batch)


def build(url: str, tmp: Path, players: int, rounds: int) -> tuple[str, str, list[str], int]:
    """The event on the database: (event id, organizer token, every player's token, the desk's next seq)."""
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": url, "INSTANCE_PATH": str(tmp / "instance"), "PUSH_SENDER": "external"}
        | {k.removeprefix("TOPCUT_"): v for k, v in UNLIMITED.items()}
    )
    api = Api(app.test_client())
    event = api.create(ruleset="pokemon-tcg", name="Regional")
    desk = _Desk(api, event["event_id"], event["token"])
    desk.push(
        [
            {"type": "player.register", "payload": {"player": {"id": f"p{i}", "name": f"Player {i}"}}}
            for i in range(players)
        ]
    )
    for r in range(1, rounds + 1):
        desk.push(_round_ops(r, players))
        desk.push(
            [
                {"type": "result.report", "payload": {"round": r, "table": t + 1, "outcomes": ["win", "loss"]}}
                for t in range(players // 2)
            ]
        )
    desk.push([{"type": "penalty.issue", "payload": {"player": "p5", "kind": "warning", "reason": "slow play"}}])
    codes = api.claims(desk.eid, desk.org)
    tokens = [api.redeem(codes[f"p{i}"])["token"] for i in range(players)]
    with app.app_context():
        db.engine.dispose()
    return desk.eid, desk.org, tokens, desk.seq


class _Client:
    """One keep-alive connection asking as a phone does (gzip accepted)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def get(self, path: str, token: str, etag: str | None = None) -> tuple[int, float, str | None, int]:
        headers = {**bearer(token), "Accept-Encoding": "gzip"}
        if etag:
            headers["If-None-Match"] = etag
        started = time.perf_counter()
        self.conn.request("GET", path, headers=headers)
        response = self.conn.getresponse()
        data = response.read()
        took = time.perf_counter() - started
        return response.status, took, response.getheader("ETag"), len(data)


def _workers_up(port: int, workers: int) -> None:
    """Wait until every worker answers (started, its database checked): a cold worker is one that is up and
    holds nothing of the event, not one still starting."""
    deadline = time.monotonic() + 120
    while len(_worker_pids(port)) < workers and time.monotonic() < deadline:
        time.sleep(0.2)
    for _ in range(8 * workers):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.request("GET", "/api/openapi.json")
        conn.getresponse().read()
        conn.close()


def _worker_pids(port: int) -> list[int]:
    """The gunicorn workers serving ``port`` (children of the master), from /proc."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
            stat = Path(f"/proc/{pid}/stat").read_text().split()
        except OSError:
            continue
        if b"gunicorn" in cmdline and f"127.0.0.1:{port}".encode() in cmdline:
            found.append((int(pid), int(stat[3])))
    pids = {pid for pid, _ in found}
    return [pid for pid, parent in found if parent in pids]


def _cpu_s(pids: list[int]) -> float:
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        stat = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        total += int(stat[11]) + int(stat[12])  # utime, stime
    return total / ticks


def _hammer(port: int, path: str, token: str, etag: str, seconds: float, out: multiprocessing.Queue) -> None:
    client, count, until = _Client(port), 0, time.perf_counter() + seconds
    while time.perf_counter() < until:
        status, _, _, _ = client.get(path, token, etag)
        assert status == 304, status
        count += 1
    out.put(count)


def measure(database: str, url: str, args: argparse.Namespace) -> list[tuple[str, str]]:
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-view-"))
    eid, org, tokens, seq = build(url, tmp, args.players, args.rounds)
    view, pull = f"/api/events/{eid}/view", f"/api/events/{eid}/pull?cursor=0"
    rows: list[tuple[str, str]] = []
    with gunicorn(url, workers=args.workers, tmp=tmp, env=UNLIMITED) as port:
        _workers_up(port, args.workers)
        # Fresh workers: the first view each one answers is cold. Connections are spread over the workers by the
        # kernel, so 4 x workers first requests from new connections find every worker cold at least once.
        firsts = []
        for i in range(4 * args.workers):
            status, took, _, size = _Client(port).get(view, tokens[i])
            assert status == 200, status
            firsts.append(took)
        client = _Client(port)
        warm = [client.get(view, tokens[i])[1] for i in range(20)]
        status, _, etag, size = client.get(view, tokens[0])
        rows += [
            ("first view, cold worker (s)", f"{max(firsts[: args.workers * 2]):.3f}"),
            ("first view, warm (s, median)", f"{statistics.median(warm):.3f}"),
            ("view size (kB gzip)", f"{size / 1000:.0f}"),
        ]
    with gunicorn(url, workers=args.workers, tmp=tmp, env=UNLIMITED) as port:
        _workers_up(port, args.workers)
        firsts = [_Client(port).get(pull, tokens[i])[1] for i in range(2 * args.workers)]
        client = _Client(port)
        warm = [client.get(pull, tokens[i])[1] for i in range(5)]
        size = client.get(pull, tokens[0])[3]
        rows += [
            ("old pull, cold worker (s)", f"{max(firsts):.3f}"),
            ("old pull, warm (s, median)", f"{statistics.median(warm):.3f}"),
            ("old pull size (kB gzip)", f"{size / 1000:.0f}"),
        ]
    with gunicorn(url, workers=args.workers, tmp=tmp, env=UNLIMITED) as port:
        client = _Client(port)
        etags = {}
        for token in tokens[: args.phones]:
            status, _, etag, _ = client.get(view, token)
            assert status == 200
            etags[token] = etag
        pids = _worker_pids(port)
        token = tokens[1]
        before, n = _cpu_s(pids), 2000
        for _ in range(n):
            assert client.get(view, token, etags[token])[0] == 304
        cpu = (_cpu_s(pids) - before) / n
        queue: multiprocessing.Queue = multiprocessing.Queue()
        seconds = 5.0
        procs = [
            multiprocessing.Process(target=_hammer, args=(port, view, token, etags[token], seconds, queue))
            for _ in range(4)
        ]
        for p in procs:
            p.start()
        answered = sum(queue.get() for _ in procs)
        for p in procs:
            p.join()
        rows += [
            ("up-to-date view: server CPU (ms)", f"{cpu * 1000:.2f}"),
            ("up-to-date views answered (/s)", f"{answered / seconds:.0f}"),
        ]
        # Catch-up: the next round is paired and published; every phone pulls with its old ETag.
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "INSTANCE_PATH": str(tmp / "instance2"), "PUSH_SENDER": "external"}
        )
        api = Api(app.test_client())
        desk = _Desk(api, eid, org)
        desk.seq = seq
        desk.push(_round_ops(args.rounds + 1, args.players)[:2])  # paired and published, not started
        with app.app_context():
            db.engine.dispose()
        todo = list(etags.items())
        lock = threading.Lock()
        fresh = [0]

        def phone_loop() -> None:
            phone = _Client(port)
            while True:
                with lock:
                    if not todo:
                        return
                    token, etag = todo.pop()
                status, _, _, _ = phone.get(view, token, etag)
                assert status == 200, status
                with lock:
                    fresh[0] += 1

        started = time.perf_counter()
        threads = [threading.Thread(target=phone_loop) for _ in range(32)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        rows.append((f"catch-up of {fresh[0]:,} phones (s)", f"{time.perf_counter() - started:.1f}"))
    return rows


def _postgres(tmp: Path) -> str:
    url = os.environ.get("TOPCUT_TEST_POSTGRES_URL")
    if url:
        return url
    spec = importlib.util.spec_from_file_location("postgres_for_tests", ROOT / "scripts" / "postgres_for_tests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["postgres_for_tests"] = module
    spec.loader.exec_module(module)
    cluster = module.start(tmp)
    _CLUSTERS.append(cluster)
    return str(cluster.url)


_CLUSTERS: list = []


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--phones", type=int, default=2000)
    parser.add_argument("--database", nargs="+", default=["sqlite", "postgresql"], choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    results = {}
    try:
        for database in args.database:
            tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-db-"))
            url = f"sqlite:///{tmp / 'bench.sqlite'}" if database == "sqlite" else _postgres(tmp)
            results[database] = measure(database, url, args)
    finally:
        for cluster in _CLUSTERS:
            cluster.stop()
    names = [name for name, _ in next(iter(results.values()))]
    width = max(len(n) for n in names)
    print(
        f"{args.players:,} players x {args.rounds} rounds, gunicorn {args.workers} workers".ljust(width)
        + "".join(f"  {d:>10}" for d in results)
    )
    for i, name in enumerate(names):
        print(name.ljust(width) + "".join(f"  {results[d][i][1]:>10}" for d in results))
    from bench.install import _client, build_manifest, install_bytes

    manifest = build_manifest()
    if manifest is not None:  # the same run: what each kind of device downloads to install the app
        for device, count, sent, _ in install_bytes(_client(), manifest, "gzip, deflate, br"):
            print(f"install, {device} (brotli)".ljust(width) + f"  {sent / 1e6:>8.3f}MB  ({count} requests)")
    print(
        "goals: first view <= 0.3 s cold; up-to-date <= 2 ms CPU (>= 500/s); catch-up of 2,000 phones <= 10 s; "
        "a player's install <= 1 MB"
    )


if __name__ == "__main__":
    main()

"""Sync benchmark: gunicorn on loopback, 50 devices pushing at once, then one big pull.

    .venv/bin/python -m bench.sync [--devices 50] [--ops 20000] [--batch 10] [--workers 4] [--skip-postgres]

Targets (SQLite): >= 1,000 accepted operations per second from 50 concurrent
devices, and a pull of 20,000 operations in <= 0.3 s. The same figures are
printed for PostgreSQL when a throwaway cluster can be started
(scripts/postgres_for_tests.py). Not a test: nothing asserts, it prints.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
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
from tests.backend.helpers import Api, pair_ops, register_ops  # noqa: E402
from tests.backend.livegunicorn import Http, gunicorn  # noqa: E402

PLAYERS = [{"id": f"p{i:03d}", "name": f"Player {i}"} for i in range(1, 65)]


def prepare(url: str, tmp: Path, devices: int) -> tuple[str, str, list[str]]:
    app = create_app({"INSTANCE_PATH": tmp / "instance", "SQLALCHEMY_DATABASE_URI": url})
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
                body = {"device": f"tab-{index}", "ops": [
                    {"seq": s, "op": {"type": "timer.extend", "payload": {"seconds": 1}}} for s in range(seq, seq + size)]}
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

        with gunicorn(url, workers=args.workers, tmp=tmp) as port:
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
        print(f"[{label}] push: {accepted} operations from {args.devices} devices in batches of {args.batch} "
              f"({args.workers} gunicorn workers): {elapsed:.2f} s = {accepted / elapsed:,.0f} accepted ops/s; "
              f"request latency median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p95 {sorted(latencies)[int(len(latencies) * 0.95)] * 1000:.1f} ms; failures: {len(failures)}")
        if failures:
            print(f"[{label}]   first failure: {failures[0]}")
        print(f"[{label}] pull: {len(body['ops'])} operations ({len(raw) / 1e6:.1f} MB) "
              f"in best {min(pulls):.3f} s, median {statistics.median(pulls):.3f} s (5 pulls)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", type=int, default=50)
    parser.add_argument("--ops", type=int, default=20_000, help="operations pushed in total")
    parser.add_argument("--batch", type=int, default=20, help="operations per push (a device sends its pending queue)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--skip-postgres", action="store_true")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-sqlite-"))
    try:
        run("sqlite", f"sqlite:///{tmp / 'bench.sqlite'}", args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if args.skip_postgres:
        return 0
    spec = importlib.util.spec_from_file_location("postgres_for_tests", ROOT / "scripts" / "postgres_for_tests.py")
    pg = importlib.util.module_from_spec(spec)
    sys.modules["postgres_for_tests"] = pg
    spec.loader.exec_module(pg)
    try:
        with pg.throwaway_cluster() as cluster:
            run("postgresql", cluster.url, args)
    except pg.PostgresUnavailable as exc:
        print(f"[postgresql] skipped: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

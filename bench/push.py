"""Push benchmark: pair a round for N subscribed players; time the deliveries at a push service's latency.

    .venv/bin/python -m bench.push [--players 1000 2000] [--latency-ms 100 300] [--database sqlite postgresql]

For each database, player count and latency, the app runs in this process
(Flask test client for the pairing request, the background drainer lanes as
in a gunicorn worker) and the local fake push service (tests/fakepush.py)
answers each request after the given latency, having verified its VAPID
signature and decrypted its aes128gcm body. Goal: 2,000 notifications in
<= 10 s at 300 ms; the pairing request itself returns in <= 0.2 s. Not a
test: it prints one table.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend import create_app  # noqa: E402
from backend.auth import new_token  # noqa: E402
from backend.db import db  # noqa: E402
from backend.models import PushSubscription  # noqa: E402
from backend.push.queue import drainer  # noqa: E402
from backend.push.subscriptions import endpoint_hash  # noqa: E402
from tests.backend.helpers import Api, register_ops  # noqa: E402
from tests.fakepush import SUBJECT, FakePushService  # noqa: E402


@dataclass(frozen=True)
class Row:
    database: str
    notifications: int
    delivered: int
    latency_ms: int
    request_s: float
    total_s: float
    max_in_flight: int
    errors: int

    @property
    def per_second(self) -> float:
        return self.delivered / self.total_s if self.total_s else 0.0


@contextmanager
def database(kind: str, tmp: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'bench.sqlite'}"
        return
    spec = importlib.util.spec_from_file_location("pg", ROOT / "scripts" / "postgres_for_tests.py")
    pg = importlib.util.module_from_spec(spec)
    sys.modules["pg"] = pg
    spec.loader.exec_module(pg)
    with pg.throwaway_cluster(tmp / "pg") as cluster:
        yield cluster.url


def run(url: str, kind: str, tmp: Path, count: int, latency_ms: int) -> Row:
    with FakePushService(latency=latency_ms / 1000) as fake:
        app = create_app(
            {
                "INSTANCE_PATH": tmp / "instance",
                "SQLALCHEMY_DATABASE_URI": url,
                "PUSH_ALLOWED_HOSTS": [fake.host],
                "VAPID_SUBJECT": SUBJECT,
                "PUSH_WORKER": True,
            }
        )
        fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
        api = Api(app.test_client())
        created = api.create(name="Bench Regional")
        eid, org = created["event_id"], created["token"]
        players = [{"id": f"p{i:04d}", "name": f"Trainer{i} Surname{i}"} for i in range(count)]
        seq = 0
        for start in range(0, count, 250):
            chunk = register_ops(players[start : start + 250])
            api.push_ok(eid, org, "desk", chunk, first_seq=seq + 1)
            seq += len(chunk)
        with app.app_context():
            for p in players:  # what N phones' POST /push/subscriptions leave behind, made in bulk
                token, _ = new_token(eid, "player", p["id"])
                sub = fake.subscribe()
                db.session.add(
                    PushSubscription(
                        id=sub.id,
                        event_id=eid,
                        token_id=token.id,
                        role="player",
                        player=p["id"],
                        endpoint=sub.endpoint,
                        endpoint_hash=endpoint_hash(sub.endpoint),
                        p256dh=sub.info["keys"]["p256dh"],
                        auth=sub.info["keys"]["auth"],
                    )
                )
            db.session.commit()
        drainer(app).ensure_started()
        ids = [p["id"] for p in players]
        matches = [{"table": i // 2 + 1, "players": ids[i : i + 2]} for i in range(0, count - count % 2, 2)]
        if count % 2:
            matches.append({"players": [ids[-1]], "outcomes": ["bye"]})
        ops = [
            {"type": "round.pair", "payload": {"number": 1, "matches": matches}},
            {"type": "round.publish", "payload": {"number": 1}},
        ]
        started = time.perf_counter()
        api.push_ok(eid, org, "desk", ops, first_seq=seq + 1)
        request_s = time.perf_counter() - started
        delivered = fake.wait_for(count, timeout=120)
        total_s = time.perf_counter() - started
        drainer(app).stop()
        with app.app_context():
            db.engine.dispose()
        return Row(kind, count, len(delivered), latency_ms, request_s, total_s, fake.max_in_flight, len(fake.errors))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[1000, 2000])
    parser.add_argument("--latency-ms", type=int, nargs="+", default=[100, 300])
    parser.add_argument("--database", choices=("sqlite", "postgresql"), nargs="+", default=["sqlite", "postgresql"])
    args = parser.parse_args()
    rows: list[Row] = []
    for kind in args.database:
        tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-push-"))
        try:
            with database(kind, tmp) as base_url:
                for n, (count, latency) in enumerate((c, ms) for c in args.players for ms in args.latency_ms):
                    url = base_url if kind == "postgresql" else f"sqlite:///{tmp / f'bench{n}.sqlite'}"
                    if kind == "postgresql":
                        url = _fresh_pg(base_url, f"bench{n}")
                    rows.append(run(url, kind, tmp / f"run{n}", count, latency))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    print(
        "Web Push delivery: pairing a round notifies every player (encrypted, VAPID-signed, verified and "
        "decrypted by the fake push service); goal 2,000 at 300 ms in <= 10 s"
    )
    print(
        f"{'database':<11}{'notifications':>14}{'latency':>9}{'request':>9}{'total':>9}{'per s':>8}"
        f"{'in flight':>11}{'errors':>8}"
    )
    for r in rows:
        print(
            f"{r.database:<11}{r.delivered:>7}/{r.notifications:<6}{r.latency_ms:>6} ms{r.request_s * 1000:>6.0f} ms"
            f"{r.total_s:>7.2f} s{r.per_second:>8.0f}{r.max_in_flight:>11}{r.errors:>8}"
        )


def _fresh_pg(server_url: str, name: str) -> str:
    import psycopg

    with psycopg.connect(server_url.replace("+psycopg", ""), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server_url.rpartition("/")[0] + "/" + name


if __name__ == "__main__":
    main()

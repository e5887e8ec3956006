"""Push benchmark: pair a round for 1,000 subscribed players; time the request and the deliveries.

    .venv/bin/python -m bench.push [--players 1000] [--database sqlite|postgresql] [--threads 16]

The app runs in this process (Flask test client for the request, one background
drainer thread as in a gunicorn worker) on SQLite; the local fake push service
(tests/fakepush.py) verifies each request's VAPID signature and decrypts its
aes128gcm body. Targets: the pairing request returns in <= 0.2 s and all
1,000 encrypted notifications reach the push service within 20 s. Not a test:
it prints its figures.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
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
from tests.fakepush import FakePushService  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-push-"))
    cluster = None
    try:
        if args.database == "postgresql":
            import importlib.util

            spec = importlib.util.spec_from_file_location("pg", ROOT / "scripts" / "postgres_for_tests.py")
            pg = importlib.util.module_from_spec(spec)
            sys.modules["pg"] = pg
            spec.loader.exec_module(pg)
            cluster = pg.start(tmp / "pg")
            url = cluster.url
        else:
            url = f"sqlite:///{tmp / 'bench.sqlite'}"
        run(url, tmp, args.players, args.threads)
    finally:
        if cluster is not None:
            cluster.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def run(url: str, tmp: Path, count: int, threads: int) -> None:
    with FakePushService() as fake:
        app = create_app({"INSTANCE_PATH": tmp / "instance", "SQLALCHEMY_DATABASE_URI": url,
                          "PUSH_ALLOWED_HOSTS": [fake.host], "PUSH_WORKER": True, "PUSH_SEND_THREADS": threads})
        fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
        api = Api(app.test_client())
        created = api.create(name="Bench Regional")
        eid, org = created["event_id"], created["token"]
        players = [{"id": f"p{i:04d}", "name": f"Trainer{i} Surname{i}"} for i in range(count)]
        seq = 0
        for start in range(0, count, 250):
            chunk = register_ops(players[start:start + 250])
            api.push_ok(eid, org, "desk", chunk, first_seq=seq + 1)
            seq += len(chunk)

        t0 = time.perf_counter()
        subs = []
        with app.app_context():
            for p in players:  # what 1,000 phones' POST /push/subscriptions leave behind, made in bulk
                token, _ = new_token(eid, "player", p["id"])
                sub = fake.subscribe()
                subs.append(sub)
                db.session.add(PushSubscription(id=sub.id, event_id=eid, token_id=token.id, role="player",
                                                player=p["id"], endpoint=sub.endpoint,
                                                endpoint_hash=endpoint_hash(sub.endpoint),
                                                p256dh=sub.info["keys"]["p256dh"], auth=sub.info["keys"]["auth"]))
            db.session.commit()
        print(f"set-up: {count} players registered and subscribed ({time.perf_counter() - t0:.1f} s)")
        drainer(app).ensure_started()

        ids = [p["id"] for p in players]
        matches = [{"table": i // 2 + 1, "players": ids[i:i + 2]} for i in range(0, count - count % 2, 2)]
        if count % 2:
            matches.append({"players": [ids[-1]], "outcomes": ["bye"]})
        ops = [{"type": "round.pair", "payload": {"number": 1, "matches": matches}},
               {"type": "round.publish", "payload": {"number": 1}}]
        t_request = time.perf_counter()
        api.push_ok(eid, org, "desk", ops, first_seq=seq + 1)
        request_s = time.perf_counter() - t_request
        delivered = fake.wait_for(count, timeout=60)
        all_s = time.perf_counter() - t_request
        drainer(app).stop()
        latencies = sorted(d.at for d in delivered)
        first_s = latencies[0] - (time.time() - (time.perf_counter() - t_request)) if latencies else float("nan")
        ok = {d.subscription for d in delivered}
        print(f"database: {url.split(':')[0]}; drainer: 1 thread claiming batches of "
              f"{app.config['PUSH_BATCH_SIZE']}, {threads} sending threads")
        print(f"pairing request (round.pair + round.publish, {len(matches)} matches, "
              f"{count} outbox rows): {request_s * 1000:.0f} ms   (target <= 200 ms)")
        print(f"notifications delivered, VAPID-verified and decrypted by the push service: {len(delivered)}/{count} "
              f"({len(ok)} distinct phones) in {all_s:.2f} s after the request started   (target <= 20 s)")
        print(f"first delivery after {max(0.0, first_s):.2f} s; throughput {len(delivered) / all_s:.0f}/s; "
              f"push service errors: {len(fake.errors)}")
        sample = next((d.payload["body"] for d in delivered if d.subscription == subs[0].id), None)
        print(f"player p0000 sees: {sample!r}")
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()

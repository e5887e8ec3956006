"""A player's first sync on a big event: the whole log in the player's view, cold and warm.

    .venv/bin/python -m bench.player_pull [--players 2000] [--rounds 3 6] [--database sqlite postgresql]

The app runs in this process (Flask test client, no network). The event grows
the real way: registrations, then per round a pairing, publish, start and one
result per table, pushed in batches by the desk, plus a penalty. Then a staff
pull and a player's first pull (cursor 0) are timed: "first" in the process
that took the pushes (a push caches the shared player view of what it
accepted), "best"/"median" of the next five, and "cold worker" the first pull
in a process that has cached nothing (another gunicorn worker, or after a
restart: it fills the cache for everyone after it). Every pull accepts gzip, as a browser does: the times
include compressing the answer, and "player MB" is its size before and after. Goal: <= 0.1 s for a player's
first sync on a 2,000-player event. Not a test: it prints one table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend import create_app  # noqa: E402
from tests.backend.helpers import Api, bearer  # noqa: E402


def build(api: Api, players: int, rounds: int) -> tuple[str, str, str]:
    event = api.create(ruleset="pokemon-tcg", name="Regional")
    eid, org = event["event_id"], event["token"]
    seq = 1

    def push(ops):
        nonlocal seq
        for i in range(0, len(ops), 500):
            api.push_ok(eid, org, "desk", ops[i : i + 500], first_seq=seq)
            seq += len(ops[i : i + 500])

    push(
        [
            {"type": "player.register", "payload": {"player": {"id": f"p{i}", "name": f"Player {i}"}}}
            for i in range(players)
        ]
    )
    for r in range(1, rounds + 1):
        matches = [
            {"table": t + 1, "players": [f"p{(2 * t + r) % players}", f"p{(2 * t + 1 + r) % players}"]}
            for t in range(players // 2)
        ]
        push(
            [
                {"type": "round.pair", "payload": {"number": r, "matches": matches}},
                {"type": "round.publish", "payload": {"number": r}},
                {"type": "round.start", "payload": {"number": r, "duration_s": 3000}},
            ]
        )
        push(
            [
                {"type": "result.report", "payload": {"round": r, "table": t + 1, "outcomes": ["win", "loss"]}}
                for t in range(players // 2)
            ]
        )
    push([{"type": "penalty.issue", "payload": {"player": "p5", "kind": "warning", "reason": "slow play"}}])
    player = api.redeem(api.claims(eid, org)["p5"])["token"]
    return eid, org, player


def measure(database: str, players: int, rounds: int) -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-pull-"))
    url = f"sqlite:///{tmp / 'bench.sqlite'}" if database == "sqlite" else _pg(tmp)
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": url,
            "INSTANCE_PATH": str(tmp / "instance"),
            "PUSH_LIMIT": "1000000 per minute",
            "CREATE_EVENT_LIMIT": "1000 per minute",
            "PUSH_SENDER": "external",
        }
    )
    client = app.test_client()
    eid, org, player = build(Api(client), players, rounds)

    sizes: dict[str, tuple[int, int]] = {}

    def pull(token: str) -> tuple[float, int]:
        # As a browser asks: gzip accepted (the answer is compressed, backend/compression.py; its cost is timed).
        t = time.perf_counter()
        r = client.get(f"/api/events/{eid}/pull?cursor=0", headers={**bearer(token), "Accept-Encoding": "gzip"})
        took = time.perf_counter() - t
        assert r.status_code == 200, r.status_code
        body = gzip.decompress(r.data) if r.headers.get("Content-Encoding") == "gzip" else r.data
        sizes["staff" if token == org else "player"] = (len(r.data), len(body))
        return took, len(json.loads(body)["ops"])

    staff = [pull(org)[0] for _ in range(5)]
    first, count = pull(player)  # in the process that took the pushes (it cached their player view)
    warm = [pull(player)[0] for _ in range(5)]
    app.extensions.pop("topcut_player_views", None)  # another worker, or after a restart: nothing cached
    cold, _ = pull(player)
    return [
        database,
        str(players),
        str(rounds),
        str(count),
        f"{min(staff):.3f}",
        f"{first:.3f}",
        f"{min(warm):.3f}",
        f"{statistics.median(warm):.3f}",
        f"{cold:.3f}",
        f"{sizes['player'][1] / 1e6:.2f} -> {sizes['player'][0] / 1e6:.2f}",
    ]


def _pg(tmp: Path) -> str:
    import os

    url = os.environ.get("TOPCUT_TEST_POSTGRES_URL")
    if not url:
        raise SystemExit(
            "PostgreSQL: set TOPCUT_TEST_POSTGRES_URL (a server whose database may be used), "
            "or run with --database sqlite"
        )
    return url


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2000])
    parser.add_argument("--rounds", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--database", nargs="+", default=["sqlite"], choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    header = [
        "database",
        "players",
        "rounds",
        "ops",
        "staff pull s",
        "player first s",
        "player best s",
        "median s",
        "cold worker s",
        "player MB (gzip)",
    ]
    rows = [measure(db, n, r) for db in args.database for n in args.players for r in args.rounds]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))
    print("goal: a player's first sync on a 2,000-player event <= 0.1 s")


if __name__ == "__main__":
    main()

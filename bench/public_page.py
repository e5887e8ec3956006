"""The public page's request at hall size: pairings and published standings, mid-round.

    .venv/bin/python -m bench.public_page [--players 2000] [--rounds 3 6]

The app runs in this process (Flask test client, no network). The event grows as in ``bench.player_pull``
(registrations, then per round a pairing, publish, start and every result), then the next round is paired,
published and started, so the page shows its pairings and the standings after the last complete round
(shared_rules/state/published.py). ``GET /api/events/<id>/public`` is timed as a phone asks for it (gzip
accepted): "first" after the last push, then best and median of the next five (the kept answer), then the
median of three made again after a result comes in; "MB" is the answer's size
before and after gzip. Every phone on the public page asks again every 15 s. Not a test: it prints one table.
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
from bench.player_pull import build  # noqa: E402
from tests.backend.helpers import Api  # noqa: E402


def measure(players: int, rounds: int) -> list[str]:
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-public-"))
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite'}",
            "INSTANCE_PATH": str(tmp / "instance"),
            "PUSH_LIMIT": "1000000 per minute",
            "CREATE_EVENT_LIMIT": "1000 per minute",
            "PUSH_SENDER": "external",
        }
    )
    client = app.test_client()
    api = Api(client)
    eid, org, _ = build(api, players, rounds)
    nxt = rounds + 1
    matches = [
        {"table": t + 1, "players": [f"p{(2 * t + 3 * nxt) % players}", f"p{(2 * t + 1 + 3 * nxt) % players}"]}
        for t in range(players // 2)
    ]
    log = client.get(f"/api/events/{eid}/pull?cursor=0", headers={"Authorization": f"Bearer {org}"}).get_json()
    seq = sum(1 for item in log["ops"] if item["op"]["device"] == "desk") + 1
    ops = [
        {"type": "round.pair", "payload": {"number": nxt, "matches": matches}},
        {"type": "round.publish", "payload": {"number": nxt}},
        {"type": "round.start", "payload": {"number": nxt, "duration_s": 3000}},
    ]
    api.push_ok(eid, org, "desk", ops, first_seq=seq)

    size: list[int] = []

    def get() -> float:
        t = time.perf_counter()
        r = client.get(f"/api/events/{eid}/public", headers={"Accept-Encoding": "gzip"})
        took = time.perf_counter() - t
        assert r.status_code == 200, r.status_code
        body = gzip.decompress(r.data) if r.headers.get("Content-Encoding") == "gzip" else r.data
        data = json.loads(body)
        assert data["standings_after"] == {"number": rounds, "stage": "swiss"}, data["standings_after"]
        assert len(data["standings"]) == players
        size[:] = [len(body), len(r.data)]
        return took

    first = get()
    again = [get() for _ in range(5)]
    changed = []
    for table in range(1, 4):  # a result comes in: the next answer is made again
        result = {"type": "result.report", "payload": {"round": nxt, "table": table, "outcomes": ["win", "loss"]}}
        seq += len(ops) if table == 1 else 1
        api.push_ok(eid, org, "desk", [result], first_seq=seq)
        ops = [result]
        changed.append(get())
    return [
        str(players),
        str(rounds),
        f"{first:.3f}",
        f"{min(again):.3f}",
        f"{statistics.median(again):.3f}",
        f"{statistics.median(changed):.3f}",
        f"{size[0] / 1e6:.2f} -> {size[1] / 1e6:.2f}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[2000])
    parser.add_argument("--rounds", type=int, nargs="+", default=[3, 6])
    args = parser.parse_args()
    header = ["players", "complete rounds", "first s", "kept best s", "kept median s", "after a change s", "MB (gzip)"]
    rows = [measure(n, r) for n in args.players for r in args.rounds]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  ".join(c.rjust(w) for c, w in zip(row, widths)))


if __name__ == "__main__":
    main()

"""What a device downloads to install the app: a player's phone against a staff tablet, side by side.

    .venv/bin/python -m bench.install [--encoding "gzip, deflate, br"]

The app runs in this process (Flask test client, no network) on the build in build/web (run ``make build``
first). Each device's service worker fetches ``/pwa/sw.js``, ``/precache-manifest.json`` and every file of the
groups it installs (sw.js ``?device=player``: the shell alone; ``?device=staff``: Pyodide and the rules too),
with the browser's ``Accept-Encoding`` (``gzip, deflate, br`` over HTTPS, the hall address; ``gzip, deflate``
on plain http). "transfer" counts the bytes as sent (compressed where the server compresses), "files" the
bytes once decoded. The last column is one bar of hall Wi-Fi (50 KB/s). Then what a rules change costs an
installed staff device: the rules come in pieces (one per package folder), and a change to one module
re-downloads its piece and the index alone. Not a test: it prints one table.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend import create_app  # noqa: E402

ONE_BAR = 50_000  # bytes per second


def fetch_all(client, urls: list[str], encoding: str) -> tuple[int, int]:
    """(bytes sent, bytes decoded) for GETs of ``urls`` with ``Accept-Encoding: encoding``."""
    sent = decoded = 0
    for url in urls:
        response = client.get(url, headers={"Accept-Encoding": encoding})
        assert response.status_code == 200, (url, response.status_code)
        body = response.get_data()
        sent += len(body)
        decoded += len(client.get(url, headers={"Accept-Encoding": "identity"}).get_data())
    return sent, decoded


def build_manifest() -> dict | None:
    """The build's precache manifest, or None before ``make build``."""
    path = ROOT / "build" / "web" / "precache-manifest.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _client():
    tmp = Path(tempfile.mkdtemp(prefix="topcut-bench-install-"))
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'bench.sqlite'}", "INSTANCE_PATH": str(tmp / "i")})
    return app.test_client()


def install_bytes(client, manifest: dict, encoding: str) -> list[tuple[str, int, int, int]]:
    """(device, requests, bytes sent, bytes decoded) of a player's phone's and a staff device's install."""
    rows = []
    for device in ("player", "staff"):
        groups = [g for g in manifest["groups"] if device == "staff" or g.get("devices") != "staff"]
        urls = [f"/pwa/sw.js?device={device}", "/precache-manifest.json"]
        urls += [file["url"] for group in groups for file in group["files"]]
        sent, decoded = fetch_all(client, urls, encoding)
        rows.append((device, len(urls), sent, decoded))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--encoding", default="gzip, deflate, br", help="the browser's Accept-Encoding")
    args = parser.parse_args()
    manifest = build_manifest()
    if manifest is None:
        print("bench.install: build/web/precache-manifest.json is missing: run `make build` first", file=sys.stderr)
        return 2
    client = _client()
    rows = install_bytes(client, manifest, args.encoding)
    print(f"Install bytes as the service worker fetches them (Accept-Encoding: {args.encoding})")
    print(f"{'device':<8} {'requests':>8} {'transfer MB':>12} {'files MB':>9} {'at one bar':>11}")
    for device, count, sent, decoded in rows:
        print(f"{device:<8} {count:>8} {sent / 1e6:>12.3f} {decoded / 1e6:>9.3f} {sent / ONE_BAR:>10.0f}s")
    rules = next(g for g in manifest["groups"] if g["name"] == "rules")
    rules_sent, _ = fetch_all(client, [f["url"] for f in rules["files"]], args.encoding)
    index_sent, _ = fetch_all(client, ["/rules/index.json"], args.encoding)
    pieces = sorted(
        fetch_all(client, [f["url"]], args.encoding)[0] for f in rules["files"] if f["url"].endswith(".pack")
    )
    median, largest = pieces[len(pieces) // 2], pieces[-1]
    print(
        f"the rules on a staff device: {len(pieces)} pieces, {rules_sent / 1e6:.3f} MB in all; a change to one "
        f"module re-downloads its piece and the index: {(median + index_sent) / 1e3:.0f} kB for the median "
        f"piece, {(largest + index_sent) / 1e3:.0f} kB for the largest"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

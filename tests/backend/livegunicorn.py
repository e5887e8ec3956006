"""Run the app under gunicorn (a subprocess on a free loopback port) and talk to it with the stdlib."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Http:
    """One keep-alive connection to the server."""

    def __init__(self, port: int, timeout: float = 60) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body).encode() if body is not None else None
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (ConnectionError, http.client.HTTPException):
                self.conn.close()
                if attempt == 2:
                    raise
                time.sleep(0.05)
        raise AssertionError("unreachable")

    def raw_get(self, path: str, token: str) -> bytes:
        self.conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = self.conn.getresponse()
        data = response.read()
        assert response.status == 200, data[:300]
        return data

    def close(self) -> None:
        self.conn.close()


@contextmanager
def gunicorn(
    database_url: str, workers: int = 4, tmp: Path | None = None, threads: int = 1, env: dict[str, str] | None = None
) -> Iterator[int]:
    """gunicorn with ``workers`` workers (``threads`` each) serving create_app() on ``database_url``; yields the port.

    ``env`` adds settings (``TOPCUT_<KEY>``) for the server."""
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url, PYTHONPATH=str(ROOT), **(env or {}))
    log = open((tmp or Path("/tmp")) / f"gunicorn-{port}.log", "wb")
    proc = subprocess.Popen(
        [
            str(GUNICORN),
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--threads",
            str(threads),
            "--worker-class",
            "sync" if threads == 1 else "gthread",
            "--timeout",
            "120",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
            "backend:create_app()",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {proc.returncode}; see {log.name}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    pass
                http_ = Http(port, timeout=5)
                status, _ = http_.call("GET", "/api/openapi.json")
                http_.close()
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not come up within 60 s")
            time.sleep(0.1)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        log.close()

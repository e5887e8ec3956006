"""The app as a real process (gunicorn) on a fixed loopback port and a temp SQLite database,
so a test can kill it mid-round and bring it back on the same port and data."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class AppProcess:
    def __init__(self, tmp: Path, host: str = "127.0.0.1") -> None:
        self.tmp = tmp
        self.host = host  # "0.0.0.0": reachable on the machine's LAN address too
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log = open(tmp / "server.log", "ab")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, attempts: int = 3) -> None:
        for attempt in range(attempts):
            try:
                return self._start()
            except RuntimeError:
                self.kill()
                if attempt == attempts - 1:
                    raise
                time.sleep(0.5)

    def _start(self) -> None:
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{self.tmp / 'app.sqlite'}")
        gunicorn = Path(sys.executable).with_name("gunicorn")
        self.proc = subprocess.Popen(
            [
                str(gunicorn),
                "--bind",
                f"{self.host}:{self.port}",
                "--workers",
                "1",
                "--threads",
                "8",
                "--graceful-timeout",
                "1",
                "--no-control-socket",
                "backend:create_app()",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/openapi.json", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(
                        f"the server exited ({self.proc.returncode}); see {self.tmp / 'server.log'}"
                    ) from None
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """SIGKILL, no goodbye: what a pulled plug does."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def get(self, path: str, token: str | None = None):
        request = urllib.request.Request(self.url + path, headers={"Authorization": f"Bearer {token}"} if token else {})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

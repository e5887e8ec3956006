#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for the backend tests and the sync benchmark.

Used two ways:

* from pytest (tests/backend/conftest.py): ``start(directory)`` returns a
  running :class:`Cluster` whose ``url`` is a ``postgresql+psycopg://`` URL;
  ``cluster.stop()`` stops it (the directory is a pytest temp dir);
* by hand: ``python scripts/postgres_for_tests.py`` starts one in a temporary
  directory, prints ``DATABASE_URL=...`` and keeps it running until Ctrl-C;
  ``with throwaway_cluster() as cluster:`` does the same for a block of code
  (the sync benchmark).

It needs Debian's ``postgresql`` package (``make test`` installs it via
DEBIAN_PACKAGES). As root the cluster belongs to the ``postgres`` user (the
server refuses to run as root); otherwise to the current user. The server
listens on a free loopback port with ``trust`` authentication, durability
switched off (fsync, synchronous_commit) because the data is thrown away.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PostgresUnavailable", "Cluster", "find_bin_dir", "start", "throwaway_cluster"]

DATABASE = "topcut_test"
INSTALL_HINT = "install Debian's postgresql package (apt-get install --no-install-recommends postgresql)"


class PostgresUnavailable(RuntimeError):
    """PostgreSQL cannot be started here; ``str()`` says why and what to install."""


def find_bin_dir() -> Path | None:
    """The newest /usr/lib/postgresql/<version>/bin holding initdb and pg_ctl."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0,
    )
    if candidates:
        return Path(candidates[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    directory: Path
    port: int
    bin_dir: Path
    user: str | None  # the OS user the server runs as when we are root

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bin_dir / args[0]), *args[1:]]
        if self.user:
            cmd = ["runuser", "-u", self.user, "--", *cmd]
        return subprocess.run(cmd, check=check, capture_output=True, text=True, timeout=60)

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.directory / "data"), "-m", "immediate", "-w", "stop", check=False)


def start(directory: str | os.PathLike | None = None, durable: bool = False) -> Cluster:
    """Create and start a cluster in ``directory`` (a fresh temp dir if None); raises PostgresUnavailable.

    ``durable`` keeps PostgreSQL's own durability (fsync, synchronous_commit on), for a benchmark that counts
    WAL syncs; otherwise both are off, as the tests want."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise PostgresUnavailable(f"PostgreSQL server binaries (initdb, pg_ctl) not found: {INSTALL_HINT}")
    base = Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="topcut-pg-"))
    base.mkdir(parents=True, exist_ok=True)
    user = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            raise PostgresUnavailable(f"running as root but there is no 'postgres' user: {INSTALL_HINT}") from None
        user = "postgres"
        # The cluster owner must reach its directory: open the path to it.
        for parent in [base, *base.parents]:
            if parent == Path("/"):
                break
            mode = parent.stat().st_mode
            if not mode & 0o001:
                os.chmod(parent, mode | 0o001)
        os.chown(base, owner.pw_uid, owner.pw_gid)
    cluster = Cluster(base, _free_port(), bin_dir, user)
    data = base / "data"
    try:
        cluster._run(
            "initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"
        )
    except subprocess.CalledProcessError as exc:
        raise PostgresUnavailable(f"initdb failed: {exc.stderr.strip()[-500:]}") from None
    durability = "" if durable else "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
    options = (
        f"-c listen_addresses=127.0.0.1 -c port={cluster.port} -c unix_socket_directories={base} "
        f"{durability}-c max_connections=200 -c shared_buffers=64MB"
    )
    try:
        cluster._run(
            "pg_ctl", "-D", str(data), "-o", options, "-l", str(base / "server.log"), "-w", "-t", "60", "start"
        )
    except subprocess.CalledProcessError:
        log = (base / "server.log").read_text(errors="replace")[-1000:] if (base / "server.log").exists() else ""
        raise PostgresUnavailable(f"PostgreSQL did not start: {log.strip()}") from None
    try:
        cluster._run("createdb", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", DATABASE)
    except subprocess.CalledProcessError as exc:
        cluster.stop()
        raise PostgresUnavailable(f"createdb failed: {exc.stderr.strip()}") from None
    return cluster


@contextmanager
def throwaway_cluster(directory: str | os.PathLike | None = None, durable: bool = False) -> Iterator[Cluster]:
    """A cluster started as by :func:`start` for the ``with`` block; afterwards it is stopped
    and its directory deleted. Raises PostgresUnavailable on entering when it cannot start."""
    cluster = start(directory, durable)
    try:
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(cluster.directory, ignore_errors=True)


def main() -> int:
    try:
        with throwaway_cluster() as cluster:
            print(f"DATABASE_URL={cluster.url}", flush=True)
            stop = {"now": False}
            signal.signal(signal.SIGTERM, lambda *_: stop.update(now=True))
            try:
                while not stop["now"]:
                    time.sleep(0.5)
            except KeyboardInterrupt:
                pass
    except PostgresUnavailable as exc:
        print(f"PostgreSQL unavailable: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

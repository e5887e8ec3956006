"""``make run``: the app on this laptop over HTTP and on the hall network over HTTPS.

    python -m backend.serve [--host 127.0.0.1] [--port 8000] [--hall-port 8443] [--no-hall]

Two gunicorn servers share one database: ``http://HOST:PORT`` for the
organizer on this laptop (``localhost`` is a secure origin without any
certificate), and ``https://<LAN address>:HALL_PORT`` on every interface for
tablets and phones on the hall network, with a certificate signed by this
laptop's own authority (:mod:`backend.hall_tls`, made on first start in the
instance folder). Both know the hall address (``HALL_URL``), so links and QR
codes made on the laptop name it. The HTTP server sends the push
notifications; the HTTPS one only enqueues them. Ctrl-C stops both; if one
stops, the other is stopped too, and the command says why.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from backend.hall_tls import ensure_certificates, primary_lan_address

ROOT = Path(__file__).resolve().parent.parent
#: Where the hall's certificate authority and server certificate live, inside the instance folder.
HALL_TLS_FOLDER = "hall-tls"


def _fail(message: str) -> None:
    print(f"topcut: {message}", file=sys.stderr)
    raise SystemExit(2)


def _port_free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _gunicorn(bind: str, env: dict[str, str], extra: list[str]) -> list[str]:
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        bind,
        "--workers",
        "1",
        "--threads",
        "8",
        "--access-logfile",
        "-",
        *extra,
    ]
    major = int(importlib.metadata.version("gunicorn").split(".")[0])
    if major >= 24:  # two servers: each without the (shared, per-user) control socket
        command.append("--no-control-socket")
    return [*command, "backend:create_app()"]


def _prepare() -> str:
    """Create the instance folder, its keys and the database schema once, before both servers start."""
    from backend import create_app

    app = create_app()
    return app.instance_path


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line: the laptop's HTTP address and port, the hall's HTTPS port, or no hall."""
    parser = argparse.ArgumentParser(prog="python -m backend.serve", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--host",
        default=os.environ.get("HOST", "127.0.0.1"),
        help="address of the HTTP server (default 127.0.0.1: this laptop only)",
    )
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument(
        "--hall-port",
        type=int,
        default=int(os.environ.get("HALL_PORT", "8443")),
        help="HTTPS port on every interface, for tablets on the hall network",
    )
    parser.add_argument(
        "--no-hall",
        action="store_true",
        default=os.environ.get("HALL", "1") in ("0", "no", "off"),
        help="serve only HTTP on --host (no HTTPS for the hall network)",
    )
    return parser.parse_args(argv)


def _run(servers: list[tuple[str, list[str], dict[str, str]]]) -> int:
    """Run the servers until Ctrl-C, SIGTERM or one of them stopping; stop the others; 1 if one stopped."""
    processes = [(name, subprocess.Popen(command, cwd=ROOT, env=server_env)) for name, command, server_env in servers]
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    status = 0
    try:
        while not stopping:
            for name, process in processes:
                if process.poll() is not None and not stopping:
                    print(
                        f"topcut: the {name} server stopped (exit {process.returncode}); stopping Topcut",
                        file=sys.stderr,
                        flush=True,
                    )
                    status = 1
                    stopping = True
            time.sleep(0.2)
    finally:
        for _, process in processes:
            if process.poll() is None:
                process.terminate()
        for _, process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
    return status


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)

    for host, port in [(args.host, args.port)] + ([] if args.no_hall else [("0.0.0.0", args.hall_port)]):
        if not _port_free(host, port):
            _fail(
                f"port {port} on {host} is in use (is Topcut already running?): stop that program, or choose "
                f"another port, e.g. `make run PORT={args.port + 1}`"
                if port == args.port
                else f"port {port} on {host} is in use (is Topcut already running?): stop that program, or choose "
                f"another port, e.g. `make run HALL_PORT={port + 1}`"
            )
    instance = _prepare()
    env = dict(os.environ, TOPCUT_INSTANCE_PATH=instance)
    servers: list[tuple[str, list[str], dict[str, str]]] = []
    hall_url = None
    if not args.no_hall:
        address = primary_lan_address()
        tls = ensure_certificates(Path(instance) / HALL_TLS_FOLDER)
        hall_url = f"https://{address or 'localhost'}:{args.hall_port}"
        env.update(TOPCUT_HALL_URL=hall_url, TOPCUT_HALL_TLS_DIR=str(tls.directory))
        https_env = dict(env, TOPCUT_PUSH_SENDER="external")  # the HTTP server sends for both
        servers.append(
            (
                "hall HTTPS",
                _gunicorn(
                    f"0.0.0.0:{args.hall_port}", https_env, ["--certfile", str(tls.cert), "--keyfile", str(tls.key)]
                ),
                https_env,
            )
        )
    servers.insert(0, ("HTTP", _gunicorn(f"{args.host}:{args.port}", env, []), env))

    local = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '') else args.host}:{args.port}/"
    print(f"Topcut is starting. On this laptop open {local}", flush=True)
    if hall_url:
        print(
            f"Tablets and phones on the hall network: {hall_url}/ — install the hall certificate on each "
            f"tablet once: {local}hall-ca.crt (README: Hall network)",
            flush=True,
        )
        if address is None:
            print("This laptop has no network address yet: join the hall's network, then restart.", flush=True)
    print("Ctrl-C stops Topcut.", flush=True)

    return _run(servers)


if __name__ == "__main__":
    raise SystemExit(main())

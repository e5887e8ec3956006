"""Scale-out, shown: 2 gunicorn app servers + PostgreSQL + nginx + one push sender, under the chaos workload.

The topology of docs/deploy.md on loopback ports: nginx (docs/deploy/nginx-topcut.conf)
balances two app servers configured from the environment (``TOPCUT_*``: shared
SECRET_KEY and VAPID key, ``PUSH_SENDER=external``); a
``flask --app backend topcut-push-sender`` process delivers the notifications to
the fake push service. Several events' simulated convention floors (offline
tablets, duplicated, reordered and lost pushes, players' phones subscribed)
run at once through the proxy; half-way one app server is killed with SIGKILL
and restarted. Afterwards: the server log of every event is gapless, every
device converges, every acknowledged operation is in the log exactly once,
both app servers served traffic, and the push service received each queued
notification exactly once.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from backend.push.vapid import generate_key_file
from shared_rules.state import replay
from tests.backend.helpers import Api, bearer, register_ops, timeless
from tests.backend.livegunicorn import GUNICORN, free_port
from tests.backend.test_simulation import PLAYERS, Device, Network, _judge_op, _lead_op
from tests.fakepush import SUBJECT, FakePushService

ROOT = Path(__file__).resolve().parents[2]
FLASK = Path(sys.executable).with_name("flask")
NGINX_SITE = ROOT / "docs" / "deploy" / "nginx-topcut.conf"
EVENTS = 4
OPS_PER_EVENT = 300
RETRYABLE = (502, 503, 504)


# ---------------------------------------------------------------- HTTP through the proxy


@dataclass
class Answer:
    status_code: int
    body: Any

    def get_json(self) -> Any:
        return self.body


class ProxyClient:
    """The Flask test client's get/post over HTTP to the proxy; a dead server's 502 or a reset is retried
    (the sync API is idempotent per device and sequence number, as a tablet's outbox relies on)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.local = threading.local()
        self.retries = 0

    def _conn(self) -> http.client.HTTPConnection:
        conn = getattr(self.local, "conn", None)
        if conn is None:
            conn = self.local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        return conn

    def open(self, method: str, path: str, json_body: Any = None, headers: dict[str, str] | None = None) -> Answer:
        data = json.dumps(json_body).encode() if json_body is not None else None
        sent = dict(headers or {}, **({"Content-Type": "application/json"} if data is not None else {}))
        for _attempt in range(100):
            try:
                conn = self._conn()
                conn.request(method, path, body=data, headers=sent)
                response = conn.getresponse()
                raw = response.read()
                if response.status not in RETRYABLE:
                    return Answer(response.status, json.loads(raw) if raw else None)
            except (ConnectionError, http.client.HTTPException, TimeoutError):
                self._conn().close()
                self.local.conn = None
            self.retries += 1
            time.sleep(0.05)
        raise AssertionError(f"{method} {path}: no app server answered")

    def get(self, path: str, headers: dict[str, str] | None = None) -> Answer:
        return self.open("GET", path, headers=headers)

    def post(self, path: str, json: Any = None, headers: dict[str, str] | None = None) -> Answer:  # noqa: A002
        return self.open("POST", path, json, headers)


# ---------------------------------------------------------------- processes


class Cluster:
    """The processes of one scale-out, each started in its own session so it can be killed whole."""

    def __init__(self, tmp: Path, database_url: str, fake: FakePushService) -> None:
        self.tmp = tmp
        key_file = tmp / "shared" / "vapid_private.pem"
        generate_key_file(str(key_file))
        self.env = dict(
            os.environ,
            DATABASE_URL=database_url,
            PYTHONPATH=str(ROOT),
            TOPCUT_SECRET_KEY=secrets.token_urlsafe(48),
            TOPCUT_VAPID_KEY_FILE=str(key_file),
            TOPCUT_PUSH_SENDER="external",
            TOPCUT_VAPID_SUBJECT=SUBJECT,
            TOPCUT_PUSH_ALLOWED_HOSTS=json.dumps([fake.host]),
            TOPCUT_PUSH_POLL_SECONDS="0.2",
            # nginx is the one proxy in front (docs/deploy.md); the chaos devices push far faster than
            # tablets do, so the per-token limit is raised (its counts still go through PostgreSQL).
            TOPCUT_PROXY_COUNT="1",
            TOPCUT_PUSH_LIMIT="100000 per minute",
        )
        self.app_ports = [free_port(), free_port()]
        self.proxy_port = free_port()
        self.apps: list[subprocess.Popen | None] = [None, None]
        self.starts = [0, 0]
        self.procs: list[subprocess.Popen] = []

    def _spawn(self, args: list[str], log: Path) -> subprocess.Popen:
        proc = subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True
        )
        self.procs.append(proc)
        return proc

    def start_app(self, index: int) -> None:
        port = self.app_ports[index]
        self.starts[index] += 1
        access = self.tmp / f"access-{index}-{self.starts[index]}.log"
        self.apps[index] = self._spawn(
            [
                str(GUNICORN),
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "2",
                "--timeout",
                "120",
                "--graceful-timeout",
                "5",
                "--access-logfile",
                str(access),
                "backend:create_app()",
            ],
            self.tmp / f"gunicorn-{index}.log",
        )

    def kill_app(self, index: int) -> None:
        """kill -9 the app server: its gunicorn master and every worker at once."""
        proc = self.apps[index]
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def start_proxy(self) -> None:
        site = NGINX_SITE.read_text()
        servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=1s;\n" for p in self.app_ports)
        site = re.sub(r"(upstream topcut_app \{\n)(?:.*\n)*?(    keepalive)", lambda m: m[1] + servers + m[2], site)
        site = re.sub(r"listen 80;", f"listen 127.0.0.1:{self.proxy_port};", site)
        (self.tmp / "site.conf").write_text(site)
        temp = self.tmp / "nginx-temp"
        temp.mkdir()
        user = "user root;\n" if os.geteuid() == 0 else ""
        paths = "".join(
            f"    {kind}_temp_path {temp / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.tmp / "nginx.conf").write_text(
            f"{user}worker_processes 1;\npid {self.tmp / 'nginx.pid'};\n"
            f"error_log {self.tmp / 'nginx-error.log'} warn;\nevents {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log off;\n{paths}"
            f"    include {self.tmp / 'site.conf'};\n}}\n"
        )
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self._spawn(
            [
                nginx,
                "-e",
                str(self.tmp / "nginx-error.log"),
                "-p",
                str(self.tmp),
                "-c",
                str(self.tmp / "nginx.conf"),
                "-g",
                "daemon off;",
            ],
            self.tmp / "nginx.log",
        )

    def start_sender(self) -> subprocess.Popen:
        return self._spawn([str(FLASK), "--app", "backend", "topcut-push-sender"], self.tmp / "sender.log")

    def wait_ready(self, port: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/api/push/vapid-public-key")
                if conn.getresponse().status == 200:
                    conn.close()
                    return
                conn.close()
            except OSError:
                pass
            for proc in self.procs:
                if proc.poll() not in (None, -signal.SIGKILL):
                    raise RuntimeError(f"{proc.args[0]} exited with {proc.returncode}; see {self.tmp}")
            time.sleep(0.1)
        raise RuntimeError(f"nothing answered on port {port} within {timeout} s; see {self.tmp}")

    def requests_served(self, index: int) -> list[int]:
        """Access-log lines per start of app server ``index``."""
        return [
            len((self.tmp / f"access-{index}-{n}.log").read_text().splitlines())
            if (self.tmp / f"access-{index}-{n}.log").exists()
            else 0
            for n in range(1, self.starts[index] + 1)
        ]

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)


# ---------------------------------------------------------------- one event's floor


@dataclass
class Floor:
    """One event: its devices, players' phones and simulated network."""

    api: Api
    event_id: str
    organizer: str
    devices: list[Device]
    phones: dict[str, str]  # fake subscription id -> player
    player_token: str  # one player's phone
    net: Network
    rng: random.Random
    written: int = 0


def open_floor(api: Api, fake: FakePushService, seed: int) -> Floor:
    created = api.create(ruleset="pokemon-tcg", name=f"Scale-out Regional {seed}")
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops(PLAYERS))
    phones, token = {}, ""
    for player, code in api.claims(eid, org).items():
        token = api.redeem(code)["token"]
        sub = fake.subscribe()
        r = api.client.post(
            f"/api/events/{eid}/push/subscriptions", json={"subscription": sub.info}, headers=bearer(token)
        )
        assert r.status_code == 201, r.get_json()
        phones[sub.id] = player
    devices = [Device("org", "organizer", org), Device("hj", "head-judge", api.staff_token(eid, org, "head-judge"))]
    devices += [Device(f"j{i}", "judge", api.staff_token(eid, org, "judge")) for i in range(1, 7)]
    floor = Floor(api, eid, org, devices, phones, token, Network(random.Random(seed)), random.Random(seed))
    for dev in devices:
        pull(floor, dev)
    return floor


def pull(floor: Floor, dev: Device) -> None:
    while True:
        body = floor.api.pull(floor.event_id, dev.token, cursor=dev.cursor)
        dev.take_pull(body)
        if not body["more"]:
            return


def step(floor: Floor, clock: int) -> None:
    """One device does one thing: go offline or online, write, push, let the network deliver, or pull."""
    rng, dev = floor.rng, floor.rng.choice(floor.devices)
    action = rng.random()
    if action < 0.05:
        dev.online = not dev.online
    elif action < 0.45:
        before = dev.seq
        (_lead_op if dev.role != "judge" else _judge_op)(dev, dev.local(), rng, clock)
        floor.written += dev.seq - before
    elif action < 0.65 and dev.online:
        body = dev.push_body(rng)
        if body:
            floor.net.send(dev, body)
    elif action < 0.85 and floor.net.flying:
        floor.net.deliver_one(floor.api, floor.event_id)
    elif dev.online:
        pull(floor, dev)


def heal(floor: Floor) -> None:
    """The network heals: in-flight pushes land, every device syncs until nothing is pending."""
    while floor.net.flying:
        floor.net.deliver_one(floor.api, floor.event_id, lossy=False)
    for _ in range(20):
        for dev in floor.devices:
            dev.online = True
            body = dev.push_body(random.Random(0))
            if body:
                floor.net.send(dev, body)
                while floor.net.flying:
                    floor.net.deliver_one(floor.api, floor.event_id, lossy=False)
            pull(floor, dev)
        if not any(dev.pending for dev in floor.devices):
            break
    assert not any(dev.pending for dev in floor.devices)
    for dev in floor.devices:
        pull(floor, dev)


def check_converged(floor: Floor) -> int:
    """Gapless log, replicas equal to the server, acknowledged operations once each; returns the log length."""
    api, eid = floor.api, floor.event_id
    server = api.state(eid, floor.organizer)
    log = api.pull(eid, floor.organizer)
    assert not log["more"]
    assert replay([entry["op"] for entry in log["ops"]]) == server
    seqs = [entry["server_seq"] for entry in log["ops"]]
    assert seqs == list(range(1, len(seqs) + 1)), "the server log has a gap or a repeat"
    op_ids = [entry["op"]["op_id"] for entry in log["ops"]]
    assert len(op_ids) == len(set(op_ids))
    for dev in floor.devices:
        assert dev.confirmed == server, f"{dev.name} disagrees with the server"
        assert log["devices"][dev.name]["last_seq"] == dev.seq
        accepted = {s for s, v in dev.verdicts.items() if v["status"] == "accepted"}
        in_log = {int(i.rpartition(":")[2]) for i in op_ids if i.startswith(dev.name + ":")}
        assert accepted <= in_log, f"{dev.name}: an acknowledged operation is missing from the log"
        assert accepted == in_log & set(dev.verdicts)
    return len(seqs)


def player_pull_from(port: int, floor: Floor) -> Any:
    """A player's pull straight from one app server (device aliases are keyed with the shared SECRET_KEY)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", f"/api/events/{floor.event_id}/pull?cursor=0", headers=bearer(floor.player_token))
        response = conn.getresponse()
        assert response.status == 200
        return json.loads(response.read())
    finally:
        conn.close()


# ---------------------------------------------------------------- the notifications


def outbox_rows(database_url: str) -> list[tuple[str, str, str]]:
    import psycopg

    with psycopg.connect(database_url.replace("+psycopg", "")) as conn:
        return conn.execute(
            "SELECT o.state, o.payload, s.endpoint FROM push_outbox o "
            "LEFT JOIN push_subscriptions s ON s.id = o.subscription_id"
        ).fetchall()


def wait_for_outbox(database_url: str, timeout: float = 30) -> list[tuple[str, str, str]]:
    deadline = time.monotonic() + timeout
    while True:
        rows = outbox_rows(database_url)
        if all(state not in ("pending", "sending") for state, _, _ in rows) or time.monotonic() > deadline:
            return rows
        time.sleep(0.2)


# ---------------------------------------------------------------- the test


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_two_app_servers_behind_nginx_survive_kill_9_and_send_each_notification_once(database_url, tmp_path):
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("nginx is missing: install Debian's nginx package (the Makefile's DEBIAN_PACKAGES has it)")
    started = time.monotonic()
    with FakePushService(latency=0.05) as fake:
        cluster = Cluster(tmp_path, database_url, fake)
        try:
            cluster.start_app(0)
            cluster.start_app(1)
            cluster.start_proxy()
            cluster.start_sender()
            for port in (*cluster.app_ports, cluster.proxy_port):
                cluster.wait_ready(port)
            client = ProxyClient(cluster.proxy_port)
            api = Api(client)
            fake.expected_vapid_key = client.get("/api/push/vapid-public-key").body["public_key"]
            floors = [open_floor(api, fake, seed) for seed in range(EVENTS)]
            ready = time.monotonic()

            killed = threading.Event()
            errors: list[BaseException] = []

            def run(floor: Floor) -> None:
                clock = 1_700_000_000_000
                try:
                    while floor.written < OPS_PER_EVENT:
                        clock += floor.rng.randrange(1, 5000)
                        step(floor, clock)
                except BaseException as exc:  # noqa: BLE001 - re-raised below
                    errors.append(exc)

            def chaos() -> None:
                while not errors and sum(f.written for f in floors) < EVENTS * OPS_PER_EVENT // 2:
                    time.sleep(0.05)
                cluster.kill_app(0)  # mid-run, requests in flight
                killed.set()
                time.sleep(1.0)
                cluster.start_app(0)

            workers = [threading.Thread(target=run, args=(f,)) for f in floors] + [threading.Thread(target=chaos)]
            for t in workers:
                t.start()
            for t in workers:
                t.join(timeout=180)
            assert not errors, errors[0]
            assert killed.is_set()
            cluster.wait_ready(cluster.app_ports[0])
            for floor in floors:
                heal(floor)
            workload_s = time.monotonic() - ready
            accepted = sum(check_converged(floor) for floor in floors)
            for floor in floors:
                first, second = (timeless(player_pull_from(port, floor)) for port in cluster.app_ports)
                assert first == second and any(op["op"]["device"].startswith("dev-") for op in first["ops"])
            rows = wait_for_outbox(database_url)
        finally:
            cluster.stop()

        served = [cluster.requests_served(0), cluster.requests_served(1)]
        assert served[0][0] > 0 and served[1][0] > 0, f"both app servers take traffic: {served}"
        assert len(served[0]) == 2 and served[0][1] > 0, f"the restarted app server takes traffic again: {served}"

        # Every queued notification reached the push service exactly once, and nothing else did (a pairing that a
        # newer round's replaced before it went out is "superseded": the phone gets the newer one only).
        sent = Counter(
            (endpoint.rsplit("/", 1)[-1], json.dumps(json.loads(payload), sort_keys=True))
            for state, payload, endpoint in rows
            if state == "sent"
        )
        delivered = Counter((d.subscription, json.dumps(d.payload, sort_keys=True)) for d in fake.deliveries)
        assert {state for state, _, _ in rows} <= {"sent", "cancelled", "superseded"}, Counter(s for s, _, _ in rows)
        assert fake.errors == []
        assert sum(sent.values()) > 50
        assert delivered == sent, "a notification was sent twice, or one queued was never sent"

    requests = sum(map(sum, served))
    print(
        f"\nscale-out: {EVENTS} events, {accepted} operations accepted, {requests} requests through nginx "
        f"({served[0]} / {served[1]} per app server start) in {workload_s:.1f} s = {requests / workload_s:.0f} "
        f"requests/s; {sum(sent.values())} notifications sent once each; {client.retries} client retries "
        f"after the kill; whole test {time.monotonic() - started:.1f} s"
    )

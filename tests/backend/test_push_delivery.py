"""Web Push end to end: operations -> outbox -> drainer -> pywebpush -> the fake push service (decrypted).

Every test runs on SQLite and PostgreSQL. The drainer is driven by hand
(``drain_until_idle``) unless a test starts its thread, so nothing is timing-bound.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from backend import create_app
from backend.db import db
from backend.models import PushOutbox, PushSubscription
from backend.push.queue import drainer
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, register_ops, report
from tests.fakepush import SUBJECT, FakePushService

ROOT = Path(__file__).resolve().parents[2]
FLASK = Path(sys.executable).with_name("flask")
NAMES = [
    "Ash Ketchum",
    "Misty Williams",
    "Brock Harrison",
    "Gary Oak",
    "Dawn Berlitz",
    "May Maple",
    "Iris Dragon",
    "Cilan Striaton",
    "Serena Yvonne",
]
PLAYERS = [{"id": f"p{i + 1}", "name": name} for i, name in enumerate(NAMES)]  # 9: one bye


@pytest.fixture
def fake():
    with FakePushService() as service:
        yield service


def push_config(database_url: str, instance: Path, fake: FakePushService, **extra):
    return {
        "TESTING": True,
        "INSTANCE_PATH": instance,
        "SQLALCHEMY_DATABASE_URI": database_url,
        "PUSH_ALLOWED_HOSTS": [fake.host],
        "VAPID_SUBJECT": SUBJECT,
        "PUSH_BACKOFF_BASE": 0.05,
        "PUSH_BACKOFF_MAX": 0.2,
        "PUSH_TIMEOUT": (2.0, 5.0),
        **extra,
    }


@pytest.fixture
def push_app(database_url, tmp_path, fake):
    app = create_app(push_config(database_url, tmp_path / "instance", fake))
    fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
    yield app
    drainer(app).stop()
    dispose(app)


class World:
    """An event with 9 registered players, each with a subscribed phone, and a subscribed judge tablet."""

    def __init__(self, app, fake: FakePushService) -> None:
        self.app, self.fake = app, fake
        self.api = Api(app.test_client())
        created = self.api.create(name="Pallet Town Cup")
        self.eid, self.org = created["event_id"], created["token"]
        self.seq = 0
        registered = self.desk(register_ops(PLAYERS))
        self.tokens: dict[str, str] = {}
        self.subs = {}
        for pid, token in player_tokens(app, self.api, self.eid, self.org, registered).items():
            self.tokens[pid] = token
            self.subs[pid] = self.subscribe(token)
        self.judge = self.api.staff_token(self.eid, self.org, "judge")
        self.judge_sub = self.subscribe(self.judge)
        self.player_seq: dict[str, int] = {}

    def subscribe(self, token: str, sub=None):
        sub = sub or self.fake.subscribe()
        r = self.api.client.post(
            f"/api/events/{self.eid}/push/subscriptions", json={"subscription": sub.info}, headers=bearer(token)
        )
        assert r.status_code == 201, r.get_json()
        return sub

    def desk(self, ops, token=None, device="desk"):
        if device == "desk":
            result = self.api.push_ok(self.eid, token or self.org, device, ops, first_seq=self.seq + 1)
            self.seq += len(ops)
            return result
        first = self.player_seq.get(device, 0) + 1
        self.player_seq[device] = first + len(ops) - 1
        return self.api.push_ok(self.eid, token, device, ops, first_seq=first)

    def as_player(self, pid: str, op):
        seq = self.player_seq.get(pid, 0) + 1
        self.player_seq[pid] = seq
        return self.api.push_ok(self.eid, self.tokens[pid], f"phone-{pid}", [op], first_seq=seq)

    def drain(self) -> int:
        return drainer(self.app).drain_until_idle()

    def received(self, pid: str):
        return self.fake.for_subscription(self.subs[pid].id)

    def outbox(self):
        with self.app.app_context():
            return db.session.execute(
                select(PushOutbox.kind, PushOutbox.state, PushOutbox.attempts, PushOutbox.subscription_id)
            ).all()


def player_tokens(app, api: Api, event_id: str, organizer: str, registered: dict) -> dict[str, str]:
    """A player token per player: by redeeming the claim codes shown when they were registered (or listed,
    on servers that list them); minted directly if neither is available."""
    shown = registered.get("claims") or []
    codes = {c["player"]: c["code"] for c in shown if c.get("code")}
    if not codes:
        r = api.client.get(f"/api/events/{event_id}/players/claims", headers=bearer(organizer))
        if r.status_code == 200:
            codes = {c["player"]: c["code"] for c in r.get_json()["claims"] if c.get("code")}
    if codes:
        return {pid: api.redeem(code)["token"] for pid, code in codes.items()}
    from backend.auth import new_token

    with app.app_context():
        tokens = {p["id"]: new_token(event_id, "player", p["id"])[1] for p in registered.get("_players", PLAYERS)}
        db.session.commit()
    return tokens


def round1(minutes: int | None = None):
    ids = [p["id"] for p in PLAYERS]
    matches = [{"table": i // 2 + 1, "players": [ids[i], ids[i + 1]]} for i in range(0, 8, 2)]
    matches.append({"players": [ids[8]], "outcomes": ["bye"]})
    start = {"type": "round.start", "payload": {"number": 1}}
    if minutes:
        start["payload"]["duration_s"] = minutes * 60
    return [
        {"type": "round.pair", "payload": {"number": 1, "matches": matches}},
        {"type": "round.publish", "payload": {"number": 1}},
        start,
    ]


def test_round_paired_reaches_each_phone_encrypted_with_table_and_opponent(push_app, fake):
    w = World(push_app, fake)
    w.desk(round1()[:1])  # a draft: nobody is told yet
    assert w.drain() == 0
    w.desk(round1()[1:])  # published, then started: one notification each, not two
    assert w.drain() == 9
    assert fake.errors == []
    ash = w.received("p1")
    assert len(ash) == 1
    assert ash[0]["body"] == "Round 1 — table 1 vs Misty W."
    assert ash[0]["title"] == "Pallet Town Cup"
    assert ash[0]["url"] == f"/#/event/{w.eid}/player"
    assert ash[0]["data"]["table"] == 1 and ash[0]["data"]["opponents"] == ["Misty W."]
    assert w.received("p2")[0]["body"] == "Round 1 — table 1 vs Ash K."
    assert w.received("p9")[0]["body"] == "Round 1 — you have a bye"
    assert w.fake.for_subscription(w.judge_sub.id) == []
    headers = fake.deliveries[0].headers
    assert headers["urgency"] == "high" and headers["ttl"] == "3600" and headers["content-encoding"] == "aes128gcm"
    # Nothing is queued twice: replaying the operations and draining again sends nothing.
    w.api.push_ok(w.eid, w.org, "desk", round1()[1:], first_seq=w.seq - 1)
    assert w.drain() == 0
    assert len(fake.deliveries) == 9
    assert {state for _, state, _, _ in w.outbox()} == {"sent"}


def test_results_disputes_resolutions_and_round_complete(push_app, fake):
    w = World(push_app, fake)
    w.desk(round1())
    w.drain()
    base = len(fake.deliveries)
    # Ash reports a win: Misty is asked to confirm.
    w.as_player("p1", report(1, 1, ["win", "loss"]))
    w.drain()
    misty = w.received("p2")[-1]
    assert misty["kind"] == "result.reported"
    assert "Ash K. reported a loss for you" in misty["body"] and "confirm" in misty["body"]
    assert w.received("p1")[-1]["kind"] == "round.paired"  # the reporter is not told
    # Brock and Gary disagree: both players and the judge hear of the dispute, once.
    w.as_player("p3", report(1, 2, ["win", "loss"]))
    w.as_player("p4", report(1, 2, ["loss", "win"]))
    w.drain()
    assert w.received("p3")[-1]["kind"] == "result.disputed"
    assert w.received("p4")[-1]["kind"] == "result.disputed"
    judge = fake.for_subscription(w.judge_sub.id)
    assert [n["kind"] for n in judge] == ["result.disputed"]
    assert "table 2" in judge[0]["body"] and judge[0]["url"] == f"/#/event/{w.eid}/disputes"
    # The judge resolves it: both players learn the result.
    w.desk(
        [
            {
                "type": "result.resolve",
                "payload": {"round": 1, "table": 2, "result": {"outcomes": ["loss", "win"]}, "reason": "slips"},
            }
        ]
    )
    w.drain()
    assert w.received("p3")[-1]["kind"] == "result.resolved" and "a loss for you" in w.received("p3")[-1]["body"]
    assert "a win for you" in w.received("p4")[-1]["body"]
    # The rest of the round: staff report; the judge hears the round is complete.
    w.as_player("p2", {"type": "result.confirm", "payload": {"round": 1, "table": 1}})
    w.desk([report(1, 3, ["win", "loss"]), report(1, 4, ["loss", "win"])])
    w.drain()
    judge = fake.for_subscription(w.judge_sub.id)
    assert [n["kind"] for n in judge] == ["result.disputed", "round.complete"]
    assert fake.errors == []
    assert len(fake.deliveries) == base + 1 + 3 + 2 + 1 + 1  # reported, disputed x3, resolved x2, confirmed, complete


def test_cut_made_and_cut_posted(push_app, fake):
    w = World(push_app, fake)
    w.desk(round1())
    w.desk([report(1, t, ["win", "loss"]) for t in range(1, 5)])
    w.drain()
    cut = {
        "type": "cut.make",
        "payload": {
            "size": 4,
            "matches": [{"table": 1, "players": ["p1", "p9"]}, {"table": 2, "players": ["p3", "p5"]}],
        },
    }
    w.desk([cut])
    assert w.drain() == 0  # a draft cut: not posted yet
    w.desk([{"type": "round.publish", "payload": {"number": 2}}])
    w.drain()
    made = w.received("p1")[-1]
    assert made["kind"] == "cut.made"
    assert made["body"] == "You made the top 4! Round 2 — table 1 vs Serena Y."
    assert w.received("p2")[-1]["kind"] == "cut.posted"
    assert w.received("p2")[-1]["body"] == "The top 4 cut is posted"
    assert w.received("p2")[-1]["url"] == f"/#/event/{w.eid}/bracket"
    assert fake.errors == []


def test_time_warning_is_scheduled_moved_and_cancelled(push_app, fake):
    w = World(push_app, fake)
    w.desk(round1(minutes=50))
    w.drain()
    with push_app.app_context():
        rows = db.session.execute(select(PushOutbox).where(PushOutbox.kind == "time.warning")).scalars().all()
        assert len(rows) == 8  # not the bye
        due = {r.next_attempt_at for r in rows}
        assert len(due) == 1 and abs(due.pop() - (time.time() * 1000 + 45 * 60_000)) < 60_000
    # Ash and Misty finish: their warnings are cancelled; an extension moves the others.
    w.as_player("p1", report(1, 1, ["win", "loss"]))
    w.as_player("p2", {"type": "result.confirm", "payload": {"round": 1, "table": 1}})
    w.desk([{"type": "timer.extend", "payload": {"seconds": 600}}])
    w.drain()  # Ash hears his win is confirmed now; only the time warnings wait
    with push_app.app_context():
        rows = db.session.execute(select(PushOutbox).where(PushOutbox.kind == "time.warning")).scalars().all()
        states = {r.player: r.state for r in rows}
        assert states["p1"] == states["p2"] == "cancelled" and states["p3"] == "pending"
        pending = {r.next_attempt_at for r in rows if r.state == "pending"}
        assert len(pending) == 1 and abs(pending.pop() - (time.time() * 1000 + 55 * 60_000)) < 60_000
        # Jump to 5 minutes before the end: the warnings go out.
        db.session.execute(PushOutbox.__table__.update().where(PushOutbox.state == "pending").values(next_attempt_at=0))
        db.session.commit()
    w.drain()
    warned = [d.payload for d in fake.deliveries if d.payload["kind"] == "time.warning"]
    assert len(warned) == 6 and warned[0]["body"] == "5 minutes left in round 1"
    assert fake.deliveries[-1].headers["ttl"] == "300"


@pytest.mark.parametrize("status", [404, 410])
def test_gone_subscription_is_removed(push_app, fake, status):
    w = World(push_app, fake)
    fake.fail_with[w.subs["p1"].id] = status
    w.desk(round1())
    w.drain()
    with push_app.app_context():
        ids = set(db.session.execute(select(PushSubscription.player)).scalars())
        assert "p1" not in ids and "p2" in ids
        states = dict(
            db.session.execute(
                select(PushOutbox.player, PushOutbox.state).where(PushOutbox.kind == "round.paired")
            ).all()
        )
    assert states["p1"] == "gone" and states["p2"] == "sent"
    # Later news is not queued for the removed subscription at all.
    w.as_player("p2", report(1, 1, ["loss", "win"]))
    assert w.drain() == 0


def test_down_service_is_retried_with_backoff_and_delivered_when_back(push_app, fake):
    w = World(push_app, fake)
    fake.stop()  # connection refused
    w.desk(round1())
    before = time.time() * 1000
    assert drainer(w.app).drain_once() == 9  # one pass: every send is refused
    rows = w.outbox()
    assert {state for _, state, _, _ in rows} == {"pending"} and {a for _, _, a, _ in rows} == {1}
    with push_app.app_context():
        due = db.session.execute(select(PushOutbox.next_attempt_at)).scalars().all()
        assert min(due) >= before + 30  # backed off (>= 0.75 x 50 ms), not retried at once
    fake.fail_with["*"] = 503  # up, but overloaded
    fake.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(state != "sent" for _, state, _, _ in w.outbox()):
        if any(a >= 3 for _, _, a, _ in w.outbox()):
            fake.fail_with.clear()
        w.drain()
        time.sleep(0.05)
    rows = w.outbox()
    assert {state for _, state, _, _ in rows} == {"sent"}
    assert min(a for _, _, a, _ in rows) >= 3
    assert len(fake.deliveries) == 9 and fake.errors == []


def test_restart_loses_nothing_and_sends_nothing_twice(database_url, tmp_path, fake):
    app1 = create_app(push_config(database_url, tmp_path / "instance", fake))
    w = World(app1, fake)
    w.desk(round1())
    fake.fail_with[w.subs["p1"].id] = 503
    fake.fail_with[w.subs["p2"].id] = 503
    w.drain()  # 7 sent; 2 waiting for a retry
    assert len(fake.deliveries) == 7
    w.as_player("p3", report(1, 2, ["win", "loss"]))  # queued, never drained by app1
    key1 = app1.extensions["topcut_vapid"].public_key
    dispose(app1)  # "crash"

    fake.fail_with.clear()
    app2 = create_app(push_config(database_url, tmp_path / "instance", fake, PUSH_WORKER=True, PUSH_POLL_SECONDS=0.05))
    try:
        assert app2.extensions["topcut_vapid"].public_key == key1  # same key from the instance folder
        drainer(app2).ensure_started()
        fake.wait_for(10, timeout=10)
        time.sleep(0.3)  # anything extra would arrive now
    finally:
        drainer(app2).stop()
        dispose(app2)
    got = [(d.subscription, d.payload["kind"]) for d in fake.deliveries]
    assert len(got) == len(set(got)) == 10
    assert (w.subs["p4"].id, "result.reported") in got
    assert fake.errors == []


def test_concurrent_drainers_send_each_notification_once(push_app, fake, database_url, tmp_path):
    w = World(push_app, fake)
    extra = [create_app(push_config(database_url, tmp_path / f"i{n}", fake, PUSH_BATCH_SIZE=3)) for n in range(3)]
    for other in extra:
        other.extensions["topcut_vapid"] = push_app.extensions["topcut_vapid"]
    w.desk(round1())
    w.as_player("p1", report(1, 1, ["win", "loss"]))
    barrier = threading.Barrier(len(extra))

    def run(app):
        barrier.wait()
        drainer(app).drain_until_idle()

    threads = [threading.Thread(target=run, args=(a,)) for a in extra]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for other in extra:
        drainer(other).stop()
        dispose(other)
    got = [(d.subscription, d.payload["kind"]) for d in fake.deliveries]
    assert len(got) == len(set(got)) == 10
    assert {state for _, state, _, _ in w.outbox()} == {"sent"}


def test_background_drainer_sends_within_moments_of_the_request(database_url, tmp_path, fake):
    app = create_app(push_config(database_url, tmp_path / "instance", fake, PUSH_WORKER=True, PUSH_POLL_SECONDS=30))
    try:
        w = World(app, fake)
        started = time.monotonic()
        w.desk(round1())
        assert len(fake.wait_for(9, timeout=5)) == 9  # woken by the commit, not by the 30 s poll
        assert time.monotonic() - started < 5
    finally:
        drainer(app).stop()
        dispose(app)


def test_endpoint_is_rechecked_at_send_time(database_url, tmp_path, fake):
    app = create_app(push_config(database_url, tmp_path / "instance", fake))
    w = World(app, fake)
    app.config["PUSH_ALLOWED_HOSTS"] = ()  # the loopback push service is no longer allowed
    drainer(app)._sender = None
    w.desk(round1())
    w.drain()
    assert fake.requests == 0
    assert {state for _, state, _, _ in w.outbox()} == {"failed"}
    with app.app_context():
        # The players' subscriptions point somewhere refused: they are dropped (the judge's was not used).
        assert set(db.session.execute(select(PushSubscription.role)).scalars()) == {"judge"}
    dispose(app)


# ---------------------------------------------------------------- concurrency and sender processes


def subscribe_crowd(app, fake: FakePushService, count: int) -> tuple[str, str, int, list]:
    """An event with ``count`` registered players, each phone subscribed (rows as the API leaves them)."""
    from backend.auth import new_token
    from backend.push.subscriptions import endpoint_hash

    api = Api(app.test_client())
    created = api.create(name="Crowded Cup")
    eid, org = created["event_id"], created["token"]
    players = [{"id": f"p{i:04d}", "name": f"Trainer{i} Surname{i}"} for i in range(count)]
    api.push_ok(eid, org, "desk", register_ops(players))
    subs = []
    with app.app_context():
        for p in players:
            token, _ = new_token(eid, "player", p["id"])
            sub = fake.subscribe()
            subs.append(sub)
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
    return eid, org, len(players), subs


def pair_everyone(api: Api, eid: str, org: str, first_seq: int, ids: list[str]) -> None:
    matches = [{"table": i // 2 + 1, "players": ids[i : i + 2]} for i in range(0, len(ids), 2)]
    api.push_ok(
        eid,
        org,
        "desk",
        [
            {"type": "round.pair", "payload": {"number": 1, "matches": matches}},
            {"type": "round.publish", "payload": {"number": 1}},
        ],
        first_seq=first_seq,
    )


def test_slow_push_service_is_sent_to_concurrently(database_url, tmp_path, fake):
    """200 notifications at 200 ms each: requests overlap (the service sees many at once), each sent once."""
    fake.latency = 0.2
    app = create_app(
        push_config(database_url, tmp_path / "instance", fake, PUSH_CONCURRENCY=64, PUSH_CONNECTIONS_PER_HOST=64)
    )
    fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
    try:
        eid, org, seq, subs = subscribe_crowd(app, fake, 200)
        pair_everyone(Api(app.test_client()), eid, org, seq + 1, [f"p{i:04d}" for i in range(200)])
        assert drainer(app).drain_until_idle() == 200
    finally:
        drainer(app).stop()
        dispose(app)
    assert fake.errors == []
    assert sorted(d.subscription for d in fake.deliveries) == sorted(s.id for s in subs)
    assert fake.max_in_flight > 32  # one sender thread per request would show 1; 16 threads, 16
    assert fake.max_in_flight <= 64  # PUSH_CONCURRENCY bounds it


def test_sender_keeps_to_its_per_host_connection_limit(database_url, tmp_path, fake):
    fake.latency = 0.05
    app = create_app(push_config(database_url, tmp_path / "instance", fake, PUSH_CONNECTIONS_PER_HOST=8))
    try:
        eid, org, seq, subs = subscribe_crowd(app, fake, 60)
        pair_everyone(Api(app.test_client()), eid, org, seq + 1, [f"p{i:04d}" for i in range(60)])
        assert drainer(app).drain_until_idle() == 60
    finally:
        drainer(app).stop()
        dispose(app)
    assert len(fake.deliveries) == 60 and fake.errors == []
    assert 1 < fake.max_in_flight <= 8


def _sender_process(database_url: str, key_file: Path, fake: FakePushService, log: Path) -> subprocess.Popen:
    """``flask --app backend topcut-push-sender``, configured from the environment as in docs/deploy.md."""
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        PYTHONPATH=str(ROOT),
        TOPCUT_VAPID_KEY_FILE=str(key_file),
        TOPCUT_PUSH_ALLOWED_HOSTS=json.dumps([fake.host]),
        TOPCUT_PUSH_BATCH_SIZE="10",
        TOPCUT_PUSH_POLL_SECONDS="0.05",
        TOPCUT_PUSH_SENDER="external",
        TOPCUT_VAPID_SUBJECT=SUBJECT,
    )
    return subprocess.Popen(
        [str(FLASK), "--app", "backend", "topcut-push-sender"],
        cwd=ROOT,
        env=env,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )


def test_two_sender_processes_send_each_notification_once(database_url, tmp_path, fake):
    """App servers only enqueue (PUSH_SENDER=external); two sender processes share the outbox."""
    fake.latency = 0.05
    app = create_app(push_config(database_url, tmp_path / "instance", fake, PUSH_SENDER="external", PUSH_WORKER=True))
    fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
    key_file = tmp_path / "instance" / "vapid_private.pem"
    logs = [tmp_path / f"sender{n}.log" for n in range(2)]
    senders = [_sender_process(database_url, key_file, fake, log) for log in logs]
    try:
        deadline = time.monotonic() + 60
        while not all("running" in log.read_text() for log in logs):  # both are polling before rows exist
            assert time.monotonic() < deadline and all(p.poll() is None for p in senders), logs[0].read_text()
            time.sleep(0.05)
        eid, org, seq, subs = subscribe_crowd(app, fake, 240)
        assert not drainer(app).enabled()  # this "app server" never sends
        pair_everyone(Api(app.test_client()), eid, org, seq + 1, [f"p{i:04d}" for i in range(240)])
        delivered = fake.wait_for(240, timeout=60)
        time.sleep(0.5)  # a double send would arrive now
        with app.app_context():
            rows = db.session.execute(select(PushOutbox.state, PushOutbox.claimed_by)).all()
    finally:
        for proc in senders:
            proc.send_signal(signal.SIGTERM)
        for proc in senders:
            assert proc.wait(timeout=20) == 0, (tmp_path / "sender0.log").read_text()[-2000:]
        dispose(app)
    assert fake.errors == []
    assert len(delivered) == len(fake.deliveries) == 240
    assert sorted(d.subscription for d in fake.deliveries) == sorted(s.id for s in subs)
    assert {state for state, _ in rows} == {"sent"}
    assert len({claimer.rsplit(":", 1)[0] for _, claimer in rows}) == 2  # both processes sent a share


def test_dns_rebinding_to_a_private_address_is_blocked_on_the_connection(tmp_path, fake):
    """A host name that now resolves to loopback is refused by the resolver the connection uses."""
    from backend.push.sender import Job, Sender
    from backend.push.vapid import VapidKeys, _new_pem

    sub = fake.subscribe()
    keys = sub.info["keys"]
    sender = Sender(VapidKeys(_new_pem(), "mailto:t@example.org"), resolver=lambda host, port: ["127.0.0.1"])
    try:
        result = sender.send(
            Job(f"https://push.example.org/push/{sub.id}", keys["p256dh"], keys["auth"], "{}", 60, "normal", None)
        )
        literal = sender.send(
            Job(f"https://[::ffff:127.0.0.1]/push/{sub.id}", keys["p256dh"], keys["auth"], "{}", 60, "normal", None)
        )
    finally:
        sender.close()
    assert result.outcome == "blocked" and "blocked-endpoint" in result.error
    assert literal.outcome == "blocked"
    assert fake.requests == 0


def test_sender_mode_and_settings_come_from_the_environment(tmp_path, monkeypatch):
    """What docs/deploy.md tells an app server: TOPCUT_* variables, JSON-parsed; a wrong mode is refused by name."""
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    monkeypatch.setenv("TOPCUT_VAPID_KEY_FILE", str(tmp_path / "vapid.pem"))
    monkeypatch.setenv("TOPCUT_PUSH_SENDER", "external")
    monkeypatch.setenv("TOPCUT_PUSH_CONCURRENCY", "64")
    monkeypatch.setenv("TOPCUT_PUSH_ALLOWED_HOSTS", '["push.lan:8443"]')
    app = create_app()
    try:
        assert app.config["PUSH_SENDER"] == "external" and app.config["PUSH_CONCURRENCY"] == 64
        assert app.config["PUSH_ALLOWED_HOSTS"] == ["push.lan:8443"]
        assert not drainer(app).enabled()
        assert (tmp_path / "vapid.pem").exists()
    finally:
        dispose(app)
    monkeypatch.setenv("TOPCUT_PUSH_SENDER", "sideways")
    with pytest.raises(ValueError, match="PUSH_SENDER must be one of inline, external, not 'sideways'"):
        create_app()


def test_inline_sender_is_the_single_machine_default(sqlite_url, tmp_path):
    app = create_app(
        {"INSTANCE_PATH": tmp_path / "instance", "SQLALCHEMY_DATABASE_URI": sqlite_url, "VAPID_SUBJECT": SUBJECT}
    )
    try:
        assert app.config["PUSH_SENDER"] == "inline" and drainer(app).enabled()
    finally:
        dispose(app)


def test_push_service_slower_than_the_timeout_is_retried_later(database_url, tmp_path, fake):
    fake.latency = 1.0
    app = create_app(push_config(database_url, tmp_path / "instance", fake, PUSH_TIMEOUT=(0.5, 0.2)))
    try:
        w = World(app, fake)
        w.desk(round1())
        assert drainer(app).drain_once() == 9
        rows = w.outbox()
        assert {state for _, state, _, _ in rows} == {"pending"} and {a for _, _, a, _ in rows} == {1}
        with app.app_context():
            errors = set(db.session.execute(select(PushOutbox.last_error)).scalars())
        assert all("Timeout" in e for e in errors), errors
    finally:
        drainer(app).stop()
        dispose(app)

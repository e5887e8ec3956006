"""Push that reaches every platform: a real VAPID subject, the 4,096-byte cap, one slot per player per kind,
older rounds dropped, no double buzz on a re-send, and a push service's refusal shown to the organizer.

Each delivery goes through the fake push service (tests/fakepush.py), which refuses what Apple's does.
"""

from __future__ import annotations

import json
import logging

import pytest
from sqlalchemy import select, update

from backend import create_app
from backend.db import db
from backend.models import PushOutbox, PushSubscription
from backend.push.notifications import MAX_PAYLOAD_BYTES
from backend.push.queue import drainer
from backend.push.sender import SendResult
from backend.push.vapid import OFF_MESSAGE, subject_problem
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, register_ops, report
from tests.backend.test_push_delivery import World, player_tokens, push_config, round1
from tests.fakepush import SUBJECT, FakePushService


@pytest.fixture
def fake():
    with FakePushService() as service:
        yield service


@pytest.fixture
def push_app(database_url, tmp_path, fake):
    app = create_app(push_config(database_url, tmp_path / "instance", fake))
    fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
    yield app
    drainer(app).stop()
    dispose(app)


# ---------------------------------------------------------------- the VAPID subject


@pytest.mark.parametrize(
    "subject",
    [
        "mailto:organizer@pallet-town-league.org",
        "mailto:TO@regionals.co.uk",
        "https://pallet-town-league.org/contact",
        " mailto:organizer@pallet-town-league.org ",
    ],
)
def test_a_real_contact_is_a_good_vapid_subject(subject):
    assert subject_problem(subject) is None


@pytest.mark.parametrize(
    ("subject", "says"),
    [
        (None, "VAPID_SUBJECT is not set"),
        ("", "VAPID_SUBJECT is not set"),
        ("mailto:topcut@localhost", "localhost is not a real domain"),
        ("mailto:to@hall.local", "hall.local is not a real domain"),
        ("mailto:to@nowhere.invalid", "not a real domain"),
        ("mailto:organizer@example.org", "example.org is not a real domain"),
        ("mailto:organizer@mail.example.com", "not a real domain"),
        ("https://example.net", "not a real domain"),
        ("mailto:to@192.168.1.10", "is an IP address"),
        ("https://[2001:db8::1]/", "is an IP address"),
        ("mailto:to@topcut", "not a public domain name"),
        ("mailto:@pallet-town-league.org", "is not a mailto: address"),
        ("organizer@pallet-town-league.org", "must start with mailto: or https://"),
        ("http://pallet-town-league.org", "must start with mailto: or https://"),
    ],
)
def test_a_subject_push_services_refuse_is_named(subject, says):
    problem = subject_problem(subject)
    assert problem is not None and says in problem and "VAPID_SUBJECT" in problem


def test_without_configuration_the_app_starts_with_push_off_and_says_the_setup_step(sqlite_url, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="backend.push"):
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "i", "SQLALCHEMY_DATABASE_URI": sqlite_url})
    try:
        assert "TOPCUT_VAPID_SUBJECT=mailto:" in caplog.text and "docs/deploy.md" in caplog.text
        client = app.test_client()
        key = client.get("/api/push/vapid-public-key").get_json()
        assert key["enabled"] is False and key["message"] == OFF_MESSAGE and len(key["public_key"]) > 80
        api = Api(client)
        created = api.create(name="Cup")
        sub = FakePushService().subscribe()
        r = client.post(
            f"/api/events/{created['event_id']}/push/subscriptions",
            json={"subscription": sub.info},
            headers=bearer(created["token"]),
        )
        assert r.status_code == 503 and r.get_json() == {"error": "push-off", "message": OFF_MESSAGE}
        assert not drainer(app).enabled()
        status = client.get(f"/api/events/{created['event_id']}/push/status", headers=bearer(created["token"]))
        assert status.get_json()["enabled"] is False and status.get_json()["message"] == OFF_MESSAGE
    finally:
        dispose(app)


def test_push_explicitly_on_with_a_bad_subject_refuses_to_start_naming_the_setting(sqlite_url, tmp_path):
    for subject in (None, "mailto:topcut@localhost"):
        config = {"TESTING": True, "INSTANCE_PATH": tmp_path / "i", "SQLALCHEMY_DATABASE_URI": sqlite_url}
        with pytest.raises(RuntimeError, match=r"PUSH_ENABLED is true but VAPID_SUBJECT .*docs/deploy.md"):
            create_app({**config, "PUSH_ENABLED": True, "VAPID_SUBJECT": subject})


def test_a_bad_subject_without_push_explicitly_on_turns_push_off(sqlite_url, tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", sqlite_url)
    monkeypatch.setenv("TOPCUT_INSTANCE_PATH", str(tmp_path / "env"))
    monkeypatch.setenv("TOPCUT_VAPID_SUBJECT", "mailto:topcut@localhost")
    app = create_app()
    try:
        assert app.config["PUSH_ENABLED"] is False
        assert app.test_client().get("/api/push/vapid-public-key").get_json()["enabled"] is False
    finally:
        dispose(app)
    monkeypatch.setenv("TOPCUT_VAPID_SUBJECT", SUBJECT)
    app = create_app()
    try:
        assert app.config["PUSH_ENABLED"] is True
        assert app.test_client().get("/api/push/vapid-public-key").get_json() == {
            "public_key": app.extensions["topcut_vapid"].public_key,
            "enabled": True,
            "message": None,
        }
    finally:
        dispose(app)


# ---------------------------------------------------------------- 4,096 bytes


def test_very_long_names_still_make_a_push_under_4096_bytes(push_app, fake):
    api = Api(push_app.test_client())
    created = api.create(name="Pallet Town " + "Championship Series " * 9)  # 200 characters, the longest
    eid, org = created["event_id"], created["token"]
    players = [
        {"id": "p1", "name": "Ash" + "-Ketchum" * 480 + " Oak"},  # 3,847 bytes
        {"id": "p2", "name": "カスミ" * 420},  # one word of 1,260 characters, 3,780 bytes
    ]
    registered = api.push_ok(eid, org, "desk", register_ops(players))
    tokens = player_tokens(push_app, api, eid, org, {**registered, "_players": players})
    subs = {}
    for pid, token in tokens.items():
        subs[pid] = fake.subscribe()
        r = api.client.post(
            f"/api/events/{eid}/push/subscriptions", json={"subscription": subs[pid].info}, headers=bearer(token)
        )
        assert r.status_code == 201
    ops = [
        {"type": "round.pair", "payload": {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}]}},
        {"type": "round.publish", "payload": {"number": 1}},
    ]
    api.push_ok(eid, org, "desk", ops, first_seq=3)
    with push_app.app_context():
        sizes = [len(p.encode()) for p in db.session.execute(select(PushOutbox.payload)).scalars()]
    assert sizes and max(sizes) <= MAX_PAYLOAD_BYTES
    assert drainer(push_app).drain_until_idle() == 2
    assert fake.errors == []  # no 413 from the push service
    assert all(int(d.headers["content-length"]) <= 4096 for d in fake.deliveries)
    ash = fake.for_subscription(subs["p1"].id)[0]
    assert ash["body"].startswith("Round 1 — table 1 vs カスミカスミ") and ash["body"].endswith("…")
    assert ash["title"].startswith("Pallet Town Championship Series") and ash["title"].endswith("…")
    assert len(ash["data"]["opponents"][0]) <= 32
    misty = fake.for_subscription(subs["p2"].id)[0]
    assert misty["body"].startswith("Round 1 — table 1 vs Ash-Ketchum") and misty["body"].endswith("O.")


# ---------------------------------------------------------------- collapse and older rounds


def round2_ops():
    ids = [f"p{i}" for i in range(1, 10)]
    matches = [{"table": i // 2 + 1, "players": [ids[i], ids[i + 1]]} for i in range(0, 8, 2)]
    matches.append({"players": [ids[8]], "outcomes": ["bye"]})
    matches[0], matches[1] = {"table": 1, "players": ["p1", "p3"]}, {"table": 2, "players": ["p2", "p4"]}
    return [
        {"type": "round.pair", "payload": {"number": 2, "matches": matches}},
        {"type": "round.publish", "payload": {"number": 2}},
    ]


def test_a_newer_round_drops_the_older_pairing_still_waiting_and_replaces_it_on_the_phone(push_app, fake):
    w = World(push_app, fake)
    fake.fail_with[w.subs["p1"].id] = 503  # Ash's push service is down during round 1
    w.desk(round1())
    w.drain()
    assert w.received("p1") == []
    w.desk([report(1, t, ["win", "loss"]) for t in range(1, 5)])
    fake.fail_with.clear()
    w.desk(round2_ops())
    with push_app.app_context():
        states = dict(
            db.session.execute(
                select(PushOutbox.ref, PushOutbox.state).where(
                    PushOutbox.player == "p1", PushOutbox.kind == "round.paired"
                )
            ).all()
        )
    assert states == {"swiss:1": "superseded", "swiss:2": "pending"}
    with push_app.app_context():  # make round 1's retry due now: it must still not go out
        db.session.execute(update(PushOutbox).values(next_attempt_at=0).where(PushOutbox.state == "pending"))
        db.session.commit()
    w.drain()
    ash = w.received("p1")
    assert [n["data"]["round"] for n in ash] == [2]  # never round 1's table after round 2's
    # Everyone's round 1 and round 2 pairings share one slot: the tag (and the Web Push Topic) is per player.
    misty = w.received("p2")
    assert [n["data"]["round"] for n in misty] == [1, 2]
    assert misty[0]["tag"] == misty[1]["tag"] == f"{w.eid}:pairing:p2"
    topics = {d.headers["topic"] for d in fake.deliveries if d.subscription == w.subs["p2"].id}
    assert len(topics) == 1
    assert w.received("p3")[0]["tag"] != misty[0]["tag"]  # one slot per player, not one for everyone
    assert fake.errors == []


def test_a_retry_that_comes_back_after_newer_news_is_not_sent(push_app, fake):
    w = World(push_app, fake)
    w.desk(round1())
    with push_app.app_context():
        row = db.session.execute(
            select(PushOutbox).where(PushOutbox.player == "p1", PushOutbox.kind == "round.paired")
        ).scalar_one()
        row_id, sub_id = row.id, row.subscription_id
    d = drainer(push_app)
    # Round 1's send to Ash is on the wire (claimed) when round 2 is queued, then the push service says 503.
    with push_app.app_context():
        db.session.execute(update(PushOutbox).where(PushOutbox.id != row_id).values(state="cancelled"))
        db.session.commit()
    with push_app.app_context():
        claimed = d._claim()
    assert [r["id"] for r, _ in claimed] == [row_id]
    w.desk([report(1, t, ["win", "loss"]) for t in range(1, 5)])
    w.desk(round2_ops())
    with push_app.app_context():
        d._record(claimed, {row_id: SendResult("retry", 503, "HTTP 503")})
        state = db.session.get(PushOutbox, row_id).state
        newer = db.session.execute(
            select(PushOutbox.state).where(PushOutbox.subscription_id == sub_id, PushOutbox.ref == "swiss:2")
        ).scalar_one()
    assert (state, newer) == ("superseded", "pending")


def test_a_resend_carries_the_same_news_id_so_the_phone_does_not_buzz_twice(push_app, fake):
    w = World(push_app, fake)
    w.desk(round1())
    d = drainer(push_app)
    with push_app.app_context():
        claimed = d._claim()  # a sender claims them and dies before recording
        db.session.execute(update(PushOutbox).values(lease_until=0))
        db.session.commit()
    assert len(claimed) == 9
    w.drain()  # another takes them over after the lease: the same messages again
    again = w.received("p1")
    assert len(again) == 1
    first = next(json.loads(r["payload"]) for r, _ in claimed if json.loads(r["payload"])["body"] == again[0]["body"])
    assert again[0]["id"] == first["id"]  # the phone shows it silently if already shown (pwa/sw/push.js)
    # News is a new id: Ash's opponent reports, then a judge rules: each is news in the "result" slot.
    w.as_player("p2", report(1, 1, ["loss", "win"]))
    w.drain()
    reported = w.received("p1")[-1]
    assert reported["kind"] == "result.reported" and reported["id"] != again[0]["id"]
    assert reported["tag"] == f"{w.eid}:result:p1"


# ---------------------------------------------------------------- refusals reported


def test_a_403_from_the_push_service_is_shown_to_the_organizer_with_its_cause(push_app, fake):
    w = World(push_app, fake)
    fake.fail_with[w.subs["p1"].id] = 403
    fake.fail_with[w.subs["p2"].id] = 403
    w.desk(round1())
    w.drain()
    status = w.api.client.get(f"/api/events/{w.eid}/push/status", headers=bearer(w.org)).get_json()
    assert status["outbox"] == {"sent": 7, "failed": 2}
    (problem,) = status["problems"]
    assert problem["status_code"] == 403 and problem["count"] == 2 and problem["devices"] == 2
    assert "refused by the test" in problem["cause"]
    assert "VAPID_SUBJECT" in problem["advice"] and "docs/deploy.md" in problem["advice"]
    assert problem["last_at"] > 0
    with push_app.app_context():  # the device is not at fault: its subscription stays for the fix
        players = set(db.session.execute(select(PushSubscription.player)).scalars())
    assert {"p1", "p2"} <= players
    judge = w.api.client.get(f"/api/events/{w.eid}/push/status", headers=bearer(w.judge))
    assert judge.status_code in (200, 403)

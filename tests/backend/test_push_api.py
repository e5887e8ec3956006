"""Push subscriptions API: VAPID key, subscribe/replace/renew/unsubscribe, endpoint validation (SSRF)."""

from __future__ import annotations

import os
import stat

import pytest
from sqlalchemy import select

from backend import create_app
from backend.db import db
from backend.models import PushSubscription
from backend.push import security
from tests.backend.conftest import dispose
from tests.backend.helpers import PLAYERS as PLAYER_ROWS
from tests.backend.helpers import Api, bearer, pair_ops, register_ops
from tests.backend.test_push_delivery import player_tokens
from tests.fakepush import SUBJECT, FakePushService

PUBLIC_IP = "142.250.74.46"
DNS = {
    "push.example.com": [PUBLIC_IP],
    "localhost": ["127.0.0.1", "::1"],
    "internal.example": ["10.0.0.5"],
    "mixed.example": [PUBLIC_IP, "192.168.0.7"],
    "metadata.example": ["169.254.169.254"],
    "v6.example": ["2a00:1450:4007:80e::200e"],
    "ula.example": ["fd12:3456::1"],
}


def fake_resolver(host: str, port: int) -> list[str]:
    if host not in DNS:
        raise OSError("Name or service not known")
    return DNS[host]


@pytest.fixture
def app(database_url, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "PUSH_RESOLVER": fake_resolver,
            "PUSH_ALLOWED_HOSTS": "127.0.0.1:9",
            "VAPID_SUBJECT": SUBJECT,
        }
    )
    yield app
    dispose(app)


@pytest.fixture
def event(app, client):
    api = Api(client)
    created = api.create(name="Cup")
    eid, org = created["event_id"], created["token"]
    registered = api.push_ok(eid, org, "desk", register_ops())
    players = player_tokens(app, api, eid, org, {**registered, "_players": PLAYER_ROWS})
    return {"id": eid, "org": org, "players": players, "api": api}


def info(endpoint: str = "https://push.example.com/wpush/v2/abc", sub=None) -> dict:
    sub = sub or FakePushService().subscribe()
    data = sub.info
    data["endpoint"] = endpoint
    return data


def subscribe(client, event_id, token, subscription):
    return client.post(
        f"/api/events/{event_id}/push/subscriptions", json={"subscription": subscription}, headers=bearer(token)
    )


def rows(app):
    with app.app_context():
        return db.session.execute(select(PushSubscription)).scalars().all()


def test_vapid_key_is_made_once_kept_in_the_instance_folder_and_served(app, client, tmp_path, database_url):
    r = client.get("/api/push/vapid-public-key")
    assert r.status_code == 200
    key = r.get_json()["public_key"]
    raw = security.b64url_decode(key)
    assert len(raw) == 65 and raw[0] == 4
    path = tmp_path / "instance" / "vapid_private.pem"
    assert path.is_file() and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    again = create_app(
        {"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "SQLALCHEMY_DATABASE_URI": database_url}
    )
    assert again.extensions["topcut_vapid"].public_key == key
    runner = again.test_cli_runner()
    out = runner.invoke(args=["topcut-vapid"])
    assert out.exit_code == 0 and key in out.output
    rotated = runner.invoke(args=["topcut-vapid", "--rotate"])
    assert rotated.exit_code == 0 and key not in rotated.output
    dispose(again)


def test_player_and_staff_subscribe_and_a_renewed_browser_replaces_its_row(app, client, event):
    sub = FakePushService().subscribe()
    r = subscribe(client, event["id"], event["players"]["p1"], info(sub=sub))
    assert r.status_code == 201
    body = r.get_json()
    assert (body["role"], body["player"], body["event_id"]) == ("player", "p1", event["id"])
    # The same endpoint again (new keys): one row, new keys.
    newer = FakePushService().subscribe()
    r2 = subscribe(client, event["id"], event["players"]["p1"], info(sub=newer))
    assert r2.status_code == 201 and r2.get_json()["subscription_id"] == body["subscription_id"]
    (row,) = rows(app)
    assert row.p256dh == newer.info["keys"]["p256dh"]
    staff = event["api"].staff_token(event["id"], event["org"], "judge")
    r3 = subscribe(client, event["id"], staff, info("https://push.example.com/other"))
    assert r3.status_code == 201 and r3.get_json()["role"] == "judge" and r3.get_json()["player"] is None
    assert subscribe(client, event["id"], "nope", info()).status_code == 401
    assert (
        client.post(f"/api/events/{event['id']}/push/subscriptions", json={"subscription": info()}).status_code == 401
    )


def test_pushsubscriptionchange_renewal_needs_the_old_auth_secret(app, client, event):
    old = FakePushService().subscribe()
    subscribe(client, event["id"], event["players"]["p2"], info("https://push.example.com/old", old))
    new = info("https://push.example.com/new")
    wrong = client.post(
        "/api/push/renew",
        json={
            "old_endpoint": "https://push.example.com/old",
            "old_auth": "AAAAAAAAAAAAAAAAAAAAAA",
            "subscription": new,
        },
    )
    assert wrong.status_code == 404 and wrong.get_json()["error"] == "unknown-subscription"
    ok = client.post(
        "/api/push/renew",
        json={
            "old_endpoint": "https://push.example.com/old",
            "old_auth": old.info["keys"]["auth"],
            "subscription": new,
        },
    )
    assert ok.status_code == 200 and ok.get_json() == {"renewed": 1}
    (row,) = rows(app)
    assert (row.endpoint, row.player) == ("https://push.example.com/new", "p2")


def test_unsubscribe_only_ones_own(app, client, event):
    subscribe(client, event["id"], event["players"]["p1"], info("https://push.example.com/p1"))
    url = f"/api/events/{event['id']}/push/unsubscribe"
    other = client.post(url, json={"endpoint": "https://push.example.com/p1"}, headers=bearer(event["players"]["p2"]))
    assert other.status_code == 200 and other.get_json() == {"removed": False}
    own = client.post(url, json={"endpoint": "https://push.example.com/p1"}, headers=bearer(event["players"]["p1"]))
    assert own.get_json() == {"removed": True}
    assert rows(app) == []


def test_status_is_for_staff(client, event):
    subscribe(client, event["id"], event["players"]["p1"], info())
    r = client.get(f"/api/events/{event['id']}/push/status", headers=bearer(event["org"]))
    assert r.status_code == 200 and r.get_json() == {
        "enabled": True,
        "message": None,
        "problems": [],
        "subscriptions": 1,
        "players_subscribed": 1,
        "outbox": {},
    }
    denied = client.get(f"/api/events/{event['id']}/push/status", headers=bearer(event["players"]["p1"]))
    assert denied.status_code == 403 and denied.get_json()["error"] == "forbidden"


ENDPOINTS = [
    ("https://127.0.0.1/push", "blocked-endpoint"),
    ("https://127.8.9.10/push", "blocked-endpoint"),
    ("https://10.1.2.3/push", "blocked-endpoint"),
    ("https://172.16.0.1/push", "blocked-endpoint"),
    ("https://172.31.255.254/push", "blocked-endpoint"),
    ("https://192.168.1.1/push", "blocked-endpoint"),
    ("https://169.254.169.254/latest/meta-data", "blocked-endpoint"),
    ("https://100.64.0.1/push", "blocked-endpoint"),
    ("https://0.0.0.0/push", "blocked-endpoint"),
    ("https://[::1]/push", "blocked-endpoint"),
    ("https://[fc00::1]/push", "blocked-endpoint"),
    ("https://[fe80::1]/push", "blocked-endpoint"),
    ("https://[::ffff:10.0.0.1]/push", "blocked-endpoint"),
    ("https://[64:ff9b::a00:1]/push", "blocked-endpoint"),
    ("https://localhost/push", "blocked-endpoint"),
    ("https://internal.example/push", "blocked-endpoint"),
    ("https://mixed.example/push", "blocked-endpoint"),
    ("https://metadata.example/push", "blocked-endpoint"),
    ("https://ula.example/push", "blocked-endpoint"),
    ("https://push.example.com:8443/push", "blocked-endpoint"),
    ("http://push.example.com/push", "insecure-endpoint"),
    ("http://127.0.0.1:9/push", None),  # listed in PUSH_ALLOWED_HOSTS
    ("http://127.0.0.1:10/push", "insecure-endpoint"),
    ("https://user:pw@push.example.com/push", "invalid-endpoint"),
    ("ftp://push.example.com/push", "invalid-endpoint"),
    ("https:///push", "invalid-endpoint"),
    ("https://push.example.com/a b", "invalid-endpoint"),
    ("https://nowhere.example/push", "unresolvable-endpoint"),
    ("https://push.example.com/push", None),
    ("https://v6.example/push", None),
]


def test_endpoints_must_be_https_on_public_hosts(client, event):
    """Loopback, private, link-local, CGNAT, mapped... literal or behind a name: refused (one app for all cases)."""
    for endpoint, code in ENDPOINTS:
        r = subscribe(client, event["id"], event["players"]["p1"], info(endpoint))
        if code is None:
            assert r.status_code == 201, (endpoint, r.get_json())
        else:
            assert r.status_code == 422, (endpoint, r.get_json())
            assert r.get_json()["error"] == code and r.get_json()["message"], endpoint


BAD_KEYS = [
    ({"p256dh": "AAAA"}, "65 bytes"),
    ({"p256dh": "B" + "A" * 86}, "P-256"),
    ({"p256dh": None}, None),
    ({"p256dh": "!!"}, "base64url"),
    ({"auth": "AAAA"}, "16 bytes"),
]


def test_bad_keys_are_refused(client, event):
    for keys, fragment in BAD_KEYS:
        bad = info()
        bad["keys"] = {**bad["keys"], **keys}
        r = subscribe(client, event["id"], event["players"]["p1"], bad)
        assert r.status_code == 422, keys
        assert fragment is None or fragment in r.get_json()["message"], (keys, r.get_json())


def test_public_address_rules():
    for address in ("8.8.8.8", "2a00:1450::1", PUBLIC_IP):
        assert security.is_public_address(address), address
    for address in (
        "127.0.0.1",
        "10.0.0.1",
        "172.20.1.1",
        "192.168.0.1",
        "169.254.1.1",
        "::1",
        "fc00::1",
        "fe80::1%eth0",
        "::ffff:192.168.0.1",
        "2002:c0a8:0001::1",
        "224.0.0.1",
        "255.255.255.255",
        "198.18.0.1",
        "not-an-ip",
    ):
        assert not security.is_public_address(address), address


def test_pushes_address_the_subscriptions_as_they_are_now_whichever_server_changed_them(app, client, event):
    # Each app server keeps the event's subscriptions grouped between pushes (backend/push/notifications.py): a
    # subscription made, removed, or whose token is revoked, on any server, is what the next push addresses.
    from backend.models import PushOutbox

    eid, org, players, api = event["id"], event["org"], event["players"], event["api"]

    def resolved_for(endpoint: str) -> int:
        with app.app_context():
            sid = db.session.scalar(select(PushSubscription.id).where(PushSubscription.endpoint == endpoint))
            return len(
                db.session.scalars(
                    select(PushOutbox.key).where(
                        PushOutbox.subscription_id == sid, PushOutbox.kind == "result.resolved"
                    )
                ).all()
            )

    def correct(seq: int, outcomes: list[str]) -> None:
        payload = {"round": 1, "table": 1, "outcomes": outcomes, "reason": "the players swapped seats"}
        api.push_ok(eid, org, "desk", [{"type": "result.correct", "payload": payload}], first_seq=seq)

    one, two = "https://push.example.com/p1", "https://push.example.com/p2"
    assert subscribe(client, eid, players["p1"], info(one)).status_code == 201
    api.push_ok(eid, org, "desk", pair_ops(1), first_seq=9)  # table 1: p1 and p2
    correct(11, ["loss", "win"])
    assert resolved_for(one) == 1
    other = create_app(dict(app.config))  # another app server: p2 subscribes there
    try:
        assert subscribe(other.test_client(), eid, players["p2"], info(two)).status_code == 201
    finally:
        dispose(other)
    correct(12, ["win", "loss"])
    assert (resolved_for(one), resolved_for(two)) == (2, 1)
    revoked = client.delete(f"/api/events/{eid}/players/p2/claim", headers=bearer(org))
    assert revoked.status_code in (200, 204), revoked.get_json()
    correct(13, ["loss", "win"])
    assert (resolved_for(one), resolved_for(two)) == (3, 1), "a revoked token's phone is not addressed"
    gone = client.post(f"/api/events/{eid}/push/unsubscribe", json={"endpoint": one}, headers=bearer(players["p1"]))
    assert gone.get_json() == {"removed": True}

    def queued() -> int:
        with app.app_context():
            return len(db.session.scalars(select(PushOutbox.key).where(PushOutbox.event_id == eid)).all())

    before = queued()
    correct(14, ["win", "loss"])
    assert queued() == before, "no phone is subscribed any more"

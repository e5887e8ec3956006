"""Push in headless Chromium: subscribe (stubbed PushManager), the server sends, the service worker shows it.

The page subscribes with pwa/sw/push.js's ``subscribeToPush`` (``PushManager.subscribe`` is stubbed with
keys this test made: a real subscription needs the internet); the server queues and sends the round's
pairing to the local fake push service, which decrypts it; that plaintext is delivered to the service
worker through the DevTools protocol (``ServiceWorker.deliverPushMessage``). The notification must be
shown with the player's table and opponent, and its click path must open the player's screen.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from werkzeug.middleware.shared_data import SharedDataMiddleware
from werkzeug.serving import make_server

from backend import create_app
from backend.push.queue import drainer
from tests.backend.helpers import Api, register_ops
from tests.backend.test_push_delivery import player_tokens
from tests.browser.helpers import PushablePage, wait_js
from tests.fakepush import SUBJECT, FakePushService

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [{"id": "p1", "name": "Ash Ketchum"}, {"id": "p2", "name": "Misty Williams"}]

STUB = """
([endpoint, p256dh, auth]) => {
  const decode = (t) => Uint8Array.from(atob(t.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((t.length + 3) % 4)),
                                        (c) => c.charCodeAt(0));
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    current = {
      endpoint, expirationTime: null, options,
      getKey: (name) => decode(name === "auth" ? auth : p256dh).buffer,
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      unsubscribe: async () => { current = null; return true; },
    };
    window.subscribedWith = options;
    return current;
  };
}
"""


@pytest.fixture
def push_server(tmp_path):
    with FakePushService() as fake:
        app = create_app(
            {
                "INSTANCE_PATH": tmp_path / "instance",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'push.sqlite'}",
                "PUSH_ALLOWED_HOSTS": [fake.host],
                "VAPID_SUBJECT": SUBJECT,
                "PUSH_WORKER": True,
                "PUSH_POLL_SECONDS": 0.2,
            }
        )
        fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
        app.wsgi_app = SharedDataMiddleware(
            app.wsgi_app,
            {
                "/push-test/sw-push.js": str(ROOT / "pwa" / "sw" / "push.js"),
                "/push-test": str(ROOT / "tests" / "browser" / "push_sw"),
            },
        )
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield app, fake, f"http://127.0.0.1:{server.server_port}"
        finally:
            server.shutdown()
            thread.join(5)
            drainer(app).stop()


def test_service_worker_shows_the_pairing_and_opens_the_player_screen(browser, push_server):
    app, fake, origin = push_server
    api = Api(app.test_client())
    created = api.create(name="Pallet Town Cup")
    eid, org = created["event_id"], created["token"]
    registered = api.push_ok(eid, org, "desk", register_ops(PLAYERS))
    token = player_tokens(app, api, eid, org, {**registered, "_players": PLAYERS})["p1"]
    phone = fake.subscribe()  # the browser's keys, made by the test

    phone_page = PushablePage(browser, origin)
    page, errors = phone_page.page, phone_page.errors
    try:
        page.goto(origin + "/push-test/index.html")
        wait_js(page, "() => document.getElementById('state').textContent === 'ready'", timeout=20_000)

        # Subscribe through the module the app uses; the server stores the subscription for player p1.
        page.evaluate(STUB, [phone.endpoint, phone.info["keys"]["p256dh"], phone.info["keys"]["auth"]])
        key = page.evaluate("async () => (await (await fetch('/api/push/vapid-public-key')).json()).public_key")
        assert key == app.extensions["topcut_vapid"].public_key
        sent = page.evaluate(
            """async ([eventId, token, key]) => {
            const { subscribeToPush } = await import('/push-test/sw-push.js');
            const json = await subscribeToPush(window.pushTest.registration, key, { eventId, token });
            const used = new Uint8Array(window.subscribedWith.applicationServerKey);
            return { json, userVisibleOnly: window.subscribedWith.userVisibleOnly, keyLength: used.length };
        }""",
            [eid, token, key],
        )
        assert sent["json"]["endpoint"] == phone.endpoint
        assert sent["userVisibleOnly"] is True and sent["keyLength"] == 65

        # The desk pairs and publishes round 1: the server's drainer sends it, the fake service decrypts it.
        pairing = [
            {"type": "round.pair", "payload": {"number": 1, "matches": [{"table": 12, "players": ["p1", "p2"]}]}},
            {"type": "round.publish", "payload": {"number": 1}},
        ]
        api.push_ok(eid, org, "desk", pairing, first_seq=3)
        delivered = fake.wait_for(1, timeout=10)
        assert fake.errors == [] and len(delivered) == 1
        payload = delivered[0].payload
        assert payload["body"] == "Round 1 — table 12 vs Misty W."

        # Hand the decrypted message to the service worker as the browser's push service would.
        shown = phone_page.deliver_until_shown(origin, origin + "/push-test/", json.dumps(payload), payload["tag"])
        assert shown == [
            {
                "title": "Pallet Town Cup",
                "body": "Round 1 — table 12 vs Misty W.",
                "tag": f"{eid}:pairing:p1",
                "url": f"{origin}/#/event/{eid}/player",
                "table": 12,
            }
        ]

        # Tapping it: the click handler closes it and takes the app's window to the player's screen.
        page.evaluate(
            "(tag) => window.pushTest.registration.active.postMessage({ type: 'test-click', tag })", shown[0]["tag"]
        )
        page.wait_for_url(f"{origin}/#/event/{eid}/player", timeout=10_000)
        assert errors == []
    finally:
        phone_page.close()

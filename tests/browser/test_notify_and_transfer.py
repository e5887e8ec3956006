"""The notifications button's states and the transfer code into the installed app, on a 390×844 phone.

The server sends to the local fake push service (tests/fakepush.py; Chromium cannot reach a real push
service from here, so ``PushManager.subscribe`` is stubbed with keys the test made). The player's button
says whether notifications are on for this device; a push service's 403 reaches the organizer's Staff
screen with its cause; a claimed phone carries its seat into a second, separate-storage copy of the app
(what an iPhone's home-screen app is) with a one-time code that then refuses a second use. Without a
VAPID subject the buttons say push is off on the server and what the organizer sets.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from werkzeug.serving import make_server

from backend import create_app
from backend.push.queue import drainer
from tests.browser.helpers import shot, wait_js, wait_ready
from tests.browser.test_player_phone import PHONE, api
from tests.fakepush import SUBJECT, FakePushService

# PushManager as a browser with a push service would have it, for keys the test made; the subscription
# survives a reload (kept in localStorage) as a real one does.
STUB = """
(() => {
  const KEY = "stub.subscription";
  const make = (json, options) => ({
    endpoint: json.endpoint, expirationTime: null, options,
    toJSON: () => json,
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
  });
  PushManager.prototype.getSubscription = async function () {
    const json = JSON.parse(localStorage.getItem(KEY) || "null");
    return json ? make(json, {}) : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const json = JSON.parse(localStorage.getItem("stub.keys"));
    localStorage.setItem(KEY, JSON.stringify(json));
    return make(json, options);
  };
})();
"""


def stub_push(context, sub) -> None:
    """Every page of ``context`` subscribes to ``sub`` (a FakeSubscription) through the stubbed PushManager."""
    context.add_init_script(f"localStorage.setItem('stub.keys', {json.dumps(json.dumps(sub.info))});")
    context.add_init_script(STUB)


#: Every ruleset: the cards know no game, and each game's player screen mounts them.
RULESETS_NAMES = {
    "pokemon-tcg": ("Ash Ketchum", "Misty Williams"),
    "pokemon-vg": ("Dawn Berlitz", "May Maple"),
    "doomtown": ("Annie Oakley", "Bat Masterson"),
    "shatterpoint": ("Ahsoka Tano", "Cad Bane"),
    "agot": ("Arya Stark", "Brienne Tarth"),
    "startrek-1e": ("Jean-Luc Picard", "Kathryn Janeway"),
    "startrek-2e": ("Benjamin Sisko", "Kira Nerys"),
    "tribbles": ("Cyrano Jones", "Koloth Klingon"),
    "custom": ("Ada Lovelace", "Grace Hopper"),
}


@pytest.fixture
def push_server(web_build, tmp_path):
    with FakePushService() as fake:
        app = create_app(
            {
                "INSTANCE_PATH": tmp_path / "instance",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'push.sqlite'}",
                "VAPID_SUBJECT": SUBJECT,
                "PUSH_ALLOWED_HOSTS": [fake.host],
                "PUSH_WORKER": True,
                "PUSH_POLL_SECONDS": 0.2,
            }
        )
        fake.expected_vapid_key = app.extensions["topcut_vapid"].public_key
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield app, fake, f"http://127.0.0.1:{server.server_port}"
        finally:
            server.shutdown()
            thread.join(5)
            drainer(app).stop()


def event_with_two_players(url: str, ruleset: str):
    first, second = RULESETS_NAMES.get(ruleset, RULESETS_NAMES["pokemon-tcg"])
    event = api(url, "/api/events", {"name": "Pallet Town Cup", "ruleset": ruleset})
    eid, org = event["event_id"], event["token"]
    ops = [
        {"type": "player.register", "payload": {"player": {"id": "p1", "name": first}}},
        {"type": "player.register", "payload": {"player": {"id": "p2", "name": second}}},
    ]
    result = api(
        url,
        f"/api/events/{eid}/push",
        {"device": "desk", "ops": [{"seq": 1, "op": ops[0]}, {"seq": 2, "op": ops[1]}]},
        org,
    )
    return eid, org, {c["player"]: c["code"] for c in result["claims"]}


def open_app(browser, url: str, hash_: str, *, sub=None):
    context = browser.new_context(**PHONE)
    context.grant_permissions(["notifications"], origin=url)
    if sub is not None:
        stub_push(context, sub)
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/{hash_}")
    return context, page


def join(page, name: str) -> None:
    """Wait for the join a ``#join=`` link starts by itself (pwa/views/home.js) to land on the player's screen."""
    wait_ready(page, "player")
    page.wait_for_selector(f"#player-name:has-text('{name}')", timeout=60_000)


def notify_state(page, state: str) -> str:
    page.wait_for_selector(f"#notify[data-state={state}]", timeout=30_000)
    return page.locator("#notify-status").inner_text()


@pytest.mark.parametrize("ruleset", sorted(RULESETS_NAMES))
def test_phone_turns_notifications_on_and_carries_its_seat_into_the_installed_app(browser, push_server, ruleset):
    app, fake, url = push_server
    eid, org, codes = event_with_two_players(url, ruleset)
    first, second = RULESETS_NAMES[ruleset]
    phone_sub = fake.subscribe()

    ctx, phone = open_app(browser, url, f"#join={codes['p1']}", sub=phone_sub)
    try:
        join(phone, first)
        said = notify_state(phone, "available")
        assert said.startswith("Off on this device. Turn them on: you will hear when pairings go up")
        shot(phone, f"notify-01-available-{ruleset}")

        # The key is already on the device (fetched when the screen opened): the tap subscribes at once.
        assert wait_js(phone, "() => JSON.parse(localStorage.getItem('topcut.vapid') || 'null')?.enabled === true")
        phone.click("#notify")
        said = notify_state(phone, "on")
        assert said.startswith("Notifications are on for this device")
        assert phone.locator("#notify").inner_text() == "Notifications on ✓ (tap to turn off)"
        status = api(url, f"/api/events/{eid}/push/status", token=org)
        assert status["players_subscribed"] == 1 and status["enabled"] is True
        shot(phone, f"notify-02-on-{ruleset}")

        # The server's push reaches the fake push service for this phone (round 1 published).
        pairing = [
            {"type": "round.pair", "payload": {"number": 1, "matches": [{"table": 12, "players": ["p1", "p2"]}]}},
            {"type": "round.publish", "payload": {"number": 1}},
        ]
        api(
            url,
            f"/api/events/{eid}/push",
            {"device": "desk", "ops": [{"seq": 3, "op": pairing[0]}, {"seq": 4, "op": pairing[1]}]},
            org,
        )
        delivered = fake.wait_for(1, timeout=15)
        assert fake.errors == [] and delivered[0].payload["body"].startswith("Round 1 — table 12 vs ")
        assert delivered[0].payload["tag"] == f"{eid}:pairing:p1"

        # Into the installed app: a one-time code, a link and its QR code.
        phone.click("#transfer")
        phone.wait_for_selector("#transfer-code")
        code = phone.locator("#transfer-code").inner_text()
        assert phone.locator("#transfer-link").get_attribute("href").endswith(f"#join={code}")
        assert phone.locator("#transfer-card .qr svg").count() == 1
        assert "It works once, until" in phone.locator("#transfer-note").inner_text()
        phone.locator("#transfer-card").scroll_into_view_if_needed()
        shot(phone, f"notify-03-transfer-{ruleset}")

        # The "installed app" has storage of its own: the code, typed on its Join form, makes it the same player.
        ictx, installed = open_app(browser, url, "")
        try:
            installed.wait_for_selector("form[aria-labelledby=join-title] input", timeout=120_000)
            installed.fill("form[aria-labelledby=join-title] input", code.lower())
            installed.click("form[aria-labelledby=join-title] button[type=submit]")
            join(installed, first)
            assert installed.locator("#table-number").inner_text() == "Table 12"
            shot(installed, f"notify-04-installed-app-{ruleset}")
            assert installed.errors == []
        finally:
            ictx.close()

        # The code worked once; the browser it came from still works.
        octx, other = open_app(browser, url, f"#join={code}")
        try:
            other.wait_for_selector("text=this transfer code was already used", timeout=15_000)
        finally:
            octx.close()
        phone.reload()
        wait_ready(phone, "player")
        phone.wait_for_selector("#table-number:has-text('Table 12')", timeout=30_000)
        notify_state(phone, "on")  # still on after a reload: the button reads this device's subscription

        phone.click("#notify")  # tap again: off on this device and on the server
        notify_state(phone, "available")
        assert api(url, f"/api/events/{eid}/push/status", token=org)["subscriptions"] == 0
        assert phone.errors == []
    finally:
        ctx.close()


def test_organizer_sees_what_the_push_service_refused_and_a_judge_opts_in(browser, push_server):
    app, fake, url = push_server
    eid, org, codes = event_with_two_players(url, "pokemon-tcg")
    # Ash's phone subscribes through the API; its push service answers 403 (Apple's BadJwtToken, say).
    ash = fake.subscribe()
    grant = api(url, "/api/invitations/redeem", {"code": codes["p1"], "label": "phone"})
    api(url, f"/api/events/{eid}/push/subscriptions", {"subscription": ash.info}, grant["token"])
    fake.fail_with[ash.id] = 403
    pairing = [
        {"type": "round.pair", "payload": {"number": 1, "matches": [{"table": 3, "players": ["p1", "p2"]}]}},
        {"type": "round.publish", "payload": {"number": 1}},
    ]
    api(
        url,
        f"/api/events/{eid}/push",
        {"device": "desk", "ops": [{"seq": 3, "op": pairing[0]}, {"seq": 4, "op": pairing[1]}]},
        org,
    )
    deadline = time.monotonic() + 15
    while api(url, f"/api/events/{eid}/push/status", token=org)["outbox"].get("failed") != 1:
        assert time.monotonic() < deadline
        time.sleep(0.2)

    invite = api(url, f"/api/events/{eid}/invitations", {"role": "organizer", "label": "Laptop"}, org)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.grant_permissions(["notifications"], origin=url)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    try:
        page.goto(f"{url}/#join={invite['code']}")
        wait_ready(page)
        page.goto(f"{url}/#/event/{eid}/staff")
        wait_ready(page, "staff")
        page.wait_for_selector("#push-refusals")
        text = page.locator("#push-refusals").inner_text()
        assert "1 notification(s) to 1 device(s) (HTTP 403)" in text and "VAPID_SUBJECT" in text
        assert "refused by the test" in text
        assert page.locator("#push-count").inner_text().startswith("1 player(s) and 0 staff device(s)")
        notify_state(page, "available")
        page.locator("#notifications").scroll_into_view_if_needed()
        shot(page, "notify-05-staff-refusals")
        assert page.errors == []
    finally:
        context.close()

    judge_code = api(url, f"/api/events/{eid}/invitations", {"role": "judge", "label": "Judge Ada"}, org)["code"]
    jctx = browser.new_context(**PHONE)
    jctx.grant_permissions(["notifications"], origin=url)
    tablet_sub = fake.subscribe()
    stub_push(jctx, tablet_sub)
    judge = jctx.new_page()
    judge.errors = []
    judge.on("pageerror", lambda e: judge.errors.append(str(e)))
    try:
        judge.goto(f"{url}/#join={judge_code}")
        wait_ready(judge)
        judge.goto(f"{url}/#/event/{eid}/disputes")
        wait_ready(judge, "disputes")
        assert notify_state(judge, "available").endswith(
            "this device hears of disputes, judge calls and a round's last result."
        )
        judge.click("#notify")
        notify_state(judge, "on")
        shot(judge, "notify-06-judge-on")
        status = api(url, f"/api/events/{eid}/push/status", token=org)
        assert status["subscriptions"] == 2 and status["players_subscribed"] == 1
        assert judge.errors == []
    finally:
        jctx.close()


def test_without_a_vapid_subject_the_buttons_say_push_is_off_and_who_turns_it_on(browser, live_server):
    url = live_server.url
    eid, _, codes = event_with_two_players(url, "doomtown")
    ctx, phone = open_app(browser, url, f"#join={codes['p2']}")
    try:
        join(phone, RULESETS_NAMES["doomtown"][1])
        said = notify_state(phone, "off")
        assert said == "Notifications are off on this server: the organizer sets VAPID_SUBJECT (docs/deploy.md)"
        phone.click("#notify")  # a tap says it again, never nothing
        assert notify_state(phone, "off") == said
        shot(phone, "notify-07-server-off")
        assert phone.errors == []
    finally:
        ctx.close()

"""The app's own service worker shows a pushed notification and opens its screen.

The push-module test drives ``pwa/sw-push.js`` through a minimal worker; this one
checks that the real ``/pwa/sw.js`` wires ``push``, ``notificationclick`` and
``pushsubscriptionchange`` to it.
"""

from __future__ import annotations

import json

from tests.browser.helpers import PushablePage, wait_js


def test_app_service_worker_shows_a_pushed_pairing(browser, live_server) -> None:
    origin = live_server.url.rstrip("/")
    phone = PushablePage(browser, origin)
    page = phone.page
    try:
        page.goto(origin + "/")
        wait_js(page, "() => navigator.serviceWorker.controller !== null", timeout=60_000)
        payload = {"title": "Pallet Town Cup", "body": "Round 3 — table 12 vs Misty W.", "kind": "round.paired",
                   "tag": "ev1:round:swiss:3", "url": "/#/event/ev1/player", "table": 12}
        phone.deliver(origin, origin + "/", json.dumps(payload))
        # Read the notification in the same task that waits for it (one evaluate, polling inside the page).
        shown = page.evaluate("""async (tag) => {
            const registration = await navigator.serviceWorker.ready;
            for (let i = 0; i < 600; i += 1) {
                const found = await registration.getNotifications({ tag });
                if (found.length) return found.map((n) => ({ title: n.title, body: n.body, url: n.data && n.data.url }));
                await new Promise((resolve) => setTimeout(resolve, 50));
            }
            return [];
        }""", payload["tag"])
        assert shown == [{"title": "Pallet Town Cup", "body": "Round 3 — table 12 vs Misty W.",
                          "url": f"{origin}/#/event/ev1/player"}]
        wired = page.evaluate("async () => (await (await fetch('/pwa/sw.js')).text())")
        for event in ("push", "notificationclick", "pushsubscriptionchange"):
            assert f'addEventListener("{event}"' in wired
        assert phone.errors == []
    finally:
        phone.close()

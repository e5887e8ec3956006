"""The app's own service worker shows a pushed notification and opens its screen.

The push-module test drives ``pwa/sw/push.js`` through a minimal worker; this one
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
        # An open app hears of every push, and syncs at once (pwa/app/store.js: a phone polls only now and then).
        page.evaluate(
            """() => navigator.serviceWorker.addEventListener("message", (event) => {
                 if (event.data?.type === "PUSHED") window.pushedHeard = (window.pushedHeard || 0) + 1;
               })"""
        )
        payload = {
            "title": "Pallet Town Cup",
            "body": "Round 3 — table 12 vs Misty W.",
            "kind": "round.paired",
            "tag": "ev1:round:swiss:3",
            "url": "/#/event/ev1/player",
            "table": 12,
        }
        shown = phone.deliver_until_shown(origin, origin + "/", json.dumps(payload), payload["tag"])
        assert [{k: n[k] for k in ("title", "body", "tag", "url")} for n in shown] == [
            {
                "title": "Pallet Town Cup",
                "body": "Round 3 — table 12 vs Misty W.",
                "tag": payload["tag"],
                "url": f"{origin}/#/event/ev1/player",
            }
        ]
        wait_js(page, "() => window.pushedHeard >= 1", timeout=10_000)
        wired = page.evaluate("async () => (await (await fetch('/pwa/sw.js')).text())")
        for event in ("push", "notificationclick", "pushsubscriptionchange"):
            assert f'addEventListener("{event}"' in wired
        assert phone.errors == []
    finally:
        phone.close()

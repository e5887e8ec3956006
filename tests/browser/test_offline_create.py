"""An organizer creates an event with the hall's network down (issue 11, organizer tools).

The app was opened once online (the service worker holds it). With the network
off, "Create event" makes the event on the device (client-made ids), players
are registered, the sync line says the event is not on the server yet; the page
even reloads offline. When the network returns, the first sync registers the
event, then its changes: the server holds the same event and players.
"""

from __future__ import annotations

import json
import urllib.request

from tests.browser.helpers import create_event, open_page, shot, wait_controlled, wait_js, wait_ready, wait_synced


def test_an_event_created_offline_reaches_the_server_when_the_network_returns(browser, app_process) -> None:
    server = app_process
    ctx, org = open_page(browser, {"width": 1100, "height": 850}, sync_ms=1500)
    org.goto(server.url + "/")
    wait_controlled(org)

    ctx.set_offline(True)
    eid = create_event(org, server.url, "Basement Cup", "doomtown")  # the app comes from the service worker
    org.fill("textarea", "Ada\nBo\nCy")
    org.click("#register")
    org.wait_for_selector("caption:has-text('3 registered')")
    org.wait_for_selector("#sync:has-text('not on the server yet')")
    assert org.get_attribute("#sync", "data-waiting") == "4"  # the event itself and three registrations
    shot(org, "offline-create-waiting")

    org.reload()  # still offline: the app and the event come back from this device
    wait_ready(org, "players")
    org.wait_for_selector("caption:has-text('3 registered')")

    ctx.set_offline(False)
    org.evaluate("() => window.dispatchEvent(new Event('online'))")
    wait_synced(org)
    assert "not on the server yet" not in org.inner_text("#sync")
    token = wait_js(org, "async (eid) => (await (await import('/pwa/data/db.js')).getSession(eid)).token", eid)
    request = urllib.request.Request(
        f"{server.url}/api/events/{eid}/state", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        state = json.loads(response.read())["state"]
    assert state["name"] == "Basement Cup" and state["ruleset"] == "doomtown"
    assert sorted(p["name"] for p in state["players"]) == ["Ada", "Bo", "Cy"]
    assert org.errors == []
    ctx.close()

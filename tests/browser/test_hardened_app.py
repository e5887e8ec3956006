"""The app under the server's hardening: the Content-Security-Policy lets it run (Pyodide included) and is
never violated; a device rotates its staff token by itself; a judge whose access expired is told so in red,
joins again with a new code, and the changes made meanwhile send from the same device."""

from __future__ import annotations

import json
import sqlite3
import urllib.request

from tests.browser.helpers import event_id, shot, wait_controlled, wait_ready, wait_synced
from tests.browser.test_offline_event import new_page

CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def _post(server, path: str, token: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body or {}).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _session(page, eid: str) -> dict:
    return page.evaluate("(eid) => import('/pwa/data/db.js').then((m) => m.getSession(eid))", eid)


def _until_session(page, eid: str, check, timeout_s: float = 30) -> dict:
    """Poll this device's session until ``check`` holds (page.wait_for_function does not await promises)."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        session = _session(page, eid)
        if session and check(session):
            return session
        assert time.monotonic() < deadline, session
        time.sleep(0.2)


def _organizer_event(browser, server):
    ctx, org = new_page(browser, server, {"width": 1280, "height": 800})
    ctx.add_init_script(CSP_WATCH)
    console = []
    org.on("console", lambda m: console.append(m.text))
    org.goto(server.url + "/")
    org.wait_for_selector("#status[data-state=ready]", timeout=120_000)  # Pyodide booted under the CSP
    org.fill("#create-title ~ .field input[type=text]", "Locked Cup")
    org.select_option("#create-title ~ .field select", "agot")
    org.click("text=Create event")
    wait_ready(org, "players")
    eid = event_id(org)
    org.fill("textarea", "\n".join(["Ada", "Bo", "Cy", "Di"]))
    org.click("#register")
    org.wait_for_selector("caption:has-text('4 registered')")
    wait_controlled(org)
    return ctx, org, eid, console


def test_the_app_runs_under_its_content_security_policy(browser, app_process) -> None:
    server = app_process
    ctx, org, eid, console = _organizer_event(browser, server)
    org.goto(f"{server.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.click("#pair-next")  # pairing runs in the Pyodide worker
    org.wait_for_selector("#publish-round")
    org.goto(f"{server.url}/#/event/{eid}/standings")
    wait_ready(org, "standings")
    wait_synced(org)
    shot(org, "csp-standings")
    assert org.evaluate("window.__cspViolations") == []
    assert not [m for m in console if "Content Security Policy" in m], console
    assert org.errors == []
    ctx.close()


def test_a_device_rotates_its_token_and_keeps_syncing(browser, app_process) -> None:
    server = app_process
    ctx, org, eid, _ = _organizer_event(browser, server)
    wait_synced(org)
    before = _session(org, eid)
    assert before["rotate_at"] > 0  # an organizer's token expires; rotation is due at half its life
    # Half its life has passed (as for a session saved before expiry existed): the next sync rotates.
    org.evaluate("(eid) => import('/pwa/data/db.js').then((m) => m.updateSession(eid, { rotate_at: 0 }))", eid)
    after = _until_session(org, eid, lambda s: s["token"] != before["token"])
    assert after["device"] == before["device"] and after["rotate_at"] > 0, (before, after)
    tokens = server.get(f"/api/events/{eid}/tokens", after["token"])["tokens"]
    assert [t["replaced_by"] is not None for t in tokens] == [True, False]
    # Changes keep flowing with the new token.
    org.goto(f"{server.url}/#/event/{eid}/players")
    wait_ready(org, "players")
    org.fill("textarea", "Eve")
    org.click("#register")
    org.wait_for_selector("caption:has-text('5 registered')")
    wait_synced(org)
    assert len(server.get(f"/api/events/{eid}/state", after["token"])["state"]["players"]) == 5
    ctx.close()


def test_an_expired_judge_is_told_and_joins_again_without_losing_changes(browser, app_process, tmp_path) -> None:
    server = app_process
    ctx, org, eid, _ = _organizer_event(browser, server)
    wait_synced(org)
    org_token = _session(org, eid)["token"]
    code = _post(server, f"/api/events/{eid}/invitations", org_token, {"role": "scorekeeper"})["code"]
    judge_ctx, judge = new_page(browser, server, {"width": 1024, "height": 768})
    judge.goto(f"{server.url}/#join={code}")
    judge.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    first = _until_session(judge, eid, lambda s: True)
    # The scorekeeper's tablet sat in a drawer past its token's life.
    with sqlite3.connect(tmp_path / "app.sqlite") as conn:
        conn.execute("UPDATE tokens SET expires_at = 1 WHERE role = 'scorekeeper'")
    judge.evaluate(
        "(eid) => import('/pwa/data/outbox.js').then((m) => m.enqueue(eid, 'player.register', "
        "{player: {id: 'late-1', name: 'Late Larry'}}))",
        eid,
    )
    judge.goto(f"{server.url}/#/event/{eid}/players")
    red = judge.locator("#sync[data-state=refused]")
    red.wait_for(timeout=30_000)
    text = judge.locator("#sync-text").inner_text()
    assert "access expired" in text and "join the event again" in text.lower(), text
    shot(judge, "token-expired-red")
    # A new code from the organizer; the same tablet joins again: same device, the waiting change sends.
    code = _post(server, f"/api/events/{eid}/invitations", org_token, {"role": "scorekeeper"})["code"]
    judge.goto(f"{server.url}/#join={code}")
    again = _until_session(judge, eid, lambda s: s["token"] != first["token"])
    assert again["device"] == first["device"]
    judge.goto(f"{server.url}/#/event/{eid}/players")
    judge.wait_for_selector("body[data-ready]")  # the event screen is up, its outbox read (not the join screen)
    wait_synced(judge)
    names = [p["name"] for p in server.get(f"/api/events/{eid}/state", org_token)["state"]["players"]]
    assert "Late Larry" in names
    judge_ctx.close()
    ctx.close()

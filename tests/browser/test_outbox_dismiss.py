"""A refused change dismissed while offline never stops the device's sync (issue: a hole in the sequence).

Offline, the organizer's tablet holds a change the rules refuse; the judge
dismisses it, then pauses the clock, adds five minutes and resumes. Back
online, all three reach the server: the dismissed change kept its sequence
slot as a void operation. A device whose outbox already has a hole (an older
app version) repairs itself. And a push the server refuses shows red, with
what to do, never "waiting".
"""

from __future__ import annotations

from tests.browser.helpers import event_id, shot, wait_controlled, wait_ready, wait_synced
from tests.browser.test_offline_event import new_page

NAMES = ["Ada", "Bo", "Cy", "Di"]


def _started_event(browser, server):
    ctx, org = new_page(browser, server, {"width": 1280, "height": 800})
    org.goto(server.url + "/")
    org.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    org.fill("#create-title ~ .field input[type=text]", "Clock Cup")
    org.select_option("#create-title ~ .field select", "agot")
    org.click("text=Create event")
    wait_ready(org, "players")
    eid = event_id(org)
    org.fill("textarea", "\n".join(NAMES))
    org.click("#register")
    org.wait_for_selector("caption:has-text('4 registered')")
    wait_controlled(org)
    org.goto(f"{server.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.click("#pair-next")
    org.wait_for_selector("#publish-round")
    org.click("#publish-round")
    org.wait_for_selector("caption:has-text('Round 1 (swiss) — published')")
    org.click("#start-round")
    org.wait_for_selector("#round-progress")
    # Everything so far is on the server before the tablet goes offline (the indicator can
    # still show the previous sync's "0 waiting" for a moment after the click).
    _until_unsent(org, eid, lambda n: n == 0, 60)
    wait_synced(org)
    _until_server_has(
        server, org, eid, lambda st: bool(st["rounds"]) and (st["rounds"][0].get("timer") or {}).get("started_at")
    )
    return ctx, org, eid


def _until_unsent(page, eid: str, check, timeout_s: float, strict: bool = True) -> None:
    """Poll the outbox's unsent count until ``check`` holds (page.wait_for_function does not await promises)."""
    import time

    deadline = time.monotonic() + timeout_s
    while True:
        count = page.evaluate(
            "(eid) => import('/pwa/data/outbox.js').then((m) => m.unsent(eid)).then((r) => r.length)", eid
        )
        if check(count):
            return
        if time.monotonic() >= deadline:
            assert not strict, f"{count} unsent after {timeout_s} s"
            return
        time.sleep(0.2)


def _token(page, eid: str) -> str:
    return page.evaluate("(eid) => import('/pwa/data/db.js').then((m) => m.getSession(eid)).then((s) => s.token)", eid)


def _enqueue(page, eid: str, op_type: str, payload: dict) -> int:
    return page.evaluate(
        "([eid, type, payload]) => import('/pwa/data/outbox.js')"
        ".then((m) => m.enqueue(eid, type, payload)).then((row) => row.seq)",
        [eid, op_type, payload],
    )


def _rows(page, eid: str, timeout_ms: int = 30_000) -> list:
    """The outbox rows (seq, status, type) once four are pending (or whatever is there at the timeout)."""
    _until_unsent(page, eid, lambda n: n >= 4, timeout_ms / 1000, strict=False)
    return page.evaluate(
        "(eid) => import('/pwa/data/outbox.js').then((m) => m.rows(eid))"
        ".then((rs) => rs.map((r) => [r.seq, r.status, r.op.type]))",
        eid,
    )


def _until_server_has(server, page, eid: str, check, timeout_s: float = 30) -> dict:
    """Poll the server's state until ``check`` holds (the sync runs every 1.5 s in these tests)."""
    import time

    token = _token(page, eid)
    deadline = time.monotonic() + timeout_s
    while True:
        state = server.get(f"/api/events/{eid}/state", token)["state"]
        if check(state):
            return state
        assert time.monotonic() < deadline, state["rounds"]
        time.sleep(0.25)


def test_dismissed_refusal_offline_keeps_later_changes_sendable(browser, app_process) -> None:
    server = app_process
    ctx, org, eid = _started_event(browser, server)
    ctx.set_offline(True)
    # A change the rules refuse on this device (the clock is running, so "resume" is refused).
    _enqueue(org, eid, "timer.resume", {"round": 1})
    notice = org.locator(".problem:has-text('is not paused')")
    notice.wait_for(timeout=30_000)
    shot(org, "outbox-refused-offline")
    notice.locator("button:has-text('Dismiss')").click()
    org.wait_for_selector(".problem", state="detached", timeout=30_000)
    org.click("button:has-text('Pause clock')")
    org.wait_for_selector("button:has-text('Resume clock')")
    org.click("button:has-text('+5 minutes')")
    org.click("button:has-text('Resume clock')")
    org.wait_for_selector("button:has-text('Pause clock')")
    rows = _rows(org, eid)
    assert [r[2] for r in rows] == ["device.void", "timer.pause", "timer.extend", "timer.resume"], rows
    org.wait_for_selector("#sync[data-online=offline][data-waiting='4']", timeout=30_000)
    ctx.set_offline(False)
    _until_server_has(
        server,
        org,
        eid,
        lambda st: st["rounds"][0]["timer"]["extended_s"] == 300 and st["rounds"][0]["timer"]["paused_at"] is None,
    )
    wait_synced(org)
    pulled = server.get(f"/api/events/{eid}/pull?cursor=0", _token(org, eid))
    types = [o["op"]["type"] for o in pulled["ops"]]
    assert types[-4:] == ["device.void", "timer.pause", "timer.extend", "timer.resume"]
    state = server.get(f"/api/events/{eid}/state", _token(org, eid))["state"]
    timer = state["rounds"][0]["timer"]
    assert timer["extended_s"] == 300 and timer["paused_at"] is None
    assert org.errors == []
    ctx.close()


def test_a_device_with_a_hole_repairs_itself_and_a_refused_push_shows_red(browser, app_process) -> None:
    server = app_process
    ctx, org, eid = _started_event(browser, server)
    ctx.set_offline(True)
    # An older app deleted a row: seq N is missing, N+1 waits.
    hole = _enqueue(org, eid, "timer.pause", {"round": 1})
    org.evaluate(
        "([eid, seq]) => import('/pwa/data/db.js').then((m) => m.db()).then((d) => d.delete('outbox', [eid, seq]))",
        [eid, hole],
    )
    _enqueue(org, eid, "timer.extend", {"round": 1, "seconds": 60})
    ctx.set_offline(False)
    _until_server_has(server, org, eid, lambda st: st["rounds"][0]["timer"]["extended_s"] == 60)
    wait_synced(org)

    # The organizer's token is revoked elsewhere: the push is refused, and the indicator says so in red.
    org.evaluate("(eid) => import('/pwa/data/db.js').then((m) => m.updateSession(eid, {token: 'revoked-token'}))", eid)
    org.click("button:has-text('+5 minutes')")
    box = org.locator("#sync[data-state=refused]")
    box.wait_for(timeout=30_000)
    text = box.text_content()
    assert "Not syncing" in text and "join the event again" in text and "waiting" not in text
    shot(org, "outbox-refused-red")
    ctx.close()

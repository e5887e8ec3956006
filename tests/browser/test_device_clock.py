"""A tablet whose clock is an hour fast starts a round (issue 11, defect 3).

The tablet measures the server's clock when it joins and at every sync and
stamps its operations in the server's time, so the round starts now, not 58
minutes in the future, and every device's clock runs (before, every clock
froze at the full round length). The fast tablet's own clock is right too.
"""

from __future__ import annotations

import time

from tests.browser.helpers import shot, wait_ready
from tests.browser.test_forms_survive_sync import Remote

HOUR_FAST = """
(() => {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + 3600 * 1000;
})();
"""
ROUND_MS = 50 * 60 * 1000


def _open(browser, url, code, init_script=None):
    # No service worker: its Background Sync would run on the machine's true clock, which a real fast
    # device does not have (the page's Date is the only one made fast here).
    context = browser.new_context(viewport={"width": 1100, "height": 900}, service_workers="block")
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/#join={code}")
    wait_ready(page)
    return context, page


def _remaining(page) -> int:
    page.wait_for_selector(".clock[data-round='1'][data-remaining]:not([data-remaining=''])", timeout=20_000)
    return int(page.get_attribute(".clock", "data-remaining"))


def _runs(page) -> tuple[int, int]:
    """Two readings of the clock two seconds apart."""
    first = _remaining(page)
    page.wait_for_timeout(2_200)
    return first, _remaining(page)


def test_an_hour_fast_tablet_starts_a_round_every_clock_runs(browser, live_server) -> None:
    url = live_server.url
    remote = Remote(url, "custom", "Clock Night")
    remote.push(
        *[
            ("player.register", {"player": {"id": f"p{i}", "name": n}})
            for i, n in enumerate(("Ada", "Bo", "Cy", "Di"), 1)
        ],
        (
            "round.pair",
            {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]},
        ),
        ("round.publish", {"number": 1}),
    )

    fast_ctx, fast = _open(browser, url, remote.invite("head-judge"), HOUR_FAST)
    other_ctx, other = _open(browser, url, remote.invite("judge"))
    assert fast.evaluate("Date.now() - performance.timeOrigin - performance.now()") > 3500_000  # it is fast

    fast.goto(f"{url}/#/event/{remote.eid}/rounds")
    wait_ready(fast, "rounds")
    fast.fill("#round-minutes", "50")
    started = int(time.time() * 1000)
    fast.click("#start-round")

    # ---- the server holds a round started now
    deadline = time.monotonic() + 20
    while True:
        state = remote.api(f"/api/events/{remote.eid}/state", token=remote.token)["state"]
        timer = state["rounds"][0]["timer"]
        if timer is not None or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert timer is not None, "the round never reached the server"
    assert abs(timer["started_at"] - started) < 10_000, timer["started_at"] - started

    # ---- another device's clock runs from the full length down
    first, second = _runs(other)
    assert ROUND_MS - 30_000 < first <= ROUND_MS, first
    assert second < first, (first, second)
    shot(other, "clock-01-other-device")

    # ---- and so does the fast tablet's own
    first, second = _runs(fast)
    assert ROUND_MS - 30_000 < first <= ROUND_MS and second < first, (first, second)
    offset = fast.evaluate(
        f"import('/pwa/data/db.js').then(async (m) => (await m.getSession({remote.eid!r})).clock_offset)"
    )
    assert -3_610_000 < offset < -3_590_000, offset
    shot(fast, "clock-02-fast-tablet")
    assert not fast.errors and not other.errors, (fast.errors, other.errors)
    fast_ctx.close()
    other_ctx.close()

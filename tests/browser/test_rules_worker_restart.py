"""The rules worker dies after the app started: killed outright (no event at all) or by an uncaught
error. The page does not hang: the call is noticed unanswered (or the error seen), a new worker boots,
the event is folded again from the device's log, and the change the user just made appears."""

from __future__ import annotations

from tests.browser.helpers import create_event, rules, shot, wait_js
from tests.browser.test_offline_event import new_page

RULES = "import('/pwa/rules/rules-client.js')"


def test_a_dead_rules_worker_is_restarted_and_nothing_hangs(browser, app_process) -> None:
    ctx, org = new_page(browser, app_process, {"width": 1024, "height": 800})
    ctx.add_init_script("localStorage.setItem('topcut.rulesTimeoutMs', '3000')")
    eid = create_event(org, app_process.url, "Crash Cup")
    org.fill("textarea", "Ada\nBo\nCy\nDi")
    org.click("#register")
    org.wait_for_selector("caption:has-text('4 registered')")

    # ---- killed outright: terminate() gives the page no event; the next change's fold goes unanswered
    org.evaluate(f"() => {RULES}.then(async (m) => (await m.startRulesWorker()).worker.terminate())")
    org.fill("textarea", "Eve")
    org.click("#register")
    org.wait_for_selector("caption:has-text('5 registered')", timeout=120_000)
    assert org.evaluate(f"() => {RULES}.then((m) => m.rulesRestarts())") == 1
    shot(org, "rules-worker-restarted")

    # ---- an uncaught error inside the worker: seen at once, restarted, and the screens' calls answer
    org.evaluate(f"() => {RULES}.then(async (m) => (await m.startRulesWorker()).worker.postMessage('not json'))")
    wait_js(org, f"() => {RULES}.then((m) => m.rulesRestarts() === 2)", timeout=30_000)
    assert len(rules(org, "state", {"event_id": eid})["players"]) == 5  # folded again on the new worker
    assert rules(org, "standings", {"event_id": eid})["standings"] == []  # no round played yet
    org.fill("textarea", "Flo")
    org.click("#register")
    org.wait_for_selector("caption:has-text('6 registered')", timeout=60_000)

    # ---- a name the worker does not answer is refused at once, not sent
    error = org.evaluate(f"() => {RULES}.then((m) => m.rules('no_such_function')).then(() => null, (e) => e.message)")
    assert error == 'unknown rules function "no_such_function"'
    assert org.errors == []
    ctx.close()

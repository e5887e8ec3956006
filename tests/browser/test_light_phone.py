"""A light phone (issue 26): a player's phone installs the app shell alone (no Pyodide, no rules), reads the
server's player view, reports a result, and opens offline on its last table; an action made offline shows as
waiting to send and goes when the network is back. A staff tablet on the same server still gets everything."""

from __future__ import annotations

from tests.browser.helpers import shot, wait_controlled, wait_js, wait_ready, wait_synced
from tests.browser.test_player_phone import PHONE, api, setup_event

# The service worker's precache: installed (every cache it named holds its files) once the index lists a version.
PRECACHED_URLS = """async () => {
  const names = await caches.keys();
  const urls = [];
  for (const name of names.filter((n) => n.startsWith('topcut-precache-') && !n.endsWith('-index'))) {
    for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
  }
  return urls;
}"""


def light_phone(browser, url, code):
    context = browser.new_context(**PHONE)
    context.add_init_script("localStorage.setItem('topcut.playerPollMs', '1000')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page.goto(f"{url}/#join={code}")
    wait_ready(page, "player")
    return context, page, requests


def test_a_players_phone_installs_no_rules_engine_and_opens_offline(browser, live_server) -> None:
    url = live_server.url
    eid, token, claims = setup_event(url)
    ctx, annie, requests = light_phone(browser, url, claims["p1"])
    annie.wait_for_selector("#table-number:has-text('Table 1')")
    assert "Bat Masterson" in annie.text_content("#opponent")
    annie.wait_for_selector(".clock[data-round='1'] .label:has-text('Round 1')", timeout=10_000)
    wait_controlled(annie)
    # The worker installed the shell: wait until the main script is in its cache, then look at every request.
    wait_js(annie, f"async () => ({PRECACHED_URLS})().then((urls) => urls.includes('/pwa/main.js'))", timeout=60_000)
    precached = annie.evaluate(PRECACHED_URLS)
    assert not [u for u in precached if u.startswith("/pyodide/") or u == "/shared_rules.zip"], precached
    assert not [r for r in requests if "/pyodide/" in r or "shared_rules.zip" in r], requests
    assert annie.evaluate("() => globalThis.topcutReady === undefined")  # no rules engine started on this phone
    assert "Python" not in annie.text_content("#python-version")
    shot(annie, "light-phone-01-my-table")

    # Report: the server's verdict decides; the opponent's phone sees it.
    annie.click("#report-result")
    annie.click("#report [data-quick='win-0']")
    annie.click("#save-result")
    annie.wait_for_selector("#awaiting", timeout=30_000)
    wait_synced(annie)
    shot(annie, "light-phone-02-awaiting")

    # Offline: the phone opens on its last view (kept on the device) and queues a confirmation as waiting to send.
    ctx2, bat, _ = light_phone(browser, url, claims["p2"])
    bat.wait_for_selector("#their-report", timeout=30_000)
    wait_controlled(bat)
    wait_js(bat, f"async () => ({PRECACHED_URLS})().then((urls) => urls.includes('/pwa/main.js'))", timeout=60_000)
    ctx2.set_offline(True)
    bat.reload()
    wait_ready(bat, "player")
    bat.wait_for_selector("#their-report")
    assert "Table 1" in bat.text_content("#table-number")
    bat.click("#confirm-result")
    bat.wait_for_selector("#waiting-to-send")
    assert "waiting to send" in bat.text_content("#waiting-to-send")
    shot(bat, "light-phone-03-offline-waiting")
    ctx2.set_offline(False)
    bat.evaluate("() => window.dispatchEvent(new Event('online'))")
    bat.wait_for_selector("#final-result", timeout=30_000)
    annie.wait_for_selector("#final-result", timeout=30_000)
    shot(annie, "light-phone-04-confirmed")

    # Standings from the view (none until the organizer's policy publishes them: it says so).
    annie.goto(f"{url}/#/event/{eid}/standings")
    wait_ready(annie, "standings")
    annie.wait_for_selector("#view p")
    shot(annie, "light-phone-05-standings-not-yet")
    last = {"type": "result.report", "payload": {"round": 1, "table": 2, "outcomes": ["win", "loss"]}}
    api(url, f"/api/events/{eid}/push", {"device": "desk", "ops": [{"seq": 1, "op": last}]}, token)
    annie.wait_for_selector(
        "#standings-table tbody tr:not(.tb-detail) >> nth=3", timeout=30_000
    )  # the next poll brings them
    assert "Annie Oakley" in annie.text_content("#standings-table tr.me")
    assert "Calamity Jane" in annie.text_content("#standings-table")  # names from the view, not ids
    shot(annie, "light-phone-06-standings")

    # The cut posted: the bracket comes with the view, every seated player named (the phone lists only its own
    # opponents); a drafted cut shows nothing yet.
    cut = [
        {"type": "cut.make", "payload": {"size": 2, "matches": [{"players": ["p1", "p3"]}]}},
        {"type": "round.publish", "payload": {"number": 2}},
    ]
    pushed = api(url, f"/api/events/{eid}/push", {"device": "desk", "ops": [{"seq": 2, "op": cut[0]}]}, token)
    assert pushed["results"][0]["status"] == "accepted", pushed
    annie.goto(f"{url}/#/event/{eid}/bracket")
    wait_ready(annie, "bracket")
    annie.wait_for_selector("#view p:has-text('No cut yet')")
    api(url, f"/api/events/{eid}/push", {"device": "desk", "ops": [{"seq": 3, "op": cut[1]}]}, token)
    annie.wait_for_selector(".bracket-round:has-text('Calamity Jane')", timeout=30_000)
    assert "Annie Oakley" in annie.text_content(".bracket")
    shot(annie, "light-phone-07-bracket")
    assert not annie.errors and not bat.errors, (annie.errors, bat.errors)
    assert not [r for r in requests if "/pyodide/" in r], requests
    ctx.close()
    ctx2.close()


def test_a_staff_tablet_still_precaches_the_rules_engine(browser, live_server) -> None:
    url = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("#status[data-state=ready]:has-text('Rules engine ready')", timeout=120_000)
    wait_controlled(page)
    precached = page.evaluate(PRECACHED_URLS)
    assert "/pyodide/pyodide.asm.wasm" in precached and "/rules/index.json" in precached
    assert "/rules/shared_rules.state.pack" in precached  # the rules in pieces: an update fetches what changed
    shot(page, "light-staff-01-home")
    context.close()

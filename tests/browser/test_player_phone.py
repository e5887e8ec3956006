"""A player's phone: claim code -> my table and opponent -> report -> the opponent confirms; the public page."""

from __future__ import annotations

import json
import urllib.request

from tests.browser.helpers import shot, wait_ready, wait_synced

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}


def api(url, path, body=None, token=None):
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def setup_event(url):
    """A four-player Doomtown event with round 1 started, made through the API."""
    event = api(url, "/api/events", {"name": "Phone Night", "ruleset": "doomtown"})
    eid, token = event["event_id"], event["token"]
    ops = [
        {"type": "player.register", "payload": {"player": {"id": pid, "name": name}}}
        for pid, name in (
            ("p1", "Annie Oakley"),
            ("p2", "Bat Masterson"),
            ("p3", "Calamity Jane"),
            ("p4", "Doc Holliday"),
        )
    ]
    ops += [
        {
            "type": "round.pair",
            "payload": {
                "number": 1,
                "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}],
            },
        },
        {"type": "round.publish", "payload": {"number": 1}},
        {"type": "round.start", "payload": {"number": 1, "duration_s": 3600}},
    ]
    result = api(
        url,
        f"/api/events/{eid}/push",
        {"device": "setup", "ops": [{"seq": i + 1, "op": op} for i, op in enumerate(ops)]},
        token,
    )
    assert all(r["status"] == "accepted" for r in result["results"]), result
    claims = {c["player"]: c["code"] for c in result["claims"]}  # shown once, when issued (stored hashed)
    return eid, token, claims


def phone(browser, url, code, init_script=None):
    context = browser.new_context(**PHONE)
    context.add_init_script("localStorage.setItem('topcut.syncMs', '1000')")
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.goto(f"{url}/#join={code}")
    wait_ready(page, "player")
    return context, page


def test_player_reports_and_opponent_confirms(browser, live_server) -> None:
    url = live_server.url
    eid, token, claims = setup_event(url)

    ctx1, annie = phone(browser, url, claims["p1"])
    annie.wait_for_selector("#table-number:has-text('Table 1')")
    assert "Bat Masterson" in annie.text_content("#opponent")
    annie.wait_for_selector(".clock[data-round='1'] .label:has-text('Round 1')", timeout=5_000)
    assert "No round running" not in annie.text_content(".clock")
    shot(annie, "player-01-my-table")

    annie.click("#report-result")
    annie.click("#report [data-quick='win-0']")
    annie.click("#save-result")
    annie.wait_for_selector("#awaiting")
    wait_synced(annie)
    shot(annie, "player-02-awaiting-confirmation")

    ctx2, bat = phone(browser, url, claims["p2"])
    bat.wait_for_selector("#their-report", timeout=30_000)
    assert "Annie Oakley: win" in bat.text_content("#their-report")
    shot(bat, "player-03-confirm")
    bat.click("#confirm-result")
    bat.wait_for_selector("#final-result")
    wait_synced(bat)
    annie.wait_for_selector("#final-result", timeout=30_000)
    shot(annie, "player-04-confirmed")

    server_match = api(url, f"/api/events/{eid}/pairings")["rounds"][0]["matches"][0]
    assert (server_match["status"], server_match["outcomes"]) == ("confirmed", ["win", "loss"])

    # Notifications: a tap always answers (here Chromium has no push service: it says why, never nothing).
    annie.click("#notify")
    annie.wait_for_selector(
        "#notify:is([data-state=blocked], [data-state=failed], [data-state=on], [data-state=off])", timeout=30_000
    )
    said = annie.locator("#notify + p[role=status]").inner_text()
    assert said.startswith(
        (
            "Notifications could not be turned on:",
            "Notifications are blocked",
            "Notifications are on",
            "Notifications are off on this server",
            "The app is still getting ready",
        )
    ), said
    assert annie.locator("#notify").is_enabled()
    shot(annie, "player-04b-notifications-answer")

    # The public page, no token, on a phone: round 1 is still in play (table 2 has no result), so the
    # pairings by name and no standings; once the last result is in, the standings after round 1 come first.
    annie.goto(f"{url}/#/public/{eid}")
    annie.wait_for_selector("#public-pairings")
    assert annie.locator("#public-show-standings").is_disabled()
    assert "Annie Oakley" in annie.locator("#public-pairings tbody tr").first.text_content()
    last = {"type": "result.report", "payload": {"round": 1, "table": 2, "outcomes": ["win", "loss"]}}
    api(url, f"/api/events/{eid}/push", {"device": "desk", "ops": [{"seq": 1, "op": last}]}, token)
    annie.reload()
    annie.wait_for_selector("#public-standings")
    rows = annie.locator("#public-standings tbody tr")
    assert rows.count() == 4
    assert "Annie Oakley" in rows.first.text_content()
    # Columns in the ruleset's order, values rounded as on the staff standings.
    heads = annie.eval_on_selector_all("#public-standings thead th", "ths => ths.map((t) => t.textContent)")
    public = annie.evaluate("(eid) => fetch(`/api/events/${eid}/public`).then((r) => r.json())", eid)
    order, titles = public["tiebreakers"], public["tiebreaker_labels"]
    assert order and heads[4:] == [titles[k] for k in order], (heads, order, titles)
    assert "owp" not in heads  # the document's names ("Op Win %"), not the keys
    # On a phone the tables scroll inside their box: the page itself never gets wider than the screen.
    assert annie.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    cells = annie.eval_on_selector_all("#public-standings tbody td", "tds => tds.map((t) => t.textContent)")
    assert all(len(c.split(".")[-1]) == 2 for c in cells if "." in c), cells
    shot(annie, "player-05-public-standings")
    ctx1.close()
    ctx2.close()


# The clock's once-a-second redraw, switched off: what is left is the redraw on a data change.
NO_SECOND_HAND = """
const setIntervalFor = window.setInterval.bind(window);
window.setInterval = (fn, ms, ...args) => (ms === 1000 ? 0 : setIntervalFor(fn, ms, ...args));
"""


def test_clock_shows_the_started_round_as_soon_as_the_phone_knows_it(browser, live_server) -> None:
    """A fresh phone has no data when its clock first asks (it says "No round running"); the sync
    that brings the started round in must redraw the clock, not leave that until the next second."""
    eid, token, claims = setup_event(live_server.url)
    context = phone(browser, live_server.url, claims["p3"], NO_SECOND_HAND)[0]
    page = context.pages[0]
    page.wait_for_selector("#table-number:has-text('Table 2')")
    page.wait_for_selector(".clock[data-round='1']", timeout=5_000)
    text = page.text_content(".clock")
    assert text.startswith("Round 1") and "No round running" not in text, text
    remaining = int(page.get_attribute(".clock", "data-remaining"))
    assert 0 < remaining <= 3600 * 1000
    shot(page, "player-06-clock-after-first-sync")
    context.close()

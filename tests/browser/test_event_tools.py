"""The organizer's event tools in the app: close (and a refused close), delete (and offline, where it says it
needs the network), remove from this device, import an event file (good and bad), the staff device list
with names and revoke, and the big screen paging 512 players without overflowing the screen."""

from __future__ import annotations

import json
import random
import urllib.error
import urllib.request

from tests.browser.helpers import enter_result, event_id, shot, wait_js, wait_ready, wait_synced
from tests.browser.test_offline_event import new_page

FIRST = [
    "Ada",
    "Ben",
    "Cleo",
    "Dan",
    "Eve",
    "Finn",
    "Gia",
    "Hugo",
    "Iris",
    "Jack",
    "Kai",
    "Lena",
    "Milo",
    "Nia",
    "Omar",
    "Pia",
    "Quinn",
    "Rosa",
    "Sam",
    "Tara",
    "Uma",
    "Vic",
    "Wes",
    "Xena",
    "Yara",
    "Zed",
    "Abe",
    "Bea",
    "Cal",
    "Dee",
    "Eli",
    "Fay",
]
LAST = [
    "Adler",
    "Brook",
    "Cruz",
    "Dale",
    "Eaton",
    "Frost",
    "Grant",
    "Hale",
    "Ives",
    "Jones",
    "Kerr",
    "Lowe",
    "Marsh",
    "Nash",
    "Owen",
    "Price",
]


def big_event(n: int = 512) -> dict:
    """A topcut-event/1 document: n players, round 1 paired and published (not yet played)."""
    names = [f"{first} {last}" for last in LAST for first in FIRST][:n]
    random.Random(7).shuffle(names)
    players = [{"id": f"p{i + 1}", "name": name, "entry": i + 1} for i, name in enumerate(names)]
    ids = [p["id"] for p in players]
    random.Random(11).shuffle(ids)
    matches = [{"table": i // 2 + 1, "players": [ids[i], ids[i + 1]]} for i in range(0, len(ids), 2)]
    return {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "name": "Regional Championship",
        "seed": "big-512",
        "settings": {"rounds": 9},
        "players": players,
        "rounds": [{"number": 1, "stage": "swiss", "matches": matches}],
    }


def created(browser, server, name, players=(), viewport=None):
    ctx, page = new_page(browser, server, viewport or {"width": 1280, "height": 900})
    page.goto(server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    page.fill("#create-title ~ .field input[type=text]", name)
    # The games load from the rules engine after it starts: a click before would meet an empty, required select.
    page.wait_for_selector("#create-title ~ .field select option[value='pokemon-tcg']", state="attached")
    page.click("text=Create event")
    wait_ready(page, "players")
    if players:
        page.fill("textarea", "\n".join(players))
        page.click("#register")
        page.wait_for_selector(f"caption:has-text('{len(players)} registered')")
    return ctx, page


def session(page, eid):
    return page.evaluate("(eid) => import('/pwa/data/db.js').then((m) => m.getSession(eid))", eid)


def api_status(server, path, token=None, method="GET", body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(server.url + path, data=data, method=method)
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        req.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def goto(page, server, eid, screen):
    page.goto(f"{server.url}/#/event/{eid}/{screen}")
    wait_ready(page, screen)


def test_close_is_refused_while_results_are_missing_then_closes(browser, app_process) -> None:
    server = app_process
    ctx, org = created(browser, server, "Close Cup", ["Ash", "Brock", "Misty", "Gary"])
    eid = event_id(org)
    goto(org, server, eid, "rounds")
    org.click("#pair-next")
    org.click("#publish-round")
    org.click("#start-round")
    org.wait_for_selector("#round-progress")

    goto(org, server, eid, "staff")
    org.click("#close-event-button")
    org.wait_for_selector("#close-confirm")
    org.click("#close-confirm")
    message = org.locator("#close-message")
    message.wait_for(state="visible")
    text = message.inner_text()
    assert text.startswith("The event cannot be closed: round 1") and "2 matches without a final result" in text, text
    assert "tables 1, 2" in text, text
    shot(org, "close-refused")
    assert org.locator("#closed-note").count() == 0
    wait_synced(org)
    assert org.locator("#sync").get_attribute("data-rejected") == "0"  # nothing was queued to be refused

    goto(org, server, eid, "judge")
    enter_result(org, 1, "win-0")
    enter_result(org, 2, "win-1")
    goto(org, server, eid, "staff")
    org.click("#close-event-button")
    org.click("#close-confirm")
    org.wait_for_selector("#closed-note")
    wait_synced(org)
    token = session(org, eid)["token"]
    status, body = api_status(server, f"/api/events/{eid}/state", token)
    assert status == 200 and body["state"]["closed"] is True
    shot(org, "closed")
    assert org.errors == []
    ctx.close()


def test_delete_needs_the_typed_name_and_the_network_and_removes_the_event_everywhere(browser, app_process) -> None:
    server = app_process
    ctx, org = created(browser, server, "Delete Cup", ["Ash", "Brock"])
    eid = event_id(org)
    wait_synced(org)
    token = session(org, eid)["token"]
    goto(org, server, eid, "staff")
    button = org.locator("#delete-event")
    assert button.is_disabled()
    org.fill("#delete-confirm", "Delete")
    assert button.is_disabled()
    org.fill("#delete-confirm", "delete  cup")
    assert button.is_enabled()

    ctx.set_offline(True)
    button.click()
    message = org.locator("#delete-message")
    message.wait_for(state="visible")
    assert "needs the network" in message.inner_text() and "nothing was deleted" in message.inner_text()
    shot(org, "delete-offline")
    assert session(org, eid) is not None
    ctx.set_offline(False)
    assert api_status(server, f"/api/events/{eid}", token)[0] == 200

    button.click()
    org.wait_for_selector("#home-notice", timeout=120_000)
    assert "deleted on the server" in org.locator("#home-notice").inner_text()
    assert org.locator(f".events li[data-event='{eid}']").count() == 0
    assert session(org, eid) is None
    status, body = api_status(server, f"/api/events/{eid}", token)
    assert status == 404 and body["error"] == "unknown-event"
    assert org.errors == []
    ctx.close()


def test_staff_devices_are_listed_by_name_and_revoked_and_any_device_can_forget_an_event(browser, app_process) -> None:
    server = app_process
    ctx, org = created(browser, server, "Staff Cup", ["Ash", "Brock"])
    eid = event_id(org)
    goto(org, server, eid, "staff")
    org.select_option("#invite-role", "judge")
    org.fill("#invite-label", "Judge Ada")
    org.click("#invite")
    org.wait_for_selector(".invitation h3:has-text('Judge Ada (judge)')")
    code = org.locator(".invitation").first.get_attribute("data-code")

    jctx, judge = new_page(browser, server, {"width": 1024, "height": 800})
    judge.goto(f"{server.url}/#join={code}")
    wait_ready(judge, "judge")
    wait_synced(judge)

    org.click("#refresh-devices")
    row = org.locator("#staff-devices tr[data-role=judge]")
    row.wait_for()
    assert "Judge Ada" in row.inner_text() and "Judge" in row.inner_text()
    wait_js(
        org,
        "() => !document.querySelector('#staff-devices tr[data-role=judge] td:nth-of-type(2)')"
        ".textContent.includes('not yet')",
    )
    me = org.locator("#staff-devices tr[data-this-device=yes]")
    assert me.get_attribute("data-role") == "organizer" and "this device" in me.inner_text().lower()
    assert me.locator("button").count() == 0  # no revoking this device
    # The invitation is marked used: on its card (no more QR code) and in the invitations list, with whose device.
    org.wait_for_selector(".invitation.card.used .used-note:has-text('Judge Ada has joined')")
    assert org.locator(".invitation.card.used .qr").count() == 0
    used = org.locator("#staff-invitations tr[data-used=yes]")
    assert "Judge Ada" in used.inner_text() and "used at" in used.inner_text() and "by Judge Ada" in used.inner_text()
    shot(org, "staff-devices")
    org.set_viewport_size({"width": 390, "height": 844})
    shot(org, "staff-devices-390x844")
    org.set_viewport_size({"width": 1280, "height": 800})

    row.locator("button[data-action=revoke]").click()
    row.locator("button[data-action=cancel-revoke]").click()
    assert row.get_attribute("data-status") == "active"
    row.locator("button[data-action=revoke]").click()
    row.locator("button[data-action=confirm-revoke]").click()
    org.wait_for_selector("#staff-devices tr[data-role=judge][data-status=revoked]")
    judge.wait_for_selector("#sync[data-state=refused]", timeout=60_000)
    assert "withdrawn" in judge.locator("#sync-text").inner_text()

    # The judge's tablet forgets the event (it stays on the server for the organizer).
    judge.goto(f"{server.url}/#/")
    item = judge.locator(f".events li[data-event='{eid}']")
    item.wait_for()
    item.locator("button[data-action=remove-local]").click()
    item.locator("button[data-action=confirm-remove-local]").click()
    judge.wait_for_selector("#home-notice")
    assert judge.locator(f".events li[data-event='{eid}']").count() == 0
    assert session(judge, eid) is None
    token = session(org, eid)["token"]
    assert api_status(server, f"/api/events/{eid}", token)[0] == 200
    assert org.errors == [] and judge.errors == []
    jctx.close()
    ctx.close()


def test_import_an_event_file_and_the_big_screen_pages_512_players(browser, app_process) -> None:
    server = app_process
    ctx, page = new_page(browser, server, {"width": 1920, "height": 1080})
    ctx.add_init_script("localStorage.setItem('topcut.boardPageMs', '2500')")
    page.goto(server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)

    # ---- bad files: the problem is named, nothing is imported
    bad = big_event(4)
    del bad["players"][2]["entry"]
    page.set_input_files(
        "#import-file", files=[{"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}]
    )
    page.click("#import-submit")
    error = page.locator("#import-error")
    error.wait_for(state="visible")
    assert (
        error.inner_text().startswith("bad.json: ")
        and "players[2]" in error.inner_text()
        and "entry" in error.inner_text()
    ), error.inner_text()
    page.set_input_files(
        "#import-file", files=[{"name": "notes.json", "mimeType": "application/json", "buffer": b"{not json"}]
    )
    page.click("#import-submit")
    wait_js(page, "() => document.querySelector('#import-error').textContent.startsWith('notes.json: not a JSON file')")
    assert page.evaluate("() => import('/pwa/data/db.js').then((m) => m.allSessions()).then((s) => s.length)") == 0
    assert "#/event/" not in page.url

    # ---- a good file: a new event, this device its organizer
    doc = big_event(512)
    page.set_input_files(
        "#import-file",
        files=[{"name": "regional.json", "mimeType": "application/json", "buffer": json.dumps(doc).encode()}],
    )
    page.click("#import-submit")
    wait_ready(page, "players")
    eid = event_id(page)
    assert session(page, eid)["role"] == "organizer"
    page.wait_for_selector("caption:has-text('512 registered')", timeout=60_000)
    goto(page, server, eid, "rounds")
    page.click("#start-round")
    page.wait_for_selector("#round-progress", timeout=60_000)

    # ---- the big screen
    goto(page, server, eid, "board")
    bar = page.locator("#board-bar")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.pages > 1")
    wait_js(
        page,
        "() => document.querySelector('.clock [class=time]') && /\\d+:\\d\\d/.test("
        "document.querySelector('.clock .time').textContent)",
    )
    page.keyboard.press("Home")
    pages = int(bar.get_attribute("data-pages"))
    per_page = int(page.locator("#board-area").get_attribute("data-per-page"))
    assert pages == -(-512 // per_page) and 3 <= pages <= 20, (pages, per_page)
    assert page.locator("#board-page").inner_text() == f"Page 1 of {pages}"
    assert bar.get_attribute("data-range").startswith("A")

    def no_overflow():
        return page.evaluate("""() => {
            const area = document.querySelector('#board-area').getBoundingClientRect();
            const clock = document.querySelector('.clock').getBoundingClientRect();
            const rows = [...document.querySelectorAll('.board-row')].map((r) => r.getBoundingClientRect());
            const root = document.documentElement;
            return {
              rows: rows.length,
              inside: rows.every((r) => r.bottom <= area.bottom + 0.5 && r.right <= area.right + 0.5 && r.top >= area.top - 0.5),
              page: root.scrollHeight <= innerHeight && root.scrollWidth <= innerWidth,
              clock: clock.top >= 0 && clock.bottom <= innerHeight && clock.height > 0,
              area: area.bottom <= innerHeight,
            };
        }""")

    check = no_overflow()
    assert check == {"rows": per_page, "inside": True, "page": True, "clock": True, "area": True}, check
    shot(page, "board-512-players")

    # Every page by the arrow keys (paging by itself paused): all 512 players, alphabetically, each page's
    # letter range true.
    page.click("#board-pause")
    page.keyboard.press("Home")
    seen = []
    for n in range(1, pages + 1):
        wait_js(page, "(n) => document.querySelector('#board-bar').dataset.page === String(n)", n)
        names = page.locator(".board-row .board-name").all_inner_texts()
        rng = bar.get_attribute("data-range")
        assert rng.startswith(names[0][0]) and rng.endswith(names[-1][0]), (rng, names[0], names[-1])
        seen.extend(names)
        page.keyboard.press("ArrowRight")
    assert len(seen) == 512 and seen == sorted(seen, key=str.casefold)
    page.keyboard.press("ArrowLeft")
    wait_js(page, "(n) => document.querySelector('#board-bar').dataset.page === String(n)", pages)

    # By itself: the page turns after a while (2.5 s here, 12 s by default).
    page.click("#board-pause")  # resume
    page.keyboard.press("Home")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.page === '2'", timeout=10_000)

    # A smaller screen: laid out again, still no overflow.
    page.set_viewport_size({"width": 1280, "height": 720})
    wait_js(page, "(n) => Number(document.querySelector('#board-area').dataset.perPage) < n", per_page)
    check = no_overflow()
    assert check["inside"] and check["page"] and check["clock"] and check["area"], check
    shot(page, "board-512-players-720p")
    assert page.errors == []
    ctx.close()

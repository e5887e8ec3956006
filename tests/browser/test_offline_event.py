"""End to end: a 16-player event run from three devices while the server dies mid-round.

The organizer creates the event and runs round 1 from the browser; two judge
tablets join with invitation codes (QR links). The server process is killed
mid-round: both tablets keep entering results offline, one reloads offline
(the page comes back from the service worker cache, its pending entries from
IndexedDB). The server comes back, everything syncs, the table both tablets
entered differently is a dispute; once the head judge rules, round 2's
pairings and the standings are the same on both tablets and the server.
"""

from __future__ import annotations

import time

from tests.browser.helpers import enter_result, event_id, rules, shot, wait_controlled, wait_ready, wait_synced

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max", "Ned", "Oz", "Pia"]


def new_page(browser, server, viewport):
    context = browser.new_context(viewport=viewport)
    context.add_init_script("localStorage.setItem('topcut.syncMs', '1500')")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return context, page


def join(browser, server, code, viewport=None):
    context, page = new_page(browser, server, viewport or {"width": 1280, "height": 800})
    page.goto(f"{server.url}/#join={code}")
    wait_ready(page, "judge")
    wait_controlled(page)
    return context, page


def test_event_survives_a_dead_server(browser, app_process) -> None:
    server = app_process
    org_ctx, org = new_page(browser, server, {"width": 1280, "height": 800})

    # ---- the organizer creates a 16-player Doomtown event
    org.goto(server.url + "/")
    org.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    org.fill("#create-title ~ .field input[type=text]", "Gomorra Showdown")
    org.select_option("#create-title ~ .field select", "doomtown")
    org.wait_for_selector(".suggestion:has-text('Swiss rounds')")
    org.click("text=Create event")
    wait_ready(org, "players")
    eid = event_id(org)
    org.fill("textarea", "\n".join(NAMES))
    org.click("#register")
    org.wait_for_selector("caption:has-text('16 registered')")
    wait_synced(org)
    shot(org, "01-organizer-players")

    # ---- two judge tablets join with invitation codes
    codes = []
    org.goto(f"{server.url}/#/event/{eid}/staff")
    wait_ready(org, "staff")
    for _ in range(2):
        org.click("#invite")
        org.wait_for_selector(f".invitation >> nth={len(codes)}")
        codes.append(org.locator(".invitation").first.get_attribute("data-code"))
    shot(org, "02-invitation-qr")
    ctx_a, tab_a = join(browser, server, codes[0])
    ctx_b, tab_b = join(browser, server, codes[1])

    # ---- round 1: pair (draft), publish, start
    org.goto(f"{server.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.click("#pair-next")
    org.wait_for_selector("#publish-round")
    shot(org, "03-round1-draft")
    org.click("#publish-round")
    org.wait_for_selector("caption:has-text('Round 1 (swiss) — published')")
    org.click("#start-round")
    org.wait_for_selector("#round-progress")
    wait_synced(org)

    for tab in (tab_a, tab_b):
        tab.wait_for_selector(".match-card[data-table='8']", timeout=30_000)

    # ---- results online
    enter_result(tab_a, 1, "win-0")
    enter_result(tab_a, 2, "win-1")
    enter_result(tab_b, 3, "win-0")
    wait_synced(tab_a)
    wait_synced(tab_b)
    shot(tab_a, "04-tablet-a-online")

    # ---- the server dies mid-round; the tablets lose the network too
    server.kill()
    ctx_a.set_offline(True)
    ctx_b.set_offline(True)
    enter_result(tab_a, 4, "win-0")
    enter_result(tab_a, 5, "win-1")
    enter_result(tab_a, 8, "win-0")  # tablet A: table 8, first player wins
    enter_result(tab_b, 6, "win-0")
    enter_result(tab_b, 7, "win-1")
    enter_result(tab_b, 8, "win-1")  # tablet B: table 8, second player wins (the dispute)
    tab_a.wait_for_selector("#sync[data-online=offline][data-waiting='3']")
    tab_b.wait_for_selector("#sync[data-online=offline][data-waiting='3']")
    assert tab_a.get_attribute(".match-card[data-table='8']", "data-status") == "confirmed"  # optimistic, on the device
    shot(tab_b, "05-tablet-b-offline")

    # ---- tablet A reloads with no network: the service worker serves the app, IndexedDB the entries
    tab_a.reload()
    wait_ready(tab_a, "judge")
    tab_a.wait_for_selector("#sync[data-online=offline][data-waiting='3']", timeout=30_000)
    assert tab_a.get_attribute(".match-card[data-table='4']", "data-status") == "confirmed"
    assert "Offline" in tab_a.text_content("#sync")
    shot(tab_a, "06-tablet-a-reloaded-offline")

    # ---- the server comes back on the same port and database; everything syncs
    server.start()
    ctx_a.set_offline(False)
    ctx_b.set_offline(False)
    wait_synced(tab_a)
    wait_synced(tab_b)
    for tab in (tab_a, tab_b):
        tab.wait_for_selector(".match-card[data-table='8'][data-status=disputed]", timeout=30_000)
    shot(tab_b, "07-tablet-b-dispute")

    # ---- the head judge (organizer) rules; round 2 is paired, published and started
    org.goto(f"{server.url}/#/event/{eid}/disputes")
    wait_ready(org, "disputes")
    org.wait_for_selector(".dispute[data-table='8']", timeout=30_000)
    shot(org, "08-dispute-queue")
    org.locator(".dispute[data-table='8'] .uphold").first.click()
    org.wait_for_selector("#no-disputes")
    wait_synced(org)
    org.goto(f"{server.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.wait_for_selector("#pair-next")
    org.click("#pair-next")
    org.wait_for_selector("#publish-round")
    org.click("#publish-round")
    org.wait_for_selector("caption:has-text('Round 2 (swiss) — published')")  # (#start-round shows for drafts too)
    wait_synced(org)

    server_pairings = server.get(f"/api/events/{eid}/pairings")
    server_round2 = [(m["table"], [p["id"] for p in m["players"]]) for m in server_pairings["rounds"][1]["matches"]]
    server_standings = server.get(f"/api/events/{eid}/standings")["standings"]
    assert len(server_round2) == 8
    for tab in (tab_a, tab_b):
        deadline = time.monotonic() + 30
        while True:
            state = rules(tab, "state", {"event_id": eid})
            if len(state["rounds"]) == 2 and state["rounds"][1]["status"] == "published" or time.monotonic() > deadline:
                break
            tab.wait_for_timeout(250)
        assert [(m["table"], m["players"]) for m in state["rounds"][1]["matches"]] == server_round2
        assert rules(tab, "standings", {"event_id": eid})["standings"] == server_standings
        assert tab.errors == []
    tab_a.goto(f"{server.url}/#/event/{eid}/standings")
    wait_ready(tab_a, "standings")
    shot(tab_a, "09-tablet-a-standings")
    org.goto(f"{server.url}/#/event/{eid}/board")
    wait_ready(org, "board")
    shot(org, "10-big-screen")
    assert org.errors == []
    for ctx in (org_ctx, ctx_a, ctx_b):
        ctx.close()

"""Issue 13, WCT leagues in Chromium: a League Director creates a league, adds two finished Star Trek events
(one of this device's own, one by its id and organizer token), enters bonus points, and reads the public league
table (season, lifetime, bonus kept apart, playoff ranking with the 12.6 tiebreakers), on a laptop and on a phone
(which keeps the last table it read for offline)."""

from __future__ import annotations

from tests.backend.helpers import PLAYERS, trek_ops
from tests.browser.helpers import BOOT_MS, open_page, shot, wait_controlled, wait_js, wait_ready
from tests.browser.test_forms_survive_sync import Remote


def finished_trek(url: str, ruleset: str, name: str) -> Remote:
    remote = Remote(url, ruleset, name)
    remote.push(*[(op["type"], op["payload"]) for op in trek_ops(PLAYERS[:4])])
    return remote


def cells(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector_all(
        f"{selector} tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent.trim()))"
    )


def test_a_director_builds_a_league_and_reads_its_table(browser, live_server) -> None:
    own = finished_trek(live_server.url, "startrek-2e", "Qo'noS Open")
    other = finished_trek(live_server.url, "startrek-1e", "Risa Regional")
    context, page = open_page(browser)
    try:
        # The director is also the first event's organizer on this device.
        page.goto(f"{live_server.url}/#join={own.invite('organizer')}")
        wait_ready(page)
        page.goto(f"{live_server.url}/#/leagues")
        page.wait_for_selector("body[data-ready=leagues]", timeout=BOOT_MS)
        page.fill("#create-league input[name=league-name]", "Neutral Zone League")
        page.fill("#create-league input[name=director-name]", "Q")
        page.fill("#create-league input[name=director-handle]", "q-continuum")
        page.fill("#create-league input[name=season-name]", "2026-27")
        page.select_option("#create-league select[name=schedule]", "truncated")
        page.fill("#create-league input[name=qualifiers]", "2")
        page.click("#create-league-submit")
        page.wait_for_selector("#season-form", timeout=30_000)
        assert "Neutral Zone League" in page.text_content("#league-title")

        # This device's own event: its organizer token comes with it.
        page.select_option("#add-event-form select[name=own-event]", own.eid)
        assert page.input_value("#add-event-form input[name=event-id]") == own.eid
        page.select_option("#add-event-form select[name=sprint]", "regular")
        page.click("#add-event")
        page.wait_for_selector(f"#league-events tr[data-event='{own.eid}']")
        # Someone else's event: a wrong token is refused and said; the organizer's token adds it.
        page.fill("#add-event-form input[name=event-id]", other.eid)
        page.fill("#add-event-form input[name=organizer-token]", own.token)
        page.select_option("#add-event-form select[name=sprint]", "playoffs")
        page.click("#add-event")
        wait_js(page, "() => document.getElementById('league-error').textContent.includes('organizer_token')")
        assert page.query_selector(f"#league-events tr[data-event='{other.eid}']") is None
        page.fill("#add-event-form input[name=event-id]", other.eid)
        page.fill("#add-event-form input[name=organizer-token]", other.token)
        page.select_option("#add-event-form select[name=sprint]", "playoffs")
        page.click("#add-event")
        page.wait_for_selector(f"#league-events tr[data-event='{other.eid}']")
        assert page.text_content("#league-error") == ""

        # Participation bonus (12.5.2) for Player 3 at the regular-season event.
        page.select_option("#bonus-form select[name=bonus-event]", own.eid)
        page.select_option("#bonus-form select[name=bonus-person]", "p3")
        page.fill("#bonus-form input[name=bonus-points]", "4")
        page.select_option("#bonus-form select[name=bonus-scheme]", "participation")
        page.fill("#bonus-form input[name=bonus-note]", "first league event")
        page.click("#add-bonus")
        page.wait_for_selector("#bonus-entries tbody tr")
        assert cells(page, "#bonus-entries")[0][:3] == ["Player 3", "Qo'noS Open", "4"]
        # Lifetime points carried from earlier seasons (the trekcc.org hub), for the Champions League (12.7).
        page.fill("#season-form textarea[name=lifetime]", "p4 120\nnot a line")
        page.click("#save-league")
        wait_js(page, "() => document.getElementById('league-error').textContent.includes('line 2')")
        page.fill("#season-form textarea[name=lifetime]", "p4 120")
        page.click("#save-league")
        wait_js(
            page,
            "() => document.querySelector('#season-form textarea[name=lifetime]')?.value === 'p4 120'"
            " && document.getElementById('league-error').textContent === ''",
        )
        shot(page, "league-director")

        # Removing a league event asks first; "Keep" keeps it.
        page.click(f"#league-events tr[data-event='{other.eid}'] [data-action=remove-event]")
        page.click(f"#league-events tr[data-event='{other.eid}'] button:text('Keep')")
        page.wait_for_selector(f"#league-events tr[data-event='{other.eid}'] [data-action=remove-event]")

        page.click("#open-table")
        page.wait_for_selector("#league-season tbody tr", timeout=30_000)
        assert page.text_content("#league-table-title") == "Neutral Zone League — league table"
        # Four players: 12, 8, 6, 6 per event (Table 12.4.1); two events.
        season = cells(page, "#league-season")
        assert [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in season[:2]] == [
            ("1", "Player 1", "2", "12", "12", "24"),
            ("2", "Player 2", "2", "8", "8", "16"),
        ]
        assert {r[1]: (r[3], r[4], r[5]) for r in season[2:]} == {
            "Player 3": ("6", "6", "12"),
            "Player 4": ("6", "6", "12"),
        }
        lifetime = {r[1]: (r[2], r[4]) for r in cells(page, "#league-lifetime")}
        assert lifetime == {
            "Player 1": ("0", "24"),
            "Player 2": ("0", "16"),
            "Player 3": ("0", "12"),
            "Player 4": ("120", "132"),
        }
        bonus = cells(page, "#league-bonus")
        assert [r[1:5] for r in bonus] == [["Player 3", "12", "4", "16"]]  # kept apart: season stays 12
        assert [
            li.strip() for li in page.eval_on_selector_all("#league-qualified li", "l => l.map((e) => e.textContent)")
        ] == ["Player 1 — Regular season, rank 1", "Player 2 — Regular season, rank 2"]
        heads = page.eval_on_selector_all("#league-playoffs thead th", "t => t.map((e) => e.textContent)")
        assert heads[2:5] == ["League playoff points", "Playoff tournament victories", "Season league points"]
        ranking = cells(page, "#league-playoffs")
        assert [(r[0], r[1], r[2], r[3], r[4]) for r in ranking] == [
            ("1", "Player 1", "12", "1", "24"),
            ("2", "Player 2", "8", "0", "16"),
        ]
        assert cells(page, "#league-champions") == [["1", "Player 4", "132", ""]]
        shot(page, "league-table")
        page.emulate_media(media="print")
        assert not page.is_visible("button:text('Print')")
        shot(page, "league-table-print")
        assert page.errors == []
        table_url = page.url
    finally:
        context.close()

    # The same table on a phone, from the link alone (no token on that device).
    context, phone = open_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        phone.goto(table_url)
        phone.wait_for_selector("#league-season tbody tr", timeout=BOOT_MS)
        # Nothing wider than the screen but the tables' own scrolling boxes.
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
        shot(phone, "league-table-phone")
        # Offline, the phone shows the last table it read (the service worker keeps it, like public standings).
        wait_controlled(phone)
        phone.reload()
        phone.wait_for_selector("#league-season tbody tr", timeout=BOOT_MS)
        context.set_offline(True)
        phone.reload()
        phone.wait_for_selector("#league-season tbody tr", timeout=BOOT_MS)
        assert "Neutral Zone League" in phone.text_content("#league-table-title")
        context.set_offline(False)
        assert phone.errors == []
    finally:
        context.close()

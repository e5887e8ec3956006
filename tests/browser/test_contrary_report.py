"""A player's contrary report against a judge's entry shows as a dispute everywhere, with either device offline.

Table 1: the judge's tablet is offline when the judge enters "Annie wins"; Bat's phone, online, reports
"Bat wins". Table 2: the judge enters "Calamity wins" online; Doc's phone is offline when Doc contests it
("That is not right") with "Doc wins". Once both devices are back, each table is a dispute: on the judge's
match card and correction form (both versions), on the Disputes screen, and on the player's phone ("The
judge recorded …; a judge will come to your table"). A judge's correction ends it everywhere.
"""

from __future__ import annotations

from tests.browser.helpers import shot, wait_controlled, wait_ready, wait_synced
from tests.browser.test_player_phone import api, phone, setup_event


def judge_tablet(browser, url, eid, token):
    code = api(url, f"/api/events/{eid}/invitations", {"role": "judge"}, token)["code"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("localStorage.setItem('topcut.syncMs', '1000')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/#join={code}")
    wait_ready(page, "judge")
    wait_controlled(page)
    return context, page, errors


def enter(page, table: int, quick: str) -> None:
    page.fill("#find-match", str(table))
    page.click(f".match-card[data-table='{table}'] .match-open")
    page.click(f"#entry [data-quick='{quick}']")
    page.click("#save-result")
    page.wait_for_selector("#entry", state="hidden")
    page.fill("#find-match", "")


def test_contrary_reports_with_each_device_offline_become_disputes_everywhere(browser, live_server) -> None:
    url = live_server.url
    eid, token, claims = setup_event(url)
    tab_ctx, tab, tab_errors = judge_tablet(browser, url, eid, token)
    tab.wait_for_selector(".match-card[data-table='2']", timeout=30_000)
    bat_ctx, bat = phone(browser, url, claims["p2"])
    doc_ctx, doc = phone(browser, url, claims["p4"])

    # ---- table 1: the judge's tablet is offline; Bat reports the other result online
    tab_ctx.set_offline(True)
    enter(tab, 1, "win-0")  # Annie Oakley wins, says the judge
    tab.wait_for_selector("#sync[data-online=offline][data-waiting='1']", timeout=30_000)
    bat.click("#report-result")
    bat.click("#report [data-quick='win-1']")  # Bat Masterson wins, says Bat
    bat.click("#save-result")
    bat.wait_for_selector("#awaiting")
    wait_synced(bat)
    tab_ctx.set_offline(False)
    wait_synced(tab)

    # ---- table 2: the judge enters online; Doc's phone is offline when Doc contests it
    enter(tab, 2, "win-0")  # Calamity Jane wins, says the judge
    wait_synced(tab)
    doc.wait_for_selector("#contest-result", timeout=30_000)
    assert "Calamity Jane: win" in doc.text_content("#final-result")
    doc_ctx.set_offline(True)
    doc.click("#contest-result")
    doc.click("#report [data-quick='win-1']")  # Doc Holliday wins, says Doc
    doc.click("#save-result")
    # A player's phone runs no rules engine: the report waits to send, and the server's verdict decides.
    doc.wait_for_selector("#waiting-to-send")
    doc_ctx.set_offline(False)
    doc.evaluate("() => window.dispatchEvent(new Event('online'))")
    wait_synced(doc)
    doc.wait_for_selector("#dispute-note", timeout=30_000)

    # ---- the judge's cards: both tables disputed, both versions listed
    for table in (1, 2):
        tab.wait_for_selector(f".match-card[data-table='{table}'][data-status=disputed] .versions", timeout=30_000)
    card = tab.text_content(".match-card[data-table='1']")
    assert "tablet (judge)" in card and "Annie Oakley: win" in card  # the name the organizer gave it
    assert "Bat Masterson (player)" in card and "Bat Masterson: win" in card
    card = tab.text_content(".match-card[data-table='2']")
    assert "Doc Holliday (player)" in card and "Calamity Jane: win" in card and "Doc Holliday: win" in card
    shot(tab, "contrary-01-judge-cards")

    # ---- the players' phones say what the judge recorded, and that a judge is coming
    for page, mine, judge in (
        (bat, "Bat Masterson: win", "Annie Oakley: win"),
        (doc, "Doc Holliday: win", "Calamity Jane: win"),
    ):
        page.wait_for_selector("#dispute-note #judge-recorded", timeout=30_000)
        assert judge in page.text_content("#judge-recorded")
        assert mine in page.text_content("#my-report")
        assert "a judge will come to your table" in page.text_content("#dispute-note")
    shot(bat, "contrary-02-bat-phone")
    shot(doc, "contrary-03-doc-phone")

    # ---- the Disputes screen (the organizer's): both tables, both versions
    org_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    org = org_ctx.new_page()
    code = api(url, f"/api/events/{eid}/invitations", {"role": "head-judge"}, token)["code"]
    org.goto(f"{url}/#join={code}")
    wait_ready(org)
    org.goto(f"{url}/#/event/{eid}/disputes")
    wait_ready(org, "disputes")
    for table in (1, 2):
        org.wait_for_selector(f".dispute[data-table='{table}'] .report >> nth=1", timeout=30_000)
    assert "Bat Masterson (player)" in org.text_content(".dispute[data-table='1']")
    shot(org, "contrary-04-disputes-screen")

    # ---- the judge corrects table 1 from the correction form, which shows both versions; it ends the dispute
    tab.fill("#find-match", "1")
    tab.click(".match-card[data-table='1'] .match-open")
    tab.wait_for_selector("#entry-dispute .versions")
    shot(tab, "contrary-05-correction-form")
    tab.click("#entry [data-quick='win-1']")
    tab.fill("#correct-reason", "asked both players: Bat won")
    tab.click("#save-result")
    tab.wait_for_selector("#entry", state="hidden")
    wait_synced(tab)
    tab.wait_for_selector(".match-card[data-table='1'][data-status=resolved]", timeout=30_000)
    bat.wait_for_selector("#final-result", timeout=30_000)
    assert "Bat Masterson: win" in bat.text_content("#final-result")
    assert bat.locator("#contest-result").count() == 0  # the judge's result is Bat's own: nothing to contest
    shot(bat, "contrary-06-bat-after-correction")
    server = api(url, f"/api/events/{eid}/pairings")["rounds"][0]["matches"]
    assert [m["status"] for m in server] == ["resolved", "disputed"]
    assert tab_errors == []
    for ctx in (tab_ctx, bat_ctx, doc_ctx, org_ctx):
        ctx.close()

"""A way back in for the organizer: the recovery code shown when the event is made (Players reminds, Staff shows
it until it is kept) brings organizer access to a fresh browser from the home screen; a spare organizer device
is invited from the Staff screen with a confirm step; the Staff screen warns while the event has neither; an
event made offline gets its code when it reaches the server, and says so meanwhile."""

from __future__ import annotations

from tests.browser.helpers import (
    ARTIFACTS,
    create_event,
    event_id,
    open_page,
    wait_controlled,
    wait_ready,
    wait_synced,
)


def shot(page, name: str) -> None:
    """The screen as the user sees it (the viewport), under tests/artifacts/."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"pwa-{name}.png"))


def test_the_printed_recovery_code_brings_organizer_access_to_a_new_browser(browser, app_process) -> None:
    ctx, org = open_page(browser, {"width": 1280, "height": 800})
    eid = create_event(org, app_process.url, "Lost Laptop Regional", "startrek-2e")
    wait_synced(org)
    org.wait_for_selector("#recovery-notice:not([hidden])")
    org.click("#recovery-notice a")
    wait_ready(org, "staff")
    org.wait_for_selector("#way-back-warning")
    assert "lives only in this browser" in org.inner_text("#way-back-warning")
    code = org.inner_text("#recovery-code")
    assert len(code) == 19 and code.count("-") == 3
    org.locator("#way-back").scroll_into_view_if_needed()
    shot(org, "recovery-code-panel")
    org.set_viewport_size({"width": 390, "height": 844})
    org.locator("#recovery-code").scroll_into_view_if_needed()
    shot(org, "recovery-code-panel-phone")
    org.set_viewport_size({"width": 1280, "height": 800})

    # Printed alone: the sheet with the code, nothing else of the screen.
    org.evaluate("() => { document.body.dataset.print = 'recovery'; }")
    org.emulate_media(media="print")
    assert org.locator("#recovery-sheet").is_visible() and org.locator("#staff-devices").is_hidden()
    assert org.locator("#ack-recovery").is_hidden()
    shot(org, "recovery-code-printed")
    org.emulate_media(media="screen")
    org.evaluate("() => { delete document.body.dataset.print; }")

    org.click("#ack-recovery")
    org.wait_for_selector("#recovery-state:has-text('printed or written down')")
    assert org.locator("#way-back-warning").count() == 0 and org.locator("#recovery-code").count() == 0
    org.goto(f"{app_process.url}/#/event/{eid}/players")
    wait_ready(org, "players")
    assert org.locator("#recovery-notice").is_hidden()  # kept: no more reminders

    # A new browser (the laptop is gone): recover from the home screen.
    ctx2, spare = open_page(browser, {"width": 390, "height": 844})
    spare.goto(app_process.url + "/")
    spare.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    spare.fill("#recovery-code-input", "WRONG-CODE-0000-0000")
    spare.fill("#recovery-device", "Borrowed laptop")
    spare.click("#recover-submit")
    spare.wait_for_selector("#recover-error:has-text('not valid')")
    spare.locator("#recover").scroll_into_view_if_needed()
    shot(spare, "recovery-entry-home-phone")
    spare.set_viewport_size({"width": 1280, "height": 800})
    spare.locator("#recover").scroll_into_view_if_needed()
    shot(spare, "recovery-entry-home")
    spare.fill("#recovery-code-input", code.lower())
    spare.click("#recover-submit")
    wait_ready(spare, "staff")
    assert event_id(spare) == eid
    tabs = spare.locator("nav a[data-screen]").all_inner_texts()
    assert any("Staff" in t for t in tabs) and any("Players" in t for t in tabs), tabs
    spare.wait_for_selector("tr[data-role=organizer] th:has-text('Borrowed laptop')")
    # The code is used up: the new device is told to print a new one, and makes it.
    spare.wait_for_selector("#recovery-state:has-text('No recovery code')")
    spare.click("#new-recovery")
    spare.click("#confirm-new-recovery")
    spare.wait_for_selector("#recovery-code")
    assert spare.inner_text("#recovery-code") != code
    assert org.errors == [] and spare.errors == []
    ctx2.close()
    ctx.close()


def test_a_spare_organizer_device_is_invited_with_a_confirm_step(browser, app_process) -> None:
    ctx, org = open_page(browser, {"width": 1280, "height": 800})
    eid = create_event(org, app_process.url, "Spare Cup", "pokemon-tcg")
    wait_synced(org)
    org.goto(f"{app_process.url}/#/event/{eid}/staff")
    wait_ready(org, "staff")
    org.wait_for_selector("#spare-organizers:has-text('No spare organizer device')")
    org.click("#invite-spare")
    assert "can do everything this one can" in org.inner_text("#way-back .confirm-step")
    org.fill("#spare-label", "TO's phone")
    org.click("#confirm-spare")
    invitation = org.locator("#spare-invitation")
    invitation.wait_for()
    code = invitation.get_attribute("data-code")
    assert invitation.get_attribute("data-role") == "organizer"
    org.wait_for_selector("#invite-spare")  # the confirm step closed
    invitation.scroll_into_view_if_needed()
    shot(org, "spare-organizer-invitation")

    ctx2, phone = open_page(browser, {"width": 390, "height": 844})
    phone.goto(f"{app_process.url}/#join={code}")
    wait_ready(phone)
    ctx2.close()
    org.reload()
    wait_ready(org, "staff")
    org.wait_for_selector('#spare-organizers:has-text("Spare organizer device: TO\'s phone")')
    # A spare device is a way back in: the warning goes even before the code is printed.
    assert org.locator("#way-back-warning").count() == 0
    assert org.errors == []
    ctx.close()


def test_an_event_made_offline_gets_its_recovery_code_when_it_reaches_the_server(browser, app_process) -> None:
    ctx, org = open_page(browser, {"width": 1100, "height": 850}, sync_ms=1500)
    org.goto(app_process.url + "/")
    wait_controlled(org)
    ctx.set_offline(True)
    eid = create_event(org, app_process.url, "Basement Cup", "doomtown")
    org.goto(f"{app_process.url}/#/event/{eid}/staff")
    wait_ready(org, "staff")
    org.wait_for_selector("#recovery-later")
    assert "made when it gets there" in org.inner_text("#recovery-later")
    assert org.locator("#way-back-warning").count() == 1
    ctx.set_offline(False)
    org.evaluate("() => window.dispatchEvent(new Event('online'))")
    wait_synced(org)
    org.wait_for_selector("#recovery-code", timeout=30_000)
    assert org.locator("#recovery-later").count() == 0
    assert org.errors == []
    ctx.close()

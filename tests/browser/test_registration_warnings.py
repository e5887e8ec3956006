"""Registering a name that is already on the roster (the same person twice, or two people sharing a name)
is done, and said loudly on the Players screen; the next clean registration clears the warning."""

from __future__ import annotations

from tests.browser.helpers import shot, wait_ready
from tests.browser.test_offline_event import new_page


def test_a_repeated_name_is_registered_with_a_visible_warning(browser, app_process) -> None:
    ctx, org = new_page(browser, app_process, {"width": 1024, "height": 900})
    org.goto(app_process.url + "/")
    org.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    org.fill("#create-title ~ .field input[type=text]", "Twin Cup")
    org.click("text=Create event")
    wait_ready(org, "players")
    org.fill("textarea", "Ada Lovelace\nBo")
    org.click("#register")
    org.wait_for_selector("caption:has-text('2 registered')")
    assert org.locator("#duplicate-warning").is_hidden()

    org.fill("textarea", "ada  lovelace\nCy")  # typed again at the desk, other case and spacing
    org.click("#register")
    org.wait_for_selector("caption:has-text('4 registered')")
    warning = org.locator("#duplicate-warning")
    warning.wait_for(state="visible")
    assert "Registered twice: ada lovelace" in warning.inner_text() and "drop one" in warning.inner_text()
    shot(org, "duplicate-name-warning")

    org.fill("textarea", "Di")
    org.click("#register")
    org.wait_for_selector("caption:has-text('5 registered')")
    warning.wait_for(state="hidden")
    assert org.errors == []
    ctx.close()

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


def test_once_check_in_is_used_round_one_pairs_the_checked_in(browser, app_process) -> None:
    ctx, org = new_page(browser, app_process, {"width": 1024, "height": 900})
    org.goto(app_process.url + "/")
    org.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    org.fill("#create-title ~ .field input[type=text]", "League Challenge")
    org.click("text=Create event")
    wait_ready(org, "players")
    eid = org.url.split("#/event/")[1].split("/")[0]
    org.fill("textarea", "\n".join(["Ash", "Brock", "Misty", "Gary", "Tracey", "Dawn"]))
    org.click("#register")
    org.wait_for_selector("caption:has-text('6 registered')")
    for name in ("Ash", "Brock", "Misty", "Gary"):
        org.click(f"tr:has(th:text-is('{name}')) button:has-text('Check in')")
        org.wait_for_selector(f"tr:has(th:text-is('{name}')) button:has-text('Undo check-in')")
    org.goto(f"{app_process.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    note = org.locator("#check-in-note")
    note.wait_for()
    assert "pairs the 4 of 6 players who checked in" in note.inner_text()
    org.click("#pair-next")
    org.wait_for_selector("#publish-round")
    warnings = org.locator(".warnings li").all_inner_texts()
    assert any("not checked in, so not paired: Dawn, Tracey" in w for w in warnings), warnings
    assert not any("is not paired" in w for w in warnings), warnings
    assert org.locator("table.matches tbody tr").count() == 2
    shot(org, "check-in-round-one")
    assert org.errors == []
    ctx.close()

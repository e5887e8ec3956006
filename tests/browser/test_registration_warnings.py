"""Registering a name that is already on the roster (the same person twice, or two people sharing a name)
is done, and said loudly on the Players screen; the next clean registration clears the warning."""

from __future__ import annotations

from tests.browser.helpers import create_event, open_page, shot, wait_ready


def test_a_repeated_name_is_registered_with_a_visible_warning(browser, app_process) -> None:
    ctx, org = open_page(browser, {"width": 1024, "height": 900})
    create_event(org, app_process.url, "Twin Cup")
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
    ctx, org = open_page(browser, {"width": 1024, "height": 900})
    eid = create_event(org, app_process.url, "League Challenge")
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

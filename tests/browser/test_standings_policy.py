"""The standings policy on the Settings tab (issue 26): every game offers "Players see standings", saved as one
event.configure, and the hall's published standings follow it."""

from __future__ import annotations

from tests.browser.helpers import create_event, open_page, shot, wait_ready
from tests.browser.test_settings import RULESETS, _save, _state


def _open(page, url: str, eid: str) -> None:
    page.goto(f"{url}/#/event/{eid}/settings")
    wait_ready(page, "settings")
    page.wait_for_selector("#settings-form #setting-standings_policy")


def test_every_game_offers_when_players_see_standings_and_saves_it(browser, app_process) -> None:
    ctx, page = open_page(browser, {"width": 1280, "height": 800})
    for rid in RULESETS:
        eid = create_event(page, app_process.url, f"Policy {rid}", rid)
        _open(page, app_process.url, eid)
        labels = page.locator("#setting-standings_policy option").all_inner_texts()
        assert "After each round is complete" in " ".join(labels), (rid, labels)
        page.select_option("#setting-standings_policy", label="Only at the end of the event")
        _save(page)
        assert _state(page)["settings"]["standings_policy"] == "end", rid
        if rid == "pokemon-tcg":
            page.locator("[data-setting=standings_policy]").scroll_into_view_if_needed()
            shot(page, "standings-policy-1280")
    assert page.errors == []
    ctx.close()


def test_the_policy_on_a_phone_sized_settings_screen(browser, app_process) -> None:
    ctx, page = open_page(browser, {"width": 390, "height": 844})
    eid = create_event(page, app_process.url, "Policy phone", "startrek-2e")
    _open(page, app_process.url, eid)
    page.select_option("#setting-standings_policy", label="Live, as results come in")
    page.locator("[data-setting=standings_policy]").scroll_into_view_if_needed()
    shot(page, "standings-policy-390")
    _save(page)
    assert _state(page)["settings"]["standings_policy"] == "live"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the settings screen is {width} px wide"
    assert page.errors == []
    ctx.close()

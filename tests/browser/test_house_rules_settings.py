"""A house-rules (custom) event's points and tiebreakers set from the Settings screen (issue 25).

EVENT-FORMAT.md settings.points (outcome → points) and settings.tiebreakers (ordered metric keys): the screen
offers a points table and an ordered list of the registry's tiebreakers by their labels; a wrong value is
refused naming the field; the standings use what was saved; once a tie is recorded, points without a tie are
refused naming the table.
"""

from __future__ import annotations

from tests.browser.helpers import shot
from tests.browser.test_draft_cut_penalties import goto, open_as, register, state
from tests.browser.test_forms_survive_sync import Remote
from tests.browser.test_ruleset_screens import started


def _saved(page, remote: Remote, key: str):
    for _ in range(100):
        value = state(page, remote)["settings"].get(key)
        if value is not None:
            return value
        page.wait_for_timeout(100)
    raise AssertionError(f"settings.{key} was not saved")


def test_house_rules_points_and_tiebreakers_set_from_the_screen_rank_the_standings(browser, live_server) -> None:
    remote = Remote(live_server.url, "custom", "Friday House Rules")
    remote.push(*register(("Ann", "Ben", "Cal", "Dee")))
    context, page = open_as(browser, remote, "organizer", viewport={"width": 1280, "height": 800})
    goto(page, remote, "settings")
    page.wait_for_selector("#setting-points-win")
    assert page.locator("[data-setting=tiebreakers] label[for=setting-tiebreakers-add]").count() == 1

    page.fill("#setting-points-win", "2")
    page.fill("#setting-points-tie", "1")
    page.fill("#setting-points-loss", "-200")
    page.select_option("#setting-tiebreakers-add", label="Op Win %")
    page.click("#setting-tiebreakers-add-button")
    page.select_option("#setting-tiebreakers-add", label="Entry")
    page.click("#setting-tiebreakers-add-button")
    page.click("[aria-label='Move Entry up']")
    assert page.locator("#setting-tiebreakers-list li").all_inner_texts()[0].startswith("Entry")
    page.click("#save-settings")
    page.wait_for_selector("#settings-error:has-text('Points per outcome')")
    text = page.inner_text("#settings-error")
    assert "Loss: -200 is out of range" in text, text
    shot(page, "house-rules-01-refused")

    page.fill("#setting-points-loss", "0")
    page.fill("#setting-points-bye", "2")
    page.click("#save-settings")
    page.wait_for_selector("#settings-saved:has-text('Points per outcome')")
    assert _saved(page, remote, "points") == {"win": 2, "tie": 1, "loss": 0, "bye": 2}
    assert _saved(page, remote, "tiebreakers") == ["entry", "owp"]
    shot(page, "house-rules-02-saved")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("[data-setting=points]").scroll_into_view_if_needed()
    shot(page, "house-rules-03-phone")
    page.set_viewport_size({"width": 1280, "height": 800})

    started(remote, [["p1", "p2"], ["p3", "p4"]])
    remote.push(
        ("result.report", {"round": 1, "table": 1, "outcomes": ["tie", "tie"]}),
        ("result.report", {"round": 1, "table": 2, "outcomes": ["loss", "win"]}),
    )
    goto(page, remote, "standings")
    page.wait_for_selector("#standings-table tbody tr:nth-child(4)")
    rows = page.locator("#standings-table tbody tr")
    names = [rows.nth(i).locator("th").inner_text() for i in range(4)]
    points = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(4)]
    assert names == ["Dee", "Ann", "Ben", "Cal"], names  # Ann and Ben on 1 point: entry order first
    assert points == ["2", "1", "1", "0"], points
    headings = page.locator("#standings-table thead th").all_inner_texts()
    assert "Op Win %" in headings, headings  # entry order is not a column

    goto(page, remote, "settings")  # a tie is recorded: points without a tie no longer fit it
    page.wait_for_selector("#setting-points-tie")
    page.fill("#setting-points-tie", "")
    page.click("#save-settings")
    page.wait_for_selector("#settings-error:has-text('round 1 table 1')")
    assert "rounds[" not in page.inner_text("#settings-error")
    assert state(page, remote)["settings"]["points"]["tie"] == 1
    assert page.errors == []
    context.close()

"""Pokémon age divisions on the Players screen (TOP 3.1.1): the division a birth year gives, each player's
division in the roster, and a pairing refused in words while a player's division cannot be told."""

from __future__ import annotations

from datetime import UTC, datetime

from tests.browser.helpers import create_event, open_page, shot, wait_ready


def _season() -> tuple[int, str]:
    """The season the app derives for an event made today (July-June, by the year it begins)."""
    today = datetime.now(UTC)
    year = today.year if today.month >= 7 else today.year - 1
    return year, f"{year}-{(year + 1) % 100:02d}"


def _register(page, name: str, birth_year: int | None, count: int) -> None:
    page.get_by_label("Player name").fill(name)
    if birth_year is not None:
        page.fill("#birth-year", str(birth_year))
    page.click("#register")
    page.wait_for_selector(f"caption:has-text('{count} registered')")


def test_divisions_show_at_registration_and_pairing_refuses_an_unknown_one(browser, app_process) -> None:
    season, label = _season()
    ctx, org = open_page(browser, {"width": 1280, "height": 1000})
    eid = create_event(org, app_process.url, "League Cup with ages", "pokemon-tcg")
    org.wait_for_selector("#age-season")
    assert f"Age divisions, {label} season" in org.inner_text("#age-season")
    assert f"Masters born {season - 16} or earlier" in org.inner_text("#age-season")
    assert "one Masters division" in org.inner_text("#age-note")  # nobody registered yet

    # Typing a birth year shows the division it gives before the player is registered.
    org.get_by_label("Player name").fill("Ada")
    org.fill("#birth-year", str(season - 10))
    org.wait_for_selector(f"#birth-division:has-text('Junior division in the {label} season')")
    org.fill("#birth-year", str(season - 13))
    org.wait_for_selector(f"#birth-division:has-text('Born {season - 13}: Senior division')")
    org.fill("#birth-year", str(season + 5))
    org.wait_for_selector("#birth-division:has-text('in no division')")
    org.fill("#birth-year", "1990")
    org.wait_for_selector("#birth-division:has-text('Masters division')")
    shot(org, "pokemon-birth-year-division")
    org.click("#register")
    org.wait_for_selector("caption:has-text('1 registered')")
    _register(org, "Bo", season - 10, 2)
    _register(org, "Cy", season - 13, 3)
    _register(org, "Di", None, 4)
    for count, (name, year) in enumerate((("Eve", 1985), ("Flo", 1970), ("Gus", 1980)), start=5):
        _register(org, name, year, count)

    def division(name: str) -> str:
        return org.inner_text(f"#roster-table tr:has(th:text-is('{name}')) td.division .division-name")

    org.wait_for_selector("#roster-table tr:has(th:text-is('Di')) td.division")
    assert [division(n) for n in ("Ada", "Bo", "Cy", "Di")] == ["Masters", "Junior", "Senior", "no birth year"]
    assert org.locator("#age-note").count() == 0
    problems = org.locator("#division-problems")
    problems.wait_for()
    assert "1 of 7 players has no birth year (Di)" in problems.inner_text()
    assert org.inner_text("#age-counts") == "Players: Masters 4 · Senior 1 · Junior 1 · no division yet 1"
    shot(org, "pokemon-roster-divisions")

    org.goto(f"{app_process.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.click("#pair-next")
    alert = org.locator("p.error[role=alert]")
    alert.wait_for()
    org.wait_for_selector("p.error[role=alert]:has-text('round 1 cannot be paired')")
    text = alert.inner_text()
    assert "Pokémon age divisions (TOP 3.1.1)" in text and "no birth year (Di)" in text, text
    assert "enter each one's birth year in the roster on the Players screen" in text, text
    assert org.locator("#publish-round").count() == 0
    shot(org, "pokemon-pairing-refused-divisions")

    # Di's birth year, entered in the roster: Di is a Senior, nothing stops pairing any more, and the event
    # pairs (Age-Modified: 4 Masters, 2 Seniors and a Junior, 3.1.2).
    org.goto(f"{app_process.url}/#/event/{eid}/players")
    wait_ready(org, "players")
    year = org.locator("#roster-table tr:has(th:text-is('Di')) td.division input[name=birth-year]")
    year.fill(str(season - 12))
    year.press("Enter")
    year.blur()
    org.wait_for_selector("#roster-table tr:has(th:text-is('Di')) td.division[data-division=senior]")
    assert division("Di") == "Senior"
    problems.wait_for(state="detached")
    shot(org, "pokemon-roster-birth-year-entered")
    org.goto(f"{app_process.url}/#/event/{eid}/rounds")
    wait_ready(org, "rounds")
    org.click("#pair-next")
    org.wait_for_selector("#publish-round")
    assert org.errors == []
    ctx.close()

"""The Settings screen (views/settings.js): drawn from what each game declares, saved as one event.configure,
a refusal shown in words naming the field with the typed values kept, the documents' warnings beside the
settings; a Pokémon season that splits the players into age-separated pods, and a sanctioned Star Trek event
that moves its players' ratings on the server."""

from __future__ import annotations

import json
import urllib.request

from tests.browser.helpers import ARTIFACTS, create_event, event_id, open_page, shot, wait_ready, wait_synced

RULESETS = (
    "pokemon-tcg",
    "pokemon-vg",
    "doomtown",
    "shatterpoint",
    "agot",
    "startrek-1e",
    "startrek-2e",
    "tribbles",
    "custom",
)


def _open_settings(page, url: str, eid: str) -> None:
    page.goto(f"{url}/#/event/{eid}/settings")
    wait_ready(page, "settings")
    page.wait_for_selector("#settings-form [data-setting=rounds]")


def _state(page) -> dict:
    return page.evaluate(
        "(eid) => import('/pwa/rules/rules-client.js').then((m) => m.rules('state', { event_id: eid }))", event_id(page)
    )


def _save(page, expect: str = "Saved") -> None:
    page.click("#save-settings")
    page.wait_for_selector(f"#settings-saved:has-text('{expect}')")


def test_the_settings_screen_opens_and_saves_for_every_ruleset(browser, app_process) -> None:
    ctx, page = open_page(browser, {"width": 1280, "height": 800})
    for rid in RULESETS:
        eid = create_event(page, app_process.url, f"Settings {rid}", rid)
        _open_settings(page, app_process.url, eid)
        assert page.locator("#tabs a[data-screen=settings]").count() == 1
        page.fill("#setting-rounds", "4")
        page.fill("#setting-round_minutes", "45")
        page.fill("#setting-date", "2026-03-14")
        _save(page)
        settings = _state(page)["settings"]
        assert (settings["rounds"], settings["round_minutes"], settings["date"]) == (4, 45, "2026-03-14"), rid
        if rid in ("pokemon-tcg", "startrek-2e", "doomtown"):
            shot(page, f"settings-{rid}-1280")
    assert page.errors == []
    ctx.close()


def test_a_refusal_names_the_field_and_keeps_what_was_typed(browser, app_process) -> None:
    ctx, page = open_page(browser, {"width": 390, "height": 844})
    eid = create_event(page, app_process.url, "Roundup", "doomtown")
    _open_settings(page, app_process.url, eid)
    page.fill("#setting-cut", "1")
    page.fill("#setting-round_minutes", "65")
    page.click("#save-settings")
    page.wait_for_selector("#settings-error:has-text('Not saved: Top cut (players): 1 is not allowed')")
    assert page.input_value("#setting-cut") == "1" and page.input_value("#setting-round_minutes") == "65"
    assert "cut" not in _state(page)["settings"]
    # The attendance minimum of the kind of roundup (Doomtown Floor Rules 5.A), beside it.
    page.select_option("#setting-roundup", label="Official Convention, Badge or Destination roundup")
    page.wait_for_selector("[data-key=roundup] li:has-text('needs at least 8 who start round 1')")
    page.wait_for_selector("[data-key=round_minutes] li:has-text('secret d6 is')")
    shot(page, "settings-doomtown-390")
    page.fill("#setting-cut", "")
    _save(page)
    assert _state(page)["settings"]["roundup"] == "convention"
    assert _state(page)["settings"]["round_minutes"] == 65

    # Round 1 paired: the game and the number of rounds (Doomtown Floor Rules 5.B) show disabled with the reason;
    # the Start round form offers the round length set here.
    page.goto(f"{app_process.url}/#/event/{eid}/players")
    wait_ready(page, "players")
    for i, name in enumerate(("Annie", "Bat", "Calamity", "Doc"), start=1):
        _register(page, name, i)
    page.goto(f"{app_process.url}/#/event/{eid}/rounds")
    wait_ready(page, "rounds")
    page.click("#pair-next")
    page.click("#publish-round")
    page.wait_for_selector("#round-minutes")
    assert page.input_value("#round-minutes") == "65"
    _open_settings(page, app_process.url, eid)
    assert page.locator("#setting-ruleset").is_disabled() and page.locator("#setting-rounds").is_disabled()
    assert "Fixed once round 1 is paired (Doomtown Floor Rules 5.B)" in page.inner_text("[data-section=Structure]")
    assert "The game cannot change once round 1 is paired" in page.inner_text("[data-setting=ruleset]")
    page.wait_for_selector("[data-key=rounds] li:has-text('number of rounds was announced and cannot change')")
    shot(page, "settings-doomtown-locked-390")
    assert not page.locator("#setting-round_minutes").is_disabled()
    assert page.errors == []
    ctx.close()


def _register(page, name: str, count: int, *, birth_year: int | None = None, game_id: str | None = None) -> None:
    page.get_by_label("Player name").fill(name)
    if birth_year is not None:
        page.fill("#birth-year", str(birth_year))
    if game_id is not None:
        page.fill("#game-id", game_id)
    page.click("#register")
    page.wait_for_selector(f"caption:has-text('{count} registered')")


def _trek_result(page, table: int) -> None:
    """The first seat's Full Win, with both final scores (Star Trek OP Guide 7.4.1: the differential needs them)."""
    page.fill("#find-match", str(table))
    page.click(f".match-card[data-table='{table}'] .match-open")
    page.click("#entry [data-quick='win-0']")
    scores = page.locator("#entry fieldset.scores input")
    scores.nth(0).fill("100")
    scores.nth(1).fill("35")
    page.click("#save-result")
    page.wait_for_selector("#entry", state="hidden")
    page.fill("#find-match", "")


def _phone_shot(page, name: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, name)
    page.locator("#settings-table").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"pwa-{name}-screen.png"))  # what the phone shows there
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_pokemon_event_set_to_the_2019_season_pairs_age_separated_pods(browser, app_process) -> None:
    # Pokémon TOP 3.1.1: in the 2019 season, 1990 is Masters, 2005 Senior, 2010 Junior; six in each division
    # make an Age-Separated event (three pods). In the season of today, all three years are Masters.
    ctx, page = open_page(browser, {"width": 1280, "height": 800})
    eid = create_event(page, app_process.url, "Pokémon 2019", "pokemon-tcg")
    years = {"M": 1990, "S": 2005, "J": 2010}
    count = 0
    for i in range(6):
        for code, year in years.items():
            count += 1
            _register(page, f"{code}{i}", count, birth_year=year)
    _open_settings(page, app_process.url, eid)
    page.fill("#setting-season", "2019")
    page.wait_for_selector(
        "[data-key=season] li:has-text('Season 2019-20: Masters born 2003 or earlier; Senior born 2004–2007; "
        "Junior born 2008 or later')"
    )
    page.wait_for_selector('#settings-table:has-text("table for 18 players")')
    # Six in each division: Age-Separated pods, each with its own table (TOP 3.1.1, 3.3.5).
    page.wait_for_selector("#settings-divisions li[data-division=junior]:has-text('Junior (6): 3 Swiss rounds')")
    assert page.locator("#settings-divisions li").count() == 3
    shot(page, "settings-pokemon-tcg-season-1280")
    _phone_shot(page, "settings-pokemon-tcg-390")
    _save(page, "Saved: Season (age divisions)")
    assert _state(page)["settings"]["season"] == 2019

    page.goto(f"{app_process.url}/#/event/{eid}/rounds")
    wait_ready(page, "rounds")
    page.click("#pair-next")
    page.wait_for_selector("#publish-round")
    state = _state(page)
    division = {p["id"]: p["name"][0] for p in state["players"]}
    matches = state["rounds"][0]["matches"]
    assert len(matches) == 9
    for m in matches:
        assert len({division[pid] for pid in m["players"]}) == 1, m
    assert page.errors == []
    ctx.close()


def test_a_sanctioned_star_trek_event_set_from_the_screen_moves_ratings(browser, app_process) -> None:
    ctx, page = open_page(browser, {"width": 1280, "height": 800})
    eid = create_event(page, app_process.url, "Regional 2E", "startrek-2e")
    wait_synced(page)
    names = ("Picard", "Riker", "Data", "Worf", "Troi", "Crusher")
    for i, name in enumerate(names, start=1):
        _register(page, name, i, game_id=str(9000 + i))
    # Each entry gets a player record once the server has it (docs/people.md): the ratings list names them.
    wait_synced(page)
    for name in names:
        page.wait_for_selector(f"#roster-table tr:has(th:text-is('{name}')) a[data-person]", timeout=30_000)
    _open_settings(page, app_process.url, eid)
    page.check("#setting-rating-sanctioned")
    page.wait_for_selector("[data-key=rating] li:has-text('A rated event needs its level')")
    page.select_option("#setting-rating-level", label="Level 2: Regional Championships (11.1.1), k 28")
    page.select_option("#setting-rating-format", label="Constructed")
    page.fill("#setting-rounds", "3")
    page.check("#setting-td_plays")
    page.wait_for_selector("[data-key=td_plays] li:has-text('more than half of the other players to approve')")
    page.wait_for_selector("[data-key=rating] li", state="detached")
    shot(page, "settings-startrek-2e-sanctioned-1280")
    _phone_shot(page, "settings-startrek-2e-390")
    page.uncheck("#setting-td_plays")
    _save(page)
    rating = _state(page)["settings"]["rating"]
    assert rating == {"sanctioned": True, "level": 2, "format": "constructed"}

    for number in (1, 2, 3):
        page.goto(f"{app_process.url}/#/event/{eid}/rounds")
        wait_ready(page, "rounds")
        page.click("#pair-next")
        page.click("#publish-round")
        page.click("#start-round")
        page.wait_for_selector("#round-progress")
        page.goto(f"{app_process.url}/#/event/{eid}/judge")
        wait_ready(page, "judge")
        for table in (1, 2, 3):
            _trek_result(page, table)
        assert _state(page)["rounds"][number - 1]["status"] == "complete"
    wait_synced(page)
    with urllib.request.urlopen(f"{app_process.url}/api/ratings?game=startrek-2e", timeout=10) as response:
        listed = json.loads(response.read())["ratings"]
    assert sorted(r["name"] for r in listed) == sorted(names)
    assert all(r["games"] == 3 for r in listed)
    changes = [r["constructed"] - 1500 for r in listed]
    assert any(c > 0 for c in changes) and any(c < 0 for c in changes)
    assert abs(sum(changes)) <= len(changes)  # Elo moves points between players (rounding aside)
    assert page.errors == []
    ctx.close()

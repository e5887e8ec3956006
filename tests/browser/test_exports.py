"""The Exports tab and the player's own game ID, in Chromium: a Play! Pokémon ID typed at the desk is searchable,
shown in the roster with birth year and division, and is the player's ID in the standings, pairings and TOM
files; a TOM save imported on Home and downloaded again from Exports is the command line's ``export-tdf`` of the
app's own event file, byte for byte, and reads back as the same event; for every ruleset a roster CSV imported from
Exports registers, and standings and pairings CSV download with the game's ID; the Star Trek report is a tab for
the games that have one."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from shared_rules.games.pokemon.tom import import_tdf
from shared_rules.state import from_event_document, to_event_document
from tests.browser.helpers import ROOT, create_event, open_page, shot, wait_js, wait_ready, wait_synced
from tests.browser.test_forms_survive_sync import Remote

CUP = ROOT.parent / "shared" / "fixtures" / "tom" / "harness" / "cup" / "19-final.tdf"

#: What each ruleset calls a player's ID (the game's declaration), and whether it has a tournament report.
GAMES = {
    "pokemon-tcg": ("Play! Pokémon ID", False),
    "pokemon-vg": ("Play! Pokémon ID", False),
    "doomtown": ("Player ID", False),
    "shatterpoint": ("Player ID", False),
    "agot": ("Player ID", False),
    "startrek-1e": ("trekcc.org forum handle", True),
    "startrek-2e": ("trekcc.org forum handle", True),
    "tribbles": ("trekcc.org forum handle", True),
    "custom": ("Player ID", False),
}


def plain(document: dict) -> dict:
    """An event document without its operational state (who reported what, timers): the event itself."""
    return to_event_document(from_event_document(document), operational=False)


def rows_of(path: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(Path(path).read_text(encoding="utf-8"))))


def download(page, selector: str):
    with page.expect_download() as info:
        page.click(selector)
    return info.value


def register_at_desk(page, name: str, game_id: str = "", birth_year: str = "") -> None:
    before = (
        page.eval_on_selector_all("#roster-table tbody tr", "rows => rows.length")
        if page.is_visible("#roster-table")
        else 0
    )
    page.fill("form:has(#register) .field input[type=text] >> nth=0", name)
    page.fill("#game-id", game_id)
    if birth_year:
        page.fill("#birth-year", birth_year)
    page.click("#register")
    if game_id and not game_id.isdigit():
        return
    wait_js(page, "(n) => document.querySelectorAll('#roster-table tbody tr').length > n", before)


def pair_round_one(page, eid: str, url: str) -> None:
    page.goto(f"{url}/#/event/{eid}/rounds")
    wait_ready(page, "rounds")
    page.click("#pair-next")
    try:
        page.wait_for_selector("#publish-round")
    except Exception:
        shot(page, "exports-pair-failed")
        raise


def test_a_play_pokemon_id_typed_at_the_desk_is_searched_shown_and_exported(browser, live_server) -> None:
    context, page = open_page(browser, viewport={"width": 1280, "height": 800}, accept_downloads=True)
    try:
        eid = create_event(page, live_server.url, "Pallet Town Cup", "pokemon-tcg")
        assert page.text_content("label[for=game-id], .field:has(#game-id) label") == "Play! Pokémon ID"
        register_at_desk(page, "Ash Ketchum", "1000925", "2001")
        register_at_desk(page, "Misty Waterflower", "1000926", "2013")
        register_at_desk(page, "Brock Harrison", "", "1999")  # no ID yet: given in the roster below
        register_at_desk(page, "Tracey Sketchit", "1000928", "1998")
        # Not an ID: the rules refuse it, in words, and nothing is registered.
        register_at_desk(page, "Gary Oak", "10o0927", "2001")
        wait_js(page, "() => document.body.textContent.includes('is not a Play! Pokémon ID (digits only)')")
        assert page.eval_on_selector_all("#roster-table tbody tr", "rows => rows.length") == 4

        heads = page.eval_on_selector_all("#roster-table thead th", "ths => ths.map((t) => t.textContent)")
        assert heads[:3] == ["#", "Name", "Play! Pokémon ID"] and "Division (birth year)" in heads
        page.fill("#roster-search", "1000925")
        wait_js(page, "() => document.querySelectorAll('#roster-table tbody tr:not([hidden])').length === 1")
        row = page.locator("#roster-table tbody tr:not([hidden])")
        assert "Ash Ketchum" in row.text_content() and row.locator("td.game-id input").input_value() == "1000925"
        assert "Masters" in row.locator(".division-name").text_content()
        assert row.locator("input[name=birth-year]").input_value() == "2001"
        shot(page, "roster-ids-pokemon-1280")
        page.set_viewport_size({"width": 390, "height": 844})
        shot(page, "roster-ids-pokemon-390")
        page.set_viewport_size({"width": 1280, "height": 800})
        page.fill("#roster-search", "")
        # The TOM card names who has no Play! Pokémon ID yet (TOM would name them by the app's own id).
        page.click("a[data-screen=exports]")
        wait_ready(page, "exports")
        page.wait_for_selector("#export-tdf-missing")
        assert "1 player has no Play! Pokémon ID: Brock Harrison" in page.text_content("#export-tdf-missing")
        page.click("a[data-screen=players]")
        wait_ready(page, "players")
        # An ID given later, in the roster: Brock's, then searchable too.
        brock = "#roster-table tr:has(th:text-is('Brock Harrison')) input[name=game-id]"
        page.fill(brock, "1000927")
        page.press(brock, "Enter")
        page.locator("h1").click()
        wait_js(page, "() => document.querySelector(\"#roster-table td.game-id[data-game-id='1000927']\")")
        page.fill("#roster-search", "000927")
        wait_js(page, "() => document.querySelectorAll('#roster-table tbody tr:not([hidden])').length === 1")
        assert "Brock Harrison" in page.text_content("#roster-table tbody tr:not([hidden])")
        page.fill("#roster-search", "")

        pair_round_one(page, eid, live_server.url)
        page.goto(f"{live_server.url}/#/event/{eid}/exports")
        wait_ready(page, "exports")
        page.wait_for_selector("#export-round option", state="attached")
        assert not page.is_visible("#export-tdf-missing")  # every player has a Play! Pokémon ID
        standings = rows_of(download(page, "#export-standings-csv").path())
        assert standings[0][:5] == ["Rank", "Name", "Play! Pokémon ID", "Birth year", "Division"]
        ids = {r[1]: r[2] for r in standings[1:]}
        assert ids == {
            "Ash Ketchum": "1000925",
            "Misty Waterflower": "1000926",
            "Brock Harrison": "1000927",
            "Tracey Sketchit": "1000928",
        }
        pairings = rows_of(download(page, "#export-pairings-csv").path())
        assert pairings[0][:3] == ["Table", "Player 1", "Player 1 Play! Pokémon ID"]
        assert "1000925" in sum(pairings[1:], [])
        tdf = download(page, "#export-tdf")
        assert tdf.suggested_filename == "pallet-town-cup-tom.tdf"
        text = Path(tdf.path()).read_text(encoding="utf-8")
        assert 'userid="1000925"' in text and 'userid="1000926"' in text
        shot(page, "exports-pokemon-1280")
        page.set_viewport_size({"width": 390, "height": 844})
        shot(page, "exports-pokemon-390")
        assert not page.is_visible("a[data-screen=report]")
        wait_synced(page)
        # A TOM save made a new event from here too; this event stays as it was.
        page.set_input_files("#tom-import-file", str(CUP))
        page.click("#tom-import-submit")
        wait_js(page, "(eid) => !location.hash.includes(eid) && document.body.dataset.ready === 'players'", eid)
        assert page.eval_on_selector_all("#roster-table tbody tr", "rows => rows.length") > 4
        assert page.text_content("#event-title") == "Harness & Co's Cup"
        assert page.errors == []
    finally:
        context.close()


def test_a_tom_file_imported_and_downloaded_again_is_the_commands_export_tdf(browser, live_server, tmp_path) -> None:
    context, page = open_page(browser, accept_downloads=True)
    try:
        page.goto(live_server.url + "/")
        page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
        page.context.set_offline(True)  # read on the device: no network needed
        page.set_input_files("#import-file", str(CUP))
        page.click("#import-submit")
        wait_ready(page, "players")
        assert page.eval_on_selector_all("#roster-table tbody tr", "rows => rows.length") > 4
        page.goto(page.url.replace("/players", "/exports"))
        wait_ready(page, "exports")
        tdf = Path(download(page, "#export-tdf").path()).read_text(encoding="utf-8")
        event_file = tmp_path / "event.topcut.json"
        download(page, "#export-json").save_as(event_file)
        command = subprocess.run(
            [sys.executable, "-m", "shared_rules", "export-tdf", str(event_file)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
        )
        assert tdf == command.stdout  # byte for byte: no normalisation needed
        # Read back, the file is the same event: the app's document without what only a running event holds.
        mine, again = plain(json.loads(event_file.read_text(encoding="utf-8"))), plain(import_tdf(tdf))
        for key in ("name", "ruleset", "seed", "settings", "players", "rounds"):
            assert again[key] == mine[key], key
        page.context.set_offline(False)
        wait_synced(page)  # the server took the event made on the device
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("ruleset", list(GAMES))
def test_every_game_imports_a_roster_csv_and_downloads_standings_and_pairings(
    browser, live_server, tmp_path, ruleset
) -> None:
    label, report = GAMES[ruleset]
    remote = Remote(live_server.url, ruleset, f"{ruleset} night")
    context, page = open_page(browser, accept_downloads=True)
    try:
        page.goto(f"{live_server.url}/#join={remote.invite('organizer')}")
        wait_ready(page)
        page.goto(f"{live_server.url}/#/event/{remote.eid}/exports")
        wait_ready(page, "exports")
        assert page.is_visible("a[data-screen=exports]")
        roster = tmp_path / "roster.csv"
        ids = ["2000001", "2000002", "2000003", "2000004"]
        roster.write_text(
            "Name,Player ID,Date of birth\n" + "".join(f"Player {i},{pid},1990\n" for i, pid in enumerate(ids, 1)),
            encoding="utf-8",
        )
        page.set_input_files("#csv-file", str(roster))
        page.wait_for_selector("#csv-register")
        assert page.input_value("#csv-mapping select[data-heading='Player ID']") == "game_id"
        page.click("#csv-register")
        page.wait_for_selector("#csv-done")
        assert page.is_visible("#export-no-rounds")
        # The game is known (its roster registered): a report tab only for a game with one, a TOM card for Pokémon.
        if report:
            page.wait_for_selector("a[data-screen=report]")
        assert page.is_visible("a[data-screen=report]") is report
        assert page.is_visible("#export-tom") is ruleset.startswith("pokemon")
        pair_round_one(page, remote.eid, live_server.url)
        page.goto(f"{live_server.url}/#/event/{remote.eid}/exports")
        wait_ready(page, "exports")
        page.wait_for_selector("#export-round option", state="attached")
        standings = rows_of(download(page, "#export-standings-csv").path())
        assert standings[0][:3] == ["Rank", "Name", label]
        assert sorted(r[2] for r in standings[1:]) == ids
        pairings = rows_of(download(page, "#export-pairings-csv").path())
        assert pairings[0][:3] == ["Table", "Player 1", f"Player 1 {label.removeprefix('Player ')}"]
        assert sorted(c for c in sum(pairings[1:], []) if c in ids) == ids
        if ruleset in ("startrek-2e", "pokemon-tcg"):
            shot(page, f"exports-{ruleset}")
        if report:
            page.click("a[data-screen=report]")
            wait_ready(page, "report")
            page.wait_for_selector(".report-players")
            handles = page.eval_on_selector_all(
                ".report-players tbody td:nth-child(2)", "tds => tds.map((t) => t.textContent)"
            )
            assert sorted(handles) == ids
            if ruleset == "startrek-2e":
                page.set_viewport_size({"width": 1280, "height": 800})
                page.goto(f"{live_server.url}/#/event/{remote.eid}/exports")
                wait_ready(page, "exports")
                shot(page, "exports-startrek-1280")
                page.set_viewport_size({"width": 390, "height": 844})
                shot(page, "exports-startrek-390")
                page.goto(f"{live_server.url}/#/event/{remote.eid}/players")
                wait_ready(page, "players")
                page.wait_for_selector("#roster-table td.game-id")
                shot(page, "roster-ids-startrek-390")
                page.set_viewport_size({"width": 1280, "height": 800})
                shot(page, "roster-ids-startrek-1280")
        wait_synced(page)
        assert page.errors == []
    finally:
        context.close()

"""Issue 13, files that go back, in Chromium: a CSV roster read on the tablet (column mapping, per-row errors,
the good rows registered), standings and pairings downloaded as CSV, and the Star Trek tournament report page."""

from __future__ import annotations

import csv
import io

from tests.backend.helpers import PLAYERS, trek_ops
from tests.browser.helpers import open_page, rules, shot, wait_js, wait_ready, wait_synced
from tests.browser.test_forms_survive_sync import Remote

ROSTER = (
    "Name;Handle;Date of birth\n"
    "Kira Nerys;kira;1970-03-01\n"
    "Odo;odo;sometime\n"  # row 3: not a birth year
    ";nobody;1980\n"  # row 4: no name
    "Benjamin Sisko;sisko;1960\n"
)


def test_a_csv_roster_is_read_on_the_tablet_and_its_good_rows_registered(browser, live_server, tmp_path) -> None:
    fresh = Remote(live_server.url, "startrek-2e", "Deep Space Nine Open")
    context, page = open_page(browser)
    try:
        page.goto(f"{live_server.url}/#join={fresh.invite('organizer')}")
        wait_ready(page)
        page.goto(f"{live_server.url}/#/event/{fresh.eid}/players")
        wait_ready(page, "players")
        roster = tmp_path / "roster.csv"
        roster.write_text(ROSTER, encoding="utf-8")
        page.set_input_files("#csv-file", str(roster))
        page.wait_for_selector("#csv-errors tbody tr")
        errors = page.eval_on_selector_all(
            "#csv-errors tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
        )
        assert [(row, column) for row, column, _ in errors] == [("3", "Date of birth"), ("4", "Name")]
        assert "not a birth year" in errors[0][2] and "missing name" in errors[1][2]
        # "Handle" is not a heading the importer knows: read it as the trekcc.org forum handle (the game ID).
        assert page.input_value("#csv-mapping select[data-heading='Handle']") == "ignore"
        page.select_option("#csv-mapping select[data-heading='Handle']", "game_id")
        wait_js(
            page,
            "() => [...document.querySelectorAll('#csv-players tbody tr')].some((r) => r.textContent.includes('sisko'))",
        )
        ready = page.eval_on_selector_all(
            "#csv-players tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
        )
        assert [(r[0], r[1], r[2]) for r in ready] == [
            ("Kira Nerys", "kira", "1970"),
            ("Benjamin Sisko", "sisko", "1960"),
        ]
        # Only the columns the file fills: a Star Trek roster has no Division and no earned byes.
        headings = page.eval_on_selector_all("#csv-players thead th", "cells => cells.map((c) => c.textContent)")
        assert headings == ["Name", "trekcc.org forum handle", "Birth year"]
        shot(page, "csv-import")
        page.click("#csv-register")
        page.wait_for_selector("#csv-done")
        wait_synced(page)
        players = {p["name"]: p for p in rules(page, "state", {"event_id": fresh.eid})["players"]}
        assert set(players) == {"Kira Nerys", "Benjamin Sisko"}
        assert players["Kira Nerys"]["birth_year"] == 1970 and players["Benjamin Sisko"]["extra"]["game_id"] == "sisko"
        server = fresh.api(f"/api/events/{fresh.eid}/state", token=fresh.token)["state"]
        assert sorted(p["name"] for p in server["players"]) == ["Benjamin Sisko", "Kira Nerys"]
        assert page.errors == []
    finally:
        context.close()


def test_standings_and_pairings_download_as_csv_and_the_star_trek_report_prints(browser, live_server) -> None:
    played = Remote(live_server.url, "startrek-1e", "Qo'noS Open")
    ops = trek_ops(PLAYERS[:4])
    assert ops[-1]["type"] == "event.close"
    played.push(*[(op["type"], op["payload"]) for op in ops])  # played and closed: the report comes after
    # A WCT league of this server counts the event: the report form says so and starts League Event? at Yes.
    league = played.api(
        "/api/leagues",
        {"name": "Badlands League", "director": {"name": "Q"}, "season": {"name": "2026", "schedule": "truncated"}},
    )
    played.api(
        f"/api/leagues/{league['league_id']}/events",
        {"event_id": played.eid, "sprint": "regular", "organizer_token": played.token},
        league["token"],
    )
    context, page = open_page(browser, accept_downloads=True)
    try:
        page.goto(f"{live_server.url}/#join={played.invite('organizer')}")
        wait_ready(page)
        page.goto(f"{live_server.url}/#/event/{played.eid}/standings")
        wait_ready(page, "standings")
        page.wait_for_selector("#standings-table")
        with page.expect_download() as info:
            page.click("#standings-csv")
        download = info.value
        assert download.suggested_filename == "qo-nos-open-standings.csv"
        rows = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8").read())))
        assert rows[0][:3] == ["Rank", "Name", "trekcc.org forum handle"] and [r[1] for r in rows[1:]] == [
            p["name"] for p in PLAYERS[:4]
        ]

        page.goto(f"{live_server.url}/#/event/{played.eid}/print")
        wait_ready(page, "print")
        with page.expect_download() as info:
            page.click("#pairings-csv")
        download = info.value
        assert download.suggested_filename == "qo-nos-open-round-3-pairings.csv"
        rows = list(csv.reader(io.StringIO(open(download.path(), encoding="utf-8").read())))
        assert rows[0][0] == "Table" and len(rows) == 3

        # The tournament report, reached from the Print screen of a Star Trek event.
        page.click("#report-link")
        wait_ready(page, "report")
        page.wait_for_selector("#report .report-round")
        assert page.text_content("#report dd[data-key=edition]") == "First Edition"
        assert page.text_content("#report dd[data-key=pairing_style]") == "Swiss"
        assert page.text_content("#report dd[data-key=rounds]") == "3"
        assert "Primary TD" in page.text_content("#report-missing")
        first = page.eval_on_selector_all(
            ".report-round[data-round='1'] tbody tr", "rows => rows.map((r) => r.textContent)"
        )
        assert first[0].startswith("1Player 1FW100") and first[0].endswith("4+65")
        totals = page.eval_on_selector_all(
            ".report-totals tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
        )
        assert totals[0] == ["1", "Player 1", "3-0-0", "12", "+195"]
        # The organizer fills in what the event cannot know; every device's report has it.
        page.wait_for_selector("#report-leagues")
        assert "Badlands League" in page.text_content("#report-leagues")
        assert page.input_value("#report-form select[name=report-league_event]") == "yes"
        page.fill("#report-form input[name=report-primary_td]", "Quark")
        page.fill("#report-form input[name=report-date]", "2026-11-20")
        page.fill("#report-form input[name=report-region]", "Bajor Sector")
        page.select_option("#report-form select[name=report-league_event]", "yes")
        page.click("#save-report")
        wait_js(page, "() => document.querySelector('#report dd[data-key=primary_td]')?.textContent === 'Quark'")
        assert page.text_content("#report dd[data-key=league_event]") == "yes"
        wait_synced(page)
        server = played.api(f"/api/events/{played.eid}/state", token=played.token)["state"]
        assert server["settings"]["report"]["primary_td"] == "Quark" and server["closed"]
        with page.expect_download() as info:
            page.click("#report-text")
        text = open(info.value.path(), encoding="utf-8").read()
        assert info.value.suggested_filename == "qo-nos-open-trekcc-report.txt"
        assert "Quark" in text and "Player 1" in text
        shot(page, "startrek-report")
        page.emulate_media(media="print")
        assert not page.is_visible("#report-form") and page.is_visible("#report .report-totals")
        shot(page, "startrek-report-print")
        assert page.errors == []
    finally:
        context.close()

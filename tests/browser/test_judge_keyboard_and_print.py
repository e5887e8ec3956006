"""The judge tablet by keyboard alone, the time-called helper, and the printouts.

A Shatterpoint round: the result form is reached and filled with the keyboard
(tab order, labels, Enter submits); the time-called helper decides a game from
struggle cards and wounds; the print screen lists the pairings by table and by
name and one slip per table, and the print stylesheet hides the app around them.
"""

from __future__ import annotations

from tests.browser.helpers import shot, wait_ready
from tests.browser.test_forms_survive_sync import Remote

PLAYERS = (("p1", "Obi Wan"), ("p2", "Asajj"), ("p3", "Cad Bane"), ("p4", "Boba"))

ACCESSIBLE_NAME = (
    """(el) => el.getAttribute('aria-label') || (el.labels && el.labels[0] ? el.labels[0].textContent.trim() : '')"""
)


def test_result_by_keyboard_time_called_helper_and_printouts(browser, live_server) -> None:
    remote = Remote(live_server.url, "shatterpoint", "Kessel Open")
    remote.push(
        *[("player.register", {"player": {"id": pid, "name": name}}) for pid, name in PLAYERS],
        (
            "round.pair",
            {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]},
        ),
        ("round.publish", {"number": 1}),
        ("round.start", {"number": 1, "duration_s": 4500}),
    )
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/#join={remote.invite('judge')}")
    wait_ready(page, "judge")
    page.wait_for_selector(".match-card[data-table='2']", timeout=20_000)

    # ---- keyboard only: search, Tab to the match, Enter opens it, the form's fields in order, all labelled
    page.focus("#find-match")
    page.keyboard.type("1")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "round-pick"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "match-open"
    assert "Table 1" in page.evaluate("document.activeElement.getAttribute('aria-label')")
    page.keyboard.press("Enter")
    page.wait_for_selector("#entry:not([hidden]) form.result-form")
    assert page.evaluate("document.activeElement.dataset.quick") == "win-0"  # focus moved into the form
    order = []
    for _ in range(12):
        info = page.evaluate(f"""() => {{ const el = document.activeElement;
            const id = /^f-/.test(el.id) ? "" : el.id;
            return [el.tagName, id || el.dataset.quick || ({ACCESSIBLE_NAME})(el) || el.textContent.trim()]; }}""")
        order.append(info)
        if info[1] == "save-result":
            break
        page.keyboard.press("Tab")
    names = [name for _, name in order]
    assert names[:3] == ["win-0", "win-1", "draw"], names
    assert (
        names.index("Outcome for Obi Wan")
        < names.index("Outcome for Asajj")
        < names.index("Struggle cards claimed by Obi Wan")
    )
    assert names.index("Wounds inflicted by Asajj") < names.index("How the game ended") < names.index("save-result")
    unlabelled = page.eval_on_selector_all(
        "#entry form input, #entry form select",
        f"els => els.filter((el) => el.offsetParent !== null && !({ACCESSIBLE_NAME})(el)).map((el) => el.outerHTML)",
    )
    assert unlabelled == []

    # Shatterpoint at time: struggle cards decide; the helper fills the outcomes and "time".
    page.fill("[aria-label='Struggle cards claimed by Obi Wan']", "2")
    page.fill("[aria-label='Wounds inflicted by Obi Wan']", "5")
    page.fill("[aria-label='Struggle cards claimed by Asajj']", "1")
    page.fill("[aria-label='Wounds inflicted by Asajj']", "3")
    page.click("#entry summary:has-text('Time called')")
    page.click("#entry button:has-text('Decide at time')")
    page.wait_for_selector("#entry .helper-result:has-text('Obi Wan wins at time')")
    assert page.input_value("[aria-label='Outcome for Obi Wan']") == "win"
    assert page.input_value("[aria-label='Outcome for Asajj']") == "loss"
    assert page.input_value("#entry select[name=ending]") == "time"
    shot(page, "judge-01-time-called-helper")
    # Enter in a field submits the form.
    page.focus("[aria-label='Wounds inflicted by Asajj']")
    page.keyboard.press("Enter")
    page.wait_for_selector("#entry", state="hidden")
    assert page.evaluate("document.activeElement.id") == "find-match"
    card = page.wait_for_selector(".match-card[data-table='1'][data-status=confirmed]")
    assert "2 SC, 5 W" in card.text_content() and "time" in card.text_content()

    # ---- printouts: by table, by name, one slip per table; the print stylesheet shows only them
    page.goto(f"{live_server.url}/#/event/{remote.eid}/print")
    wait_ready(page, "print")
    by_table = page.eval_on_selector_all(
        "table.by-table tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
    )
    assert by_table == [["1", "Obi Wan", "Asajj"], ["2", "Cad Bane", "Boba"]]
    alpha = page.eval_on_selector_all(
        "table.alpha tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
    )
    assert alpha == [
        ["Asajj", "1", "Obi Wan"],
        ["Boba", "2", "Cad Bane"],
        ["Cad Bane", "2", "Boba"],
        ["Obi Wan", "1", "Asajj"],
    ]
    slips = page.locator(".slip")
    assert slips.count() == 2
    assert "Kessel Open · Round 1 · Table 2" in slips.nth(1).text_content()
    assert slips.nth(1).locator(".slip-line").count() == 3  # two players and the judge
    page.emulate_media(media="print")
    hidden = page.evaluate("""() => ['.topbar', '.tabs', 'footer.engine', 'main h1'].map(
        (s) => getComputedStyle(document.querySelector(s)).display)""")
    assert hidden == ["none", "none", "none", "none"]
    assert page.evaluate("getComputedStyle(document.querySelector('.printable button, main button')).display") == "none"
    assert page.evaluate("getComputedStyle(document.querySelector('section.page')).breakAfter") in ("page", "always")
    assert page.is_visible(".slip")
    shot(page, "print-01-print-media")
    assert errors == []
    context.close()

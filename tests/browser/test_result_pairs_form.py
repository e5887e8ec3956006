"""The result form makes only results the game's document allows (issue 22, item 1).

AGoT: the quick "<player> wins" button saves win / loss (it made win / modified loss, which broke the
event's standings); choosing a modified win for one player gives the other a modified loss; the draw
button saves draw / draw. Star Trek 2E: the quick button saves Full Win / Full Loss (it made
full win / modified loss, refused on every table), and a Modified Win pairs with a Modified Loss.
"""

from __future__ import annotations

from tests.browser.helpers import shot
from tests.browser.test_draft_cut_penalties import goto, open_as, register, state
from tests.browser.test_forms_survive_sync import Remote
from tests.browser.test_ruleset_screens import open_table, started


def outcomes_of(page) -> list[str]:
    return [page.input_value(f"#entry select[name=outcome-{i}]") for i in (0, 1)]


def saved(page, remote: Remote, table: int) -> list[str]:
    def outcome():
        rnd = state(page, remote)["rounds"][0]
        match = next(m for m in rnd["matches"] if m["table"] == table)
        return match["outcomes"] if match["status"] == "confirmed" else None

    for _ in range(100):
        got = outcome()
        if got:
            return got
        page.wait_for_timeout(100)
    raise AssertionError(f"table {table} was not saved")


def test_agot_and_star_trek_forms_offer_only_the_documents_results(browser, live_server) -> None:
    agot = Remote(live_server.url, "agot", "Iron Throne Joust")
    agot.push(*register(("Arya", "Bran", "Cersei", "Davos", "Euron", "Gilly")))
    started(agot, [["p1", "p2"], ["p3", "p4"], ["p5", "p6"]])
    context, page = open_as(browser, agot, "judge")
    goto(page, agot, "judge")

    open_table(page, 1)
    quick = page.eval_on_selector_all(
        "#entry [data-quick]", "bs => bs.map((b) => b.dataset.quick + ': ' + b.textContent)"
    )
    assert quick == ["win-0: Arya wins", "win-1: Bran wins", "draw: draw"]
    page.click("#entry [data-quick='win-0']")
    assert outcomes_of(page) == ["win", "loss"]
    page.select_option("#entry select[name=outcome-0]", "modified-win")
    assert outcomes_of(page) == ["modified-win", "modified-loss"]  # the other seat follows
    page.select_option("#entry select[name=outcome-1]", "modified-win")
    assert outcomes_of(page) == ["modified-loss", "modified-win"]
    shot(page, "pairs-01-agot-form")
    page.click("#entry [data-quick='win-0']")
    page.click("#save-result")
    assert saved(page, agot, 1) == ["win", "loss"]

    open_table(page, 2)
    page.click("#entry [data-quick='draw']")
    page.click("#save-result")
    assert saved(page, agot, 2) == ["draw", "draw"]
    assert page.errors == []
    context.close()

    trek = Remote(live_server.url, "startrek-2e", "Deep Space Open")
    trek.push(*register(("Sisko", "Dukat", "Kira", "Garak")))
    started(trek, [["p1", "p2"], ["p3", "p4"]])
    context, page = open_as(browser, trek, "judge")
    goto(page, trek, "judge")
    open_table(page, 1)
    quick = page.eval_on_selector_all(
        "#entry [data-quick]", "bs => bs.map((b) => b.dataset.quick + ': ' + b.textContent)"
    )
    assert quick == ["win-0: Sisko wins", "win-1: Dukat wins", "draw: true tie"]
    page.click("#entry [data-quick='win-1']")
    assert outcomes_of(page) == ["full-loss", "full-win"]
    page.select_option("#entry select[name=outcome-0]", "modified-win")
    assert outcomes_of(page) == ["modified-win", "modified-loss"]
    page.click("#entry [data-quick='win-0']")
    page.fill("[aria-label='Score of Sisko']", "100")
    page.fill("[aria-label='Score of Dukat']", "35")
    shot(page, "pairs-02-startrek-form")
    page.click("#save-result")
    assert saved(page, trek, 1) == ["full-win", "full-loss"]
    assert page.errors == []
    context.close()

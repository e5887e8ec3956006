"""A result the rules refuse is refused on the judge's device, before it is queued (issue 25).

Star Trek 2E: a Full Win / Full Loss without both final scores (Star Trek OP Guide 7.4, 7.4.1) is refused
on the result form in a judge's words, naming the missing scores; nothing waits in the outbox to be refused
again by the server, and the match stays open to enter again.
"""

from __future__ import annotations

from tests.browser.helpers import shot
from tests.browser.test_draft_cut_penalties import goto, open_as, register, state
from tests.browser.test_forms_survive_sync import Remote
from tests.browser.test_ruleset_screens import open_table, started


def test_star_trek_result_without_final_scores_is_refused_before_queueing(browser, live_server) -> None:
    trek = Remote(live_server.url, "startrek-2e", "Deep Space Open")
    trek.push(*register(("Sisko", "Dukat", "Kira", "Garak")))
    started(trek, [["p1", "p2"], ["p3", "p4"]])
    context, page = open_as(browser, trek, "judge")
    goto(page, trek, "judge")
    open_table(page, 1)
    page.click("#entry [data-quick='win-0']")
    error = page.locator("#entry .error")

    page.click("#save-result")  # no score at all: the rules on this device refuse it, before the outbox
    page.wait_for_function("() => document.querySelector('#entry .error')?.textContent.length > 0")
    text = error.inner_text()
    assert "final scores of Sisko and Dukat" in text, text
    assert "payload" not in text and "rounds[" not in text and "result.report" not in text, text

    page.fill("[aria-label='Score of Sisko']", "100")  # one score: the blank one is named, never read as 0
    page.click("#save-result")
    page.wait_for_function("() => document.querySelector('#entry .error')?.textContent.includes('Dukat too')")
    shot(page, "refused-01-startrek-scores")
    waiting = page.evaluate(
        "(eid) => import('/pwa/data/outbox.js').then((m) => m.rows(eid)).then((r) => r.length)", trek.eid
    )
    assert waiting == 0
    assert state(page, trek)["rounds"][0]["matches"][0]["status"] == "pending"  # no result yet

    page.fill("[aria-label='Score of Dukat']", "35")
    page.click("#save-result")
    page.wait_for_selector("#entry", state="hidden")
    assert state(page, trek)["rounds"][0]["matches"][0]["scores"] == [100, 35]
    assert page.errors == []
    context.close()

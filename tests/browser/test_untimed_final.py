"""The Start round form offers the untimed rounds each game declares (issue 25).

AGoT Tournament Regulations, Single Elimination Rounds: "The game between the two finalists is untimed", so
the final's Start round form offers 0 minutes (no time limit) with the document named, while a Swiss round
offers the 55 minutes; Doomtown's untimed cut (Floor Rules 5.C) is offered once the organizer chose it.
"""

from __future__ import annotations

from tests.browser.helpers import shot
from tests.browser.test_draft_cut_penalties import goto, open_as, register, state, swiss_round
from tests.browser.test_forms_survive_sync import Remote


def _final(remote: Remote) -> None:
    remote.push(
        ("event.configure", {"settings": {"rounds": 1, "cut": 2}}),
        *register(("Arya", "Bran", "Cersei", "Davos")),
        *swiss_round(1, (("p1", "p2"), ("p3", "p4"))),
        ("cut.make", {"size": 2, "matches": [{"table": 1, "players": ["p1", "p3"]}]}),
        ("round.publish", {"number": 2}),
    )


def test_the_agot_final_and_a_chosen_doomtown_cut_start_untimed(browser, live_server) -> None:
    agot = Remote(live_server.url, "agot", "Iron Throne Joust")
    _final(agot)
    context, page = open_as(browser, agot, "organizer", viewport={"width": 1280, "height": 800})
    goto(page, agot, "rounds")
    page.wait_for_selector("#round-untimed")
    assert page.input_value("#round-minutes") == "0"
    assert "Single Elimination Rounds" in page.inner_text("#round-untimed")
    shot(page, "untimed-01-agot-final")
    page.click("#start-round")
    page.wait_for_function("() => !document.getElementById('start-round')")
    final = state(page, agot)["rounds"][1]
    assert final["status"] == "started" and final["timer"]["duration_s"] == 0
    assert page.errors == []
    context.close()

    doomtown = Remote(live_server.url, "doomtown", "Gomorra Weekly")
    doomtown.push(("event.configure", {"settings": {"cut_untimed": True}}))
    _final(doomtown)
    context, page = open_as(browser, doomtown, "organizer", viewport={"width": 390, "height": 844})
    goto(page, doomtown, "rounds")
    page.wait_for_selector("#round-untimed")
    assert page.input_value("#round-minutes") == "0"
    assert not page.is_checked("#secret-d6")  # an untimed round has no secret time
    shot(page, "untimed-02-doomtown-cut-phone")
    assert page.errors == []
    context.close()

"""The day's flow leads the organizer: on the Rounds screen the next step is always the one primary button.

Walked as a TO for a Pokémon event (two Swiss rounds, a top 4, the final, the champion, the close, with a
re-pair over a manual swap asked first), a Doomtown roundup (a dispute between a judge named "Floor Judge Bo"
and the organizer, shown by that name) and a Star Trek Second Edition event (Modified McIntyre top 4). Other
devices' results come through the API; the organizer's tablet pairs, publishes, starts and closes.
"""

from __future__ import annotations

import time

from tests.browser.helpers import shot, wait_ready, wait_synced
from tests.browser.test_draft_cut_penalties import goto, open_as, state, until
from tests.browser.test_forms_survive_sync import Remote

PRIMARY = "#view button.primary, #view a.button.primary"
VISIBLE_PRIMARY = (
    "(sel) => [...document.querySelectorAll(sel)].filter((e) => e.offsetParent !== null)"
    ".map((e) => e.textContent.trim())"
)


def expect_primary(page, text: str, timeout_s: float = 30) -> None:
    """The screen's one visible primary button (or link) says ``text``."""
    deadline = time.monotonic() + timeout_s
    while True:
        shown = page.evaluate(VISIBLE_PRIMARY, PRIMARY)
        if shown == [text]:
            return
        assert time.monotonic() < deadline, f"primary buttons {shown}, expected [{text!r}]"
        page.wait_for_timeout(100)


def click_primary(page, text: str) -> None:
    expect_primary(page, text)
    page.locator(PRIMARY).filter(has_text=text).first.click()


NAMES = ("Ash", "Bea", "Cyd", "Dana", "Eli", "Fay", "Gus", "Hal")


def players(n: int, **extra) -> list[tuple[str, dict]]:
    return [("player.register", {"player": {"id": f"p{i}", "name": NAMES[i - 1], **extra}}) for i in range(1, n + 1)]


def report_round(page, remote: Remote, scores: list[int] | None = None) -> None:
    """Every table of the latest round reported by the remote organizer (the first seat wins)."""
    wait_synced(page)
    rnd = state(page, remote)["rounds"][-1]
    ops = []
    for m in rnd["matches"]:
        if m["table"] is None or m["status"] != "pending":
            continue
        result = {"round": rnd["number"], "stage": rnd["stage"], "table": m["table"], "outcomes": []}
        result["outcomes"] = ["full-win", "full-loss"] if scores else ["win", "loss"]
        if scores:
            result["scores"] = scores
        ops.append(("result.report", result))
    remote.push(*ops)
    until(page, lambda: state(page, remote)["devices"].get("remote", 0) >= remote.seq)


def publish_start(page, number: int, screenshot: str | None = None) -> None:
    click_primary(page, f"Publish round {number}")
    expect_primary(page, f"Start round {number}")
    if screenshot:
        both_sizes(page, screenshot)
    click_primary(page, f"Start round {number}")
    expect_primary(page, "Enter results")


def play_swiss_round(page, remote: Remote, number: int, scores: list[int] | None = None) -> None:
    click_primary(page, f"Pair round {number} (draft)")
    publish_start(page, number)
    report_round(page, remote, scores)


def both_sizes(page, name: str) -> None:
    for width, height in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(300)
        shot(page, f"{name}-{width}x{height}")
    page.set_viewport_size({"width": 1280, "height": 800})


def test_a_pokemon_event_from_round_one_to_its_champion(browser, live_server) -> None:
    remote = Remote(live_server.url, "pokemon-tcg", "League Cup")
    remote.push(*players(8, birth_year=1990), ("event.configure", {"settings": {"rounds": 2, "cut": 4}}))
    context, page = open_as(browser, remote, "organizer", viewport={"width": 1280, "height": 800})
    goto(page, remote, "rounds")

    # ---- round 1: pair; the cut is not offered before the Swiss rounds are played
    click_primary(page, "Pair round 1 (draft)")
    expect_primary(page, "Publish round 1")
    assert page.locator("#make-top-cut, #make-cut, #cut-early").count() == 0
    # A manual swap, then a re-pair: asked first, naming the swap it would throw away.
    first = state(page, remote)["rounds"][0]["matches"]
    a, b = first[0]["players"][0], first[1]["players"][0]
    page.select_option("#swap-a", a)
    page.select_option("#swap-b", b)
    page.click(".swap button[type=submit]")
    until(page, lambda: (state(page, remote)["rounds"][0]["paired_by"] or {}).get("swaps") == 1)
    page.click("#repair-round")
    page.wait_for_selector("#repair-warning:has-text('throws away the 1 manual swap')")
    assert page.text_content("#confirm-repair") == "Confirm: re-pair and lose 1 swap"
    shot(page, "flow-repair-confirm")
    page.click("#keep-swaps")
    page.wait_for_selector("#repair-round")
    assert state(page, remote)["rounds"][0]["paired_by"]["swaps"] == 1  # nothing was lost
    page.click("#repair-round")
    page.click("#confirm-repair")
    until(page, lambda: "swaps" not in state(page, remote)["rounds"][0]["paired_by"])
    publish_start(page, 1, screenshot="flow-rounds-start-step")
    report_round(page, remote)

    # ---- round 2, the last Swiss round: then the cut is the primary step
    play_swiss_round(page, remote, 2)
    expect_primary(page, "Swiss is over: make the top 4")
    assert "All 2 Swiss rounds are complete" in page.text_content("#next-step-reason")
    assert page.locator("#pair-next").count() == 0
    both_sizes(page, "flow-rounds-after-last-swiss")
    click_primary(page, "Swiss is over: make the top 4")

    # ---- the semifinals, the final, the champion, the close
    publish_start(page, 3)
    report_round(page, remote)
    click_primary(page, "Pair the final")
    publish_start(page, 4)
    report_round(page, remote)
    expect_primary(page, "Close the event")
    champion = page.text_content("#champion")
    assert champion.startswith("Champion: ") and champion.removeprefix("Champion: ") in NAMES, champion
    both_sizes(page, "flow-rounds-after-final")
    click_primary(page, "Close the event")
    page.wait_for_selector("#confirm-close")
    click_primary(page, "Confirm: close the event")
    page.wait_for_selector("#rounds-closed")
    assert page.text_content("#champion") == champion
    assert page.evaluate(VISIBLE_PRIMARY, PRIMARY) == []
    assert page.errors == []
    context.close()


def test_a_doomtown_dispute_names_the_judge_and_the_roundup_runs_to_its_end(browser, live_server) -> None:
    remote = Remote(live_server.url, "doomtown", "Deadlands Roundup")
    remote.push(*players(4), ("event.configure", {"settings": {"rounds": 1, "cut": 2}}))
    invitation = remote.api(
        f"/api/events/{remote.eid}/invitations", {"role": "judge", "label": "Floor Judge Bo"}, remote.token
    )
    judge = remote.api("/api/invitations/redeem", {"code": invitation["code"]})["token"]
    context, page = open_as(browser, remote, "organizer", viewport={"width": 1280, "height": 800})
    goto(page, remote, "rounds")
    click_primary(page, "Pair round 1 (draft)")
    publish_start(page, 1)
    wait_synced(page)

    # The judge's tablet and the organizer disagree at table 1: a dispute, named by the judge's invitation.
    match = state(page, remote)["rounds"][0]["matches"][0]
    table = {"round": 1, "table": match["table"]}
    judged = remote.api(
        f"/api/events/{remote.eid}/push",
        {
            "device": "judge-ju3v9esnrd",
            "ops": [{"seq": 1, "op": {"type": "result.report", "payload": {**table, "outcomes": ["win", "loss"]}}}],
        },
        judge,
    )
    assert judged["results"][0]["status"] == "accepted", judged
    remote.push(("result.report", {**table, "outcomes": ["loss", "win"]}))
    until(page, lambda: bool(state(page, remote)["disputes"]))
    expect_primary(page, "Open the disputes")
    assert page.text_content("#next-step-label") == f"Next: Resolve the dispute at table {match['table']} of round 1"
    report_round(page, remote)  # the other table
    goto(page, remote, "disputes")
    page.wait_for_selector(".dispute .report")
    reports = page.locator(".dispute .report").all_text_contents()
    assert any(r.startswith("Floor Judge Bo (judge): ") for r in reports), reports
    assert not any("judge-ju3v9esnrd" in r for r in reports), reports
    shot(page, "flow-dispute-named-judge")
    page.locator(".dispute .report", has_text="Floor Judge Bo").locator("button.uphold").click()
    until(page, lambda: not state(page, remote)["disputes"])

    # ---- the cut of two is the final
    goto(page, remote, "rounds")
    click_primary(page, "Swiss is over: make the top 2")
    publish_start(page, 2)
    report_round(page, remote)
    expect_primary(page, "Close the event")
    assert page.text_content("#champion").startswith("Champion: ")
    click_primary(page, "Close the event")
    click_primary(page, "Confirm: close the event")
    page.wait_for_selector("#rounds-closed")
    assert page.errors == []
    context.close()


def test_a_star_trek_second_edition_event_runs_its_swiss_and_cut_to_the_close(browser, live_server) -> None:
    remote = Remote(live_server.url, "startrek-2e", "Regional")
    remote.push(*players(6), ("event.configure", {"settings": {"rounds": 2, "cut": 4}}))
    context, page = open_as(browser, remote, "organizer", viewport={"width": 1280, "height": 800})
    goto(page, remote, "rounds")
    play_swiss_round(page, remote, 1, scores=[100, 40])
    expect_primary(page, "Pair round 2 (draft)")
    page.click("#cut-early")  # the TO may end the Swiss early, after a warning
    assert "1 more is still to play" in page.text_content("#cut-early-warning")
    page.click("#cut-not-yet")
    play_swiss_round(page, remote, 2, scores=[100, 40])
    click_primary(page, "Swiss is over: make the top 4")
    publish_start(page, 3)
    report_round(page, remote, scores=[100, 40])
    click_primary(page, "Pair the final")
    publish_start(page, 4)
    report_round(page, remote, scores=[100, 40])
    expect_primary(page, "Close the event")
    champion = page.text_content("#champion")
    assert champion.removeprefix("Champion: ") in NAMES, champion  # a name, never a player id
    click_primary(page, "Close the event")
    click_primary(page, "Confirm: close the event")
    page.wait_for_selector("#rounds-closed")
    wait_ready(page, "rounds")
    assert page.errors == []
    context.close()

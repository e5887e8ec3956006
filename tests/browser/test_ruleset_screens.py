"""The screens draw each game's differences from the rules worker's screen descriptors.

``rules_api.ruleset_info()["ui"]`` says what a ruleset's result form, clock, round
start and penalties need; the app's JavaScript names no ruleset. One event per
game checks what its descriptor asks for: Star Trek 2E final scores with the
mission inputs of its time-called helper and the Appendix B penalty levels;
Tribbles pod scores (never below 0) for a pod of three; Pokémon best-of-three
games in a Swiss round (and Doomtown without them, with its own helper);
Shatterpoint's five attack dice at round start, Mission Critical on the clock,
and its warning / ejection penalties.
"""

from __future__ import annotations

from tests.browser.helpers import shot, wait_js
from tests.browser.test_draft_cut_penalties import goto, open_as, options, register
from tests.browser.test_forms_survive_sync import Remote


def open_table(page, table: int) -> None:
    page.fill("#find-match", str(table))
    page.click(f".match-card[data-table='{table}'] .match-open")
    page.wait_for_selector("#entry:not([hidden]) form.result-form")


def legends(page) -> list[str]:
    return page.locator("#entry form.result-form fieldset > legend").all_text_contents()


def helper_rows(page) -> list[str]:
    return page.locator("#entry details.helper .row .who").all_text_contents()


def started(remote: Remote, tables: list[list[str]], seconds: int = 3000) -> None:
    remote.push(
        ("round.pair", {"number": 1, "matches": [{"table": t, "players": p} for t, p in enumerate(tables, 1)]}),
        ("round.publish", {"number": 1}),
        ("round.start", {"number": 1, "duration_s": seconds}),
    )


def test_star_trek_scores_mission_inputs_and_penalty_levels(browser, live_server) -> None:
    trek = Remote(live_server.url, "startrek-2e", "Deep Space Open")
    trek.push(*register(("Sisko", "Dukat", "Kira", "Garak")))
    started(trek, [["p1", "p2"], ["p3", "p4"]])
    context, page = open_as(browser, trek, "head-judge")
    goto(page, trek, "judge")
    open_table(page, 1)
    assert legends(page) == ["Outcome per player", "Final scores"]
    assert page.get_attribute("[aria-label='Score of Sisko']", "min") is None  # Star Trek scores may go below 0
    assert page.locator("#entry fieldset.games").count() == 0  # best of three only in elimination
    assert helper_rows(page) == ["planet_missions", "space_missions"]
    page.fill("[aria-label='Score of Sisko']", "100")
    page.fill("[aria-label='Score of Dukat']", "40")
    page.click("#entry summary:has-text('Time called')")
    page.click("#entry button:has-text('Decide at time')")
    page.wait_for_selector("#entry .helper-result:has-text('Sisko wins at time')")
    assert page.input_value("select[aria-label='Outcome for Sisko']") != ""
    shot(page, "ruleset-01-startrek-2e-result-form")
    assert options(page)[0] == "0: Level 0 — verbal warning" and len(options(page)) == 5
    assert page.locator("#penalty-infraction").count() == 1
    page.wait_for_selector(".hint:has-text('Star Trek OP Guide Appendix B')")
    shot(page, "ruleset-02-startrek-2e-penalties")
    assert page.errors == []
    context.close()


def test_tribbles_pod_scores_for_a_pod_of_three(browser, live_server) -> None:
    tribbles = Remote(live_server.url, "tribbles", "Tribble Trouble")
    tribbles.push(*register(("Cyrano", "Jones", "Koloth")))
    started(tribbles, [["p1", "p2", "p3"]])
    context, page = open_as(browser, tribbles, "head-judge")
    goto(page, tribbles, "judge")
    open_table(page, 1)
    assert legends(page) == ["Outcome per player", "Pod scores (points this round)"]
    assert [page.get_attribute(f"[aria-label='Score of {n}']", "min") for n in ("Cyrano", "Jones", "Koloth")] == [
        "0"
    ] * 3
    assert page.locator("#entry details.helper").count() == 0
    assert page.locator("#penalty-infraction").count() == 1
    assert page.errors == []
    context.close()


def test_pokemon_plays_best_of_three_in_swiss_and_doomtown_does_not(browser, live_server) -> None:
    generic = ["warning: Warning", "game-loss: Game loss", "disqualification: Disqualification"]
    # Doomtown Floor Rules 6.B names a Written Warning and the Roundup Disqualification
    doomtown = [
        *generic[:1],
        "written-warning: Written Warning",
        generic[1],
        "disqualification: Roundup Disqualification",
    ]
    for ruleset, names, games, rows, penalties in (
        ("pokemon-tcg", ("Ash", "Misty"), 1, [], generic),
        ("doomtown", ("Hank", "Lula"), 0, ["control", "influence", "bullets"], doomtown),
    ):
        remote = Remote(live_server.url, ruleset, f"{ruleset} night")
        remote.push(*register(names))
        started(remote, [["p1", "p2"]])
        context, page = open_as(browser, remote, "head-judge")
        goto(page, remote, "judge")
        open_table(page, 1)
        assert page.locator("#entry fieldset.games legend:text-is('Games (best of three)')").count() == games, ruleset
        assert helper_rows(page) == rows, ruleset
        assert options(page) == penalties, ruleset
        assert page.locator("#penalty-infraction").count() == 0
        assert page.errors == []
        context.close()


def test_shatterpoint_attack_dice_mission_critical_and_ejection(browser, live_server) -> None:
    sp = Remote(live_server.url, "shatterpoint", "Mustafar Cup")
    sp.push(
        *register(("Ahsoka", "Maul")),
        ("round.pair", {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}]}),
        ("round.publish", {"number": 1}),
    )
    context, page = open_as(browser, sp, "organizer")
    goto(page, sp, "rounds")
    page.wait_for_selector("#start-round")
    assert page.text_content("fieldset.dice legend") == "Five attack dice (+1 minute per critical or strike)"
    dice = page.locator("select[aria-label^='Attack die']")
    assert dice.count() == 5
    before = int(page.input_value("#round-minutes"))
    page.select_option("[aria-label='Attack die 1']", "critical")
    wait_js(page, "n => Number(document.getElementById('round-minutes').value) === n + 1", arg=before, timeout=10_000)
    page.fill("#round-minutes", "20")  # within the last 30 minutes from the start: Mission Critical at once
    page.click("#start-round")
    page.wait_for_selector(".clock .note:text-is('Mission Critical')", timeout=15_000)
    shot(page, "ruleset-03-shatterpoint-mission-critical")
    goto(page, sp, "judge")
    assert options(page) == ["warning: Warning", "ejection: Ejection"]
    assert page.locator("#penalty-infraction").count() == 0
    assert page.errors == []
    context.close()

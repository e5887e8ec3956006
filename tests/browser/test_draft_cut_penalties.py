"""The organizer's and judges' screens that had no browser test yet.

- Draft review: a Doomtown round 2 drafted on top of a known round 1; a swap in
  the UI that makes a rematch shows the warning (shared_rules.pairing.draft)
  before publishing; a player given a fixed table (accessibility) on the
  players screen sits at it in the published round.
- The cut and the bracket: after three Shatterpoint Swiss rounds the organizer
  makes a top 4 cut, the bracket shows seeds 1 v 4 and 2 v 3, the semifinals
  and then the final are played, and the standings give the placings.
- Penalties: a Star Trek head judge is offered the Appendix B levels and a
  repeat infraction is upgraded one level; a floor judge is offered warnings
  only (and the rules refuse anything else from them).
"""

from __future__ import annotations

import json
import time

from tests.browser.helpers import enter_result, rules, shot, wait_js, wait_ready
from tests.browser.test_forms_survive_sync import Remote

BOOT_WAIT = 20_000


def open_as(browser, remote: Remote, role: str, viewport=None):
    context = browser.new_context(viewport=viewport or {"width": 1100, "height": 900})
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{remote.url}/#join={remote.invite(role)}")
    wait_ready(page)
    # Everything the other device pushed has arrived on this one.
    until(page, lambda: state(page, remote)["devices"].get("remote", 0) >= remote.seq)
    page.wait_for_selector(f"#event-title:text-is({json.dumps(state(page, remote)['name'])})")  # the screen drew it
    return context, page


def until(page, condition, timeout_ms: int = BOOT_WAIT) -> None:
    """Poll ``condition()`` (which may ask the page) until it holds."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(100)


def goto(page, remote: Remote, screen: str) -> None:
    page.goto(f"{remote.url}/#/event/{remote.eid}/{screen}")
    wait_ready(page, screen)


def state(page, remote: Remote) -> dict:
    return rules(page, "state", {"event_id": remote.eid})


def register(names):
    return [("player.register", {"player": {"id": f"p{i}", "name": n}}) for i, n in enumerate(names, 1)]


def swiss_round(number, pairs, stats=False):
    """A whole Swiss round through the API: the first player of each pair wins.

    ``stats``: Shatterpoint's struggle cards and wounds (its tiebreakers), different at every table.
    """
    ops = [
        (
            "round.pair",
            {"number": number, "matches": [{"table": t, "players": list(p)} for t, p in enumerate(pairs, 1)]},
        ),
        ("round.publish", {"number": number}),
        ("round.start", {"number": number, "duration_s": 3000}),
    ]
    for t in range(1, len(pairs) + 1):
        result = {"round": number, "table": t, "outcomes": ["win", "loss"]}
        if stats:
            result["stats"] = [{"struggle": 3, "wounds": 10 - t}, {"struggle": t % 3, "wounds": 2 * t}]
        ops.append(("result.report", result))
    return ops


# ---------------------------------------------------------------- draft review and fixed tables


def test_draft_swap_warns_of_a_rematch_and_a_fixed_table_stays(browser, live_server) -> None:
    names = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo")
    remote = Remote(live_server.url, "doomtown", "Gomorra Weekly")
    round1 = (("p1", "p2"), ("p3", "p4"), ("p5", "p6"))
    remote.push(*register(names), *swiss_round(1, round1))
    opponent = {a: b for x, y in round1 for a, b in ((x, y), (y, x))}
    context, page = open_as(browser, remote, "organizer")

    # ---- Di (p4) needs an accessible table: table 1, set on the players screen
    goto(page, remote, "players")
    fixed = page.get_by_label("Fixed table for Di")
    fixed.fill("1")
    fixed.press("Tab")
    until(
        page,
        lambda: next(p for p in state(page, remote)["players"] if p["id"] == "p4")["extra"].get("fixed_table") == 1,
    )

    # ---- round 2 as a draft: Di sits at table 1
    goto(page, remote, "rounds")
    page.click("#pair-next")
    page.wait_for_selector("#publish-round")
    page.wait_for_selector("caption:has-text('Round 2 (swiss) — draft')")
    page.wait_for_selector("p.ok:has-text('No pairing problems found.')")
    draft = state(page, remote)["rounds"][1]["matches"]
    assert next(m["table"] for m in draft if "p4" in m["players"]) == 1
    shot(page, "draft-01-round2-draft")

    # ---- a swap that makes a rematch (Di stays put): x v y with y swapped for x's round-1 opponent
    swap = next(
        (y, opponent[x])
        for i, m in enumerate(draft)
        for x, y in (m["players"], m["players"][::-1])
        for j, n in enumerate(draft)
        if j != i and opponent[x] in n["players"] and "p4" not in (y, opponent[x])
    )
    names_of = dict(zip((f"p{i}" for i in range(1, 7)), names))
    page.select_option("#swap-a", swap[0])
    page.select_option("#swap-b", swap[1])
    rematch = page.wait_for_selector(".swap .warnings li:has-text('rematch')")
    text = rematch.text_content()
    assert names_of[swap[1]] in text and swap[1] not in text.split(), text  # names, not ids
    shot(page, "draft-02-swap-preview")
    page.click(".swap button[type=submit]")
    warning = page.wait_for_selector("[role=note].warnings li:has-text('rematch')", timeout=10_000)
    assert "have already played each other" in warning.text_content()
    assert names_of[swap[1]] in warning.text_content()
    shot(page, "draft-03-warning-before-publish")

    # ---- publish anyway: the rematch is there, Di is still at table 1
    page.click("#publish-round")
    page.wait_for_selector("caption:has-text('Round 2 (swiss) — published')")
    rows = page.eval_on_selector_all(
        "table.matches tbody tr", "rows => rows.map((r) => [...r.cells].map((c) => c.textContent))"
    )
    assert [t for t, players, _ in rows if "Di" in players.split(" v ")] == ["1"]
    published = state(page, remote)["rounds"][1]
    assert published["status"] == "published"
    assert any(set(m["players"]) == {swap[1], opponent[swap[1]]} for m in published["matches"])
    shot(page, "draft-04-published")
    assert page.errors == []
    context.close()


# ---------------------------------------------------------------- the cut, the bracket, the placings


def test_cut_bracket_and_placings(browser, live_server) -> None:
    names = ("Anakin", "Barriss", "Cody", "Dooku", "Echo", "Fives", "Grievous", "Hondo")
    remote = Remote(live_server.url, "shatterpoint", "Coruscant Showdown")
    remote.push(
        *register(names),
        *swiss_round(1, (("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8")), stats=True),
        *swiss_round(2, (("p1", "p3"), ("p5", "p7"), ("p2", "p4"), ("p6", "p8")), stats=True),
        *swiss_round(3, (("p1", "p5"), ("p3", "p7"), ("p2", "p6"), ("p4", "p8")), stats=True),
    )
    context, page = open_as(browser, remote, "organizer")
    table = rules(page, "standings", {"event_id": remote.eid})
    swiss = [s["player"] for s in table["standings"]]
    assert len(swiss) == 8, table
    assert swiss[0] == "p1" and set(swiss[1:4]) == {"p2", "p3", "p5"}
    name = dict(zip((f"p{i}" for i in range(1, 9)), names))

    # ---- the cut: top 4 from the rounds screen
    goto(page, remote, "rounds")
    # Shatterpoint plans 4 Swiss rounds for 8 players: after 3 the cut is behind "End the Swiss early".
    page.click("#cut-early")
    page.fill("#cut-size", "4")
    page.click("#make-cut")
    page.wait_for_selector("caption:has-text('Round 4 (elimination) — draft')", timeout=10_000)
    shot(page, "cut-01-cut-draft")

    # ---- the bracket: 1 v 4, 2 v 3, and the final still to come
    goto(page, remote, "bracket")
    page.wait_for_selector(".bracket-round")
    semis = page.eval_on_selector_all(
        ".bracket-round >> nth=0 >> li",
        "lis => lis.map((li) => [...li.querySelectorAll('div')].map((d) => d.textContent))",
    )
    assert semis == [
        [f"(1) {name[swiss[0]]}", f"(4) {name[swiss[3]]}"],
        [f"(2) {name[swiss[1]]}", f"(3) {name[swiss[2]]}"],
    ], semis
    assert page.locator(".bracket-round h2").all_text_contents() == ["Semifinals (best of 1)", "Final (best of 1)"]
    assert page.locator(".bracket-round >> nth=1 >> .to-come").all_text_contents() == [
        "Winner of match 1",
        "Winner of match 2",
    ]
    shot(page, "cut-02-bracket")

    # ---- semifinals: publish, start, results on the judge screen (the lower seed wins 2 v 3)
    goto(page, remote, "rounds")
    page.click("#publish-round")
    page.wait_for_selector("caption:has-text('Round 4 (elimination) — published')")
    page.click("#start-round")
    page.wait_for_selector("caption:has-text('Round 4 (elimination) — started')")
    goto(page, remote, "judge")
    page.wait_for_selector(".match-card[data-table='2']")
    enter_result(page, 1, "win-0")
    enter_result(page, 2, "win-1")
    page.wait_for_selector(".progress:has-text('2 of 2 results in')")

    # ---- the final
    goto(page, remote, "rounds")
    page.click("#pair-elimination")
    page.wait_for_selector("caption:has-text('Round 5 (elimination) — draft')", timeout=10_000)
    final = state(page, remote)["rounds"][-1]["matches"]
    assert [m["players"] for m in final] == [[swiss[0], swiss[2]]]
    page.click("#publish-round")
    page.click("#start-round")
    page.wait_for_selector("caption:has-text('Round 5 (elimination) — started')")
    goto(page, remote, "judge")
    page.wait_for_selector(".match-card[data-table='1']")
    enter_result(page, 1, "win-1")  # seed 3 takes it
    goto(page, remote, "bracket")
    page.wait_for_selector(f".champion:has-text('Champion: {name[swiss[2]]}')")
    shot(page, "cut-03-bracket-decided")

    # ---- the placings: champion, finalist, the semifinal losers by Swiss rank, then the rest
    goto(page, remote, "standings")
    page.wait_for_selector("#standings-table")
    placed = page.eval_on_selector_all("#standings-table tbody th", "ths => ths.map((t) => t.textContent)")
    assert placed[:4] == [name[swiss[2]], name[swiss[0]], name[swiss[1]], name[swiss[3]]], placed
    assert placed[4:] == [name[p] for p in swiss[4:]]
    shot(page, "cut-04-placings")
    assert page.errors == []
    context.close()


# ---------------------------------------------------------------- penalties


def options(page) -> list[str]:
    return page.eval_on_selector_all("#penalty-kind option", "os => os.map((o) => o.value + ': ' + o.textContent)")


def issue(page, player: str, kind: str, reason: str, infraction: str | None = None) -> str:
    page.select_option("#penalty-player", player)
    page.select_option("#penalty-kind", kind)
    if infraction is not None:
        page.fill("#penalty-infraction", infraction)
    page.fill("#penalty-reason", reason)
    before = page.locator("ul.penalties li").count()
    page.click("button:has-text('Issue penalty')")
    wait_js(page, "n => document.querySelectorAll('ul.penalties li').length > n", arg=before, timeout=10_000)
    page.wait_for_selector("#penalty-msg:has-text('Penalty recorded')")
    return page.text_content("#penalty-msg")


def act(page, remote: Remote, type_: str, payload: dict):
    """Straight to the store, past the form: what the rules say to this device's role."""
    return page.evaluate(
        """([eid, type, payload]) => import('/pwa/app/store.js')
        .then((m) => m.storeFor(eid).act(type, payload)).then((r) => r.refused)""",
        [remote.eid, type_, payload],
    )


def test_penalties_star_trek_levels_and_floor_judge_warnings_only(browser, live_server) -> None:
    trek = Remote(live_server.url, "startrek-2e", "Qo'noS Regional")
    trek.push(*register(("Kirk", "Worf", "Data", "Quark")))
    head_ctx, head = open_as(browser, trek, "head-judge")
    goto(head, trek, "judge")
    assert [o.split(":")[0] for o in options(head)] == ["0", "1", "2", "3", "4"]
    assert options(head)[2] == "2: Level 2 — turn loss"
    first = issue(head, "p2", "1", "Slow play", "A3")
    assert "Level 1 — written warning" in first and "upgraded" not in first
    # The form stays on the player it was used for (a redraw once moved it back to the first player).
    assert head.input_value("#penalty-player") == "p2" and head.input_value("#penalty-kind") == "1"
    second = issue(head, "p2", "1", "Slow play again", "A3")
    assert "Level 2 — turn loss" in second and "upgraded from level 1" in second, second
    assert head.input_value("#penalty-player") == "p2"
    head.wait_for_selector("ul.penalties li[data-level='2']")
    assert [p["level"] for p in state(head, trek)["penalties"]] == [1, 2]
    assert (
        head.locator("ul.penalties li")
        .all_text_contents()[1]
        .startswith("Worf: Level 2 — turn loss (before round 1) [A3 Procedural error, severe]")
    )
    shot(head, "penalty-01-startrek-head-judge")

    # A Star Trek floor judge: the two warning levels only.
    floor_ctx, floor = open_as(browser, trek, "judge")
    goto(floor, trek, "judge")
    assert [o.split(":")[0] for o in options(floor)] == ["0", "1"]
    assert "turn loss" not in floor.text_content("#penalty-kind")
    assert "game-loss" in (act(floor, trek, "penalty.issue", {"player": "p1", "reason": "x", "level": 3}) or "")
    floor_ctx.close()

    # ---- a Doomtown floor judge: "Warning" and nothing else; anything else is refused
    dt = Remote(live_server.url, "doomtown", "Deadlands Night")
    dt.push(*register(("Hank", "Lula")))
    floor_ctx, floor = open_as(browser, dt, "judge")
    goto(floor, dt, "judge")
    assert options(floor) == ["warning: Warning"]
    floor.wait_for_selector(".hint:has-text('Floor judges issue warnings')")
    assert "Warning" in issue(floor, "p1", "warning", "Marked cards")
    refused = act(floor, dt, "penalty.issue", {"player": "p2", "reason": "x", "kind": "game-loss"})
    assert refused and "warnings only" in refused, refused
    shot(floor, "penalty-02-doomtown-floor-judge")
    assert floor.errors == [] and head.errors == []
    floor_ctx.close()
    head_ctx.close()

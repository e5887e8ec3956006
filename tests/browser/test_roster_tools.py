"""Issue 11, roster tools an organizer expects from TOM/EventLink, in Chromium.

- Players screen, 500+ players: find a player by name, id or table (the search keeps its focus and text while
  syncs redraw the roster), rename a mistyped name in place (what is typed survives a redraw), remove a
  mistyped entry with a confirm step, and a removal the server refuses because another device paired the
  player meanwhile (said where it happened, the player back on the roster).
- Rounds screen: a late entry after round 1 was drafted; "Re-pair" pairs the draft again from the roster as
  it is now; "Discard draft" (with a confirm step) throws it away.
- The staff navigation counts the open disputes: "Disputes (N)", updated on every sync.
"""

from __future__ import annotations

import json

from tests.browser.helpers import open_page, rules, shot, wait_js, wait_ready, wait_synced
from tests.browser.test_forms_survive_sync import Remote

BIG = 520


class Devices(Remote):
    """The organizer's other devices, through the API (each device id has its own sequence)."""

    def __init__(self, url: str, ruleset: str, name: str) -> None:
        super().__init__(url, ruleset, name)
        self.seqs: dict[str, int] = {}

    def push_from(self, device: str, *ops, expect: str = "accepted") -> list[dict]:
        batch = []
        for type_, payload in ops:
            self.seqs[device] = self.seqs.get(device, 0) + 1
            batch.append({"seq": self.seqs[device], "op": {"type": type_, "payload": payload}})
        result = self.api(f"/api/events/{self.eid}/push", {"device": device, "ops": batch}, self.token)
        assert all(r["status"] == expect for r in result["results"]), result
        return result["results"]


def open_as(browser, remote: Remote, role: str, screen: str):
    context, page = open_page(browser)
    page.goto(f"{remote.url}/#join={remote.invite(role)}")
    wait_ready(page)
    page.goto(f"{remote.url}/#/event/{remote.eid}/{screen}")
    wait_ready(page, screen)
    return context, page


def state(page, remote: Remote) -> dict:
    return rules(page, "state", {"event_id": remote.eid})


def row(name: str) -> str:
    return f"#roster-table tbody tr:has(th:text-is({json.dumps(name)}))"


def visible_rows(page) -> list[str]:
    return page.eval_on_selector_all(
        "#roster-table tbody tr[data-player]:not([hidden])", "rows => rows.map((r) => r.dataset.player)"
    )


def test_find_rename_and_remove_in_a_roster_of_500(browser, live_server) -> None:
    remote = Devices(live_server.url, "doomtown", "Roster Night")
    players = [("player.register", {"player": {"id": f"p{i}", "name": f"Player {i:03d}"}}) for i in range(1, BIG + 1)]
    for start in range(0, BIG, 400):
        remote.push_from("desk-2", *players[start : start + 400])
    remote.push_from(
        "desk-2",
        ("player.register", {"player": {"id": "typo", "name": "Ahs Ketchum"}}),
        ("player.register", {"player": {"id": "twice", "name": "Misty Waterflower"}}),
        ("player.register", {"player": {"id": "racer", "name": "Gary Oak"}}),
        ("player.edit", {"player": "p7", "fields": {"fixed_table": 12}}),
    )
    total = BIG + 3
    context, page = open_as(browser, remote, "organizer", "players")
    page.wait_for_selector(f"caption:has-text('{total} registered')", timeout=60_000)

    # ---- search: by name (accents and case aside), by id, by table; fast on 500+ rows
    search = page.locator("#roster-search")
    search.click()
    search.type("ahs")
    assert visible_rows(page) == ["typo"]
    assert page.text_content("#roster-count") == f"1 of {total} players match “ahs”"
    elapsed = page.evaluate("""() => {
        const input = document.getElementById('roster-search');
        const t0 = performance.now();
        input.value = 'player 4';
        input.dispatchEvent(new Event('input', { bubbles: true }));
        return performance.now() - t0;
    }""")
    assert elapsed < 250, f"filtering {total} rows took {elapsed:.0f} ms"
    assert len(visible_rows(page)) == 100  # Player 400 to Player 499
    search.fill("12")  # a number: the players at table 12 (a fixed table here)
    assert visible_rows(page) == ["p7"]
    search.fill("p250")
    assert visible_rows(page) == ["p250"]

    # ---- the search keeps its focus and text while another device's registration redraws the roster
    search.fill("")
    search.type("ketch")
    remote.push_from("desk-2", ("player.register", {"player": {"id": "late", "name": "Jessie Ketchup"}}))
    page.wait_for_selector(f"caption:has-text('{total + 1} registered')", timeout=20_000)
    total += 1
    assert page.evaluate("document.activeElement.id") == "roster-search"
    assert search.input_value() == "ketch"
    assert visible_rows(page) == ["typo", "late"]  # the new row is filtered too
    shot(page, "roster-search")

    # ---- rename in place: what is typed survives a sync redraw
    page.click(f"{row('Ahs Ketchum')} [data-action=rename]")
    rename = page.locator("tr[data-player=typo] input[name=rename]")
    rename.wait_for()
    assert page.evaluate("document.activeElement.name") == "rename"
    rename.fill("Ash Ketch")
    search.click()  # the focus leaves the roster: a redraw may now rebuild the row
    page.eval_on_selector("tr[data-player=typo]", "el => { el.dataset.old = 'yes'; }")
    remote.push_from("desk-2", ("player.check_in", {"player": "p1"}))
    page.wait_for_selector("tr[data-player=typo]:not([data-old])", timeout=20_000)
    assert rename.input_value() == "Ash Ketch"
    rename.click()
    rename.press("End")
    rename.type("um")
    rename.press("Enter")
    page.wait_for_selector(row("Ash Ketchum"))
    wait_js(page, "() => document.activeElement?.dataset?.action === 'rename'", timeout=5_000)  # back where it was
    # an empty name is refused on the spot, naming the problem
    page.click(f"{row('Ash Ketchum')} [data-action=rename]")
    rename.fill("   ")
    rename.press("Enter")
    page.wait_for_selector("#rename-error:has-text('A name cannot be empty')")
    page.click("tr[data-player=typo] [data-action=cancel-rename]")
    page.wait_for_selector(row("Ash Ketchum"))

    # ---- remove, with a confirm step; only players nobody refers to are offered it
    search.fill("")
    page.click(f"{row('Misty Waterflower')} [data-action=remove]")
    confirm = page.locator("tr[data-player=twice] [data-action=confirm-remove]")
    assert confirm.inner_text() == "Confirm: remove Misty Waterflower from the event"
    page.click("tr[data-player=twice] [data-action=keep]")
    page.wait_for_selector("tr[data-player=twice] [data-action=remove]")
    page.click(f"{row('Misty Waterflower')} [data-action=remove]")
    confirm.click()
    page.wait_for_selector("tr[data-player=twice]", state="detached")
    page.wait_for_selector(f"caption:has-text('{total - 1} registered')")
    wait_synced(page)
    assert "twice" not in {
        p["id"] for p in remote.api(f"/api/events/{remote.eid}/state", token=remote.token)["state"]["players"]
    }

    # ---- a removal the server refuses: offline, this desk removes Gary while another desk pairs him
    context.set_offline(True)
    page.wait_for_selector("#sync[data-online=offline]")
    page.click(f"{row('Gary Oak')} [data-action=remove]")
    page.click("tr[data-player=racer] [data-action=confirm-remove]")
    page.wait_for_selector("tr[data-player=racer]", state="detached")
    remote.push_from("desk-2", ("round.pair", {"number": 1, "matches": [{"table": 1, "players": ["racer", "p1"]}]}))
    context.set_offline(False)
    notice = page.locator(".problem:has-text('Removing a player')")
    notice.wait_for(timeout=30_000)
    text = notice.inner_text()
    assert "Refused by the server" in text and "Gary Oak is paired in round 1, still a draft" in text, text
    assert "drop the player instead" in text
    page.wait_for_selector(row("Gary Oak"), timeout=20_000)  # back on the roster
    assert page.locator("tr[data-player=racer] [data-action=remove]").count() == 0  # paired: drop, not remove
    assert page.locator(f"{row('Player 002')} [data-action=remove]").count() == 1
    shot(page, "roster-refused-remove")
    assert page.errors == []
    context.close()


def test_re_pair_after_a_late_entry_discard_and_the_dispute_count(browser, live_server) -> None:
    remote = Devices(live_server.url, "doomtown", "Late Entry Night")
    names = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo"]
    remote.push_from(
        "desk-2", *[("player.register", {"player": {"id": f"p{i}", "name": n}}) for i, n in enumerate(names, 1)]
    )
    context, page = open_as(browser, remote, "organizer", "rounds")
    disputes = page.locator("#tabs a[data-screen=disputes]")
    assert disputes.inner_text() == "Disputes (0)"
    assert disputes.get_attribute("aria-label") == "Disputes (0): no open disputes"

    # ---- round 1 drafted; then a late entry registers at another desk
    page.click("#pair-next")
    page.wait_for_selector("#repair-round")
    wait_synced(page)
    remote.push_from("desk-2", ("player.register", {"player": {"id": "p7", "name": "Gus"}}))
    page.wait_for_selector(".warnings li:has-text('Gus is not paired')", timeout=20_000)
    shot(page, "rounds-draft-late-entry")
    page.click("#repair-round")
    wait_js(
        page,
        """(eid) => import('/pwa/rules/rules-client.js').then((m) => m.rules('state', { event_id: eid }))
        .then((s) => s.rounds.length === 1 && s.rounds[0].matches.some((m) => m.players.includes('p7')))""",
        remote.eid,
    )
    page.wait_for_selector("table.matches td:has-text('Gus')")
    assert page.locator(".warnings li:has-text('Gus is not paired')").count() == 0
    st = state(page, remote)
    assert st["rounds"][0]["status"] == "draft"
    assert sorted(p for m in st["rounds"][0]["matches"] for p in m["players"]) == [f"p{i}" for i in range(1, 8)]

    # ---- discard the draft, with a confirm step
    page.click("#discard-round")
    page.wait_for_selector("#confirm-discard")
    assert page.evaluate("document.activeElement.id") == "confirm-discard"
    page.click("#keep-draft")
    page.wait_for_selector("#discard-round")
    page.click("#discard-round")
    page.click("#confirm-discard")
    page.wait_for_selector("#pair-next:has-text('Pair round 1 (draft)')")
    assert state(page, remote)["rounds"] == []
    wait_synced(page)
    assert remote.api(f"/api/events/{remote.eid}/state", token=remote.token)["state"]["rounds"] == []

    # ---- the navigation counts the open disputes, on every sync
    remote.push_from(
        "desk-2",
        (
            "round.pair",
            {
                "number": 1,
                "matches": [
                    {"table": 1, "players": ["p1", "p2"]},
                    {"table": 2, "players": ["p3", "p4"]},
                    {"table": 3, "players": ["p5", "p6"]},
                    {"players": ["p7"], "outcomes": ["bye"]},
                ],
            },
        ),
        ("round.start", {"number": 1, "duration_s": 3600}),
        ("result.report", {"round": 1, "table": 1, "outcomes": ["win", "loss"]}),
        ("result.report", {"round": 1, "table": 2, "outcomes": ["win", "loss"]}),
    )
    remote.push_from(
        "tab-3",
        ("result.report", {"round": 1, "table": 1, "outcomes": ["loss", "win"]}),
        ("result.report", {"round": 1, "table": 2, "outcomes": ["loss", "win"]}),
    )
    page.wait_for_selector("#tabs a[data-screen=disputes]:text-is('Disputes (2)')", timeout=20_000)
    assert disputes.get_attribute("aria-label") == "Disputes (2): 2 open disputes"
    assert "has-open" in disputes.get_attribute("class")
    shot(page, "nav-dispute-count")
    remote.push_from("desk-2", ("result.resolve", {"round": 1, "table": 1, "result": {"outcomes": ["win", "loss"]}}))
    page.wait_for_selector("#tabs a[data-screen=disputes]:text-is('Disputes (1)')", timeout=20_000)
    assert disputes.get_attribute("aria-label") == "Disputes (1): 1 open dispute"
    page.click("#tabs a[data-screen=disputes]")  # the count stays on another screen
    wait_ready(page, "disputes")
    assert disputes.inner_text() == "Disputes (1)" and disputes.get_attribute("aria-current") == "page"
    assert page.errors == []
    context.close()

"""What someone is typing survives a sync that brings other devices' changes.

Screens redraw their sections when the data changes; a section whose field has
the focus waits until the focus leaves it, and a redrawn section gets back
every value the user changed and has not submitted (ui.js refresh()).
"""

from __future__ import annotations

import json
import urllib.request

from tests.browser.helpers import shot, wait_ready

NAMES = ("Ada", "Bo", "Cy", "Di")


class Remote:
    """Another device (the organizer's, through the API)."""

    def __init__(self, url: str, ruleset: str = "doomtown", name: str = "Sync Night") -> None:
        self.url = url
        event = self.api("/api/events", {"name": name, "ruleset": ruleset})
        self.eid, self.token, self.seq = event["event_id"], event["token"], 0

    def api(self, path, body=None, token=None):
        request = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode() if body is not None else None,
            headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def push(self, *ops):
        batch = []
        for type_, payload in ops:
            self.seq += 1
            batch.append({"seq": self.seq, "op": {"type": type_, "payload": payload}})
        result = self.api(f"/api/events/{self.eid}/push", {"device": "remote", "ops": batch}, self.token)
        assert all(r["status"] == "accepted" for r in result["results"]), result

    def invite(self, role: str) -> str:
        return self.api(f"/api/events/{self.eid}/invitations", {"role": role}, self.token)["code"]


def mark_old(page, selector: str) -> None:
    page.eval_on_selector(selector, "el => { el.dataset.old = 'yes'; }")


def test_typing_survives_syncs_on_rounds_players_and_judge_screens(browser, live_server) -> None:
    remote = Remote(live_server.url)
    remote.push(
        *[("player.register", {"player": {"id": f"p{i}", "name": n}}) for i, n in enumerate(NAMES)],
        (
            "round.pair",
            {"number": 1, "matches": [{"table": 1, "players": ["p0", "p1"]}, {"table": 2, "players": ["p2", "p3"]}]},
        ),
    )
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server.url}/#join={remote.invite('head-judge')}")
    wait_ready(page, "judge")

    # ---- rounds: a swap being prepared and a round length typed, then another device checks a player in
    page.goto(f"{live_server.url}/#/event/{remote.eid}/rounds")
    wait_ready(page, "rounds")
    page.wait_for_selector("#swap-a")
    page.select_option("#swap-a", "p0")
    page.select_option("#swap-b", "p2")
    page.wait_for_selector(".swap .warnings :text('No problems with this swap'), .swap .warnings li")
    page.fill("#round-minutes", "42")
    page.click("h1")  # nothing focused in the section: it redraws at once, values carried over
    mark_old(page, "#swap-a")
    remote.push(("player.check_in", {"player": "p3", "checked_in": True}))
    page.wait_for_selector("#swap-a:not([data-old])", timeout=20_000)  # redrawn
    assert page.input_value("#swap-a") == "p0"
    assert page.input_value("#swap-b") == "p2"
    assert page.input_value("#round-minutes") == "42"
    shot(page, "forms-01-rounds-after-sync")

    # ---- players: a name half typed (focused) while the roster grows from another device
    page.goto(f"{live_server.url}/#/event/{remote.eid}/players")
    wait_ready(page, "players")
    name = page.get_by_label("Player name")
    name.click()
    name.type("Eve Ande")
    remote.push(("player.register", {"player": {"id": "p9", "name": "Zed"}}))
    page.wait_for_selector("caption:has-text('5 registered')", timeout=20_000)
    assert name.input_value() == "Eve Ande"
    assert page.evaluate("document.activeElement.value") == "Eve Ande"
    name.type("rs")  # the keyboard is still in the same field
    assert name.input_value() == "Eve Anders"
    shot(page, "forms-02-players-typing-during-sync")

    # ---- judge: a penalty being written (focused) while a result comes in from another device
    remote.push(("round.publish", {"number": 1}), ("round.start", {"number": 1, "duration_s": 3000}))
    page.goto(f"{live_server.url}/#/event/{remote.eid}/judge")
    wait_ready(page, "judge")
    page.wait_for_selector(".match-card[data-table='2'][data-status=pending]", timeout=20_000)
    page.select_option("#penalty-player", "p2")
    page.click("#penalty-reason")
    page.keyboard.type("Slow play, tabl")
    mark_old(page, "#penalty-reason")
    remote.push(("result.report", {"round": 1, "table": 2, "outcomes": ["win", "loss"]}))
    page.wait_for_selector(".match-card[data-table='2'][data-status=confirmed]", timeout=20_000)
    # The list redrew; the penalty form did not move under the keyboard.
    assert page.eval_on_selector("#penalty-reason", "el => el.dataset.old === 'yes' && el === document.activeElement")
    page.keyboard.type("e 2")
    assert page.input_value("#penalty-reason") == "Slow play, table 2"
    shot(page, "forms-03-judge-penalty-during-sync")
    # Focus leaves the section: it redraws with the new data, and the unsent penalty is still there.
    page.click("h1")
    page.wait_for_selector("#penalty-reason:not([data-old])", timeout=10_000)
    assert page.input_value("#penalty-reason") == "Slow play, table 2"
    assert page.input_value("#penalty-player") == "p2"
    page.click("#penalty-reason")
    page.keyboard.press("Enter")
    page.wait_for_selector("#penalty-msg:has-text('Penalty recorded')", timeout=10_000)
    page.wait_for_selector("ul.penalties li:has-text('Slow play, table 2')", timeout=10_000)
    assert page.input_value("#penalty-reason") == ""
    assert errors == []
    context.close()

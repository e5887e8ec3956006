"""Penalties at the judges' table (issue 22, items 3 and 4), through the screens.

A disqualification asks for confirmation, naming what it does (Doomtown 6.B's "Roundup Disqualification");
the disqualified player's phone says so and offers no result to report, their opponent's phone says the
opponent left and a judge enters the match, a third player's phone holds no penalty at all; the head
judge rescinds it (with a reason), reinstates the player and the next round pairs them again. A second
disqualified player is reinstated from the roster in one confirmed step (rescind and reinstate).
"""

from __future__ import annotations

from tests.browser.helpers import shot, wait_js, wait_ready, wait_synced
from tests.browser.test_player_phone import api, phone, setup_event

TABLET = {"viewport": {"width": 1100, "height": 900}}


def tablet(browser, url, eid, token, role="head-judge"):
    code = api(url, f"/api/events/{eid}/invitations", {"role": role}, token)["code"]
    context = browser.new_context(**TABLET)
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/#join={code}")
    wait_ready(page)
    return context, page


def goto(page, url, eid, screen):
    page.goto(f"{url}/#/event/{eid}/{screen}")
    wait_ready(page, screen)


def local_state(page, eid):
    """What the device holds: a staff device's folded state, a player's phone's player view (app/device.js)."""
    return page.evaluate(
        "(eid) => import('/pwa/app/device.js').then((m) => m.openStoreFor(eid)).then((s) => s.state)", eid
    )


def push(url, eid, token, device, ops, first=1):
    body = {"device": device, "ops": [{"seq": first + i, "op": op} for i, op in enumerate(ops)]}
    result = api(url, f"/api/events/{eid}/push", body, token)
    assert all(r["status"] == "accepted" for r in result["results"]), result


def issue(page, player, kind, reason):
    page.select_option("#penalty-player", player)
    page.select_option("#penalty-kind", kind)
    page.fill("#penalty-reason", reason)
    page.click("button:has-text('Issue penalty')")


def test_disqualify_confirm_phones_rescind_reinstate_and_pair_again(browser, live_server) -> None:
    url = live_server.url
    eid, token, claims = setup_event(url)  # Doomtown, Annie v Bat at table 1, Calamity v Doc at table 2
    hj_ctx, hj = tablet(browser, url, eid, token)
    goto(hj, url, eid, "judge")

    # ---- the confirm step names the consequence; nothing is issued before it
    issue(hj, "p1", "disqualification", "Marked cards, table 1")
    hj.wait_for_selector("#penalty-confirm-box")
    consequence = hj.text_content("#penalty-consequence")
    assert "dropped from the event at once" in consequence and "PBE investigates" in consequence, consequence
    assert local_state(hj, eid)["penalties"] == []
    assert hj.input_value("#penalty-reason") == "Marked cards, table 1"  # kept while asked
    shot(hj, "penalty-rescind-01-confirm-disqualification")
    hj.click("button:has-text('Back')")
    hj.wait_for_selector("#penalty-confirm-box", state="detached")
    hj.click("button:has-text('Issue penalty')")
    hj.get_by_role("button", name="Confirm Roundup Disqualification").click()
    hj.wait_for_selector("#penalty-msg:has-text('Penalty recorded')")
    assert "Enter the result at Annie Oakley's table with Correct" in hj.text_content("#penalty-msg")
    # a warning goes straight through
    issue(hj, "p3", "warning", "Slow play")
    hj.wait_for_selector("ul.penalties li[data-kind='warning']")
    wait_synced(hj)

    # ---- the phones: Annie's says she was removed, Bat's that his opponent left; neither offers a report
    annie_ctx, annie = phone(browser, url, claims["p1"])
    annie.wait_for_selector("#my-penalty:has-text('You were removed from the event')", timeout=30_000)
    assert "Marked cards, table 1" in annie.text_content("#my-penalty")
    assert annie.locator("#report-result").count() == 0
    shot(annie, "penalty-rescind-02-disqualified-phone")
    bat_ctx, bat = phone(browser, url, claims["p2"])
    bat.wait_for_selector("#opponent-left", timeout=30_000)
    assert "Annie Oakley has left the event. A judge will enter the result" in bat.text_content("#opponent-left")
    assert bat.locator("#report-result").count() == 0
    shot(bat, "penalty-rescind-03-opponent-phone")
    # a third player's phone holds no penalty; Calamity's holds her own warning only
    doc_ctx, doc = phone(browser, url, claims["p4"])
    doc.wait_for_selector("#table-number:has-text('Table 2')")
    assert local_state(doc, eid)["penalties"] == []
    cal_ctx, cal = phone(browser, url, claims["p3"])
    wait_js(
        cal,
        "(eid) => import('/pwa/app/device.js').then((m) => m.openStoreFor(eid)).then((s) => s.state?.penalties?.length === 1)",
        eid,
    )
    assert [p["player"] for p in local_state(cal, eid)["penalties"]] == ["p3"]
    cal.wait_for_selector("#my-penalties li:has-text('Warning (round 1): Slow play')")

    # ---- the judge enters table 1 (Bat wins), the other table is played; then the head judge rescinds
    hj.wait_for_selector(".match-card[data-table='1'] .removed:has-text('Annie Oakley removed by a penalty')")
    hj.fill("#find-match", "1")
    hj.click(".match-card[data-table='1'] .match-open")
    hj.click("#entry [data-quick='win-1']")
    hj.click("#save-result")
    hj.wait_for_selector("#entry", state="hidden")
    push(
        url,
        eid,
        token,
        "setup",
        [{"type": "result.report", "payload": {"round": 1, "table": 2, "outcomes": ["win", "loss"]}}],
        first=8,
    )
    row = hj.locator("ul.penalties li[data-kind='disqualification']")
    row.get_by_role("button", name="Rescind").click()
    hj.get_by_role("button", name="Rescind penalty").click()  # no reason: asked for one
    hj.wait_for_selector("form.rescind .error:has-text('Give the reason')")
    hj.get_by_label("Reason for rescinding").fill("Appeal upheld: the sleeves were the store's")
    hj.get_by_role("button", name="Rescind penalty").click()
    hj.wait_for_selector("ul.penalties li[data-rescinded='yes']")
    assert "Reinstate them on the Players screen" in hj.text_content("#rescind-msg")
    shot(hj, "penalty-rescind-04-rescinded")
    annie.wait_for_selector("#my-penalty:has-text('was rescinded')", timeout=30_000)
    shot(annie, "penalty-rescind-05-rescinded-phone")

    # ---- Doc is disqualified too, and reinstated from the roster in one confirmed step
    issue(hj, "p4", "disqualification", "Threats")
    hj.get_by_role("button", name="Confirm Roundup Disqualification").click()
    hj.wait_for_selector("#penalty-msg:has-text('Penalty recorded')")
    goto(hj, url, eid, "players")
    hj.wait_for_selector("tr[data-player='p4']:has-text('removed by a penalty')")
    hj.locator("tr[data-player='p4'] [data-action=reinstate-ejected]").click()
    hj.fill("tr[data-player='p4'] input[name=rescind-reason]", "Misidentified: it was a spectator")
    shot(hj, "penalty-rescind-06-roster-reinstate-confirm")
    hj.click("tr[data-player='p4'] [data-action=confirm-reinstate]")
    hj.wait_for_selector("tr[data-player='p4'] [data-action=reinstate-ejected]", state="detached")
    # Annie: no longer ejected, still dropped: the ordinary Reinstate
    hj.locator("tr[data-player='p1'] button:has-text('Reinstate')").click()
    wait_js(
        hj,
        "(eid) => import('/pwa/app/device.js').then((m) => m.openStoreFor(eid)).then((s) => s.state.players"
        ".every((p) => p.dropped_after === null && !p.ejected))",
        eid,
    )

    # ---- round 2 pairs both again
    goto(hj, url, eid, "rounds")
    hj.click("#pair-next")
    wait_js(
        hj,
        "(eid) => import('/pwa/app/device.js').then((m) => m.openStoreFor(eid)).then((s) => s.state.rounds.length === 2)",
        eid,
    )
    paired = sorted(p for m in local_state(hj, eid)["rounds"][1]["matches"] for p in m["players"])
    assert paired == ["p1", "p2", "p3", "p4"]
    shot(hj, "penalty-rescind-07-paired-again")
    wait_synced(hj)
    server = api(url, f"/api/events/{eid}/state", token=token)["state"]
    assert [(p["kind"], bool(p.get("rescinded"))) for p in server["penalties"]] == [
        ("disqualification", True),
        ("warning", False),
        ("disqualification", True),
    ]
    for page in (hj, annie, bat, doc, cal):
        assert getattr(page, "errors", []) == []
    for ctx in (hj_ctx, annie_ctx, bat_ctx, doc_ctx, cal_ctx):
        ctx.close()

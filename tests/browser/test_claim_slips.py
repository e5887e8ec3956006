"""Organizers hand out players' claim codes (issue 11, defect 1).

A scorekeeper's tablet lists every player's code (the same a head judge's
tablet shows), prints one slip per player with a QR code, and a player joins
with the code from their slip. A new code for a lost slip: the old code is
refused on the join screen saying it was revoked, and a phone that already
joined keeps working; revoking a player signs their phone out, and the phone
says what to do.
"""

from __future__ import annotations

import re

from tests.browser.helpers import shot, wait_js, wait_ready
from tests.browser.test_forms_survive_sync import Remote
from tests.browser.test_player_phone import PHONE

CODE = re.compile(r"^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$")
NAMES = ("Annie", "Bat", "Calamity")


def _open(browser, url, hash_, **context_args):
    context = browser.new_context(**(context_args or {"viewport": {"width": 1100, "height": 900}}))
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/{hash_}")
    return context, page


def _codes(page, eid, url) -> dict[str, str]:
    page.goto(f"{url}/#/event/{eid}/players")
    wait_ready(page, "players")
    page.click("#show-codes")
    page.wait_for_selector("table.codes tbody tr[data-player]")
    return {
        row.get_attribute("data-player"): row.query_selector("td.code").text_content()
        for row in page.query_selector_all("table.codes tbody tr[data-player]")
    }


def test_staff_print_claim_slips_reissue_and_revoke(browser, live_server) -> None:
    url = live_server.url
    remote = Remote(url, "doomtown", "Claim Night")
    remote.push(
        *[("player.register", {"player": {"id": f"p{i}", "name": n, "entry": i}}) for i, n in enumerate(NAMES, 1)]
    )

    desk_ctx, desk = _open(browser, url, f"#join={remote.invite('scorekeeper')}")
    wait_ready(desk)
    hj_ctx, hj = _open(browser, url, f"#join={remote.invite('head-judge')}")
    wait_ready(hj)

    # ---- every claim reader's device shows the same codes
    codes = _codes(desk, remote.eid, url)
    assert set(codes) == {"p1", "p2", "p3"}
    assert all(CODE.match(code) for code in codes.values()), codes
    assert _codes(hj, remote.eid, url) == codes
    shot(desk, "claims-01-codes")

    # ---- printable slips with QR codes
    desk.click("#print-claims")
    wait_ready(desk, "print")
    desk.wait_for_selector("#claim-slips .claim-slip")
    slips = desk.query_selector_all("#claim-slips .claim-slip")
    assert {s.get_attribute("data-player"): s.get_attribute("data-code") for s in slips} == codes
    for slip in slips:
        assert slip.query_selector(".qr svg") is not None
        assert slip.query_selector(".code").text_content() == slip.get_attribute("data-code")
    assert "Annie" in desk.text_content("#claim-slips")
    desk.emulate_media(media="print")
    shot(desk, "claims-02-slips-print")
    desk.emulate_media(media="screen")

    # ---- Annie joins with her slip's code (what its QR code opens)
    annie_ctx, annie = _open(browser, url, f"#join={codes['p1']}", **PHONE)
    wait_ready(annie, "player")
    annie.wait_for_selector("#player-name:has-text('Annie')", timeout=30_000)  # once the first pull brings the roster

    # ---- Bat lost his slip: a new code; the old one is refused, saying so; Annie's phone keeps working
    listed = _codes(desk, remote.eid, url)
    assert listed["p1"] == "—" and "joined" in desk.text_content("tr[data-player=p1]")
    desk.click("tr[data-player=p2] [data-action=reissue]")
    wait_js(
        desk,
        "(old) => { const c = document.querySelector('tr[data-player=p2] td.code');"
        " return c && c.textContent !== old && c.textContent !== '—'; }",
        arg=codes["p2"],
    )
    fresh = desk.text_content("tr[data-player=p2] td.code")
    assert CODE.match(fresh) and fresh != codes["p2"]
    old_ctx, old = _open(browser, url, f"#join={codes['p2']}", **PHONE)
    old.wait_for_selector("p.error:has-text('revoked')")
    message = old.text_content("p.error")
    assert "ask the organizer for a new one" in message, message
    shot(old, "claims-03-revoked-code-refused")
    old_ctx.close()
    bat_ctx, bat = _open(browser, url, f"#join={fresh}", **PHONE)
    wait_ready(bat, "player")
    annie.reload()
    wait_ready(annie, "player")
    annie.wait_for_selector("#sync[data-online=online][data-syncing=no]")
    assert annie.get_attribute("#sync", "data-state") != "refused"

    # ---- revoke Annie (two steps): her code and her phone stop working, and the phone says what to do
    desk.click("tr[data-player=p1] [data-action=revoke]")
    desk.click("tr[data-player=p1] [data-action=confirm-revoke]")
    desk.wait_for_selector("tr[data-player=p1][data-status=revoked]")
    shot(desk, "claims-04-revoked")
    annie.wait_for_selector("#sync[data-state=refused]", timeout=20_000)
    assert "join the event again with a new code" in annie.text_content("#sync")
    shot(annie, "claims-05-phone-signed-out")
    assert not desk.errors and not hj.errors and not annie.errors and not bat.errors
    for context in (desk_ctx, hj_ctx, annie_ctx, bat_ctx):
        context.close()

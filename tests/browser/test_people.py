"""Player records in the app: a returning player is picked from the search at registration, their entry is
linked to their record once it syncs, and their history shows past events with the Star Trek rating change."""

from __future__ import annotations

import json
import urllib.request

from tests.browser.helpers import create_event, open_page, shot, wait_ready, wait_synced

RATED = {"sanctioned": True, "level": 2, "format": "constructed"}
PLAYERS = [{"id": "k", "name": "Kirk"}, {"id": "s", "name": "Spock"}]


def call(url: str, method: str, path: str, body=None, token: str | None = None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    with urllib.request.urlopen(urllib.request.Request(url + path, data=data, method=method, headers=headers)) as r:
        return json.loads(r.read())


def rated_event(url: str, name: str, date: str) -> tuple[str, str]:
    """A rated Star Trek 1E event where Kirk beat Spock, made through the API as another desk would."""
    created = call(
        url,
        "POST",
        "/api/events",
        {"ruleset": "startrek-1e", "name": name, "settings": {"rating": {**RATED, "date": date}}},
    )
    eid, org = created["event_id"], created["token"]
    ops = [{"type": "player.register", "payload": {"player": p}} for p in PLAYERS] + [
        {"type": "round.pair", "payload": {"number": 1, "matches": [{"table": 1, "players": ["k", "s"]}]}},
        {"type": "round.start", "payload": {"number": 1}},
        {
            "type": "result.report",
            "payload": {"round": 1, "table": 1, "outcomes": ["full-win", "full-loss"], "scores": [100, 40]},
        },
    ]
    call(
        url,
        "POST",
        f"/api/events/{eid}/push",
        {"device": "desk", "ops": [{"seq": i + 1, "op": op} for i, op in enumerate(ops)]},
        org,
    )
    return eid, org


def test_a_returning_player_is_picked_linked_with_consent_and_their_history_shows_the_rating_change(
    browser, app_process
):
    url = app_process.url
    one, org1 = rated_event(url, "Regional I", "2026-03-01")
    two, org2 = rated_event(url, "Regional II", "2026-04-01")
    kirk = call(url, "POST", "/api/people", {"name": "James Kirk", "trekcc_id": "4711"}, org1)
    spock = call(url, "POST", "/api/people", {"name": "Spock"}, org1)
    for eid, org in ((one, org1), (two, org2)):  # Regional II's organizer: Regional I's vouches (docs/people.md)
        for player, person in (("k", kirk), ("s", spock)):
            body = {"person": person["id"], "proof_tokens": [org1]}
            call(url, "PUT", f"/api/events/{eid}/players/{player}/person", body, org)
    # Spock's phone (Regional I) shows him his player record code.
    claims_one = call(url, "GET", f"/api/events/{one}/players/claims", token=org1)["claims"]
    spock_phone = call(url, "POST", "/api/invitations/redeem", {"code": _code(claims_one, "s")})["token"]
    spock_code = call(url, "GET", "/api/people/me", token=spock_phone)["link_code"]

    ctx, page = open_page(browser, {"width": 1280, "height": 1000})
    eid = create_event(page, url, "Regional III", "startrek-1e")
    wait_synced(page)
    assert (
        page.locator("#game-id").is_visible()
        and page.locator("label[for=game-id]").inner_text() == "trekcc.org forum handle"
    )
    # a returning player: typing part of the name offers their record; picking it fills the form
    page.locator("form.card input[type=text]").first.fill("spo")
    page.wait_for_selector(f"#person-suggestions [data-person='{spock['id']}']")
    shot(page, "people-registration-search")
    page.click(f"#person-suggestions [data-person='{spock['id']}']")
    assert page.locator("form.card input[type=text]").first.input_value() == "Spock"
    assert "Returning player: Spock" in page.locator("#picked-person").inner_text()
    page.click("#register")
    page.wait_for_selector("caption:has-text('1 registered')")
    # ... and by a game id
    page.fill("#game-id", "4711")
    page.wait_for_selector(f"#person-suggestions [data-person='{kirk['id']}']")
    page.click(f"#person-suggestions [data-person='{kirk['id']}']")
    assert page.locator("form.card input[type=text]").first.input_value() == "James Kirk"
    page.click("#register")
    page.wait_for_selector("caption:has-text('2 registered')")
    wait_synced(page)
    # Both played elsewhere: this new organizer needs their consent. Spock reads out his code at the desk.
    spock_row = "tr:has(th:text-is('Spock'))"
    page.wait_for_selector(f"{spock_row} [data-action=enter-code]", timeout=30_000)
    page.wait_for_selector("tr:has(th:text-is('James Kirk')) [data-action=enter-code]", timeout=30_000)
    assert "Spock: consent needed" in page.locator(f"{spock_row} td.record").inner_text()
    shot(page, "people-consent-needed")
    page.click(f"{spock_row} [data-action=enter-code]")
    page.fill(f"{spock_row} input[name=person-code]", "AAAA-BBBB-CCCC")
    page.click(f"{spock_row} [data-action=link-with-code]")
    page.wait_for_selector(f"{spock_row} .error:has-text('not Spock')")
    assert "My history" in page.locator(f"{spock_row} td.record").inner_text()
    shot(page, "people-consent-wrong-code")
    page.fill(f"{spock_row} input[name=person-code]", spock_code.lower())
    page.click(f"{spock_row} [data-action=link-with-code]")
    page.wait_for_selector(f"#roster-table a[data-person='{spock['id']}']", timeout=30_000)
    # offline: the form registers as before, offers nobody and says linking can happen later
    page.context.set_offline(True)
    page.locator("form.card input[type=text]").first.fill("Uhura")
    page.wait_for_selector("#record-note:has-text('Offline')")
    assert page.locator("#person-suggestions li").count() == 0
    page.click("#register")
    page.wait_for_selector("caption:has-text('3 registered')")
    page.wait_for_selector("tr:has(th:text-is('Uhura')) [data-action=link-person]")
    shot(page, "people-offline-registration")
    page.context.set_offline(False)
    # back online, staff link her entry to her record from the roster (a record no event links: no consent)
    uhura = call(url, "POST", "/api/people", {"name": "Nyota Uhura", "trekcc_handle": "nyota"}, org1)
    wait_synced(page)
    page.click("tr:has(th:text-is('Uhura')) [data-action=link-person]")
    page.fill("tr:has(th:text-is('Uhura')) input[name=link-search]", "nyota")
    page.click("tr:has(th:text-is('Uhura')) [data-action=find-person]")
    page.click(f"tr:has(th:text-is('Uhura')) [data-action=pick-person][data-person='{uhura['id']}']")
    page.wait_for_selector(f"tr:has(th:text-is('Uhura')) a[data-person='{uhura['id']}']")
    shot(page, "people-roster-linked")
    org3 = page.evaluate("(id) => import('/pwa/data/db.js').then((m) => m.getSession(id)).then((s) => s.token)", eid)
    links = call(url, "GET", f"/api/events/{eid}/people", token=org3)["links"]
    assert {(row["name"], row["person"]["name"]) for row in links} == {("Spock", "Spock"), ("Uhura", "Nyota Uhura")}

    page.click(f"#roster-table a[data-person='{spock['id']}']")
    wait_ready(page, "history")
    page.wait_for_selector("#person-events")
    rows = page.locator("#person-events tbody tr")
    assert rows.count() == 3
    texts = rows.all_inner_texts()
    assert "Regional I" in texts[0] and "2026-03-01" in texts[0] and "2 of 2" in texts[0]
    assert "constructed: 1486 (−14)" in texts[0]
    assert "Regional II" in texts[1] and "constructed: 14" in texts[1] and "(−" in texts[1]
    assert "Regional III" in texts[2]
    assert page.locator("#person-ratings tr[data-game='startrek-1e']").count() == 1
    assert page.locator("#link-code").count() == 0  # staff never see a player's code
    shot(page, "people-history")
    assert page.errors == []

    # Kirk's phone, joined to Regional II: his own history and his code, and nobody else's
    claims = call(url, "GET", f"/api/events/{two}/players/claims", token=org2)["claims"]
    phone, kirk_page = open_page(browser, {"width": 412, "height": 900})
    kirk_page.goto(f"{url}/#join={_code(claims, 'k')}")
    wait_ready(kirk_page, "player")
    kirk_page.click("#tabs a[data-screen=history]")
    wait_ready(kirk_page, "history")
    kirk_page.wait_for_selector("#person-events")
    assert kirk_page.locator("#person-name").inner_text() == "James Kirk"
    mine = kirk_page.locator("#person-events tbody tr").all_inner_texts()
    assert len(mine) == 2 and "1 of 2" in mine[0] and "constructed: 1514 (+14)" in mine[0]
    assert "trekcc 4711" in kirk_page.locator("#person-ids").inner_text()
    kirk_code = call(url, "GET", "/api/people/me", token=_phone_token(kirk_page, two))["link_code"]
    assert kirk_page.locator("#link-code").inner_text() == kirk_code
    shot(kirk_page, "people-my-history")
    kirk_page.goto(f"{url}/#/event/{two}/history/{spock['id']}")  # another person's id: the player's own view only
    wait_ready(kirk_page, "history")
    assert kirk_page.locator("#person-name").inner_text() == "James Kirk"
    # At Regional III he claims his slip on the same phone and links his entry to his record himself.
    claims_three = call(url, "GET", f"/api/events/{eid}/players/claims", token=org3)["claims"]
    kirk_entry = next(c for c in claims_three if c["name"] == "James Kirk")
    kirk_page.goto(f"{url}/#join={kirk_entry['code']}")
    wait_ready(kirk_page, "player")
    kirk_page.click("#tabs a[data-screen=history]")
    wait_ready(kirk_page, "history")
    kirk_page.wait_for_selector(f"#self-link [data-action=link-me][data-person='{kirk['id']}']")
    assert "from Regional II" in kirk_page.locator("#self-link").inner_text()
    shot(kirk_page, "people-self-link")
    kirk_page.click(f"#self-link [data-action=link-me][data-person='{kirk['id']}']")
    kirk_page.wait_for_selector("#person-events")
    assert len(kirk_page.locator("#person-events tbody tr").all_inner_texts()) == 3
    assert kirk_page.errors == []
    phone.close()
    # The desk sees him linked at its next look.
    page.goto(f"{url}/#/event/{eid}/players")
    wait_ready(page, "players")
    page.wait_for_selector(f"#roster-table a[data-person='{kirk['id']}']", timeout=30_000)
    assert page.locator("[data-action=enter-code]").count() == 0
    ctx.close()


def _code(claims: list[dict], player: str) -> str:
    return next(c["code"] for c in claims if c["player"] == player)


def _phone_token(page, event_id: str) -> str:
    return page.evaluate(
        "(id) => import('/pwa/data/db.js').then((m) => m.getSession(id)).then((s) => s.token)", event_id
    )

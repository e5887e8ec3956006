"""Deck lists in the browser (issue 28): a player submits their list on a 390x844 phone while offline and it
reaches the organizer once the phone is back; round 1 starts and the list locks (the phone says so and only
shows it); a head judge opens the list from a table on the Results screen, picks players at random for a deck
check, and records the check with the Star Trek D2 penalty offered with its Appendix B section. Then every
ruleset's phone shows the sections its game declares and takes a list."""

from __future__ import annotations

import pytest

from tests.browser.helpers import shot, wait_ready, wait_synced
from tests.browser.test_player_phone import PHONE, api

DECK = "3 Data, Aspirer\n4 The Weak Will Perish"
NAMES = (("p1", "Annie Oakley"), ("p2", "Bat Masterson"), ("p3", "Calamity Jane"), ("p4", "Doc Holliday"))


def push(url, eid, token, device, ops, first=1):
    body = {"device": device, "ops": [{"seq": first + i, "op": op} for i, op in enumerate(ops)]}
    result = api(url, f"/api/events/{eid}/push", body, token)
    assert all(r["status"] == "accepted" for r in result["results"]), result
    return result


def make_event(url, ruleset):
    event = api(url, "/api/events", {"name": "List Night", "ruleset": ruleset})
    eid, token = event["event_id"], event["token"]
    ops = [{"type": "player.register", "payload": {"player": {"id": pid, "name": name}}} for pid, name in NAMES]
    ops.append({"type": "event.configure", "payload": {"settings": {"decklists": {"required": True}}}})
    result = push(url, eid, token, "setup", ops)
    return eid, token, {c["player"]: c["code"] for c in result["claims"]}


def open_phone(browser, url, code):
    context = browser.new_context(**PHONE)
    context.add_init_script("localStorage.setItem('topcut.syncMs', '1000')")
    page = context.new_page()
    page.goto(f"{url}/#join={code}")
    wait_ready(page, "player")
    page.wait_for_selector("#decklist-form")
    return context, page


def test_a_player_submits_offline_the_list_locks_and_a_judge_checks_it_from_a_table(browser, live_server) -> None:
    url = live_server.url
    eid, token, claims = make_event(url, "startrek-2e")
    ctx, annie = open_phone(browser, url, claims["p1"])
    assert annie.text_content("#decklist-rule").startswith("The organizer requires a deck list.")
    assert annie.is_visible("label[for='my-list-dilemmas']") and annie.is_visible("label[for='my-list-missions']")
    ctx.set_offline(True)
    annie.fill("#my-list-deck", DECK.split("\n")[0])
    annie.fill("#my-list-dilemmas", DECK.split("\n")[1])
    annie.fill("#my-list-missions", "1 Excavation")
    # A player's phone runs no rules engine: the list is checked by the server once it has it.
    annie.wait_for_selector("#my-list-problems:has-text('checked (counts, sections, repeated lines) once it is sent')")
    annie.click("#send-decklist")
    annie.wait_for_selector("#decklist-msg:has-text('Saved on this phone')")
    shot(annie, "decklist-01-phone-offline")
    ctx.set_offline(False)
    wait_synced(annie)
    annie.wait_for_selector("#decklist-msg:has-text('Sent: the organizer has your deck list.')")
    annie.wait_for_selector("#my-list-problems li[data-code='copies']", timeout=30_000)
    assert "Star Trek OP Guide Appendix B D1" in annie.text_content("#my-list-problems")
    state = api(url, f"/api/events/{eid}/state", token=token)["state"]
    assert state["decklists"]["p1"]["sections"]["dilemmas"] == "4 The Weak Will Perish"

    pair = {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]}
    ops = [
        {"type": "round.pair", "payload": pair},
        {"type": "round.publish", "payload": {"number": 1}},
        {"type": "round.start", "payload": {"number": 1, "duration_s": 3600}},
    ]
    push(url, eid, token, "setup", ops, first=6)
    annie.wait_for_selector("#decklist-locked", timeout=30_000)
    assert "was locked when round 1 started" in annie.text_content("#decklist-locked")
    assert "4 The Weak Will Perish" in annie.text_content("#my-list-sheet")
    assert annie.query_selector("#decklist-form") is None
    shot(annie, "decklist-02-phone-locked")

    code = api(url, f"/api/events/{eid}/invitations", {"role": "head-judge"}, token)["code"]
    hj_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    hj = hj_ctx.new_page()
    errors: list[str] = []
    hj.on("pageerror", lambda e: errors.append(str(e)))
    hj.goto(f"{url}/#join={code}")
    wait_ready(hj)
    hj.goto(f"{url}/#/event/{eid}/judge")
    wait_ready(hj, "judge")
    hj.click(".match-card[data-table='1'] .match-open")
    hj.click("#entry .deck-link[data-player='p1']")
    wait_ready(hj, "decklists")
    hj.wait_for_selector("#dl-player[data-player='p1']")
    assert "Data, Aspirer" in hj.text_content("#dl-sheet")
    assert "table 1" in hj.text_content("#dl-player h2")
    options = hj.eval_on_selector_all("#dc-penalty option", "os => os.map(o => o.textContent)")
    assert options[1].startswith("D2."), "D2 first: the list, then the deck (D1 only if D2 was not enforced)"
    assert any(
        o.startswith("D2. Deck error: illegal deck list — Level 2 (Star Trek OP Guide Appendix B D2)") for o in options
    ), options
    shot(hj, "decklist-03-judge-list")
    hj.select_option("#dc-outcome", "problem")
    hj.fill("#dc-note", "4 copies of The Weak Will Perish")
    hj.select_option("#dc-penalty", label=next(o for o in options if o.startswith("D2.")))
    hj.click("#dc-record")
    hj.wait_for_selector("#dl-player-msg:has-text('Deck check recorded.')")
    hj.wait_for_selector("#dl-checks li:has-text('penalty issued')")
    wait_synced(hj)
    state = api(url, f"/api/events/{eid}/state", token=token)["state"]
    check = state["deckchecks"][0]
    assert (check["player"], check["table"], check["outcome"]) == ("p1", 1, "problem")
    penalty = next(p for p in state["penalties"] if p["op_id"] == check["penalty"])
    assert (penalty["infraction"], penalty["level"]) == ("D2", 2)

    hj.click("#dc-pick")
    hj.wait_for_selector("#dc-picked li")
    first = hj.text_content("#dc-picked ul")
    hj.click("#dc-again")
    hj.click("#dc-pick")
    hj.wait_for_selector("#dc-picked p:has-text('draw 1')")
    assert hj.text_content("#dc-picked ul") == first, "the same pick from the event's seed"
    assert hj.text_content("#dl-overview tr[data-player='p3'] .badge") == "No list (locked)"
    assert hj.is_visible("#dl-empty-warning")
    shot(hj, "decklist-04-staff-screen")
    hj.set_viewport_size({"width": 390, "height": 844})
    shot(hj, "decklist-05-staff-screen-narrow")
    hj.goto(f"{url}/#/event/{eid}/decklists/print")
    hj.wait_for_selector(".dl-print[data-player='p1']")
    assert errors == []
    hj_ctx.close()
    ctx.close()


@pytest.mark.parametrize(
    "ruleset,sections",
    [
        ("agot", ["faction", "agenda", "plot", "draw"]),
        ("doomtown", ["outfit", "legend", "deck"]),
        ("shatterpoint", ["squad-1", "squad-2"]),
        ("startrek-1e", ["deck", "dilemmas", "missions", "q-tent"]),
        ("tribbles", ["deck"]),
        ("pokemon-tcg", ["deck"]),
        ("pokemon-vg", ["team"]),
        ("custom", ["deck"]),
    ],
)
def test_every_games_phone_shows_its_sections_and_takes_a_list(browser, live_server, ruleset, sections) -> None:
    url = live_server.url
    eid, token, claims = make_event(url, ruleset)
    ctx, page = open_phone(browser, url, claims["p2"])
    shown = page.eval_on_selector_all("#decklist-form .list-section", "els => els.map(e => e.dataset.section)")
    assert shown == sections
    page.fill(f"#my-list-{sections[-1]}", "2 Something")
    page.click("#send-decklist")
    page.wait_for_selector("#decklist-msg:has-text('Sent')", timeout=30_000)
    shot(page, f"decklist-game-{ruleset}")
    state = api(url, f"/api/events/{eid}/state", token=token)["state"]
    assert state["decklists"]["p2"]["sections"] == {sections[-1]: "2 Something"}
    ctx.close()


def test_the_organizer_sets_the_lists_and_types_in_a_paper_list_after_the_lock(browser, live_server) -> None:
    url = live_server.url
    eid, token, _ = make_event(url, "agot")
    pair = {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]}
    ops = [
        {"type": "round.pair", "payload": pair},
        {"type": "round.publish", "payload": {"number": 1}},
        {"type": "round.start", "payload": {"number": 1, "duration_s": 3600}},
    ]
    push(url, eid, token, "setup", ops, first=6)
    code = api(url, f"/api/events/{eid}/invitations", {"role": "organizer"}, token)["code"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}/#join={code}")
    wait_ready(page)
    page.goto(f"{url}/#/event/{eid}/decklists")
    wait_ready(page, "decklists")
    page.select_option("#dl-publish", "top-cut")
    page.fill("#dl-min_cards", "70")
    page.fill("#dl-max_cards", "60")
    page.click("#dl-save")
    page.wait_for_selector("#dl-settings-msg:has-text('is more than the most cards')")
    page.fill("#dl-max_cards", "")
    page.click("#dl-save")
    page.wait_for_selector("#dl-settings-msg:has-text('Deck-list settings saved.')")

    page.click("#dl-overview tr[data-player='p3'] .dl-open")
    page.wait_for_selector("#dl-player[data-player='p3']")
    page.click("#dl-edit-open")
    page.fill("#staff-list-faction", "House Targaryen")
    page.fill("#staff-list-plot", "7 A Song of Summer")
    page.fill("#staff-list-draw", "66 Unsullied")
    page.click("#dl-edit button[type=submit]")
    page.wait_for_selector("#dl-player-msg:has-text('The lists are locked: give the reason for this change')")
    page.fill("#dl-reason", "paper list handed in at the desk")
    page.click("#dl-edit button[type=submit]")
    page.wait_for_selector("#dl-player-msg:has-text('List saved.')")
    page.wait_for_selector("#dl-problems li:has-text('66 cards; at least 70 are needed')")
    assert "set by the organizer" in page.text_content("#dl-problems")
    page.click("#dl-player summary")
    assert "after the lock — paper list handed in at the desk" in page.text_content("#dl-changes")
    assert page.query_selector("#dl-player .problem") is None, "nothing refused, nothing to dismiss"
    shot(page, "decklist-06-organizer")
    wait_synced(page)
    state = api(url, f"/api/events/{eid}/state", token=token)["state"]
    assert state["settings"]["decklists"] == {"required": True, "publish": "top-cut", "min_cards": 70}
    assert state["decklists"]["p3"]["changes"][-1]["reason"] == "paper list handed in at the desk"
    page.goto(f"{url}/#/event/{eid}/decklists/print")
    page.wait_for_selector(".dl-print[data-player='p3']")
    shot(page, "decklist-07-print")
    assert errors == []
    context.close()


def test_the_public_page_shows_lists_only_once_the_event_is_over(browser, live_server) -> None:
    url = live_server.url
    eid, token, _ = make_event(url, "doomtown")
    lists = [
        {
            "type": "decklist.submit",
            "payload": {"player": pid, "sections": {"outfit": "1 The Sloane Gang", "deck": "52 Shotgun"}},
        }
        for pid in ("p1", "p2")
    ]
    configure = {
        "type": "event.configure",
        "payload": {"settings": {"decklists": {"required": True, "publish": "all"}}},
    }
    push(url, eid, token, "setup", [configure, *lists], first=6)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{url}/#/public/{eid}")
    page.wait_for_selector("#public-title:has-text('List Night')")
    assert page.query_selector("#public-lists") is None, "nothing published during the event"
    pair = {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]}
    ops = [
        {"type": "round.pair", "payload": pair},
        {"type": "round.start", "payload": {"number": 1, "duration_s": 3600}},
    ]
    ops += [{"type": "result.report", "payload": {"round": 1, "table": t, "outcomes": ["win", "loss"]}} for t in (1, 2)]
    push(url, eid, token, "setup", [*ops, {"type": "event.close"}], first=9)
    page.reload()
    page.wait_for_selector("#public-lists article[data-player='p1']", timeout=30_000)
    assert "The Sloane Gang" in page.text_content("#public-lists")
    shot(page, "decklist-08-public-published")
    context.close()


def test_a_floor_judge_records_a_check_and_leaves_level_two_penalties_to_the_head_judge(browser, live_server) -> None:
    url = live_server.url
    eid, token, _ = make_event(url, "startrek-1e")
    listed = {
        "type": "decklist.submit",
        "payload": {"player": "p2", "sections": {"deck": "1 Data", "q-tent": "14 Tribble"}},
    }
    push(url, eid, token, "setup", [listed], first=6)
    code = api(url, f"/api/events/{eid}/invitations", {"role": "judge"}, token)["code"]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{url}/#join={code}")
    wait_ready(page)
    page.goto(f"{url}/#/event/{eid}/decklists/p2")
    page.wait_for_selector("#dl-player[data-player='p2']")
    assert "Q's Tent: 14 cards; at most 13 are allowed" in page.text_content("#dl-problems")
    assert "Appendix B D2 (13-card maximum in a Q's Tent)" in page.text_content("#dl-problems")
    options = page.eval_on_selector_all("#dc-penalty option", "os => os.map(o => o.textContent)")
    assert options == ["No penalty"]
    assert "Harsher penalties are the head judge's" in page.text_content("#dc-form")
    assert page.query_selector("#dl-settings-summary") is not None, "a judge reads the settings, never edits them"
    page.select_option("#dc-outcome", "problem")
    page.click("#dc-record")
    page.wait_for_selector("#dl-checks li:has-text('problem')")
    context.close()

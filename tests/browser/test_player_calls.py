"""A player who can act, on a 390×844 phone: check in, call a judge (it reaches the judge's Results screen and
the big screen), a judge on the way, a staff call shown until answered, the report form closing when a judge
records the result, and a drop with what it means."""

from __future__ import annotations

import pytest

from tests.browser.helpers import shot, wait_ready, wait_synced
from tests.browser.test_player_phone import PHONE, api

#: Star Trek records a full win and each side's score (OP Guide).
SCORES = {"startrek-2e": {"outcomes": ["full-win", "full-loss"], "scores": [100, 35]}}
TABLET = {"viewport": {"width": 1280, "height": 800}}
NAMES = (("p1", "Annie Oakley"), ("p2", "Bat Masterson"), ("p3", "Calamity Jane"), ("p4", "Doc Holliday"))


class Desk:
    """The organizer's changes, pushed through the API."""

    def __init__(self, url: str, ruleset: str) -> None:
        self.url = url
        event = api(url, "/api/events", {"name": "Calls Night", "ruleset": ruleset})
        self.eid, self.token, self.seq = event["event_id"], event["token"], 0
        registered = self.push(
            [{"type": "player.register", "payload": {"player": {"id": pid, "name": name}}} for pid, name in NAMES]
        )
        self.claims = {c["player"]: c["code"] for c in registered["claims"]}

    def push(self, ops):
        body = {"device": "desk", "ops": [{"seq": self.seq + i + 1, "op": op} for i, op in enumerate(ops)]}
        self.seq += len(ops)
        result = api(self.url, f"/api/events/{self.eid}/push", body, self.token)
        assert all(r["status"] == "accepted" for r in result["results"]), result
        return result

    def start_round_one(self) -> None:
        matches = [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]
        self.push(
            [
                {"type": "round.pair", "payload": {"number": 1, "matches": matches}},
                {"type": "round.publish", "payload": {"number": 1}},
                {"type": "round.start", "payload": {"number": 1, "duration_s": 3600}},
            ]
        )

    def state(self):
        return api(self.url, f"/api/events/{self.eid}/state", token=self.token)["state"]

    def invite(self, role: str) -> str:
        return api(self.url, f"/api/events/{self.eid}/invitations", {"role": role}, self.token)["code"]


def _open(browser, url: str, hash_: str, screen: str | None, **context):
    ctx = browser.new_context(**context)
    ctx.add_init_script("localStorage.setItem('topcut.syncMs', '800')")
    page = ctx.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/{hash_}")
    wait_ready(page, screen)
    return ctx, page


def _fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


@pytest.mark.parametrize("ruleset", ["doomtown", "pokemon-tcg", "startrek-2e"])
def test_player_checks_in_calls_a_judge_is_called_and_drops(browser, live_server, ruleset) -> None:
    url = live_server.url
    desk = Desk(url, ruleset)
    tag = ruleset.split("-")[0]

    # Before round 1: the phone checks the player in.
    phone_ctx, phone = _open(browser, url, f"#join={desk.claims['p1']}", "player", **PHONE)
    phone.click("#check-in")
    phone.wait_for_selector("#checked-in")
    wait_synced(phone)
    assert next(p for p in desk.state()["players"] if p["id"] == "p1")["checked_in"] is True
    assert phone.locator("#call-judge").is_visible() and _fits(phone)
    shot(phone, f"calls-{tag}-01-phone-checked-in")

    # Round 1 posted: the phone calls a judge to its own table, reason from the list plus a word of its own.
    desk.start_round_one()
    phone.wait_for_selector("#table-number:has-text('Table 1')", timeout=30_000)
    assert phone.locator("#check-in").count() == 0  # check-in is for before the first round
    phone.click("#call-judge")
    assert "table 1" in phone.text_content("#call-table")
    phone.check("input[name=call-reason][value='Rules question']")
    phone.fill("#call-detail", "Can I respond twice?")
    assert _fits(phone)
    shot(phone, f"calls-{tag}-02-phone-call-form")
    phone.click("#send-call")
    phone.wait_for_selector("#my-call:has-text('Judge called')")
    assert "Rules question: Can I respond twice?" in phone.text_content("#my-call")
    assert phone.locator("#call-judge").count() == 0  # one open call at a time
    wait_synced(phone)

    # The judge's Results screen lists it: table, reason, who, time; "On my way" goes back to the phone.
    judge_ctx, judge = _open(browser, url, f"#join={desk.invite('judge')}", None, **TABLET)
    judge.goto(f"{url}/#/event/{desk.eid}/judge")
    wait_ready(judge, "judge")
    call = judge.locator("#judge-calls li[data-table='1']")
    call.wait_for(timeout=30_000)
    text = call.text_content()
    assert "Table 1" in text and "Rules question: Can I respond twice?" in text and "Annie Oakley" in text
    shot(judge, f"calls-{tag}-03-judge-calls")
    call.locator("button:has-text('On my way')").click()
    judge.wait_for_selector("#judge-calls li.coming")
    wait_synced(judge)
    phone.wait_for_selector("#my-call:has-text('A judge is on the way')", timeout=30_000)
    shot(phone, f"calls-{tag}-04-phone-judge-coming")

    # The big screen: a discreet strip naming the table, no player.
    board_ctx, board = _open(browser, url, f"#join={desk.invite('scorekeeper')}", None, **TABLET)
    board.goto(f"{url}/#/event/{desk.eid}/board")
    wait_ready(board, "board")
    board.wait_for_selector("#call-strip:has-text('Judge called to table 1')", timeout=30_000)
    assert "Annie" not in board.text_content("#call-strip")
    assert board.text_content("#tabs a[data-screen=judge]") == "Results (1 call)"  # seen from every staff screen
    shot(board, f"calls-{tag}-05-big-screen-strip")
    # Big-screen mode (the hall's TV) shows the same strip.
    board.click("#board-kiosk")
    board.fill("#kiosk-code", "2468")
    board.click("#kiosk-start")
    board.wait_for_selector("body[data-ready=kiosk][data-kiosk=on]", state="attached", timeout=60_000)
    board.wait_for_selector("#call-strip:has-text('Judge called to table 1')", timeout=30_000)
    shot(board, f"calls-{tag}-05a-kiosk-strip")

    # The judge calls Annie to the judge station from her match; the phone shows it until she is marked arrived.
    judge.click(".match-card[data-table='1'] .match-open")
    judge.click(".call-player[data-player='p1'] summary")
    judge.fill(".call-player[data-player='p1'] input[type=text]", "Deck check")
    assert judge.input_value(".call-player[data-player='p1'] input[type=number]") == "1"  # her table, prefilled
    shot(judge, f"calls-{tag}-05b-judge-call-player")
    judge.click(".call-player[data-player='p1'] .call-to-station")
    judge.wait_for_selector("#player-calls li")
    wait_synced(judge)
    phone.wait_for_selector("#called-notice:has-text('Please come to the judge station')", timeout=30_000)
    assert "Deck check" in phone.text_content("#called-notice") and _fits(phone)
    shot(phone, f"calls-{tag}-06-phone-called")
    # Staff call a judge too, from the same match: a reason first, then the calls list shows it as staff's.
    form = judge.locator(".call-judge[data-table='1']")
    form.locator("summary").click()
    form.locator(".call-judge-send").click()
    assert "why a judge is needed" in form.locator(".call-error").text_content()
    form.locator("input").fill("Appeal to the head judge")
    form.locator(".call-judge-send").click()
    staff_call = judge.locator("#judge-calls li:has-text('Appeal to the head judge')")
    staff_call.wait_for(timeout=10_000)
    assert "Table 1" in staff_call.text_content() and "Staff" in staff_call.text_content()
    shot(judge, f"calls-{tag}-06b-judge-calls-a-judge")
    board.wait_for_selector("#call-strip .call-chip:nth-child(2)", timeout=30_000)  # the hall's TV: a second chip
    staff_call.locator("button:has-text('Done')").click()
    staff_call.wait_for(state="detached")
    judge.click("#judge-calls li button:has-text('Done')")
    judge.click("#player-calls li button:has-text('Arrived')")
    judge.wait_for_selector("#calls", state="hidden")
    wait_synced(judge)
    phone.wait_for_selector("#called-notice", state="detached", timeout=30_000)
    phone.wait_for_selector("#my-call", state="detached")
    board.wait_for_selector("#call-strip", state="detached", timeout=30_000)

    # The report form is open when a judge records the result: it closes and says what was recorded.
    phone.click("#report-result")
    phone.wait_for_selector("#report")
    result = {"round": 1, "table": 1, "outcomes": ["win", "loss"], **SCORES.get(ruleset, {})}
    desk.push([{"type": "result.report", "payload": result}])
    phone.wait_for_selector("#report-closed", timeout=30_000)
    assert "A judge recorded the result" in phone.text_content("#report-closed")
    assert phone.locator("#report").count() == 0
    shot(phone, f"calls-{tag}-07-phone-form-closed")

    # Drop: a confirm step says what it means; then the server has the drop after round 1.
    phone.click("#drop")
    text = phone.text_content("#drop-confirm")
    assert "not be paired" in text and "stay in the standings" in text
    shot(phone, f"calls-{tag}-08-phone-drop-confirm")
    phone.click("#confirm-drop")
    phone.wait_for_selector("#dropped-note")
    wait_synced(phone)
    assert next(p for p in desk.state()["players"] if p["id"] == "p1")["dropped_after"] == 1
    assert phone.locator("#drop").count() == 0 and phone.locator("#call-judge").count() == 0
    shot(phone, f"calls-{tag}-09-phone-dropped")

    assert phone.errors == [] and judge.errors == [] and board.errors == []
    for ctx in (phone_ctx, judge_ctx, board_ctx):
        ctx.close()


LONG = [
    ("p1", "Annie Oakley"),
    ("p2", "Bat Masterson"),
    ("p3", "Calamity Jane"),
    ("p4", "Doc Holliday"),
    ("p5", "Wilhelmina Montgomery-Fairweather"),
    ("p6", "Wyatt Earp"),
    ("p7", "Belle Starr"),
    ("p8", "Jesse James"),
]


@pytest.mark.parametrize("ruleset", ["pokemon-tcg", "doomtown", "agot"])
def test_a_players_standings_fit_360_px_with_their_own_row_highlighted(browser, live_server, ruleset) -> None:
    url = live_server.url
    event = api(url, "/api/events", {"name": "Standings Night", "ruleset": ruleset})
    eid, token = event["event_id"], event["token"]
    ids = [pid for pid, _ in LONG]
    matches = [{"table": i // 2 + 1, "players": ids[i : i + 2]} for i in range(0, 8, 2)]
    ops = [{"type": "player.register", "payload": {"player": {"id": pid, "name": name}}} for pid, name in LONG]
    ops += [
        {"type": "round.pair", "payload": {"number": 1, "matches": matches}},
        {"type": "round.start", "payload": {"number": 1}},
        *[
            {"type": "result.report", "payload": {"round": 1, "table": t, "outcomes": ["win", "loss"]}}
            for t in (1, 2, 3, 4)
        ],
    ]
    body = {"device": "desk", "ops": [{"seq": i + 1, "op": op} for i, op in enumerate(ops)]}
    result = api(url, f"/api/events/{eid}/push", body, token)
    assert all(r["status"] == "accepted" for r in result["results"]), result
    claims = {c["player"]: c["code"] for c in result["claims"]}
    phone_view = {**PHONE, "viewport": {"width": 360, "height": 640}}
    ctx, page = _open(browser, url, f"#join={claims['p6']}", "player", **phone_view)
    page.goto(f"{url}/#/event/{eid}/standings")
    wait_ready(page, "standings")
    page.wait_for_selector("#standings-table tbody tr.me[data-player='p6']", timeout=30_000)
    assert _fits(page)
    width = page.evaluate("() => document.getElementById('standings-table').getBoundingClientRect().width")
    assert width <= 360, width
    heads = page.eval_on_selector_all("#standings-table thead th", "ths => ths.map((t) => t.textContent)")
    assert heads == ["#", "Player", "Record", "Pts"]
    assert page.locator("#standings-table tr[aria-current=true]").count() == 1
    assert page.evaluate(
        "() => { const r = document.querySelector('#standings-table tr.me').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= window.innerHeight; }"
    )
    # The tiebreakers come with a tap on the name.
    page.click("#standings-table tr.me .name-button")
    detail = page.locator("#standings-table tr.tb-detail[data-player='p6']")
    assert detail.is_visible() and detail.text_content().strip()
    shot(page, f"standings-{ruleset}-phone-360")
    page.set_viewport_size({"width": 390, "height": 844})
    assert _fits(page)
    shot(page, f"standings-{ruleset}-phone-390")
    assert page.errors == []
    ctx.close()

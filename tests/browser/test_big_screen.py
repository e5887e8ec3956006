"""Big-screen mode and the public page at hall size: 2,000 players on a 1280×720 projector and a 390-px phone.

The event arrives in one go (an event file imported on the home screen; round 1's results in one push), then:
big-screen mode shows no staff control (no header, no tabs, no button but its Exit corner), keeps the staff
screens out of reach (Back and typed addresses land on it again), pages through all 2,000 players by name in
text readable from the back of a hall, shows round 1's pairings and no standings while round 1 is played,
and the standings after round 1 once its results are all in; leaving asks for the unlock code. The public page
pages (50 rows a page), finds a player by name, and shows pairings first during a round, standings after it.
"""

from __future__ import annotations

import json
import random
import urllib.request

import pytest

from bench.events import swiss_event
from tests.browser.helpers import event_id, shot, wait_js, wait_ready
from tests.browser.test_event_tools import FIRST, LAST, goto, session
from tests.browser.test_offline_event import new_page

PLAYERS = 2000
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
MIN_FONT_PX = 20  # a name read from 10 m on a 720p projector


def hall_event(n: int) -> dict:
    """A topcut-event/1 document: n players with distinct names, round 1 paired and published (not played)."""
    names = [f"{first} {middle}{last}" for middle in ("", "J. ", "M. ", "R. ") for last in LAST for first in FIRST][:n]
    random.Random(5).shuffle(names)
    players = [{"id": f"p{i + 1}", "name": name, "entry": i + 1} for i, name in enumerate(names)]
    ids = [p["id"] for p in players]
    random.Random(9).shuffle(ids)
    matches = [{"table": i // 2 + 1, "players": [ids[i], ids[i + 1]]} for i in range(0, len(ids), 2)]
    return {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "name": "International Championship",
        "seed": "hall-2000",
        "settings": {"rounds": 9},
        "players": players,
        "rounds": [{"number": 1, "stage": "swiss", "matches": matches}],
    }


def push(url: str, eid: str, token: str, ops: list[dict], first_seq: int = 1) -> None:
    """``ops`` from a results desk, in pushes of 500 (the most one push carries)."""
    for start in range(0, len(ops), 500):
        items = [{"seq": first_seq + start + i, "op": op} for i, op in enumerate(ops[start : start + 500])]
        request = urllib.request.Request(
            f"{url}/api/events/{eid}/push",
            data=json.dumps({"device": "results-desk", "ops": items}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            results = json.loads(response.read())["results"]
        assert all(r["status"] == "accepted" for r in results), [r for r in results if r["status"] != "accepted"][:3]


STAFF_CONTROLS = """() => {
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  return [...document.querySelectorAll('a, button, input, select, textarea, [role=tab], [tabindex]:not(main)')]
    .filter(visible).map((el) => el.id || el.textContent.trim() || el.tagName);
}"""

LAYOUT = """() => {
  const area = document.querySelector('#board-area').getBoundingClientRect();
  const rows = [...document.querySelectorAll('.board-row')];
  const boxes = rows.map((r) => r.getBoundingClientRect());
  const root = document.documentElement;
  return {
    inside: boxes.every((r) => r.bottom <= area.bottom + 0.5 && r.right <= area.right + 0.5 && r.top >= area.top - 0.5),
    scrolls: root.scrollHeight > innerHeight || root.scrollWidth > innerWidth,
    font: Math.min(...rows.map((r) => parseFloat(getComputedStyle(r).fontSize))),
    clock: document.querySelector('.clock').getBoundingClientRect().top >= 0,
  };
}"""


def on_kiosk(page) -> None:
    """Big-screen mode is drawn (its footer, with the engine's status, is hidden: wait_ready cannot see it)."""
    page.wait_for_selector("body[data-ready=kiosk][data-kiosk=on]", state="attached", timeout=60_000)


def bar(page, name: str) -> str:
    return page.locator("#board-bar").get_attribute(f"data-{name}")


SNAPSHOT = """() => {
  const bar = document.querySelector('#board-bar');
  return { page: Number(bar.dataset.page), pages: Number(bar.dataset.pages), range: bar.dataset.range, kind: bar.dataset.kind,
           names: [...document.querySelectorAll('.board-row .board-name')].map((n) => n.textContent) };
}"""


def all_pages(page) -> list[str]:
    """Every page's names in page order (each read at once with its letter range, which is checked)."""
    seen: dict[int, list[str]] = {}
    pages = int(bar(page, "pages"))
    for _ in range(3 * pages):
        snap = page.evaluate(SNAPSHOT)
        names = snap["names"]
        if snap["kind"] == "name":
            assert snap["range"].startswith(names[0][0]) and snap["range"].endswith(names[-1][0]), snap["range"]
        seen[snap["page"]] = names
        if len(seen) == pages:
            break
        page.keyboard.press("ArrowRight")
        wait_js(page, "(n) => document.querySelector('#board-bar').dataset.page !== String(n)", snap["page"])
    assert sorted(seen) == list(range(1, pages + 1)), sorted(seen)
    assert sum(map(len, seen.values())) == len({n for names in seen.values() for n in names}), {
        k: (len(v), v[0], v[-1]) for k, v in seen.items()
    }
    return [name for n in sorted(seen) for name in seen[n]]


def test_big_screen_and_public_page_at_two_thousand_players(browser, app_process) -> None:
    server = app_process
    ctx, page = new_page(browser, server, PROJECTOR)
    ctx.add_init_script("localStorage.setItem('topcut.boardPageMs', '2500')")
    page.goto(server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    doc = hall_event(PLAYERS)
    page.set_input_files(
        "#import-file", files=[{"name": "ic.json", "mimeType": "application/json", "buffer": json.dumps(doc).encode()}]
    )
    page.click("#import-submit")
    wait_ready(page, "players")
    eid = event_id(page)
    token = session(page, eid)["token"]

    # ---- the Big screen tab starts big-screen mode (with an unlock code)
    goto(page, server, eid, "board")
    page.click("#board-kiosk")
    shot(page, "big-screen-start-dialog-1280x720")
    page.fill("#kiosk-seconds", "2")
    page.click("#kiosk-start")
    assert page.locator("#kiosk-error").inner_text() == "Seconds per page: a whole number from 4 to 120."
    page.fill("#kiosk-seconds", "8")
    page.fill("#kiosk-code", "2468")
    page.click("#kiosk-start")
    on_kiosk(page)
    wait_js(page, "() => Number(document.querySelector('#board-bar')?.dataset.pages) > 1", timeout=60_000)

    # No staff control: no header, no tabs, no button but the Exit corner.
    assert page.evaluate(STAFF_CONTROLS) == ["kiosk-exit"]
    assert page.locator("#tabs a").count() == 0 and not page.locator(".topbar").is_visible()
    # Round 1 in play: its pairings by name, never standings.
    assert bar(page, "kind") == "name" and page.locator("#board-title").inner_text() == "Round 1 pairings by name"
    assert page.locator(".board-row.standing").count() == 0
    layout = page.evaluate(LAYOUT)
    assert layout["inside"] and not layout["scrolls"] and layout["clock"], layout
    assert layout["font"] >= MIN_FONT_PX, layout
    per_page = int(page.locator("#board-area").get_attribute("data-per-page"))
    assert int(bar(page, "pages")) == -(-PLAYERS // per_page), (bar(page, "pages"), per_page)
    shot(page, "big-screen-kiosk-pairings-1280x720")

    # Every player, A to Z, across the pages.
    seen = all_pages(page)
    assert len(seen) == PLAYERS and seen == sorted(seen, key=str.casefold)
    # The pages turn by themselves.
    page.keyboard.press("Home")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.page === '2'", timeout=10_000)

    # The staff screens stay out of reach: Back, or an address typed in, lands on the big screen again.
    page.go_back()
    on_kiosk(page)
    page.evaluate("(eid) => { location.hash = `#/event/${eid}/players`; }", eid)
    on_kiosk(page)
    assert page.url.endswith(f"/event/{eid}/kiosk") and page.evaluate(STAFF_CONTROLS) == ["kiosk-exit"]
    # With an unlock code the whole browser is the board: a new tab opened on the staff screens shows it too.
    tab = ctx.new_page()
    tab.goto(f"{server.url}/#/event/{eid}/rounds")
    on_kiosk(tab)
    assert tab.url.endswith(f"/event/{eid}/kiosk") and tab.locator("#tabs a").count() == 0
    tab.close()
    # Off the network the board goes on from the laptop's copy, and says so, small, in a corner.
    ctx.set_offline(True)
    page.wait_for_selector("#kiosk-offline", state="visible", timeout=15_000)
    assert page.locator("#kiosk-offline").inner_text().startswith("Not connected since ")
    assert page.locator(".board-row").count() > 0
    ctx.set_offline(False)
    page.wait_for_selector("#kiosk-offline", state="hidden", timeout=30_000)

    # ---- the public page on a phone: pairings first (round 1 in play), 50 to a page, a player found by name
    pctx, phone = new_page(browser, server, PHONE)
    phone.goto(f"{server.url}/#/public/{eid}")
    phone.wait_for_selector("#public-pairings")
    assert phone.locator("#public-show-standings").is_disabled()
    assert phone.locator("#public-pairings caption").inner_text() == "Round 1 pairings by name"
    assert phone.locator("#public-pairings tbody tr").count() == 50
    assert phone.locator("#public-page").inner_text() == f"Page 1 of {PLAYERS // 50}"
    phone.click("#public-next")
    assert phone.locator("#public-page").inner_text() == f"Page 2 of {PLAYERS // 50}"
    assert phone.evaluate("() => document.documentElement.scrollHeight") < 5000
    assert phone.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
    someone = doc["players"][1234]["name"]
    phone.fill("#public-search", someone.lower())  # any case
    rows = phone.locator("#public-pairings tbody tr")
    assert rows.count() == 1 and rows.first.locator("th").inner_text() == someone
    table = next(m["table"] for m in doc["rounds"][0]["matches"] if doc["players"][1234]["id"] in m["players"])
    assert rows.first.locator("td").first.inner_text() == str(table)
    assert phone.locator("#public-found").inner_text() == f"1 found for “{someone.lower()}”"
    shot(phone, "public-page-pairings-390x844")

    # ---- round 1 starts: the clock runs on the big screen, still pairings only
    push(server.url, eid, token, [{"type": "round.start", "payload": {"number": 1, "duration_s": 3000}}])
    wait_js(
        page, "() => /^\\d+:\\d\\d$/.test(document.querySelector('.clock .time')?.textContent || '')", timeout=60_000
    )
    assert bar(page, "kind") == "name" and page.locator(".board-row.standing").count() == 0
    layout = page.evaluate(LAYOUT)
    assert layout["inside"] and not layout["scrolls"] and layout["font"] >= MIN_FONT_PX, layout
    shot(page, "big-screen-kiosk-round-running-1280x720")

    # ---- round 1's results, all in at once: the big screen shows the standings after round 1
    ops = [
        {"type": "result.report", "payload": {"round": 1, "table": m["table"], "outcomes": ["win", "loss"]}}
        for m in doc["rounds"][0]["matches"]
    ]
    push(server.url, eid, token, ops, first_seq=2)
    wait_js(page, "() => document.querySelector('#board-bar').dataset.kind === 'standings'", timeout=90_000)
    assert page.locator("#board-title").inner_text() == "Standings after round 1"
    page.keyboard.press("Home")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.page === '1'")
    assert page.locator(".board-row.standing .board-rank").first.inner_text() == "1"
    layout = page.evaluate(LAYOUT)
    assert layout["inside"] and not layout["scrolls"] and layout["font"] >= MIN_FONT_PX, layout
    shot(page, "big-screen-kiosk-standings-1280x720")
    standings = all_pages(page)
    assert len(standings) == PLAYERS
    # Other screens: laid out again, nothing overflows (a phone as a screen gets one column).
    for size, name in (({"width": 1280, "height": 800}, "1280x800"), (PHONE, "390x844")):
        page.set_viewport_size(size)
        wait_js(page, "(w) => document.querySelector('#board-area').clientWidth < w", size["width"])
        page.wait_for_timeout(300)
        layout = page.evaluate(LAYOUT)
        assert layout["inside"] and not layout["scrolls"], (name, layout)
        shot(page, f"big-screen-kiosk-standings-{name}")
    page.set_viewport_size(PROJECTOR)

    # The public page: standings first now, searchable too.
    phone.reload()
    phone.wait_for_selector("#public-standings")
    assert phone.locator("#public-standings caption").inner_text() == "Standings after round 1"
    assert phone.locator("#public-show-standings").get_attribute("aria-pressed") == "true"
    phone.fill("#public-search", someone)
    assert phone.locator("#public-standings tbody tr").count() == 1
    phone.fill("#public-search", "")
    assert phone.locator("#public-standings tbody tr").count() == 50
    shot(phone, "public-page-standings-390x844")
    phone.set_viewport_size({"width": 1280, "height": 800})
    shot(phone, "public-page-standings-1280x800")

    # ---- leaving big-screen mode takes the unlock code
    page.click("#kiosk-exit")
    page.fill("#kiosk-exit-code", "1111")
    page.click("#kiosk-leave")
    assert "not the unlock code" in page.locator("#kiosk-exit-error").inner_text()
    assert page.url.endswith("/kiosk")
    page.fill("#kiosk-exit-code", "2468")
    page.click("#kiosk-leave")
    wait_ready(page, "board")
    assert page.locator("#tabs a").count() > 0 and page.locator(".topbar").is_visible()

    # ---- two screens in the hall: the second shows the second half of each list (ranks 1001-2000)
    page.click("#board-kiosk")
    page.fill("#kiosk-code", "")
    page.fill("#kiosk-screens", "2")
    page.fill("#kiosk-screen", "3")
    page.click("#kiosk-start")
    assert page.locator("#kiosk-error").inner_text() == "This one is screen: a number from 1 to 2."
    page.fill("#kiosk-screen", "2")
    page.click("#kiosk-start")
    on_kiosk(page)
    wait_js(page, "() => document.querySelector('#board-bar')?.dataset.kind === 'standings'", timeout=60_000)
    assert page.locator("#board-title").inner_text().startswith("Standings after round 1, Ranks 1001–2000")
    page.keyboard.press("Home")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.page === '1'")
    assert page.locator(".board-row.standing .board-rank").first.inner_text() == "1001"
    assert len(all_pages(page)) == PLAYERS // 2
    # Without an unlock code, leaving asks for a confirmation; "Keep showing" keeps it.
    page.click("#kiosk-exit")
    assert page.locator("#kiosk-exit-code").count() == 0
    page.click("#kiosk-stay")
    assert page.url.endswith("/kiosk") and not page.locator("#kiosk-exit-dialog").is_visible()
    page.click("#kiosk-exit")
    page.click("#kiosk-leave")
    wait_ready(page, "board")
    # The staff's Big screen tab and its dialog on a phone-sized screen.
    page.set_viewport_size(PHONE)
    shot(page, "big-screen-staff-tab-390x844")
    page.click("#board-kiosk")
    shot(page, "big-screen-start-dialog-390x844")
    page.click("#kiosk-cancel")
    assert not page.locator("#kiosk-dialog").is_visible()
    assert page.errors == [] and phone.errors == []
    pctx.close()
    ctx.close()


NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu", "Max", "Ned", "Oz", "Pia"]


@pytest.mark.parametrize(
    "ruleset",
    ["pokemon-vg", "doomtown", "shatterpoint", "agot", "startrek-1e", "startrek-2e", "tribbles", "custom"],
)
def test_big_screen_mode_for_every_game(browser, app_process, ruleset) -> None:
    """Round 2 in play after a complete round 1: the round's pairings by name (Tribbles pods name every other
    player of the pod), then, by the TO's choice, the standings after round 1; no staff control."""
    server = app_process
    doc = swiss_event(16, 2, ruleset)
    for player, name in zip(doc["players"], NAMES, strict=True):
        player["name"] = name
    doc["rounds"][1]["matches"] = [{"table": m["table"], "players": m["players"]} for m in doc["rounds"][1]["matches"]]
    ctx, page = new_page(browser, server, PROJECTOR)
    page.goto(server.url + "/")
    page.wait_for_selector("#status[data-state=ready]", timeout=120_000)
    page.set_input_files(
        "#import-file", files=[{"name": "e.json", "mimeType": "application/json", "buffer": json.dumps(doc).encode()}]
    )
    page.click("#import-submit")
    wait_ready(page, "players")
    eid = event_id(page)
    goto(page, server, eid, "board")
    page.click("#board-kiosk")
    page.check("#kiosk-standings")
    page.click("#kiosk-start")
    on_kiosk(page)
    wait_js(page, "() => document.querySelector('#board-bar')?.dataset.pages === '2'", timeout=60_000)
    assert page.evaluate(STAFF_CONTROLS) == ["kiosk-exit"]
    page.keyboard.press("Home")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.page === '1'")
    assert page.locator("#board-title").inner_text() == "Round 2 pairings by name"
    names = page.locator(".board-row .board-name").all_inner_texts()
    assert names == sorted(NAMES), names
    pod = next(m["players"] for m in doc["rounds"][1]["matches"] if len(m["players"]) > 1)
    ids = {p["id"]: p["name"] for p in doc["players"]}
    row = page.locator(".board-row", has=page.locator(f".board-name:text-is('{ids[pod[0]]}')"))
    assert all(ids[other] in row.locator(".board-opponent").inner_text() for other in pod[1:])
    page.keyboard.press("ArrowRight")
    wait_js(page, "() => document.querySelector('#board-bar').dataset.kind === 'standings'")
    assert page.locator("#board-title").inner_text() == "Standings after round 1"
    assert page.locator(".board-row.standing").count() == 16
    assert page.evaluate(LAYOUT)["font"] >= MIN_FONT_PX
    page.click("#kiosk-exit")
    page.click("#kiosk-leave")
    wait_ready(page, "board")
    assert page.errors == []
    ctx.close()

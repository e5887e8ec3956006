"""Doomtown's secret d6 in the browser (Floor Rules 3.A, 5.C; issue 11, defect 2).

A head judge starts round 1 from the rounds screen with the secret d6; the
staff clock knows the real end, the player's phone counts the announced hour
only (its `data-remaining` never carries the secret time) and its device never
holds the event's seed. Round 2 is an hour and a half minute old: the phone
says "secret time" with no number at all, the staff clock shows what is left
of the same d6 as round 1 (one roll per event).
"""

from __future__ import annotations

import time

from shared_rules.games.doomtown.ruleset import secret_d6
from tests.browser.helpers import shot, wait_ready
from tests.browser.test_forms_survive_sync import Remote
from tests.browser.test_player_phone import PHONE

NAMES = ("Annie", "Bat", "Calamity", "Doc")


def _push(remote: Remote, *ops):
    batch = []
    for type_, payload in ops:
        remote.seq += 1
        batch.append({"seq": remote.seq, "op": {"type": type_, "payload": payload}})
    result = remote.api(f"/api/events/{remote.eid}/push", {"device": "remote", "ops": batch}, remote.token)
    assert all(r["status"] == "accepted" for r in result["results"]), result
    return result


def _open(browser, url, code, **context_args):
    context = browser.new_context(**context_args)
    context.add_init_script("localStorage.setItem('topcut.syncMs', '700')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.goto(f"{url}/#join={code}")
    wait_ready(page)
    return context, page


def _clock(page) -> tuple[str, str]:
    return page.get_attribute(".clock", "data-remaining"), page.text_content(".clock")


def test_players_never_learn_the_secret_d6(browser, live_server) -> None:
    url = live_server.url
    remote = Remote(url, "doomtown", "Secret Night")
    registered = _push(
        remote,
        *[("player.register", {"player": {"id": f"p{i}", "name": n, "entry": i}}) for i, n in enumerate(NAMES, 1)],
        (
            "round.pair",
            {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]},
        ),
        ("round.publish", {"number": 1}),
    )
    codes = {c["player"]: c["code"] for c in registered["claims"]}
    seed = remote.api(f"/api/events/{remote.eid}/state", token=remote.token)["state"]["seed"]
    d6 = secret_d6(seed)

    # ---- the head judge starts round 1 with the secret d6 (checked by default, value shown to staff)
    judge_ctx, judge = _open(browser, url, remote.invite("head-judge"), viewport={"width": 1100, "height": 900})
    judge.goto(f"{url}/#/event/{remote.eid}/rounds")
    wait_ready(judge, "rounds")
    judge.wait_for_selector("#start-round")
    assert judge.is_checked("#secret-d6")
    assert f"{d6} minute" in judge.text_content("label[for=secret-d6]")
    judge.click("#start-round")
    judge.wait_for_selector(".clock[data-round='1']", timeout=20_000)

    # ---- the player's phone: the announced hour only, and no seed on the device
    phone_ctx, phone = _open(browser, url, codes["p1"], **PHONE)
    phone.wait_for_selector(".clock[data-round='1']", timeout=20_000)
    remaining, text = _clock(phone)
    assert remaining and 3500_000 < int(remaining) <= 3600_000, (remaining, text)
    assert "secret" not in text.lower() or "d6 =" not in text
    # What the phone keeps: the server's player view (it folds nothing itself).
    held = phone.evaluate(
        "(eid) => import('/pwa/app/services.js').then((m) => m.savedView(eid)).then((s) => s.view)", remote.eid
    )
    assert seed not in str(held) and d6 * 60 not in [c.get("secret_s") for c in held["clock"]]
    assert held["state"]["rounds"][0]["timer"]["secret_s"] is None
    shot(phone, "secret-02-player-clock")
    assert judge.get_attribute(".clock", "data-secret") == "yes"
    staff_remaining = int(judge.get_attribute(".clock", "data-remaining"))
    assert 3600_000 < staff_remaining <= (3600 + 60 * d6) * 1000, staff_remaining
    shot(judge, "secret-01-staff-clock")

    # ---- round 2 started an hour and 30 seconds ago: secret time
    _push(
        remote,
        *[("result.report", {"round": 1, "table": t, "outcomes": ["win", "loss"]}) for t in (1, 2)],
        (
            "round.pair",
            {"number": 2, "matches": [{"table": 1, "players": ["p1", "p3"]}, {"table": 2, "players": ["p2", "p4"]}]},
        ),
        ("round.publish", {"number": 2}),
        ("round.start", {"number": 2, "duration_s": 3600, "secret": True, "at": int(time.time() * 1000) - 3630_000}),
    )
    phone.wait_for_selector(".clock[data-round='2']", timeout=20_000)
    phone.wait_for_selector(".clock[data-round='2'] .note:has-text('Secret time')", timeout=5_000)
    remaining, text = _clock(phone)
    assert remaining == "", (remaining, text)
    assert "—:—" in text and f"d6 = {d6}" not in text
    shot(phone, "secret-03-player-secret-time")

    judge.wait_for_selector(".clock[data-round='2']", timeout=20_000)
    left = int(judge.get_attribute(".clock", "data-remaining"))
    assert 0 < left <= 60 * d6 * 1000 - 29_000, left  # the same d6 as round 1
    assert f"d6 = {d6}" in judge.text_content(".clock")
    shot(judge, "secret-04-staff-secret-time")
    assert not judge.errors and not phone.errors, (judge.errors, phone.errors)
    judge_ctx.close()
    phone_ctx.close()

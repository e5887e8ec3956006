"""Device clocks are not trusted (issue 11, defect 3): the server sends its time, and refuses an operation
stamped more than MAX_CLOCK_AHEAD_MS after it arrived (``clock-ahead``), naming the field and how far."""

from __future__ import annotations

import time

from backend.ledger import MAX_CLOCK_AHEAD_MS
from tests.backend.helpers import PLAYERS, bearer, register_ops

HOUR = 3600 * 1000


def _now() -> int:
    return int(time.time() * 1000)


def _paired(api):
    created = api.create("custom", "Clock Cup")
    eid, org = created["event_id"], created["token"]
    api.push_ok(
        eid,
        org,
        "desk",
        register_ops(PLAYERS[:2])
        + [{"type": "round.pair", "payload": {"number": 1, "matches": [{"table": 1, "players": ["p1", "p2"]}]}}],
    )
    return eid, org


def test_the_server_sends_its_time(api):
    before = _now()
    created = api.create("custom")
    eid, org = created["event_id"], created["token"]
    assert before <= created["server_time"] <= _now()
    pushed = api.push_ok(eid, org, "desk", register_ops(PLAYERS[:1]))
    assert before <= pushed["server_time"] <= _now()
    assert before <= api.pull(eid, org)["server_time"] <= _now()
    grant = api.redeem(api.invite(eid, org, "judge")["code"])
    assert before <= grant["server_time"] <= _now()


def test_a_round_started_an_hour_in_the_future_is_refused(api):
    eid, org = _paired(api)
    r = api.push(
        eid,
        org,
        "desk",
        [{"type": "round.start", "payload": {"number": 1, "duration_s": 3000}, "at": _now() + HOUR}],
        first_seq=4,
    )
    verdict = r.get_json()["results"][0]
    assert (verdict["status"], verdict["error"]) == ("rejected", "clock-ahead")
    assert verdict["reason"].startswith("round.start: at: the device's clock was ")
    assert "was 1 hour ahead of the server's" in verdict["reason"]
    assert api.state(eid, org)["rounds"][0]["timer"] is None  # not started

    # the payload's own time is checked too
    r = api.push(
        eid,
        org,
        "desk",
        [{"type": "round.start", "payload": {"number": 1, "duration_s": 3000, "at": _now() + 3 * HOUR}}],
        first_seq=5,
    )
    verdict = r.get_json()["results"][0]
    assert verdict["error"] == "clock-ahead" and "payload.at" in verdict["reason"] and "3 hours" in verdict["reason"]

    # a small difference (a minute) and the past (a change made offline) are taken as they are
    api.push_ok(
        eid,
        org,
        "desk",
        [{"type": "round.start", "payload": {"number": 1, "duration_s": 3000}, "at": _now() + MAX_CLOCK_AHEAD_MS // 2}],
        first_seq=6,
    )
    earlier = _now() - HOUR
    api.push_ok(eid, org, "desk", [{"type": "timer.pause", "payload": {}, "at": earlier}], first_seq=7)
    assert api.state(eid, org)["rounds"][0]["timer"]["paused_at"] == earlier


def test_a_refused_stamp_is_named_in_the_pull_for_the_device(api):
    eid, org = _paired(api)
    api.push(
        eid, org, "desk", [{"type": "player.check_in", "payload": {"player": "p1"}, "at": _now() + HOUR}], first_seq=4
    )
    rejections = api.client.get(f"/api/events/{eid}/pull?cursor=0&device=desk", headers=bearer(org)).get_json()[
        "rejections"
    ]
    assert rejections[-1]["error"] == "clock-ahead" and "player.check_in: at:" in rejections[-1]["reason"]

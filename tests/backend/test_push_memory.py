"""What a push keeps in memory between requests never lets a change through that the database refuses.

A process remembers who a token is after its first push (backend/auth.py ``authenticate_pusher``) and keeps
the event's folded state for the next push (backend/ledger/log.py). Two app instances share one database,
as two app servers (or gunicorn workers) do: a token revoked, expired or rotated through either pushes
nothing through the other, and each instance's next push sees what the other accepted.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select, update

from backend.db import db
from backend.limits import LocalStorage
from backend.models import Device, Event, Token
from tests.backend.conftest import dispose, make_app
from tests.backend.helpers import PLAYERS, Api, bearer, pair_ops, register_ops, report


@pytest.fixture
def second_app(database_url, tmp_path):
    """Another app instance on the same database (its own memory)."""
    other = make_app(database_url, tmp_path / "instance-2")
    yield other
    dispose(other)


def _judge(api: Api) -> tuple[str, str, str]:
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    return eid, org, api.staff_token(eid, org, "judge")


def _head(app, eid: str) -> tuple[int, int]:
    """The event's log head and how many operations one judge tablet has pushed."""
    with app.app_context():
        head = db.session.scalar(select(Event.head_seq).where(Event.id == eid))
        pushed = db.session.scalar(select(Device.last_seq).where(Device.event_id == eid, Device.device == "tab"))
        return head, pushed


def _refused(response, status: int, error: str) -> None:
    assert (response.status_code, response.get_json()["error"]) == (status, error), response.get_json()


def test_a_token_revoked_through_another_app_pushes_nothing_where_it_is_remembered(app, api, second_app):
    eid, org, judge = _judge(api)
    api.push_ok(eid, judge, "tab", [report(1, 1, ["win", "loss"])])  # this app now remembers the judge
    other = Api(second_app.test_client())
    tokens = other.client.get(f"/api/events/{eid}/tokens", headers=bearer(org)).get_json()["tokens"]
    judge_id = next(t["token_id"] for t in tokens if t["role"] == "judge")
    assert other.client.delete(f"/api/events/{eid}/tokens/{judge_id}", headers=bearer(org)).status_code == 200
    before = _head(app, eid)
    _refused(api.push(eid, judge, "tab", [report(1, 2, ["win", "loss"])], first_seq=2), 401, "token-revoked")
    assert _head(app, eid) == before  # nothing recorded, the tablet's sequence did not move


def test_a_token_revoked_here_is_refused_before_its_body_is_read(app, api):
    eid, org, judge = _judge(api)
    api.push_ok(eid, judge, "tab", [report(1, 1, ["win", "loss"])])
    tokens = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(org)).get_json()["tokens"]
    judge_id = next(t["token_id"] for t in tokens if t["role"] == "judge")
    assert api.client.delete(f"/api/events/{eid}/tokens/{judge_id}", headers=bearer(org)).status_code == 200
    _refused(api.push(eid, judge, "tab", [report(1, 2, ["win", "loss"])], first_seq=2), 401, "token-revoked")


def test_a_remembered_token_that_expired_since_pushes_nothing(app, api, second_app):
    eid, _org, judge = _judge(api)
    api.push_ok(eid, judge, "tab", [report(1, 1, ["win", "loss"])])
    with second_app.app_context():  # another server rotated it and its grace period ended
        db.session.execute(update(Token).where(Token.role == "judge", Token.event_id == eid).values(expires_at=1))
        db.session.commit()
    before = _head(app, eid)
    _refused(api.push(eid, judge, "tab", [report(1, 2, ["win", "loss"])], first_seq=2), 401, "token-expired")
    assert _head(app, eid) == before


def test_a_remembered_token_is_not_taken_for_another_event(app, api):
    eid, _org, judge = _judge(api)
    api.push_ok(eid, judge, "tab", [report(1, 1, ["win", "loss"])])
    other_event = api.create()["event_id"]
    _refused(api.push(other_event, judge, "tab", [report(1, 2, ["win", "loss"])]), 403, "wrong-event")


def test_each_app_pushes_on_top_of_what_the_other_accepted(app, api, second_app):
    eid, org, judge = _judge(api)
    other = Api(second_app.test_client())
    api.push_ok(eid, judge, "tab", [report(1, 1, ["win", "loss"])])
    other.push_ok(eid, judge, "tab", [report(1, 2, ["loss", "win"])], first_seq=2)  # memory warm on both now
    api.push_ok(eid, org, "desk", [{"type": "player.drop", "payload": {"player": "p1"}}], first_seq=len(PLAYERS) + 3)
    # The other app's folded state is one operation behind: it must fold p1's drop before judging this one.
    again = other.push(
        eid, org, "desk", [{"type": "player.drop", "payload": {"player": "p1"}}], first_seq=len(PLAYERS) + 4
    )
    verdict = again.get_json()["results"][0]
    assert verdict["status"] == "rejected" and "already dropped" in verdict["reason"], verdict
    third = api.push_ok(eid, judge, "tab", [report(1, 3, ["win", "loss"])], first_seq=3)
    assert third["results"][0]["server_seq"] == third["cursor"]  # one gapless log whichever app took each push
    state = other.client.get(f"/api/events/{eid}/state", headers=bearer(org)).get_json()["state"]
    reported = {m["table"]: m["outcomes"] for m in state["rounds"][0]["matches"] if m.get("outcomes")}
    assert reported == {1: ["win", "loss"], 2: ["loss", "win"], 3: ["win", "loss"]}


def test_local_counts_restart_when_their_window_ends(monkeypatch):
    storage = LocalStorage()
    clock = [1000.0]
    monkeypatch.setattr("backend.limits.time.time", lambda: clock[0])
    assert [storage.incr("push-token/abc", 60) for _ in range(3)] == [1, 2, 3]
    assert storage.get("push-token/abc") == 3 and storage.get_expiry("push-token/abc") == 1060.0
    clock[0] = 1060.0
    assert storage.get("push-token/abc") == 0  # the window ended: a new one starts with the next push
    assert storage.incr("push-token/abc", 60) == 1 and storage.get_expiry("push-token/abc") == 1120.0

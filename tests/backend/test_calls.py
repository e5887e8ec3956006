"""Calls through the sync log: a player's judge call reaches staff over a hall server with no outside network,
staff call a player, answers travel back; other players never see them; push notices for calls and confirmations."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from backend import create_app
from backend.hall_tls import ensure_certificates
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, register_ops, report
from tests.backend.test_push_delivery import World, fake, push_app, round1  # noqa: F401 (fixtures)

HALL = "https://192.0.2.10:8443"
PLAYERS = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 5)]


@pytest.fixture
def no_internet(monkeypatch):
    """Any connection but to this machine (the database) fails, as in a hall whose internet is down."""
    real = socket.socket.connect
    tried: list[object] = []

    def connect(self, address):
        host = address[0] if isinstance(address, tuple) else None
        if host is not None:
            try:
                local = ipaddress.ip_address(host).is_loopback
            except ValueError:
                local = host == "localhost"
            if not local:
                if self.type == socket.SOCK_STREAM:  # a UDP "connect" (finding the LAN address) sends nothing
                    tried.append(address)
                raise OSError(101, "Network is unreachable")
        return real(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    yield tried


@pytest.fixture
def lan_app(database_url, tmp_path, no_internet):
    tls = ensure_certificates(tmp_path / "hall-tls")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "HALL_URL": HALL,
            "HALL_TLS_DIR": str(tls.directory),
        }
    )
    yield app
    dispose(app)


def _event(api: Api):
    created = api.create(name="Hall Cup", ruleset="doomtown")
    eid, org = created["event_id"], created["token"]
    matches = [{"table": 1, "players": ["p1", "p2"]}, {"table": 2, "players": ["p3", "p4"]}]
    api.push_ok(
        eid,
        org,
        "desk",
        [
            *register_ops(PLAYERS),
            {"type": "round.pair", "payload": {"number": 1, "matches": matches}},
            {"type": "round.start", "payload": {"number": 1}},
        ],
    )
    phones = {pid: api.redeem(code)["token"] for pid, code in api.claims(eid, org).items()}
    return eid, org, phones


def _open(state):
    return [c for c in state["calls"] if c["answered_at"] is None]


def test_a_players_judge_call_reaches_staff_over_a_hall_server_with_no_internet(lan_app, no_internet):
    api = Api(lan_app.test_client())
    eid, org, phones = _event(api)
    judge = api.staff_token(eid, org, "judge")
    # The phone on the hall address sends its call through the ordinary push.
    phone = lan_app.test_client()
    body = {
        "device": "phone-p3",
        "ops": [{"seq": 1, "op": {"type": "call.judge", "payload": {"table": 2, "reason": "Rules question"}}}],
    }
    r = phone.post(f"/api/events/{eid}/push", json=body, headers=bearer(phones["p3"]), base_url=HALL)
    assert r.status_code == 200 and r.get_json()["results"][0]["status"] == "accepted", r.get_json()
    # The judge's tablet pulls it and folds one open call at table 2.
    (call,) = _open(api.folded(eid, judge))
    assert (call["kind"], call["table"], call["reason"], call["player"]) == ("judge", 2, "Rules question", "p3")
    # The judge is on the way; the player's phone folds that answer against the call its pull shows.
    api.push_ok(eid, judge, "tab-j", [{"type": "call.answer", "payload": {"call": call["id"], "reply": "on-my-way"}}])
    mine = api.folded(eid, phones["p3"])
    assert mine["calls"][0]["on_my_way"]["by"] == {"role": "judge"} and mine["calls"][0]["answered_at"] is None
    api.push_ok(eid, judge, "tab-j", [{"type": "call.answer", "payload": {"call": call["id"]}}], first_seq=2)
    assert _open(api.folded(eid, phones["p3"])) == [] and _open(api.folded(eid, judge)) == []
    assert no_internet == []  # nothing tried to leave the hall


def test_another_player_never_sees_a_call_and_folds_the_same_state_otherwise(lan_app):
    api = Api(lan_app.test_client())
    eid, org, phones = _event(api)
    api.push_ok(eid, phones["p3"], "phone-p3", [{"type": "call.judge", "payload": {"reason": "Opponent is slow"}}])
    judge = api.staff_token(eid, org, "judge")
    call_id = _open(api.folded(eid, judge))[0]["id"]
    api.push_ok(
        eid,
        judge,
        "tab-j",
        [
            {"type": "call.answer", "payload": {"call": call_id}},
            {"type": "call.player", "payload": {"player": "p4", "where": "judge-station", "note": "Deck check"}},
        ],
    )
    pulled = api.pull(eid, phones["p1"])
    assert "Opponent is slow" not in str(pulled) and "Deck check" not in str(pulled)
    assert api.folded(eid, phones["p1"])["calls"] == []
    called = api.folded(eid, phones["p4"])["calls"]
    assert [(c["kind"], c["where"], c["note"]) for c in called] == [("player", "judge-station", "Deck check")]
    assert api.folded(eid, phones["p3"])["calls"][0]["answered_at"] is not None


def test_a_player_calling_a_judge_to_another_table_is_refused_in_words(lan_app):
    api = Api(lan_app.test_client())
    eid, _, phones = _event(api)
    r = api.push(eid, phones["p3"], "phone-p3", [{"type": "call.judge", "payload": {"table": 1, "reason": "x"}}])
    (result,) = r.get_json()["results"]
    assert result["status"] == "rejected" and result["error"] == "not-authorized"
    assert "own table only (yours is table 2)" in result["reason"]


def test_staff_call_judge_call_and_result_confirmed_are_pushed(push_app, fake):  # noqa: F811
    w = World(push_app, fake)
    w.desk(round1())
    w.drain()
    # Ash calls a judge: the judge tablet is told where and why.
    w.as_player("p1", {"type": "call.judge", "payload": {"table": 1, "reason": "Rules question"}})
    w.drain()
    (notice,) = [n for n in fake.for_subscription(w.judge_sub.id) if n["kind"] == "call.judge"]
    assert notice["body"] == "Judge called to table 1: Rules question"
    assert notice["url"] == f"/#/event/{w.eid}/judge"
    assert all(n["kind"] != "call.judge" for n in w.received("p2"))
    # The judge calls Brock to the judge station: only Brock's phone hears it.
    w.desk(
        [{"type": "call.player", "payload": {"player": "p3", "where": "judge-station"}}], token=w.judge, device="tab"
    )
    w.desk(
        [{"type": "call.player", "payload": {"player": "p4", "where": "table", "table": 12, "note": "Deck check"}}],
        token=w.judge,
        device="tab",
    )
    w.drain()
    assert w.received("p3")[-1]["kind"] == "call.player"
    assert w.received("p3")[-1]["body"] == "Please come to the judge station."
    assert w.received("p4")[-1]["body"] == "Please come to table 12 (Deck check)."
    assert all(n["kind"] != "call.player" for n in w.received("p1"))
    # Misty reports, Ash confirms: Misty learns her result is recorded; Ash, who confirmed, is not told.
    w.as_player("p2", report(1, 1, ["loss", "win"]))
    w.as_player("p1", {"type": "result.confirm", "payload": {"round": 1, "table": 1}})
    w.drain()
    misty = w.received("p2")[-1]
    assert misty["kind"] == "result.confirmed" and misty["body"] == "Round 1, table 1: your win is confirmed."
    assert all(n["kind"] != "result.confirmed" for n in w.received("p1"))
    # Brock reports; the judge enters the same result at the table: Brock learns it is recorded.
    w.as_player("p3", report(1, 2, ["win", "loss"]))
    w.desk([report(1, 2, ["win", "loss"])])
    w.drain()
    brock = w.received("p3")[-1]
    assert brock["kind"] == "result.confirmed" and brock["body"] == "Round 1, table 2: your win is confirmed."
    assert fake.errors == []

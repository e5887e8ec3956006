"""A push hands what it accepted to the ledger's hooks: inside its transaction, then after it commits."""

from __future__ import annotations

from sqlalchemy import func, select

from backend import ledger
from backend.db import db
from backend.models import Operation
from tests.backend.helpers import PLAYERS, register_ops


def test_the_package_registers_notifications_access_and_the_player_view_in_order():
    import backend.view  # noqa: F401  (the players' view endpoint adds its hook once, as the app loads it)

    names = [hook.__name__ for hook in ledger.AFTER_ACCEPT]
    assert names == ["queue_notifications", "roster_access"]
    # players' log pulls make their view lazily, not on every push; the rendered views' shared parts after a round
    assert [hook.__name__ for hook in ledger.AFTER_COMMIT] == ["make_parts_after_round_change"]


def test_hooks_get_only_the_accepted_operations_with_their_seqs_inside_the_transaction(app, api, monkeypatch):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    seen: list[tuple[str, list[str], list[int], int]] = []

    def inside(accepted: ledger.Accepted) -> None:
        stored = db.session.scalar(
            select(func.count()).select_from(Operation).where(Operation.event_id == eid, Operation.accepted)
        )
        seen.append(("accept", [op["type"] for op in accepted.ops], [s for s, _ in accepted.logged], stored))

    def after(accepted: ledger.Accepted) -> None:
        seen.append(("commit", [op["type"] for op in accepted.ops], [s for s, _ in accepted.logged], -1))

    monkeypatch.setattr(ledger.log, "AFTER_ACCEPT", [*ledger.AFTER_ACCEPT, inside])
    monkeypatch.setattr(ledger.log, "AFTER_COMMIT", [*ledger.AFTER_COMMIT, after])
    refused = {"type": "round.pair", "payload": {"number": 9, "matches": []}}  # no such round to pair: refused
    ops = [*register_ops(PLAYERS[:2]), refused]
    body = api.push(eid, org, "desk", ops).get_json()
    assert [v["status"] for v in body["results"]] == ["accepted", "accepted", "rejected"]
    assert seen == [
        ("accept", ["player.register", "player.register"], [2, 3], 3),  # event.create and both, not yet committed
        ("commit", ["player.register", "player.register"], [2, 3], -1),
    ]
    assert sorted(claim["player"] for claim in body["claims"]) == ["p1", "p2"]  # the access hook made their codes


def test_a_push_of_replays_only_runs_no_hook(app, api, monkeypatch):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops(PLAYERS[:1]))
    calls: list[str] = []
    monkeypatch.setattr(ledger.log, "AFTER_ACCEPT", [lambda accepted: calls.append("accept")])
    monkeypatch.setattr(ledger.log, "AFTER_COMMIT", [lambda accepted: calls.append("commit")])
    again = api.push(eid, org, "desk", register_ops(PLAYERS[:1])).get_json()
    assert [v["status"] for v in again["results"]] == ["accepted"] and calls == []

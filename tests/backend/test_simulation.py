"""A seeded simulation of a convention floor: 8 judges, an organizer and a head judge on flaky Wi-Fi.

Devices work offline and keep pending operations; the network duplicates,
delays, reorders and loses pushes and their answers; devices sometimes push
only their newest operation (a gap the server refuses); the server restarts
half-way (a new app on the same database). When the network heals every
device must hold the server's state, every accepted operation must be in the
log exactly once, every operation must have one verdict, and every
disagreement between judges must show as a dispute.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from shared_rules.state import SETTLED, initial_state, replay
from tests.backend.conftest import dispose, make_app
from tests.backend.helpers import Api, bearer

SEED = 20240607
TOTAL_OPS = 1000
PLAYERS = [{"id": f"p{i:02d}", "name": f"Player {i}"} for i in range(1, 17)]
RESULTS = (["win", "loss"], ["loss", "win"], ["tie", "tie"])


@dataclass
class Device:
    name: str
    role: str
    token: str
    seq: int = 0  # last sequence number written
    pending: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    cursor: int = 0
    confirmed: dict[str, Any] = field(default_factory=initial_state)
    verdicts: dict[int, dict[str, Any]] = field(default_factory=dict)
    online: bool = True
    cached_local: dict[str, Any] | None = None

    def write(self, op_type: str, payload: dict[str, Any], at: int) -> None:
        self.seq += 1
        op = {
            "type": op_type,
            "op_id": f"{self.name}:{self.seq}",
            "device": self.name,
            "actor": {"role": self.role},
            "at": at,
            "payload": payload,
        }
        self.pending.append((self.seq, op))
        if self.cached_local is not None:
            self.cached_local = replay([op], self.cached_local, skip_rejected=True)

    def local(self) -> dict[str, Any]:
        """The confirmed state with the pending operations re-applied on top (what the tablet shows)."""
        if self.cached_local is None:
            self.cached_local = replay([op for _, op in self.pending], self.confirmed, skip_rejected=True)
        return self.cached_local

    def push_body(self, rng: random.Random) -> dict[str, Any] | None:
        if not self.pending:
            return None
        items = self.pending[-1:] if rng.random() < 0.1 else self.pending[:200]
        return {
            "device": self.name,
            "ops": [
                {"seq": s, "op": {"type": op["type"], "payload": op["payload"], "at": op["at"]}} for s, op in items
            ],
        }

    def take_push_answer(self, status: int, body: dict[str, Any]) -> None:
        if status == 409:
            assert body["error"] == "sequence-gap"
            return
        assert status == 200, body
        for verdict in body["results"]:
            earlier = self.verdicts.setdefault(verdict["seq"], verdict)
            assert earlier == verdict, "a replayed (device, seq) must get the same verdict"

    def take_pull(self, body: dict[str, Any]) -> None:
        if not body["ops"] and body["devices"].get(self.name, {"last_seq": 0})["last_seq"] == 0:
            return
        self.cached_local = None
        self.confirmed = replay([entry["op"] for entry in body["ops"]], self.confirmed)
        self.cursor = body["cursor"]
        if not body["more"]:
            done = body["devices"].get(self.name, {"last_seq": 0})["last_seq"]
            self.pending = [(s, op) for s, op in self.pending if s > done]


def _matches(state):
    for rnd in state["rounds"]:
        for index, match in enumerate(rnd["matches"]):
            yield rnd, index, match


def _judge_op(dev: Device, state: dict[str, Any], rng: random.Random, at: int) -> None:
    started = [
        (r, i, m) for r, i, m in _matches(state) if r["status"] in ("started", "complete") and len(m["players"]) == 2
    ][-16:]
    roll = rng.random()
    if started and roll < 0.75:
        rnd, index, match = rng.choice(started)
        truth = RESULTS[(rnd["number"] * 7 + index) % 3]
        outcomes = truth if rng.random() < 0.85 else rng.choice(RESULTS)
        dev.write("result.report", {"round": rnd["number"], "match": index, "outcomes": list(outcomes)}, at)
    elif started and roll < 0.85:
        disputed = [(r, i, m) for r, i, m in started if m["status"] == "disputed"]
        if disputed:
            rnd, index, match = rng.choice(disputed)
            truth = RESULTS[(rnd["number"] * 7 + index) % 3]
            dev.write(
                "result.correct",
                {"round": rnd["number"], "match": index, "outcomes": list(truth), "reason": "judge call"},
                at,
            )
        else:
            dev.write("timer.extend", {"seconds": 60}, at)
    else:
        player = rng.choice(PLAYERS)["id"]
        dev.write("player.check_in", {"player": player, "checked_in": rng.random() < 0.7}, at)


def _lead_op(dev: Device, state: dict[str, Any], rng: random.Random, at: int) -> None:
    if not state["players"]:
        if dev.role == "organizer":
            for p in PLAYERS:
                dev.write("player.register", {"player": dict(p)}, at)
        else:
            dev.write("timer.extend", {"seconds": 30}, at)
        return
    rounds = state["rounds"]
    disputed = [(r, i, m) for r, i, m in _matches(state) if m["status"] == "disputed"]
    if disputed and rng.random() < 0.5:
        rnd, index, match = rng.choice(disputed)
        dev.write(
            "result.resolve",
            {
                "round": rnd["number"],
                "match": index,
                "result": {"outcomes": list(RESULTS[(rnd["number"] * 7 + index) % 3])},
            },
            at,
        )
        return
    if rounds and rounds[-1]["status"] in ("draft", "published"):
        dev.write("round.start", {"number": rounds[-1]["number"]}, at)
        return
    if not rounds or rounds[-1]["status"] == "complete":
        ids = [p["id"] for p in PLAYERS]
        rng.shuffle(ids)
        matches = [{"table": t + 1, "players": ids[2 * t : 2 * t + 2]} for t in range(len(ids) // 2)]
        dev.write("round.pair", {"number": len(rounds) + 1, "matches": matches}, at)
        return
    dev.write("timer.extend", {"seconds": 30}, at)


class Network:
    """In-flight pushes: delivered in random order, sometimes twice, answers sometimes lost."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.flying: list[tuple[Device, dict[str, Any]]] = []

    def send(self, dev: Device, body: dict[str, Any]) -> None:
        self.flying.append((dev, json.loads(json.dumps(body))))
        if self.rng.random() < 0.15:
            self.flying.append((dev, json.loads(json.dumps(body))))

    def deliver_one(self, api: Api, event_id: str, lossy: bool = True) -> None:
        dev, body = self.flying.pop(self.rng.randrange(len(self.flying)))
        r = api.client.post(f"/api/events/{event_id}/push", json=body, headers=bearer(dev.token))
        if lossy and self.rng.random() < 0.15:
            return  # the answer is lost on the way back
        dev.take_push_answer(r.status_code, r.get_json())


def _pull(api: Api, event_id: str, dev: Device) -> None:
    while True:
        body = api.pull(event_id, dev.token, cursor=dev.cursor)
        dev.take_pull(body)
        if not body["more"]:
            return


def test_simulation_converges(database_url, tmp_path):
    rng = random.Random(SEED)
    app = make_app(database_url, tmp_path / "instance")
    api = Api(app.test_client())
    created = api.create(ruleset="pokemon-tcg", name="Simulated Regional")
    eid, org = created["event_id"], created["token"]
    devices = [Device("org", "organizer", org), Device("hj", "head-judge", api.staff_token(eid, org, "head-judge"))]
    devices += [Device(f"j{i}", "judge", api.staff_token(eid, org, "judge")) for i in range(1, 9)]
    net = Network(rng)
    clock, written, restarted = 1_700_000_000_000, 0, False
    try:
        while written < TOTAL_OPS:
            clock += rng.randrange(1, 5000)
            dev = rng.choice(devices)
            action = rng.random()
            if action < 0.05:
                dev.online = not dev.online  # offline windows
            elif action < 0.45:
                before = dev.seq
                (_lead_op if dev.role != "judge" else _judge_op)(dev, dev.local(), rng, clock)
                written += dev.seq - before
            elif action < 0.65 and dev.online:
                body = dev.push_body(rng)
                if body:
                    net.send(dev, body)
            elif action < 0.85 and net.flying:
                net.deliver_one(api, eid)  # delayed and reordered deliveries
            elif dev.online:
                _pull(api, eid, dev)
            if not restarted and written >= TOTAL_OPS // 2:
                dispose(app)  # the server restarts
                app = make_app(database_url, tmp_path / "instance-restarted")
                api = Api(app.test_client())
                restarted = True
        # The network heals: in-flight pushes land, every device syncs until nothing is pending.
        while net.flying:
            net.deliver_one(api, eid, lossy=False)
        for _ in range(20):
            for dev in devices:
                dev.online = True
                body = dev.push_body(random.Random(0))  # a full push
                if body:
                    net.send(dev, dict(body, ops=body["ops"]))
                    while net.flying:
                        net.deliver_one(api, eid, lossy=False)
                _pull(api, eid, dev)
            if not any(dev.pending for dev in devices):
                break
        assert not any(dev.pending for dev in devices)
        for dev in devices:
            _pull(api, eid, dev)

        server = api.state(eid, org)
        log = api.pull(eid, org)
        assert replay([entry["op"] for entry in log["ops"]]) == server
        for dev in devices:
            assert dev.confirmed == server, f"{dev.name} disagrees with the server"

        # every accepted operation exactly once, in a gapless server sequence
        seqs = [entry["server_seq"] for entry in log["ops"]]
        assert seqs == list(range(1, len(seqs) + 1))
        op_ids = [entry["op"]["op_id"] for entry in log["ops"]]
        assert len(op_ids) == len(set(op_ids))
        for dev in devices:
            assert log["devices"][dev.name]["last_seq"] == dev.seq
            accepted = {s for s, v in dev.verdicts.items() if v["status"] == "accepted"}
            in_log = {int(i.rpartition(":")[2]) for i in op_ids if i.startswith(dev.name + ":")}
            known = set(dev.verdicts)
            assert accepted == in_log & known
            # an operation whose answer was always lost is still in the log or rejected, once
            rejected = {r["seq"] for r in api.pull(eid, dev.token, cursor=log["cursor"], device=dev.name)["rejections"]}
            assert in_log.isdisjoint(rejected)

        # every disagreement shows as a dispute, and nothing else does
        disputes = 0
        for rnd, index, match in _matches(server):
            finals = [r for r in match["reports"] if r["kind"] in ("correct", "resolve", "pairing")]
            latest = {}
            for r in match["reports"]:
                if r["kind"] == "report":
                    latest[r["device"]] = json.dumps(r["result"], sort_keys=True)
            disagree = len(set(latest.values())) > 1
            if disagree and not finals:
                assert match["status"] == "disputed", (rnd["number"], index, match)
                disputes += 1
            else:
                assert match["status"] != "disputed" or not finals, (rnd["number"], index, match)
            if not disagree and not finals and latest:
                assert match["status"] in SETTLED
        assert [(d["round"], d["match"]) for d in server["disputes"]] == [
            (r["number"], i) for r, i, m in _matches(server) if m["status"] == "disputed"
        ]
        all_verdicts = [v for dev in devices for v in dev.verdicts.values()]
        assert sum(v["status"] == "rejected" for v in all_verdicts) > 0
        assert len(server["rounds"]) >= 3
        assert disputes + sum(1 for _, _, m in _matches(server) if m["status"] == "resolved") > 0
    finally:
        dispose(app)

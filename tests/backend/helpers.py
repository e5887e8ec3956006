"""A thin client for the sync API, used by the backend tests."""

from __future__ import annotations

from typing import Any

from shared_rules.state import from_event_document, initial_state, replay

PLAYERS = [{"id": f"p{i}", "name": f"Player {i}"} for i in range(1, 9)]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Api:
    """Calls through a Flask test client (or anything with the same get/post/delete)."""

    def __init__(self, client) -> None:
        self.client = client

    def create(self, ruleset: str = "pokemon-tcg", name: str = "Cup", **extra: Any) -> dict[str, Any]:
        r = self.client.post("/api/events", json={"ruleset": ruleset, "name": name, **extra})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def push(self, event_id: str, token: str, device: str, ops: list[dict[str, Any]], first_seq: int = 1):
        body = {"device": device, "ops": [{"seq": first_seq + i, "op": op} for i, op in enumerate(ops)]}
        return self.client.post(f"/api/events/{event_id}/push", json=body, headers=bearer(token))

    def push_ok(self, event_id: str, token: str, device: str, ops: list[dict[str, Any]], first_seq: int = 1):
        r = self.push(event_id, token, device, ops, first_seq)
        assert r.status_code == 200, r.get_json()
        results = r.get_json()["results"]
        assert all(v["status"] == "accepted" for v in results), results
        return r.get_json()

    def pull(self, event_id: str, token: str, cursor: int = 0, **params: Any) -> dict[str, Any]:
        query = "&".join(f"{k}={v}" for k, v in {"cursor": cursor, **params}.items())
        r = self.client.get(f"/api/events/{event_id}/pull?{query}", headers=bearer(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()

    def invite(self, event_id: str, token: str, role: str) -> dict[str, Any]:
        r = self.client.post(f"/api/events/{event_id}/invitations", json={"role": role}, headers=bearer(token))
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def redeem(self, code: str) -> dict[str, Any]:
        r = self.client.post("/api/invitations/redeem", json={"code": code})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    def staff_token(self, event_id: str, organizer: str, role: str) -> str:
        return self.redeem(self.invite(event_id, organizer, role)["code"])["token"]

    def claim_list(self, event_id: str, token: str, qr: bool = False) -> list[dict[str, Any]]:
        """The claims as listed for staff (``code`` while it can be used)."""
        r = self.client.get(f"/api/events/{event_id}/players/claims{'?qr=true' if qr else ''}", headers=bearer(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()["claims"]

    def claims(self, event_id: str, token: str) -> dict[str, str]:
        """A usable claim code for every player: as listed, or a new one where it was used or revoked."""
        codes = {}
        for claim in self.claim_list(event_id, token):
            if claim["code"] is None:
                r = self.client.post(f"/api/events/{event_id}/players/{claim['player']}/claim", headers=bearer(token))
                assert r.status_code == 201, r.get_json()
                claim = r.get_json()
            codes[claim["player"]] = claim["code"]
        return codes

    def state(self, event_id: str, token: str) -> dict[str, Any]:
        r = self.client.get(f"/api/events/{event_id}/state", headers=bearer(token))
        assert r.status_code == 200, r.get_json()
        return r.get_json()["state"]

    def folded(self, event_id: str, token: str) -> dict[str, Any]:
        """What a device computes from a full pull."""
        pulled = self.pull(event_id, token)
        start = from_event_document(pulled["base"]) if pulled["base"] else initial_state()
        return replay([entry["op"] for entry in pulled["ops"]], start)


def register_ops(players=PLAYERS) -> list[dict[str, Any]]:
    return [{"type": "player.register", "payload": {"player": dict(p)}} for p in players]


def pair_ops(number: int, players=PLAYERS) -> list[dict[str, Any]]:
    ids = [p["id"] for p in players]
    matches = [{"table": i // 2 + 1, "players": [ids[i], ids[i + 1]]} for i in range(0, len(ids), 2)]
    return [
        {"type": "round.pair", "payload": {"number": number, "matches": matches}},
        {"type": "round.start", "payload": {"number": number}},
    ]


def report(number: int, table: int, outcomes: list[str]) -> dict[str, Any]:
    return {"type": "result.report", "payload": {"round": number, "table": table, "outcomes": outcomes}}


def timeless(answer: dict) -> dict:
    """An API answer without the server's clock reading (``server_time`` is when it answered)."""
    return {k: v for k, v in answer.items() if k != "server_time"}


def trek_ops(players=PLAYERS[:4], rounds: int = 3) -> list[dict[str, Any]]:
    """A finished Star Trek event: ``players`` registered, ``rounds`` rounds (round robin order for four), every
    game a full win 100-35 of the first seat (p1 wins everything, then p2, p3, p4), then closed."""
    ids = [p["id"] for p in players]
    ops = register_ops(players)
    for number in range(1, rounds + 1):
        rest = ids[1:]
        opponent = rest[(number - 1) % len(rest)]
        others = [pid for pid in rest if pid != opponent]
        tables = [[ids[0], opponent]] + [others[i : i + 2] for i in range(0, len(others) - 1, 2)]
        tables = [sorted(t, key=ids.index) for t in tables]
        ops.append(
            {
                "type": "round.pair",
                "payload": {
                    "number": number,
                    "matches": [{"table": i + 1, "players": t} for i, t in enumerate(tables)],
                },
            }
        )
        ops.append({"type": "round.start", "payload": {"number": number}})
        ops += [
            {
                "type": "result.report",
                "payload": {
                    "round": number,
                    "table": i + 1,
                    "outcomes": ["full-win", "full-loss"],
                    "scores": [100, 35],
                },
            }
            for i in range(len(tables))
        ]
    ops.append({"type": "event.close", "payload": {}})
    return ops

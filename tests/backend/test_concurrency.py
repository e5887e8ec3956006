"""20 clients push at once to gunicorn with 4 workers: nothing is lost, nothing is duplicated."""

from __future__ import annotations

import threading

import pytest

from tests.backend.conftest import dispose, make_app
from tests.backend.helpers import Api, pair_ops, register_ops
from tests.backend.livegunicorn import Http, gunicorn

CLIENTS = 20
OPS_PER_CLIENT = 30


def test_concurrent_pushes_lose_and_duplicate_nothing(database_url, tmp_path):
    _run(database_url, tmp_path, workers=4, threads=1)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_threaded_worker_like_make_run(database_url, tmp_path):
    """`make run` serves with one worker and 8 threads: the same guarantees hold."""
    _run(database_url, tmp_path, workers=1, threads=8)


def _run(database_url, tmp_path, workers: int, threads: int) -> None:
    # Tables, event, players and a started, timed round, made before the workers start.
    app = make_app(database_url, tmp_path / "instance")
    api = Api(app.test_client())
    created = api.create()
    eid, org = created["event_id"], created["token"]
    setup = register_ops() + pair_ops(1)
    setup[-1]["payload"]["duration_s"] = 3000
    api.push_ok(eid, org, "desk", setup)
    judges = [api.staff_token(eid, org, "judge") for _ in range(CLIENTS)]
    dispose(app)

    errors: list[str] = []
    start = threading.Barrier(CLIENTS)

    def client(index: int, port: int) -> None:
        http = Http(port)
        device, token, seq = f"tab-{index}", judges[index], 1
        try:
            start.wait(timeout=30)
            batch_sizes = [1 + (index + k) % 4 for k in range(OPS_PER_CLIENT)]
            for size in batch_sizes:  # bounded: at most OPS_PER_CLIENT requests (+ one replay each)
                if seq > OPS_PER_CLIENT:
                    break
                size = min(size, OPS_PER_CLIENT - seq + 1)
                body = {
                    "device": device,
                    "ops": [
                        {"seq": s, "op": {"type": "timer.extend", "payload": {"seconds": 1}}}
                        for s in range(seq, seq + size)
                    ],
                }
                status, answer = http.call("POST", f"/api/events/{eid}/push", body, token)
                if status != 200 or any(v["status"] != "accepted" for v in answer["results"]):
                    errors.append(f"{device}: {status} {answer}")
                    return
                if size % 2:  # replay the same batch: same verdicts, nothing appended
                    status2, again = http.call("POST", f"/api/events/{eid}/push", body, token)
                    if status2 != 200 or again["results"] != answer["results"]:
                        errors.append(f"{device}: replay {status2} {again} != {answer}")
                        return
                seq += size
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(f"{device}: {type(exc).__name__}: {exc}")
        finally:
            http.close()

    with gunicorn(database_url, workers=workers, tmp=tmp_path, threads=threads) as port:
        threads = [threading.Thread(target=client, args=(i, port)) for i in range(CLIENTS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not any(t.is_alive() for t in threads), "a client hung"
        assert not errors, errors[:5]
        http = Http(port)
        status, pulled = http.call("GET", f"/api/events/{eid}/pull?cursor=0", token=org)
        status2, state = http.call("GET", f"/api/events/{eid}/state", token=org)
        http.close()
    assert status == status2 == 200
    seqs = [entry["server_seq"] for entry in pulled["ops"]]
    expected = 1 + len(setup) + CLIENTS * OPS_PER_CLIENT
    assert seqs == list(range(1, expected + 1))
    op_ids = [entry["op"]["op_id"] for entry in pulled["ops"]]
    assert len(set(op_ids)) == len(op_ids)
    for index in range(CLIENTS):
        assert pulled["devices"][f"tab-{index}"] == {"last_seq": OPS_PER_CLIENT, "last_accepted": OPS_PER_CLIENT}
    assert state["state"]["rounds"][0]["timer"]["extended_s"] == CLIENTS * OPS_PER_CLIENT

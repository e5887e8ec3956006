"""Events made on a device while offline: registered later under the device's ids, safely sent twice."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.backend.helpers import PLAYERS, bearer, register_ops

_spec = importlib.util.spec_from_file_location(
    "rules_api", Path(__file__).resolve().parents[2] / "pwa" / "rules" / "rules_api.py"
)
rules_api = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rules_api)

EVENT_ID = "abcdefghjkmnpqrs"
TOKEN = "tc_" + "k" * 52
DEVICE = "organizer-abcdefghij"


def made_offline(name: str = "Basement Cup", ruleset: str = "doomtown") -> dict:
    """What the app's local-events.js sends: the document the device started from, under its own ids."""
    document = rules_api.new_event_document(
        name=name, ruleset=ruleset, seed="s" * 26, at=1_700_000_000_000, device=DEVICE
    )
    return {"document": document, "label": "organizer device", "event_id": EVENT_ID, "token": TOKEN}


def test_an_event_made_offline_is_registered_under_the_devices_ids(client, api) -> None:
    body = made_offline()
    r = client.post("/api/events", json=body)
    assert r.status_code == 201, r.get_json()
    grant = r.get_json()
    assert (grant["event_id"], grant["token"], grant["role"], grant["name"]) == (
        EVENT_ID,
        TOKEN,
        "organizer",
        "Basement Cup",
    )
    # The device's changes made offline follow, numbered from 1, with the token it chose.
    api.push_ok(EVENT_ID, TOKEN, DEVICE, register_ops())
    pulled = api.pull(EVENT_ID, TOKEN)
    assert pulled["base"] == body["document"]  # the device and the server start from the same document
    assert [p["name"] for p in api.state(EVENT_ID, TOKEN)["players"]] == [p["name"] for p in PLAYERS]


def test_sending_the_registration_again_answers_the_same_grant(client) -> None:
    first = client.post("/api/events", json=made_offline())
    again = client.post("/api/events", json=made_offline())  # the first answer was lost on the hall's Wi-Fi
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["token_id"] == first.get_json()["token_id"]
    assert client.get(f"/api/events/{EVENT_ID}", headers=bearer(TOKEN)).status_code == 200


def test_an_id_taken_by_another_event_is_refused_and_changes_nothing(client, api) -> None:
    assert client.post("/api/events", json=made_offline()).status_code == 201
    api.push_ok(EVENT_ID, TOKEN, DEVICE, register_ops())
    other = dict(made_offline("Someone Else's"), token="tc_" + "z" * 52)
    r = client.post("/api/events", json=other)
    assert r.status_code == 409
    assert r.get_json()["error"] == "event-exists" and EVENT_ID in r.get_json()["message"]
    state = api.state(EVENT_ID, TOKEN)
    assert state["name"] == "Basement Cup" and len(state["players"]) == len(PLAYERS)


def test_a_token_already_in_use_is_refused(client) -> None:
    assert client.post("/api/events", json=made_offline()).status_code == 201
    r = client.post("/api/events", json=dict(made_offline(), event_id="zyxwvutsrqpnmkjh"))
    assert r.status_code == 409 and r.get_json()["error"] == "token-taken"
    assert client.get("/api/events/zyxwvutsrqpnmkjh", headers=bearer(TOKEN)).status_code in (401, 404)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"token": None}, "token"),
        ({"event_id": None}, "token"),
        ({"event_id": "short"}, "event_id"),
        ({"token": "not-a-token"}, "token"),
        ({"event_id": "../../etc/passwd-xxxxxxxx"}, "event_id"),
    ],
)
def test_bad_device_ids_are_refused_with_the_field_named(client, change, field) -> None:
    r = client.post("/api/events", json={**made_offline(), **change})
    assert r.status_code in (400, 422), r.get_json()
    body = r.get_json()
    assert set(body) >= {"error", "message"} and field in body["message"], body

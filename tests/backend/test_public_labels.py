"""The public standings name each tiebreaker as its game's document does, not by the column's short name."""

from __future__ import annotations

import pytest

from tests.backend.helpers import PLAYERS, trek_ops


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_star_trek_public_standings_head_sos_as_strength_of_schedule(api):
    created = api.create("startrek-2e", "Trek")
    api.push_ok(created["event_id"], created["token"], "desk", trek_ops(PLAYERS[:4]))
    body = api.client.get(f"/api/events/{created['event_id']}/public").get_json()
    assert body["tiebreakers"] == ["sos", "differential", "cvp"]
    assert body["tiebreaker_labels"] == {
        "sos": "Strength of Schedule",
        "differential": "Differential",
        "cvp": "Cumulative VP",
    }

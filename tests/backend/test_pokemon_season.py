"""Pokémon age divisions on the server (TOP 3.1.1): every event has a season its birth years are told in."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from shared_rules.run import load_event, pair_next_round


def _document(**top: Any) -> dict[str, Any]:
    return {
        "format": "topcut-event/1",
        "ruleset": "pokemon-tcg",
        "name": "Cup from elsewhere",
        "seed": "elsewhere",
        "settings": {"rounds": 3},
        "players": [
            {"id": "a", "name": "Ash", "entry": 1, "birth_year": 1990},
            {"id": "b", "name": "Bea", "entry": 2, "birth_year": 1992},
            {"id": "m", "name": "Max", "entry": 3, "birth_year": 2016},
            {"id": "j", "name": "Jo", "entry": 4, "birth_year": 2017},
        ],
        **top,
    }


def _imported(client, api, document: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/events", json={"document": document, "label": "organizer device"})
    assert r.status_code == 201, r.get_json()
    grant = r.get_json()
    return api.pull(grant["event_id"], grant["token"])["base"]


def _this_season() -> int:
    today = datetime.now(UTC)
    return today.year if today.month >= 7 else today.year - 1


def test_an_event_made_on_the_server_records_the_season_of_its_day(client, api) -> None:
    r = client.post("/api/events", json={"name": "League Cup", "ruleset": "pokemon-tcg"})
    assert r.status_code == 201, r.get_json()
    grant = r.get_json()
    assert api.state(grant["event_id"], grant["token"])["settings"] == {"season": _this_season()}


def test_an_import_with_birth_years_and_no_season_gets_the_season_of_the_day_it_is_imported(client, api) -> None:
    base = _imported(client, api, _document())
    assert base["settings"] == {"rounds": 3, "season": _this_season()}
    # ... so the juniors are paired together and the adults together (Age-Separated needs 6: Age-Modified here).
    paired = pair_next_round(load_event(base))
    assert sorted(sorted(m.players) for m in paired.matches) == [["a", "b"], ["j", "m"]]


def test_an_import_with_a_season_or_a_date_is_kept_as_it_is(client, api) -> None:
    assert _imported(client, api, _document(date="2019-09-01"))["settings"] == {"rounds": 3}
    assert _imported(client, api, _document(settings={"season": 2019}))["settings"] == {"season": 2019}
    without_ages = _document()
    for player in without_ages["players"]:
        del player["birth_year"]
    assert _imported(client, api, without_ages)["settings"] == {"rounds": 3}

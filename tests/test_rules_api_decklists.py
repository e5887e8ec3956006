"""The tablets' deck-list functions (pwa/rules/rules_api.py), through ``call``: the staff screen's statuses
(an empty list after the lock is a warning), a player's live check, and the replayable deck-check pick."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location("rules_api_decklists", ROOT / "pwa" / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call(api, fn, **args):
    out = json.loads(api.call(json.dumps({"fn": fn, "args": args})))
    assert out["ok"], out
    return out["result"]


def _doc() -> dict:
    ids = "abcdef"
    return {
        "format": "topcut-event/1",
        "ruleset": "agot",
        "name": "Kingsroad",
        "seed": "s",
        "settings": {"decklists": {"required": True, "deadline": 1_000}},
        "players": [{"id": p, "name": p.upper(), "entry": i + 1} for i, p in enumerate(ids)],
        "rounds": [
            {
                "number": 1,
                "matches": [
                    {"table": 1, "players": ["a", "b"]},
                    {"table": 2, "players": ["c", "d"]},
                    {"table": 3, "players": ["e", "f"]},
                ],
            }
        ],
        "decklists": {
            "a": {"sections": {"faction": "House Stark", "plot": "7 A Noble Cause", "draw": "60 Hedge Knight"}},
            "b": {"sections": {"faction": "House Lannister", "plot": "6 A Noble Cause", "draw": "60 Hedge Knight"}},
        },
    }


def test_the_staff_screen_tells_submitted_problems_and_empty_lists_after_the_lock():
    api = _api()
    api.fold("ev", True, _doc(), [], [])
    before = _call(api, "decklists", event_id="ev", now_ms=999)
    assert (before["locked"], before["counts"]) == (False, {"submitted": 1, "problems": 1, "missing": 4, "empty": 0})
    after = _call(api, "decklists", event_id="ev", now_ms=1_000)
    rows = {r["id"]: r for r in after["players"]}
    assert after["locked"] and after["counts"]["empty"] == 4
    assert rows["b"]["status"] == "problems"
    assert [(p["message"], p["source"]) for p in rows["b"]["problems"]] == [
        ("Plot deck: 6 cards; it must be exactly 7", "AGoT Deck Building")
    ]
    assert (rows["c"]["status"], rows["c"]["table"]) == ("empty", 2)


def test_a_players_list_is_checked_as_they_type_it():
    api = _api()
    problems = _call(api, "decklist_check", ruleset="agot", settings={}, sections={"plot": "7 A Noble Cause"})
    assert [p["message"] for p in problems] == ["Faction: empty", "Draw deck: empty"]


def test_the_deck_check_pick_is_replayed_from_the_seed_on_any_device():
    first, second = _api(), _api()
    first.fold("ev", True, _doc(), [], [])
    second.fold("ev", True, _doc(), [], [])
    pick = _call(first, "deckcheck_pick", event_id="ev", round=1, count=2)
    assert pick == _call(second, "deckcheck_pick", event_id="ev", round=1, count=2)
    assert {p["table"] for p in pick} <= {1, 2, 3} and len({p["id"] for p in pick}) == 2
    again = _call(first, "deckcheck_pick", event_id="ev", round=1, count=2, draw=1)
    assert again != pick, "another draw picks again"

"""The length the Start round form offers (pwa/rules/rules_api.py round_length), from each game's declarations."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location("rules_api_round_length", ROOT / "pwa" / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _length(api, event_id: str, number: int, stage: str) -> dict:
    return json.loads(
        api.call(json.dumps({"fn": "round_length", "args": {"event_id": event_id, "number": number, "stage": stage}}))
    )["result"]


def _doc(ruleset: str, settings: dict, elimination_tables: int) -> dict:
    names = ["Ash", "Bea", "Cyd", "Dana"]
    ids = [f"p{i}" for i in range(1, 5)]
    swiss = {
        "number": 1,
        "stage": "swiss",
        "matches": [
            {"table": 1, "players": ["p1", "p2"], "outcomes": ["win", "loss"]},
            {"table": 2, "players": ["p3", "p4"], "outcomes": ["win", "loss"]},
        ],
    }
    pairs = [["p1", "p4"], ["p2", "p3"]][:elimination_tables] if elimination_tables == 2 else [["p1", "p3"]]
    cut = {
        "number": 2,
        "stage": "elimination",
        "matches": [{"table": t, "players": p, "slot": t, "seeds": [t, 5 - t]} for t, p in enumerate(pairs, 1)],
    }
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "name": "Cup",
        "seed": "s",
        "settings": settings,
        "players": [{"id": pid, "name": n, "entry": i} for i, (pid, n) in enumerate(zip(ids, names, strict=True), 1)],
        "rounds": [swiss, cut],
    }


def test_the_agot_final_is_offered_untimed_with_the_document_behind_it():
    api = _api()
    api.fold("final", True, _doc("agot", {"rounds": 1, "cut": 2}, 1), [], [])
    out = _length(api, "final", 2, "elimination")
    assert (out["minutes"], out["untimed"]) == (0, True)
    assert "Single Elimination Rounds" in out["why"]
    assert _length(api, "final", 1, "swiss") == {"minutes": 55, "untimed": False, "why": ""}


def test_an_agot_semifinal_keeps_the_round_length():
    api = _api()
    api.fold("semi", True, _doc("agot", {"rounds": 1, "cut": 4, "round_minutes": 60}, 2), [], [])
    assert _length(api, "semi", 2, "elimination") == {"minutes": 60, "untimed": False, "why": ""}


def test_a_doomtown_cut_is_untimed_only_when_the_organizer_chose_it():
    api = _api()
    api.fold("timed", True, _doc("doomtown", {"rounds": 1, "cut": 2}, 1), [], [])
    assert _length(api, "timed", 2, "elimination")["untimed"] is False
    api.fold("untimed", True, _doc("doomtown", {"rounds": 1, "cut": 4, "cut_untimed": True}, 2), [], [])
    out = _length(api, "untimed", 2, "elimination")
    assert (out["minutes"], out["untimed"]) == (0, True) and "Floor Rules 5.C" in out["why"]


def test_a_game_whose_document_times_its_final_offers_its_round_length():
    api = _api()
    api.fold("pk", True, _doc("pokemon-tcg", {"rounds": 1, "cut": 2, "season": 2024}, 1), [], [])
    out = _length(api, "pk", 2, "elimination")
    assert out["untimed"] is False and out["minutes"] > 0

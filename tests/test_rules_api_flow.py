"""The tablets' next step and elimination rounds (pwa/rules/rules_api.py next_step, next_elimination), through ``call``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location("rules_api_flow", ROOT / "pwa" / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call(api, fn, **args):
    return json.loads(api.call(json.dumps({"fn": fn, "args": args})))


def _doc(ruleset: str, settings: dict, rounds: list) -> dict:
    names = ["Ash", "Bea", "Cyd", "Dana"]
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "name": "Cup",
        "seed": "s",
        "settings": settings,
        "players": [{"id": f"p{i}", "name": n, "entry": i} for i, n in enumerate(names, 1)],
        "rounds": rounds,
    }


def _round(number: int, stage: str, pairs: list[tuple[str, str]], **extra) -> dict:
    return {
        "number": number,
        "stage": stage,
        "matches": [
            {"table": t, "players": list(p), "outcomes": ["win", "loss"], **extra} for t, p in enumerate(pairs, 1)
        ],
    }


def test_after_the_last_swiss_round_the_next_step_is_the_cut_with_its_size():
    api = _api()
    doc = _doc("doomtown", {"rounds": 1, "cut": 2}, [_round(1, "swiss", [("p1", "p2"), ("p3", "p4")])])
    api.fold("ev", True, doc, [], [])
    step = _call(api, "next_step", event_id="ev")["result"]
    assert (step["step"], step["label"], step["cut"], step["swiss_complete"]) == (
        "cut",
        "Swiss is over: make the top 2",
        2,
        True,
    )


def test_after_the_final_the_step_names_the_champion_and_next_elimination_refuses_by_name():
    api = _api()
    swiss = _round(1, "swiss", [("p1", "p2"), ("p3", "p4")])
    final = {
        "number": 2,
        "stage": "elimination",
        "matches": [{"table": 1, "players": ["p1", "p3"], "outcomes": ["loss", "win"], "slot": 1, "seeds": [1, 2]}],
    }
    api.fold("ev", True, _doc("doomtown", {"rounds": 1, "cut": 2}, [swiss, final]), [], [])
    step = _call(api, "next_step", event_id="ev")["result"]
    assert (step["step"], step["champion"], step["champion_name"]) == ("close", "p3", "Cyd")
    refused = _call(api, "next_elimination", event_id="ev")
    assert not refused["ok"] and "Cyd is the champion" in refused["error"] and "'p3'" not in refused["error"]


def test_a_bracket_from_the_start_pairs_its_first_round_through_next_elimination():
    api = _api()
    api.fold("se", True, _doc("pokemon-tcg", {"structure": "single-elimination", "season": 2024}, []), [], [])
    step = _call(api, "next_step", event_id="se")["result"]
    assert step["step"] == "elimination"
    first = _call(api, "next_elimination", event_id="se")
    assert first["ok"], first
    assert first["result"]["number"] == 1 and first["result"]["stage"] == "elimination"


def test_a_game_without_a_bracket_offers_no_cut():
    api = _api()
    doc = _doc("tribbles", {"rounds": 1}, [])
    doc["rounds"] = [
        {
            "number": 1,
            "stage": "swiss",
            "matches": [
                {
                    "table": 1,
                    "players": ["p1", "p2", "p3", "p4"],
                    "outcomes": ["win", "loss", "loss", "loss"],
                    "scores": [9, 5, 3, 1],
                }
            ],
        }
    ]
    api.fold("tr", True, doc, [], [])
    step = _call(api, "next_step", event_id="tr")["result"]
    assert (step["step"], step["can_cut"]) == ("close", False), step


def test_the_next_step_follows_each_new_fold():
    api = _api()
    doc = _doc("doomtown", {"rounds": 1, "cut": 2}, [_round(1, "swiss", [("p1", "p2"), ("p3", "p4")])])
    api.fold("ev", True, doc, [], [])
    assert _call(api, "next_step", event_id="ev")["result"]["step"] == "cut"
    cut = _call(api, "cut", event_id="ev")["result"]
    op = {
        "type": "cut.make",
        "op_id": "tab:1",
        "device": "tab",
        "actor": {"role": "organizer"},
        "at": 1,
        "payload": cut,
    }
    assert not api.fold("ev", False, None, [], [op])["local_rejections"]
    assert _call(api, "next_step", event_id="ev")["result"]["label"] == "Publish round 2"

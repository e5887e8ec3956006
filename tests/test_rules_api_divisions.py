"""The tablets' rules functions for Pokémon age divisions and event settings (pwa/rules/rules_api.py), through ``call``."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location("rules_api_divisions", ROOT / "pwa" / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call(api, fn, **args):
    return json.loads(api.call(json.dumps({"fn": fn, "args": args})))


def _doc(ruleset: str = "pokemon-tcg") -> dict:
    return {
        "format": "topcut-event/1",
        "ruleset": ruleset,
        "name": "Cup",
        "seed": "s",
        "settings": {"season": 2019},
        "players": [
            {"id": "a", "name": "Ash", "entry": 1, "birth_year": 2003},
            {"id": "b", "name": "Bea", "entry": 2, "birth_year": 2004},
            {"id": "c", "name": "Cy", "entry": 3, "birth_year": 2008},
            {"id": "d", "name": "Di", "entry": 4},
        ],
        "rounds": [],
    }


def test_age_divisions_gives_the_season_each_players_division_and_what_stops_pairing():
    api = _api()
    api.fold("ev", True, _doc(), [], [])
    out = _call(api, "age_divisions", event_id="ev")
    assert out["ok"], out
    view = out["result"]
    assert view["season"] == {"year": 2019, "label": "2019-20", "basis": "settings.season"}
    # Pokémon TOP 3.1.1's own table for 2019: Masters 2003 or earlier, Senior 2004-2007, Junior 2008 or later.
    assert [(b["division"], b["from"], b["to"]) for b in view["bands"]] == [
        ("masters", None, 2003),
        ("senior", 2004, 2007),
        ("junior", 2008, 2020),
    ]
    assert view["players"] == {"a": "masters", "b": "senior", "c": "junior", "d": None}
    assert view["problems"] == [
        "1 of 4 players has no birth year (Di): enter each one's birth year in the roster on the Players screen"
    ]
    assert view["counts"] == [["masters", 1], ["senior", 1], ["junior", 1], [None, 1]]
    refused = _call(api, "pair_draft", event_id="ev")
    assert not refused["ok"] and "no birth year (Di)" in refused["error"]


def test_a_game_without_age_divisions_has_none():
    api = _api()
    doc = _doc("doomtown")
    doc["settings"] = {}
    api.fold("dt", True, doc, [], [])
    assert _call(api, "age_divisions", event_id="dt") == {"ok": True, "result": None}


def test_ruleset_info_offers_the_season_and_toms_kinds_to_a_settings_screen():
    api = _api()
    info = _call(api, "ruleset_info", ruleset="pokemon-tcg")["result"]
    fields = {f["key"]: f for s in info["settings"]["sections"] for f in s["fields"]}
    assert {"season", "kind"} <= set(fields)
    kinds = fields["kind"]["choices"]
    assert {"value": {"type": 3, "mode": "TCG1DAY"}, "label": "League Cup"} in kinds
    assert {"value": {"type": 2, "mode": "LEAGUECHALLENGE"}, "label": "League Challenge"} in kinds
    doomtown = _call(api, "ruleset_info", ruleset="doomtown")["result"]["settings"]["sections"]
    assert "season" not in {f["key"] for s in doomtown for f in s["fields"]}


def test_settings_review_names_a_wrong_value_keeps_warning_and_gives_the_table():
    api = _api()
    doc = _doc("doomtown")
    doc["settings"] = {"roundup": "convention"}
    api.fold("sr", True, doc, [], [])
    out = _call(api, "settings_review", event_id="sr", changes={"cut": 1, "round_minutes": 65})["result"]
    assert out["error"] == "Top cut (players): 1 is not allowed: give 0 for none, or at least 2"
    assert out["error_key"] == "cut"
    # The warnings still read the values that are fine: 4 players for a convention roundup (5.A).
    assert any("needs at least 8" in w["text"] and w["key"] == "roundup" for w in out["warnings"])
    assert out["players"] == 4 and out["table"]["swiss_rounds"] == 3 and out["table"]["shown_for"] == 4
    assert out["locked"] == {}
    fine = _call(api, "settings_review", event_id="sr", changes={"rounds": 4})["result"]
    assert fine["error"] is None and fine["settings"] == {"roundup": "convention", "rounds": 4}


def test_settings_review_locks_the_game_and_the_announced_rounds_once_round_one_is_paired():
    api = _api()
    doc = _doc("doomtown")
    doc["settings"] = {}
    doc["rounds"] = [
        {
            "number": 1,
            "stage": "swiss",
            "matches": [{"table": 1, "players": ["a", "b"]}, {"table": 2, "players": ["c", "d"]}],
        }
    ]
    api.fold("lk", True, doc, [], [])
    out = _call(api, "settings_review", event_id="lk", changes={"rounds": 5})["result"]
    assert out["locked"]["ruleset"] == "The game cannot change once round 1 is paired."
    assert out["locked"]["rounds"] == "Fixed once round 1 is paired (Doomtown Floor Rules 5.B)."
    assert out["error"].startswith("Swiss rounds cannot change once round 1 is paired (Doomtown Floor Rules 5.B")


def test_settings_review_gives_each_age_division_its_table_in_the_season_set():
    api = _api()
    doc = _doc()
    doc["settings"] = {"season": 2026}
    years = {"M": 1990, "S": 2005, "J": 2010}  # 2019: Masters, Senior, Junior; 2026: all Masters
    doc["players"] = [
        {"id": f"{c}{i}", "name": f"{c}{i}", "entry": 3 * i + k, "birth_year": y}
        for i in range(6)
        for k, (c, y) in enumerate(years.items(), start=1)
    ]
    api.fold("dv", True, doc, [], [])
    assert _call(api, "settings_review", event_id="dv")["result"]["divisions"] == []
    out = _call(api, "settings_review", event_id="dv", changes={"season": 2019})["result"]
    assert [(d["label"], d["players"], d["swiss_rounds"]) for d in out["divisions"]] == [
        ("Masters", 6, 3),
        ("Senior", 6, 3),
        ("Junior", 6, 3),
    ]

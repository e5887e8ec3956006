"""The rules worker's function names are strings on both sides of the worker boundary: the page's list
(pwa/rules/rules-client.js RULES_FUNCTIONS), what pwa/rules/rules_api.py answers, and every call site agree."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PWA = ROOT / "pwa"


def _page_list() -> list[str]:
    text = (PWA / "rules" / "rules-client.js").read_text(encoding="utf-8")
    body = re.search(r"RULES_FUNCTIONS = Object\.freeze\(\[(.*?)\]\)", text, re.S).group(1)
    return re.findall(r'"([a-z_]+)"', body)


def _worker_list() -> list[str]:
    spec = importlib.util.spec_from_file_location("rules_api_under_test", PWA / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.FUNCTIONS)


def test_the_page_and_the_worker_name_the_same_functions():
    page, worker = _page_list(), _worker_list()
    assert len(page) == len(set(page))
    assert sorted(page) == sorted(worker)


def test_every_call_in_the_app_names_a_function_the_worker_answers():
    listed = set(_worker_list())
    calls = {}
    for path in sorted(PWA.rglob("*.js")):
        if "vendor" in path.parts:
            continue
        for name in re.findall(r'\brules\(\s*"([^"]+)"', path.read_text(encoding="utf-8")):
            calls.setdefault(name, []).append(path.relative_to(ROOT).as_posix())
    assert calls, "no rules(...) call found: the pattern no longer matches the app's code"
    unknown = {name: where for name, where in calls.items() if name not in listed}
    assert unknown == {}


def _rules_api():
    spec = importlib.util.spec_from_file_location("rules_api_pairing", PWA / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_pair_draft_with_replace_pairs_the_draft_again_from_the_roster_as_it_is_now():
    from shared_rules.errors import RulesError
    from tests.rules.test_state_reducer import Event

    api = _rules_api()
    ev = Event(4, ruleset="doomtown")

    def load():
        api.fold("e", True, None, [{"server_seq": i + 1, "op": op} for i, op in enumerate(ev.ops)], [])

    load()
    with pytest.raises(RulesError, match="^there is no draft round to pair again: no round is paired yet$"):
        api.pair_draft("e", replace=True)
    first = api.pair_draft("e")
    ev.do("round.pair", {"number": first["round"], "matches": first["matches"]})
    ev.do("player.register", {"player": {"id": "p5", "name": "Late"}}, role="scorekeeper")  # a late entry
    load()
    assert "p5 is not paired" in api.round_warnings("e", 1)
    again = api.pair_draft("e", replace=True)
    assert (again["round"], again["stage"], again["replace"]) == (1, "swiss", True)
    assert sorted(p for m in again["matches"] for p in m["players"]) == ["p1", "p2", "p3", "p4", "p5"]
    ev.do("round.pair", {"number": 1, "stage": "swiss", "matches": again["matches"], "replace": True})
    ev.do("round.publish", {"number": 1})
    load()
    with pytest.raises(RulesError, match="^there is no draft round to pair again: round 1 is published$"):
        api.pair_draft("e", replace=True)


def test_standings_name_each_tiebreaker_as_its_document_does():
    from tests.rules.test_state_reducer import Event

    api = _rules_api()
    ev = Event(4, ruleset="pokemon-tcg")
    api.fold("s", True, None, [{"server_seq": i + 1, "op": op} for i, op in enumerate(ev.ops)], [])
    draft = api.pair_draft("s")
    ev.do("round.pair", {"number": 1, "matches": draft["matches"]})
    ev.do("round.publish", {"number": 1})
    ev.do("round.start", {"number": 1})
    for m in draft["matches"]:
        if len(m["players"]) == 2:
            ev.do("result.report", {"round": 1, "table": m["table"], "outcomes": ["win", "loss"]})
    api.fold("s", True, None, [{"server_seq": i + 1, "op": op} for i, op in enumerate(ev.ops)], [])
    out = api.standings("s")
    keys = list(out["standings"][0]["tiebreakers"])
    assert list(out["labels"]) == keys and out["labels"]["owp"] == "Op Win %"


def test_standings_head_a_short_column_name_by_the_metric_it_reports():
    """Star Trek's ``sos`` column is its ``startrek-sos`` metric: "Strength of Schedule", not "sos"."""
    from tests.rules.test_state_reducer import Event

    api = _rules_api()
    ev = Event(4, ruleset="startrek-1e")
    api.fold("t", True, None, [{"server_seq": i + 1, "op": op} for i, op in enumerate(ev.ops)], [])
    draft = api.pair_draft("t")
    ev.do("round.pair", {"number": 1, "matches": draft["matches"]})
    ev.do("round.publish", {"number": 1})
    ev.do("round.start", {"number": 1})
    for m in draft["matches"]:
        ev.do(
            "result.report",
            {"round": 1, "table": m["table"], "outcomes": ["full-win", "full-loss"], "scores": [100, 35]},
        )
    api.fold("t", True, None, [{"server_seq": i + 1, "op": op} for i, op in enumerate(ev.ops)], [])
    out = api.standings("t")
    assert out["labels"] == {"sos": "Strength of Schedule", "differential": "Differential", "cvp": "Cumulative VP"}


def test_check_op_and_the_fold_name_a_refusal_by_the_code_the_server_records():
    from tests.rules.test_state_reducer import Event

    api = _rules_api()
    ev = Event(4, ruleset="custom")
    api.fold("c", True, None, [{"server_seq": i + 1, "op": op} for i, op in enumerate(ev.ops)], [])
    fine = ev.log.op("player.register", {"player": {"id": "p9", "name": "Nine"}}, role="scorekeeper")
    assert api.check_op("c", fine) == {"ok": True, "reason": None, "code": None}
    forbidden = ev.log.op("player.register", {"player": {"id": "p8", "name": "Eight"}}, role="player", player="p1")
    refused = api.check_op("c", forbidden)
    assert (refused["ok"], refused["code"]) == (False, "not-authorized") and refused["reason"]
    too_big = ev.log.op("penalty.issue", {"player": "p1", "reason": "x" * 5000})
    assert api.check_op("c", too_big)["code"] == "field-too-large"
    out = api.fold("c", False, None, [], [forbidden])
    assert [(r["op_id"], r["code"]) for r in out["local_rejections"]] == [(forbidden["op_id"], "not-authorized")]


def test_every_ruleset_describes_its_screens_in_the_shape_the_app_draws_from():
    """pwa/ui/result-form.js, timer.js, views/round-start.js and views/penalties.js read ``ui`` and nothing else."""
    from shared_rules.games import RULESETS

    api = _rules_api()
    for rid in RULESETS:
        ui = api.ruleset_info(rid, {})["ui"]
        assert set(ui) == {"result", "timer", "round_start", "penalties", "decklists"}, rid
        assert ui["decklists"]["sections"] and ui["decklists"]["main"], rid
        result = ui["result"]
        assert set(result) == {"stats", "scores", "best_of_three", "time_called"}, rid
        if result["stats"] is not None:
            assert isinstance(result["stats"]["legend"], str) and isinstance(result["stats"]["table_size"], int)
            assert all(set(f) == {"key", "label", "max"} for f in result["stats"]["fields"]), rid
        if result["scores"] is not None:
            assert set(result["scores"]) == {"legend", "min"}, rid
        assert result["best_of_three"] in ("always", "elimination"), rid
        called = result["time_called"]
        if called is not None:
            assert isinstance(called["inputs"], list) and called["uses"] in (None, "stats", "scores"), rid
            assert called["uses"] is None or result[called["uses"]] is not None, rid
        assert all(set(n) == {"at_or_below_ms", "text"} for n in ui["timer"]["notes"]), rid
        assert isinstance(ui["round_start"]["attack_dice"], int), rid
        penalties = ui["penalties"]
        assert penalties["system"] in ("levels", "kinds"), rid
        values = [value for value, _ in penalties["choices"]]
        assert penalties["floor"] and set(penalties["floor"]) <= set(values), rid
        assert isinstance(penalties["infraction_field"], bool), rid


def test_ruleset_info_carries_the_games_ui_descriptor():
    api = _rules_api()
    info = api.ruleset_info("shatterpoint", {})
    assert {"id", "title", "document", "outcomes", "endings", "match_sizes", "time_limits", "ui"} <= set(info)
    assert info["ui"]["round_start"] == {"attack_dice": 5}
    assert info["ui"]["result"]["time_called"] == {"inputs": [], "uses": "stats"}
    trek = api.ruleset_info("startrek-2e", {"variant": "slipstream"})["ui"]
    assert trek["penalties"]["system"] == "levels" and trek["penalties"]["floor"] == ["0", "1"]
    assert trek["result"]["scores"] == {"legend": "Final scores", "min": None}


def _rules_api():
    spec = importlib.util.spec_from_file_location("rules_api_pairs", PWA / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ruleset_info_gives_the_result_form_each_games_pairs_in_its_own_words():
    info = _rules_api().ruleset_info
    assert info("agot")["pairs"] == [
        {"outcomes": ["win", "loss"], "label": "win / loss", "quick": True},
        {"outcomes": ["modified-win", "modified-loss"], "label": "modified win / modified loss", "quick": False},
        {"outcomes": ["draw", "draw"], "label": "draw", "quick": True},
    ]
    assert info("startrek-2e")["pairs"][0]["label"] == "Full Win / Full Loss"
    assert info("agot")["pairs_source"] == "AGoT Tournament Regulations, End of Round"
    for ruleset in ("pokemon-tcg", "pokemon-vg", "doomtown", "shatterpoint", "startrek-1e", "custom"):
        assert any(p["quick"] for p in info(ruleset)["pairs"]), ruleset
    assert info("tribbles")["pairs"] == []


def test_ruleset_info_says_how_many_games_an_elimination_match_is():
    info = _rules_api().ruleset_info
    # Shatterpoint and AGoT cuts are single games; Doomtown's final is best of three (Floor Rules 5.B).
    assert info("shatterpoint")["bracket"] == {"best_of": 1, "final_best_of": 1}
    assert info("doomtown")["bracket"] == {"best_of": 1, "final_best_of": 3}
    assert info("pokemon-tcg")["bracket"] == {"best_of": None, "final_best_of": None}  # the TOP leaves it open
    assert info("agot", {"best_of": 3})["bracket"] == {"best_of": 3, "final_best_of": 3}
    assert info("tribbles")["bracket"] is None  # pods, no bracket

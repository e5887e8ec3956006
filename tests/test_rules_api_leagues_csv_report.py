"""The tablets' rules functions for leagues, CSV and the Star Trek report (pwa/rules/rules_api.py), through ``call``."""

from __future__ import annotations

import csv
import importlib.util
import io
import json
from pathlib import Path

from tests.rules.games.startrek.test_leagues import event_doc, league_doc

ROOT = Path(__file__).resolve().parent.parent


def _api():
    spec = importlib.util.spec_from_file_location(
        "rules_api_leagues_csv_report", ROOT / "pwa" / "rules" / "rules_api.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _call(api, fn, **args):
    return json.loads(api.call(json.dumps({"fn": fn, "args": args})))


def _load(api, event_id: str, doc: dict) -> None:
    """Fold an event document into the worker's cache as the device would (an import as its base)."""
    api.fold(event_id, True, doc, [], [])


def test_league_takes_the_league_and_event_documents():
    api = _api()
    out = _call(api, "league", league_doc=league_doc(), event_docs=[event_doc("r1", list("abcd"))])
    assert out["ok"]
    assert out["result"]["events"][0]["points"] == {"a": 12, "b": 8, "c": 6, "d": 6}
    bad = _call(api, "league", league_doc={**league_doc(), "director": None}, event_docs=[])
    assert bad == {
        "ok": False,
        "error": "director: a league needs its League Director (Star Trek OP Guide 12.1)",
        "rules": True,
    }


def test_csv_functions_and_the_report_read_the_loaded_event():
    api = _api()
    golden = json.loads((ROOT / "tests" / "golden" / "startrek-1e-regional.json").read_text(encoding="utf-8"))
    _load(api, "st", golden)
    roster = _call(api, "csv_roster", event_id="st", text="Name;trekcc\nPicard;jlp\n;x\n", mapping=None)
    assert roster["ok"]
    assert [p["name"] for p in roster["result"]["players"]] == ["Picard"]
    assert roster["result"]["errors"] == [{"row": 3, "column": "Name", "problem": "missing name"}]
    standings = _call(api, "csv_standings", event_id="st")
    assert list(csv.reader(io.StringIO(standings["result"])))[0][5] == "Strength of Schedule"
    pairings = _call(api, "csv_pairings", event_id="st", round=1)
    assert list(csv.reader(io.StringIO(pairings["result"])))[0][:2] == ["Table", "Player 1"]
    missing = _call(api, "csv_pairings", event_id="st", round=9)
    assert not missing["ok"] and "no round 9" in missing["error"]
    report = _call(api, "startrek_report", event_id="st")
    assert report["ok"] and report["result"]["edition"] == "First Edition"
    assert report["result"]["text"].startswith("Star Trek CCG tournament report")
    assert _call(api, "csv_standings", event_id="nope")["ok"] is False

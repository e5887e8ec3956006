"""TOM save files on the tablet (pwa/rules/rules_api.py ``tdf_export``/``tdf_import``): the same file as the
command line's ``export-tdf``, and a save read back as the document a new event starts from."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.test_rules_api_leagues_csv_report import ROOT, _api, _call, _load

CUP = ROOT.parent / "shared" / "fixtures" / "tom" / "harness" / "cup" / "19-final.tdf"


def test_the_tablets_tdf_is_the_commands_export_tdf_of_the_tablets_export(tmp_path: Path):
    api = _api()
    text = CUP.read_text(encoding="utf-8")
    doc = _call(api, "tdf_import", text=text, at=1_790_000_000_000)["result"]
    _load(api, "cup", doc)
    mine = _call(api, "tdf_export", event_id="cup")["result"]
    exported = tmp_path / "cup.json"
    exported.write_text(json.dumps(_call(api, "export", event_id="cup")["result"]), encoding="utf-8")
    command = subprocess.run(
        [sys.executable, "-m", "shared_rules", "export-tdf", str(exported)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert mine == command.stdout
    again = _call(api, "tdf_import", text=mine, at=1_790_000_000_000)["result"]
    assert again["players"] == doc["players"] and again["rounds"] == doc["rounds"]


def test_the_import_is_the_commands_import_tdf_and_names_players_by_their_play_pokemon_id():
    api = _api()
    doc = _call(api, "tdf_import", text=CUP.read_text(encoding="utf-8"), at=0)["result"]
    command = subprocess.run(
        [sys.executable, "-m", "shared_rules", "import-tdf", str(CUP)], capture_output=True, text=True, cwd=ROOT
    )
    assert command.returncode == 0, command.stderr

    def who(players):
        return [(p["id"], p["name"], p["game_id"], p.get("birth_year")) for p in players]

    assert who(json.loads(command.stdout)["players"]) == who(doc["players"])
    assert all(p["game_id"] == p["id"] for p in doc["players"])


def test_a_file_that_is_not_a_tom_save_is_refused_in_words():
    api = _api()
    for text in ("", "<html></html>", "Name,ID\nAsh,1\n"):
        out = _call(api, "tdf_import", text=text, at=0)
        assert out["ok"] is False and out.get("rules") is True, out
        assert "TOM" in out["error"] or "tdf" in out["error"] or "XML" in out["error"], out["error"]


def test_a_game_that_tom_does_not_run_is_refused_naming_it():
    api = _api()
    golden = json.loads((ROOT / "tests" / "golden" / "startrek-1e-regional.json").read_text(encoding="utf-8"))
    _load(api, "st", golden)
    out = _call(api, "tdf_export", event_id="st")
    assert out["ok"] is False and "TOM runs Pokémon events only" in out["error"]

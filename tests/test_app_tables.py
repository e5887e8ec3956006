"""The rulesets and roles the app's screens name come from the engine (pwa/rules/tables.json), never typed in JS."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from shared_rules.games import RULESET_IDS
from shared_rules.state.authorize import ALLOWED
from shared_rules.state.operations import ROLES

ROOT = Path(__file__).resolve().parent.parent
PWA = ROOT / "pwa"
TABLES = PWA / "rules" / "tables.json"


def _tables() -> dict:
    spec = importlib.util.spec_from_file_location("rules_api_tables", PWA / "rules" / "rules_api.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.app_tables()


def _scripts() -> list[Path]:
    return sorted(PWA.rglob("*.js"))


def test_the_committed_tables_are_what_the_engine_says_now():
    """scripts/build_assets.py rewrites tables.json; a change to the engine's roles or rulesets must be committed."""
    assert json.loads(TABLES.read_text(encoding="utf-8")) == json.loads(json.dumps(_tables()))


def test_every_ruleset_is_listed_with_its_title_leagues_and_registration_id():
    listed = {r["id"]: r for r in _tables()["rulesets"]}
    assert tuple(listed) == RULESET_IDS
    assert {rid for rid, r in listed.items() if r["league"]} == {"startrek-1e", "startrek-2e", "tribbles"}
    assert {r["registration"]["field"] for r in listed.values()} == {"game_id"}  # one field, every game
    assert listed["pokemon-vg"]["registration"]["label"] == "Play! Pokémon ID"
    assert listed["pokemon-vg"]["registration"]["birth_year"] is True
    assert listed["tribbles"]["registration"]["person_field"] == "trekcc_id"
    assert listed["doomtown"]["registration"]["label"] == "Player ID"
    assert listed["doomtown"]["registration"]["person_field"] is None
    assert {rid for rid, r in listed.items() if r["report"]} == {"startrek-1e", "startrek-2e", "tribbles"}
    assert {rid for rid, r in listed.items() if r["tom"]} == {"pokemon-tcg", "pokemon-vg"}


def test_role_groups_follow_the_permission_table():
    roles = _tables()["roles"]
    assert roles["all"] == list(ROLES)
    assert roles["may"] == {op: [r for r in ROLES if r in allowed] for op, allowed in ALLOWED.items()}
    assert roles["groups"]["lead"] == ["organizer", "head-judge"]
    assert roles["groups"]["desk"] == ["organizer", "head-judge", "scorekeeper"]
    assert roles["groups"]["players"] == ["player"]
    assert set(roles["invite"]) == set(roles["groups"]["staff"])
    assert all(roles["words"][r]["title"] and roles["words"][r]["home"] for r in ROLES)


def test_no_script_of_the_app_names_a_ruleset():
    pattern = re.compile("|".join(re.escape(rid) for rid in RULESET_IDS if rid != "custom") + r'|"custom"')
    named = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in _scripts()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert named == []


def test_no_script_of_the_app_types_a_list_of_roles():
    roles = "|".join(re.escape(r) for r in ROLES)
    pattern = re.compile(rf'["\'](?:{roles})["\']\s*,\s*["\'](?:{roles})["\']')
    named = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in _scripts()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert named == []

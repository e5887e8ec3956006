"""Deck lists on the server (issue 28): a player's pull holds only their own list and deck checks, the lock
at the start of round 1 refuses a player's late change with a clear reason while a list made offline before
it is accepted after reconnecting, staff changes are logged with who and why, export and re-import keep the
lists, a restored backup keeps them, and lists are published only after the event, as the organizer chose."""

from __future__ import annotations

import json

from shared_rules.state import initial_state, replay
from tests.backend.conftest import dispose
from tests.backend.helpers import PLAYERS, Api, bearer, pair_ops, register_ops, report
from tests.backend.test_backups import _rebuilt_server

SECRET = "4 Mewtwo ex\n56 Psychic Energy"


def _listed(op: dict, player: str, sections: dict, **extra) -> dict:
    return {"type": "decklist.submit", "payload": {"player": player, "sections": sections, **extra}, **op}


def _event(api, settings=None):
    created = api.create(ruleset="pokemon-tcg", name="Regional", settings=settings or {})
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    tokens = {pid: api.redeem(code)["token"] for pid, code in api.claims(eid, org).items()}
    return eid, org, tokens


def test_another_players_pull_holds_no_list_and_the_owner_sees_theirs(api):
    eid, org, tokens = _event(api)
    api.push_ok(eid, tokens["p1"], "phone-1", [_listed({}, "p1", {"deck": SECRET})])
    api.push_ok(eid, org, "desk", [_listed({}, "p2", {"deck": "60 Grass Energy"})], first_seq=len(PLAYERS) + 1)
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(eid, org, "desk", pair_ops(1), first_seq=len(PLAYERS) + 2)
    check = {"type": "deckcheck.record", "payload": {"player": "p1", "outcome": "ok", "table": 1, "note": "Mewtwo"}}
    api.push_ok(eid, judge, "judge-tab", [check])
    other = [o["op"] for o in api.pull(eid, tokens["p3"])["ops"]]
    text = json.dumps(other)
    assert "Mewtwo" not in text and "Grass Energy" not in text
    assert not any(op["type"] in ("decklist.submit", "deckcheck.record") for op in other)
    folded = replay(other, initial_state())
    assert folded["decklists"] == {} and folded["deckchecks"] == []
    own = replay([o["op"] for o in api.pull(eid, tokens["p1"])["ops"]], initial_state())
    assert own["decklists"]["p1"]["sections"] == {"deck": SECRET}
    assert list(own["decklists"]) == ["p1"] and [c["player"] for c in own["deckchecks"]] == ["p1"]
    # typed in by staff from a paper list: p2 sees it on their phone, p1 does not
    p2 = replay([o["op"] for o in api.pull(eid, tokens["p2"])["ops"]], initial_state())
    assert p2["decklists"]["p2"]["sections"] == {"deck": "60 Grass Energy"}
    assert api.folded(eid, org)["decklists"].keys() == {"p1", "p2"}


def test_after_round_one_starts_a_players_change_is_refused_and_a_list_made_offline_before_is_kept(api):
    eid, org, tokens = _event(api)
    api.push_ok(eid, org, "desk", pair_ops(1), first_seq=len(PLAYERS) + 1)
    started = api.folded(eid, org)["rounds"][0]["timer"]["started_at"]
    offline = _listed({"at": started - 60_000}, "p1", {"deck": SECRET})
    api.push_ok(eid, tokens["p1"], "phone-1", [offline])
    late = api.push(eid, tokens["p2"], "phone-2", [_listed({}, "p2", {"deck": "60 Grass Energy"})]).get_json()
    result = late["results"][0]
    assert result["status"] == "rejected" and result["error"] == "list-locked"
    assert "locked when round 1 started" in result["reason"] and "ask one" in result["reason"]
    no_reason = api.push(eid, org, "desk", [_listed({}, "p2", {"deck": "1 Pikachu"})], first_seq=len(PLAYERS) + 3)
    assert "a change now needs the reason" in no_reason.get_json()["results"][0]["reason"]
    fixed = _listed({}, "p2", {"deck": "1 Pikachu"}, reason="D2 fix: list matched to the deck")
    api.push_ok(eid, org, "desk", [fixed], first_seq=len(PLAYERS) + 4)
    state = api.folded(eid, org)
    assert state["decklists"]["p1"]["sections"] == {"deck": SECRET}
    change = state["decklists"]["p2"]["changes"][-1]
    assert (change["by"], change["reason"], change["locked"]) == (
        {"role": "organizer"},
        "D2 fix: list matched to the deck",
        True,
    )


def test_lists_survive_export_and_reimport(api):
    eid, org, tokens = _event(api)
    api.push_ok(eid, tokens["p1"], "phone-1", [_listed({}, "p1", {"deck": SECRET})])
    exported = api.client.get(f"/api/events/{eid}/export", headers=bearer(org)).get_json()
    assert exported["decklists"]["p1"]["sections"] == {"deck": SECRET}
    again = api.client.post("/api/events", json={"document": exported})
    assert again.status_code == 201, again.get_json()
    copy = again.get_json()
    state = api.folded(copy["event_id"], copy["token"])
    assert state["decklists"]["p1"]["sections"] == {"deck": SECRET}


def test_lists_are_published_only_after_the_event_and_as_the_organizer_chose(api):
    settings = {"decklists": {"required": True, "publish": "top-cut"}}
    eid, org, tokens = _event(api, settings)
    api.push_ok(eid, tokens["p1"], "phone-1", [_listed({}, "p1", {"deck": SECRET})])
    api.push_ok(eid, tokens["p8"], "phone-8", [_listed({}, "p8", {"deck": "60 Water Energy"})])
    before = api.client.get(f"/api/events/{eid}/decklists").get_json()
    assert before["lists"] == [] and before["note"] == "Lists are published when the event is over."
    ops = pair_ops(1) + [report(1, t, ["win", "loss"]) for t in (1, 2, 3, 4)] + [{"type": "event.close"}]
    api.push_ok(eid, org, "desk", ops, first_seq=len(PLAYERS) + 1)
    after = api.client.get(f"/api/events/{eid}/decklists").get_json()
    assert [row["player"] for row in after["lists"]] == ["p1"]  # no cut: the first two; p3 sent no list
    assert after["lists"][0]["sections"] == {"deck": SECRET}


def test_a_restored_backup_keeps_every_list_its_changes_and_the_deck_checks(app, api, database_url, tmp_path):
    eid, org, tokens = _event(api, {"decklists": {"required": True}})
    api.push_ok(eid, tokens["p1"], "phone-1", [_listed({}, "p1", {"deck": SECRET})])
    api.push_ok(eid, org, "desk", pair_ops(1), first_seq=len(PLAYERS) + 1)
    late = _listed({}, "p2", {"deck": "60 Grass Energy"}, reason="paper list handed in at the desk")
    api.push_ok(eid, org, "desk", [late], first_seq=len(PLAYERS) + 1 + len(pair_ops(1)))
    judge = api.staff_token(eid, org, "judge")
    check = {"type": "deckcheck.record", "payload": {"player": "p1", "outcome": "ok", "table": 1, "note": "matches"}}
    api.push_ok(eid, judge, "judge-tab", [check])
    before = api.folded(eid, org)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()

    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        r = new.client.post("/api/events/restore", json=backup, headers=bearer(org))
        assert r.status_code == 201, r.get_json()
        after = new.folded(eid, org)
        assert after["decklists"] == before["decklists"] and after["deckchecks"] == before["deckchecks"]
        assert after["decklists"]["p1"]["sections"] == {"deck": SECRET}
        assert after["decklists"]["p2"]["changes"][-1]["reason"] == "paper list handed in at the desk"
        # ... and a restored server still keeps each list private to its player.
        other = json.dumps([o["op"] for o in new.pull(eid, tokens["p3"])["ops"]])
        assert "Mewtwo" not in other and "Grass Energy" not in other
    finally:
        dispose(rebuilt)

"""A league backup (backend/startrek/league_backups.py) restores the league under its own id on a rebuilt server: its
events, sprints, order, bonus points and director tokens; its events may come back before or after it, and a
refused restore changes nothing."""

from __future__ import annotations

import copy
import json

import pytest
from sqlalchemy import delete, select

from backend.auth import hash_secret
from backend.db import db
from backend.models import League, LeagueEvent, LeagueToken, Token
from tests.backend.conftest import dispose
from tests.backend.helpers import bearer
from tests.backend.test_backups import _rebuilt_server
from tests.backend.test_startrek_league_tokens import add_token, listed, tokens_path
from tests.backend.test_startrek_leagues import add, league_of, new_league, table_of, trek  # noqa: F401 (a fixture)


@pytest.fixture
def season(client, trek):  # noqa: F811
    """A league with two finished events (regular season, playoffs), a bonus entry and four director tokens:
    the director's (rotated: its old one in its grace period), a tablet's, and a revoked one."""
    league = new_league(client, lifetime={"p1": 90})
    regular, playoff = trek("Regular 1"), trek("Playoff 1")
    assert add(client, league, regular, "regular").status_code == 201
    assert add(client, league, playoff, "playoffs").status_code == 201
    r = client.post(
        f"/api/leagues/{league['league_id']}/bonus",
        headers=bearer(league["token"]),
        json={"event_id": regular["event_id"], "person": "p3", "points": 4, "scheme": "participation"},
    )
    assert r.status_code == 201, r.get_json()
    tablet = add_token(client, league, "Tablet")
    gone = add_token(client, league, "Lost phone")
    assert (
        client.delete(tokens_path(league, f"/{gone['token_id']}"), headers=bearer(tablet["token"])).status_code == 200
    )
    rotated = client.post(tokens_path(league, "/rotate"), headers=bearer(league["token"]))
    assert rotated.status_code == 201, rotated.get_json()
    return {
        "league": league,
        "events": [regular, playoff],
        "director": rotated.get_json()["token"],
        "old": league["token"],
        "tablet": tablet["token"],
        "revoked": gone["token"],
    }


def _backup(client, league_id: str, token: str) -> dict:
    r = client.get(f"/api/leagues/{league_id}/backup", headers=bearer(token))
    assert r.status_code == 200, r.get_json()
    assert f"topcut-league-{league_id}.backup.json" in r.headers["Content-Disposition"]
    return r.get_json()


def _event_backups(client, events: list[dict]) -> list[tuple[dict, str]]:
    out = []
    for event in events:
        r = client.get(f"/api/events/{event['event_id']}/backup", headers=bearer(event["token"]))
        assert r.status_code == 200, r.get_json()
        out.append((r.get_json(), event["token"]))
    return out


def _restore_events(client, backups: list[tuple[dict, str]]) -> None:
    for backup, token in backups:
        r = client.post("/api/events/restore", json=backup, headers=bearer(token))
        assert r.status_code == 201, r.get_json()


def _restore(client, backup: dict, token: str):
    return client.post("/api/leagues/restore", json=backup, headers=bearer(token))


def _everything(app) -> list[tuple]:
    """Every row of every league table, to show that a refusal changed nothing."""
    with app.app_context():
        leagues = [(x.id, x.name, x.document, x.created_at, x.version) for x in db.session.scalars(select(League))]
        events = [
            (e.league_id, e.event_id, e.sprint, e.position, e.added_at, e.proved_by)
            for e in db.session.scalars(select(LeagueEvent))
        ]
        tokens = [
            (t.id, t.league_id, t.token_hash, t.label, t.created_at, t.revoked_at, t.expires_at, t.replaced_by)
            for t in db.session.scalars(select(LeagueToken))
        ]
        return sorted(leagues) + sorted(events) + sorted(tokens, key=str)


def test_a_backup_holds_the_league_its_events_and_its_tokens_as_hashes(client, season):
    league_id = season["league"]["league_id"]
    backup = _backup(client, league_id, season["director"])
    assert backup["format"] == "topcut-league-backup/1" and backup["league_id"] == league_id
    assert set(backup["league"]) == {"name", "document", "created_at", "version"}
    assert json.loads(backup["league"]["document"])["bonus"][0]["person"] == "p3"
    assert [(e["event_id"], e["sprint"], e["position"]) for e in backup["league_events"]] == [
        (season["events"][0]["event_id"], "regular", 1),
        (season["events"][1]["event_id"], "playoffs", 2),
    ]
    assert len(backup["tokens"]) == 4
    text = json.dumps(backup)
    for secret in ("director", "old", "tablet", "revoked"):
        assert season[secret] not in text  # hashes only
    assert hash_secret(season["director"]) in text
    # Only a working director token of the league may take it.
    assert client.get(f"/api/leagues/{league_id}/backup", headers=bearer(season["revoked"])).status_code == 401
    event_token = season["events"][0]["token"]
    assert client.get(f"/api/leagues/{league_id}/backup", headers=bearer(event_token)).status_code == 403
    assert client.get(f"/api/leagues/{league_id}/backup").status_code == 401
    assert client.get("/api/leagues/nosuchleague/backup", headers=bearer(season["director"])).status_code == 404


def test_a_restored_league_carries_on_with_its_events_table_and_tokens(app, client, season, database_url, tmp_path):
    league_id = season["league"]["league_id"]
    backup = _backup(client, league_id, season["director"])
    events = _event_backups(client, season["events"])
    before, table = (
        league_of(client, {**season["league"], "token": season["director"]}),
        table_of(client, season["league"]),
    )
    tokens = listed(client, season["league"], season["director"])

    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = rebuilt.test_client()
        _restore_events(new, events)
        r = _restore(new, backup, season["tablet"])
        assert r.status_code == 201, r.get_json()
        assert r.get_json() == {
            "league_id": league_id,
            "name": "Neutral Zone League",
            "version": before["version"],
            "events": 2,
            "missing_events": [],
            "tokens": 4,
        }
        director = {**season["league"], "token": season["director"]}
        assert league_of(new, director) == before
        assert table_of(new, director) == table
        assert listed(new, director) == tokens  # revoked, rotated and their successors as they were
        # The rotated token's grace period is kept: it works until it ends; the revoked one stays revoked.
        assert new.get(f"/api/leagues/{league_id}", headers=bearer(season["old"])).status_code == 200
        r = new.get(f"/api/leagues/{league_id}", headers=bearer(season["revoked"]))
        assert (r.status_code, r.get_json()["error"]) == (401, "token-revoked")
        # The director's devices go on changing the league.
        r = new.patch(f"/api/leagues/{league_id}", headers=bearer(season["tablet"]), json={"name": "Renamed"})
        assert r.status_code == 200 and r.get_json()["version"] == before["version"] + 1
        assert table_of(new, director)["table"]["league"]["name"] == "Renamed"
    finally:
        dispose(rebuilt)


def test_a_league_restored_before_its_events_counts_them_once_they_are_restored(
    app, client, season, database_url, tmp_path
):
    league_id = season["league"]["league_id"]
    backup = _backup(client, league_id, season["director"])
    events = _event_backups(client, season["events"])
    table = table_of(client, season["league"])

    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = rebuilt.test_client()
        r = _restore(new, backup, season["director"])
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["missing_events"] == [e["event_id"] for e in season["events"]]
        early = table_of(new, season["league"])  # answered (and cached) before the events are back
        assert [e["present"] for e in early["events"]] == [False, False]
        assert [p["event_id"] for p in early["problems"]] == [e["event_id"] for e in season["events"]]
        assert all("not restored yet" in p["problem"] for p in early["problems"])
        assert early["table"]["season"] == []
        _restore_events(new, events[:1])
        partial = table_of(new, season["league"])
        assert [e["present"] for e in partial["events"]] == [True, False]
        _restore_events(new, events[1:])
        assert table_of(new, season["league"]) == table
    finally:
        dispose(rebuilt)


def _bearer_index(backup: dict, secret: str) -> int:
    return next(i for i, t in enumerate(backup["tokens"]) if t["token_hash"] == hash_secret(secret))


def _damaged(backup: dict, change) -> dict:
    out = copy.deepcopy(backup)
    change(out)
    return out


def _document(backup: dict, **changes) -> None:
    document = json.loads(backup["league"]["document"])
    document.update(changes)
    backup["league"]["document"] = json.dumps(document)


def test_a_refused_restore_names_the_problem_and_changes_nothing(app, client, season, database_url, tmp_path):
    league_id = season["league"]["league_id"]
    backup = _backup(client, league_id, season["director"])
    other = new_league(client, name="Other League")
    other_backup = _backup(client, other["league_id"], other["token"])
    me = _bearer_index(backup, season["director"])
    tablet = _bearer_index(backup, season["tablet"])
    damaged = {
        "format": (lambda b: b.update(format="topcut-backup/1"), "format"),
        "league id": (lambda b: b.update(league_id="no/slashes"), "league_id"),
        "league section": (lambda b: b.pop("league"), "league"),
        "league field type": (lambda b: b["league"].update(version="3"), "league.version: expected int"),
        "league version": (lambda b: b["league"].update(version=0), "league.version"),
        "unknown field": (lambda b: b["league"].update(colour="red"), "league.colour"),
        "document not JSON": (lambda b: b["league"].update(document="{"), "league.document: not JSON"),
        "document not an object": (lambda b: b["league"].update(document="[]"), "league.document"),
        "document the rules refuse": (lambda b: _document(b, qualification={"per_sprint": -1}), "league.document"),
        "events not a list": (lambda b: b.update(league_events={}), "league_events:"),
        "event missing sprint": (lambda b: b["league_events"][0].pop("sprint"), "league_events[0].sprint: missing"),
        "event position type": (lambda b: b["league_events"][1].update(position="2"), "league_events[1].position"),
        "sprint not of the season": (lambda b: b["league_events"][0].update(sprint="first-half"), "[0].sprint"),
        "duplicate event": (
            lambda b: b["league_events"][1].update(event_id=b["league_events"][0]["event_id"]),
            "league_events[1].event_id",
        ),
        "duplicate position": (lambda b: b["league_events"][1].update(position=1), "league_events[1].position"),
        "tokens missing": (lambda b: b.pop("tokens"), "tokens"),
        "token hash": (lambda b: b["tokens"][tablet].update(token_hash="xyz"), f"tokens[{tablet}].token_hash"),
        "token role": (lambda b: b["tokens"][tablet].update(role="organizer"), f"tokens[{tablet}].role"),
        "duplicate token id": (
            lambda b: b["tokens"][tablet].update(id=b["tokens"][me]["id"]),
            "].id",
        ),
        "successor not in the backup": (
            lambda b: b["tokens"][tablet].update(replaced_by="nobody"),
            f"tokens[{tablet}].replaced_by",
        ),
    }
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = rebuilt.test_client()
        before = _everything(rebuilt)
        for name, (change, field) in damaged.items():
            r = _restore(new, _damaged(backup, change), season["director"])
            assert r.status_code in (400, 422), (name, r.get_json())
            assert field in r.get_json()["message"], (name, r.get_json())
            assert _everything(rebuilt) == before, name
        # Who may restore: one of the backup's director tokens that still works.
        r = new.post("/api/leagues/restore", json=backup)
        assert (r.status_code, r.get_json()["error"]) == (401, "missing-token")
        for secret in ("tl_not-a-token", season["revoked"], other["token"], season["events"][0]["token"]):
            r = _restore(new, backup, secret)
            assert (r.status_code, r.get_json()["error"]) == (403, "forbidden"), r.get_json()
        expired = _damaged(backup, lambda b: b["tokens"][me].update(expires_at=1))
        assert _restore(new, expired, season["director"]).status_code == 403
        assert _everything(rebuilt) == before
        # Restored once; a second time (or another league's id with its tokens) is refused, changing nothing.
        assert _restore(new, backup, season["director"]).status_code == 201
        restored = _everything(rebuilt)
        r = _restore(new, backup, season["director"])
        assert (r.status_code, r.get_json()["error"]) == (409, "league-exists"), r.get_json()
        again = _damaged(backup, lambda b: b.update(league_id="AnotherLeague1"))
        r = _restore(new, again, season["director"])
        assert (r.status_code, r.get_json()["error"]) == (409, "token-exists"), r.get_json()
        assert "tokens[0]" in r.get_json()["message"]
        # A token hash an event's token holds here is refused too.
        _restore_events(new, _event_backups(client, season["events"][:1]))
        event_hash = hash_secret(season["events"][0]["token"])
        clash = _damaged(
            other_backup, lambda b: b["tokens"].append({**b["tokens"][0], "id": "x1", "token_hash": event_hash})
        )
        r = _restore(new, clash, other["token"])
        assert (r.status_code, r.get_json()["error"]) == (409, "token-exists"), r.get_json()
        assert "tokens[1].token_hash" in r.get_json()["message"]
        assert [row for row in _everything(rebuilt) if row not in restored] == []
        assert _restore(new, other_backup, other["token"]).status_code == 201
    finally:
        dispose(rebuilt)


def test_the_server_commands_back_up_and_restore_a_league(app, client, season, database_url, tmp_path):
    league_id = season["league"]["league_id"]
    path = tmp_path / "league.backup.json"
    result = app.test_cli_runner().invoke(args=["topcut-backup-league", league_id, "--output", str(path)])
    assert result.exit_code == 0, result.output
    assert json.loads(path.read_text(encoding="utf-8")) == _backup(client, league_id, season["director"])
    missing = app.test_cli_runner().invoke(args=["topcut-backup-league", "nosuchleague"])
    assert missing.exit_code == 1 and "there is no league 'nosuchleague'" in missing.output
    table = table_of(client, season["league"])
    events = []
    for i, event in enumerate(season["events"]):
        events.append(tmp_path / f"event-{i}.json")
        done = app.test_cli_runner().invoke(args=["topcut-backup", event["event_id"], "-o", str(events[-1])])
        assert done.exit_code == 0, done.output

    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        runner = rebuilt.test_cli_runner()
        result = runner.invoke(args=["topcut-restore", str(path)])
        assert result.exit_code == 0, result.output
        assert f"restored league {league_id} (Neutral Zone League)" in result.output
        assert "not on this server yet" in result.output and season["events"][0]["event_id"] in result.output
        for file in events:
            assert runner.invoke(args=["topcut-restore", str(file)]).exit_code == 0
        assert table_of(rebuilt.test_client(), season["league"]) == table
        again = runner.invoke(args=["topcut-restore", str(path)])
        assert again.exit_code == 1 and "already exists" in again.output
    finally:
        dispose(rebuilt)


def test_a_league_id_that_starts_with_a_dash_is_backed_up_after_double_dash(
    app, client, season, database_url, tmp_path
):
    # League ids drawn until 2026-11-26 could start with '-' (as event ids could): such a league is restored here.
    backup = _backup(client, season["league"]["league_id"], season["director"])
    lid = "-Zq4v9xk2mnpr7st"
    source = tmp_path / "dash.json"
    source.write_text(json.dumps({**backup, "league_id": lid}), encoding="utf-8")
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        runner = rebuilt.test_cli_runner()
        assert runner.invoke(args=["topcut-restore", str(source)]).exit_code == 0
        path = tmp_path / "again.json"
        refused = runner.invoke(args=["topcut-backup-league", lid, "-o", str(path)])
        assert refused.exit_code == 2 and not path.exists()
        assert "A league id that starts with '-'" in refused.output
        assert f"goes after '--': topcut-backup-league [OPTIONS] -- {lid}" in refused.output, refused.output
        done = runner.invoke(args=["topcut-backup-league", "-o", str(path), "--", lid])
        assert done.exit_code == 0, done.output
        assert json.loads(path.read_text(encoding="utf-8")) == {**backup, "league_id": lid}
        director = {"league_id": lid, "token": season["director"]}
        assert league_of(rebuilt.test_client(), director)["league_id"] == lid
    finally:
        dispose(rebuilt)


def test_the_openapi_description_lists_the_league_backup_endpoints(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    backup = paths["/api/leagues/{league_id}/backup"]["get"]
    assert backup["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/LeagueBackup"
    }
    restore = paths["/api/leagues/restore"]["post"]
    assert {"201", "401", "403", "409", "422"} <= set(restore["responses"])
    assert restore["responses"]["201"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/LeagueRestoreResponse"
    }


def test_a_restore_never_serves_a_table_cached_before_it(app, client, season):
    """A league removed by hand from the database, then restored from an older backup with the same version
    and events: this process's table cached for the id is dropped, not served."""
    league_id = season["league"]["league_id"]
    backup = _backup(client, league_id, season["director"])
    assert table_of(client, season["league"])["table"]["league"]["name"] == "Neutral Zone League"  # cached
    with app.app_context():
        for model in (LeagueEvent, LeagueToken):
            db.session.execute(delete(model).where(model.league_id == league_id))
        db.session.execute(delete(League).where(League.id == league_id))
        db.session.commit()
    older = copy.deepcopy(backup)
    _document(older, name="Old Name")
    older["league"]["name"] = "Old Name"
    assert _restore(client, older, season["director"]).status_code == 201
    assert table_of(client, season["league"])["table"]["league"]["name"] == "Old Name"


def test_two_restores_of_one_league_at_once_leave_one_and_refuse_the_other(app, client, season, monkeypatch):
    """The second restore's check ran before the first committed (as two app servers at once on PostgreSQL):
    the database refuses its rows, and it answers 409 having changed nothing."""
    import backend.startrek.league_backups

    league_id = season["league"]["league_id"]
    backup = _backup(client, league_id, season["director"])
    with app.app_context():
        db.session.execute(delete(LeagueEvent).where(LeagueEvent.league_id == league_id))
        db.session.execute(delete(LeagueToken).where(LeagueToken.league_id == league_id))
        db.session.execute(delete(League).where(League.id == league_id))
        db.session.commit()
    assert _restore(client, backup, season["director"]).status_code == 201
    restored = _everything(app)
    monkeypatch.setattr(backend.startrek.league_backups, "_exists", lambda league_id: False)
    monkeypatch.setattr(backend.startrek.league_backups, "_taken", lambda tokens: (set(), set()))
    r = _restore(client, backup, season["director"])
    assert (r.status_code, r.get_json()["error"]) == (409, "league-exists"), r.get_json()
    assert "at the same time" in r.get_json()["message"]
    assert _everything(app) == restored


def _forged_league(backup: dict, league_id: str, secret: str) -> dict:
    """A league backup of one's own making: another id, a director token of one's own."""
    forged = copy.deepcopy(backup)
    forged["league_id"] = league_id
    forged["tokens"] = [
        {
            "id": "forgedtoken",
            "token_hash": hash_secret(secret),
            "role": "director",
            "label": "",
            "created_at": 1,
            "revoked_at": None,
            "expires_at": None,
            "replaced_by": None,
        }
    ]
    return forged


def test_a_backup_naming_another_leagues_real_proof_does_not_count_its_events(client, season):
    """The proofs of a real league's backup (token ids under the old rule) copied into a league of one's own."""
    backup = _backup(client, season["league"]["league_id"], season["director"])
    secret = "tl_" + "copier" * 8
    assert _restore(client, _forged_league(backup, "copiedproofs", secret), secret).status_code == 201
    table = table_of(client, {"league_id": "copiedproofs"})
    assert [e["present"] for e in table["events"]] == [False, False]
    assert all("no organizer of the event made it a league event" in p["problem"] for p in table["problems"])
    assert table["table"]["season"] == []
    # The organizer's own token ids, the proof the old rule took, do not count either.
    with client.application.app_context():
        organizer_ids = [
            db.session.scalar(select(Token.id).where(Token.event_id == e["event_id"], Token.role == "organizer"))
            for e in season["events"]
        ]
    forged = _forged_league(backup, "tokenproofs", secret + "x")
    for row, token_id in zip(forged["league_events"], organizer_ids, strict=True):
        row["proved_by"] = token_id
    forged["tokens"][0]["id"] = "forgedtoken2"
    assert _restore(client, forged, secret + "x").status_code == 201
    assert [e["present"] for e in table_of(client, {"league_id": "tokenproofs"})["events"]] == [False, False]
    # The event's organizer consenting makes it count: adding it again proves it.
    league = {"league_id": "tokenproofs", "token": secret + "x"}
    assert add(client, league, season["events"][0], "regular").status_code == 201
    assert [e["present"] for e in table_of(client, league)["events"]] == [True, False]
    assert add(client, league, season["events"][0], "regular").status_code == 409


def test_a_made_up_backup_cannot_put_someone_elses_events_in_its_league(client, season):
    """Anyone can make a backup with a director token of their own; the events a league names count only where an
    organizer token of the event proved them (an event's own backup brings that token back on a rebuild)."""
    backup = _backup(client, season["league"]["league_id"], season["director"])
    forged = copy.deepcopy(backup)
    forged["league_id"] = "forgedleague"
    secret = "tl_" + "forger" * 8
    forged["tokens"] = [
        {
            "id": "forgedtoken",
            "token_hash": hash_secret(secret),
            "role": "director",
            "label": "",
            "created_at": 1,
            "revoked_at": None,
            "expires_at": None,
            "replaced_by": None,
        }
    ]
    for row in forged["league_events"]:
        row["proved_by"] = "madeupproof"
    assert _restore(client, forged, secret).status_code == 201
    table = table_of(client, {"league_id": "forgedleague"})
    assert [e["present"] for e in table["events"]] == [False, False]
    assert [p["event_id"] for p in table["problems"]] == [e["event_id"] for e in season["events"]]
    assert all("no organizer of the event made it a league event" in p["problem"] for p in table["problems"])
    assert table["table"]["season"] == []
    # The league the organizers joined still counts both.
    real = table_of(client, season["league"])
    assert real["problems"] == [] and real["table"]["season"]

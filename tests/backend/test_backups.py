"""A backup restores the event under its own id on a rebuilt server, and its tablets and phones carry on."""

from __future__ import annotations

import copy
import hashlib
import json

from sqlalchemy import func, select

from backend import auth, create_app
from backend.auth import hash_code
from backend.db import db
from backend.models import Person
from tests.backend.conftest import dispose, fresh_postgres_database
from tests.backend.helpers import PLAYERS, Api, bearer, pair_ops, register_ops, report, timeless
from tests.backend.test_people import link, person, trek_event


def _rebuilt_server(database_url, tmp_path, secret_key=None):
    """An empty server on a new database of the same kind (the old machine is gone; its configuration,
    TOPCUT_SECRET_KEY included, is set up again)."""
    if database_url.startswith("sqlite"):
        url = f"sqlite:///{tmp_path / 'rebuilt.sqlite'}"
    else:
        url = fresh_postgres_database(database_url.rsplit("/", 1)[0] + "/postgres")
    config = {"TESTING": True, "INSTANCE_PATH": tmp_path / "rebuilt", "SQLALCHEMY_DATABASE_URI": url}
    if secret_key:
        config["SECRET_KEY"] = secret_key
    return create_app(config)


def _event(api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(eid, judge, "tab-1", [report(1, 1, ["win", "loss"])])
    refused = api.push(eid, judge, "tab-1", [report(9, 1, ["win", "loss"])], first_seq=2).get_json()
    assert refused["results"][0]["status"] == "rejected"
    player = api.redeem(api.claims(eid, org)[PLAYERS[2]["id"]])["token"]
    return eid, org, judge, player


def test_a_restored_event_carries_on_for_every_device(app, api, database_url, tmp_path):
    eid, org, judge, player = _event(api)
    r = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org))
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    backup = r.get_json()
    assert backup["format"] == "topcut-backup/1" and backup["event_id"] == eid
    before_state, before_pull = api.state(eid, org), timeless(api.pull(eid, org))
    player_pull = timeless(api.pull(eid, player))

    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        r = new.client.post("/api/events/restore", json=backup, headers=bearer(org))
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["event_id"] == eid and r.get_json()["cursor"] == before_pull["cursor"]
        # The same log, the same state, for the same tokens.
        assert new.state(eid, org) == before_state
        assert timeless(new.pull(eid, org)) == before_pull
        assert timeless(new.pull(eid, player)) == player_pull
        # A push whose answer was lost before the crash gets the same verdicts again ...
        again = new.push(eid, judge, "tab-1", [report(1, 1, ["win", "loss"]), report(9, 1, ["win", "loss"])]).get_json()
        assert [v["status"] for v in again["results"]] == ["accepted", "rejected"]
        # ... and the tablet goes on from its next sequence number; the phone too.
        new.push_ok(eid, judge, "tab-1", [report(1, 2, ["loss", "win"])], first_seq=3)
        assert new.pull(eid, player, cursor=player_pull["cursor"])["cursor"] > player_pull["cursor"]
    finally:
        dispose(rebuilt)


def test_a_backup_holds_codes_keyed_by_the_servers_secret_and_old_unkeyed_ones_still_redeem(
    app, api, database_url, tmp_path
):
    """A leaked backup gives no plain sha256 of a 60-bit code to guess against offline."""
    eid, org, _judge, _player = _event(api)
    codes = {api.invite(eid, org, "scorekeeper")["code"], *api.claims(eid, org).values()}
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    stored = {row["code_hash"] for row in backup["invitations"]}
    assert not stored & {hashlib.sha256(code.encode()).hexdigest() for code in codes}
    with app.app_context():
        assert {hash_code(code) for code in codes} <= stored
    # A backup from before codes were keyed: plain sha256 hashes restore and redeem.
    old = copy.deepcopy(backup)
    with app.app_context():
        by_keyed = {hash_code(code): code for code in codes}
    for row in old["invitations"]:
        if row["code_hash"] in by_keyed:
            row["code_hash"] = hashlib.sha256(by_keyed[row["code_hash"]].encode()).hexdigest()
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        assert new.client.post("/api/events/restore", json=old, headers=bearer(org)).status_code == 201
        for code in codes:
            assert new.client.post("/api/invitations/redeem", json={"code": code}).status_code == 201
    finally:
        dispose(rebuilt)
    # A server with another key cannot use the keyed hashes: the codes are unknown there, never someone else's.
    other = _rebuilt_server(database_url, tmp_path / "other", "another-key-" + "y" * 32)
    try:
        client = other.test_client()
        assert client.post("/api/events/restore", json=backup, headers=bearer(org)).status_code == 201
        r = client.post("/api/invitations/redeem", json={"code": sorted(codes)[0]})
        assert (r.status_code, r.get_json()["error"]) == (404, "unknown-code")
    finally:
        dispose(other)


def test_a_restore_is_refused_without_an_organizer_token_or_over_an_existing_event(app, api):
    eid, org, judge, _ = _event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    assert api.client.get(f"/api/events/{eid}/backup", headers=bearer(judge)).status_code == 403
    r = api.client.post("/api/events/restore", json=backup)
    assert r.status_code == 401 and r.get_json()["error"] == "missing-token"
    r = api.client.post("/api/events/restore", json=backup, headers=bearer(judge))
    assert r.status_code == 403 and "organizer" in r.get_json()["message"]
    r = api.client.post("/api/events/restore", json=backup, headers=bearer(org))
    assert r.status_code == 409 and r.get_json()["error"] == "event-exists"


def test_a_damaged_backup_is_refused_naming_the_problem_and_writes_nothing(app, api, database_url, tmp_path):
    eid, org, _, _ = _event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    rebuilt = _rebuilt_server(database_url, tmp_path)
    try:
        new = Api(rebuilt.test_client())
        gap = copy.deepcopy(backup)
        gap["operations"] = [row for row in gap["operations"] if row["server_seq"] != 3]
        wrong_type = copy.deepcopy(backup)
        wrong_type["devices"][0]["last_seq"] = "7"
        bad_op = copy.deepcopy(backup)
        row = next(r for r in bad_op["operations"] if r["server_seq"] == 2)
        row["op"] = json.dumps({**json.loads(row["op"]), "type": "timer.pause"})
        for damaged, message in (
            (gap, "operations: server_seq 3 is missing"),
            (wrong_type, "devices[0].last_seq: expected int, got str"),
            (bad_op, "operations: server_seq 2 does not apply"),
            ({**backup, "format": "topcut-event/1"}, "format: expected 'topcut-backup/1'"),
        ):
            r = new.client.post("/api/events/restore", json=damaged, headers=bearer(org))
            assert r.status_code == 422 and r.get_json()["error"] == "invalid-backup", r.get_json()
            assert r.get_json()["message"].startswith(message), r.get_json()
            assert new.client.get(f"/api/events/{eid}/state", headers=bearer(org)).status_code == 404
    finally:
        dispose(rebuilt)


def test_an_event_id_that_starts_with_a_dash_is_backed_up_after_double_dash(app, api, tmp_path):
    # Ids drawn until 2026-11-26 could start with '-' (one in 64); a device may also choose one.
    eid, token = "-Zq4v9xk2mnpr7st", "tc_" + "a" * 43
    api.create(event_id=eid, token=token)
    path = tmp_path / "event.backup.json"
    runner = app.test_cli_runner()
    refused = runner.invoke(args=["topcut-backup", eid, "-o", str(path)])
    assert refused.exit_code == 2 and not path.exists()
    assert f"goes after '--': topcut-backup [OPTIONS] -- {eid}" in refused.output, refused.output
    done = runner.invoke(args=["topcut-backup", "-o", str(path), "--", eid])
    assert done.exit_code == 0, done.output
    assert json.loads(path.read_text(encoding="utf-8"))["event_id"] == eid


def test_new_ids_never_start_with_a_dash(monkeypatch):
    drawn = iter(["-abc", "--de", "fg-h"])
    monkeypatch.setattr(auth.secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert auth.new_id(3) == "fg-h"


def test_the_server_commands_back_up_and_restore(app, api, database_url, tmp_path):
    eid, org, _, _ = _event(api)
    path = tmp_path / "event.backup.json"
    result = app.test_cli_runner().invoke(args=["topcut-backup", eid, "--output", str(path)])
    assert result.exit_code == 0, result.output
    before = timeless(api.pull(eid, org))
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        result = rebuilt.test_cli_runner().invoke(args=["topcut-restore", str(path)])
        assert result.exit_code == 0 and f"restored event {eid}" in result.output, result.output
        assert timeless(Api(rebuilt.test_client()).pull(eid, org)) == before
        again = rebuilt.test_cli_runner().invoke(args=["topcut-restore", str(path)])
        assert again.exit_code == 1 and "already exists" in again.output
    finally:
        dispose(rebuilt)


# ------------------------------------------------------------------ players across events: links and people


def _links(api, eid, token):
    r = api.client.get(f"/api/events/{eid}/people", headers=bearer(token))
    assert r.status_code == 200, r.get_json()
    return {row["player"]: row["person"] for row in r.get_json()["links"]}


def _people(app):
    with app.app_context():
        return {p.id: p for p in db.session.execute(select(Person)).scalars()}


def _restore(api, backup, token):
    r = api.client.post("/api/events/restore", json=backup, headers=bearer(token))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_a_restored_event_keeps_its_roster_links_history_and_ratings(app, api, database_url, tmp_path):
    players = [{"id": "k", "name": "Kirk"}, {"id": "s", "name": "Spock"}]
    one, org1 = trek_event(api, "Regional I", "2026-03-01", players, [["full-win", "full-loss"]])
    two, org2 = trek_event(api, "Regional II", "2026-04-01", players, [["full-win", "full-loss"]])
    kirk = person(api, org1, name="James Kirk", trekcc_id="4711", trekcc_handle="captain", other_ids={"decipher": "K1"})
    spock = person(api, org1, name="Spock")
    for eid, org in ((one, org1), (two, org2)):  # the second: the organizer of the first vouches
        assert link(api, eid, org, "k", kirk["id"], proof_tokens=[org1]).status_code == 200
        assert link(api, eid, org, "s", spock["id"], proof_tokens=[org1]).status_code == 200
    before = api.client.get(f"/api/people/{kirk['id']}", headers=bearer(org2)).get_json()
    assert [e["name"] for e in before["events"]] == ["Regional I", "Regional II"]
    ratings = api.client.get("/api/ratings?game=startrek-1e").get_json()
    backups = {
        eid: api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
        for eid, org in ((one, org1), (two, org2))
    }
    backup = backups[two]
    assert [(row["player_id"], row["person_id"]) for row in backup["roster_links"]] == [
        ("k", kirk["id"]),
        ("s", spock["id"]),
    ]
    assert all(isinstance(row["created_at"], int) for row in backup["roster_links"])
    assert backup["people"][0] == {**kirk, "created_at": backup["people"][0]["created_at"]}

    # Deleted, then restored on the same server: the people are the ones it still has.
    r = api.client.delete(f"/api/events/{two}", json={"confirm": "Regional II"}, headers=bearer(org2))
    assert r.status_code == 200 and r.get_json()["deleted"]["roster_links"] == 2
    lost = api.client.get(f"/api/people/{kirk['id']}", headers=bearer(org1)).get_json()
    assert [e["name"] for e in lost["events"]] == ["Regional I"]
    answer = _restore(api, backup, org2)
    assert (answer["links"], answer["people_created"], answer["notes"]) == (2, 0, [])
    assert {k: v["id"] for k, v in _links(api, two, org2).items()} == {"k": kirk["id"], "s": spock["id"]}
    assert api.client.get(f"/api/people/{kirk['id']}", headers=bearer(org2)).get_json() == before
    assert api.client.get("/api/ratings?game=startrek-1e").get_json() == ratings
    assert len(_people(app)) == 2

    # On a rebuilt server, each backup in turn: the first creates the people, the next finds them.
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        first = _restore(new, backups[one], org1)
        assert (first["links"], first["people_created"]) == (2, 2)
        result = rebuilt.test_cli_runner().invoke(args=["topcut-restore", str(_write(tmp_path, backups[two]))])
        assert result.exit_code == 0 and "2 roster link(s), 0 person(s) created" in result.output, result.output
        assert new.client.get(f"/api/people/{kirk['id']}", headers=bearer(org2)).get_json() == before
        assert new.client.get("/api/ratings?game=startrek-1e").get_json() == ratings
        people = _people(rebuilt)
        assert set(people) == {kirk["id"], spock["id"]}
        assert people[kirk["id"]].created_at == backup["people"][0]["created_at"]
        found = new.client.get("/api/people?q=4711", headers=bearer(org1)).get_json()["people"]
        assert found == [kirk]
    finally:
        dispose(rebuilt)


def _write(tmp_path, backup):
    path = tmp_path / f"{backup['event_id']}.backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    return path


def _linked_event(api):
    """A Pokémon event whose p1..p5 are linked to five people with various game ids."""
    created = api.create(name="Linked Cup")
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    people = [
        person(api, org, name="James Kirk", trekcc_id="4711"),
        person(api, org, name="Spock", trekcc_id="5000"),
        person(api, org, name="Leonard McCoy", other_ids={"decipher": "bones"}),
        person(api, org, name="Nyota Uhura", pokemon_id="77", birth_year=1990, trekcc_id="7000"),
        person(api, org, name="Hikaru Sulu"),
    ]
    for i, someone in enumerate(people, start=1):
        assert link(api, eid, org, f"p{i}", someone["id"]).status_code == 200
    return eid, org, people


def test_a_restore_reuses_the_people_this_server_has_and_never_overwrites_them(app, api, database_url, tmp_path):
    eid, org, (kirk, spock, mccoy, uhura, sulu) = _linked_event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        with rebuilt.app_context():
            db.session.add_all(
                [
                    # Kirk's id, with other data; and someone else holding the backup's Kirk's trekcc.org id
                    Person(id=kirk["id"], name="Jim Kirk", name_key="jim kirk"),
                    Person(id="other-kirk", name="Other Kirk", name_key="other kirk", trekcc_id="4711"),
                    # Spock here under another id, with his trekcc.org id
                    Person(id="spock-here", name="Mr Spock", name_key="mr spock", trekcc_id="5000"),
                    # Uhura's Play! Pokémon ID, with another birth year
                    Person(id="someone", name="Someone", name_key="someone", pokemon_id="77", birth_year=1991),
                    # Sulu's id merged here into another person
                    Person(id="sulu-here", name="Hikaru Sulu", name_key="hikaru sulu"),
                    Person(id=sulu["id"], name="Sulu", name_key="sulu", merged_into="sulu-here"),
                ]
            )
            db.session.commit()
        new = Api(rebuilt.test_client())
        answer = _restore(new, backup, org)
        assert (answer["links"], answer["people_created"]) == (5, 2)
        assert len(answer["notes"]) == 1 and "without pokemon_id 77" in answer["notes"][0]
        assert "someone" in answer["notes"][0]
        links = {k: v["id"] for k, v in _links(new, eid, org).items()}
        assert links == {"p1": kirk["id"], "p2": "spock-here", "p3": mccoy["id"], "p4": uhura["id"], "p5": "sulu-here"}
        people = _people(rebuilt)
        assert len(people) == 8  # six that were here, McCoy and Uhura created
        assert (people[kirk["id"]].name, people[kirk["id"]].trekcc_id) == ("Jim Kirk", None)  # not overwritten
        assert people["other-kirk"].trekcc_id == "4711" and people["spock-here"].name == "Mr Spock"
        assert (people[uhura["id"]].pokemon_id, people[uhura["id"]].birth_year, people[uhura["id"]].trekcc_id) == (
            None,
            None,
            "7000",
        )
        assert json.loads(people[mccoy["id"]].other_ids) == {"decipher": "bones"}
        history = new.client.get(f"/api/people/{kirk['id']}", headers=bearer(org)).get_json()
        assert [(e["event_id"], e["player"]) for e in history["events"]] == [(eid, "p1")]
    finally:
        dispose(rebuilt)


def test_a_backup_without_links_or_people_still_restores(app, api, database_url, tmp_path):
    eid, org, _ = _linked_event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    older = {k: v for k, v in backup.items() if k not in ("roster_links", "people")}
    before = api.state(eid, org)
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        answer = _restore(new, older, org)
        assert (answer["links"], answer["people_created"], answer["notes"]) == (0, 0, [])
        assert new.state(eid, org) == before and _links(new, eid, org) == {} and _people(rebuilt) == {}
    finally:
        dispose(rebuilt)


def _damaged(backup, change):
    damaged = copy.deepcopy(backup)
    change(damaged)
    return damaged


def test_a_damaged_links_or_people_section_is_refused_naming_the_field_and_writes_nothing(
    app, api, database_url, tmp_path
):
    eid, org, (kirk, *_) = _linked_event(api)
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()

    def put(section, i, **fields):
        return lambda b: b[section][i].update(fields)

    def drop(section, i, key):
        return lambda b: b[section][i].pop(key)

    cases = [
        (lambda b: b.update(roster_links={}), "roster_links: expected a list"),
        (lambda b: b["roster_links"].__setitem__(0, "p1"), "roster_links[0]: expected an object"),
        (drop("roster_links", 0, "person_id"), "roster_links[0].person_id: missing"),
        (put("roster_links", 0, player_id=7), "roster_links[0].player_id: expected str, got int"),
        (put("roster_links", 0, player_id="nobody"), "roster_links[0].player_id: there is no player 'nobody'"),
        (put("roster_links", 1, player_id="p1"), "roster_links[1].player_id: player 'p1' is already linked"),
        (put("roster_links", 0, person_id="ghost"), "roster_links[0].person_id: 'ghost' is not a person"),
        (put("roster_links", 0, created_at="soon"), "roster_links[0].created_at: expected int, got str"),
        (put("roster_links", 0, person="x"), "roster_links[0].person: not a field of a backup's roster_links"),
        (lambda b: b.update(people="Kirk"), "people: expected a list"),
        (drop("people", 0, "name"), "people[0].name: missing"),
        (put("people", 0, name="   "), "people[0].name: must not be blank"),
        (put("people", 0, id="not an id!"), "people[0].id: a person id is"),
        (put("people", 0, birth_year=1800), "people[0].birth_year:"),
        (put("people", 0, pokemon_id="12 34"), "people[0].pokemon_id: a Play! Pokémon ID is"),
        (put("people", 0, trekcc_id=4711), "people[0].trekcc_id:"),
        (put("people", 0, other_ids={"Bad Key": "1"}), "people[0].other_ids"),
        (put("people", 0, created_at=1.5), "people[0].created_at: expected int, got float"),
        (put("people", 0, merged_into="x"), "people[0].merged_into: not a field of a backup's people"),
        (lambda b: b["people"].append({**b["people"][0]}), "people[5].id: person '" + kirk["id"] + "' is already"),
        (
            lambda b: b["people"].append({"id": "stranger", "name": "Stranger"}),
            "people[5].id: no roster link names person 'stranger'",
        ),
    ]
    rebuilt = _rebuilt_server(database_url, tmp_path)
    try:
        with rebuilt.app_context():
            db.session.add(Person(id=kirk["id"], name="Jim Kirk", name_key="jim kirk"))
            db.session.commit()
        new = Api(rebuilt.test_client())
        for change, message in cases:
            r = new.client.post("/api/events/restore", json=_damaged(backup, change), headers=bearer(org))
            assert r.status_code == 422 and r.get_json()["error"] == "invalid-backup", (message, r.get_json())
            assert r.get_json()["message"].startswith(message), (message, r.get_json())
        assert new.client.get(f"/api/events/{eid}/state", headers=bearer(org)).status_code == 404
        people = _people(rebuilt)
        assert list(people) == [kirk["id"]] and people[kirk["id"]].name == "Jim Kirk"
        path = _write(tmp_path, _damaged(backup, put("people", 0, birth_year=1800)))
        result = rebuilt.test_cli_runner().invoke(args=["topcut-restore", str(path)])
        assert result.exit_code == 1 and "people[0].birth_year:" in result.output
        with rebuilt.app_context():
            assert db.session.scalar(select(func.count()).select_from(Person)) == 1
    finally:
        dispose(rebuilt)


def test_a_backup_from_before_renames_were_kept_restores_under_the_name_the_log_gives(app, api, database_url, tmp_path):
    created = api.create(ruleset="custom", name="Spring Cup")
    eid, org = created["event_id"], created["token"]
    api.push_ok(
        eid, org, "desk", [{"type": "event.configure", "payload": {"name": "Summer Cup", "ruleset": "doomtown"}}]
    )
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    backup["event"].update(name="Spring Cup", ruleset="custom")  # what a server of before wrote: the creation's
    rebuilt = _rebuilt_server(database_url, tmp_path, app.config["SECRET_KEY"])
    try:
        new = Api(rebuilt.test_client())
        _restore(new, backup, org)
        summary = new.client.get(f"/api/events/{eid}", headers=bearer(org)).get_json()
        assert (summary["name"], summary["ruleset"]) == ("Summer Cup", "doomtown")
    finally:
        dispose(rebuilt)

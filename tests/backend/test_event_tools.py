"""Organizer tools: deleting an event (organizer only, typed confirmation, nothing left, others untouched),
and the staff device list (the invitation's name on the redeemed token, this device, last seen)."""

from __future__ import annotations

from sqlalchemy import func, select

from backend.db import db
from backend.events import EVENT_TABLES
from backend.models import Event, PushOutbox, PushSubscription, now_ms
from tests.backend.helpers import PLAYERS, bearer, pair_ops, register_ops, report


def _event(api, name="Spring Cup"):
    created = api.create(name=name)
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops() + pair_ops(1))
    judge = api.staff_token(eid, org, "judge")
    api.push_ok(eid, judge, "tab-1", [report(1, 1, ["win", "loss"])])
    player = api.redeem(api.claims(eid, org)[PLAYERS[2]["id"]])["token"]
    person = api.client.post("/api/people", json={"name": f"Ada of {name}"}, headers=bearer(org)).get_json()
    r = api.client.put(f"/api/events/{eid}/players/p1/person", json={"person": person["id"]}, headers=bearer(org))
    assert r.status_code == 200, r.get_json()  # a roster link (docs/people.md): deleted with the event
    return eid, org, judge, player


def _add_push_rows(app, eid, token_id):
    """A push subscription and a queued notification for the event, as the push code writes them."""
    with app.app_context():
        now = now_ms()
        db.session.add(
            PushSubscription(
                id=f"s-{eid[:8]}",
                event_id=eid,
                token_id=token_id,
                role="player",
                player="p3",
                endpoint=f"https://push.example/{eid}",
                endpoint_hash=eid.ljust(64, "0")[:64],
                p256dh="k",
                auth="a",
            )
        )
        db.session.add(
            PushOutbox(
                key=f"k-{eid}",
                event_id=eid,
                subscription_id=f"s-{eid[:8]}",
                kind="pairings",
                payload="{}",
                ttl=60,
                urgency="high",
                next_attempt_at=now,
                expires_at=now + 60000,
            )
        )
        db.session.commit()


def _rows(app, eid):
    with app.app_context():
        counts = {
            table: db.session.execute(select(func.count()).select_from(model).where(model.event_id == eid)).scalar_one()
            for table, model in EVENT_TABLES
        }
        counts["events"] = db.session.execute(
            select(func.count()).select_from(Event).where(Event.id == eid)
        ).scalar_one()
        return counts


def test_only_the_organizer_deletes_and_only_after_typing_the_name_or_id(app, api):
    eid, org, judge, player = _event(api)
    other = api.create(name="Other Cup")
    url = f"/api/events/{eid}"
    for token, status, code in (
        (None, 401, "missing-token"),
        ("tc_nonsense", 401, "invalid-token"),
        (judge, 403, "forbidden"),
        (player, 403, "forbidden"),
        (other["token"], 403, "wrong-event"),
    ):
        r = api.client.delete(url, json={"confirm": eid}, headers=bearer(token) if token else {})
        assert r.status_code == status and r.get_json()["error"] == code, r.get_json()
    r = api.client.delete(url, headers=bearer(org))
    assert r.status_code == 422 and r.get_json()["error"] == "confirm-required"
    assert "confirm" in r.get_json()["message"] and "nothing was deleted" in r.get_json()["message"]
    r = api.client.delete(url, json={}, headers=bearer(org))
    assert r.status_code == 422 and r.get_json()["message"].startswith("confirm: required")
    r = api.client.delete(url, json={"confirm": "Spring"}, headers=bearer(org))
    body = r.get_json()
    assert r.status_code == 422 and body["error"] == "confirm-mismatch"
    assert "'Spring'" in body["message"] and "Spring Cup" in body["message"] and eid in body["message"]
    assert api.state(eid, org)["name"] == "Spring Cup"  # nothing happened
    assert _rows(app, eid)["operations"] > 0


def test_a_deleted_event_is_gone_for_everyone_and_the_others_are_untouched(app, api):
    eid, org, judge, player = _event(api)
    keep, keep_org, keep_judge, keep_player = _event(api, name="Keep Cup")
    with app.app_context():
        from backend.models import Token

        token_id = db.session.execute(select(Token.id).where(Token.event_id == eid, Token.role == "player")).scalar()
    _add_push_rows(app, eid, token_id)
    _add_push_rows(app, keep, "t")
    assert api.client.post(f"/api/events/{eid}/transfer", headers=bearer(player)).status_code == 201
    assert api.client.post(f"/api/events/{keep}/transfer", headers=bearer(keep_player)).status_code == 201
    before_keep = (_rows(app, keep), api.state(keep, keep_org), api.pull(keep, keep_player)["ops"])
    assert all(n > 0 for n in _rows(app, eid).values())

    r = api.client.delete(f"/api/events/{eid}", json={"confirm": " spring  cup "}, headers=bearer(org))
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["event_id"] == eid and body["name"] == "Spring Cup" and body["deleted"]["operations"] > 0
    assert set(body["deleted"]) == {table for table, _ in EVENT_TABLES}
    assert all(n == 0 for n in _rows(app, eid).values()), _rows(app, eid)

    for token in (org, judge, player, None):
        headers = bearer(token) if token else {}
        for method, path in (
            ("get", ""),
            ("get", "/state"),
            ("get", "/pull?cursor=0"),
            ("get", "/public"),
            ("get", "/tokens"),
            ("delete", ""),
        ):
            r = getattr(api.client, method)(
                f"/api/events/{eid}{path}",
                headers=headers,
                **({"json": {"confirm": eid}} if method == "delete" else {}),
            )
            assert r.status_code == 404 and r.get_json()["error"] == "unknown-event", (path, r.get_json())
    r = api.push(eid, judge, "tab-1", [report(1, 2, ["win", "loss"])], first_seq=2)
    assert r.status_code == 404

    assert (_rows(app, keep), api.state(keep, keep_org), api.pull(keep, keep_player)["ops"]) == before_keep
    api.push_ok(keep, keep_judge, "tab-1", [report(1, 2, ["loss", "win"])], first_seq=2)


def test_the_event_id_confirms_too(app, api):
    created = api.create(name="")
    r = api.client.delete(
        f"/api/events/{created['event_id']}", json={"confirm": created["event_id"]}, headers=bearer(created["token"])
    )
    assert r.status_code == 200 and _rows(app, created["event_id"])["events"] == 0


def test_staff_devices_are_listed_by_the_invitations_names(app, api):
    created = api.create(name="Names Cup")
    eid, org = created["event_id"], created["token"]
    r = api.client.post(
        f"/api/events/{eid}/invitations", json={"role": "judge", "label": "  Judge Ada "}, headers=bearer(org)
    )
    assert r.status_code == 201 and r.get_json()["label"] == "Judge Ada"
    ada = api.client.post("/api/invitations/redeem", json={"code": r.get_json()["code"], "label": "tablet"}).get_json()
    unnamed = api.invite(eid, org, "scorekeeper")
    desk = api.client.post("/api/invitations/redeem", json={"code": unnamed["code"], "label": "tablet"}).get_json()
    api.push_ok(eid, org, "desk", register_ops())
    api.redeem(api.claims(eid, org)["p1"])

    everything = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(org)).get_json()["tokens"]
    assert {t["role"] for t in everything} == {"organizer", "judge", "scorekeeper", "player"}
    r = api.client.get(f"/api/events/{eid}/tokens?staff=true", headers=bearer(org))
    assert r.status_code == 200, r.get_json()
    staff = {t["token_id"]: t for t in r.get_json()["tokens"]}
    assert [t["role"] for t in staff.values()] == ["organizer", "judge", "scorekeeper"]
    assert staff[ada["token_id"]]["label"] == "Judge Ada"  # the invitation's name, not the device's
    assert staff[desk["token_id"]]["label"] == "tablet"  # no name on the invitation: the device's own
    assert [t["this_device"] for t in staff.values()] == [True, False, False]
    assert staff[ada["token_id"]]["last_seen_at"] is None

    # A sync is "last seen"; a rotated token keeps the name and only the new one is listed.
    before = now_ms()
    api.pull(eid, ada["token"])
    rotated = api.client.post(f"/api/events/{eid}/tokens/rotate", headers=bearer(ada["token"])).get_json()
    staff = {
        t["token_id"]: t
        for t in api.client.get(f"/api/events/{eid}/tokens?staff=true", headers=bearer(org)).get_json()["tokens"]
    }
    assert ada["token_id"] not in staff and staff[rotated["token_id"]]["label"] == "Judge Ada"
    assert staff[rotated["token_id"]]["last_seen_at"] >= before

    r = api.client.get(f"/api/events/{eid}/tokens?staff=maybe", headers=bearer(org))
    assert r.status_code == 422 and r.get_json()["message"].startswith("staff:")
    judge = api.client.get(f"/api/events/{eid}/tokens", headers=bearer(rotated["token"]))
    assert judge.status_code == 403

    # Revoked: the list says so and the device can sync no more.
    r = api.client.delete(f"/api/events/{eid}/tokens/{rotated['token_id']}", headers=bearer(org))
    assert r.status_code == 200
    staff = {
        t["token_id"]: t
        for t in api.client.get(f"/api/events/{eid}/tokens?staff=true", headers=bearer(org)).get_json()["tokens"]
    }
    assert staff[rotated["token_id"]]["revoked"] is True
    assert api.client.get(f"/api/events/{eid}/pull?cursor=0", headers=bearer(rotated["token"])).status_code == 401


def test_last_seen_is_written_at_most_once_a_minute_and_never_for_players(app, api):
    eid, org, judge, player = _event(api)
    api.pull(eid, judge)
    api.pull(eid, player)
    with app.app_context():
        from backend.models import Token

        seen = dict(db.session.execute(select(Token.role, Token.last_seen_at).where(Token.event_id == eid)).all())
    assert seen["judge"] is not None and seen["player"] is None
    api.pull(eid, judge)
    with app.app_context():
        again = db.session.execute(
            select(Token.last_seen_at).where(Token.event_id == eid, Token.role == "judge")
        ).scalar()
    assert again == seen["judge"]


def test_a_backup_keeps_the_names_and_an_older_backup_still_restores(app, api):
    created = api.create(name="Backup Cup")
    eid, org = created["event_id"], created["token"]
    r = api.client.post(
        f"/api/events/{eid}/invitations", json={"role": "judge", "label": "Judge Bo"}, headers=bearer(org)
    )
    backup = api.client.get(f"/api/events/{eid}/backup", headers=bearer(org)).get_json()
    assert backup["invitations"][0]["label"] == "Judge Bo"
    for row in backup["invitations"]:
        del row["label"]  # as a backup written before invitations had names
    for row in backup["tokens"]:
        row.pop("last_seen_at", None)
    assert api.client.delete(f"/api/events/{eid}", json={"confirm": eid}, headers=bearer(org)).status_code == 200
    r = api.client.post("/api/events/restore", json=backup, headers=bearer(org))
    assert r.status_code == 201, r.get_json()
    redeemed = api.redeem(api.invite(eid, org, "judge")["code"])
    assert redeemed["event_id"] == eid


def test_a_renamed_event_and_a_changed_ruleset_show_everywhere_the_server_names_the_event(app, api):
    created = api.create(ruleset="custom", name="Spring Cup")
    eid, org = created["event_id"], created["token"]
    configure = {"type": "event.configure", "payload": {"name": "Deep Space Nine Open", "ruleset": "startrek-2e"}}
    api.push_ok(eid, org, "desk", [configure])
    summary = api.client.get(f"/api/events/{eid}", headers=bearer(org)).get_json()
    assert (summary["name"], summary["ruleset"]) == ("Deep Space Nine Open", "startrek-2e")
    with app.app_context():
        row = db.session.get(Event, eid)
        assert (row.name, row.ruleset) == ("Deep Space Nine Open", "startrek-2e")
    # A refused change leaves the row as it was.
    api.push(eid, org, "desk", [{"type": "event.configure", "payload": {"ruleset": "nonesuch"}}], first_seq=2)
    summary = api.client.get(f"/api/events/{eid}", headers=bearer(org)).get_json()
    assert (summary["name"], summary["ruleset"]) == ("Deep Space Nine Open", "startrek-2e")
    # Deleting asks for the name the event has now.
    r = api.client.delete(f"/api/events/{eid}", json={"confirm": "Spring Cup"}, headers=bearer(org))
    assert r.status_code == 422 and "Deep Space Nine Open" in r.get_json()["message"]
    r = api.client.delete(f"/api/events/{eid}", json={"confirm": "deep space nine open"}, headers=bearer(org))
    assert r.status_code == 200 and _rows(app, eid)["events"] == 0

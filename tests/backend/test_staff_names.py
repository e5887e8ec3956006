"""Staff devices by the names the organizer gave their invitations: in the pull, and on the invitations list."""

from __future__ import annotations

from tests.backend.helpers import bearer, register_ops


def _invite(api, eid: str, org: str, role: str, label: str) -> dict:
    r = api.client.post(f"/api/events/{eid}/invitations", json={"role": role, "label": label}, headers=bearer(org))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_a_staff_pull_names_each_staff_device_by_its_invitation_and_a_players_names_none(api):
    created = api.create("doomtown")
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    judge = api.redeem(_invite(api, eid, org, "judge", "Floor Judge Bo")["code"])["token"]
    api.push_ok(eid, judge, "judge-ju3v9esnrd", [{"type": "player.check_in", "payload": {"player": "p1"}}])
    assert api.pull(eid, org)["staff"]["judge-ju3v9esnrd"] == "Floor Judge Bo"
    player = api.redeem(api.claims(eid, org)["p1"])["token"]
    assert api.pull(eid, player)["staff"] == {}


def test_the_invitations_list_marks_a_used_invitation_with_when_and_whose_device(api):
    created = api.create("doomtown")
    eid, org = created["event_id"], created["token"]
    used = _invite(api, eid, org, "judge", "Floor Judge Bo")
    waiting = _invite(api, eid, org, "scorekeeper", "Desk Two")
    api.redeem(used["code"])
    r = api.client.get(f"/api/events/{eid}/invitations", headers=bearer(org))
    assert r.status_code == 200, r.get_json()
    rows = {row["invitation_id"]: row for row in r.get_json()["invitations"]}
    assert rows[used["invitation_id"]]["used_by"] == "Floor Judge Bo"
    assert isinstance(rows[used["invitation_id"]]["used_at"], int)
    assert (rows[waiting["invitation_id"]]["used_at"], rows[waiting["invitation_id"]]["used_by"]) == (None, None)
    judge = api.redeem(_invite(api, eid, org, "judge", "Other")["code"])["token"]
    assert api.client.get(f"/api/events/{eid}/invitations", headers=bearer(judge)).status_code == 403

"""Every writer of an event's push subscriptions or tokens moves its audience version (backend/audience.py).

Each app server keeps the event's subscriptions grouped and trusts its copy while ``events.audience_version``
holds: a writer that forgot to bump it would leave the other servers addressing phones as they were.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sqlalchemy import select

from backend.db import db
from backend.models import Event, PushSubscription, Token
from tests.backend.helpers import Api, bearer
from tests.backend.test_push_delivery import World, fake, push_app, round1  # noqa: F401 (fixtures)


def version(w: World) -> int | None:
    with w.app.app_context():
        return db.session.scalar(select(Event.audience_version).where(Event.id == w.eid))


def first(w: World) -> str:
    return sorted(w.tokens)[0]


def ok(response, *codes: int) -> None:
    assert response.status_code in (codes or (200, 201)), response.get_json()


def subscribe_another_phone(w: World) -> None:
    w.subscribe(w.tokens[first(w)])


def subscribe_again(w: World) -> None:
    w.subscribe(w.tokens[first(w)], w.subs[first(w)])  # the same endpoint: its row is replaced


def unsubscribe(w: World) -> None:
    endpoint = w.subs[first(w)].info["endpoint"]
    r = w.api.client.post(
        f"/api/events/{w.eid}/push/unsubscribe", json={"endpoint": endpoint}, headers=bearer(w.tokens[first(w)])
    )
    ok(r)
    assert r.get_json() == {"removed": True}


def renew(w: World) -> None:
    old = w.subs[first(w)].info
    body = {"old_endpoint": old["endpoint"], "old_auth": old["keys"]["auth"], "subscription": w.fake.subscribe().info}
    ok(w.api.client.post("/api/push/renew", json=body))


def drop_a_gone_subscription(w: World) -> None:
    w.fake.fail_with[w.subs[first(w)].id] = 410
    w.desk(round1())
    w.drain()
    with w.app.app_context():
        assert first(w) not in set(db.session.scalars(select(PushSubscription.player)))


def rotate_a_token(w: World) -> None:
    ok(w.api.client.post(f"/api/events/{w.eid}/tokens/rotate", headers=bearer(w.tokens[first(w)])))


def revoke_a_token(w: World) -> None:
    with w.app.app_context():
        token_id = db.session.scalar(select(Token.id).where(Token.event_id == w.eid, Token.player == first(w)))
    ok(w.api.client.delete(f"/api/events/{w.eid}/tokens/{token_id}", headers=bearer(w.org)))


def revoke_a_claim(w: World) -> None:
    ok(w.api.client.delete(f"/api/events/{w.eid}/players/{first(w)}/claim", headers=bearer(w.org)))


def reissue_a_claim_signing_phones_out(w: World) -> None:
    r = w.api.client.post(
        f"/api/events/{w.eid}/players/{first(w)}/claim", json={"revoke_devices": True}, headers=bearer(w.org)
    )
    ok(r)


def remove_a_player(w: World) -> None:
    w.desk([{"type": "player.remove", "payload": {"player": first(w)}}])
    with w.app.app_context():
        assert db.session.scalar(select(Token.revoked_at).where(Token.player == first(w))) is not None


WRITERS: list[Callable[[World], None]] = [
    subscribe_another_phone,
    subscribe_again,
    unsubscribe,
    renew,
    drop_a_gone_subscription,
    rotate_a_token,
    revoke_a_token,
    revoke_a_claim,
    reissue_a_claim_signing_phones_out,
    remove_a_player,
]


@pytest.mark.parametrize("write", WRITERS, ids=[w.__name__ for w in WRITERS])
def test_each_writer_of_subscriptions_or_tokens_moves_the_audience_version(push_app, fake, write):  # noqa: F811
    w = World(push_app, fake)
    before = version(w)
    write(w)
    assert version(w) != before


def test_a_push_that_changes_no_subscription_leaves_the_version(push_app, fake):  # noqa: F811
    w = World(push_app, fake)
    before = version(w)
    w.desk(round1())
    w.drain()
    assert version(w) == before


def test_an_event_deleted_and_restored_under_its_id_starts_at_another_version(push_app, fake):  # noqa: F811
    w = World(push_app, fake)
    backup = w.api.client.get(f"/api/events/{w.eid}/backup", headers=bearer(w.org)).get_json()
    deleted_at = version(w)
    ok(w.api.client.delete(f"/api/events/{w.eid}", json={"confirm": w.eid}, headers=bearer(w.org)))
    assert version(w) is None
    restored = Api(push_app.test_client()).client.post("/api/events/restore", json=backup, headers=bearer(w.org))
    ok(restored, 201)
    assert version(w) not in (None, deleted_at)

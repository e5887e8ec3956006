"""A hardened server: security headers, rate limits (429 naming the limit), staff token expiry and rotation."""

from __future__ import annotations

import http.client

import pytest
from sqlalchemy import text, update

from backend import create_app
from backend.db import db
from backend.models import Token, now_ms
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, register_ops, timeless


def _app(database_url, tmp_path, **config):
    return create_app(
        {"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "SQLALCHEMY_DATABASE_URI": database_url, **config}
    )


def _error(r, status, code):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    body = r.get_json()
    assert body["error"] == code and body["message"] and "\n" not in body["message"], body
    return body


# ---------------------------------------------------------------- headers


def test_every_response_carries_the_security_headers(api):
    created = api.create()
    for path, headers in (
        ("/", {}),
        ("/pwa/main.js", {}),
        ("/api/events/nope/state", {}),
        (f"/api/events/{created['event_id']}/state", bearer(created["token"])),
    ):
        r = api.client.get(path, headers=headers)
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "'unsafe-inline'" not in csp, path
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["Referrer-Policy"] == "no-referrer"
        assert r.headers["X-Frame-Options"] == "DENY"
        if path.startswith("/api/"):
            assert r.headers["Cache-Control"] == "no-store", path


def test_hsts_is_sent_over_https_when_configured_and_never_over_plain_http(sqlite_url, tmp_path):
    app = _app(sqlite_url, tmp_path, PROXY_COUNT=1, HSTS_MAX_AGE=31536000)
    try:
        client = app.test_client()
        secure = client.get("/", headers={"X-Forwarded-Proto": "https"})
        assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
        assert "Strict-Transport-Security" not in client.get("/").headers
        forged = client.get("/", headers={"X-Forwarded-Proto": "https"}, environ_base={"REMOTE_ADDR": "203.0.113.9"})
        assert "Strict-Transport-Security" not in forged.headers  # not from a trusted proxy
    finally:
        dispose(app)
    plain = _app(sqlite_url, tmp_path / "hall")  # make run's hall HTTPS port: none (docs/deploy.md: HSTS)
    try:
        r = plain.test_client().get("/", environ_base={"wsgi.url_scheme": "https"})
        assert "Strict-Transport-Security" not in r.headers
    finally:
        dispose(plain)


def test_answers_do_not_name_the_server_software(sqlite_url, tmp_path):
    from tests.backend.livegunicorn import gunicorn

    with gunicorn(sqlite_url, workers=1, tmp=tmp_path) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/api/openapi.json")
        response = conn.getresponse()
        response.read()
        conn.close()
        assert response.status == 200
        assert response.getheader("Server") == "topcut"


def test_the_app_page_has_no_inline_script(api):
    page = api.client.get("/").get_data(as_text=True)
    assert "<script" in page
    for tag in page.split("<script")[1:]:
        assert 'src="' in tag.split(">")[0], "an inline script would be refused by the CSP"


# ---------------------------------------------------------------- rate limits


def test_guessing_claim_codes_is_stopped_but_right_codes_were_never_counted(database_url, tmp_path):
    app = _app(database_url, tmp_path, REDEEM_FAILURES_LIMIT="5 per minute")
    try:
        api = Api(app.test_client())
        created = api.create()
        eid, org = created["event_id"], created["token"]
        codes = [api.invite(eid, org, "judge")["code"] for _ in range(8)]
        for code in codes[:6]:  # right codes are not failures: none of them counts
            assert api.client.post("/api/invitations/redeem", json={"code": code}).status_code == 201
        for _ in range(5):
            _error(api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 404, "unknown-code")
        r = api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"})
        body = _error(r, 429, "rate-limited")
        assert "too many wrong codes from this address" in body["message"] and "5 per 1 minute" in body["message"]
        assert body["retry_after_s"] > 0 and abs(int(r.headers["Retry-After"]) - body["retry_after_s"]) <= 1
        # Another address is not affected.
        other = api.client.post(
            "/api/invitations/redeem", json={"code": codes[6]}, environ_base={"REMOTE_ADDR": "10.0.0.7"}
        )
        assert other.status_code == 201
    finally:
        dispose(app)


def test_right_codes_from_an_address_past_its_wrong_code_limit_still_work(database_url, tmp_path):
    """A hall's players share one address: 35 wrong codes (a phone guessing on purpose) lock nobody out."""
    app = _app(database_url, tmp_path, REDEEM_FAILURES_LIMIT="30 per minute")
    try:
        api = Api(app.test_client())
        created = api.create()
        eid, org = created["event_id"], created["token"]
        invitation = api.invite(eid, org, "judge")["code"]
        api.push_ok(eid, org, "desk", register_ops()[:1])
        claim = api.claims(eid, org)[register_ops()[0]["payload"]["player"]["id"]]
        answers = [api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}) for _ in range(35)]
        assert [r.status_code for r in answers[:30]] == [404] * 30
        body = _error(answers[34], 429, "rate-limited")
        assert "check it letter by letter" in body["message"]
        assert api.client.post("/api/invitations/redeem", json={"code": claim}).status_code == 201
        assert api.client.post("/api/invitations/redeem", json={"code": invitation}).status_code == 201
        _error(api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCD"}), 429, "rate-limited")
    finally:
        dispose(app)


def test_a_slip_scanned_twice_and_malformed_codes_are_not_counted_as_guesses(database_url, tmp_path):
    app = _app(database_url, tmp_path, REDEEM_FAILURES_LIMIT="3 per minute")
    try:
        api = Api(app.test_client())
        created = api.create()
        eid, org = created["event_id"], created["token"]
        code = api.invite(eid, org, "judge")["code"]
        assert api.client.post("/api/invitations/redeem", json={"code": code}).status_code == 201
        for _ in range(5):
            _error(api.client.post("/api/invitations/redeem", json={"code": code}), 410, "code-used")
            assert api.client.post("/api/invitations/redeem", json={"code": 7}).status_code == 422
        for _ in range(3):
            _error(api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 404, "unknown-code")
        _error(api.client.post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 429, "rate-limited")
    finally:
        dispose(app)


def test_event_creation_is_limited_per_address(database_url, tmp_path):
    app = _app(database_url, tmp_path, CREATE_EVENT_LIMIT="3 per hour")
    try:
        client = app.test_client()
        for _ in range(3):
            assert client.post("/api/events", json={"ruleset": "agot"}).status_code == 201
        body = _error(client.post("/api/events", json={"ruleset": "agot"}), 429, "rate-limited")
        assert "too many events created from this address" in body["message"]
        assert (
            client.post("/api/events", json={"ruleset": "agot"}, environ_base={"REMOTE_ADDR": "10.0.0.9"}).status_code
            == 201
        )
    finally:
        dispose(app)


def test_a_flooding_token_is_refused_and_nothing_it_sent_is_recorded(database_url, tmp_path):
    app = _app(database_url, tmp_path, PUSH_LIMIT="4 per minute")
    try:
        api = Api(app.test_client())
        created = api.create()
        eid, org = created["event_id"], created["token"]
        judge = api.staff_token(eid, org, "scorekeeper")
        ops = register_ops()
        for i in range(4):
            api.push_ok(eid, org, "desk", ops[i : i + 1], first_seq=i + 1)
        before = api.pull(eid, org)
        r = api.push(eid, org, "desk", ops[4:5], first_seq=5)
        body = _error(r, 429, "rate-limited")
        assert "too many pushes from this device's token" in body["message"]
        assert timeless(api.pull(eid, org)) == timeless(before)
        # Another device's token is counted apart.
        api.push_ok(eid, judge, "tab-1", ops[4:5])
    finally:
        dispose(app)


def test_app_servers_sharing_postgresql_count_together(postgres_server, tmp_path):
    from tests.backend.conftest import fresh_postgres_database

    url = fresh_postgres_database(postgres_server)
    first = _app(url, tmp_path / "a", REDEEM_FAILURES_LIMIT="4 per minute")
    second = _app(url, tmp_path / "b", REDEEM_FAILURES_LIMIT="4 per minute")
    try:
        assert first.config["RATELIMIT_STORAGE_URI"] == "topcut-db://"
        for app in (first, second, first, second):
            _error(
                app.test_client().post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 404, "unknown-code"
            )
        _error(
            second.test_client().post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 429, "rate-limited"
        )
        _error(
            first.test_client().post("/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}), 429, "rate-limited"
        )
    finally:
        dispose(first)
        dispose(second)


def test_counting_pushes_on_postgresql_adds_no_durable_commit_and_spares_the_halls_row(postgres_server, tmp_path):
    """The counters' table is UNLOGGED and each increment commits without a WAL sync; the per-address flood guard,
    one row for a whole hall's NAT, is taken in blocks (bench.sync prints the WAL syncs per push: 1)."""
    from tests.backend.conftest import fresh_postgres_database

    url = fresh_postgres_database(postgres_server)
    app = _app(url, tmp_path, PUSH_ADDRESS_LIMIT="2000 per minute")  # blocks of 2000 / 200 = 10
    try:
        api = Api(app.test_client())
        created = api.create()
        eid, org = created["event_id"], created["token"]
        for i, op in enumerate(register_ops()[:5]):
            api.push_ok(eid, org, "desk", [op], first_seq=i + 1)
        with app.app_context():
            assert db.session.scalar(text("SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'")) == "u"
            rows = dict(db.session.execute(text("SELECT key, count FROM rate_limits")).all())
        assert [n for k, n in rows.items() if ":push-address/" in k] == [10]  # one write for five pushes
        assert [n for k, n in rows.items() if ":push-token/" in k] == [5]  # a small limit counts every push
    finally:
        dispose(app)


def test_sqlite_counts_in_memory_unless_configured(sqlite_url, tmp_path):
    app = _app(sqlite_url, tmp_path)
    try:
        assert app.config["RATELIMIT_STORAGE_URI"] == "topcut-local://"
    finally:
        dispose(app)


def test_behind_a_proxy_the_forwarded_address_is_counted(sqlite_url, tmp_path):
    app = _app(sqlite_url, tmp_path, PROXY_COUNT=1, REDEEM_FAILURES_LIMIT="2 per minute")
    try:
        client = app.test_client()
        for _ in range(2):
            client.post(
                "/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}, headers={"X-Forwarded-For": "192.168.1.20"}
            )
        _error(
            client.post(
                "/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}, headers={"X-Forwarded-For": "192.168.1.20"}
            ),
            429,
            "rate-limited",
        )
        r = client.post(
            "/api/invitations/redeem", json={"code": "AAAA-BBBB-CCCC"}, headers={"X-Forwarded-For": "192.168.1.21"}
        )
        _error(r, 404, "unknown-code")  # another phone in the hall, same proxy
    finally:
        dispose(app)


def test_forwarded_addresses_from_a_client_reaching_an_app_server_directly_are_ignored(sqlite_url, tmp_path):
    """The scale-out configuration: nginx at 10.0.0.2; a client at 203.0.113.9 on the app server's own port."""
    app = _app(sqlite_url, tmp_path, PROXY_COUNT=1, TRUSTED_PROXIES=["10.0.0.2"], REDEEM_FAILURES_LIMIT="3 per minute")
    try:
        client = app.test_client()
        direct = {"REMOTE_ADDR": "203.0.113.9"}
        statuses = [
            client.post(
                "/api/invitations/redeem",
                json={"code": "AAAA-BBBB-CCCC"},
                headers={"X-Forwarded-For": f"198.51.100.{i}"},
                environ_base=direct,
            ).status_code
            for i in range(6)
        ]
        assert statuses == [404, 404, 404, 429, 429, 429]  # counted as 203.0.113.9, whatever it claims
        # It could not lock out the hall's NAT it named either: through the proxy that address is fine.
        via_proxy = {"REMOTE_ADDR": "10.0.0.2"}
        r = client.post(
            "/api/invitations/redeem",
            json={"code": "AAAA-BBBB-CCCC"},
            headers={"X-Forwarded-For": "198.51.100.1"},
            environ_base=via_proxy,
        )
        _error(r, 404, "unknown-code")
        for _ in range(3):
            client.post(
                "/api/invitations/redeem",
                json={"code": "AAAA-BBBB-CCCC"},
                headers={"X-Forwarded-For": "198.51.100.7"},
                environ_base=via_proxy,
            )
        r = client.post(
            "/api/invitations/redeem",
            json={"code": "AAAA-BBBB-CCCC"},
            headers={"X-Forwarded-For": "198.51.100.7"},
            environ_base=via_proxy,
        )
        _error(r, 429, "rate-limited")  # the proxy's forwarded address is believed
    finally:
        dispose(app)


def test_a_trusted_proxies_setting_that_is_no_address_stops_the_start(sqlite_url, tmp_path):
    with pytest.raises(RuntimeError, match="TRUSTED_PROXIES: 'nginx' is not an address"):
        _app(sqlite_url, tmp_path, PROXY_COUNT=1, TRUSTED_PROXIES=["nginx"])


# ---------------------------------------------------------------- token expiry and rotation


def _expire(app, token_id: str) -> None:
    with app.app_context():
        db.session.execute(update(Token).where(Token.id == token_id).values(expires_at=now_ms() - 1))
        db.session.commit()


def test_staff_tokens_expire_and_say_how_to_get_back_in(app, api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    assert created["expires_in_s"] == 90 * 24 * 3600
    grant = api.redeem(api.invite(eid, org, "judge")["code"])
    assert grant["expires_in_s"] == 14 * 24 * 3600
    _expire(app, grant["token_id"])
    body = _error(api.client.get(f"/api/events/{eid}/state", headers=bearer(grant["token"])), 401, "token-expired")
    assert "new code from the organizer" in body["message"]
    _error(api.push(eid, grant["token"], "tab-1", register_ops()[:1]), 401, "token-expired")
    listed = {
        t["token_id"]: t for t in api.client.get(f"/api/events/{eid}/tokens", headers=bearer(org)).get_json()["tokens"]
    }
    assert listed[grant["token_id"]]["expired"] is True and listed[grant["token_id"]]["revoked"] is False


def test_players_tokens_do_not_expire(app, api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    api.push_ok(eid, org, "desk", register_ops())
    grant = api.redeem(next(iter(api.claims(eid, org).values())))
    assert grant["expires_in_s"] is None


def test_rotation_hands_the_device_to_the_new_token_and_retires_the_old(app, api):
    app.config["TOKEN_ROTATION_GRACE_S"] = 600
    created = api.create()
    eid, org = created["event_id"], created["token"]
    judge = api.redeem(api.invite(eid, org, "scorekeeper")["code"])
    ops = register_ops()
    api.push_ok(eid, judge["token"], "tab-1", ops[:2])
    r = api.client.post(f"/api/events/{eid}/tokens/rotate", headers=bearer(judge["token"]))
    assert r.status_code == 201, r.get_json()
    fresh = r.get_json()
    assert (
        fresh["role"] == "scorekeeper" and fresh["token"] != judge["token"] and fresh["expires_in_s"] == 14 * 24 * 3600
    )
    # The same device goes on with the new token, from where it was.
    api.push_ok(eid, fresh["token"], "tab-1", ops[2:4], first_seq=3)
    # An answer lost on the way: the old token still works for the grace period ...
    assert api.client.get(f"/api/events/{eid}/state", headers=bearer(judge["token"])).status_code == 200
    # ... then not.
    with app.app_context():
        old = db.session.get(Token, judge["token_id"])
        assert old.replaced_by == fresh["token_id"] and old.expires_at <= now_ms() + 600_000
    _expire(app, judge["token_id"])
    _error(api.client.get(f"/api/events/{eid}/state", headers=bearer(judge["token"])), 401, "token-expired")
    assert api.client.get(f"/api/events/{eid}/state", headers=bearer(fresh["token"])).status_code == 200


def test_a_revoked_token_cannot_rotate(app, api):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    judge = api.redeem(api.invite(eid, org, "judge")["code"])
    api.client.delete(f"/api/events/{eid}/tokens/{judge['token_id']}", headers=bearer(org))
    _error(api.client.post(f"/api/events/{eid}/tokens/rotate", headers=bearer(judge["token"])), 401, "token-revoked")


@pytest.mark.parametrize("role", ["judge", "organizer"])
def test_an_expired_token_cannot_rotate(app, api, role):
    created = api.create()
    eid, org = created["event_id"], created["token"]
    grant = api.redeem(api.invite(eid, org, role)["code"])
    _expire(app, grant["token_id"])
    _error(api.client.post(f"/api/events/{eid}/tokens/rotate", headers=bearer(grant["token"])), 401, "token-expired")

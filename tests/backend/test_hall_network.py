"""HTTPS for the hall network: the laptop's own certificate authority, the links tablets can reach, and
``make run`` (``python -m backend.serve``) serving HTTP on the laptop and HTTPS on the hall network."""

from __future__ import annotations

import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509

from backend import create_app
from backend.hall_tls import CA_FILE, ensure_certificates, primary_lan_address
from tests.backend.conftest import dispose
from tests.backend.helpers import Api, bearer, register_ops

ROOT = Path(__file__).resolve().parent.parent.parent
HALL = "https://192.0.2.10:8443"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _san(cert: x509.Certificate) -> tuple[set[str], set[str]]:
    san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return set(san.get_values_for_type(x509.DNSName)), {str(ip) for ip in san.get_values_for_type(x509.IPAddress)}


def test_the_authority_is_made_once_and_signs_a_certificate_for_each_new_address(tmp_path):
    tls = ensure_certificates(tmp_path, extra_addresses=["192.0.2.10"])
    ca = x509.load_pem_x509_certificate(tls.ca.read_bytes())
    server = x509.load_pem_x509_certificate(tls.cert.read_bytes())
    server.verify_directly_issued_by(ca)
    names, addresses = _san(server)
    assert {"localhost"} <= names and {"127.0.0.1", "192.0.2.10"} <= addresses
    assert ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert (server.not_valid_after_utc - server.not_valid_before_utc).days <= 398  # Apple's limit
    assert oct((tmp_path / "hall-ca.key").stat().st_mode & 0o777) == "0o600"
    assert oct(tls.key.stat().st_mode & 0o777) == "0o600"

    # Started again on the same network: nothing changes (tablets keep trusting the same files).
    before = (tls.ca.read_bytes(), tls.cert.read_bytes())
    assert (
        ensure_certificates(tmp_path, extra_addresses=["192.0.2.10"]).ca.read_bytes(),
        tls.cert.read_bytes(),
    ) == before
    # In another hall: a new server certificate from the same authority, so tablets need nothing new.
    moved = ensure_certificates(tmp_path, extra_addresses=["198.51.100.7"])
    assert moved.ca.read_bytes() == before[0] and moved.cert.read_bytes() != before[1]
    again = x509.load_pem_x509_certificate(moved.cert.read_bytes())
    again.verify_directly_issued_by(ca)
    assert "198.51.100.7" in _san(again)[1]


def test_a_tablet_that_trusts_the_authority_verifies_the_server_by_its_address(tmp_path):
    """What a tablet does once the hall certificate is installed: a TLS handshake checked against the
    authority, with the server named by its IP address."""
    tls = ensure_certificates(tmp_path)

    class Hello(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"hello tablet")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(tls.cert, tls.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"https://127.0.0.1:{server.server_port}/"
        trusting = ssl.create_default_context(cafile=str(tls.ca))
        with urllib.request.urlopen(url, context=trusting, timeout=10) as response:
            assert response.read() == b"hello tablet"
        # A device without the authority refuses the connection, as a tablet's browser does.
        with pytest.raises(urllib.error.URLError, match="CERTIFICATE_VERIFY_FAILED"):
            urllib.request.urlopen(url, context=ssl.create_default_context(), timeout=10)
    finally:
        server.shutdown()


@pytest.fixture
def hall_app(database_url, tmp_path):
    tls = ensure_certificates(tmp_path / "hall-tls")
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "HALL_URL": HALL,
            "HALL_TLS_DIR": str(tls.directory),
        }
    )
    yield app
    dispose(app)


def test_links_made_on_the_laptop_name_the_hall_address_not_loopback(hall_app):
    laptop = Api(hall_app.test_client())  # the test client's requests come to http://localhost/
    created = laptop.create(name="Hall Cup")
    eid, org = created["event_id"], created["token"]
    invitation = laptop.invite(eid, org, "judge")
    assert invitation["link"].startswith(HALL + "/#join=")
    laptop.push_ok(eid, org, "desk", register_ops([{"id": "p1", "name": "Ada"}]), first_seq=1)
    claims = laptop.client.get(f"/api/events/{eid}/players/claims", headers=bearer(org)).get_json()["claims"]
    assert claims and all(c["link"].startswith(HALL + "/#join=") for c in claims if c.get("link"))
    # A tablet already on the hall address gets links for the address it used.
    tablet = hall_app.test_client()
    r = tablet.post(
        f"/api/events/{eid}/invitations",
        json={"role": "judge"},
        headers=bearer(org),
        base_url="https://192.0.2.10:8443",
    )
    assert r.get_json()["link"].startswith("https://192.0.2.10:8443/#join=")
    assert laptop.client.get("/api/hall").get_json() == {"hall_url": HALL, "ca_url": "/hall-ca.crt", "origin": HALL}


def test_the_hall_certificate_is_served_for_tablets_to_install(hall_app):
    r = hall_app.test_client().get("/hall-ca.crt")
    assert r.status_code == 200 and r.mimetype == "application/x-x509-ca-cert"
    assert "topcut-hall-ca.crt" in r.headers["Content-Disposition"]
    x509.load_pem_x509_certificate(r.data)


def test_without_a_hall_the_server_says_so_and_links_use_the_request_address(app, api):
    r = api.client.get("/hall-ca.crt")
    assert r.status_code == 404 and r.get_json()["error"] == "no-hall-ca" and "make run" in r.get_json()["message"]
    assert api.client.get("/api/hall").get_json() == {"hall_url": None, "ca_url": None, "origin": "http://localhost"}
    created = api.create(name="Plain Cup")
    assert api.invite(created["event_id"], created["token"], "judge")["link"].startswith("http://localhost/#join=")


def _serve(tmp_path: Path, *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL" and not k.startswith("TOPCUT_")}
    env["TOPCUT_INSTANCE_PATH"] = str(tmp_path / "instance")
    return subprocess.Popen(
        [sys.executable, "-m", "backend.serve", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _get_json(url: str, context: ssl.SSLContext | None = None, timeout_s: float = 30) -> dict:
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(url, context=context, timeout=10) as response:
                return json.loads(response.read())
        except OSError:  # not up yet (refused), or still starting (a slow first answer)
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_make_run_serves_the_laptop_over_http_and_the_hall_over_https(tmp_path):
    port, hall_port = _free_port(), _free_port()
    process = _serve(tmp_path, "--port", str(port), "--hall-port", str(hall_port))
    try:
        laptop = _get_json(f"http://127.0.0.1:{port}/api/hall")
        address = primary_lan_address() or "localhost"
        assert laptop["hall_url"] == f"https://{address}:{hall_port}" and laptop["origin"] == laptop["hall_url"]
        trusting = ssl.create_default_context(cafile=str(tmp_path / "instance" / "hall-tls" / CA_FILE))
        # The hall address (this machine's LAN address when it has one), checked against the hall's authority.
        tablet = _get_json(f"https://{address}:{hall_port}/api/hall", context=trusting)
        assert tablet["origin"] == f"https://{address}:{hall_port}"
        # Both servers share one database: an event made on the laptop is there for the tablets.
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/events",
            method="POST",
            data=json.dumps({"name": "Shared", "ruleset": "agot"}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            created = json.loads(response.read())
        seen = urllib.request.Request(
            f"https://{address}:{hall_port}/api/events/{created['event_id']}",
            headers={"Authorization": f"Bearer {created['token']}"},
        )
        with urllib.request.urlopen(seen, context=trusting, timeout=10) as response:
            assert json.loads(response.read())["name"] == "Shared"
    finally:
        process.send_signal(signal.SIGINT)  # Ctrl-C: the command stops both servers
        try:
            out, err = process.communicate(timeout=30)
        finally:
            try:
                os.killpg(process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert process.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in out and "hall-ca.crt" in out


def test_make_run_refuses_a_busy_port_in_one_line(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        process = _serve(tmp_path, "--port", str(port), "--no-hall")
        out, err = process.communicate(timeout=30)
    assert process.returncode == 2
    assert err.count("\n") == 1 and f"port {port}" in err and "in use" in err, err

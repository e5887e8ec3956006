"""A fake Web Push service on 127.0.0.1, checking what a real one would, then decrypting like a browser.

For each ``POST /push/<id>`` it checks:

* ``Authorization: vapid t=<JWT>, k=<key>`` (RFC 8292): an ES256 JWT whose
  signature verifies with ``k`` (and ``k`` is the server's VAPID key if the
  test says which), ``aud`` = this endpoint's origin, ``exp`` in the future
  and at most 24 hours away, ``sub`` a ``mailto:`` or ``https:`` URI on a real domain (as Apple's
  service does: ``mailto:…@localhost``, ``.local``, example domains and addresses get 403 BadJwtToken);
* ``TTL`` present, ``Urgency`` (if any) one of the four RFC 8030 values,
  ``Topic`` (if any) at most 32 base64url characters;
* ``Content-Encoding: aes128gcm`` and a body that decrypts (RFC 8188 records,
  RFC 8291 key derivation) with the subscription's private key and auth
  secret — written here from the RFCs with ``cryptography``, independently of
  the sender's library.

A request that fails a check is answered 400/401/403 and recorded in
``errors``; a good one is answered 201 and its plaintext recorded in
``deliveries``. ``fail_with`` makes the service answer a status instead (503:
down, 410: gone ...), per subscription or for all; ``stop()``/``start()`` take the
port away and back (connection refused in between). ``latency`` (seconds) delays
every answer like a real push service's round trip (100-300 ms); ``in_flight``
and ``max_in_flight`` count requests being answered at once (a sender's
concurrency, observed).
"""

from __future__ import annotations

import base64
import ipaddress
import json
import os
import struct
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes, hmac, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["FakePushService", "FakeSubscription", "Delivery", "b64u", "unb64u", "SUBJECT"]


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hmac(key: bytes, data: bytes) -> bytes:
    h = hmac.HMAC(key, hashes.SHA256())
    h.update(data)
    return h.finalize()


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869 with SHA-256 (one block is enough for every length used here)."""
    prk = _hmac(salt, ikm)
    return _hmac(prk, info + b"\x01")[:length]


class Refused(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass
class FakeSubscription:
    """What a browser keeps: the endpoint, a P-256 key pair and a 16-byte auth secret."""

    id: str
    endpoint: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes

    @property
    def public_raw(self) -> bytes:
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    @property
    def info(self) -> dict[str, Any]:
        """``PushSubscription.toJSON()``."""
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64u(self.public_raw), "auth": b64u(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291 §3.4 key derivation + RFC 8188 aes128gcm records."""
        if len(body) < 21:
            raise Refused(400, "body shorter than the aes128gcm header")
        salt, rs, idlen = body[:16], struct.unpack(">I", body[16:20])[0], body[20]
        if rs < 18:
            raise Refused(400, f"record size {rs} is too small")
        if idlen != 65:
            raise Refused(400, f"keyid must be the sender's 65-byte public key, got {idlen} bytes")
        sender_raw = body[21 : 21 + idlen]
        ciphertext = body[21 + idlen :]
        try:
            sender = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender_raw)
        except ValueError:
            raise Refused(400, "keyid is not a P-256 point") from None
        ecdh_secret = self.private_key.exchange(ec.ECDH(), sender)
        ikm = _hkdf(self.auth, ecdh_secret, b"WebPush: info\x00" + self.public_raw + sender_raw, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\x00", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\x00", 12)
        records = [ciphertext[i : i + rs] for i in range(0, len(ciphertext), rs)]
        if not records:
            raise Refused(400, "no records")
        plain = b""
        for seq, record in enumerate(records):
            iv = (int.from_bytes(nonce, "big") ^ seq).to_bytes(12, "big")
            try:
                padded = AESGCM(cek).decrypt(iv, record, None)
            except InvalidTag:
                raise Refused(400, f"record {seq} does not decrypt (wrong keys or corrupt body)") from None
            stripped = padded.rstrip(b"\x00")
            last = seq == len(records) - 1
            if not stripped or stripped[-1] != (2 if last else 1):
                raise Refused(400, f"record {seq} has a bad padding delimiter")
            plain += stripped[:-1]
        return plain


@dataclass
class Delivery:
    subscription: str
    payload: dict[str, Any]
    headers: dict[str, str]
    at: float = field(default_factory=time.time)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024  # listen() backlog: hundreds of senders' connections at once

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A sender that timed out and hung up is part of the test, not an error to print."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


#: The VAPID subject the tests' servers sign with (a real domain: the fake refuses localhost like Apple does).
SUBJECT = "mailto:push-tests@topcut.events"


class FakePushService:
    def __init__(self, expected_vapid_key: str | None = None, latency: float = 0.0) -> None:
        self.expected_vapid_key = expected_vapid_key
        self.latency = latency
        self.in_flight = 0
        self.max_in_flight = 0
        self.subscriptions: dict[str, FakeSubscription] = {}
        self.deliveries: list[Delivery] = []
        self.errors: list[str] = []
        self.requests = 0
        #: subscription id (or "*") -> HTTP status to answer instead of accepting
        self.fail_with: dict[str, int] = {}
        self._lock = threading.Condition()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    # -------------------------------------------------------------- lifecycle

    def start(self) -> FakePushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, text = service._answer(self.path, dict(self.headers.items()), body)
                data = text.encode()
                self.send_response(status)
                if status == 201:
                    self.send_header("Location", f"{service.origin}/message/{service.requests}")
                if status == 503:
                    self.send_header("Retry-After", "0")
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        server = _Server(("127.0.0.1", self.port), Handler)
        self._server = server
        self.port = server.server_address[1]
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-push", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> FakePushService:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    def subscribe(self) -> FakeSubscription:
        """A new browser subscription (the keys a browser would make)."""
        sid = b64u(os.urandom(9))
        sub = FakeSubscription(
            sid, f"{self.origin}/push/{sid}", ec.generate_private_key(ec.SECP256R1()), os.urandom(16)
        )
        with self._lock:
            self.subscriptions[sid] = sub
        return sub

    # -------------------------------------------------------------- queries

    def wait_for(self, count: int, timeout: float = 10.0) -> list[Delivery]:
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.deliveries) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return list(self.deliveries)

    def for_subscription(self, sid: str) -> list[dict[str, Any]]:
        with self._lock:
            return [d.payload for d in self.deliveries if d.subscription == sid]

    # -------------------------------------------------------------- checks

    def _answer(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        """Check and record the request after ``latency`` seconds, counting the requests in flight."""
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.latency:
                time.sleep(self.latency)
            return self._handle(path, headers, body)
        finally:
            with self._lock:
                self.in_flight -= 1

    def _handle(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, str]:
        headers = {k.lower(): v for k, v in headers.items()}
        with self._lock:
            self.requests += 1
        sid = path.rsplit("/", 1)[-1]
        try:
            if not path.startswith("/push/"):
                raise Refused(404, "no such endpoint")
            override = self.fail_with.get(sid, self.fail_with.get("*"))
            if override is not None:
                return override, "refused by the test"
            sub = self.subscriptions.get(sid)
            if sub is None:
                raise Refused(404, "unknown subscription")
            self._check_vapid(headers.get("authorization", ""))
            ttl = headers.get("ttl")
            if ttl is None or not ttl.isdigit():
                raise Refused(400, "TTL header missing or not a whole number")
            urgency = headers.get("urgency")
            if urgency is not None and urgency not in ("very-low", "low", "normal", "high"):
                raise Refused(400, f"bad Urgency {urgency!r}")
            topic = headers.get("topic")
            if topic is not None and (
                len(topic) > 32
                or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" for c in topic)
            ):
                raise Refused(400, f"bad Topic {topic!r}")
            if headers.get("content-encoding") != "aes128gcm":
                raise Refused(400, f"Content-Encoding must be aes128gcm, got {headers.get('content-encoding')!r}")
            if len(body) > 4096:
                raise Refused(413, "payload larger than 4096 bytes")
            payload = json.loads(sub.decrypt(body).decode("utf-8"))
        except Refused as exc:
            with self._lock:
                self.errors.append(f"{exc.status} {exc}")
            return exc.status, str(exc)
        except (ValueError, UnicodeDecodeError) as exc:
            with self._lock:
                self.errors.append(f"400 payload is not JSON: {exc}")
            return 400, "payload is not JSON"
        with self._lock:
            self.deliveries.append(Delivery(sid, payload, headers))
            self._lock.notify_all()
        return 201, ""

    def _check_vapid(self, header: str) -> None:
        scheme, _, params = header.partition(" ")
        if scheme.lower() != "vapid":
            raise Refused(401, "Authorization must use the vapid scheme")
        parts = {}
        for item in params.split(","):
            key, _, value = item.strip().partition("=")
            parts[key.strip()] = value.strip()
        token, key = parts.get("t"), parts.get("k")
        if not token or not key:
            raise Refused(401, "vapid authorization needs t= and k=")
        if self.expected_vapid_key is not None and key != self.expected_vapid_key:
            raise Refused(403, "VAPID key differs from the one the subscription was made with")
        try:
            public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64u(key))
            head_b64, claims_b64, sig_b64 = token.split(".")
            head = json.loads(unb64u(head_b64))
            claims = json.loads(unb64u(claims_b64))
            sig = unb64u(sig_b64)
        except (ValueError, TypeError):
            raise Refused(401, "malformed VAPID token or key") from None
        if head.get("alg") != "ES256":
            raise Refused(401, f"JWT alg must be ES256, got {head.get('alg')!r}")
        if len(sig) != 64:
            raise Refused(401, "ES256 signature must be 64 bytes (r || s)")
        der = encode_dss_signature(int.from_bytes(sig[:32], "big"), int.from_bytes(sig[32:], "big"))
        try:
            public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            raise Refused(401, "VAPID signature does not verify") from None
        if claims.get("aud") != self.origin:
            raise Refused(401, f"aud must be {self.origin}, got {claims.get('aud')!r}")
        exp = claims.get("exp")
        now = time.time()
        if not isinstance(exp, int) or exp <= now or exp > now + 24 * 3600:
            raise Refused(401, f"exp must be in the next 24 hours, got {exp!r}")
        sub = claims.get("sub")
        if not isinstance(sub, str) or not sub.startswith(("mailto:", "https:")):
            raise Refused(401, f"sub must be a mailto: or https: URI, got {sub!r}")
        domain = sub.rsplit("@", 1)[-1] if sub.startswith("mailto:") else sub.split("/")[2].split(":")[0]
        domain = domain.strip("[]").lower()
        nowhere = ("localhost", ".local", ".invalid", ".test", "example.com", "example.org", "example.net")
        try:
            ipaddress.ip_address(domain)
            literal = True
        except ValueError:
            literal = False
        if literal or domain.endswith(nowhere):
            raise Refused(403, f"BadJwtToken: subject {sub!r} is not a real contact")

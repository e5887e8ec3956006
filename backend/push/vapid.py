"""VAPID keys (RFC 8292): one P-256 key pair per installation, kept in the instance folder.

Created on first start (``create_app``) or with ``flask --app backend topcut-vapid``;
several gunicorn workers starting at once agree on one key (the file is
created with an atomic link, the loser reads the winner's). ``VAPID_PRIVATE_KEY``
in the configuration (PEM text) overrides the file. The public key is what
``PushManager.subscribe`` takes as ``applicationServerKey``; it is served at
``GET /api/push/vapid-public-key``.
"""

from __future__ import annotations

import ipaddress
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from flask import Flask, current_app
from py_vapid import Vapid

from backend.push.security import b64url_encode

__all__ = ["VapidKeys", "ensure_keys", "keys", "generate_key_file", "KEY_FILE", "subject_problem", "OFF_MESSAGE"]

KEY_FILE = "vapid_private.pem"
#: A VAPID token lives 12 hours (at most 24 are allowed); a new one is signed an hour before expiry.
TOKEN_LIFETIME_S = 12 * 3600
TOKEN_REFRESH_S = 3600


#: What the notifications buttons say while push is off on this server.
OFF_MESSAGE = "Notifications are off on this server: the organizer sets VAPID_SUBJECT (docs/deploy.md)"
#: Domains that name no one (RFC 2606, RFC 6761, mDNS): push services refuse a subject there (Apple: 403 BadJwtToken).
_NOWHERE_SUFFIXES = (".localhost", ".local", ".invalid", ".test", ".example", ".internal", ".lan", ".home.arpa")
_NOWHERE_DOMAINS = frozenset({"localhost", "example.com", "example.org", "example.net", "localdomain"})


def _host_problem(host: str) -> str | None:
    host = host.strip().strip("[]").rstrip(".").lower()
    if not host:
        return "it names no domain"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:
        return f"{host} is an IP address, not a domain"
    if host in _NOWHERE_DOMAINS or any(host.endswith(s) for s in _NOWHERE_SUFFIXES):
        return f"{host} is not a real domain"
    if any(host.endswith("." + d) for d in _NOWHERE_DOMAINS):
        return f"{host} is not a real domain"
    if "." not in host:
        return f"{host} is not a public domain name"
    return None


def subject_problem(subject: object) -> str | None:
    """Why ``subject`` cannot be a VAPID subject push services accept (RFC 8292 §2.1), or None when it can.

    It must be ``mailto:someone@a.real.domain`` or an ``https://a.real.domain/...`` URL: Apple's push
    service refuses a token whose subject is on localhost, an example or reserved domain or an address.
    """
    text = str(subject or "").strip()
    if not text:
        return "VAPID_SUBJECT is not set"
    lowered = text.lower()
    if lowered.startswith("mailto:"):
        address = text[len("mailto:") :].split("?", 1)[0]
        local, at, domain = address.rpartition("@")
        if not at or not local:
            return f"VAPID_SUBJECT {text!r} is not a mailto: address (mailto:you@your-domain.org)"
        problem = _host_problem(domain)
    elif lowered.startswith("https://"):
        problem = _host_problem(urlsplit(text).hostname or "")
    else:
        return f"VAPID_SUBJECT {text!r} must start with mailto: or https://"
    return f"VAPID_SUBJECT {text!r}: {problem}" if problem else None


@dataclass
class VapidKeys:
    private_pem: bytes
    subject: str
    vapid: Vapid = field(init=False)
    public_key: str = field(init=False)  #: base64url of the uncompressed point (65 bytes)
    _tokens: dict[str, tuple[int, dict[str, str]]] = field(init=False, default_factory=dict)
    _lock: threading.Lock = field(init=False, default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.vapid = Vapid.from_pem(self.private_pem)
        raw = self.vapid.public_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.public_key = b64url_encode(raw)

    def headers(self, endpoint: str) -> dict[str, str]:
        """``Authorization: vapid t=<JWT>,k=<public key>`` for the endpoint's origin (cached per origin)."""
        parts = urlsplit(endpoint)
        aud = f"{parts.scheme}://{parts.netloc}"
        now = int(time.time())
        with self._lock:
            cached = self._tokens.get(aud)
            if cached is not None and cached[0] - now > TOKEN_REFRESH_S:
                return dict(cached[1])
        exp = now + TOKEN_LIFETIME_S
        signed = self.vapid.sign({"aud": aud, "exp": exp, "sub": self.subject})
        with self._lock:
            self._tokens[aud] = (exp, signed)
        return dict(signed)


def _new_pem() -> bytes:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def generate_key_file(path: str, replace: bool = False) -> bytes:
    """Create the key file atomically (never a half-written key); return the key that is in place."""
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    pem = _new_pem()
    fd, tmp = tempfile.mkstemp(prefix=".vapid-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o600)
        if replace:
            os.replace(tmp, path)
            return pem
        try:
            os.link(tmp, path)  # fails if another process created it first
            return pem
        except FileExistsError:
            with open(path, "rb") as handle:
                return handle.read()
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def key_path(app: Flask) -> str:
    return app.config.get("VAPID_KEY_FILE") or os.path.join(app.instance_path, KEY_FILE)


def ensure_keys(app: Flask) -> VapidKeys:
    configured = app.config.get("VAPID_PRIVATE_KEY")
    if configured:
        pem = configured.encode() if isinstance(configured, str) else configured
    else:
        path = key_path(app)
        pem = b""
        if os.path.exists(path):
            with open(path, "rb") as handle:
                pem = handle.read()
        if not pem.strip():
            pem = generate_key_file(path, replace=bool(os.path.exists(path)))
    subject = str(app.config.get("VAPID_SUBJECT") or "").strip()
    # Push is off without a real subject (backend/push/__init__.py): no notification is signed with a bad one.
    keys_ = VapidKeys(pem, subject)
    app.extensions["topcut_vapid"] = keys_
    return keys_


def keys(app: Flask | None = None) -> VapidKeys:
    app = app or current_app
    found = app.extensions.get("topcut_vapid")
    return found if found is not None else ensure_keys(app)

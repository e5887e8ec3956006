"""VAPID keys (RFC 8292): one P-256 key pair per installation, kept in the instance folder.

Created on first start (``create_app``) or with ``flask --app backend topcut-vapid``;
several gunicorn workers starting at once agree on one key (the file is
created with an atomic link, the loser reads the winner's). ``VAPID_PRIVATE_KEY``
in the configuration (PEM text) overrides the file. The public key is what
``PushManager.subscribe`` takes as ``applicationServerKey``; it is served at
``GET /api/push/vapid-public-key``.
"""

from __future__ import annotations

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

__all__ = ["VapidKeys", "ensure_keys", "keys", "generate_key_file", "KEY_FILE"]

KEY_FILE = "vapid_private.pem"
#: A VAPID token lives 12 hours (at most 24 are allowed); a new one is signed an hour before expiry.
TOKEN_LIFETIME_S = 12 * 3600
TOKEN_REFRESH_S = 3600


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
    keys_ = VapidKeys(pem, app.config.get("VAPID_SUBJECT") or "mailto:topcut@localhost")
    app.extensions["topcut_vapid"] = keys_
    return keys_


def keys(app: Flask | None = None) -> VapidKeys:
    app = app or current_app
    found = app.extensions.get("topcut_vapid")
    return found if found is not None else ensure_keys(app)

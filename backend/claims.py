"""Players' claim codes, kept so that staff can show them again: sealed (AES-256-GCM) at rest.

A claim code is found by its hash (``invitations.code_hash``, as every code: HMAC-SHA256 keyed by
``SECRET_KEY``, ``auth.hash_code``; a plain sha256 from before codes were keyed still works);
``invitations.code`` holds it sealed with a key derived from the app's
``SECRET_KEY``, bound to its row (event, player, invitation id), so that the
organizer, head judge and scorekeeper (``CLAIM_READERS``) can list and print
every player's code from any of their devices, while a copy of the database
alone reveals none. A used or revoked code is wiped. A code sealed under
another ``SECRET_KEY`` cannot be opened: it is listed as unknown ("issue a new
code"); it still redeems where its hash was made under this server's key
(a server whose key changed since it made a code refuses that code).
"""

from __future__ import annotations

import base64
import binascii
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import current_app

__all__ = ["seal", "unseal", "SEALED_PREFIX"]

#: What a sealed code starts with (the version of the sealing: key derivation, cipher, layout).
SEALED_PREFIX = "v1."
_INFO = b"topcut claim codes v1"
_NONCE_BYTES = 12


def _key() -> bytes:
    cache = current_app.extensions.setdefault("topcut_claim_keys", {})
    secret = str(current_app.config["SECRET_KEY"])
    if secret not in cache:
        cache[secret] = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO).derive(
            secret.encode("utf-8", "surrogatepass")
        )
    return cache[secret]


def _aad(event_id: str, player: str, invitation_id: str) -> bytes:
    return "\x00".join((event_id, player, invitation_id)).encode("utf-8", "surrogatepass")


def seal(code: str, event_id: str, player: str, invitation_id: str) -> str:
    """The code sealed for its row (fits the 64-character column: 3 + 56 characters for a 14-character code)."""
    nonce = os.urandom(_NONCE_BYTES)
    sealed = AESGCM(_key()).encrypt(nonce, code.encode("utf-8"), _aad(event_id, player, invitation_id))
    return SEALED_PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii").rstrip("=")


def unseal(value: str | None, event_id: str, player: str, invitation_id: str) -> str | None:
    """The code, or None when there is none or it cannot be opened (another SECRET_KEY, another row)."""
    if not value or not value.startswith(SEALED_PREFIX):
        return None
    text = value[len(SEALED_PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        plain = AESGCM(_key()).decrypt(raw[:_NONCE_BYTES], raw[_NONCE_BYTES:], _aad(event_id, player, invitation_id))
    except (InvalidTag, ValueError, binascii.Error):
        return None
    return plain.decode("utf-8")

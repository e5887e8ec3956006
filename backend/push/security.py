"""Push endpoint validation: the server must never be steered into the inside network.

A subscription's endpoint is a URL the *browser* chose, so the server treats it
as hostile: it must be ``https`` on the default port, carry no user info, and
its host must resolve only to public (global unicast) addresses. Loopback,
private, link-local, CGNAT, multicast, reserved and IPv4-mapped/-translated
forms of those are refused. Hosts listed in ``PUSH_ALLOWED_HOSTS`` (``host`` or
``host:port``; tests and on-premise push services) skip the address and scheme
checks. The check runs when the subscription is stored and again, on the very
socket used, when a notification is sent (see :mod:`backend.push.sender`), so a
DNS answer that changes in between gains nothing.
"""

from __future__ import annotations

import base64
import ipaddress
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

__all__ = [
    "BlockedEndpoint",
    "Endpoint",
    "check_endpoint",
    "check_keys",
    "is_public_address",
    "resolve_checked",
    "b64url_decode",
    "b64url_encode",
]

MAX_ENDPOINT_LENGTH = 2048


class BlockedEndpoint(ValueError):
    """An endpoint the server refuses to contact; ``code`` is a short reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Endpoint:
    url: str
    scheme: str
    host: str
    port: int
    allowed: bool  #: listed in PUSH_ALLOWED_HOSTS (no scheme or address checks)


def b64url_decode(text: str) -> bytes:
    text = text.strip()
    if not text or any(ch not in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=" for ch in text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text.rstrip("=") + "=" * (-len(text.rstrip("=")) % 4))


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def is_public_address(address: str) -> bool:
    """True for a global unicast address (IPv4-mapped and NAT64/6to4 forms judged by their IPv4 address)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address):
        embedded = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if embedded is None and ip in ipaddress.ip_network("64:ff9b::/96"):
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        if embedded is not None and not is_public_address(str(embedded)):
            return False
    return bool(
        ip.is_global
        and not (
            ip.is_multicast
            or ip.is_reserved
            or ip.is_unspecified
            or ip.is_loopback
            or ip.is_link_local
            or ip.is_private
        )
    )


def _allowed(host: str, port: int, allowed_hosts: Iterable[str]) -> bool:
    host = host.lower()
    for entry in allowed_hosts:
        entry = entry.strip().lower()
        if not entry:
            continue
        if entry == host or entry == f"{host}:{port}" or entry == f"[{host}]:{port}":
            return True
    return False


def parse_endpoint(url: str, allowed_hosts: Iterable[str]) -> Endpoint:
    """Syntax checks only (no DNS)."""
    if not isinstance(url, str) or len(url) > MAX_ENDPOINT_LENGTH:
        raise BlockedEndpoint(
            "invalid-endpoint", f"the endpoint must be a URL of at most {MAX_ENDPOINT_LENGTH} characters"
        )
    if any(ord(ch) < 33 or ord(ch) == 127 for ch in url):
        raise BlockedEndpoint("invalid-endpoint", "the endpoint must not contain spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise BlockedEndpoint("invalid-endpoint", "the endpoint is not a valid URL") from None
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").rstrip(".")
    if scheme not in ("https", "http") or not host:
        raise BlockedEndpoint("invalid-endpoint", "the endpoint must be an https:// URL")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise BlockedEndpoint("invalid-endpoint", "the endpoint must not carry user information")
    port = port or (443 if scheme == "https" else 80)
    allowed = _allowed(host, port, allowed_hosts)
    if not allowed:
        if scheme != "https":
            raise BlockedEndpoint("insecure-endpoint", "the endpoint must use https")
        if port != 443:
            raise BlockedEndpoint("blocked-endpoint", "the endpoint must use the default https port")
    return Endpoint(url, scheme, host, port, allowed)


Resolver = Callable[[str, int], list[str]]


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def resolve_checked(host: str, port: int, allowed: bool, resolver: Resolver | None = None) -> list[str]:
    """The host's addresses, refusing the whole host if any of them is not public (unless allowed)."""
    try:
        literal = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        literal = None
    if literal is not None:
        addresses = [str(literal)]
    else:
        try:
            addresses = (resolver or system_resolver)(host, port)
        except (OSError, UnicodeError) as exc:
            raise BlockedEndpoint("unresolvable-endpoint", f"the endpoint's host does not resolve ({exc})") from None
        if not addresses:
            raise BlockedEndpoint("unresolvable-endpoint", "the endpoint's host does not resolve")
    if not allowed:
        for address in addresses:
            if not is_public_address(address):
                raise BlockedEndpoint(
                    "blocked-endpoint", "the endpoint's host is a loopback, private or otherwise non-public address"
                )
    return addresses


def check_endpoint(url: str, allowed_hosts: Iterable[str], resolver: Resolver | None = None) -> Endpoint:
    """Parse and resolve ``url``; raises :class:`BlockedEndpoint`."""
    endpoint = parse_endpoint(url, allowed_hosts)
    resolve_checked(endpoint.host, endpoint.port, endpoint.allowed, resolver)
    return endpoint


def check_keys(p256dh: str, auth: str) -> None:
    """The subscription's keys: an uncompressed P-256 point on the curve and a 16-byte auth secret."""
    try:
        point = b64url_decode(p256dh)
        secret = b64url_decode(auth)
    except ValueError:
        raise BlockedEndpoint("invalid-keys", "keys.p256dh and keys.auth must be base64url") from None
    if len(point) != 65 or point[0] != 4:
        raise BlockedEndpoint("invalid-keys", "keys.p256dh must be an uncompressed P-256 public key (65 bytes)")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise BlockedEndpoint("invalid-keys", "keys.p256dh is not a point on P-256") from None
    if len(secret) != 16:
        raise BlockedEndpoint("invalid-keys", "keys.auth must be 16 bytes")

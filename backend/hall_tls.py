"""HTTPS for the hall network: a certificate authority of this laptop's own, and a server certificate it signs.

Tablets get the app's offline mode only on a secure origin, and a hall has no
public domain name. So the first ``make run`` makes a small certificate
authority (``hall-ca.crt``, its key never leaves the instance folder) and a
server certificate for this machine's names and LAN addresses. The organizer
installs ``hall-ca.crt`` on each tablet once (served at ``/hall-ca.crt``);
after that ``https://<laptop's address>:8443`` is a secure origin on every
network the laptop joins: when its addresses change, the server certificate is
made again by the same authority and the tablets need nothing new.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import socket
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

__all__ = ["HallTLS", "ensure_certificates", "lan_addresses", "primary_lan_address", "spki_sha256", "CA_FILE"]

CA_FILE = "hall-ca.crt"
_CA_KEY = "hall-ca.key"
_CERT = "server.crt"
_KEY = "server.key"
#: Apple devices refuse TLS server certificates valid for more than 398 days.
_SERVER_DAYS = 397
_CA_DAYS = 3650
_RENEW_BEFORE = dt.timedelta(days=30)


@dataclass(frozen=True)
class HallTLS:
    """Where the files are, and the addresses the server certificate covers."""

    directory: Path
    addresses: tuple[str, ...]
    names: tuple[str, ...]

    @property
    def ca(self) -> Path:
        return self.directory / CA_FILE

    @property
    def cert(self) -> Path:
        return self.directory / _CERT

    @property
    def key(self) -> Path:
        return self.directory / _KEY


def primary_lan_address() -> str | None:
    """The IPv4 address of the interface of the default route (no packet is sent); None without a network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0" else address


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (no packet is sent), loopback excluded."""
    primary = primary_lan_address()
    found: list[str] = [primary] if primary else []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return sorted({a for a in found if not ipaddress.ip_address(a).is_loopback})


def spki_sha256(cert_file: str | Path) -> str:
    """Base64 SHA-256 of a certificate's public key: what certificate pinning (and Chromium's
    ``--ignore-certificate-errors-spki-list``) names it by."""
    import base64

    cert = x509.load_pem_x509_certificate(Path(cert_file).read_bytes())
    spki = cert.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(spki)
    return base64.b64encode(digest.finalize()).decode("ascii")


def _write(path: Path, data: bytes, private: bool) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


def _key_bytes(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _certificate_authority(directory: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    ca_path, key_path = directory / CA_FILE, directory / _CA_KEY
    if ca_path.exists() and key_path.exists():
        ca = x509.load_pem_x509_certificate(ca_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
        if isinstance(key, ec.EllipticCurvePrivateKey):
            return ca, key
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Topcut"),
            x509.NameAttribute(NameOID.COMMON_NAME, f"Topcut hall CA ({socket.gethostname()[:40]})"),
        ]
    )
    now = dt.datetime.now(dt.UTC)
    ca = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=_CA_DAYS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=False,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    _write(key_path, _key_bytes(key), private=True)
    _write(ca_path, ca.public_bytes(serialization.Encoding.PEM), private=False)
    return ca, key


def _covers(cert: x509.Certificate, names: list[str], addresses: list[str]) -> bool:
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return False
    has_names = set(san.get_values_for_type(x509.DNSName))
    has_ips = {str(ip) for ip in san.get_values_for_type(x509.IPAddress)}
    fresh = cert.not_valid_after_utc - dt.datetime.now(dt.UTC) > _RENEW_BEFORE
    return fresh and set(names) <= has_names and set(addresses) <= has_ips


def ensure_certificates(directory: str | Path, extra_addresses: list[str] | None = None) -> HallTLS:
    """The authority (made once) and a server certificate covering today's names and addresses."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    host = socket.gethostname().lower()
    names = sorted({"localhost", host, f"{host.split('.')[0]}.local"})
    addresses = sorted(set(lan_addresses()) | set(extra_addresses or []) | {"127.0.0.1"})
    ca, ca_key = _certificate_authority(directory)
    tls = HallTLS(directory, tuple(addresses), tuple(names))
    if tls.cert.exists() and tls.key.exists():
        current = x509.load_pem_x509_certificate(tls.cert.read_bytes())
        if current.issuer == ca.subject and _covers(current, names, addresses):
            return tls
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.UTC)
    san = [x509.DNSName(n) for n in names] + [x509.IPAddress(ipaddress.ip_address(a)) for a in addresses]
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host[:64] or "topcut")]))
        .issuer_name(ca.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=_SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(san), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    _write(tls.key, _key_bytes(key), private=True)
    _write(
        tls.cert,
        cert.public_bytes(serialization.Encoding.PEM) + ca.public_bytes(serialization.Encoding.PEM),
        private=False,
    )
    return tls

"""Sending one notification with pywebpush (aes128gcm + VAPID), through a guarded HTTP session.

The session never follows redirects, ignores proxy/netrc settings from the
environment, and opens every socket to an address it has just resolved and
checked (:func:`backend.push.security.resolve_checked`): the endpoint is
re-validated at send time on the very connection used.

:func:`send` never raises for a delivery problem; it classifies the answer:

* ``sent`` — 200/201/202;
* ``gone`` — 404/410: the subscription expired or was unsubscribed (delete it);
* ``retry`` — 429, 5xx, connection errors and timeouts (with the push
  service's ``Retry-After``, if any);
* ``failed`` — any other answer (400 bad request, 401/403 VAPID refused,
  413 payload too large), and endpoints refused by the security checks
  (``blocked``).
"""

from __future__ import annotations

import email.utils
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Iterable

import requests
from pywebpush import WebPushException, WebPusher
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

from backend.push import security

__all__ = ["SendResult", "Sender"]

log = logging.getLogger(__name__)


@dataclass
class SendResult:
    outcome: str  # sent | gone | retry | failed | blocked
    status_code: int | None = None
    error: str | None = None
    retry_after: float | None = None


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _guarded_adapter(allowed_hosts: tuple[str, ...], resolver, pool_size: int) -> HTTPAdapter:
    def checked_conn(conn, parent):
        host = conn._dns_host
        allowed = security._allowed(host, conn.port, allowed_hosts)
        addresses = security.resolve_checked(host, conn.port, allowed, resolver)
        last: Exception | None = None
        original = conn._dns_host
        for address in addresses:
            conn._dns_host = address
            try:
                return parent._new_conn(conn)
            except Exception as exc:  # try the host's next address
                last = exc
            finally:
                conn._dns_host = original
        assert last is not None
        raise last

    class GuardedHTTPConnection(HTTPConnection):
        def _new_conn(self):
            return checked_conn(self, HTTPConnection)

    class GuardedHTTPSConnection(HTTPSConnection):
        def _new_conn(self):
            return checked_conn(self, HTTPSConnection)

    class GuardedHTTPPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    class GuardedAdapter(HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = {"http": GuardedHTTPPool, "https": GuardedHTTPSPool}

    return GuardedAdapter(pool_connections=8, pool_maxsize=pool_size, max_retries=0)


class _NoRedirectSession(requests.Session):
    def request(self, *args: Any, **kwargs: Any):  # type: ignore[override]
        kwargs["allow_redirects"] = False
        return super().request(*args, **kwargs)


class Sender:
    """Sends notifications; one keep-alive session per thread."""

    def __init__(self, vapid_keys, allowed_hosts: Iterable[str] = (), resolver=None,
                 timeout: tuple[float, float] = (5.0, 10.0), pool_size: int = 16) -> None:
        self.vapid = vapid_keys
        self.allowed_hosts = tuple(allowed_hosts)
        self.resolver = resolver
        self.timeout = timeout
        self.pool_size = pool_size
        self._local = threading.local()

    def _session(self) -> requests.Session:
        session = getattr(self._local, "session", None)
        if session is None:
            session = _NoRedirectSession()
            session.trust_env = False
            adapter = _guarded_adapter(self.allowed_hosts, self.resolver, self.pool_size)
            session.mount("https://", adapter)
            session.mount("http://", adapter)
            self._local.session = session
        return session

    def send(self, endpoint: str, p256dh: str, auth: str, payload: str, ttl: int, urgency: str,
             topic: str | None) -> SendResult:
        try:
            security.parse_endpoint(endpoint, self.allowed_hosts)
        except security.BlockedEndpoint as exc:
            return SendResult("blocked", None, f"{exc.code}: {exc}")
        headers = self.vapid.headers(endpoint)
        headers["Urgency"] = urgency
        if topic:
            headers["Topic"] = topic
        info = {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}
        try:
            response = WebPusher(info, requests_session=self._session()).send(
                payload.encode("utf-8"), headers, ttl=ttl, content_encoding="aes128gcm", timeout=self.timeout)
        except security.BlockedEndpoint as exc:
            return SendResult("blocked", None, f"{exc.code}: {exc}")
        except WebPushException as exc:  # bad keys: this subscription can never be sent to
            return SendResult("failed", None, str(exc)[:500])
        except requests.RequestException as exc:
            return SendResult("retry", None, f"{type(exc).__name__}: {exc}"[:500])
        except (OSError, ValueError) as exc:
            return SendResult("retry", None, f"{type(exc).__name__}: {exc}"[:500])
        status = response.status_code
        if status in (200, 201, 202):
            return SendResult("sent", status)
        text = ""
        try:
            text = response.text[:300]
        except Exception:  # pragma: no cover - undecodable body
            pass
        if status in (404, 410):
            return SendResult("gone", status, f"HTTP {status} {text}".strip())
        if status == 429 or status >= 500:
            return SendResult("retry", status, f"HTTP {status} {text}".strip(),
                              _retry_after(response.headers.get("Retry-After")))
        return SendResult("failed", status, f"HTTP {status} {text}".strip())

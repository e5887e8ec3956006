"""Sending notifications concurrently: pywebpush encrypts (aes128gcm + VAPID), aiohttp delivers.

One :class:`Sender` per process owns an asyncio loop in its own thread and one
aiohttp session whose connector keeps a pool of keep-alive connections per
push-service host (``PUSH_CONNECTIONS_PER_HOST``), with at most
``PUSH_CONCURRENCY`` requests in flight in all. pywebpush's
:meth:`WebPusher.encode` produces the encrypted body; the VAPID
``Authorization`` header comes from :mod:`backend.push.vapid`.

The SSRF guard holds on the very connection used: the session never follows
redirects nor reads proxy settings from the environment, and every host name
is resolved by :class:`GuardedResolver`, which refuses the host if any address
is not public (:func:`backend.push.security.resolve_checked`); literal
addresses are checked before the request.

A send never raises for a delivery problem; it classifies the answer:

* ``sent`` — 200/201/202;
* ``gone`` — 404/410: the subscription expired or was unsubscribed (delete it);
* ``retry`` — 429, 5xx, connection errors and timeouts (with the push
  service's ``Retry-After``, if any);
* ``failed`` — any other answer (400 bad request, 401/403 VAPID refused,
  413 payload too large); ``blocked`` — refused by the security checks.
"""

from __future__ import annotations

import asyncio
import email.utils
import ipaddress
import logging
import os
import socket
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult
from pywebpush import WebPusher, WebPushException

from backend.push import security

__all__ = ["Job", "SendResult", "Sender", "GuardedResolver"]

log = logging.getLogger(__name__)

OK_STATUSES = frozenset({200, 201, 202})
GONE_STATUSES = frozenset({404, 410})
MAX_ERROR_BODY = 300
MAX_OK_BODY = 65_536


@dataclass(frozen=True)
class Job:
    """One notification to one subscription."""

    endpoint: str
    p256dh: str
    auth: str
    payload: str
    ttl: int
    urgency: str
    topic: str | None


@dataclass(frozen=True)
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


def _is_literal(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def classify(status: int, text: str, retry_after: str | None) -> SendResult:
    """The outcome of a push service's answer."""
    if status in OK_STATUSES:
        return SendResult("sent", status)
    detail = f"HTTP {status} {text}".strip()
    if status in GONE_STATUSES:
        return SendResult("gone", status, detail)
    if status == 429 or status >= 500:
        return SendResult("retry", status, detail, _retry_after(retry_after))
    return SendResult("failed", status, detail)


class GuardedResolver(AbstractResolver):
    """aiohttp's resolver: a host's addresses only if every one of them passes the SSRF check."""

    def __init__(self, allowed_hosts: tuple[str, ...], resolver: security.Resolver | None) -> None:
        self.allowed_hosts = allowed_hosts
        self.resolver = resolver

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        allowed = security._allowed(host, port, self.allowed_hosts)
        addresses = await asyncio.get_running_loop().run_in_executor(
            None, security.resolve_checked, host, port, allowed, self.resolver
        )
        flags = socket.AI_NUMERICHOST | socket.AI_NUMERICSERV
        return [
            ResolveResult(
                hostname=host,
                host=a,
                port=port,
                family=socket.AF_INET6 if ":" in a else socket.AF_INET,
                proto=0,
                flags=flags,
            )
            for a in addresses
        ]

    async def close(self) -> None:
        return None


class Sender:
    """Sends batches of notifications concurrently on its own event loop; thread-safe, fork-aware."""

    def __init__(
        self,
        vapid_keys,
        allowed_hosts: Iterable[str] = (),
        resolver: security.Resolver | None = None,
        timeout: tuple[float, float] = (5.0, 10.0),
        concurrency: int = 256,
        per_host: int = 128,
    ) -> None:
        self.vapid = vapid_keys
        self.allowed_hosts = tuple(allowed_hosts)
        self.resolver = resolver
        self.timeout = timeout
        self.concurrency = max(1, int(concurrency))
        self.per_host = max(1, min(int(per_host), self.concurrency))
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._pid: int | None = None
        self._session: aiohttp.ClientSession | None = None
        self._slots: asyncio.Semaphore | None = None
        self._host_slots: dict[str, asyncio.Semaphore] = {}

    # ------------------------------------------------------------ the loop

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid() or self._thread is None or not self._thread.is_alive():
                self._loop = asyncio.new_event_loop()
                self._session, self._slots, self._host_slots = None, None, {}
                self._pid = os.getpid()
                self._thread = threading.Thread(target=self._loop.run_forever, name="push-send", daemon=True)
                self._thread.start()
            return self._loop

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(
                limit=self.concurrency,
                limit_per_host=self.per_host,
                resolver=GuardedResolver(self.allowed_hosts, self.resolver),
                use_dns_cache=False,
            )
            self._session = aiohttp.ClientSession(connector=connector, trust_env=False, auto_decompress=False)
            self._slots = asyncio.Semaphore(self.concurrency)
        return self._session

    def close(self) -> None:
        """Close the connections and stop the loop's thread."""
        with self._lock:
            loop, thread, self._loop = self._loop, self._thread, None
        if loop is None or self._pid != os.getpid():
            return
        if self._session is not None:
            asyncio.run_coroutine_threadsafe(self._session.close(), loop).result(10)
            self._session = None
        loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(10)
        loop.close()

    # ------------------------------------------------------------ sending

    def send_many(self, jobs: Sequence[Job]) -> list[SendResult]:
        """Send every job concurrently; the results in the jobs' order."""
        if not jobs:
            return []
        loop = self._ensure_loop()
        return asyncio.run_coroutine_threadsafe(self._send_all(list(jobs)), loop).result()

    def send(self, job: Job) -> SendResult:
        return self.send_many([job])[0]

    async def _send_all(self, jobs: list[Job]) -> list[SendResult]:
        session = self._client()
        return list(await asyncio.gather(*(self._send_one(session, job) for job in jobs)))

    def _host_slot(self, endpoint: security.Endpoint) -> asyncio.Semaphore:
        key = f"{endpoint.scheme}://{endpoint.host}:{endpoint.port}"
        slot = self._host_slots.get(key)
        if slot is None:
            slot = self._host_slots[key] = asyncio.Semaphore(self.per_host)
        return slot

    async def _send_one(self, session: aiohttp.ClientSession, job: Job) -> SendResult:
        try:
            endpoint = security.parse_endpoint(job.endpoint, self.allowed_hosts)
            if _is_literal(endpoint.host):  # aiohttp does not resolve a literal address: check it here
                security.resolve_checked(endpoint.host, endpoint.port, endpoint.allowed)
        except security.BlockedEndpoint as exc:
            return SendResult("blocked", None, f"{exc.code}: {exc}")
        assert self._slots is not None
        async with self._host_slot(endpoint), self._slots:
            try:
                body, headers = self._encrypt(job)
            except (WebPushException, ValueError, TypeError) as exc:  # bad keys: never deliverable
                return SendResult("failed", None, str(exc)[:500])
            return await self._post(session, job.endpoint, body, headers)

    def _encrypt(self, job: Job) -> tuple[bytes, dict[str, str]]:
        """The aes128gcm body (pywebpush) and the request's headers (VAPID, TTL, Urgency, Topic)."""
        info = {"endpoint": job.endpoint, "keys": {"p256dh": job.p256dh, "auth": job.auth}}
        encoded = WebPusher(info).encode(job.payload.encode("utf-8"), "aes128gcm")
        headers = self.vapid.headers(job.endpoint)
        headers.update(
            {
                "Content-Encoding": "aes128gcm",
                "TTL": str(int(job.ttl)),
                "Urgency": job.urgency,
                "Content-Type": "application/octet-stream",
            }
        )
        if job.topic:
            headers["Topic"] = job.topic
        return encoded["body"], headers

    async def _post(self, session: aiohttp.ClientSession, url: str, body: bytes, headers: dict[str, str]) -> SendResult:
        connect, read = self.timeout
        timeout = aiohttp.ClientTimeout(total=connect + read, sock_connect=connect)
        try:
            async with session.post(
                url, data=body, headers=headers, allow_redirects=False, timeout=timeout
            ) as response:
                # Read a bounded answer; one read to its end lets the connection go back to the pool.
                limit = MAX_OK_BODY if response.status in OK_STATUSES else MAX_ERROR_BODY
                text = (await response.content.read(limit)).decode("utf-8", "replace")
                return classify(
                    response.status, "" if response.status in OK_STATUSES else text, response.headers.get("Retry-After")
                )
        except security.BlockedEndpoint as exc:
            return SendResult("blocked", None, f"{exc.code}: {exc}")
        except aiohttp.InvalidURL as exc:
            return SendResult("blocked", None, f"invalid-endpoint: {exc}"[:500])
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            cause = exc.__cause__ if isinstance(exc.__cause__, security.BlockedEndpoint) else None
            if cause is not None:
                return SendResult("blocked", None, f"{cause.code}: {cause}")
            return SendResult("retry", None, f"{type(exc).__name__}: {exc}"[:500])

"""Rate limits (Flask-Limiter): wrong codes, anonymous event creation and pushes.

Each limit is counted per client address and, where a token is sent, per token:

* redeeming a code: ``REDEEM_FAILURES_LIMIT`` *unknown* codes per address. Only a code
  no one was ever given counts (a slip scanned twice, 410, or a malformed body, 422, is
  no guess), and a right code always works, past the limit too: a hall's players behind
  one NAT, or a phone there sending wrong codes on purpose, never lock the others out.
  Past the limit an unknown code gets 429 instead of 404 (``wrong_code``). What stops
  guessing is then the code's 60 bits: a right code is told apart from a wrong one, so a
  guesser past the limit still learns which of its guesses hit, but at 1,000 guesses a
  second (more than a server answers) against 10,000 unused codes, finding one takes
  2^60 / 10^4 / 1,000 s, about 3,600 years, and every guess is a logged 429;
* creating an event: ``CREATE_EVENT_LIMIT`` per address;
* pushing: ``PUSH_LIMIT`` per token, and ``PUSH_ADDRESS_LIMIT`` per address.

A refusal is ``429 {"error": "rate-limited", "message": ...}`` with ``Retry-After``;
the app keeps the changes and retries (it shows "server busy").

Where the counts live: ``RATELIMIT_STORAGE_URI`` when set (``redis://...``, any
``limits`` storage); otherwise in memory for SQLite (one machine, ``make run``'s one
worker process; ``LocalStorage``), and in the app's own PostgreSQL database (table ``rate_limits``)
when several app servers share one PostgreSQL, so every server counts together (an UNLOGGED
table written without a WAL sync: a push's one durable commit stays its own; see
``DatabaseStorage``).
Behind a reverse proxy set ``PROXY_COUNT`` (the number of proxies) so the client's
address is read from ``X-Forwarded-For``, and ``TRUSTED_PROXIES`` (the proxies' own
addresses or networks; loopback by default): forwarded headers are believed only from
those, so a client reaching an app server directly cannot choose its own address
(docs/deploy.md).
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from limits import parse
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy import text
from werkzeug.middleware.proxy_fix import ProxyFix

from backend.errors import ApiError, error_response

__all__ = [
    "limiter",
    "init_app",
    "by_address",
    "by_token",
    "wrong_code",
    "create_limit",
    "push_limits",
    "AppStorage",
    "DatabaseStorage",
    "LocalStorage",
    "TrustedProxyFix",
]

DEFAULTS = {
    "REDEEM_FAILURES_LIMIT": "30 per minute",
    "CREATE_EVENT_LIMIT": "60 per hour",
    "PUSH_LIMIT": "300 per minute",
    "PUSH_ADDRESS_LIMIT": "20000 per minute",  # a flood guard: a whole hall may share one address
    "PROXY_COUNT": 0,
    "TRUSTED_PROXIES": ["127.0.0.0/8", "::1"],  # where a reverse proxy on the same machine connects from
}


def by_address() -> str:
    """The client's address (``X-Forwarded-For`` only through ``PROXY_COUNT`` trusted proxies)."""
    return request.remote_addr or "unknown"


def by_token() -> str:
    """The bearer token, hashed (no database lookup: a limit must cost less than what it protects)."""
    header = request.headers.get("Authorization", "")
    return "token:" + hashlib.sha256(header.encode("utf-8", "surrogatepass")).hexdigest()[:32]


# The counts are the app's own (AppStorage, below): one Limiter serves every app a process makes.
limiter = Limiter(key_func=by_address, headers_enabled=True, strategy="fixed-window", storage_uri="topcut-app://")


def _config(key: str) -> str:
    return str(current_app.config.get(key) or DEFAULTS[key])


def wrong_code() -> tuple[str, int] | None:
    """Count an unknown code from the client's address: past ``REDEEM_FAILURES_LIMIT``, (the limit, seconds to wait).

    Called only once the code was looked up and found nobody's, so a right code is never refused whatever its
    address sent before.
    """
    item = parse(_config("REDEEM_FAILURES_LIMIT"))
    counter = FixedWindowRateLimiter(AppStorage())
    if counter.hit(item, "redeem", by_address()):
        return None
    reset = counter.get_window_stats(item, "redeem", by_address()).reset_time
    return str(item), max(1, int(reset - time.time()))


def refuse_wrong_code(what: str) -> None:
    """Count an unknown code (``wrong_code``) and, past the limit, refuse it with 429 naming ``what`` was typed.

    Call it once the code was found nobody's; the caller then answers 404 for a code still within the limit.
    """
    limited = wrong_code()
    if limited is not None:  # a right code from this address still works: only unknown ones are refused
        limit, wait = limited
        raise ApiError(
            429,
            "rate-limited",
            f"too many wrong codes from this address ({limit}): {what} is not valid either; "
            f"check it letter by letter and try again in {wait} s",
            retry_after_s=wait,
        )


# The decorators the views use: values read from the config at request time.
create_limit = limiter.limit(
    lambda: _config("CREATE_EVENT_LIMIT"),
    key_func=by_address,
    scope="create",
    error_message="too many events created from this address",
)


def push_limits(view):
    """Per token and per address, counted separately."""
    per_address = limiter.limit(
        lambda: _config("PUSH_ADDRESS_LIMIT"),
        key_func=by_address,
        scope="push-address",
        error_message="too many pushes from this address",
    )
    per_token = limiter.limit(
        lambda: _config("PUSH_LIMIT"),
        key_func=by_token,
        scope="push-token",
        error_message="too many pushes from this device's token",
    )
    return per_address(per_token(view))


@dataclass
class _Lease:
    """Counts of one key's window this process has taken from the shared counter: ``next`` to ``last``."""

    expires_at: float
    next: int
    last: int


#: A process takes counts of a large limit in blocks of this share of it (one shared write per block).
LEASE_SHARE = 200
#: The key ``limits`` makes for a limit ends with its size, multiples and granularity.
_KEY_LIMIT = re.compile(r"/(\d+)/\d+/[a-z]+$")


class DatabaseStorage(Storage):
    """Fixed-window counters in the app's own database (table ``rate_limits``), shared by every app server.

    What a push costs: the table is UNLOGGED (migration 0007) and each increment commits with
    ``synchronous_commit`` off, so no counter waits for a WAL sync: a push's one durable commit is its own.
    The count and window an increment returns are kept in this process, so reading them back for the answer's
    headers costs no query. A limit of more than ``LEASE_SHARE`` a window (the per-address push flood guard, one
    row a whole hall's NAT shares) is counted in blocks of 1/``LEASE_SHARE`` of it: a process takes a block in one
    write and hands its counts out from memory, so that row is written once per block, and each of N processes
    can hold at most one unused block, refusing at most (N - 1) blocks early. Smaller limits count every hit.
    """

    STORAGE_SCHEME = ["topcut-db"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._leases: dict[str, _Lease] = {}
        self._lock = threading.Lock()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        from sqlalchemy.exc import SQLAlchemyError

        return SQLAlchemyError

    @staticmethod
    def _engine():
        from backend.db import db

        return db.engine

    @staticmethod
    def _block(key: str, amount: int) -> int:
        match = _KEY_LIMIT.search(key)
        return max(amount, int(match.group(1)) // LEASE_SHARE) if match else amount

    #: One increment, taken on every push under a small limit: straight through the driver (psycopg), whose
    #: transaction starts with the first statement; SQLAlchemy's layers would cost more than the statement.
    _INCREMENT = (
        "INSERT INTO rate_limits (key, count, expires_at) VALUES (%(key)s, %(amount)s, %(until)s) "
        "ON CONFLICT (key) DO UPDATE SET "
        "count = CASE WHEN rate_limits.expires_at <= %(now)s THEN %(amount)s ELSE rate_limits.count + %(amount)s END, "
        "expires_at = CASE WHEN rate_limits.expires_at <= %(now)s THEN %(until)s ELSE rate_limits.expires_at END "
        "RETURNING count, expires_at"
    )

    def _take(self, key: str, expiry: int, amount: int) -> tuple[int, float]:
        now = time.time()
        conn = self._engine().raw_connection()  # from the app's pool, back to it on close
        try:
            cursor = conn.cursor()
            cursor.execute("SET LOCAL synchronous_commit TO OFF")
            cursor.execute(self._INCREMENT, {"key": key, "amount": amount, "until": now + expiry, "now": now})
            count, expires_at = cursor.fetchone()
            cursor.close()
            conn.commit()
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()
        return int(count), float(expires_at)

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            lease = self._leases.get(key)
            if lease is not None and lease.expires_at > now and lease.next + amount - 1 <= lease.last:
                lease.next += amount
                return lease.next - 1
        block = self._block(key, amount)
        count, expires_at = self._take(key, expiry, block)
        with self._lock:
            if len(self._leases) > 10_000:  # forget the windows that ended
                self._leases = {k: v for k, v in self._leases.items() if v.expires_at > now}
            self._leases[key] = _Lease(expires_at, count - block + amount + 1, count)
        return count - block + amount

    def _known(self, key: str) -> _Lease | None:
        with self._lock:
            lease = self._leases.get(key)
        return lease if lease is not None and lease.expires_at > time.time() else None

    def get(self, key: str) -> int:
        lease = self._known(key)
        if lease is not None:
            return lease.next - 1
        with self._engine().connect() as conn:
            value = conn.execute(
                text("SELECT count FROM rate_limits WHERE key = :key AND expires_at > :now"),
                {"key": key, "now": time.time()},
            ).scalar()
        return int(value or 0)

    def get_expiry(self, key: str) -> float:
        lease = self._known(key)
        if lease is not None:
            return lease.expires_at
        with self._engine().connect() as conn:
            value = conn.execute(
                text("SELECT expires_at FROM rate_limits WHERE key = :key AND expires_at > :now"),
                {"key": key, "now": time.time()},
            ).scalar()
        return float(value) if value is not None else time.time()

    def check(self) -> bool:
        try:
            with self._engine().connect() as conn:
                conn.execute(text("SELECT 1"))
            return True
        except Exception:  # noqa: BLE001 - a health check answers, it does not raise
            return False

    def reset(self) -> int | None:
        with self._lock:
            self._leases.clear()
        with self._engine().begin() as conn:
            return conn.execute(text("DELETE FROM rate_limits")).rowcount

    def clear(self, key: str) -> None:
        with self._lock:
            self._leases.pop(key, None)
        with self._engine().begin() as conn:
            conn.execute(text("DELETE FROM rate_limits WHERE key = :key"), {"key": key})


class LocalStorage(Storage):
    """Fixed-window counters in this process's memory (SQLite's default: one machine, one app process).

    ``limits``' own ``memory://`` storage starts a timer thread to expire its counters whenever the last
    one has ended, which for pushes arriving more than 10 ms apart is a new thread per push; here a window
    ends when it is next read, and the windows that ended are swept once the table grows large.
    """

    STORAGE_SCHEME = ["topcut-local"]
    #: Counters kept before the windows that ended are swept out.
    SWEEP_AT = 10_000

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        self._counts: dict[str, tuple[int, float]] = {}  # key -> (count, when its window ends)
        self._lock = threading.Lock()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return ValueError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self._lock:
            count, ends = self._counts.get(key, (0, 0.0))
            if ends <= now:
                count, ends = 0, now + expiry
                if len(self._counts) >= self.SWEEP_AT:
                    self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
            count += amount
            self._counts[key] = (count, ends)
            return count

    def _current(self, key: str) -> tuple[int, float] | None:
        found = self._counts.get(key)
        return found if found is not None and found[1] > time.time() else None

    def get(self, key: str) -> int:
        found = self._current(key)
        return found[0] if found is not None else 0

    def get_expiry(self, key: str) -> float:
        found = self._current(key)
        return found[1] if found is not None else time.time()

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._lock:
            cleared = len(self._counts)
            self._counts = {}
        return cleared

    def clear(self, key: str) -> None:
        with self._lock:
            self._counts.pop(key, None)


class AppStorage(Storage):
    """The counts of the app handling the request (``app.extensions["topcut_rate_limits"]``).

    Flask-Limiter keeps one storage per ``Limiter``; the views' limits are declared once, on the module's
    ``limiter``, and every app (a test makes many) brings its own counts: in memory, in its database, or in
    the storage its ``RATELIMIT_STORAGE_URI`` names.
    """

    STORAGE_SCHEME = ["topcut-app"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return Exception

    @staticmethod
    def _backend() -> Storage:
        return current_app.extensions["topcut_rate_limits"]

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        return self._backend().incr(key, expiry, amount)

    def get(self, key: str) -> int:
        return self._backend().get(key)

    def get_expiry(self, key: str) -> float:
        return self._backend().get_expiry(key)

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        return self._backend().reset()

    def clear(self, key: str) -> None:
        self._backend().clear(key)


def _backend_storage(app: Flask) -> tuple[str, Any]:
    uri = app.config.get("RATELIMIT_STORAGE_URI")
    postgres = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    if not uri:
        uri = "topcut-db://" if postgres else "topcut-local://"
    if uri == "topcut-local://":
        return uri, LocalStorage()
    if uri == "topcut-db://":
        if not postgres:  # an SQLite writer holds the one write lock a counter would need: counts stay in memory
            raise RuntimeError(
                "RATELIMIT_STORAGE_URI=topcut-db:// needs PostgreSQL; with SQLite use memory:// "
                "or a shared storage such as redis://"
            )
        return uri, DatabaseStorage()
    try:
        return uri, storage_from_string(uri)
    except Exception as exc:  # noqa: BLE001 - a configuration mistake, said in one line at start
        raise RuntimeError(f"RATELIMIT_STORAGE_URI={uri!r} is not a usable rate-limit storage: {exc}") from None


class TrustedProxyFix:
    """``X-Forwarded-*`` believed only from a trusted proxy's address; from anyone else they are dropped.

    With ``PROXY_COUNT`` set, an app server reachable directly (a port bound on every interface) would
    otherwise let a client name its own address for every rate limit, or a victim's (a hall's NAT) to
    lock it out.
    """

    _FORWARDED = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST", "HTTP_FORWARDED")

    def __init__(self, app: Callable[..., Any], proxies: int, trusted: Iterable[str]) -> None:
        self.app = app
        self.fixed = ProxyFix(app, x_for=proxies, x_proto=proxies, x_host=proxies)
        self.trusted = [ipaddress.ip_network(str(net).strip(), strict=False) for net in trusted]

    def _is_trusted(self, address: str | None) -> bool:
        try:
            ip = ipaddress.ip_address((address or "").strip("[]"))
        except ValueError:
            return False
        return any(ip in net for net in self.trusted if net.version == ip.version)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if self._is_trusted(environ.get("REMOTE_ADDR")):
            return self.fixed(environ, start_response)
        for key in self._FORWARDED:
            environ.pop(key, None)
        return self.app(environ, start_response)


def _trusted_proxies(app: Flask) -> list[str]:
    value = app.config["TRUSTED_PROXIES"]
    networks = value.split(",") if isinstance(value, str) else list(value or [])
    for net in networks:
        try:
            ipaddress.ip_network(str(net).strip(), strict=False)
        except ValueError:
            raise RuntimeError(
                f"TRUSTED_PROXIES: {str(net)!r} is not an address or network (e.g. 10.0.0.5 or 10.0.0.0/24)"
            ) from None
    return [str(net).strip() for net in networks]


def init_app(app: Flask) -> None:
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    proxies = int(app.config["PROXY_COUNT"] or 0)
    if proxies > 0:
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, proxies, _trusted_proxies(app))  # type: ignore[method-assign]
    app.config["RATELIMIT_STORAGE_URI"], app.extensions["topcut_rate_limits"] = _backend_storage(app)
    limiter.init_app(app)

    @app.errorhandler(RateLimitExceeded)
    def _rate_limited(exc: RateLimitExceeded):
        limit = limiter.current_limit
        wait = max(1, int(limit.reset_at - time.time())) if limit is not None else 60
        response = error_response(
            429, "rate-limited", f"{exc.description} ({exc.limit.limit}); try again in {wait} s", retry_after_s=wait
        )
        response.headers["Retry-After"] = str(wait)
        return response

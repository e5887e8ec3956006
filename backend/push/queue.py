"""The durable outbox and its drainer.

Semantics
---------
* Rows are written by :func:`backend.push.notifications.enqueue_for_ops` in the
  same transaction as the accepted operations: committed together or not at
  all, so a crash or restart loses nothing.
* Each row has a unique ``key`` (event, kind, what it is about, player,
  subscription); ``INSERT ... ON CONFLICT DO NOTHING`` means the same
  notification is never queued twice.
* A drainer claims due rows atomically: one statement moves them from
  ``pending`` to ``sending`` with its id and a lease (PostgreSQL:
  ``FOR UPDATE SKIP LOCKED``; SQLite: inside ``BEGIN IMMEDIATE``). Any number
  of drainers (threads, gunicorn workers, hosts) can run; a row is handed to
  exactly one. Only after the claim commits does the drainer send.
* Outcomes: ``sent``; ``superseded`` (newer news of the same tag was queued for the device: never
  sent after it); ``gone`` (404/410: the subscription is deleted and its
  other pending rows are marked ``gone``); ``failed`` (permanent refusal,
  endpoint blocked, or ``PUSH_MAX_ATTEMPTS`` reached); ``expired`` (its time
  passed: a stale "round 3 is paired" helps no one); otherwise back to
  ``pending`` with exponential backoff and jitter (``PUSH_BACKOFF_BASE`` ×
  2^(attempts-1), capped at ``PUSH_BACKOFF_MAX``; at least ``Retry-After``).
* A drainer that dies between claiming and recording leaves rows in
  ``sending``; when their lease runs out another drainer takes them over. That
  is the only window in which a message can reach the push service twice, and
  each message carries the same ``Topic`` and notification ``tag``, so the
  push service and the phone collapse the repeat into one notification.

Sending is concurrent (:mod:`backend.push.sender`: aiohttp, a connection pool
per push-service host, ``PUSH_CONCURRENCY`` requests in flight); each process
runs ``PUSH_PIPELINE`` drainer lanes so one batch is claimed or recorded while
another is on the wire. With ``PUSH_SENDER = "inline"`` (the default) every app
process runs its lanes (started lazily, fork-safe), woken immediately when its
own requests commit new rows and polling every ``PUSH_POLL_SECONDS`` for rows
other processes wrote. With ``"external"`` app processes only enqueue and
``flask --app backend topcut-push-sender`` (one or more, anywhere) sends.
"""

from __future__ import annotations

import logging
import os
import random
import socket
import threading
import time
import uuid
from typing import Any

from flask import Flask
from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from backend.audience import bump_audience
from backend.db import begin_write, db
from backend.models import PushOutbox, PushSubscription, now_ms
from backend.push.notifications import PENDING_WAKE
from backend.push.sender import Job, Sender, SendResult

__all__ = ["Drainer", "init_app", "drainer", "DEFAULTS"]

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "PUSH_ENABLED": None,  # None: on when VAPID_SUBJECT is a real contact; True: refuse to start without one
    "PUSH_SENDER": "inline",  # inline: every app process sends; external: only topcut-push-sender does
    "PUSH_WORKER": None,  # None: on unless TESTING
    "PUSH_ALLOWED_HOSTS": (),
    "PUSH_BATCH_SIZE": 200,
    "PUSH_PIPELINE": 2,  # batches in progress at once per process (one claims while one sends)
    "PUSH_CONCURRENCY": 256,  # requests in flight per process
    "PUSH_CONNECTIONS_PER_HOST": 128,
    "PUSH_POLL_SECONDS": 1.0,
    "PUSH_BACKOFF_BASE": 2.0,
    "PUSH_BACKOFF_MAX": 600.0,
    "PUSH_MAX_ATTEMPTS": 12,
    "PUSH_TIMEOUT": (5.0, 10.0),
    "PUSH_TIME_WARNING_MINUTES": 5,
    "PUSH_RESOLVER": None,  # tests: a callable(host, port) -> [addresses]
}
#: ``PUSH_SENDER``: who sends. ``inline``: each app process runs drainer lanes (one machine, ``make run``);
#: ``external``: app processes only enqueue; ``flask --app backend topcut-push-sender`` sends (scale-out).
SENDER_MODES = ("inline", "external")


class Drainer:
    def __init__(self, app: Flask) -> None:
        self.app = app
        self.worker_id = f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._pid: int | None = None
        self._start_lock = threading.Lock()
        self._sender: Sender | None = None
        self._sender_pid: int | None = None

    # ------------------------------------------------------------ lifecycle

    @property
    def sender(self) -> Sender:
        if self._sender is None or self._sender_pid != os.getpid():
            from backend.push import vapid

            cfg = self.app.config
            self._sender = Sender(
                vapid.keys(self.app),
                cfg["PUSH_ALLOWED_HOSTS"],
                cfg["PUSH_RESOLVER"],
                tuple(cfg["PUSH_TIMEOUT"]),
                cfg["PUSH_CONCURRENCY"],
                cfg["PUSH_CONNECTIONS_PER_HOST"],
            )
            self._sender_pid = os.getpid()
        return self._sender

    def enabled(self) -> bool:
        """Whether this process runs the background drainer (never when an external sender does the sending)."""
        if self.app.config["PUSH_SENDER"] == "external" or not self.app.config.get("PUSH_ENABLED"):
            return False
        flag = self.app.config.get("PUSH_WORKER")
        return (not self.app.config.get("TESTING")) if flag is None else bool(flag)

    def _running(self) -> bool:
        return self._pid == os.getpid() and bool(self._threads) and all(t.is_alive() for t in self._threads)

    def ensure_started(self, force: bool = False) -> None:
        """Start the background lanes in this process (again after a fork); ``force``: even if not enabled."""
        if not (force or self.enabled()) or self._running():
            return
        with self._start_lock:
            if self._running():
                return
            if self._pid != os.getpid():
                self.worker_id = f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
            self._pid = os.getpid()
            self._stop.clear()
            lanes = max(1, int(self.app.config["PUSH_PIPELINE"]))
            self._threads = [
                threading.Thread(target=self.run_forever, name=f"push-drainer-{n}", daemon=True) for n in range(lanes)
            ]
            for thread in self._threads:
                thread.start()

    def wake(self) -> None:
        self.ensure_started()
        self._wake.set()

    def stop(self, timeout: float = 10) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout)
        self._threads = []
        if self._sender is not None and self._sender_pid == os.getpid():
            self._sender.close()
        self._sender = None

    def run_forever(self) -> None:
        """One lane: claim, send and record batches until stopped; several lanes overlap claiming and sending."""
        failures = 0
        while not self._stop.is_set():
            self._wake.clear()  # a wake arriving while this batch is handled is kept for the next wait
            try:
                handled = self.drain_once()
                failures = 0
            except Exception:  # the database is away: keep the thread, back off
                failures += 1
                log.exception("push drainer: drain failed")
                handled = 0
                self._stop.wait(min(30.0, 0.5 * 2 ** min(failures, 6)))
            if handled == 0 and not self._stop.is_set():
                self._wake.wait(self._idle_wait())

    def _idle_wait(self) -> float:
        poll = float(self.app.config["PUSH_POLL_SECONDS"])
        try:
            with self.app.app_context():
                nxt = db.session.execute(
                    select(PushOutbox.next_attempt_at)
                    .where(PushOutbox.state == "pending")
                    .order_by(PushOutbox.next_attempt_at)
                    .limit(1)
                ).scalar()
                db.session.rollback()
        except Exception:
            return poll
        if nxt is None:
            return poll
        return max(0.01, min(poll, (nxt - now_ms()) / 1000))

    # ------------------------------------------------------------ one round

    def drain_once(self) -> int:
        """Claim a batch of due rows, send them, record the outcomes; returns how many were handled."""
        with self.app.app_context():
            claimed = self._claim()
        if not claimed:
            return 0
        jobs = [(row, sub) for row, sub in claimed if sub is not None]
        results: dict[int, SendResult] = {
            row["id"]: SendResult("gone", None, "subscription removed") for row, sub in claimed if sub is None
        }
        sent = self.sender.send_many(
            [
                Job(
                    sub["endpoint"],
                    sub["p256dh"],
                    sub["auth"],
                    row["payload"],
                    row["ttl"],
                    row["urgency"],
                    row["topic"],
                )
                for row, sub in jobs
            ]
        )
        results.update((row["id"], result) for (row, _), result in zip(jobs, sent))
        with self.app.app_context():
            self._record(claimed, results)
        return len(claimed)

    def _claim(self) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
        cfg = self.app.config
        batch = int(cfg["PUSH_BATCH_SIZE"])
        timeout = sum(cfg["PUSH_TIMEOUT"])
        # Claimed rows wait behind every batch in progress in this process before their own request ends.
        in_flight = max(1, min(int(cfg["PUSH_CONCURRENCY"]), int(cfg["PUSH_CONNECTIONS_PER_HOST"])))
        waves = int(cfg["PUSH_PIPELINE"]) * batch / in_flight
        lease_ms = int((waves + 1) * timeout * 1000 + 30_000)
        postgres = db.engine.dialect.name == "postgresql"
        begin_write()
        now = now_ms()
        due = (
            select(PushOutbox.id)
            .where(
                or_(
                    and_(PushOutbox.state == "pending", PushOutbox.next_attempt_at <= now),
                    and_(PushOutbox.state == "sending", PushOutbox.lease_until < now),
                )
            )
            .order_by(PushOutbox.next_attempt_at)
            .limit(batch)
        )
        if postgres:
            due = due.with_for_update(skip_locked=True)
        ids = list(db.session.execute(due).scalars())
        if not ids:
            db.session.commit()
            return []
        mapped = (
            db.session.execute(
                update(PushOutbox)
                .where(
                    PushOutbox.id.in_(ids),
                    or_(
                        PushOutbox.state == "pending", and_(PushOutbox.state == "sending", PushOutbox.lease_until < now)
                    ),
                )
                .values(
                    state="sending",
                    claimed_by=self.worker_id,
                    lease_until=now + lease_ms,
                    attempts=PushOutbox.attempts + 1,
                )
                .returning(
                    PushOutbox.id,
                    PushOutbox.subscription_id,
                    PushOutbox.payload,
                    PushOutbox.ttl,
                    PushOutbox.urgency,
                    PushOutbox.topic,
                    PushOutbox.attempts,
                    PushOutbox.expires_at,
                )
            )
            .mappings()
            .all()
        )
        rows: list[dict[str, Any]] = [dict(r) for r in mapped]
        expired = [r["id"] for r in rows if r["expires_at"] < now]
        if expired:
            db.session.execute(
                update(PushOutbox)
                .where(PushOutbox.id.in_(expired))
                .values(state="expired", lease_until=None, last_error="expired before sending")
            )
        rows = [r for r in rows if r["expires_at"] >= now]
        sub_ids = {r["subscription_id"] for r in rows}
        subs = {}
        if sub_ids:
            for s in db.session.execute(
                select(
                    PushSubscription.id, PushSubscription.endpoint, PushSubscription.p256dh, PushSubscription.auth
                ).where(PushSubscription.id.in_(sub_ids))
            ).mappings():
                subs[s["id"]] = dict(s)
        db.session.commit()
        return [(r, subs.get(r["subscription_id"])) for r in rows]

    def _backoff_ms(self, attempts: int, retry_after: float | None) -> int:
        cfg = self.app.config
        delay = min(float(cfg["PUSH_BACKOFF_MAX"]), float(cfg["PUSH_BACKOFF_BASE"]) * 2 ** max(0, attempts - 1))
        delay *= 0.75 + random.random() * 0.5
        if retry_after is not None:
            delay = max(delay, min(retry_after, float(cfg["PUSH_BACKOFF_MAX"])))
        return int(delay * 1000)

    def _record(self, claimed, results: dict[int, SendResult]) -> None:
        cfg = self.app.config
        begin_write()
        now = now_ms()
        mine = and_(PushOutbox.claimed_by == self.worker_id, PushOutbox.state == "sending")
        refused = {row["subscription_id"] for row, _ in claimed if results[row["id"]].outcome in ("gone", "blocked")}
        if refused:  # their subscriptions are removed below: their events' rows first (backend/audience.py)
            bump_audience(
                db.session.execute(
                    select(PushSubscription.event_id).where(PushSubscription.id.in_(refused)).distinct()
                ).scalars()
            )
        sent = [row["id"] for row, _ in claimed if results[row["id"]].outcome == "sent"]
        for start in range(0, len(sent), 500):
            db.session.execute(
                update(PushOutbox)
                .where(PushOutbox.id.in_(sent[start : start + 500]), mine)
                .values(state="sent", sent_at=now, lease_until=None, status_code=201, last_error=None)
            )
        gone_subs: set[str] = set()
        for row, _sub in claimed:
            result = results[row["id"]]
            if result.outcome == "sent":
                continue
            values: dict[str, Any] = {
                "lease_until": None,
                "status_code": result.status_code,
                "last_error": result.error,
            }
            if result.outcome in ("gone", "blocked"):
                values["state"] = "gone" if result.outcome == "gone" else "failed"
                values["next_attempt_at"] = now  # when it was refused: the organizer's push status shows it
                gone_subs.add(row["subscription_id"])
            elif result.outcome == "failed":
                values.update(state="failed", next_attempt_at=now)
            else:
                nxt = now + self._backoff_ms(row["attempts"], result.retry_after)
                if row["attempts"] >= int(cfg["PUSH_MAX_ATTEMPTS"]):
                    values.update(state="failed", next_attempt_at=now)
                elif nxt > row["expires_at"]:
                    values["state"] = "expired"
                elif self._replaced(row):
                    values.update(state="superseded", last_error="replaced by newer news of the same kind")
                else:
                    values.update(state="pending", next_attempt_at=nxt)
            db.session.execute(update(PushOutbox).where(PushOutbox.id == row["id"], mine).values(**values))
        if gone_subs:
            db.session.execute(delete(PushSubscription).where(PushSubscription.id.in_(gone_subs)))
            db.session.execute(
                update(PushOutbox)
                .where(PushOutbox.subscription_id.in_(gone_subs), PushOutbox.state == "pending")
                .values(state="gone", last_error="subscription removed")
            )
        db.session.commit()
        for row, _ in claimed:
            result = results[row["id"]]
            if result.outcome in ("failed", "blocked"):
                log.warning("push %s refused for good: %s (%s)", row["id"], result.outcome, result.error)
            elif result.outcome != "sent":
                log.info("push %s: %s (%s)", row["id"], result.outcome, result.error)

    @staticmethod
    def _replaced(row: dict[str, Any]) -> bool:
        """Whether newer news of this row's tag was queued for its device while it was on the wire."""
        if not row.get("topic"):
            return False
        return (
            db.session.execute(
                select(PushOutbox.id)
                .where(
                    PushOutbox.subscription_id == row["subscription_id"],
                    PushOutbox.topic == row["topic"],
                    PushOutbox.id > row["id"],
                )
                .limit(1)
            ).first()
            is not None
        )

    def drain_until_idle(self, timeout: float = 30.0) -> int:
        """Tests and the CLI: drain everything that is due now; returns how many rows were handled."""
        total, deadline = 0, time.monotonic() + timeout
        while time.monotonic() < deadline:
            handled = self.drain_once()
            if handled == 0:
                break
            total += handled
        return total


def drainer(app: Flask) -> Drainer:
    return app.extensions["topcut_push_drainer"]


def _after_commit(session: Session) -> None:
    """New rows are committed: wake this process's drainer — after the response, inside a request, so the
    sending threads never slow down the request that queued them."""
    if session.info.pop(PENDING_WAKE, False):
        from flask import current_app, g, has_request_context

        try:
            found = current_app.extensions.get("topcut_push_drainer")
        except RuntimeError:  # outside an app context
            return
        if found is None:
            return
        if has_request_context():
            g.topcut_push_wake = True
        else:
            found.wake()


def _after_rollback(session: Session) -> None:
    session.info.pop(PENDING_WAKE, None)


_listening = False


def init_app(app: Flask) -> None:
    global _listening
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    allowed = app.config["PUSH_ALLOWED_HOSTS"]
    if isinstance(allowed, str):
        app.config["PUSH_ALLOWED_HOSTS"] = tuple(h for h in allowed.replace(",", " ").split() if h)
    if app.config["PUSH_SENDER"] not in SENDER_MODES:
        raise ValueError(f"PUSH_SENDER must be one of {', '.join(SENDER_MODES)}, not {app.config['PUSH_SENDER']!r}")
    app.extensions["topcut_push_drainer"] = Drainer(app)
    if not _listening:
        sa_event.listen(Session, "after_commit", _after_commit)
        sa_event.listen(Session, "after_soft_rollback", lambda session, previous: _after_rollback(session))
        _listening = True

    @app.before_request
    def _start_drainer() -> None:
        app.extensions["topcut_push_drainer"].ensure_started()

    @app.teardown_request
    def _wake_drainer(_exc) -> None:
        from flask import g

        if g.pop("topcut_push_wake", False):
            app.extensions["topcut_push_drainer"].wake()

"""Web Push for Topcut: players' phones learn their table, results to confirm, disputes, time and the cut.

* :mod:`.vapid` — the server's VAPID key pair (instance folder);
* :mod:`.subscriptions` — the blueprint: public key, subscribe, renew, unsubscribe, status;
* :mod:`.notifications` — which accepted operations notify whom, queued in the operation's transaction;
* :mod:`.queue` — the durable outbox and its drainer (claims, retries, backoff);
* :mod:`.sender` — pywebpush encryption, concurrent aiohttp delivery through a guarded resolver;
* :mod:`.security` — endpoint validation.
"""

from __future__ import annotations

import logging
import signal
import threading
from typing import Any

import click
from flask import Flask, current_app

__all__ = ["init_app", "on_ops_accepted", "push_off_reason"]

log = logging.getLogger(__name__)


def on_ops_accepted(event_id: str, ops: list[dict[str, Any]], state: dict[str, Any]) -> int:
    """The ledger's hook (inside the accepting transaction): queue what these operations announce."""
    from backend.push.notifications import enqueue_for_ops

    return enqueue_for_ops(event_id, ops, state, current_app.config)


def push_off_reason(app: Flask | None = None) -> str | None:
    """Why push is off on this server (the words the notifications buttons show), or None when it is on."""
    app = app or current_app
    return app.extensions.get("topcut_push_off")


def _decide(app: Flask) -> None:
    """Push on or off: on only with a real ``VAPID_SUBJECT``; ``PUSH_ENABLED = True`` makes a bad one fatal.

    Apple's push service refuses a token whose subject is ``mailto:…@localhost`` (403 BadJwtToken), so a
    server without a real contact sends nothing rather than failing every iPhone (docs/deploy.md, Push).
    """
    from backend.push import vapid

    wanted = app.config.get("PUSH_ENABLED")
    if isinstance(wanted, str):
        wanted = wanted.strip().lower() not in ("0", "false", "no", "off", "")
    problem = vapid.subject_problem(app.config.get("VAPID_SUBJECT"))
    if wanted is False:
        app.config["PUSH_ENABLED"] = False
        app.extensions["topcut_push_off"] = "Notifications are off on this server (PUSH_ENABLED is false)"
        return
    if problem is None:
        app.config["PUSH_ENABLED"] = True
        app.extensions.pop("topcut_push_off", None)
        return
    if wanted is True:
        raise RuntimeError(
            f"PUSH_ENABLED is true but {problem}. Set VAPID_SUBJECT to a real contact push services accept: "
            "mailto:you@your-domain.org or https://your-domain.org (docs/deploy.md, Push)"
        )
    app.config["PUSH_ENABLED"] = False
    app.extensions["topcut_push_off"] = vapid.OFF_MESSAGE
    log.warning(
        "push notifications are off: %s. To turn them on, set TOPCUT_VAPID_SUBJECT=mailto:you@your-domain.org "
        "(a real address push services accept) and restart (docs/deploy.md, Push)",
        problem,
    )


def init_app(app: Flask) -> None:
    from backend.push import queue, subscriptions, vapid

    queue.init_app(app)
    _decide(app)
    vapid.ensure_keys(app)
    app.register_blueprint(subscriptions.bp)

    @app.cli.command("topcut-vapid")
    @click.option("--rotate", is_flag=True, help="Replace the key pair (every existing subscription stops working).")
    def vapid_command(rotate: bool) -> None:
        """Create the VAPID key pair if missing and print the public key."""
        path = vapid.key_path(app)
        if rotate:
            vapid.generate_key_file(path, replace=True)
            app.extensions.pop("topcut_vapid", None)
        keys = vapid.ensure_keys(app)
        click.echo(f"VAPID key file: {path}")
        click.echo(f"public key (applicationServerKey): {keys.public_key}")

    @app.cli.command("topcut-push-sender")
    @click.option("--once", is_flag=True, help="Send what is due now, then exit.")
    def sender_command(once: bool) -> None:
        """Drain the push outbox in the foreground: the sender process of a scale-out (PUSH_SENDER=external)."""
        off = push_off_reason(app)
        if off is not None:
            raise click.ClickException(f"{off}: nothing would be sent (docs/deploy.md, Push)")
        drainer = queue.drainer(app)
        if once:
            click.echo(f"handled {drainer.drain_until_idle(timeout=300)} notification(s)")
            drainer.stop()
            return
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        drainer.ensure_started(force=True)
        click.echo(
            f"push sender {drainer.worker_id} running with {len(drainer._threads)} lane(s); SIGTERM or Ctrl-C stops it",
            err=True,
        )
        while not stop.wait(1.0):
            pass
        drainer.stop()

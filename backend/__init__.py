"""Topcut's server: a Flask application factory (flaskr style)."""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, request

from backend.db import configure_engine, db

PROJECT_ROOT = Path(__file__).resolve().parent.parent
MAX_CONTENT_LENGTH = 8 * 1024 * 1024  # 8 MiB: a push of 500 operations, or a large event document to import


def _database_url(url: str) -> str:
    """Accept the usual spellings of a PostgreSQL URL and use the psycopg (3) driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _configure(app: Flask, config: dict[str, Any]) -> None:
    """The app's configuration: defaults, then ``config`` (tests) or instance/config.py and TOPCUT_ variables."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL")
        or "sqlite:///" + os.path.join(app.instance_path, "topcut.sqlite"),
        PWA_DIR=str(PROJECT_ROOT / "pwa"),
        WEB_BUILD_DIR=str(PROJECT_ROOT / "build" / "web"),
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
    )
    if config:
        app.config.from_mapping(config)
    else:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_prefixed_env("TOPCUT")  # TOPCUT_SECRET_KEY, TOPCUT_PUSH_SENDER=external ... (docs/deploy.md)
    app.config["SQLALCHEMY_DATABASE_URI"] = _database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        # No ping before each pooled connection's use: it was a round trip on every request, a third of an
        # up-to-date phone's view. A connection the server dropped (restart, fail-over) fails its request with
        # 503 "busy", which every device retries, and the pool is then renewed (tests/backend/
        # test_database_reconnect.py).
        options.setdefault("pool_pre_ping", False)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def _register_blueprints(app: Flask) -> None:
    """The API's resources, one blueprint each (Star Trek's in backend/startrek/)."""
    from backend import (
        events,
        hall,
        invitations,
        openapi,
        people,
        players,
        public,
        recovery,
        shell,
        sync,
        tokens,
        transfer,
        view,
    )

    app.register_blueprint(shell.bp)
    for module in (events, sync, invitations, recovery, tokens, players, public, hall, openapi, transfer, view):
        app.register_blueprint(module.bp)
    app.register_blueprint(people.bp)  # players across events (docs/people.md)

    from backend import startrek

    startrek.init_app(app)  # leagues, league backups, ratings (backend/startrek/)


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` (tests) overrides instance/config.py.

    With no configuration at all the app keeps an SQLite database in its
    instance folder (``instance/topcut.sqlite`` next to this package);
    ``DATABASE_URL`` in the environment (e.g. ``postgresql+psycopg://...``)
    selects another database; ``TOPCUT_<KEY>`` variables set any other key
    (values parsed as JSON when they are). ``INSTANCE_PATH`` in ``config`` (or the
    ``TOPCUT_INSTANCE_PATH`` variable) moves the instance folder (tests use a temporary one).
    """
    config = dict(config or {})
    instance_path = config.pop("INSTANCE_PATH", None) or os.environ.get("TOPCUT_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_path=str(instance_path) if instance_path else None,
        instance_relative_config=True,
        static_folder=None,
    )
    from backend.api import StrictJSONProvider

    app.json = StrictJSONProvider(app)
    _configure(app, config)

    os.makedirs(app.instance_path, exist_ok=True)
    app.config["SECRET_KEY"] = _secret_key(app)

    from backend import models, schema  # noqa: F401  (models: the tables the migrations make)

    db.init_app(app)
    with app.app_context():
        configure_engine(db.engine, str(app.config.get("SQLITE_SYNCHRONOUS", "FULL")).upper())
    schema.init_app(app)  # Alembic: upgrade to the newest revision (AUTO_MIGRATE=False skips it)

    from backend import errors, security

    errors.init_app(app)
    security.init_app(app)  # CSP, nosniff, Referrer-Policy, frame-ancestors

    from backend import compression, limits

    limits.init_app(app)  # 429 on wrong-code guessing, event-creation floods, push floods
    compression.init_app(app)  # gzip for answers over 1 KB (a first pull: 2.6 MB of JSON, 0.25 MB sent)

    @app.before_request
    def _refuse_nul():
        if "\x00" in request.path or any("\x00" in v for v in request.args.values()):
            from backend.errors import error_response

            return error_response(400, "invalid-text", "the URL must not contain NUL characters")
        return None

    _register_blueprints(app)

    from backend import backups, push

    backups.init_app(app)  # GET /api/events/<id>/backup, POST /api/events/restore, topcut-backup/-restore commands
    push.init_app(app)  # Web Push: VAPID keys, /api/push blueprint, outbox drainer, CLI commands
    return app


#: Where the generated secret key lives (in the instance folder, like the VAPID key).
SECRET_KEY_FILE = "secret_key"
#: Keys that protect nothing: refused outside tests.
_WEAK_KEYS = {"dev", "development", "secret", "changeme", "change-me", "test"}


def _secret_key(app: Flask) -> str:
    """The HMAC key (it keys device aliases and a withheld seed): configured, or generated once per instance.

    A configured key that is well known or shorter than 32 characters is refused outside tests: with
    it a player could confirm a guess at a withheld seed offline (and so learn Doomtown's secret time).
    """
    configured = app.config.get("SECRET_KEY") or os.environ.get("TOPCUT_SECRET_KEY")
    if configured:
        weak = str(configured).lower() in _WEAK_KEYS or len(str(configured)) < 32
        if weak and not app.testing:
            raise RuntimeError(
                "SECRET_KEY is too weak (a well-known value or under 32 characters): remove it "
                f"to use the key generated in {os.path.join(app.instance_path, SECRET_KEY_FILE)}, "
                "or set a long random one (python -c 'import secrets; print(secrets.token_urlsafe(48))')"
            )
        return str(configured)
    path = os.path.join(app.instance_path, SECRET_KEY_FILE)
    try:  # the first worker to start writes it; the others read it
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(secrets.token_urlsafe(48))
    for _ in range(50):
        with open(path, encoding="utf-8") as fh:
            key = fh.read().strip()
        if key:
            return key
        time.sleep(0.02)  # another worker is writing it this very moment
    raise RuntimeError(f"{path} is empty: delete it and start again to generate a new secret key")

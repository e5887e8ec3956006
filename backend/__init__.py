"""Topcut's server: a Flask application factory (flaskr style)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

from backend.db import db

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app; ``config`` (tests) overrides instance/config.py.

    With no configuration at all the app keeps an SQLite database in its
    instance folder (``instance/topcut.sqlite`` next to this package).
    ``INSTANCE_PATH`` in ``config`` moves the instance folder (tests use a
    temporary one).
    """
    config = dict(config or {})
    instance_path = config.pop("INSTANCE_PATH", None)
    app = Flask(
        __name__,
        instance_path=str(instance_path) if instance_path else None,
        instance_relative_config=True,
        static_folder=None,
    )
    app.config.from_mapping(
        SECRET_KEY="dev",
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "topcut.sqlite"),
        PWA_DIR=str(PROJECT_ROOT / "pwa"),
        WEB_BUILD_DIR=str(PROJECT_ROOT / "build" / "web"),
    )
    if config:
        app.config.from_mapping(config)
    else:
        app.config.from_pyfile("config.py", silent=True)

    os.makedirs(app.instance_path, exist_ok=True)

    db.init_app(app)
    with app.app_context():
        db.create_all()

    from backend import shell

    app.register_blueprint(shell.bp)
    return app

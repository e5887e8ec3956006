"""Alembic's environment for Topcut: the app's engine and models (Flask-Migrate provides the app).

The app upgrades itself on start (backend/schema.py) and hands its connection in
``config.attributes["connection"]``, holding the lock that keeps two starting
workers from migrating at once; the ``flask --app backend db`` commands open their own.
"""

from __future__ import annotations

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

config = context.config
if config.config_file_name is not None and not config.attributes.get("quiet"):
    fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db
target_metadata = target_db.metadata


def _skip_empty(context_, revision, directives) -> None:
    """``flask db migrate`` with no model change writes no empty revision."""
    if getattr(config.cmd_opts, "autogenerate", False) and directives[0].upgrade_ops.is_empty():
        directives[:] = []
        logger.info("No changes in schema detected.")


def _run(connection) -> None:
    options = dict(current_app.extensions["migrate"].configure_args)
    options.setdefault("process_revision_directives", _skip_empty)
    context.configure(connection=connection, target_metadata=target_metadata, **options)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    """SQL for a DBA to run (``flask db upgrade --sql``)."""
    url = target_db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
        return
    with target_db.engine.connect() as connection:
        _run(connection)


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()

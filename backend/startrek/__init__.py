"""The Star Trek server resources, beside the game as ``shared_rules/games/startrek/`` is in the engine.

* :mod:`.leagues` — WCT leagues (OP Guide 12): a director's league of this server's events, its table;
* :mod:`.league_backups` — a league's backup and restore under its own id (``topcut-league-backup/1``);
* :mod:`.ratings` — constructed, sealed and overall ratings of the server's people (OP Guide 8, 11);
* :mod:`.schemas` — their request and response bodies.
"""

from __future__ import annotations

from flask import Flask

__all__ = ["init_app"]


def init_app(app: Flask) -> None:
    """Register the Star Trek blueprints: leagues, league backups and ratings."""
    from backend.startrek import league_backups, leagues, ratings

    for module in (leagues, league_backups, ratings):
        app.register_blueprint(module.bp)

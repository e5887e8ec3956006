"""Rate-limit counters that cost no durable commit: ``rate_limits`` becomes UNLOGGED on PostgreSQL.

A counter is worth nothing after a crash (a fixed window lasts a minute or an hour), so PostgreSQL need not
write it to its write-ahead log: an increment's commit then waits for no WAL sync, and a push costs the one
durable commit of its own (backend/limits.py, ``bench.sync``). PostgreSQL empties an unlogged table after a
crash, which only restarts the windows. SQLite never uses the table (its counts live in memory): nothing to do.

Revision ID: 0007_unlogged_rate_limits
Revises: 0006_league_token_rotation
Create Date: 2026-11-27
"""

from alembic import op

revision = "0007_unlogged_rate_limits"
down_revision = "0006_league_token_rotation"
branch_labels = None
depends_on = None


def upgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE rate_limits SET UNLOGGED")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE rate_limits SET LOGGED")

"""WCT leagues (Star Trek OP Guide 12): a league, its events, its director's tokens.

* ``leagues``: the league document (JSON, without its events) and a version every change bumps;
* ``league_events``: the events of this server flagged as league events, with their sprint and order
  (no foreign key to ``events``: deleting an event leaves the row, and the league table reports it gone);
* ``league_tokens``: the league director's bearer tokens (sha256 of the secret, like ``tokens``).

Revision ID: 0005_leagues
Revises: 0004_people
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_leagues"
down_revision = "0004_people"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "leagues",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("document", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "league_events",
        sa.Column("league_id", sa.String(length=32), nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("sprint", sa.String(length=32), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("added_at", sa.BigInteger(), nullable=False),
        sa.Column("proved_by", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"]),
        sa.PrimaryKeyConstraint("league_id", "event_id"),
    )
    with op.batch_alter_table("league_events", schema=None) as batch_op:
        batch_op.create_index("ix_league_events_event_id", ["event_id"], unique=False)
    op.create_table(
        "league_tokens",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("league_id", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("label", sa.Text(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("revoked_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["league_id"], ["leagues.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    with op.batch_alter_table("league_tokens", schema=None) as batch_op:
        batch_op.create_index("ix_league_tokens_league_id", ["league_id"], unique=False)


def downgrade():
    with op.batch_alter_table("league_tokens", schema=None) as batch_op:
        batch_op.drop_index("ix_league_tokens_league_id")
    op.drop_table("league_tokens")
    with op.batch_alter_table("league_events", schema=None) as batch_op:
        batch_op.drop_index("ix_league_events_event_id")
    op.drop_table("league_events")
    op.drop_table("leagues")

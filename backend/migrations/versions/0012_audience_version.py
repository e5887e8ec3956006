"""The event's audience version (issue 27: server CPU per push).

* ``events.audience_version`` (BIGINT NOT NULL, 0): bumped in the same transaction by every writer that changes
  the event's live push subscriptions or revokes, retires or moves its tokens (backend/audience.py). Each
  push checks its app server's grouped subscriptions against this one value instead of an aggregate over the
  event's subscriptions and revoked tokens.

Revision ID: 0012_audience_version
Revises: 0011_outbox_player_index
Create Date: 2026-11-28
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_audience_version"
down_revision = "0011_outbox_player_index"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("events", sa.Column("audience_version", sa.BigInteger(), nullable=False, server_default="0"))


def downgrade():
    with op.batch_alter_table("events") as batch:
        batch.drop_column("audience_version")

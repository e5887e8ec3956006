"""An event's printed recovery code: a way back in for an organizer whose device is lost.

* ``recovery_codes``: at most one per event (``event_id`` is the key), its keyed hash (unique), when it was
  made and by which organizer token, and when an organizer said it is printed or written down.

Existing events get none: their organizers make one on the Staff screen.

Revision ID: 0008_recovery_codes
Revises: 0007_unlogged_rate_limits
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_recovery_codes"
down_revision = "0007_unlogged_rate_limits"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "recovery_codes",
        sa.Column("event_id", sa.String(length=32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("created_by", sa.String(length=32), nullable=True),
        sa.Column("acknowledged_at", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("event_id"),
        sa.UniqueConstraint("code_hash"),
    )


def downgrade():
    op.drop_table("recovery_codes")

"""One-time transfer codes: a claimed browser carries its session into the installed app (backend/transfer.py).

* ``transfer_codes``: the code's keyed hash (unique), the event, the token that made it (its role and player
  are copied), when it was made and stops working (10 minutes), and when it was used (once) and for which token.
* ``ix_push_outbox_topic`` on ``push_outbox (topic, state)``: queueing news finds the same device's older pending
  sends of that tag by index (backend/push/notifications.py ``_supersede``), not by a scan of the event's outbox.

Revision ID: 0009_transfer_codes
Revises: 0008_recovery_codes
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_transfer_codes"
down_revision = "0008_recovery_codes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "transfer_codes",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("event_id", sa.String(length=32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("code_hash", sa.String(length=64), nullable=False),
        sa.Column("source_token", sa.String(length=32), nullable=False),
        sa.Column("role", sa.String(length=32), nullable=False),
        sa.Column("player", sa.Text(), nullable=True),
        sa.Column("label", sa.Text(), nullable=False, server_default=""),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("used_at", sa.BigInteger(), nullable=True),
        sa.Column("token_id", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("code_hash"),
    )
    op.create_index("ix_transfer_codes_source", "transfer_codes", ["source_token"])
    op.create_index("ix_push_outbox_topic", "push_outbox", ["topic", "state"])


def downgrade():
    op.drop_index("ix_push_outbox_topic", table_name="push_outbox")
    op.drop_index("ix_transfer_codes_source", table_name="transfer_codes")
    op.drop_table("transfer_codes")

"""Players' views rendered on the server (issue 26): the parts every player's view shares, kept for the cluster.

* ``view_parts``: one row per event: the ruleset's info and the published standings as JSON text, the key
  they are valid for (standings policy, round, roster, settings), the log position they were made at; and the
  folded state when a round was last posted or completed (``marshal``, for a cold worker's first view).

Nothing to carry over: the first view of an event makes its row.

Revision ID: 0010_view_parts
Revises: 0009_transfer_codes
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_view_parts"
down_revision = "0009_transfer_codes"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "view_parts",
        sa.Column("event_id", sa.String(length=32), sa.ForeignKey("events.id"), nullable=False),
        sa.Column("parts_key", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("info", sa.Text(), nullable=False),
        sa.Column("standings", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("made_at", sa.BigInteger(), nullable=False),
        sa.Column("state_seq", sa.BigInteger(), nullable=True),
        sa.Column("state", sa.LargeBinary(), nullable=True),
        sa.Column("state_format", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("event_id"),
    )


def downgrade():
    op.drop_table("view_parts")

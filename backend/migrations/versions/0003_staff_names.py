"""Staff devices by name: an invitation's label, and when a staff token was last seen.

* ``invitations.label``: the name the organizer gives a staff invitation ("Judge Ada",
  "Scorekeeper desk"); the token redeemed from it keeps it, so the Staff screen lists
  devices by that name (existing invitations get an empty label);
* ``tokens.last_seen_at``: when a staff device last synced with its token (ms; at most
  once a minute is written), for the Staff screen's device list.

Revision ID: 0003_staff_names
Revises: 0002_limits_and_expiry
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_staff_names"
down_revision = "0002_limits_and_expiry"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("invitations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("label", sa.Text(), nullable=False, server_default=""))
    with op.batch_alter_table("tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("last_seen_at", sa.BigInteger(), nullable=True))


def downgrade():
    with op.batch_alter_table("tokens", schema=None) as batch_op:
        batch_op.drop_column("last_seen_at")
    with op.batch_alter_table("invitations", schema=None) as batch_op:
        batch_op.drop_column("label")

"""League director tokens that rotate: a rotated token's end of grace, and the token it became.

* ``league_tokens.expires_at``: a director token rotated into a new one keeps working for the rotation grace
  period (``TOKEN_ROTATION_GRACE_S``, as an event token does), then stops at this instant (ms); NULL for every
  other director token (they do not expire; the director revokes them);
* ``league_tokens.replaced_by``: the token it was rotated into.

Existing director tokens get NULL in both: they keep working as before.

Revision ID: 0006_league_token_rotation
Revises: 0005_leagues
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_league_token_rotation"
down_revision = "0005_leagues"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("league_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("expires_at", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("replaced_by", sa.String(length=32), nullable=True))


def downgrade():
    with op.batch_alter_table("league_tokens", schema=None) as batch_op:
        batch_op.drop_column("replaced_by")
        batch_op.drop_column("expires_at")

"""Rate-limit counters in the database, and staff token expiry and rotation.

* ``rate_limits``: fixed-window counters shared by every app server (backend/limits.py);
* ``tokens.expires_at``: staff tokens expire unless rotated (backend/tokens.py). Staff
  tokens that exist already get the default lifetime from now, so nobody is locked
  out by the upgrade itself;
* ``tokens.replaced_by``: the token a rotated one was replaced by.

Revision ID: 0002_limits_and_expiry
Revises: 0001_initial
Create Date: 2026-11-25
"""

import time

import sqlalchemy as sa
from alembic import op

revision = "0002_limits_and_expiry"
down_revision = "0001_initial"
branch_labels = None
depends_on = None

#: backend/auth.py's default lifetimes when this revision was written.
_ORGANIZER_TTL_MS = 90 * 24 * 3600 * 1000
_STAFF_TTL_MS = 14 * 24 * 3600 * 1000
_STAFF_ROLES = ("head-judge", "judge", "scorekeeper")


def upgrade():
    op.create_table(
        "rate_limits",
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    with op.batch_alter_table("tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("expires_at", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("replaced_by", sa.String(length=32), nullable=True))
    tokens = sa.table(
        "tokens",
        sa.column("role", sa.String),
        sa.column("revoked_at", sa.BigInteger),
        sa.column("expires_at", sa.BigInteger),
    )
    now = int(time.time() * 1000)
    op.execute(
        tokens.update()
        .where(tokens.c.role.in_(_STAFF_ROLES), tokens.c.revoked_at.is_(None))
        .values(expires_at=now + _STAFF_TTL_MS)
    )
    op.execute(
        tokens.update()
        .where(tokens.c.role == "organizer", tokens.c.revoked_at.is_(None))
        .values(expires_at=now + _ORGANIZER_TTL_MS)
    )


def downgrade():
    with op.batch_alter_table("tokens", schema=None) as batch_op:
        batch_op.drop_column("replaced_by")
        batch_op.drop_column("expires_at")
    op.drop_table("rate_limits")

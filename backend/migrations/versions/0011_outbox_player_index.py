"""The push outbox's (event, kind, ref) index gains the player (issue 27: server CPU per push).

* ``ix_push_outbox_event_kind_ref_player`` on ``push_outbox (event_id, kind, ref, player)`` replaces
  ``ix_push_outbox_event_kind_ref``: a settled match cancels its two players' pending notices
  (backend/push/notifications.py ``enqueue_for_ops``) by index, where every player's time warning of the round
  shares one (event, kind, ref) and the cancelling UPDATE walked them all. The old index is a prefix of the new
  one: the statements that used it (rescheduling a round's warnings, an event's rows) keep an index.

Revision ID: 0011_outbox_player_index
Revises: 0010_view_parts
Create Date: 2026-11-28
"""

from alembic import op

revision = "0011_outbox_player_index"
down_revision = "0010_view_parts"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_push_outbox_event_kind_ref_player", "push_outbox", ["event_id", "kind", "ref", "player"])
    op.drop_index("ix_push_outbox_event_kind_ref", table_name="push_outbox")


def downgrade():
    op.create_index("ix_push_outbox_event_kind_ref", "push_outbox", ["event_id", "kind", "ref"])
    op.drop_index("ix_push_outbox_event_kind_ref_player", table_name="push_outbox")

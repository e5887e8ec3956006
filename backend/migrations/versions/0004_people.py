"""Players across events: people (a name and the games' ids) and the links from event rosters to them.

* ``people``: one row per person known to the server (``merged_into`` set on a duplicate merged away);
* ``roster_links``: an event's roster entry (player id) linked to a person, unique per event and player.

Revision ID: 0004_people
Revises: 0003_staff_names
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_people"
down_revision = "0003_staff_names"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "people",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("name_key", sa.Text(), nullable=False),
        sa.Column("pokemon_id", sa.String(length=32), nullable=True),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("trekcc_handle", sa.String(length=64), nullable=True),
        sa.Column("trekcc_id", sa.String(length=64), nullable=True),
        sa.Column("other_ids", sa.Text(), nullable=False, server_default="{}"),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("merged_into", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.create_index("ix_people_name_key", ["name_key"], unique=False)
        batch_op.create_index("ix_people_pokemon_id", ["pokemon_id"], unique=False)
        batch_op.create_index("ix_people_trekcc_id", ["trekcc_id"], unique=False)
    op.create_table(
        "roster_links",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Text(), nullable=False),
        sa.Column("person_id", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
        sa.ForeignKeyConstraint(["person_id"], ["people.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "player_id", name="uq_roster_links_event_player"),
    )
    with op.batch_alter_table("roster_links", schema=None) as batch_op:
        batch_op.create_index("ix_roster_links_person", ["person_id"], unique=False)


def downgrade():
    with op.batch_alter_table("roster_links", schema=None) as batch_op:
        batch_op.drop_index("ix_roster_links_person")
    op.drop_table("roster_links")
    with op.batch_alter_table("people", schema=None) as batch_op:
        batch_op.drop_index("ix_people_trekcc_id")
        batch_op.drop_index("ix_people_pokemon_id")
        batch_op.drop_index("ix_people_name_key")
    op.drop_table("people")

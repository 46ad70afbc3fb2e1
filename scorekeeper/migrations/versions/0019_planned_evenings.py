"""planned evenings: an evening put on a season's calendar before its entrants are
known (date and start time, place, rules, table size, name, notes), cancelled or not,
and once started the event it became; and when a season's counting last changed (issue 36)

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-28 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "club_plans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "club_id",
            sa.String(length=32),
            sa.ForeignKey("clubs.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column(
            "season_id",
            sa.Integer(),
            sa.ForeignKey("club_seasons.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("cancelled", sa.Boolean(), nullable=False),
        sa.Column(
            "event_id",
            sa.String(length=32),
            sa.ForeignKey("events.id", ondelete="SET NULL"),
            nullable=True,
            unique=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )

    with op.batch_alter_table("club_seasons") as batch:
        batch.add_column(sa.Column("counting_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("club_seasons") as batch:
        batch.drop_column("counting_at")
    op.drop_table("club_plans")

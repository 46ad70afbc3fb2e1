"""game events: a game ended by agreement, house rules changed after the start

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 14:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ended", sa.String(length=16), nullable=True))
    op.create_table(
        "game_events",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("action", sa.String(length=16), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("game_version", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_game_events_game_id", "game_events", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_game_events_game_id", table_name="game_events")
    op.drop_table("game_events")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ended")

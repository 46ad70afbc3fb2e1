"""player aliases: a scorer's merges and splits of players' names across games

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 14:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "player_aliases",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("person", sa.String(length=80), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name", "game_id", name="uq_player_aliases_name_game"),
    )
    op.create_index("ix_player_aliases_game_id", "player_aliases", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_player_aliases_game_id", table_name="player_aliases")
    op.drop_table("player_aliases")

"""the ledger: a game's place and start, its start key, short join code, write digests

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 13:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("place", sa.String(length=120), nullable=True))
        batch.add_column(sa.Column("started", sa.String(length=40), nullable=True))
        batch.add_column(sa.Column("start_key", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("start_digest", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("join_code_hash", sa.String(length=64), nullable=True))
        batch.create_index("ix_games_start_key", ["start_key"], unique=True)
    with op.batch_alter_table("write_keys") as batch:
        batch.add_column(sa.Column("digest", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("write_keys") as batch:
        batch.drop_column("digest")
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_start_key")
        for column in ("join_code_hash", "start_digest", "start_key", "started", "place"):
            batch.drop_column(column)

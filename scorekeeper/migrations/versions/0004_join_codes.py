"""join codes: the round of a game's codes, and the short code's hash found fast

A game's edit code and short join code are made from the server's secret, the game's
id and ``codes_round``; renewing the codes moves to the next round (the old codes stop
working). Games stored before have no round (NULL): their edit code was random.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 14:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("codes_round", sa.Integer(), nullable=True))
        batch.create_index("ix_games_join_code_hash", ["join_code_hash"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_join_code_hash")
        batch.drop_column("codes_round")

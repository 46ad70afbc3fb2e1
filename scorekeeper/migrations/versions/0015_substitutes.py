"""substitutes: who plays a seat from which box mid-game, and for whom it counts (E5)

Revision ID: 0015_substitutes
Revises: 0014_kept_standings
Create Date: 2026-11-28 06:00:00

A player who leaves mid-game is replaced in the same game (RULES.md E5): the game keeps
its seats (its boxes are scored under them), and the substitutes are data on the game,
read by the sheet, the paper, the exports and the standings. Nothing stored before has
any: the column is empty for every game.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0015_substitutes"
down_revision: str | None = "0014_kept_standings"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("substitutes", sa.JSON(), nullable=True))


def downgrade() -> None:
    # Not in a batch: SQLite's batch copies the table and drops the old one, and the
    # drop cascades to every table that refers to games (boxes, aliases...). SQLite
    # drops a column in place since 3.35, as PostgreSQL does.
    op.drop_column("games", "substitutes")

"""name decisions: each merge and split of players' names kept in history, with what
it replaced, so that it can be undone (issue 23); the aliases stored before become
decisions of their own

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    decisions = op.create_table(
        "name_decisions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("person", sa.String(length=80), nullable=False),
        sa.Column("changes", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("undone_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    aliases = sa.table(
        "player_aliases",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("person", sa.String()),
        sa.column("game_id", sa.String()),
        sa.column("at", sa.DateTime()),
    )
    rows = op.get_bind().execute(sa.select(aliases).order_by(aliases.c.id)).all()
    if rows:
        op.bulk_insert(
            decisions,
            [
                {
                    "kind": "split" if row.game_id else "merge",
                    "name": row.name,
                    "person": row.person,
                    "at": row.at,
                    "undone_at": None,
                    "changes": [{"game": row.game_id, "name": row.name, "before": None}],
                }
                for row in rows
            ],
        )


def downgrade() -> None:
    op.drop_table("name_decisions")

"""event history: every director's write is one typed line with its idempotency key;
penalties can be withdrawn (kept, struck out)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 03:15:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "event_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "event_id", sa.String(length=32), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=True),
        sa.Column("digest", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("event_id", "key", name="uq_event_history_key"),
    )
    op.create_index("ix_event_history_event_id", "event_history", ["event_id"])
    with op.batch_alter_table("event_penalties") as batch:
        batch.add_column(sa.Column("withdrawn_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("withdrawn_note", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("event_penalties") as batch:
        batch.drop_column("withdrawn_note")
        batch.drop_column("withdrawn_at")
    op.drop_index("ix_event_history_event_id", table_name="event_history")
    op.drop_table("event_history")

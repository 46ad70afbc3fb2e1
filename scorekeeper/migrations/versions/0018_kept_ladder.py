"""kept ladder: each club event's standings kept for its seasons' ladders, updated in
every write's own transaction (issue 36)

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28 09:10:00

One table, ``kept_evenings``: a club event's standings ranked (each line under the name
the evening used), its winners, a version and a time (``store.ladder``). Made from the
event's kept standings, never typed: the club events stored before this revision get
theirs from ``scorekeeper migrate`` right after it (``store.kept.rebuild_missing``), and
a season read finding none makes it from the kept standings.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "kept_evenings",
        sa.Column(
            "event_id", sa.String(length=32), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "club_id",
            sa.String(length=32),
            sa.ForeignKey("clubs.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("standings", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("kept_evenings")

"""penalty key: a director's penalty form (or API call) sent twice is written once

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26 18:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("event_penalties") as batch:
        batch.add_column(sa.Column("key", sa.String(length=64), nullable=True))
        batch.create_unique_constraint("uq_event_penalties_key", ["event_id", "key"])


def downgrade() -> None:
    with op.batch_alter_table("event_penalties") as batch:
        batch.drop_constraint("uq_event_penalties_key", type_="unique")
        batch.drop_column("key")

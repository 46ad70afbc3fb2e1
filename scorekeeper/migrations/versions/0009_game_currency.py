"""game currency: the stake's ISO 4217 code, stored with the game (CONTRACT.md currency)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("currency", sa.String(length=3), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("currency")

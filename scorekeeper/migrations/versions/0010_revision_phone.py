"""revision phone: which phone wrote each box revision ("Bo's phone"; issue 22)

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26 12:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("box_revisions") as batch:
        batch.add_column(sa.Column("phone", sa.String(length=80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("box_revisions") as batch:
        batch.drop_column("phone")

"""clubs: a club (its owner's codes hashed), its members and the spellings that name
them, its history of the owner's decisions (each with its key, undoable), its seasons,
and which club an event belongs to (issue 36)

Revision ID: 0017
Revises: 0015_substitutes
Create Date: 2026-11-28 06:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0015_substitutes"
branch_labels: str | None = None
depends_on: str | None = None


def _club_id() -> sa.Column[str]:
    return sa.Column(
        "club_id",
        sa.String(length=32),
        sa.ForeignKey("clubs.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(length=32), primary_key=True),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("place", sa.String(length=120), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("owner_hash", sa.String(length=64), nullable=False),
        sa.Column("join_code_hash", sa.String(length=64), nullable=True, index=True),
        sa.Column("codes_round", sa.Integer(), nullable=False),
        sa.Column("start_key", sa.String(length=64), nullable=True, unique=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _club_id(),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "club_spellings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _club_id(),
        sa.Column("spelling", sa.String(length=80), nullable=False),
        sa.Column("shown", sa.String(length=80), nullable=False),
        sa.Column(
            "member_id", sa.Integer(), sa.ForeignKey("club_members.id", ondelete="CASCADE"), nullable=False
        ),
        sa.UniqueConstraint("club_id", "spelling", name="uq_club_spellings_spelling"),
    )
    op.create_table(
        "club_history",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _club_id(),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=True),
        sa.Column("digest", sa.String(length=64), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("undone_at", sa.DateTime(), nullable=True),
        sa.UniqueConstraint("club_id", "key", name="uq_club_history_key"),
    )
    op.create_table(
        "club_seasons",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _club_id(),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("starts", sa.Date(), nullable=False),
        sa.Column("ends", sa.Date(), nullable=False),
        sa.Column("ladder", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "club_events",
        sa.Column(
            "event_id", sa.String(length=32), sa.ForeignKey("events.id", ondelete="CASCADE"), primary_key=True
        ),
        _club_id(),
        sa.Column("at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    for name in ("club_events", "club_seasons", "club_history", "club_spellings", "club_members", "clubs"):
        op.drop_table(name)

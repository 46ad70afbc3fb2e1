"""events: a club night's settings, entrants, rounds, tables' games, penalties and the
director's codes

Revision ID: 0008
Revises: 0006
Create Date: 2026-11-26 11:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("director_hash", sa.String(length=64), nullable=False),
        sa.Column("join_code_hash", sa.String(length=64), nullable=True),
        sa.Column("codes_round", sa.Integer(), nullable=True),
        sa.Column("start_key", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("start_key"),
    )
    op.create_index("ix_events_join_code_hash", "events", ["join_code_hash"])
    op.create_table(
        "event_entrants",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("entered_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_round", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "name", name="uq_event_entrants_name"),
    )
    op.create_index("ix_event_entrants_event_id", "event_entrants", ["event_id"])
    op.create_table(
        "event_rounds",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("tables", sa.JSON(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number", name="uq_event_rounds_number"),
    )
    op.create_index("ix_event_rounds_event_id", "event_rounds", ["event_id"])
    op.create_table(
        "event_games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id"),
        sa.UniqueConstraint("event_id", "round", "table_number", name="uq_event_games_table"),
    )
    op.create_index("ix_event_games_event_id", "event_games", ["event_id"])
    op.create_table(
        "event_penalties",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("player", sa.String(length=80), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_event_penalties_event_id", "event_penalties", ["event_id"])


def downgrade() -> None:
    for name in ("event_penalties", "event_games", "event_rounds", "event_entrants"):
        op.drop_index(f"ix_{name}_event_id", table_name=name)
        op.drop_table(name)
    op.drop_index("ix_events_join_code_hash", table_name="events")
    op.drop_table("events")

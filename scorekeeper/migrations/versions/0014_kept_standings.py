"""kept standings: each event's standings kept as sums, updated in every write's own
transaction (issue 34)

Revision ID: 0014_kept_standings
Revises: 0013_names_nfc
Create Date: 2026-11-28 06:10:00

Three tables: ``kept_events`` (the event's kept version, how it counts, each round's
scores), ``kept_players`` (each player's sums) and ``kept_tables`` (each table's result
as last counted). They are made from the games and the event, never typed: the events
stored before this revision are built by ``scorekeeper migrate`` right after it
(``store.kept.rebuild_missing``), and a reader finding none computes them afresh.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0014_kept_standings"
down_revision: str | None = "0013_names_nfc"
branch_labels: str | None = None
depends_on: str | None = None


def _event_id(primary_key: bool = False) -> sa.Column[str]:
    return sa.Column(
        "event_id",
        sa.String(length=32),
        sa.ForeignKey("events.id", ondelete="CASCADE"),
        primary_key=primary_key,
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "kept_events",
        _event_id(primary_key=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("built", sa.Integer(), nullable=False),
        sa.Column("counting", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.JSON(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "kept_players",
        _event_id(primary_key=True),
        sa.Column("player", sa.String(length=80), primary_key=True, nullable=False),
        sa.Column("score", sa.BigInteger(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("won", sa.BigInteger(), nullable=False),
        sa.Column("boxes", sa.Integer(), nullable=False),
        sa.Column("versus", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_kept_players_version", "kept_players", ["event_id", "version"])
    op.create_table(
        "kept_tables",
        sa.Column(
            "game_id",
            sa.String(length=32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
            nullable=False,
        ),
        _event_id(),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("ended", sa.String(length=16), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
    )
    op.create_index("ix_kept_tables_version", "kept_tables", ["event_id", "version"])


def downgrade() -> None:
    op.drop_index("ix_kept_tables_version", table_name="kept_tables")
    op.drop_table("kept_tables")
    op.drop_index("ix_kept_players_version", table_name="kept_players")
    op.drop_table("kept_players")
    op.drop_table("kept_events")

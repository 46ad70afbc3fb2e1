"""pin the preset defaults that round two of the rules changed into existing games

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24 14:00:00

A stored game holds its preset's name and only the settings it overrode, so a
changed preset default would silently rescore it. Two defaults changed (RULES.md
G7 and V3): the two-hand presets now pass the deal after a drawn box
(``redeal_after_draw: next``, was ``same``), and Hollywood enters deals per deal
(``hollywood_entry: per-deal``, was ``per-win``). Every game stored before this
revision keeps the value it was played under, written into its settings unless
it already overrode it.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

TWO_HAND = ("gin", "gin-classic", "oklahoma", "hollywood", "around-the-corner", "doubling")
OLD_DEFAULTS: dict[str, dict[str, Any]] = {
    **{preset: {"redeal_after_draw": "same"} for preset in TWO_HAND},
    "hollywood": {"redeal_after_draw": "same", "hollywood_entry": "per-win"},
}
"""The settings each preset had before revision 0002, where they differ from now."""

GAMES = sa.table(
    "games", sa.column("id", sa.String), sa.column("rules", sa.String), sa.column("settings", sa.JSON)
)


def pinned(rules: str, settings: dict[str, Any]) -> dict[str, Any] | None:
    """The game's settings with the old defaults it did not override; None: no change."""
    missing = {name: value for name, value in OLD_DEFAULTS.get(rules, {}).items() if name not in settings}
    return {**settings, **missing} if missing else None


def upgrade() -> None:
    bind = op.get_bind()
    rows = bind.execute(
        sa.select(GAMES.c.id, GAMES.c.rules, GAMES.c.settings).where(GAMES.c.rules.in_(list(OLD_DEFAULTS)))
    ).all()
    for game_id, rules, settings in rows:
        new = pinned(rules, dict(settings or {}))
        if new is not None:
            bind.execute(sa.update(GAMES).where(GAMES.c.id == game_id).values(settings=new))


def downgrade() -> None:
    # The pinned values are valid settings under the old code too, and a game may have
    # chosen them itself: nothing is taken out.
    pass

"""names nfc: every stored player name in one Unicode form (NFC), as the contract now reads it

Revision ID: 0013_names_nfc
Revises: 0012
Create Date: 2026-11-28 04:00:00

A name typed with a separate accent ("Zoe" and U+0308) was kept as typed in the game
but scored under its composed form ("Zoë"), so the sheet and the PDF found nothing for
that player. The contract now reads every name in NFC, trimmed and its spaces collapsed
(:func:`scorekeeper.engine.contract.player_name`); this revision makes the names stored
before agree: games' players and dealer, boxes and their revisions (entries and
rulings), games' summaries and history lines, events (entry, entrants, rounds,
penalties), and the scorers' merges and splits.

The spacing rule was applied when these were written (the contract collapsed spaces
already), so only the Unicode form is new. Columns that hold one name get the whole
rule; JSON documents get every text in NFC (keys too): NFC is canonically equivalent,
so a note or a card reads the same, and the names inside (players, winners, credits,
layoffs, settlements, seatings) need no reading of each shape of each version. Rows are
read and written one at a time through SQLAlchemy's generic JSON, as revision 0002 does,
so SQLite and PostgreSQL run the same code. An entrant whose composed name is already
entered in the same event (only possible before this revision) keeps the name as typed
rather than break the event's one-name-per-entrant rule.

There is no way back to the forms as typed, and no need: the downgrade changes nothing.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0013_names_nfc"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None


def composed(value: Any) -> Any:
    """JSON data with every text (keys too) in NFC."""
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, list):
        return [composed(item) for item in value]
    if isinstance(value, dict):
        return {composed(key): composed(item) for key, item in value.items()}
    return value


def name(value: str) -> str:
    """One player's name as the contract reads it (``player_name``, written out here so
    the revision does not change when the code does)."""
    return unicodedata.normalize("NFC", " ".join(value.split()))


JSON_COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("players", "summary"),
    "boxes": ("entry", "ruling"),
    "box_revisions": ("entry", "ruling"),
    "game_events": ("detail",),
    "name_decisions": ("changes",),
    "events": ("entry",),
    "event_rounds": ("tables", "byes"),
}
"""Each table's JSON documents that may hold a name, by table."""
NAME_COLUMNS: dict[str, tuple[str, ...]] = {
    "games": ("dealer",),
    "player_aliases": ("name", "person"),
    "name_decisions": ("name", "person"),
    "event_penalties": ("player",),
}
"""Each table's columns that hold one name (the entrants are below: a name is unique
in its event)."""
KEYS = {"games": "id", "events": "id"}
"""A table's key where it is not ``id`` as an integer."""


def _table(name_: str, columns: tuple[str, ...], json: tuple[str, ...]) -> sa.TableClause:
    key = sa.column("id", sa.String if name_ in KEYS else sa.Integer)
    return sa.table(
        name_, key, *(sa.column(c, sa.JSON) for c in json), *(sa.column(c, sa.String) for c in columns)
    )


def _compose_table(bind: sa.Connection, table_name: str) -> None:
    """Every row of one table with its names composed; a row is written only if it changed."""
    names = NAME_COLUMNS.get(table_name, ())
    documents = JSON_COLUMNS.get(table_name, ())
    table = _table(table_name, names, documents)
    for row in bind.execute(sa.select(table)).mappings().all():
        changed: dict[str, Any] = {}
        for column in documents:
            if row[column] is not None and (new := composed(row[column])) != row[column]:
                changed[column] = new
        for column in names:
            if row[column] is not None and (new := name(row[column])) != row[column]:
                changed[column] = new
        if changed:
            bind.execute(sa.update(table).where(table.c.id == row["id"]).values(**changed))


def _compose_entrants(bind: sa.Connection) -> None:
    """The entrants' names composed, unless the composed name is entered already."""
    entrants = sa.table(
        "event_entrants",
        sa.column("id", sa.Integer),
        sa.column("event_id", sa.String),
        sa.column("name", sa.String),
    )
    rows = bind.execute(sa.select(entrants.c.id, entrants.c.event_id, entrants.c.name)).all()
    taken = {(event_id, entrant) for _, event_id, entrant in rows}
    for row_id, event_id, entrant in rows:
        new = name(entrant)
        if new != entrant and (event_id, new) not in taken:
            bind.execute(sa.update(entrants).where(entrants.c.id == row_id).values(name=new))
            taken.discard((event_id, entrant))
            taken.add((event_id, new))


def upgrade() -> None:
    bind = op.get_bind()
    for table_name in dict.fromkeys([*JSON_COLUMNS, *NAME_COLUMNS]):
        _compose_table(bind, table_name)
    _compose_entrants(bind)


def downgrade() -> None:
    # NFC is canonically equivalent to the forms as typed (they read and print alike),
    # and those forms are not kept: nothing to undo.
    pass

"""Export, import, backups, restores and consistency checks of the whole store."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..engine.contract import sound, unsound
from .clubs import CLUB_TABLES
from .db import connect, migrate, opened
from .kept import rebuild_missing
from .models import (
    EVENT_TABLES,
    Base,
    Box,
    BoxRevision,
    Game,
    GameEvent,
    WriteKey,
    now,
    summarize,
)
from .reads import all_game_ids, game_entry, get_game, live_boxes
from .writes import GameNotFound, StoreError

BACKUP_FORMAT = "scorekeeper-backup"
BACKUP_VERSION = 1
BACKUP_TABLES = (
    "games",
    "boxes",
    "box_revisions",
    "game_events",
    "write_keys",
    "player_aliases",
    "name_decisions",
    *EVENT_TABLES,
    *CLUB_TABLES,
)
"""Tables in the order a restore inserts them (parents before children)."""


def export_game(db: Session, game_id: str) -> dict[str, Any]:
    """The game as CONTRACT.md JSON (what ``score`` and the ledger's import take), its
    text valid UTF-8 whatever an older version stored."""
    row = get_game(db, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    return game_entry(row, live_boxes(db, row)).to_json()


def odd_text(db: Session, game_id: str) -> list[str]:
    """Where the stored game (its row and live boxes, as stored) holds text that is not
    valid Unicode, which its export writes escaped: for the command line to say so."""
    odd: list[str] = []
    game = db.execute(select(Game).where(Game.id == game_id)).scalar_one_or_none()
    if game is None:
        return odd
    for name in ("rules", "players", "dealer", "settings", "place", "started"):
        sound(getattr(game, name), f"game {name}", odd)
    boxes = db.scalars(
        select(Box).where(Box.game_id == game_id, Box.deleted.is_(False)).order_by(Box.position, Box.id)
    )
    for number, box in enumerate(boxes, start=1):
        sound(box.entry, f"box {number}", odd)
    return odd


def verify_game(db: Session, game_id: str) -> list[str]:
    """What is wrong with a stored game, as sentences; empty when it is consistent.

    Consistent means: the engine, rescoring the stored boxes, gives every box the
    ruling stored with it and the totals the game's summary shows; and every write
    since the game was created left exactly one revision (versions 2..version), so no
    write was half done.
    """
    from .. import engine

    row = get_game(db, game_id)
    if row is None:
        return [f"no game {game_id}"]
    problems: list[str] = []
    boxes = live_boxes(db, row)
    try:
        sheet = engine.score_game(game_entry(row, boxes))
    except engine.ScorekeeperError as err:
        return [f"game {game_id} no longer scores: {err.message}"]
    rescored = summarize(sheet)
    # A summary stored by an older version has fewer fields: those it has must agree.
    if _normal(row.summary) != _normal({k: rescored[k] for k in row.summary if k in rescored}):
        problems.append(f"game {game_id}: summary {row.summary} but rescored {rescored}")
    for box, ruling in zip(boxes, sheet.boxes, strict=True):
        if _normal(box.ruling, drop="id") != _normal(ruling.to_json(), drop="id"):
            problems.append(f"game {game_id}: box {box.id} has a stale ruling")
    written = list(
        db.scalars(
            select(BoxRevision.game_version)
            .join(Box, Box.id == BoxRevision.box_id)
            .where(Box.game_id == game_id, BoxRevision.game_version > 1)
        )
    )
    written += db.scalars(select(GameEvent.game_version).where(GameEvent.game_id == game_id))
    if sorted(written) != list(range(2, row.version + 1)):
        problems.append(
            f"game {game_id}: version {row.version} but revisions and events for versions {sorted(written)}"
        )
    keys = db.scalars(select(WriteKey.version).where(WriteKey.game_id == game_id))
    if any(version > row.version for version in keys):
        problems.append(f"game {game_id}: an idempotency key names a future version")
    return problems


def verify(db: Session) -> list[str]:
    """:func:`verify_game` for every game."""
    return [problem for game_id in list(all_game_ids(db)) for problem in verify_game(db, game_id)]


def _normal(value: Any, drop: str | None = None) -> Any:
    """JSON as stored (tuples become lists), less a key, for comparisons."""
    import json

    data = json.loads(json.dumps(value, sort_keys=True))
    if drop is not None and isinstance(data, dict):
        data.pop(drop, None)
    return data


@dataclass(frozen=True)
class Backup:
    """What a backup wrote: rows per table, and where it found text that was not valid
    Unicode (a lone surrogate an older version let in), which it wrote escaped."""

    rows: dict[str, int]
    odd: list[str] = field(default_factory=list)


def backup(path: str | Path, database_url: str) -> Backup:
    """Write the whole database to ``path`` as one JSON document; rows per table back,
    with any text that was not valid Unicode (written escaped, never a crash).

    The copy is one consistent moment even while phones keep writing: SQLite is first
    copied with its online backup API, PostgreSQL read in one REPEATABLE READ
    transaction. The file is written beside ``path`` and renamed, mode 0600.
    :func:`restore` loads it into an empty database of either kind.
    """
    import json
    import os
    import sqlite3
    import tempfile

    odd: list[str] = []
    source = connect(database_url)
    try:
        if source.dialect.name == "sqlite":
            with tempfile.TemporaryDirectory() as scratch:
                copy = Path(scratch) / "snapshot.sqlite3"
                raw = source.raw_connection()
                try:
                    with sqlite3.connect(copy) as target:
                        raw.driver_connection.backup(target)  # type: ignore[union-attr]
                    target.close()
                finally:
                    raw.close()
                snapshot = sa.create_engine(f"sqlite:///{copy}")
                try:
                    with snapshot.connect() as conn:
                        tables = _dump_tables(conn, odd)
                finally:
                    snapshot.dispose()
        else:
            with source.connect() as conn:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
                with conn.begin():
                    tables = _dump_tables(conn, odd)
    finally:
        source.dispose()
    document = {
        "format": BACKUP_FORMAT,
        "format_version": BACKUP_VERSION,
        "created_at": now().isoformat(),
        "tables": tables,
    }
    target_path = Path(path)
    fd, temporary = tempfile.mkstemp(dir=target_path.parent, prefix=".backup-")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            json.dump(document, file, ensure_ascii=False, separators=(",", ":"))
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o600)
        os.replace(temporary, target_path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return Backup({name: len(rows) for name, rows in tables.items()}, odd)


def _dump_tables(conn: sa.Connection, odd: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, datetimes as ISO text, odd text escaped (see :func:`sound`)."""
    tables: dict[str, list[dict[str, Any]]] = {}
    for name in BACKUP_TABLES:
        table = Base.metadata.tables[name]
        key = table.primary_key.columns
        ordered = select(table).order_by(*key)
        tables[name] = [
            {
                column: value.isoformat()
                if isinstance(value, date)  # a datetime too
                else sound(value, f"{name} {'/'.join(str(row[k.name]) for k in key)} {column}", odd)
                for column, value in row.items()
            }
            for row in conn.execute(ordered).mappings()
        ]
    return tables


def restore(path: str | Path, database_url: str) -> dict[str, int]:
    """Load a :func:`backup` into a database (migrated here) that has no games yet."""
    import json

    document = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise StoreError(f"{path} is not a scorekeeper backup")
    if document.get("format_version") != BACKUP_VERSION:
        raise StoreError(
            f"{path} is a backup of format {document.get('format_version')}; "
            f"this version reads format {BACKUP_VERSION}"
        )
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise StoreError(f"{path} has no tables")
    if (bad := unsound(tables, "tables")) is not None:
        raise StoreError(f"{path} holds text that is not valid Unicode at {bad}: nothing was restored")
    migrate(database_url)
    target = connect(database_url)
    try:
        with target.begin() as conn:
            if conn.scalar(select(sa.func.count()).select_from(Game)):
                raise StoreError("the database already has games: restore into an empty one")
            for name in BACKUP_TABLES:
                table = Base.metadata.tables[name]
                rows = [_restored_row(table, row) for row in document["tables"].get(name, [])]
                if rows:
                    conn.execute(table.insert(), rows)
            if conn.dialect.name == "postgresql":
                for name in (
                    "boxes",
                    "box_revisions",
                    "game_events",
                    "player_aliases",
                    "name_decisions",
                    *EVENT_TABLES[1:],
                    *CLUB_TABLES[1:-1],
                ):
                    conn.execute(
                        sa.text(
                            f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                            f"COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)"
                        )
                    )
    finally:
        target.dispose()
    with opened(database_url) as db:  # the kept standings are made, not backed up
        rebuild_missing(db)
    return {name: len(document["tables"].get(name, [])) for name in BACKUP_TABLES}


def _restored_row(table: sa.Table, row: Mapping[str, Any]) -> dict[str, Any]:
    """A backed-up row with its datetimes parsed back."""
    restored: dict[str, Any] = {}
    for column in table.columns:
        value = row.get(column.name)
        if isinstance(value, str) and isinstance(column.type, sa.DateTime):
            value = datetime.fromisoformat(value)
        elif isinstance(value, str) and isinstance(column.type, sa.Date):
            value = date.fromisoformat(value)
        restored[column.name] = value
    return restored

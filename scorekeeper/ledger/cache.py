"""Scored games kept in each process: a game that has not changed since it was last
scored is not scored again (issue 23).

Every read of a game used to rule all its boxes again: about 0.2 s of CPU for a game
at the box limit, so eight anonymous readers of one such game slowed every table of
the server (docs/performance.md, "Readers of a big game"). The scored game is kept
under its database, id, version and ``updated_at``: every write changes the last two
in the same transaction, so a write made by another process (another gunicorn worker,
the command line) is never served stale; a restored backup that reaches a version
again through other boxes has another ``updated_at``.

Only the game's row is read to find a kept game (one indexed row, not its boxes); the
row read then replaces the kept one, so what changes without a new version (the codes,
when they are renewed) is always current. At most :data:`SIZE` games are kept, the
least recently read going first.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from .. import store

if TYPE_CHECKING:
    from . import Table

SIZE = 64
"""Scored games kept per process: the games of a club evening (a game at the box limit
keeps about a megabyte)."""

Key = tuple[str, str, int, datetime]
"""Database, game id, version, ``updated_at``."""


class Kept:
    """A bounded map from a game's :data:`Key` to its scored table, least recently used
    first out, safe to share between a server's threads."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._tables: OrderedDict[Key, Table] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key) -> Table | None:
        with self._lock:
            table = self._tables.get(key)
            if table is not None:
                self._tables.move_to_end(key)
            return table

    def put(self, key: Key, table: Table) -> None:
        with self._lock:
            self._tables[key] = table
            self._tables.move_to_end(key)
            while len(self._tables) > self.size:
                self._tables.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()

    def __len__(self) -> int:
        return len(self._tables)


KEPT = Kept()
"""The process's scored games."""


def scored(
    db: Session,
    game_id: str,
    score: Callable[[store.GameRow, Sequence[store.BoxRow]], Table],
    kept: Kept | None = None,
) -> Table | None:
    """The game scored (``score`` rules a row and its boxes), from ``kept`` (the
    process's :data:`KEPT`) when it has not changed since; None if there is no such game."""
    kept = KEPT if kept is None else kept
    row = store.get_game(db, game_id)
    if row is None:
        return None
    database = str(db.connection().engine.url)
    table = kept.get((database, row.id, row.version, row.updated_at))
    if table is not None:
        return dataclasses.replace(table, row=row)
    found = store.load_game(db, game_id)
    if found is None:
        return None
    table = score(*found)
    kept.put((database, table.row.id, table.row.version, table.row.updated_at), table)
    return table

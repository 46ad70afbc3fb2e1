"""Scored games kept in each process: a game that has not changed since it was last
scored is not scored again (issue 23).

Every read of a game used to rule all its boxes again: about 0.2 s of CPU for a game
at the box limit, so eight anonymous readers of one such game slowed every table of
the server (docs/performance.md, "Readers of a big game"). The scored game is kept
under its database and id with its version and ``updated_at``, and served only while
the game's row still has both: every write changes them in the same transaction, so
a write made by another process (another gunicorn worker, the command line) is never
served stale, and a restored backup that reaches a version again through other boxes
has another ``updated_at``.

Only the game's row is read to find a kept game (one indexed row, not its boxes); the
row read then replaces the kept one, so what changes without a new version (the codes,
when they are renewed) is always current. At most :data:`SIZE` games and
:data:`BOXES` boxes are kept, the least recently read game going first.
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

SIZE = 512
"""Games kept per process at most: every table of a 400-table club evening. The
tables' phones read their games in turn, so a cache smaller than the room keeps none
(at 128, a 300-table evening scored every game again at every read: issue 34)."""
BOXES = 12000
"""Boxes kept per process at most, over all kept games: 40 a table of a 300-table
evening. A scored box with every hand as cards holds about 8 KB (a game at the box
limit 2.3 MB: docs/performance.md), so the kept games hold some 100 MB at worst; a
club's boxes, counts given, far less."""

Game = tuple[str, str]
"""Database and game id: one kept version of each game."""
Stamp = tuple[int, datetime]
"""The game's version and ``updated_at`` when it was scored."""


class Kept:
    """A bounded map from a game to its last scored table and that table's
    :data:`Stamp`, least recently read first out, safe to share between a server's
    threads. A game scored at a new version replaces the one kept."""

    def __init__(self, size: int = SIZE, boxes: int = BOXES) -> None:
        self.size, self.boxes = size, boxes
        self._tables: OrderedDict[Game, tuple[Stamp, Table]] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def get(self, game: Game, stamp: Stamp) -> Table | None:
        """The table kept for the game at exactly this stamp, or None."""
        with self._lock:
            found = self._tables.get(game)
            if found is None or found[0] != stamp:
                return None
            self._tables.move_to_end(game)
            return found[1]

    def put(self, game: Game, stamp: Stamp, table: Table) -> None:
        with self._lock:
            if (old := self._tables.pop(game, None)) is not None:
                self._held -= _weight(old[1])
            self._tables[game] = (stamp, table)
            self._held += _weight(table)
            while self._tables and (len(self._tables) > self.size or self._held > self.boxes):
                _, (_, gone) = self._tables.popitem(last=False)
                self._held -= _weight(gone)

    def clear(self) -> None:
        with self._lock:
            self._tables.clear()
            self._held = 0

    def __len__(self) -> int:
        return len(self._tables)


def _weight(table: Table) -> int:
    """What a kept table counts against :data:`BOXES`: its boxes (an empty game, one)."""
    return max(len(table.boxes), 1)


KEPT = Kept()
"""The process's scored games."""


def scored(
    db: Session,
    game_id: str,
    score: Callable[[store.GameRow, Sequence[store.BoxRow]], Table],
    kept: Kept | None = None,
    row: store.GameRow | None = None,
) -> Table | None:
    """The game scored (``score`` rules a row and its boxes), from ``kept`` (the
    process's :data:`KEPT`) when it has not changed since; None if there is no such game.
    ``row``: the game's row as this transaction read it already (not read again)."""
    kept = KEPT if kept is None else kept
    row = store.get_game(db, game_id) if row is None or row.id != game_id else row
    if row is None:
        return None
    database = str(db.connection().engine.url)
    table = kept.get((database, row.id), (row.version, row.updated_at))
    if table is not None:
        return dataclasses.replace(table, row=row)
    found = store.load_game(db, game_id)
    if found is None:
        return None
    table = score(*found)
    kept.put((database, table.row.id), (table.row.version, table.row.updated_at), table)
    return table


def keep(db: Session, table: Table, kept: Kept | None = None) -> None:
    """Keep the table a write built from the game before it (the ledger's
    :meth:`~scorekeeper.ledger.Table.after`), under the row that write stored: the next
    read of the game finds it scored."""
    kept = KEPT if kept is None else kept
    database = str(db.get_bind().engine.url)
    kept.put((database, table.row.id), (table.row.version, table.row.updated_at), table)

"""One writer of a game at a time, by the database's own locks.

SQLite: the write transaction begins ``BEGIN IMMEDIATE`` (SQLAlchemy's recipe for
pysqlite, :func:`~scorekeeper.store.db.connect`), so one writer holds the database
and the others wait in SQLite's busy handler (``busy_timeout``) while readers go on
(WAL). PostgreSQL: the game's row is locked ``SELECT ... FOR UPDATE`` in a new
transaction, so writers of other games never wait. Either way the lock lasts from the
read the write is based on to its commit (or rollback), so a writer is never stale.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Game

IMMEDIATE = "scorekeeper_immediate"
"""The execution option that makes the connection's next transaction ``BEGIN IMMEDIATE``."""


@contextmanager
def writing(db: Session, game_id: str) -> Iterator[None]:
    """Hold the game for one write: read it, rule it, write it, commit, inside.

    Whatever is left open at the end (a write that was refused, an error) is rolled
    back, so the lock never outlives the block. Nested use for the same game is a
    no-op."""
    if db.info.get("writing") == game_id:
        yield
        return
    db.rollback()
    if db.get_bind().dialect.name == "sqlite":
        db.connection(execution_options={IMMEDIATE: True})
    else:
        db.execute(select(Game.version).where(Game.id == game_id).with_for_update())
    db.info["writing"] = game_id
    try:
        yield
    finally:
        db.info.pop("writing", None)
        if db.in_transaction():
            db.rollback()

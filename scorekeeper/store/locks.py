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

from .models import Event, EventTable, Game

IMMEDIATE = "scorekeeper_immediate"
"""The execution option that makes the connection's next transaction ``BEGIN IMMEDIATE``."""

HELD = "scorekeeper_held"
"""``Session.info`` key: an event's write holds the database and commits once, at its
end (:func:`holding`); the game writes it makes inside only lock and flush."""


def _begin(db: Session) -> None:
    """A new write transaction (SQLite: ``BEGIN IMMEDIATE``, one writer at a time)."""
    db.rollback()
    if db.get_bind().dialect.name == "sqlite":
        db.connection(execution_options={IMMEDIATE: True})


def _lock_game(db: Session, game_id: str) -> None:
    """PostgreSQL: the game's row ``FOR UPDATE`` (SQLite's write lock holds the database)."""
    if db.get_bind().dialect.name != "sqlite":
        db.execute(select(Game.version).where(Game.id == game_id).with_for_update())


def _lock_event_of(db: Session, game_id: str) -> None:
    """PostgreSQL: the row of the event whose table plays the game, ``FOR UPDATE``,
    before the game's: the order a director's write takes (:func:`holding`), so a box
    and a director's write never wait for each other crosswise, and the event's kept
    standings are written by one writer at a time (``store.kept``)."""
    if db.get_bind().dialect.name != "sqlite":
        event_id = db.scalar(select(EventTable.event_id).where(EventTable.game_id == game_id))
        if event_id is not None:
            db.execute(select(Event.version).where(Event.id == event_id).with_for_update())


@contextmanager
def holding(db: Session, event_id: str | None) -> Iterator[None]:
    """Hold an event for one write of the director's, that may also write its games (a
    penalty's line in a game's history, the games a seating starts, the games a close
    ends): one transaction from the read it is based on to one commit, made by the
    caller inside; whatever is left open at the end is rolled back. PostgreSQL locks
    the event's row first, then each game's as it is written (:func:`writing`), the
    order every write at an event's table takes too; SQLite holds the database."""
    _begin(db)
    if event_id is not None and db.get_bind().dialect.name != "sqlite":
        db.execute(select(Event.version).where(Event.id == event_id).with_for_update())
    db.info[HELD] = event_id or True
    try:
        yield
    finally:
        db.info.pop(HELD, None)
        if db.in_transaction():
            db.rollback()


def commit(db: Session) -> None:
    """Commit a write, unless it is part of an event's held write (:func:`holding`),
    which commits once at its end: then only flush."""
    if db.info.get(HELD):
        db.flush()
    else:
        db.commit()


def let_go(db: Session) -> None:
    """End a write that wrote nothing (a repeated key): roll back, unless it is part of
    an event's held write, whose transaction goes on."""
    if not db.info.get(HELD):
        db.rollback()


@contextmanager
def writing(db: Session, game_id: str) -> Iterator[None]:
    """Hold the game for one write: read it, rule it, write it, commit, inside.

    Whatever is left open at the end (a write that was refused, an error) is rolled
    back, so the lock never outlives the block. Nested use for the same game is a
    no-op."""
    if db.info.get("writing") == game_id:
        yield
        return
    if db.info.get(HELD):  # inside an event's write: lock the game too, commit with it
        _lock_game(db, game_id)
        before = db.info.get("writing")
        db.info["writing"] = game_id
        try:
            yield
        finally:
            db.info["writing"] = before
        return
    _begin(db)
    _lock_event_of(db, game_id)
    _lock_game(db, game_id)
    db.info["writing"] = game_id
    try:
        yield
    finally:
        db.info.pop("writing", None)
        if db.in_transaction():
            db.rollback()

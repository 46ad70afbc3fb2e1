"""One writer at a time: per game among a process's threads, per SQLite database
among processes, ``FOR UPDATE`` on PostgreSQL."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

try:
    import fcntl
except ImportError:  # Windows: one server process, the thread lock is enough
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import select
from sqlalchemy.orm import Session

from .models import Game


class WriterLock:
    """One writer at a time on one SQLite database, among this process's threads and
    the other server processes on the same file.

    Threads queue on a lock; processes on ``flock`` of ``<database>-writer.lock``
    (where there is ``fcntl``), which wakes the next writer the moment the last one
    commits, where SQLite's own busy handler would sleep and poll (backing off up to
    100 ms per try). A process opens the lock file for itself: a forked server
    process does not share its parent's. It is not reentrant: a write transaction
    never opens another.
    """

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._threads = threading.Lock()
        self._file: tuple[int, int] | None = None  # (pid, fd)

    def __enter__(self) -> None:
        self._threads.acquire()
        if self.path is not None and fcntl is not None:
            try:
                fcntl.flock(self._fd(), fcntl.LOCK_EX)
            except BaseException:
                self._threads.release()
                raise

    def __exit__(self, *_exc: object) -> None:
        if self.path is not None and self._file is not None and fcntl is not None:
            fcntl.flock(self._file[1], fcntl.LOCK_UN)
        self._threads.release()

    def _fd(self) -> int:
        assert self.path is not None
        if self._file is None or self._file[0] != os.getpid():
            self._file = (os.getpid(), os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        return self._file[1]


_WRITERS: dict[str, WriterLock] = {}
_WRITERS_LOCK = threading.Lock()


def _writer(db: Session) -> WriterLock:
    """The writer lock of the session's SQLite database (a file, or in memory)."""
    database = db.get_bind().engine.url.database
    key = database or ":memory:"
    with _WRITERS_LOCK:
        if key not in _WRITERS:
            on_disk = bool(database) and database != ":memory:"
            _WRITERS[key] = WriterLock(f"{database}-writer.lock" if on_disk else None)
        return _WRITERS[key]


_GAME_LOCKS = tuple(threading.RLock() for _ in range(64))
"""Locks for one writer per game among a process's threads: a game takes lock
``hash(id) % 64``, so two games rarely wait for each other and the set stays small."""


@contextmanager
def writing(db: Session, game_id: str) -> Iterator[None]:
    """One writer of a game at a time, from the read it is based on to its commit.

    A writer that holds this while it reads the game, rescores it and writes is
    never stale, so phones queue instead of retrying. On SQLite the server's threads
    queue on the game's lock; on PostgreSQL the game's row is locked ``FOR UPDATE`` in
    a new transaction, which the write's commit (or rollback) ends. On SQLite, writers
    of the same game in two server processes are kept apart by the version check.
    """
    if db.info.get("writing") == game_id:
        yield  # already inside
        return
    sqlite = db.get_bind().dialect.name == "sqlite"
    with _GAME_LOCKS[hash(game_id) % len(_GAME_LOCKS)] if sqlite else contextlib.nullcontext():
        db.rollback()
        if not sqlite:
            db.execute(select(Game.version).where(Game.id == game_id).with_for_update())
        db.info["writing"] = game_id
        try:
            yield
        finally:
            db.info.pop("writing", None)


def transaction(db: Session) -> contextlib.AbstractContextManager[None]:
    """Around a write transaction: SQLite's :class:`WriterLock` (PostgreSQL needs none)."""
    if db.get_bind().dialect.name == "sqlite":
        return _writer(db)
    return contextlib.nullcontext()

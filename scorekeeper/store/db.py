"""Connecting and migrating, given a database URL (the web factory or the command line
hands the store its URL; the store never reads the app's configuration).

SQLite runs in WAL mode with a busy timeout; PostgreSQL is used when the URL says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from .locks import IMMEDIATE

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
SQLITE_BUSY_MS = 10_000


def connect(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout, foreign keys, and
    transactions begun by SQLAlchemy (its recipe for pysqlite), so a write can begin
    ``BEGIN IMMEDIATE`` (:func:`~scorekeeper.store.locks.writing`)."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgres://")
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    return sa.create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets phones read while one writes; the busy timeout makes writers queue."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
    dbapi_connection.isolation_level = None  # pysqlite begins nothing; _sqlite_begin does


def _sqlite_begin(connection: sa.Connection) -> None:
    """``BEGIN IMMEDIATE`` for a write (it takes the write lock at once, or waits for
    it), a plain ``BEGIN`` for everything else."""
    immediate = connection.get_execution_options().get(IMMEDIATE)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def migrate(database_url: str) -> None:
    """Apply every Alembic migration to the database at ``database_url``."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["database_url"] = database_url
    command.upgrade(config, "head")


@contextmanager
def opened(database_url: str) -> Iterator[Session]:
    """A session outside any request (the command line): closed, engine disposed, after.

    >>> with opened("sqlite://") as db:
    ...     db.scalar(sa.text("SELECT 1"))
    1
    """
    engine = connect(database_url)
    try:
        with Session(engine, expire_on_commit=False) as db:
            yield db
    finally:
        engine.dispose()

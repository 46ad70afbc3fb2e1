"""Connecting and migrating, given a database URL (the web factory or the command line
hands the store its URL; the store never reads the app's configuration).

SQLite runs in WAL mode with a busy timeout; PostgreSQL is used when the URL says so.
"""

from __future__ import annotations

import functools
import os
import re
import select
import threading
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
POOL_RECYCLE_SECONDS = 1800
"""A pooled PostgreSQL connection older than this is replaced at its next checkout: one
that a network device dropped without a word (no FIN, so :func:`_alive` cannot see it)
is not kept for ever."""


def connect(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout, foreign keys, and
    transactions begun by SQLAlchemy (its recipe for pysqlite), so a write can begin
    ``BEGIN IMMEDIATE`` (:func:`~scorekeeper.store.locks.writing`)."""
    if url.startswith("sqlite"):
        refuse_network_storage(url)
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgres://")
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    engine = sa.create_engine(url, pool_recycle=POOL_RECYCLE_SECONDS)
    event.listen(engine, "checkout", _alive)
    return engine


def one_statement(engine: Engine) -> Engine:
    """The engine to read one statement on outside any session (a poll's): on
    PostgreSQL in autocommit, so psycopg sends no ``BEGIN`` before it and the pool no
    ``ROLLBACK`` after it (three round trips to the server for one read, issue 34); one
    statement is atomic on its own. SQLite's engine as it is."""
    if engine.dialect.name == "postgresql":
        return engine.execution_options(isolation_level="AUTOCOMMIT")
    return engine


def _alive(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """A pooled PostgreSQL connection the server has closed (a restart, an
    administrator's termination, its idle timeout) is thrown away at checkout, and the
    pool takes another (SQLAlchemy's "pessimistic" disconnect handling, with its
    ``DisconnectionError``), so the request that checks it out does not fail.

    Instead of ``pool_pre_ping``'s ``SELECT 1`` (a round trip to the server on every
    checkout, every unchanged poll's included: issue 34), it asks the socket: an idle
    connection has nothing to read unless the server has said something on its own,
    which for us is its goodbye (``FATAL: terminating connection``) or the socket's
    end. Anything else it may say unasked (a notice) costs a new connection, no more."""
    if dbapi_connection.closed:
        raise sa.exc.DisconnectionError("the connection is closed")
    ready = select.poll()
    ready.register(dbapi_connection.fileno(), select.POLLIN | select.POLLPRI)
    if ready.poll(0):
        raise sa.exc.DisconnectionError("the server closed the connection, or spoke unasked")


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


MIGRATION_LOCK = 0x5C0_4E_6A17
"""The PostgreSQL advisory lock ``migrate`` holds: one of two deploys migrates, the
other waits and then finds nothing to do."""


def migrate(database_url: str) -> None:
    """Apply every Alembic migration to the database at ``database_url``, holding a
    lock so that two deploys starting at once migrate one after the other (on an empty
    database the second crashed creating tables the first had made)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["database_url"] = database_url
    with _migrating(database_url):
        command.upgrade(config, "head")
        from .kept import rebuild_missing  # the kept standings of events stored before them

        with opened(database_url) as db:
            rebuild_missing(db)


@contextmanager
def _migrating(database_url: str) -> Iterator[None]:
    """PostgreSQL: a session advisory lock, held on its own connection. SQLite: an
    exclusive lock on ``<database>.migrate-lock`` beside the file (the migration's own
    transactions would wait on a lock taken inside the database). An in-memory
    database has no one to wait for."""
    if database_url.startswith("sqlite"):
        path = _sqlite_path(database_url)
        if path is None:
            yield
            return
        from filelock import FileLock

        with FileLock(f"{path}.migrate-lock"):
            yield
        return
    engine = connect(database_url)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
                conn.commit()
    finally:
        engine.dispose()


def head_revisions() -> frozenset[str]:
    """The latest migrations this code knows (read once: they are files of the install):
    the revisions no other names as its ``down_revision``, read from each script's
    literals (as Alembic's ``ScriptDirectory.get_heads`` finds them, which
    tests/store proves). Not through Alembic: importing it and loading every script
    cost each server 0.55 s of CPU at its start and at its first ``/health``.

    Read by one thread while the others wait: a gunicorn worker's first writes ask it
    from several threads at once, and Python 3.11's ``ast.parse`` in two threads at
    once can fail ("AST constructor recursion depth mismatch", CPython gh-106905): two
    phones joining a table were answered 500 in a 480-table evening."""
    with _HEADS_READ:
        return _head_revisions()


_HEADS_READ = threading.Lock()


@functools.cache
def _head_revisions() -> frozenset[str]:
    revisions: set[str] = set()
    below: set[str] = set()
    for script in sorted((MIGRATIONS / "versions").glob("*.py")):
        found = _literals(script, ("revision", "down_revision"))
        if "revision" not in found:
            continue
        revisions.add(str(found["revision"]))
        down = found.get("down_revision")
        below.update([down] if isinstance(down, str) else list(down or ()))
    return frozenset(revisions - below)


def _literals(script: Path, names: tuple[str, ...]) -> dict[str, Any]:
    """The values of ``names`` assigned literally at a script's top level."""
    import ast

    found: dict[str, Any] = {}
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            target, value = node.target.id, node.value
        elif (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            target, value = node.targets[0].id, node.value
        else:
            continue
        if target in names:
            found[target] = ast.literal_eval(value)
    return found


def schema_current(db: Session | str) -> bool:
    """Whether the database (a session, or a URL) is at the latest migration: a server
    on an older schema would answer 500s, so ``/health`` says 503 and ``serve`` refuses.
    The stored revisions are read as Alembic reads them (its version table, none when
    there is no such table), without loading Alembic.

    >>> schema_current("sqlite://")
    False
    """
    if isinstance(db, str):
        with opened(db) as session:
            return schema_current(session)
    connection = db.connection()
    if not sa.inspect(connection).has_table(VERSION_TABLE):
        return False
    heads = connection.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars()
    return frozenset(heads) == head_revisions()


VERSION_TABLE = "alembic_version"
"""Alembic's table of the revisions a database is at (its default name, which
migrations/env.py keeps)."""


MOUNTS_TABLE = Path("/proc/self/mounts")
"""Linux's table of mounted file systems, read to tell a network one."""
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs",
        "nfs4",
        "cifs",
        "smb3",
        "smbfs",
        "ncpfs",
        "afs",
        "9p",
        "ceph",
        "glusterfs",
        "fuse.glusterfs",
        "fuse.sshfs",
        "fuse.s3fs",
        "lustre",
        "gpfs",
        "ocfs2",
        "gfs2",
    }
)
"""File systems on which SQLite's locks do not hold (SQLite's FAQ: "file locking is
broken on many network file systems")."""


class NetworkStorage(ValueError):
    """A SQLite database on a network file system."""


def _sqlite_path(database_url: str) -> Path | None:
    """The file of a SQLite URL, or None for an in-memory database."""
    database = sa.engine.make_url(database_url).database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    return Path(database)


def refuse_network_storage(database_url: str, mounts: str | None = None) -> None:
    """Raise :class:`NetworkStorage` if ``database_url`` is a SQLite file on a network
    file system, as far as Linux's ``/proc/self/mounts`` tells (``mounts``: its text,
    for tests); elsewhere nothing can be told and nothing is refused.

    >>> refuse_network_storage("sqlite:////mnt/club/s.sqlite3",
    ...                        "server:/club /mnt/club nfs4 rw 0 0\\n/dev/sda1 / ext4 rw 0 0")
    Traceback (most recent call last):
    ...
    scorekeeper.store.db.NetworkStorage: ... /mnt/club/s.sqlite3 is on a network file system (nfs4), ...
    """
    if not database_url.startswith("sqlite"):
        return
    path = _sqlite_path(database_url)
    if path is None:
        return
    if mounts is None:
        try:
            mounts = MOUNTS_TABLE.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
    kind = _filesystem(Path(os.path.realpath(path.parent)) / path.name, mounts)
    if kind in NETWORK_FILESYSTEMS:
        raise NetworkStorage(
            f"the SQLite database {path} is on a network file system ({kind}), where "
            "SQLite's locks do not hold: keep it on a local disk, or use PostgreSQL "
            "(SCOREKEEPER_DATABASE_URL) to share one database between machines"
        )


def _filesystem(path: Path, mounts: str) -> str | None:
    """The type of the file system mounted deepest above ``path`` in a mounts table."""
    found, depth = None, -1
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        # Spaces and the like in mount points are written as octal escapes (\040).
        point = Path(re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[1]))
        if (path == point or point in path.parents) and len(point.parts) > depth:
            found, depth = fields[2], len(point.parts)
    return found

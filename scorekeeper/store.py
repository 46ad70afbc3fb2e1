"""The database: the only module that talks to it.

A game is stored as CONTRACT.md's game input (rules, settings, players, dealer,
stake) and its boxes as CONTRACT.md box inputs, each with the ruling the engine
gave it, so any game can be recomputed and exported. Boxes are never really
deleted: every change is a :class:`BoxRevision`, so a corrected score can be traced.

Every write names the game version it was based on and bumps it in the same
transaction (``UPDATE ... WHERE version = :seen``); a stale write raises
:class:`StaleWrite` instead of overwriting. A write may carry an idempotency key:
repeating it (a double tap, a retried request) returns the first result.

SQLite (in ``instance/``) runs in WAL mode with a busy timeout; PostgreSQL is
used when ``DATABASE_URL`` says so.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import threading
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

try:
    import fcntl
except ImportError:  # Windows: one server process, the thread lock is enough
    fcntl = None  # type: ignore[assignment]

import sqlalchemy as sa
from flask import Flask, current_app, g
from sqlalchemy import JSON, ForeignKey, String, event, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    Session,
    mapped_column,
    sessionmaker,
)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_MS = 10_000
MAX_ROW_ID = 2**31 - 1
"""Row ids are 32-bit in PostgreSQL: a larger id in a URL is no row, not an error."""


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[str]: JSON}


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Game(Base):
    """One game: its CONTRACT.md input without the boxes, and a short summary for lists."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    edit_token_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1)
    rules: Mapped[str] = mapped_column(String(40))
    settings: Mapped[dict[str, Any]]
    players: Mapped[list[str]]
    dealer: Mapped[str] = mapped_column(String(80))
    stake: Mapped[float | None]
    summary: Mapped[dict[str, Any]]
    rematch_of: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=_now)
    updated_at: Mapped[datetime] = mapped_column(default=_now, index=True)


class Box(Base):
    """A box as entered (CONTRACT.md box input) and its current ruling."""

    __tablename__ = "boxes"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    entry: Mapped[dict[str, Any]]
    ruling: Mapped[dict[str, Any]]
    revision: Mapped[int] = mapped_column(default=1)
    deleted: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=_now)
    updated_at: Mapped[datetime] = mapped_column(default=_now)


class BoxRevision(Base):
    """One step in a box's history: recorded, edited or deleted, with what it was then."""

    __tablename__ = "box_revisions"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    box_id: Mapped[int] = mapped_column(ForeignKey("boxes.id", ondelete="CASCADE"), index=True)
    revision: Mapped[int]
    action: Mapped[str] = mapped_column(String(16))
    entry: Mapped[dict[str, Any]]
    ruling: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    game_version: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=_now)


class WriteKey(Base):
    """An idempotency key already used on a game, with the write's result."""

    __tablename__ = "write_keys"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    box_id: Mapped[int | None]
    version: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=_now)


GAMES = typing.cast(sa.Table, Game.__table__)
GAME_FIELDS = tuple(column.name for column in GAMES.c)
BOXES = typing.cast(sa.Table, Box.__table__)
REVISIONS = typing.cast(sa.Table, BoxRevision.__table__)
KEYS = typing.cast(sa.Table, WriteKey.__table__)


class _Sql:
    """The statements of recording a box, built once: SQLAlchemy takes longer to build
    a statement than SQLite takes to run it. Parameters are named ``p_...``."""

    bump = GAMES.update().where(
        GAMES.c.id == sa.bindparam("p_game"), GAMES.c.version == sa.bindparam("p_expected")
    ).values(version=sa.bindparam("p_version"), updated_at=sa.bindparam("p_at"),
             summary=sa.bindparam("p_summary", type_=JSON))
    append = BOXES.insert().values(
        game_id=sa.bindparam("p_game"),
        position=select(sa.func.coalesce(sa.func.max(BOXES.c.position), 0) + 1)
        .where(BOXES.c.game_id == sa.bindparam("p_game")).scalar_subquery(),
        entry=sa.bindparam("p_entry", type_=JSON), ruling=sa.bindparam("p_ruling", type_=JSON),
        revision=1, deleted=False, created_at=sa.bindparam("p_at"),
        updated_at=sa.bindparam("p_at"),
    ).returning(BOXES.c.id)
    live_count = select(sa.func.count()).select_from(BOXES).where(
        BOXES.c.game_id == sa.bindparam("p_game"), BOXES.c.deleted.is_(False))
    set_ruling = BOXES.update().where(
        BOXES.c.id == sa.bindparam("p_box"), BOXES.c.game_id == sa.bindparam("p_game")
    ).values(ruling=sa.bindparam("p_ruling", type_=JSON))
    revision = REVISIONS.insert()
    key = KEYS.insert()
    repeated = select(KEYS.c.version, KEYS.c.box_id).where(
        KEYS.c.game_id == sa.bindparam("p_game"), KEYS.c.key == sa.bindparam("p_key"))
    version = select(GAMES.c.version).where(GAMES.c.id == sa.bindparam("p_game"))
    stamp = select(GAMES.c.version, GAMES.c.updated_at).where(
        GAMES.c.id == sa.bindparam("p_game"))
    game = select(GAMES).where(GAMES.c.id == sa.bindparam("p_game"))
    # The game and its live boxes in one statement (see load_game).
    game_and_boxes = (
        select(GAMES, BOXES.c.id.label("box_id"), BOXES.c.entry.label("box_entry"),
               BOXES.c.revision.label("box_revision"))
        .select_from(GAMES.outerjoin(BOXES, (BOXES.c.game_id == GAMES.c.id)
                                     & BOXES.c.deleted.is_(False)))
        .where(GAMES.c.id == sa.bindparam("p_game"))
        .order_by(BOXES.c.position, BOXES.c.id)
    )


class StoreError(Exception):
    """A write the store refused."""


class GameNotFound(StoreError):
    pass


class BoxNotFound(StoreError):
    pass


class StaleWrite(StoreError):
    """The game changed since the writer read it (HTTP 409)."""

    def __init__(self, current_version: int) -> None:
        super().__init__(f"the game is now at version {current_version}")
        self.current_version = current_version


@dataclass(frozen=True)
class WriteResult:
    """What a write did: the game's new version, the box it touched, and whether it was
    a repeat of an earlier write with the same idempotency key; ``updated_at`` is the
    game's new ``updated_at`` (None for a repeat)."""

    version: int
    box_id: int | None
    repeated: bool = False
    updated_at: datetime | None = None


@dataclass(frozen=True)
class GameRow:
    """A game as stored, without its boxes: plain data, not bound to a session."""

    id: str
    edit_token_hash: str
    version: int
    rules: str
    settings: dict[str, Any]
    players: list[str]
    dealer: str
    stake: float | None
    summary: dict[str, Any]
    rematch_of: str | None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: Any) -> GameRow:
        """From a result row or a :class:`Game` with these fields."""
        return cls(**{name: getattr(row, name) for name in GAME_FIELDS})


@dataclass(frozen=True)
class BoxRow:
    """A live box as a game's sheet shows it: plain data, not bound to a session."""

    id: int
    entry: dict[str, Any]
    revision: int
    deleted: bool = False


# --- connecting ---------------------------------------------------------------------------


def connect(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and foreign keys."""
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": SQLITE_BUSY_MS / 1000})
        event.listen(engine, "connect", _sqlite_pragmas)
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


def migrate(database_url: str | None = None) -> None:
    """Apply every Alembic migration to the database (the app's default if none given)."""
    from alembic import command
    from alembic.config import Config

    if database_url is None:
        database_url = default_url()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["database_url"] = database_url
    command.upgrade(config, "head")


def default_url() -> str:
    """The database the app would use here (DATABASE_URL, else instance/'s SQLite)."""
    from .web.app import database_url

    return database_url()


@contextmanager
def opened(database_url: str | None = None) -> Iterator[Session]:
    """A session outside any request (the command line): closed, engine disposed, after.

    >>> with opened("sqlite://") as db:
    ...     db.scalar(sa.text("SELECT 1"))
    1
    """
    engine = connect(database_url or default_url())
    try:
        with Session(engine, expire_on_commit=False) as db:
            yield db
    finally:
        engine.dispose()


def init_app(app: Flask) -> None:
    """Give the app an engine and a request-scoped session, closed after each request."""
    engine = connect(str(app.config["DATABASE_URL"]))
    app.extensions["scorekeeper.store"] = sessionmaker(engine, expire_on_commit=False)
    app.teardown_appcontext(_close_session)


def session() -> Session:
    """The current request's database session."""
    if "db" not in g:
        factory: sessionmaker[Session] = current_app.extensions["scorekeeper.store"]
        g.db = factory()
    db: Session = g.db
    return db


def _close_session(_exc: BaseException | None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


# --- reading ------------------------------------------------------------------------------


def _plausible(game_id: object) -> bool:
    """Whether ``game_id`` could be a game's id at all (a string of at most 32
    characters), before the database is asked."""
    return isinstance(game_id, str) and len(game_id) <= 32


def get_game(db: Session, game_id: str) -> GameRow | None:
    """The game with this id, or None."""
    if not _plausible(game_id):
        return None
    row = db.connection().execute(_Sql.game, {"p_game": game_id}).first()
    return None if row is None else GameRow.of(row)


def game_version(db: Session, game_id: str) -> int | None:
    """Only the version: what phones poll to see whether the sheet changed."""
    return db.connection().execute(_Sql.version, {"p_game": game_id}).scalar()


Stamp = tuple[int, datetime]
"""A game's version and ``updated_at``: every write changes both, and nothing else of
the game's row changes after it is created."""


def game_stamp(db: Session, game_id: str) -> Stamp | None:
    """The game's :data:`Stamp`, or None: whether a game read before is still current."""
    if not _plausible(game_id):
        return None
    row = db.connection().execute(_Sql.stamp, {"p_game": game_id}).first()
    return None if row is None else (row.version, row.updated_at)


def load_game(db: Session, game_id: str) -> tuple[GameRow, list[BoxRow]] | None:
    """The game and its live boxes in play order, read in one statement so that the
    boxes are those of the game's version (PostgreSQL reads each statement of a
    transaction as of its own moment: two queries could straddle another phone's write).
    Only what the sheet shows of each box is read (the engine rules every box again)."""
    if not _plausible(game_id):
        return None
    rows = db.connection().execute(_Sql.game_and_boxes, {"p_game": game_id}).all()
    if not rows:
        return None
    return GameRow.of(rows[0]), [BoxRow(row.box_id, row.box_entry, row.box_revision)
                                 for row in rows if row.box_id is not None]


def live_boxes(db: Session, game: GameRow) -> list[Box]:
    """The game's boxes in play order, without deleted ones."""
    query = (
        select(Box)
        .where(Box.game_id == game.id, Box.deleted.is_(False))
        .order_by(Box.position, Box.id)
    )
    return list(db.scalars(query))


def get_box(db: Session, game: GameRow, box_id: int) -> Box | None:
    """The game's box with this id (deleted or not), or None; ids out of the database's
    integer range (a hostile URL) are simply not found."""
    if not 0 < box_id <= MAX_ROW_ID:
        return None
    box = db.get(Box, box_id)
    if box is None or box.game_id != game.id:
        return None
    return box


def history(db: Session, box: Box) -> list[BoxRevision]:
    """Every revision of a box, oldest first."""
    query = select(BoxRevision).where(BoxRevision.box_id == box.id).order_by(
        BoxRevision.revision
    )
    return list(db.scalars(query))


def recent_games(db: Session, limit: int = 20,
                 ids: Sequence[str] | None = None) -> list[GameRow]:
    """Games most recently changed; only ``ids`` when given."""
    query = select(GAMES).order_by(GAMES.c.updated_at.desc()).limit(limit)
    if ids is not None:
        query = query.where(GAMES.c.id.in_(list(ids)))
    return [GameRow.of(row) for row in db.connection().execute(query)]


def game_input(game: GameRow, boxes: Sequence[Box | BoxRow] | None = None) -> dict[str, Any]:
    """The game as CONTRACT.md's ``score`` takes it; boxes carry their ``id``."""
    data: dict[str, Any] = {
        "rules": game.rules,
        "settings": dict(game.settings),
        "players": list(game.players),
        "dealer": game.dealer,
    }
    if game.stake is not None:
        data["stake"] = game.stake
    data["boxes"] = [box_input(box) for box in boxes or ()]
    return data


def box_input(box: Box | BoxRow) -> dict[str, Any]:
    """A stored box as the engine takes it, with its id."""
    return {**box.entry, "id": box.id}


def check_edit_token(game: GameRow, token: str | None) -> bool:
    """Whether ``token`` is the game's edit secret (constant-time comparison)."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return False
    return hmac.compare_digest(_token_hash(token), game.edit_token_hash)


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# --- writing ------------------------------------------------------------------------------


def create_game(
    db: Session,
    game: Mapping[str, Any],
    summary: Mapping[str, Any],
    boxes: Sequence[tuple[Mapping[str, Any], Mapping[str, Any]]] = (),
    rematch_of: str | None = None,
) -> tuple[GameRow, str]:
    """Store a new game (and boxes given with it, as ``(entry, ruling)``).

    Returns the game and its edit token, which is stored only as a hash.
    """
    token = secrets.token_urlsafe(24)
    row = Game(
        id=secrets.token_urlsafe(12),
        edit_token_hash=_token_hash(token),
        version=1,
        rules=game["rules"],
        settings=dict(game.get("settings") or {}),
        players=list(game["players"]),
        dealer=game["dealer"],
        stake=game.get("stake"),
        summary=dict(summary),
        rematch_of=rematch_of,
    )
    db.add(row)
    db.flush()
    stored = [Box(game_id=row.id, position=position, entry=clean_entry(entry),
                  ruling=dict(ruling)) for position, (entry, ruling) in enumerate(boxes, 1)]
    db.add_all(stored)
    db.flush()  # one batch: the boxes get their ids
    db.add_all([_revision(box, "recorded", 1) for box in stored])
    db.commit()
    return GameRow.of(row), token


@dataclass(frozen=True)
class _Changed:
    """The box a write changed, as its revision records it."""

    box_id: int
    revision: int
    entry: dict[str, Any]
    ruling: dict[str, Any] | None
    action: str


Change = Callable[[dict[str, Any] | None, datetime], _Changed]
"""A write's change to its box, given the box's new ruling and the write's time."""


def append_box(
    db: Session,
    game_id: str,
    expected_version: int,
    entry: Mapping[str, Any],
    score: Mapping[str, Any],
    key: str | None = None,
    based_on: int | None = None,
    previous: Mapping[int, Mapping[str, Any]] | None = None,
) -> WriteResult:
    """Add a box at the end. ``score`` is the engine's score of the game with it;
    ``previous`` the stored rulings by box id, when the caller has them (see
    :func:`_store_rulings`)."""
    stored = clean_entry(entry)

    def change(ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        box_id = db.connection().execute(_Sql.append, {
            "p_game": game_id, "p_entry": stored, "p_ruling": ruling or {}, "p_at": at,
        }).scalar_one()
        return _Changed(box_id, 1, stored, ruling, "recorded")

    return _write(db, game_id, expected_version, key, score, None, change, based_on, previous)


def replace_box(
    db: Session,
    game_id: str,
    box_id: int,
    expected_version: int,
    entry: Mapping[str, Any],
    score: Mapping[str, Any],
    key: str | None = None,
    based_on: int | None = None,
    previous: Mapping[int, Mapping[str, Any]] | None = None,
) -> WriteResult:
    """Correct a box; ``score`` is the game rescored with the correction."""
    stored = clean_entry(entry)

    def change(ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        revision = db.execute(
            _live_box(game_id, box_id)
            .values(entry=stored, ruling=ruling or {}, revision=Box.revision + 1, updated_at=at)
            .returning(Box.revision)).scalar_one_or_none()
        if revision is None:
            raise BoxNotFound(f"box {box_id} is not in this game")
        return _Changed(box_id, revision, stored, ruling, "edited")

    return _write(db, game_id, expected_version, key, score, box_id, change, based_on,
                  previous)


def delete_box(
    db: Session,
    game_id: str,
    box_id: int,
    expected_version: int,
    score: Mapping[str, Any],
    key: str | None = None,
    based_on: int | None = None,
    previous: Mapping[int, Mapping[str, Any]] | None = None,
) -> WriteResult:
    """Delete a box (kept in its history); ``score`` is the game rescored without it."""

    def change(_ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        row = db.execute(
            _live_box(game_id, box_id)
            .values(deleted=True, revision=Box.revision + 1, updated_at=at)
            .returning(Box.revision, Box.entry, Box.ruling)).one_or_none()
        if row is None:
            raise BoxNotFound(f"box {box_id} is not in this game")
        return _Changed(box_id, row.revision, row.entry, row.ruling or None, "deleted")

    return _write(db, game_id, expected_version, key, score, box_id, change, based_on,
                  previous)


def _live_box(game_id: str, box_id: int) -> sa.Update:
    """An update of the game's live box ``box_id`` (no row if there is none)."""
    return update(Box).where(Box.id == (box_id if 0 < box_id <= MAX_ROW_ID else 0),
                             Box.game_id == game_id, Box.deleted.is_(False))


def clean_entry(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The box as stored: its CONTRACT.md input (or its ruling), less the id the store
    gives it (the row's own id)."""
    return {k: v for k, v in entry.items() if k != "id"}


def _revision(box: Box, action: str, game_version: int) -> BoxRevision:
    return BoxRevision(box_id=box.id, revision=box.revision, action=action,
                       entry=dict(box.entry), ruling=dict(box.ruling) or None,
                       game_version=game_version)


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


def _transaction(db: Session) -> contextlib.AbstractContextManager[None]:
    """Around a write transaction: SQLite's :class:`WriterLock` (PostgreSQL needs none)."""
    if db.get_bind().dialect.name == "sqlite":
        return _writer(db)
    return contextlib.nullcontext()


def _write(
    db: Session,
    game_id: str,
    expected: int,
    key: str | None,
    score: Mapping[str, Any],
    box_id: int | None,
    change: Change,
    based_on: int | None = None,
    previous: Mapping[int, Mapping[str, Any]] | None = None,
) -> WriteResult:
    """One write, one transaction, one writer (:func:`writing`): version bump, the
    change to box ``box_id`` (None: a new box), the idempotency key, the other rulings
    the change altered (an edit early in a game can change every ruling after it) and
    the box's revision. A key already used fails its insert (the table's primary key):
    the write is undone and the first write's result returned, as for a stale repeat.

    ``based_on`` is the version the caller read to compute ``score``: a writer that
    names another version (a forged or future one) would store rulings of a game that
    no longer exists, so it is refused like any stale write.
    """
    with writing(db, game_id):
        if based_on is not None and based_on != expected:
            return _refused(db, game_id, key)
        version, stamp = expected + 1, _now()
        try:
            with _transaction(db):
                sql = db.connection()
                bumped = sql.execute(_Sql.bump, {
                    "p_game": game_id, "p_expected": expected, "p_version": version,
                    "p_at": stamp, "p_summary": summarize(score),
                })
                if getattr(bumped, "rowcount", 0) != 1:
                    db.rollback()
                    return _refused(db, game_id, key)
                changed = change(_ruling_of(score, box_id), stamp)
                if key is not None:
                    sql.execute(_Sql.key, {"game_id": game_id, "key": key,
                                           "box_id": changed.box_id, "version": version,
                                           "at": stamp})
                _store_rulings(db, game_id, score, changed, previous)
                sql.execute(_Sql.revision, {
                    "box_id": changed.box_id, "revision": changed.revision,
                    "action": changed.action, "entry": changed.entry, "ruling": changed.ruling,
                    "game_version": version, "at": stamp,
                })
                db.commit()
                return WriteResult(version, changed.box_id, updated_at=stamp)
        except IntegrityError:
            db.rollback()
            earlier = repeated(db, game_id, key)
            if earlier is None:
                raise
            return earlier
        except BaseException:
            db.rollback()
            raise


def _refused(db: Session, game_id: str, key: str | None) -> WriteResult:
    """A write that cannot go ahead: the first write's result if this one repeats it
    (same key), else :class:`StaleWrite` (or :class:`GameNotFound`)."""
    earlier = repeated(db, game_id, key)
    if earlier is not None:
        return earlier
    current = game_version(db, game_id)
    db.rollback()
    if current is None:
        raise GameNotFound(f"no game {game_id}")
    raise StaleWrite(current)


def repeated(db: Session, game_id: str, key: str | None) -> WriteResult | None:
    """The result of an earlier write on this game with this idempotency key, if any."""
    if key is None:
        return None
    row = db.connection().execute(_Sql.repeated, {"p_game": game_id, "p_key": key}).first()
    if row is None:
        return None
    return WriteResult(row.version, row.box_id, repeated=True)


def _ruling_of(score: Mapping[str, Any], box_id: int | None) -> dict[str, Any] | None:
    """The changed box's new ruling, as stored (without ``id``): the one of ``box_id``,
    or for a new box the one without an id; None for a deleted box."""
    for ruling in score.get("boxes") or ():
        if ruling.get("id") == box_id:
            return clean_entry(ruling)
    return None


LIVE_CHANGE = {"recorded": 1, "edited": 0, "deleted": -1}
"""How a change alters the number of live boxes."""


def _store_rulings(db: Session, game_id: str, score: Mapping[str, Any], changed: _Changed,
                   previous: Mapping[int, Mapping[str, Any]] | None) -> None:
    """Save the other live boxes' rulings from the engine's score of the changed game.

    An edit early in a game can change every ruling after it, but most writes
    append a box and change no other ruling: given the ``previous`` rulings (of the
    version the write is based on, which the version check guarantees), only the
    rulings that differ are written. A score of another number of boxes than the
    game now has is refused.
    """
    rulings = list(score.get("boxes") or [])
    if previous is not None:
        live = len(previous) + LIVE_CHANGE[changed.action]
    else:
        live = db.connection().execute(_Sql.live_count, {"p_game": game_id}).scalar_one()
    if len(rulings) != live:
        raise StoreError(f"{len(rulings)} rulings for {live} boxes")
    for ruling in rulings:
        box_id = ruling.get("id", changed.box_id)
        if box_id != changed.box_id and (previous is None or previous.get(box_id) != ruling):
            db.connection().execute(_Sql.set_ruling, {
                "p_box": box_id, "p_game": game_id,
                "p_ruling": clean_entry(ruling)})


def summarize(score: Mapping[str, Any]) -> dict[str, Any]:
    """What a list of games shows without recomputing: totals, boxes, the end."""
    return {
        "totals": dict(score.get("totals") or {}),
        "boxes": len(score.get("boxes") or ()),
        "game_over": bool(score.get("game_over")),
        "winner": score.get("winner"),
    }


def all_game_ids(db: Session) -> Iterator[str]:
    """Every game's id (for backups and consistency checks)."""
    yield from db.scalars(select(Game.id).order_by(Game.created_at))


# --- export, import, backups, checks ------------------------------------------------------

BACKUP_FORMAT = "scorekeeper-backup"
BACKUP_VERSION = 1
BACKUP_TABLES = ("games", "boxes", "box_revisions", "write_keys")
"""Tables in the order a restore inserts them (parents before children)."""


def export_game(db: Session, game_id: str) -> dict[str, Any]:
    """The game as CONTRACT.md JSON (what ``score`` and ``import_game`` take)."""
    row = get_game(db, game_id)
    if row is None:
        raise GameNotFound(f"no game {game_id}")
    return game_input(row, live_boxes(db, row))


def import_game(db: Session, data: Any) -> tuple[GameRow, str]:
    """Store a CONTRACT.md game (an export, or any game ``score`` takes) as a new game.

    The engine scores it first, so a game it refuses raises its
    :class:`~scorekeeper.engine.ScorekeeperError` and nothing is stored. Box ids in the
    input are dropped: the store numbers boxes itself. Returns the game and its new
    edit token.
    """
    from . import engine

    if not isinstance(data, Mapping):
        raise engine.ScorekeeperError("a game is a JSON object with rules, players and "
                                      "boxes", where="")
    scored = engine.score(data)
    game: dict[str, Any] = {k: data[k] for k in ("rules", "settings", "players", "dealer",
                                                 "stake") if data.get(k) is not None}
    game.setdefault("settings", {})
    boxes = list(zip(data.get("boxes") or [], scored["boxes"], strict=True))
    return create_game(db, game, summarize(scored), boxes)


def verify_game(db: Session, game_id: str) -> list[str]:
    """What is wrong with a stored game, as sentences; empty when it is consistent.

    Consistent means: the engine, rescoring the stored boxes, gives every box the
    ruling stored with it and the totals the game's summary shows; and every write
    since the game was created left exactly one revision (versions 2..version), so no
    write was half done.
    """
    from . import engine

    row = get_game(db, game_id)
    if row is None:
        return [f"no game {game_id}"]
    problems: list[str] = []
    boxes = live_boxes(db, row)
    try:
        scored = engine.score(game_input(row, boxes))
    except engine.ScorekeeperError as err:
        return [f"game {game_id} no longer scores: {err.message}"]
    if _normal(summarize(scored)) != _normal(row.summary):
        problems.append(f"game {game_id}: summary {row.summary} but rescored "
                        f"{summarize(scored)}")
    for box, ruling in zip(boxes, scored["boxes"], strict=True):
        if _normal(box.ruling, drop="id") != _normal(ruling, drop="id"):
            problems.append(f"game {game_id}: box {box.id} has a stale ruling")
    written = list(db.scalars(
        select(BoxRevision.game_version)
        .join(Box, Box.id == BoxRevision.box_id)
        .where(Box.game_id == game_id, BoxRevision.game_version > 1)
    ))
    if sorted(written) != list(range(2, row.version + 1)):
        problems.append(f"game {game_id}: version {row.version} but revisions for "
                        f"versions {sorted(written)}")
    keys = db.scalars(select(WriteKey.version).where(WriteKey.game_id == game_id))
    if any(version > row.version for version in keys):
        problems.append(f"game {game_id}: an idempotency key names a future version")
    return problems


def verify(db: Session) -> list[str]:
    """:func:`verify_game` for every game."""
    return [problem for game_id in list(all_game_ids(db))
            for problem in verify_game(db, game_id)]


def _normal(value: Any, drop: str | None = None) -> Any:
    """JSON as stored (tuples become lists), less a key, for comparisons."""
    import json

    data = json.loads(json.dumps(value, sort_keys=True))
    if drop is not None and isinstance(data, dict):
        data.pop(drop, None)
    return data


def backup(path: str | Path, database_url: str) -> dict[str, int]:
    """Write the whole database to ``path`` as one JSON document; rows per table back.

    The copy is one consistent moment even while phones keep writing: SQLite is first
    copied with its online backup API, PostgreSQL read in one REPEATABLE READ
    transaction. The file is written beside ``path`` and renamed, mode 0600.
    :func:`restore` loads it into an empty database of either kind.
    """
    import json
    import os
    import sqlite3
    import tempfile

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
                        tables = _dump_tables(conn)
                finally:
                    snapshot.dispose()
        else:
            with source.connect() as conn:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
                with conn.begin():
                    tables = _dump_tables(conn)
    finally:
        source.dispose()
    document = {"format": BACKUP_FORMAT, "format_version": BACKUP_VERSION,
                "created_at": _now().isoformat(), "tables": tables}
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
    return {name: len(rows) for name, rows in tables.items()}


def _dump_tables(conn: sa.Connection) -> dict[str, list[dict[str, Any]]]:
    tables: dict[str, list[dict[str, Any]]] = {}
    for name in BACKUP_TABLES:
        table = Base.metadata.tables[name]
        ordered = select(table).order_by(*table.primary_key.columns)
        tables[name] = [{key: value.isoformat() if isinstance(value, datetime) else value
                         for key, value in row.items()}
                        for row in conn.execute(ordered).mappings()]
    return tables


def restore(path: str | Path, database_url: str) -> dict[str, int]:
    """Load a :func:`backup` into a database (migrated here) that has no games yet."""
    import json

    document = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise StoreError(f"{path} is not a scorekeeper backup")
    if document.get("format_version") != BACKUP_VERSION:
        raise StoreError(f"{path} is a backup of format {document.get('format_version')}; "
                         f"this version reads format {BACKUP_VERSION}")
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
                for name in ("boxes", "box_revisions"):
                    conn.execute(sa.text(
                        f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                        f"COALESCE((SELECT MAX(id) FROM {name}), 0) + 1, false)"))
    finally:
        target.dispose()
    return {name: len(document["tables"].get(name, [])) for name in BACKUP_TABLES}


def _restored_row(table: sa.Table, row: Mapping[str, Any]) -> dict[str, Any]:
    """A backed-up row with its datetimes parsed back."""
    restored: dict[str, Any] = {}
    for column in table.columns:
        value = row.get(column.name)
        if isinstance(value, str) and isinstance(column.type, sa.DateTime):
            value = datetime.fromisoformat(value)
        restored[column.name] = value
    return restored

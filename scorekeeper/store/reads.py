"""Reading games and boxes: what the sheet, the lists and the edit checks need."""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Iterator, Sequence
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..engine.contract import BoxEntry, GameEntry, escaped, sound
from ..engine.history import HistoryEntry, Kind
from .models import (
    BOXES,
    EVENTS,
    GAMES,
    MAX_ROW_ID,
    Box,
    BoxRevision,
    BoxRow,
    Game,
    GameRow,
    RevisionRow,
)


class _Sql:
    """The statements of reading a game, built once: SQLAlchemy takes longer to build
    a statement than SQLite takes to run it. Parameters are named ``p_...``."""

    version = select(GAMES.c.version).where(GAMES.c.id == sa.bindparam("p_game"))
    stamp = select(GAMES.c.version, GAMES.c.updated_at).where(GAMES.c.id == sa.bindparam("p_game"))
    game = select(GAMES).where(GAMES.c.id == sa.bindparam("p_game"))
    # The game and its live boxes in one statement (see load_game).
    game_and_boxes = (
        select(
            GAMES,
            BOXES.c.id.label("box_id"),
            BOXES.c.entry.label("box_entry"),
            BOXES.c.revision.label("box_revision"),
        )
        .select_from(GAMES.outerjoin(BOXES, (BOXES.c.game_id == GAMES.c.id) & BOXES.c.deleted.is_(False)))
        .where(GAMES.c.id == sa.bindparam("p_game"))
        .order_by(BOXES.c.position, BOXES.c.id)
    )
    # What every sheet reads besides the game: its own history lines and deleted boxes.
    events = (
        select(EVENTS.c.action, EVENTS.c.detail, EVENTS.c.game_version, EVENTS.c.at)
        .where(EVENTS.c.game_id == sa.bindparam("p_game"))
        .order_by(EVENTS.c.id)
    )
    deleted = (
        select(BOXES.c.id, BOXES.c.entry, BOXES.c.revision, BOXES.c.ruling)
        .where(BOXES.c.game_id == sa.bindparam("p_game"), BOXES.c.deleted.is_(True))
        .order_by(BOXES.c.position, BOXES.c.id)
    )
    with_join_code = (
        select(GAMES)
        .where(GAMES.c.join_code_hash == sa.bindparam("p_hash"))
        .order_by(GAMES.c.updated_at.desc())
        .limit(5)
    )
    # Whether another game has a join code: what starting a game asks (an indexed read).
    join_code_taken = (
        select(GAMES.c.id)
        .where(GAMES.c.join_code_hash == sa.bindparam("p_hash"), GAMES.c.id != sa.bindparam("p_game"))
        .limit(1)
    )


def _plausible(game_id: object) -> bool:
    """Whether ``game_id`` could be a game's id at all (a string of at most 32
    characters, no NUL, which PostgreSQL refuses in text), before the database is asked."""
    return isinstance(game_id, str) and len(game_id) <= 32 and "\x00" not in game_id


def get_game(db: Session, game_id: str) -> GameRow | None:
    """The game with this id, or None."""
    if not _plausible(game_id):
        return None
    row = db.connection().execute(_Sql.game, {"p_game": game_id}).first()
    return None if row is None else GameRow.of(row)


def game_version(db: Session, game_id: str) -> int | None:
    """Only the version: what phones poll to see whether the sheet changed."""
    if not _plausible(game_id):
        return None
    return db.connection().execute(_Sql.version, {"p_game": game_id}).scalar()


def version_on(engine: sa.Engine, game_id: str) -> int | None:
    """:func:`game_version` read through the database driver on a connection of the
    engine's pool, with no SQLAlchemy connection, transaction or statement around it:
    what a poll reads before the web app opens a session (``web/polls.py``). A club
    evening's requests are most of them such polls, and the wrapping cost three times
    the read (issue 34: 0.29 ms of CPU a poll in the app, SQLite's ``BEGIN`` and
    ``ROLLBACK`` among it). One statement is atomic on its own, so on PostgreSQL it is
    read in the driver's autocommit: psycopg would otherwise send ``BEGIN`` before it
    and the pool ``ROLLBACK`` after it, three round trips to the server for one read
    (with autocommit the pool's rollback has nothing to end and sends nothing)."""
    if not _plausible(game_id):
        return None
    statement, positional = _driver_statement(engine.dialect)
    raw = engine.raw_connection()  # back to the pool, rolled back, when closed
    driver = raw.driver_connection
    autocommit = engine.dialect.name == "postgresql"
    try:
        if autocommit:
            driver.autocommit = True  # type: ignore[union-attr]
        cursor = raw.cursor()
        try:
            cursor.execute(statement, (game_id,) if positional else {"p_game": game_id})
            row = cursor.fetchone()
        finally:
            cursor.close()
            if autocommit and not driver.closed:  # type: ignore[union-attr]
                driver.autocommit = False  # type: ignore[union-attr]
    finally:
        raw.close()
    return None if row is None else int(row[0])


@functools.lru_cache(maxsize=8)
def _driver_statement(dialect: sa.Dialect) -> tuple[str, bool]:
    """:attr:`_Sql.version` as the dialect's driver takes it, and whether its one
    parameter goes by position (SQLite's ``?``) or by name (psycopg's ``%(p_game)s``)."""
    compiled = _Sql.version.compile(dialect=dialect)
    return str(compiled), bool(compiled.positional)


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
    return GameRow.of(rows[0]), [
        BoxRow(row.box_id, row.box_entry, row.box_revision) for row in rows if row.box_id is not None
    ]


def live_boxes(db: Session, game: GameRow) -> list[Box]:
    """The game's boxes in play order, without deleted ones."""
    query = select(Box).where(Box.game_id == game.id, Box.deleted.is_(False)).order_by(Box.position, Box.id)
    return list(db.scalars(query))


def get_box(db: Session, game: GameRow, box_id: int) -> BoxRow | None:
    """The game's box with this id (deleted or not) and its ruling, or None; ids out of
    the database's integer range (a hostile URL) are simply not found. Text an older
    version stored that is not valid Unicode comes out escaped."""
    if not 0 < box_id <= MAX_ROW_ID:
        return None
    box = db.get(Box, box_id)
    if box is None or box.game_id != game.id:
        return None
    return BoxRow(
        box.id, sound(box.entry, "entry", []), box.revision, box.deleted, sound(box.ruling, "ruling", [])
    )


def deleted_boxes(db: Session, game_id: str) -> list[BoxRow]:
    """The game's deleted boxes with their last ruling, in play order: the sheet still
    names them once the Undo bar is gone, each linked to its history."""
    rows = db.connection().execute(_Sql.deleted, {"p_game": game_id})
    return [
        BoxRow(row.id, sound(row.entry, "entry", []), row.revision, True, sound(row.ruling, "ruling", []))
        for row in rows
    ]


def live_place(db: Session, box_id: int) -> int:
    """Where the box stands (from 0) among its game's live boxes in play order, were it
    live: the place a deleted box goes back to when its deletion is undone."""
    box = db.get(Box, box_id)
    if box is None:
        return 0
    before = sa.or_(Box.position < box.position, sa.and_(Box.position == box.position, Box.id < box.id))
    query = (
        select(sa.func.count())
        .select_from(Box)
        .where(Box.game_id == box.game_id, Box.deleted.is_(False), before)
    )
    return int(db.scalar(query) or 0)


def history(db: Session, box: Box | BoxRow) -> list[RevisionRow]:
    """Every revision of a box, oldest first (text that is not valid Unicode escaped)."""
    query = select(BoxRevision).where(BoxRevision.box_id == box.id).order_by(BoxRevision.revision)
    return [
        RevisionRow(
            row.revision,
            row.action,
            sound(row.entry, "entry", []),
            sound(row.ruling, "ruling", []),
            row.game_version,
            row.at,
            row.phone,
        )
        for row in db.scalars(query)
    ]


def game_events(db: Session, game_id: str) -> list[HistoryEntry]:
    """The changes to the game itself (house rules, its end, a director's penalty or
    seat change), oldest first, each read once into its typed history line."""
    rows = db.connection().execute(_Sql.events, {"p_game": game_id})
    return [
        HistoryEntry.stored(row.action, sound(row.detail, "detail", []), row.game_version, row.at)
        for row in rows
    ]


def box_history(revisions: Sequence[RevisionRow]) -> list[HistoryEntry]:
    """A box's revisions as typed history lines, each carrying its ruling and the one
    before it (what a correction changed is said from the two)."""
    lines = []
    before: RevisionRow | None = None
    for rev in revisions:
        detail: dict[str, object] = {"ruling": rev.ruling, "note": rev.entry.get("note") or ""}
        action = rev.action
        if before is not None and action != Kind.RECORDED:
            detail["before"] = before.ruling
            detail["note_before"] = before.entry.get("note") or ""
            detail["restored"] = action == Kind.UNDONE and before.action == Kind.DELETED
        elif before is None and action not in (Kind.RECORDED, Kind.DELETED):
            action = Kind.RECORDED.value  # a box's first revision recorded it
        lines.append(HistoryEntry.stored(action, detail, rev.game_version, rev.at, rev.phone))
        before = rev
    return lines


def recent_games(db: Session, limit: int = 20, ids: Sequence[str] | None = None) -> list[GameRow]:
    """Games most recently changed; only ``ids`` when given."""
    query = select(GAMES).order_by(GAMES.c.updated_at.desc()).limit(limit)
    if ids is not None:
        query = query.where(GAMES.c.id.in_(list(ids)))
    return [GameRow.of(row) for row in db.connection().execute(query)]


def game_entry(game: GameRow, boxes: Sequence[Box | BoxRow] = ()) -> GameEntry:
    """The game as CONTRACT.md has it, each box labelled with its row's id. A box is read
    as stored (:meth:`BoxEntry.from_stored`): what an older version kept, fields it did
    not know or text it did not check, still loads; the game's own text that is not
    valid Unicode is escaped the same way, so an export or a page never fails on it."""
    return GameEntry(
        rules=escaped(game.rules),
        players=tuple(escaped(p) for p in game.players),
        dealer=escaped(game.dealer),
        settings=sound(dict(game.settings), "settings", []),
        stake=game.stake,
        place=None if game.place is None else escaped(game.place),
        started=None if game.started is None else escaped(game.started),
        ended="agreed" if game.ended == "agreed" else None,
        currency=game.currency,
        boxes=tuple(BoxEntry.from_stored(box.entry).relabelled(box.id) for box in boxes),
    )


def check_edit_token(game: GameRow, token: str | None) -> bool:
    """Whether ``token`` is the game's edit secret (constant-time comparison)."""
    if not token or not isinstance(token, str) or len(token) > 200:
        return False
    return hmac.compare_digest(token_hash(token), game.edit_token_hash)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def join_code_hash(code: str) -> str:
    """A short join code as stored: hashed apart from edit codes (its own prefix)."""
    return hashlib.sha256(b"join:" + code.encode("utf-8")).hexdigest()


def games_with_join_code(db: Session, code: str) -> list[GameRow]:
    """The games whose short join code is ``code`` (normally one; none for a wrong
    code), most recently changed first."""
    rows = db.connection().execute(_Sql.with_join_code, {"p_hash": join_code_hash(code)})
    return [GameRow.of(row) for row in rows]


def join_code_taken(db: Session, code: str, game_id: str) -> bool:
    """Whether a game other than ``game_id`` has the short join code ``code``: one
    indexed existence check, no game's row read (every game started asks)."""
    found = db.connection().execute(_Sql.join_code_taken, {"p_hash": join_code_hash(code), "p_game": game_id})
    return found.first() is not None


def all_game_ids(db: Session) -> Iterator[str]:
    """Every game's id (for backups and consistency checks)."""
    yield from db.scalars(select(Game.id).order_by(Game.created_at))

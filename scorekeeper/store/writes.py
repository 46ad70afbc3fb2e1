"""The write path: new games, and recording, correcting and deleting boxes.

The caller (the ledger) holds the game (:func:`~scorekeeper.store.locks.writing`),
reads it, has the engine rule the change and hands the store plain records: the box
as entered, the rulings that changed, the game's summary. Every write bumps the
game's version in the same transaction (``UPDATE ... WHERE version = :seen``), as a
last guard against a writer that did not hold the game. A write may carry an
idempotency :class:`~scorekeeper.store.models.Key`: the key is stored with a hash of
what the write changed, and a second write with the key fails its insert. Boxes are
never really deleted: every change is a :class:`BoxRevision`, so a corrected score
can be traced.

Kept whole (a little over 500 lines): every write of a game shares one transaction
shape (:func:`_write`: version bump, key, rulings, revision) that is read, and was
reviewed, as one piece; splitting it by write would put that shape in three places.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import JSON, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import kept
from .locks import commit, writing
from .models import (
    BOXES,
    EVENTS,
    GAMES,
    KEYS,
    MAX_ROW_ID,
    REVISIONS,
    Box,
    BoxRevision,
    Codes,
    Game,
    GameRow,
    Key,
    NewGame,
    Rulings,
    StoredBox,
    now,
)
from .reads import game_version, join_code_hash, token_hash


class _Sql:
    """The statements of recording a box, built once: SQLAlchemy takes longer to build
    a statement than SQLite takes to run it. Parameters are named ``p_...``."""

    bump = (
        GAMES.update()
        .where(GAMES.c.id == sa.bindparam("p_game"), GAMES.c.version == sa.bindparam("p_expected"))
        .values(
            version=sa.bindparam("p_version"),
            updated_at=sa.bindparam("p_at"),
            summary=sa.bindparam("p_summary", type_=JSON),
        )
    )
    append = (
        BOXES.insert()
        .values(
            game_id=sa.bindparam("p_game"),
            position=select(sa.func.coalesce(sa.func.max(BOXES.c.position), 0) + 1)
            .where(BOXES.c.game_id == sa.bindparam("p_game"))
            .scalar_subquery(),
            entry=sa.bindparam("p_entry", type_=JSON),
            ruling=sa.bindparam("p_ruling", type_=JSON),
            revision=1,
            deleted=False,
            created_at=sa.bindparam("p_at"),
            updated_at=sa.bindparam("p_at"),
        )
        .returning(BOXES.c.id)
    )
    set_ruling = (
        BOXES.update()
        .where(BOXES.c.id == sa.bindparam("p_box"), BOXES.c.game_id == sa.bindparam("p_game"))
        .values(ruling=sa.bindparam("p_ruling", type_=JSON))
    )
    revision = REVISIONS.insert()
    key = KEYS.insert()
    repeated = select(KEYS.c.version, KEYS.c.box_id, KEYS.c.digest).where(
        KEYS.c.game_id == sa.bindparam("p_game"), KEYS.c.key == sa.bindparam("p_key")
    )
    started = select(GAMES.c.id, GAMES.c.start_digest).where(GAMES.c.start_key == sa.bindparam("p_key"))


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


class KeyTaken(StoreError):
    """A new game's start key is already used (by a start at the same moment)."""


@dataclass(frozen=True)
class WriteResult:
    """What a write did: the game's new version, the box it touched, and whether it was
    a repeat of an earlier write with the same idempotency key; ``updated_at`` is the
    game's new ``updated_at`` (None for a repeat)."""

    version: int
    box_id: int | None
    repeated: bool = False
    updated_at: datetime | None = None
    digest: str | None = None
    """For a repeat: the hash of what the first write with the key changed."""


GAME_ID_ALPHABET = string.ascii_letters + string.digits
"""Letters and digits: an id never starts with '-' (which a command line would read as an
option) and reads aloud without punctuation."""


def new_game_id() -> str:
    """A new game's id: 16 letters and digits (95 random bits), in no order."""
    return "".join(secrets.choice(GAME_ID_ALPHABET) for _ in range(16))


def create_game(
    db: Session,
    game: NewGame,
    boxes: Sequence[StoredBox] = (),
    key: Key | None = None,
    token: str | None = None,
    *,
    game_id: str | None = None,
    codes: Codes | None = None,
) -> tuple[GameRow, str]:
    """Store a new game (and boxes given with it) with its ``codes`` (made for
    ``game_id``), else the edit secret ``token`` (a new random one when None); codes
    are stored only as hashes. A start ``key`` already used raises :class:`KeyTaken`."""
    token = codes.edit if codes is not None else token or secrets.token_urlsafe(24)
    row = Game(
        id=game_id or new_game_id(),
        edit_token_hash=token_hash(token),
        version=1,
        join_code_hash=None if codes is None else join_code_hash(codes.join),
        codes_round=None if codes is None else codes.round,
        rules=game.rules,
        settings=dict(game.settings),
        players=list(game.players),
        dealer=game.dealer,
        stake=game.stake,
        summary=dict(game.summary),
        rematch_of=game.rematch_of,
        place=game.place,
        started=game.started,
        ended=game.ended,
        currency=game.currency,
        start_key=None if key is None else key.key,
        start_digest=None if key is None else key.digest,
    )
    try:
        db.add(row)
        db.flush()
        stored = [
            Box(game_id=row.id, position=position, entry=dict(box.entry), ruling=dict(box.ruling))
            for position, box in enumerate(boxes, 1)
        ]
        db.add_all(stored)
        db.flush()  # one batch: the boxes get their ids
        db.add_all([_revision(box, "recorded", 1) for box in stored])
        commit(db)
    except IntegrityError:
        db.rollback()
        if key is None or started_with(db, key.key) is None:
            raise
        raise KeyTaken(f"the start key {key.key!r} is already used") from None
    return GameRow.of(row), token


def renew_codes(db: Session, game_id: str, seen_round: int | None, codes: Codes) -> bool:
    """Replace the game's codes by ``codes`` (the old ones stop working at once), if
    its codes are still of ``seen_round``: False when another phone renewed them first
    or there is no such game. The game's version is untouched: the sheet is the same."""
    statement = (
        update(Game)
        .where(Game.id == game_id)
        .where(Game.codes_round.is_(None) if seen_round is None else Game.codes_round == seen_round)
        .values(
            edit_token_hash=token_hash(codes.edit),
            join_code_hash=join_code_hash(codes.join),
            codes_round=codes.round,
        )
    )
    changed = getattr(db.execute(statement), "rowcount", 0)
    db.commit()
    return bool(changed)


def started_with(db: Session, key: str) -> tuple[str, str | None] | None:
    """The game a start key started, with the hash of what it started, if any."""
    row = db.connection().execute(_Sql.started, {"p_key": key}).first()
    return None if row is None else (row.id, row.start_digest)


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
    entry: dict[str, Any],
    *,
    rulings: Rulings,
    summary: dict[str, Any],
    key: Key | None = None,
    phone: str | None = None,
) -> WriteResult:
    """Add a box at the end; its ruling is ``rulings[None]``. ``phone``: which phone
    wrote it, kept with the revision (each write below takes it too)."""

    def change(ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        box_id = (
            db.connection()
            .execute(
                _Sql.append,
                {
                    "p_game": game_id,
                    "p_entry": entry,
                    "p_ruling": ruling or {},
                    "p_at": at,
                },
            )
            .scalar_one()
        )
        return _Changed(box_id, 1, entry, ruling, "recorded")

    return _write(db, game_id, expected_version, key, None, change, rulings, summary, phone)


def replace_box(
    db: Session,
    game_id: str,
    box_id: int,
    expected_version: int,
    entry: dict[str, Any],
    *,
    rulings: Rulings,
    summary: dict[str, Any],
    key: Key | None = None,
    action: str = "edited",
    phone: str | None = None,
) -> WriteResult:
    """Correct a live box; its new ruling is ``rulings[box_id]``. ``action`` names the
    revision ("undone" when an undo puts back the box's previous version)."""

    def change(ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        revision = db.execute(
            _live_box(game_id, box_id)
            .values(entry=entry, ruling=ruling or {}, revision=Box.revision + 1, updated_at=at)
            .returning(Box.revision)
        ).scalar_one_or_none()
        if revision is None:
            raise BoxNotFound(f"box {box_id} is not in this game")
        return _Changed(box_id, revision, entry, ruling, action)

    return _write(db, game_id, expected_version, key, box_id, change, rulings, summary, phone)


def delete_box(
    db: Session,
    game_id: str,
    box_id: int,
    expected_version: int,
    *,
    rulings: Rulings,
    summary: dict[str, Any],
    key: Key | None = None,
    action: str = "deleted",
    phone: str | None = None,
) -> WriteResult:
    """Delete a live box (kept in its history); ``action`` names the revision ("undone"
    when an undo takes back the box's recording)."""

    def change(_ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        row = db.execute(
            _live_box(game_id, box_id)
            .values(deleted=True, revision=Box.revision + 1, updated_at=at)
            .returning(Box.revision, Box.entry, Box.ruling)
        ).one_or_none()
        if row is None:
            raise BoxNotFound(f"box {box_id} is not in this game")
        return _Changed(box_id, row.revision, row.entry, row.ruling or None, action)

    return _write(db, game_id, expected_version, key, box_id, change, rulings, summary, phone)


def restore_box(
    db: Session,
    game_id: str,
    box_id: int,
    expected_version: int,
    *,
    rulings: Rulings,
    summary: dict[str, Any],
    key: Key | None = None,
    action: str = "undone",
    phone: str | None = None,
) -> WriteResult:
    """Put a deleted box back at its place in the game (an undone deletion); its new
    ruling is ``rulings[box_id]``."""

    def change(ruling: dict[str, Any] | None, at: datetime) -> _Changed:
        row = db.execute(
            update(Box)
            .where(
                Box.id == (box_id if 0 < box_id <= MAX_ROW_ID else 0),
                Box.game_id == game_id,
                Box.deleted.is_(True),
            )
            .values(deleted=False, ruling=ruling or {}, revision=Box.revision + 1, updated_at=at)
            .returning(Box.revision, Box.entry)
        ).one_or_none()
        if row is None:
            raise BoxNotFound(f"box {box_id} is not a deleted box of this game")
        return _Changed(box_id, row.revision, row.entry, ruling, action)

    return _write(db, game_id, expected_version, key, box_id, change, rulings, summary, phone)


def _live_box(game_id: str, box_id: int) -> sa.Update:
    """An update of the game's live box ``box_id`` (no row if there is none)."""
    return update(Box).where(
        Box.id == (box_id if 0 < box_id <= MAX_ROW_ID else 0), Box.game_id == game_id, Box.deleted.is_(False)
    )


def _revision(box: Box, action: str, game_version: int) -> BoxRevision:
    return BoxRevision(
        box_id=box.id,
        revision=box.revision,
        action=action,
        entry=dict(box.entry),
        ruling=dict(box.ruling) or None,
        game_version=game_version,
    )


def _write(
    db: Session,
    game_id: str,
    expected: int,
    key: Key | None,
    box_id: int | None,
    change: Change,
    rulings: Rulings,
    summary: dict[str, Any],
    phone: str | None = None,
) -> WriteResult:
    """One write, one transaction: version bump, the change to box ``box_id`` (None: a
    new box), the idempotency key, the other rulings the change altered (a correction
    early in a game can change every ruling after it) and the box's revision. A key
    already used fails its insert (the table's primary key): the write is undone and
    the first write's result returned."""
    with writing(db, game_id):
        version, stamp = expected + 1, now()
        try:
            sql = db.connection()
            bumped = sql.execute(
                _Sql.bump,
                {
                    "p_game": game_id,
                    "p_expected": expected,
                    "p_version": version,
                    "p_at": stamp,
                    "p_summary": summary,
                },
            )
            if getattr(bumped, "rowcount", 0) != 1:
                db.rollback()
                return _refused(db, game_id, key)
            changed = change(rulings.get(box_id), stamp)
            if key is not None:
                sql.execute(
                    _Sql.key,
                    {
                        "game_id": game_id,
                        "key": key.key,
                        "digest": key.digest,
                        "box_id": changed.box_id,
                        "version": version,
                        "at": stamp,
                    },
                )
            for other, ruling in rulings.items():
                if other is not None and other != changed.box_id:
                    sql.execute(_Sql.set_ruling, {"p_box": other, "p_game": game_id, "p_ruling": ruling})
            sql.execute(
                _Sql.revision,
                {
                    "box_id": changed.box_id,
                    "revision": changed.revision,
                    "action": changed.action,
                    "entry": changed.entry,
                    "ruling": changed.ruling,
                    "game_version": version,
                    "at": stamp,
                    "phone": phone,
                },
            )
            kept.game_written(db, game_id, summary)
            commit(db)
            return WriteResult(version, changed.box_id, updated_at=stamp)
        except IntegrityError:
            db.rollback()
            earlier = repeated(db, game_id, None if key is None else key.key)
            if earlier is None:
                raise
            return earlier


def _refused(db: Session, game_id: str, key: Key | None) -> WriteResult:
    """A write that cannot go ahead: the first write's result if this one repeats it
    (same key), else :class:`StaleWrite` (or :class:`GameNotFound`)."""
    earlier = repeated(db, game_id, None if key is None else key.key)
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
    return WriteResult(row.version, row.box_id, repeated=True, digest=row.digest)


@dataclass(frozen=True)
class Amendment:
    """A change to the game itself: its new settings and/or its end, and the event its
    history records (``action``: ``rules`` or ``ended``; ``detail``: what changed)."""

    action: str
    detail: dict[str, Any]
    settings: dict[str, Any] | None = None
    ended: str | None = None
    reopen: bool = False
    """The game's end by agreement is undone (``ended`` cleared)."""
    substitutes: list[dict[str, Any]] | None = None
    """The game's substitutes, all of them (E5), when one is added."""


def amend_game(
    db: Session,
    game_id: str,
    expected_version: int,
    amendment: Amendment,
    *,
    rulings: Rulings,
    summary: dict[str, Any],
    key: Key | None = None,
) -> WriteResult:
    """Change the game's house rules or end it, in one transaction with the version bump,
    the rulings that changed (new rules can change every box's), the idempotency key and
    the event in its history."""
    with writing(db, game_id):
        version, stamp = expected_version + 1, now()
        values: dict[str, Any] = {"version": version, "updated_at": stamp, "summary": summary}
        if amendment.settings is not None:
            values["settings"] = amendment.settings
        if amendment.ended is not None:
            values["ended"] = amendment.ended
        if amendment.reopen:
            values["ended"] = None
        if amendment.substitutes is not None:
            values["substitutes"] = amendment.substitutes
        try:
            sql = db.connection()
            bumped = sql.execute(
                GAMES.update()
                .where(GAMES.c.id == game_id, GAMES.c.version == expected_version)
                .values(**values)
            )
            if getattr(bumped, "rowcount", 0) != 1:
                db.rollback()
                return _refused(db, game_id, key)
            if key is not None:
                sql.execute(
                    _Sql.key,
                    {
                        "game_id": game_id,
                        "key": key.key,
                        "digest": key.digest,
                        "box_id": None,
                        "version": version,
                        "at": stamp,
                    },
                )
            for box_id, ruling in rulings.items():
                if box_id is not None:
                    sql.execute(_Sql.set_ruling, {"p_box": box_id, "p_game": game_id, "p_ruling": ruling})
            sql.execute(
                EVENTS.insert().values(
                    game_id=game_id,
                    action=amendment.action,
                    detail=amendment.detail,
                    game_version=version,
                    at=stamp,
                )
            )
            kept.game_written(
                db,
                game_id,
                summary,
                amendment.ended,
                end_changed=amendment.ended is not None or amendment.reopen,
            )
            commit(db)
            return WriteResult(version, None, updated_at=stamp)
        except IntegrityError:
            db.rollback()
            earlier = repeated(db, game_id, None if key is None else key.key)
            if earlier is None:
                raise
            return earlier

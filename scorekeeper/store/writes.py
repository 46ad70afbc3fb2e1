"""The write path: new games, and recording, correcting and deleting boxes.

Every write names the game version it was based on and bumps it in the same
transaction (``UPDATE ... WHERE version = :seen``); a stale write raises
:class:`StaleWrite` instead of overwriting. A write may carry an idempotency key:
repeating it (a double tap, a retried request) returns the first result. Boxes are
never really deleted: every change is a :class:`BoxRevision`, so a corrected score
can be traced.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import JSON, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .locks import transaction, writing
from .models import BOXES, GAMES, KEYS, MAX_ROW_ID, REVISIONS, Box, BoxRevision, Game, GameRow, now
from .reads import game_version, token_hash


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
        edit_token_hash=token_hash(token),
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
        version, stamp = expected + 1, now()
        try:
            with transaction(db):
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

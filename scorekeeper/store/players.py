"""What players' records read and the one thing they write: the games a browser may
count (one row each: the summary holds what the records need), and the scorers'
merges and splits of names (:class:`~scorekeeper.store.models.PlayerAlias`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .locks import IMMEDIATE
from .models import ALIASES, GAMES, MAX_ROW_ID, PlayerAlias


@dataclass(frozen=True)
class AliasRow:
    """A stored merge (``game_id`` None) or split (in ``game_id``) of a folded name."""

    id: int
    name: str
    person: str
    game_id: str | None


@dataclass(frozen=True)
class CountedGame:
    """What records read of a game: who played what, when, for what stake, and its
    summary (which says how each box and the game ended)."""

    id: str
    version: int
    rules: str
    players: list[str]
    stake: float | None
    started: str | None
    created_at: datetime
    summary: dict[str, Any]


_COUNTED = select(GAMES.c.id, GAMES.c.version, GAMES.c.rules, GAMES.c.players, GAMES.c.stake,
                  GAMES.c.started, GAMES.c.created_at, GAMES.c.summary)
"""Only the columns records read: a whole row costs half as much again (a thousand
games, docs/performance.md)."""


def counted_games(db: Session, ids: Sequence[str] | None = None) -> list[CountedGame]:
    """Every game, or only those of ``ids`` (the games a browser started or opened),
    oldest first: one statement, without their boxes (their summaries say enough)."""
    query = _COUNTED.order_by(GAMES.c.created_at, GAMES.c.id)
    if ids is not None:
        query = query.where(GAMES.c.id.in_([i for i in ids if isinstance(i, str)]))
    return [CountedGame(*row) for row in db.connection().execute(query)]


def versions(db: Session, ids: Sequence[str] | None = None,
             most: int | None = None) -> dict[str, int]:
    """Each counted game's version (every write raises it), oldest game first: what a
    reader that keeps games it has read compares, without reading the games. With
    ``most``, only that many of the newest games (a public server's records pages
    read a bounded number of games however many the server holds)."""
    query = select(GAMES.c.id, GAMES.c.version)
    if ids is not None:
        query = query.where(GAMES.c.id.in_([i for i in ids if isinstance(i, str)]))
    if most is not None:
        newest = query.order_by(GAMES.c.created_at.desc(), GAMES.c.id.desc()).limit(most)
        rows = list(db.connection().execute(newest))[::-1]
    else:
        rows = list(db.connection().execute(query.order_by(GAMES.c.created_at, GAMES.c.id)))
    return {row.id: row.version for row in rows}


def aliases(db: Session) -> list[AliasRow]:
    """Every merge and split, oldest first."""
    query = select(ALIASES).order_by(ALIASES.c.id)
    return [AliasRow(row.id, row.name, row.person, row.game_id)
            for row in db.connection().execute(query)]


@contextmanager
def _deciding(db: Session) -> Iterator[None]:
    """One write transaction (``BEGIN IMMEDIATE`` on SQLite, as a box's write), rolled
    back if it does not reach its commit."""
    db.rollback()
    if db.get_bind().dialect.name == "sqlite":
        db.connection(execution_options={IMMEDIATE: True})
    try:
        yield
    finally:
        if db.in_transaction():
            db.rollback()


def set_alias(db: Session, name: str, person: str, game_id: str | None = None) -> AliasRow:
    """Count the folded ``name`` as ``person`` (in ``game_id`` only, when given), in place
    of any earlier decision on the same name and game; committed."""
    condition = PlayerAlias.game_id.is_(None) if game_id is None else (
        PlayerAlias.game_id == game_id)
    with _deciding(db):
        db.execute(delete(PlayerAlias).where(PlayerAlias.name == name, condition))
        alias = PlayerAlias(name=name, person=person, game_id=game_id)
        db.add(alias)
        db.flush()
        row = AliasRow(alias.id, alias.name, alias.person, alias.game_id)
        db.commit()
    return row


def drop_alias(db: Session, alias_id: int) -> AliasRow | None:
    """Undo a merge or split; the row as it was, or None if there was none."""
    if not 0 < alias_id <= MAX_ROW_ID:
        return None
    with _deciding(db):
        alias = db.get(PlayerAlias, alias_id)
        if alias is None:
            return None
        row = AliasRow(alias.id, alias.name, alias.person, alias.game_id)
        db.delete(alias)
        db.commit()
    return row

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
from .models import ALIASES, DECISIONS, GAMES, MAX_ROW_ID, NameDecision, PlayerAlias, now


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
    currency: str | None = None


_COUNTED = select(
    GAMES.c.id,
    GAMES.c.version,
    GAMES.c.rules,
    GAMES.c.players,
    GAMES.c.stake,
    GAMES.c.started,
    GAMES.c.created_at,
    GAMES.c.summary,
    GAMES.c.currency,
)
"""Only the columns records read: a whole row costs half as much again (a thousand
games, docs/performance.md)."""


def counted_games(db: Session, ids: Sequence[str] | None = None) -> list[CountedGame]:
    """Every game, or only those of ``ids`` (the games a browser started or opened),
    oldest first: one statement, without their boxes (their summaries say enough)."""
    query = _COUNTED.order_by(GAMES.c.created_at, GAMES.c.id)
    if ids is not None:
        query = query.where(GAMES.c.id.in_([i for i in ids if isinstance(i, str)]))
    return [CountedGame(*row) for row in db.connection().execute(query)]


def versions(db: Session, ids: Sequence[str] | None = None, most: int | None = None) -> dict[str, int]:
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
    return [AliasRow(row.id, row.name, row.person, row.game_id) for row in db.connection().execute(query)]


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
    condition = PlayerAlias.game_id.is_(None) if game_id is None else (PlayerAlias.game_id == game_id)
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


@dataclass(frozen=True)
class NameChange:
    """One name a decision set in one game, and the person it counted as there before
    (None: itself). ``game`` None: a server-wide merge from before decisions were kept."""

    game: str | None
    name: str
    before: str | None


@dataclass(frozen=True)
class DecisionRow:
    """A merge or split as decided and kept in history (``undone_at`` once undone)."""

    id: int
    kind: str
    name: str
    person: str
    changes: tuple[NameChange, ...]
    at: datetime
    undone_at: datetime | None

    @property
    def games(self) -> tuple[str, ...]:
        """The games it changed (none for a server-wide merge from before)."""
        return tuple(c.game for c in self.changes if c.game is not None)


def _decision_row(row: Any) -> DecisionRow:
    changes = tuple(
        NameChange(c.get("game"), str(c.get("name", "")), c.get("before"))
        for c in row.changes
        if isinstance(c, dict)
    )
    return DecisionRow(row.id, row.kind, row.name, row.person, changes, row.at, row.undone_at)


def decisions(db: Session) -> list[DecisionRow]:
    """Every merge and split decided, undone ones too, oldest first."""
    query = select(DECISIONS).order_by(DECISIONS.c.id)
    return [_decision_row(row) for row in db.connection().execute(query)]


def decision(db: Session, decision_id: int) -> DecisionRow | None:
    """One decision, or None (an id out of range is none)."""
    if not 0 < decision_id <= MAX_ROW_ID:
        return None
    query = select(DECISIONS).where(DECISIONS.c.id == decision_id)
    row = db.connection().execute(query).first()
    return None if row is None else _decision_row(row)


def _standing(db: Session, name: str, game_id: str | None) -> PlayerAlias | None:
    condition = PlayerAlias.game_id.is_(None) if game_id is None else (PlayerAlias.game_id == game_id)
    return db.scalars(select(PlayerAlias).where(PlayerAlias.name == name, condition)).first()


def decide(db: Session, kind: str, name: str, person: str, places: Sequence[tuple[str, str]]) -> DecisionRow:
    """Count each folded name as ``person`` in its game (``places``: (game id, name)
    pairs), in place of what stood there, and keep the decision with what each change
    replaced: one transaction, committed."""
    with _deciding(db):
        changes = []
        for game_id, folded in places:
            standing = _standing(db, folded, game_id)
            changes.append(
                {"game": game_id, "name": folded, "before": None if standing is None else standing.person}
            )
            if standing is not None:
                db.delete(standing)
                db.flush()
            db.add(PlayerAlias(name=folded, person=person, game_id=game_id))
        kept = NameDecision(kind=kind, name=name, person=person, changes=changes)
        db.add(kept)
        db.flush()
        row = _decision_row(kept)
        db.commit()
    return row


def undo_decision(db: Session, decision_id: int) -> DecisionRow | None:
    """Put back what a decision replaced, where it still stands (a later decision on
    the same name and game is left alone), and mark it undone, kept in history; the
    decision as undone, or None if there is none still standing."""
    if not 0 < decision_id <= MAX_ROW_ID:
        return None
    with _deciding(db):
        kept = db.get(NameDecision, decision_id)
        if kept is None or kept.undone_at is not None:
            return None
        for change in _decision_row(kept).changes:
            standing = _standing(db, change.name, change.game)
            if standing is None or standing.person != kept.person:
                continue
            db.delete(standing)
            db.flush()
            if change.before is not None:
                db.add(PlayerAlias(name=change.name, person=change.before, game_id=change.game))
        kept.undone_at = now()
        db.flush()
        row = _decision_row(kept)
        db.commit()
    return row

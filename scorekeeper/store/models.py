"""The tables, as typed SQLAlchemy models, and the plain records reads hand out.

Data only: no statement here reads or writes (see ``reads.py`` and ``writes.py``).
A game is stored as CONTRACT.md's game input (rules, settings, players, dealer, stake)
and its boxes as CONTRACT.md box inputs, each with the ruling the engine gave it.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

import sqlalchemy as sa
from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from ..engine.contract import Sheet

MAX_ROW_ID = 2**31 - 1
"""Row ids are 32-bit in PostgreSQL: a larger id in a URL is no row, not an error."""


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[str]: JSON}


def now() -> datetime:
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
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now, index=True)
    place: Mapped[str | None] = mapped_column(String(120))
    started: Mapped[str | None] = mapped_column(String(40))
    start_key: Mapped[str | None] = mapped_column(String(64), index=True, unique=True)
    """The idempotency key of the form (or request) that started the game."""
    start_digest: Mapped[str | None] = mapped_column(String(64))
    join_code_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    """The short join code, hashed: found by the code alone (the home page's form)."""
    codes_round: Mapped[int | None]
    """How many times the codes were made (1 at the start, +1 per renewal); None for a
    game stored before codes had rounds (its edit code was random)."""


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
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)


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
    at: Mapped[datetime] = mapped_column(default=now)


class WriteKey(Base):
    """An idempotency key already used on a game, with the write's result."""

    __tablename__ = "write_keys"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    box_id: Mapped[int | None]
    version: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=now)
    digest: Mapped[str | None] = mapped_column(String(64))
    """What the write changed, hashed: the same key with other content is refused."""


GAMES = typing.cast(sa.Table, Game.__table__)
GAME_FIELDS = tuple(column.name for column in GAMES.c)
BOXES = typing.cast(sa.Table, Box.__table__)
REVISIONS = typing.cast(sa.Table, BoxRevision.__table__)
KEYS = typing.cast(sa.Table, WriteKey.__table__)


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
    place: str | None = None
    started: str | None = None
    start_key: str | None = None
    start_digest: str | None = None
    join_code_hash: str | None = None
    codes_round: int | None = None

    @classmethod
    def of(cls, row: Any) -> GameRow:
        """From a result row or a :class:`Game` with these fields."""
        return cls(**{name: getattr(row, name) for name in GAME_FIELDS})


@dataclass(frozen=True)
class NewGame:
    """A game to store: CONTRACT.md's game without its boxes, and its summary."""

    rules: str
    settings: dict[str, Any]
    players: list[str]
    dealer: str
    stake: float | None
    summary: dict[str, Any]
    place: str | None = None
    started: str | None = None
    rematch_of: str | None = None


@dataclass(frozen=True)
class Codes:
    """A game's codes to store (only hashed): the edit code of the join link, the short
    join code typed by hand, and their round."""

    edit: str
    join: str
    round: int


@dataclass(frozen=True)
class StoredBox:
    """A box to store with a new game: its CONTRACT.md input and its ruling."""

    entry: dict[str, Any]
    ruling: dict[str, Any]


@dataclass(frozen=True)
class Key:
    """An idempotency key and what the write it names changes (a hash)."""

    key: str
    digest: str


def summarize(sheet: Sheet) -> dict[str, Any]:
    """What a list of games shows without rescoring: totals, boxes, the end."""
    return {"totals": dict(sheet.totals), "boxes": len(sheet.boxes),
            "game_over": sheet.game_over, "winner": sheet.winner,
            "final_totals": dict(sheet.final_totals)}


Rulings = typing.Mapping[int | None, dict[str, Any]]
"""Box rulings to store, by box id; ``None`` is the box a write adds."""


@dataclass(frozen=True)
class BoxRow:
    """A live box as a game's sheet shows it: plain data, not bound to a session."""

    id: int
    entry: dict[str, Any]
    revision: int
    deleted: bool = False

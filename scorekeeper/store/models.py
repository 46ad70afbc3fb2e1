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

from ..engine.contract import Payment, Sheet, sound
from ..engine.event import paid_nets

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
    ended: Mapped[str | None] = mapped_column(String(16))
    """``"agreed"`` once the scorers ended the game by agreement (CONTRACT.md ``ended``)."""
    currency: Mapped[str | None] = mapped_column(String(3))
    """The stake's currency, an ISO 4217 code (CONTRACT.md ``currency``)."""
    substitutes: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    """Who plays a seat from which box mid-game, and for whom it counts (RULES.md E5;
    :class:`scorekeeper.engine.substitutes.Substitute`); None: nobody was replaced."""


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
    phone: Mapped[str | None] = mapped_column(String(80))
    """Which phone wrote it, as the phone calls itself ("Bo's phone"); None before 0010
    and for writes from the API or the command line."""


class GameEvent(Base):
    """A change to the game itself, in its history beside the boxes' revisions: its
    house rules changed (``rules``: the settings before and after) or the game ended
    by agreement (``ended``)."""

    __tablename__ = "game_events"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(16))
    detail: Mapped[dict[str, Any]]
    game_version: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=now)


class WriteKey(Base):
    """An idempotency key already used on a game, with the write's result."""

    __tablename__ = "write_keys"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    box_id: Mapped[int | None]
    version: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=now)
    digest: Mapped[str | None] = mapped_column(String(64))
    """What the write changed, hashed: the same key with other content is refused."""


class PlayerAlias(Base):
    """A scorer's decision on who is who across games: the folded ``name`` counts as the
    person ``person`` in every game (a merge), or only in ``game_id`` (a split of a name
    two people share)."""

    __tablename__ = "player_aliases"
    __table_args__ = (sa.UniqueConstraint("name", "game_id", name="uq_player_aliases_name_game"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(80))
    person: Mapped[str] = mapped_column(String(80))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    at: Mapped[datetime] = mapped_column(default=now)


class NameDecision(Base):
    """A merge or split of names as a scorer decided it, kept in history (undone ones
    too): ``changes`` lists each name it set in each game, ``{"game", "name",
    "before"}`` (the person the name counted as there before, or None), so that undoing
    it puts back what it replaced. A decision from before this history (a server-wide
    merge) has one change with ``game`` None."""

    __tablename__ = "name_decisions"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(80))
    person: Mapped[str] = mapped_column(String(80))
    changes: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None]


class Event(Base):
    """A club night (CONTRACT.md "An event"): its settings as the director gave them
    (``entry``: the event's JSON without entrants, seating, games and penalties), the
    draw's seed, the round it is at and the director's codes (hashed, like a game's)."""

    __tablename__ = "events"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    entry: Mapped[dict[str, Any]]
    seed: Mapped[int] = mapped_column(sa.BigInteger)
    version: Mapped[int] = mapped_column(default=1)
    current_round: Mapped[int] = mapped_column(default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    director_hash: Mapped[str] = mapped_column(String(64))
    join_code_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    codes_round: Mapped[int | None]
    start_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now)


class EventEntrant(Base):
    """An entrant, in entry order: from which round, and withdrawn after which."""

    __tablename__ = "event_entrants"
    __table_args__ = (sa.UniqueConstraint("event_id", "name", name="uq_event_entrants_name"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    position: Mapped[int]
    entered_round: Mapped[int] = mapped_column(default=1)
    withdrawn_round: Mapped[int | None]
    """The first round the entrant no longer plays (None: still in)."""


class EventRound(Base):
    """A round's seating (tables in seat order, byes), its clock and its close."""

    __tablename__ = "event_rounds"
    __table_args__ = (sa.UniqueConstraint("event_id", "number", name="uq_event_rounds_number"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    tables: Mapped[list[Any]] = mapped_column(JSON)
    byes: Mapped[list[str]]
    started_at: Mapped[datetime | None]
    minutes: Mapped[int | None]
    closed_at: Mapped[datetime | None]


class EventTable(Base):
    """The game a table plays in a round."""

    __tablename__ = "event_games"
    __table_args__ = (sa.UniqueConstraint("event_id", "round", "table_number", name="uq_event_games_table"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    round: Mapped[int]
    table_number: Mapped[int]
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)


class EventPenalty(Base):
    """Points the director took from a player, with the note, and the key of the form
    or call that took them (sent again, it takes nothing more)."""

    __tablename__ = "event_penalties"
    __table_args__ = (sa.UniqueConstraint("event_id", "key", name="uq_event_penalties_key"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    player: Mapped[str] = mapped_column(String(80))
    points: Mapped[int]
    note: Mapped[str] = mapped_column(sa.Text)
    round: Mapped[int | None]
    game_id: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(default=now)
    key: Mapped[str | None] = mapped_column(String(64))
    withdrawn_at: Mapped[datetime | None]
    withdrawn_note: Mapped[str | None] = mapped_column(sa.Text)


class EventHistory(Base):
    """One write of the director's to an event, as its history shows it (a typed line:
    engine/history.py), with the idempotency key of the form or call that made it and
    a digest of what it changed: sent again it answers the event, with other content
    it is refused."""

    __tablename__ = "event_history"
    __table_args__ = (sa.UniqueConstraint("event_id", "key", name="uq_event_history_key"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    key: Mapped[str | None] = mapped_column(String(64))
    digest: Mapped[str | None] = mapped_column(String(64))
    version: Mapped[int]
    at: Mapped[datetime] = mapped_column(default=now)


class KeptEvent(Base):
    """An event's kept standings (issue 34): how its tables count, each round's scores
    summed and counted, and its version (up by one with every write that changes the
    standings, in that write's transaction); ``built``: the version it was last built
    at from every game (a director's write), so a reader knows the rows it read before
    still hold."""

    __tablename__ = "kept_events"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int]
    built: Mapped[int]
    counting: Mapped[dict[str, Any]] = mapped_column(JSON)
    rounds: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(default=now)


class KeptPlayer(Base):
    """One player's kept sums in an event (``engine.event.kept.Line``) and the event's
    kept version that last changed them."""

    __tablename__ = "kept_players"
    __table_args__ = (sa.Index("ix_kept_players_version", "event_id", "version"),)

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    player: Mapped[str] = mapped_column(String(80), primary_key=True)
    score: Mapped[int] = mapped_column(sa.BigInteger)
    games: Mapped[int]
    won: Mapped[int] = mapped_column(sa.BigInteger)
    boxes: Mapped[int]
    versus: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int]


class KeptTable(Base):
    """One table's game as the kept standings last counted it (its ``TableResult``),
    whether it was ended by agreement, and the kept version that last changed it."""

    __tablename__ = "kept_tables"
    __table_args__ = (sa.Index("ix_kept_tables_version", "event_id", "version"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"))
    round: Mapped[int]
    table_number: Mapped[int]
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    ended: Mapped[str | None] = mapped_column(String(16))
    version: Mapped[int]


KEPT_TABLES = ("kept_events", "kept_players", "kept_tables")
"""Made from the games and the event (``store.kept.rebuild``): not backed up, rebuilt."""


GAMES = typing.cast(sa.Table, Game.__table__)
GAME_FIELDS = tuple(column.name for column in GAMES.c)
BOXES = typing.cast(sa.Table, Box.__table__)
REVISIONS = typing.cast(sa.Table, BoxRevision.__table__)
KEYS = typing.cast(sa.Table, WriteKey.__table__)
EVENTS = typing.cast(sa.Table, GameEvent.__table__)
ALIASES = typing.cast(sa.Table, PlayerAlias.__table__)
DECISIONS = typing.cast(sa.Table, NameDecision.__table__)
EVENT_TABLES = ("events", "event_entrants", "event_rounds", "event_games", "event_penalties", "event_history")


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
    ended: str | None = None
    currency: str | None = None
    substitutes: list[dict[str, Any]] | None = None

    @classmethod
    def of(cls, row: Any) -> GameRow:
        """From a result row or a :class:`Game` with these fields; text an older version
        stored that is not valid Unicode comes out escaped (pages and exports never fail
        on it)."""
        return cls(**{name: sound(getattr(row, name), name, []) for name in GAME_FIELDS})


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
    ended: str | None = None
    currency: str | None = None


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


RECORD_VERSION = 2
"""The version of a summary's ``record``: 2 since Knock Rummy settles box by box (K5);
a Knock Rummy summary of version 1 holds the old settlement and is scored again."""


def summarize(sheet: Sheet) -> dict[str, Any]:
    """What a list of games shows without rescoring: totals, boxes, the end; and what
    players' records read of it (``record``: each box's result, winner and credit, the
    shutouts and the settlement), so a player's page over a thousand games reads one
    row per game instead of scoring them all (docs/performance.md)."""
    return {
        "totals": dict(sheet.totals),
        "boxes": len(sheet.boxes),
        "game_over": sheet.game_over,
        "winner": sheet.winner,
        "final_totals": dict(sheet.final_totals),
        "record": {
            "version": RECORD_VERSION,
            "boxes": [[box.result, box.winner, box.points] for box in sheet.boxes],
            "shutouts": list(sheet.shutouts),
            "settlement": [payment.to_json() for payment in _payments(sheet)],
        },
        **_paid(sheet),
    }


def _paid(sheet: Sheet) -> dict[str, Any]:
    """Where each box is paid as it falls (Knock Rummy, K3): each player's net of the
    payments so far, which an event's live standings read (K5); nothing elsewhere."""
    payments = [(p.payer, p.payee, p.points) for box in sheet.boxes for p in box.payments]
    return {"paid": paid_nets(payments)} if payments else {}


def _payments(sheet: Sheet) -> tuple[Payment, ...]:
    """The settlement (Hollywood: the columns' when the sheet nets none)."""
    if sheet.settlement or not sheet.games:
        return sheet.settlement
    return tuple(p for column in sheet.games for p in column.settlement)


Rulings = typing.Mapping[int | None, dict[str, Any]]
"""Box rulings to store, by box id; ``None`` is the box a write adds."""


@dataclass(frozen=True)
class BoxRow:
    """A live box as a game's sheet shows it: plain data, not bound to a session."""

    id: int
    entry: dict[str, Any]
    revision: int
    deleted: bool = False
    ruling: dict[str, Any] | None = None
    """The stored ruling, where a read gives it (a box's own page)."""


@dataclass(frozen=True)
class RevisionRow:
    """One step of a box's history as its page shows it: plain data."""

    revision: int
    action: str
    entry: dict[str, Any]
    ruling: dict[str, Any] | None
    game_version: int
    at: datetime
    phone: str | None = None

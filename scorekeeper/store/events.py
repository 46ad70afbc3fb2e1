"""Reading events (club nights): the event, its entrants, its rounds' seating and
clocks, its tables' games and the director's penalties; the writes are in
:mod:`.event_writes` and answered here too (``store.events.add_round``).

An event's writes are made inside the ledger's hold of the event
(:func:`~scorekeeper.store.locks.holding`: ``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE``
on PostgreSQL) from the read they are based on to its one commit; none of the functions
here commits, and each write ends with :func:`log_write`, which bumps the event's
``version`` (what the pages poll) and keeps the write's typed line and key. The games
themselves are written as any game is (``writes.py``): the event only links them to its
tables.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Select, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..engine.event import EventEntry, EventGame, Penalty, Seating
from .event_writes import (
    EarlierWrite,
    EventNotFound,
    add_entrant,
    add_entrants,
    add_penalty,
    add_round,
    close_round,
    earlier_write,
    event_history,
    log_write,
    reseat_table,
    set_director_codes,
    start_round_clock,
    withdraw,
    withdraw_penalty,
)
from .models import (
    Box,
    Event,
    EventEntrant,
    EventPenalty,
    EventRound,
    EventTable,
    Game,
)
from .reads import _plausible, join_code_hash, token_hash


class EventKeyTaken(Exception):
    """The start key of an event is already used (a resent form): ``event_id`` is it."""

    def __init__(self, event_id: str) -> None:
        super().__init__(f"an event was already started with this key: {event_id}")
        self.event_id = event_id


@dataclass(frozen=True)
class EventRow:
    """An event's own row, plain data."""

    id: str
    name: str
    entry: dict[str, Any]
    seed: int
    version: int
    current_round: int
    finished: bool
    director_hash: str
    join_code_hash: str | None
    codes_round: int | None
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class Entrant:
    name: str
    position: int
    entered_round: int
    withdrawn_round: int | None

    def plays(self, round: int) -> bool:
        """Whether the entrant is in the event for this round."""
        return self.entered_round <= round and (self.withdrawn_round is None or round < self.withdrawn_round)


@dataclass(frozen=True)
class RoundRow:
    number: int
    tables: list[list[str]]
    byes: list[str]
    started_at: datetime | None
    minutes: int | None
    closed_at: datetime | None


@dataclass(frozen=True)
class LoadedEvent:
    """An event as stored: its row, entrants, rounds, tables' games and penalties, and
    the same as the engine's :class:`EventEntry`."""

    row: EventRow
    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundRow, ...]
    entry: EventEntry

    @property
    def id(self) -> str:
        return self.row.id

    def round(self, number: int) -> RoundRow | None:
        return next((r for r in self.rounds if r.number == number), None)

    def playing(self, round: int) -> tuple[str, ...]:
        """The entrants in the event for ``round``, in entry order."""
        return tuple(e.name for e in self.entrants if e.plays(round))

    @property
    def withdrawn(self) -> tuple[str, ...]:
        return tuple(e.name for e in self.entrants if e.withdrawn_round is not None)


@dataclass(frozen=True)
class TableGame:
    """A table's game as the standings read it: one row of one query."""

    round: int
    table: int
    game_id: str
    players: list[str]
    summary: dict[str, Any]
    version: int
    ended: str | None
    updated_at: datetime | None = None
    substitutes: list[dict[str, Any]] | None = None
    """Who plays a seat mid-game and for whom it counts (E5): the game's column."""


def create_event(
    db: Session,
    *,
    event_id: str,
    entry: EventEntry,
    director: str,
    join: str | None,
    codes_round: int | None,
    key: str | None = None,
) -> None:
    """Store a new event with its entrants (no round seated yet; the caller commits with
    its first round). A start ``key`` already used raises :class:`EventKeyTaken` naming
    that event, with the write rolled back."""
    settings = entry.to_json()
    for name in ("entrants", "seating", "games", "penalties", "seed"):
        settings.pop(name, None)
    assert entry.seed is not None
    db.add(
        Event(
            id=event_id,
            name=entry.name,
            entry=settings,
            seed=entry.seed,
            version=1,
            current_round=0,
            finished=False,
            director_hash=token_hash(director),
            join_code_hash=None if join is None else join_code_hash(join),
            codes_round=codes_round,
            start_key=key,
        )
    )
    try:
        db.flush()
        db.add_all(
            [
                EventEntrant(event_id=event_id, name=name, position=i, entered_round=1)
                for i, name in enumerate(entry.entrants)
            ]
        )
        db.flush()
    except IntegrityError:
        db.rollback()
        found = None if key is None else db.scalar(select(Event.id).where(Event.start_key == key))
        if found is None:
            raise
        raise EventKeyTaken(found) from None


_EVENT_FIELDS = tuple(c.name for c in sa.inspect(Event).columns if c.name != "start_key")


def get_event(db: Session, event_id: str) -> EventRow | None:
    if not _plausible(event_id):
        return None
    row = db.get(Event, event_id)
    if row is None:
        return None
    return EventRow(**{name: getattr(row, name) for name in _EVENT_FIELDS})


def load_event(db: Session, event_id: str) -> LoadedEvent | None:
    """The event with everything it holds, or None."""
    row = get_event(db, event_id)
    if row is None:
        return None
    sql = db.connection()
    entrants = tuple(
        Entrant(*e)
        for e in sql.execute(
            select(
                EventEntrant.name,
                EventEntrant.position,
                EventEntrant.entered_round,
                EventEntrant.withdrawn_round,
            )
            .where(EventEntrant.event_id == event_id)
            .order_by(EventEntrant.position)
        )
    )
    rounds = tuple(
        RoundRow(*r)
        for r in sql.execute(
            select(
                EventRound.number,
                EventRound.tables,
                EventRound.byes,
                _round_started(),
                EventRound.minutes,
                EventRound.closed_at,
            )
            .where(EventRound.event_id == event_id)
            .order_by(EventRound.number)
        )
    )
    games = tuple(
        EventGame(*g)
        for g in sql.execute(
            select(EventTable.round, EventTable.table_number, EventTable.game_id)
            .where(EventTable.event_id == event_id)
            .order_by(EventTable.round, EventTable.table_number)
        )
    )
    penalties = tuple(
        Penalty(*p[:5], withdrawn=p[5] is not None)
        for p in sql.execute(
            select(
                EventPenalty.player,
                EventPenalty.points,
                EventPenalty.note,
                EventPenalty.round,
                EventPenalty.id,
                EventPenalty.withdrawn_at,
            )
            .where(EventPenalty.event_id == event_id)
            .order_by(EventPenalty.id)
        )
    )
    # The settings are read (and checked) as the contract reads them; the names were
    # checked when they were entered.
    entry = EventEntry.from_json({**row.entry, "entrants": [], "seed": row.seed})
    entry = entry.with_changes(
        entrants=tuple(e.name for e in entrants),
        seating=tuple(Seating(r.number, tuple(tuple(t) for t in r.tables), tuple(r.byes)) for r in rounds),
        games=games,
        penalties=penalties,
    )
    return LoadedEvent(row, entrants, rounds, entry)


def table_games(db: Session, event_id: str, known: Mapping[str, TableGame] | None = None) -> list[TableGame]:
    """Every table's game of the event with its stored summary: what the standings are
    computed from (no box is read or scored again). ``known``: the games as read
    before, by id; a game still at the version and time read then is not read again
    (a projector's next read after one box reads that one summary, not a hundred)."""
    if not known:
        query = _tables_of(
            event_id, Game.players, Game.summary, Game.version, Game.ended, Game.updated_at, Game.substitutes
        )
        return [TableGame(*row) for row in db.execute(query)]
    places = db.execute(_tables_of(event_id, Game.version, Game.ended, Game.updated_at)).all()
    gone = {
        row.id
        for row in places
        if (old := known.get(row.id)) is None
        or (old.version, old.updated_at) != (row.version, row.updated_at)
    }
    read: dict[str, tuple[list[str], dict[str, Any], list[dict[str, Any]] | None]] = {}
    wanted = sorted(gone)
    for chunk in range(0, len(wanted), 500):  # bound the IN list (SQLite's variables)
        for game_id, players, summary, subs in db.execute(
            select(Game.id, Game.players, Game.summary, Game.substitutes).where(
                Game.id.in_(wanted[chunk : chunk + 500])
            )
        ):
            read[game_id] = (players, summary, subs)
    games = []
    for row in places:
        if row.id in read:
            players, summary, subs = read[row.id]
        elif row.id in known and row.id not in gone:
            old = known[row.id]
            if (old.round, old.table, old.ended) == (row.round, row.table_number, row.ended):
                games.append(old)  # the very value read before: what is made of it holds
                continue
            players, summary, subs = old.players, old.summary, old.substitutes
        else:  # deleted between the two reads
            continue
        games.append(
            TableGame(
                row.round,
                row.table_number,
                row.id,
                players,
                summary,
                row.version,
                row.ended,
                row.updated_at,
                subs,
            )
        )
    return games


def _tables_of(event_id: str, *columns: Any) -> Select[Any]:
    """The event's tables in order, each with its game's id and ``columns``."""
    return (
        select(EventTable.round, EventTable.table_number, Game.id, *columns)
        .join(Game, Game.id == EventTable.game_id)
        .where(EventTable.event_id == event_id)
        .order_by(EventTable.round, EventTable.table_number)
    )


def event_stamp(db: Session, event_id: str) -> tuple[object, ...] | None:
    """What changes whenever the standings may: the event's version and ``updated_at``,
    and the sum, count and latest ``updated_at`` of its games' versions (a box recorded
    at any table; the times tell a restored backup that reached the same versions
    through other boxes). None: no such event."""
    if not _plausible(event_id):  # a NUL or an overlong id: PostgreSQL would refuse it
        return None
    event = db.execute(select(Event.version, Event.updated_at).where(Event.id == event_id)).one_or_none()
    if event is None:
        return None
    total, count, latest = db.execute(
        select(func.coalesce(func.sum(Game.version), 0), func.count(Game.id), func.max(Game.updated_at))
        .join(EventTable, EventTable.game_id == Game.id)
        .where(EventTable.event_id == event_id)
    ).one()
    return event.version, event.updated_at, int(total), int(count), latest


def events_with_join_code(db: Session, code: str) -> list[EventRow]:
    ids = db.scalars(select(Event.id).where(Event.join_code_hash == join_code_hash(code)))
    return [row for event_id in list(ids) if (row := get_event(db, event_id)) is not None]


def event_of_game(db: Session, game_id: str) -> tuple[str, int, int] | None:
    """The event, round and table a game is played at, if it is an event's."""
    if not _plausible(game_id):  # a NUL or an overlong id: PostgreSQL would refuse it
        return None
    row = db.execute(
        select(EventTable.event_id, EventTable.round, EventTable.table_number).where(
            EventTable.game_id == game_id
        )
    ).first()
    return None if row is None else (row[0], row[1], row[2])


def box_limit(entry: Mapping[str, Any]) -> int | None:
    """The scored boxes a table plays in a round, when the event's rounds end after a
    number of them (E7); None when they end otherwise."""
    ends = entry.get("round_ends")
    limit = ends.get("boxes") if isinstance(ends, Mapping) else None
    return limit if isinstance(limit, int) and not isinstance(limit, bool) else None


def box_limit_of_game(db: Session, game_id: str) -> int | None:
    """:func:`box_limit` of the event a game is played at (one indexed read), or None for
    a game of no event."""
    if not _plausible(game_id):
        return None
    entry = db.connection().execute(_BOX_LIMIT, {"p_game": game_id}).scalar()
    return None if entry is None else box_limit(entry)


_BOX_LIMIT = (
    select(Event.entry)
    .join(EventTable, EventTable.event_id == Event.id)
    .where(EventTable.game_id == sa.bindparam("p_game"))
)
""":func:`box_limit_of_game`'s statement, built once: every box written asks it."""


def seat_of(
    db: Session, game_id: str
) -> tuple[str, int, int, Mapping[str, Any], tuple[datetime, int] | None] | None:
    """Where a game is played, for its sheet, in one statement: the event, round and
    table, the event's entry, and its round's clock (:func:`round_clock`) or None.
    Every sheet of an event's table asks (issue 34: three reads were a fifth of a
    changed poll's CPU)."""
    if not _plausible(game_id):
        return None
    row = db.connection().execute(_SEAT, {"p_game": game_id}).first()
    if row is None:
        return None
    started, minutes, closed = row[4], row[5], row[6]
    clock = None if started is None or minutes is None or closed is not None else (started, minutes)
    return row[0], row[1], row[2], row[3], clock


def _round_started() -> Any:
    """When a round started (E7): when the director started its clock or, before that,
    when its first box was recorded at any of its tables; None while neither happened
    (seating the round does not start it: the cards print and the players sit first)."""
    first_box = (
        select(func.min(Box.created_at))
        .join(EventTable, EventTable.game_id == Box.game_id)
        .where(EventTable.event_id == EventRound.event_id, EventTable.round == EventRound.number)
        .scalar_subquery()
    )
    return func.coalesce(EventRound.started_at, first_box, type_=sa.DateTime).label("started_at")


def round_clock(db: Session, event_id: str, round: int) -> tuple[datetime, int] | None:
    """A round's start and minutes, if it is timed and started (:func:`_round_started`)."""
    row = db.execute(
        select(_round_started(), EventRound.minutes, EventRound.closed_at).where(
            EventRound.event_id == event_id, EventRound.number == round
        )
    ).first()
    if row is None or row[0] is None or row[1] is None or row[2] is not None:
        return None
    return row[0], row[1]


_SEAT = (
    select(
        EventTable.event_id,
        EventTable.round,
        EventTable.table_number,
        Event.entry,
        _round_started(),
        EventRound.minutes,
        EventRound.closed_at,
    )
    .join(Event, Event.id == EventTable.event_id)
    .outerjoin(
        EventRound, (EventRound.event_id == EventTable.event_id) & (EventRound.number == EventTable.round)
    )
    .where(EventTable.game_id == sa.bindparam("p_game"))
)
""":func:`seat_of`'s statement, built once."""


def event_game_ids(db: Session, event_id: str) -> set[str]:
    """The ids of the event's games (a player's record filtered to one event)."""
    return set(db.scalars(select(EventTable.game_id).where(EventTable.event_id == event_id)))


__all__ = [
    "EarlierWrite",
    "Entrant",
    "EventKeyTaken",
    "EventNotFound",
    "EventRow",
    "LoadedEvent",
    "RoundRow",
    "TableGame",
    "add_entrant",
    "add_entrants",
    "add_penalty",
    "add_round",
    "close_round",
    "create_event",
    "earlier_write",
    "event_game_ids",
    "event_history",
    "event_of_game",
    "event_stamp",
    "events_with_join_code",
    "get_event",
    "load_event",
    "log_write",
    "reseat_table",
    "round_clock",
    "seat_of",
    "set_director_codes",
    "start_round_clock",
    "table_games",
    "withdraw",
    "withdraw_penalty",
]

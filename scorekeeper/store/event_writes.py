"""Writing events (club nights): every function here is called inside the ledger's hold
of the event (:func:`~scorekeeper.store.locks.holding`), none commits, and each write
ends with :func:`log_write`, which bumps the event's ``version`` (what the pages poll)
and keeps the write's typed history line with its idempotency key. The reads are in
:mod:`.events`, which answers these names too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from ..engine.event import Penalty, Seating
from ..engine.history import HistoryEntry
from .models import Event, EventEntrant, EventHistory, EventPenalty, EventRound, EventTable, now
from .reads import join_code_hash, token_hash


class EventNotFound(LookupError):
    """No such event."""


@dataclass(frozen=True)
class EarlierWrite:
    """A director's write already made with this key: what it changed (its digest)."""

    action: str
    digest: str | None
    version: int


def earlier_write(db: Session, event_id: str, key: str) -> EarlierWrite | None:
    """The write this event already took with ``key`` (a resent form, a retried call)."""
    row = db.execute(
        select(EventHistory.action, EventHistory.digest, EventHistory.version).where(
            EventHistory.event_id == event_id, EventHistory.key == key
        )
    ).first()
    return None if row is None else EarlierWrite(row[0], row[1], row[2])


def log_write(
    db: Session,
    event_id: str,
    action: str,
    detail: dict[str, Any],
    *,
    key: str | None = None,
    digest: str | None = None,
    **values: Any,
) -> int:
    """The end of every director's write: the event's version goes up once (with any
    ``values`` of its row that changed), and the write's typed line is kept in the
    event's history with its key. The new version."""
    changed = db.execute(
        update(Event)
        .where(Event.id == event_id)
        .values(version=Event.version + 1, updated_at=now(), **values)
        .returning(Event.version)
    ).first()
    if changed is None:
        raise EventNotFound(f"there is no event {event_id!r}")
    version = int(changed[0])
    db.add(
        EventHistory(
            event_id=event_id, action=action, detail=detail, key=key, digest=digest, version=version, at=now()
        )
    )
    db.flush()
    return version


def event_history(db: Session, event_id: str) -> list[HistoryEntry]:
    """The director's writes to the event, oldest first, each a typed history line."""
    query = select(EventHistory).where(EventHistory.event_id == event_id).order_by(EventHistory.id)
    return [HistoryEntry.stored(row.action, row.detail, row.version, row.at) for row in db.scalars(query)]


def add_round(
    db: Session,
    event_id: str,
    seating: Seating,
    games: Sequence[str],
    *,
    minutes: int | None,
    started_at: datetime | None,
) -> None:
    """Store a round's seating and its tables' games (``games[i]`` plays table i + 1)."""
    db.add(
        EventRound(
            event_id=event_id,
            number=seating.round,
            tables=[list(t) for t in seating.tables],
            byes=list(seating.byes),
            minutes=minutes,
            started_at=started_at,
        )
    )
    db.add_all(
        [
            EventTable(event_id=event_id, round=seating.round, table_number=i, game_id=game)
            for i, game in enumerate(games, start=1)
        ]
    )
    db.flush()


def start_round_clock(db: Session, event_id: str, round: int, at: datetime) -> bool:
    """Start a round's clock at ``at`` (the director's "Start round n"); False when it
    had started already (a first box starts it too: :func:`.events.round_clock`)."""
    found = db.scalar(select(EventRound).where(EventRound.event_id == event_id, EventRound.number == round))
    if found is None:
        raise EventNotFound(f"round {round} is not seated")
    if found.started_at is not None:
        return False
    found.started_at = at
    db.flush()
    return True


def reseat_table(
    db: Session, event_id: str, round: int, table: int, players: Sequence[str], game_id: str
) -> None:
    """A table of a round seated anew (seats swapped, a player replaced) with its new game."""
    found = db.scalar(select(EventRound).where(EventRound.event_id == event_id, EventRound.number == round))
    if found is None:
        raise EventNotFound(f"round {round} is not seated")
    tables = [list(t) for t in found.tables]
    tables[table - 1] = list(players)
    found.tables = tables
    db.execute(
        update(EventTable)
        .where(EventTable.event_id == event_id, EventTable.round == round, EventTable.table_number == table)
        .values(game_id=game_id)
    )
    db.flush()


def close_round(db: Session, event_id: str, round: int) -> None:
    """Mark the round closed."""
    db.execute(
        update(EventRound)
        .where(EventRound.event_id == event_id, EventRound.number == round)
        .values(closed_at=now())
    )


def add_entrant(db: Session, event_id: str, name: str, round: int) -> None:
    """A late entry, playing from ``round`` (or one who withdrew, back from it)."""
    found = db.scalar(
        select(EventEntrant).where(EventEntrant.event_id == event_id, EventEntrant.name == name)
    )
    if found is not None:
        found.withdrawn_round = None
        if found.entered_round > round:
            found.entered_round = round
    else:
        position = db.scalar(
            select(func.coalesce(func.max(EventEntrant.position), -1)).where(
                EventEntrant.event_id == event_id
            )
        )
        db.add(EventEntrant(event_id=event_id, name=name, position=(position or 0) + 1, entered_round=round))
    db.flush()


def add_entrants(db: Session, event_id: str, names: Sequence[str], round: int) -> None:
    """Late entries, playing from ``round`` (those who withdrew, back from it), all in
    one go: one read of the names already entered, one statement for those back, one
    for the new ones (issue 33: a paste of 1,000 names wrote a row and a version at a
    time, and held the write lock for seconds); the event's write bumps its version once."""
    if not names:
        return
    wanted = list(dict.fromkeys(names))
    known = set(
        db.scalars(
            select(EventEntrant.name).where(EventEntrant.event_id == event_id, EventEntrant.name.in_(wanted))
        )
    )
    if known:
        db.execute(
            update(EventEntrant)
            .where(EventEntrant.event_id == event_id, EventEntrant.name.in_(known))
            .values(withdrawn_round=None)
        )
    new = [name for name in wanted if name not in known]
    if new:
        last = db.scalar(
            select(func.coalesce(func.max(EventEntrant.position), -1)).where(
                EventEntrant.event_id == event_id
            )
        )
        first = (-1 if last is None else last) + 1
        db.execute(
            sa.insert(EventEntrant),
            [
                {"event_id": event_id, "name": name, "position": first + i, "entered_round": round}
                for i, name in enumerate(new)
            ],
        )
    db.flush()


def withdraw(db: Session, event_id: str, name: str, round: int) -> None:
    """The entrant plays no more from ``round``."""
    db.execute(
        update(EventEntrant)
        .where(EventEntrant.event_id == event_id, EventEntrant.name == name)
        .values(withdrawn_round=round)
    )


def add_penalty(db: Session, event_id: str, penalty: Penalty, game_id: str | None) -> int:
    """Store a penalty; its number."""
    row = EventPenalty(
        event_id=event_id,
        player=penalty.player,
        points=penalty.points,
        note=penalty.note,
        round=penalty.round,
        game_id=game_id,
    )
    db.add(row)
    db.flush()
    return int(row.id)


def withdraw_penalty(db: Session, event_id: str, number: int, note: str) -> tuple[Penalty, str | None] | None:
    """Strike a standing penalty out (kept); the penalty and its game, or None when the
    event has no such standing penalty."""
    row = db.scalar(
        select(EventPenalty).where(
            EventPenalty.event_id == event_id, EventPenalty.id == number, EventPenalty.withdrawn_at.is_(None)
        )
    )
    if row is None:
        return None
    row.withdrawn_at, row.withdrawn_note = now(), note
    db.flush()
    return Penalty(row.player, row.points, row.note, row.round, row.id, True), row.game_id


def set_director_codes(db: Session, event_id: str, director: str, join: str, codes_round: int) -> None:
    """The director's new codes (inside the event's write: the old ones stop working)."""
    db.execute(
        update(Event)
        .where(Event.id == event_id)
        .values(
            director_hash=token_hash(director), join_code_hash=join_code_hash(join), codes_round=codes_round
        )
    )

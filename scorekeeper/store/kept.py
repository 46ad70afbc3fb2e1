"""Each event's standings kept as sums, changed in every write's own transaction
(issue 34): a box written at an event's table adds the difference its game makes
(:func:`game_written`, a few indexed rows whatever the event's size), a director's write
builds them again from every game (:func:`rebuild`, at the end of
:func:`~scorekeeper.store.events.log_write`, which every director's write ends with).

Readers read the rows (:func:`read`), only those changed since the kept version they
read before (``since``), and rank them (``engine.event.kept.ranked``): one small query
(:func:`stamp`) tells a poll whether anything changed, in any process or worker.

PostgreSQL: a game write at an event's table locks the event's row before the game's
(:func:`~scorekeeper.store.locks.writing`), the order a director's write takes, so the
kept row is written by one writer at a time; SQLite holds the database for each write.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from ..engine.event import TableResult
from ..engine.event.kept import Counted, Line, Tally, difference, result_of, total
from ..engine.substitutes import Substitute, counted, read_substitutes
from . import ladder
from .events import load_event, table_games
from .locks import HELD
from .models import Event, KeptEvent, KeptPlayer, KeptTable, now

WRITTEN = "scorekeeper.events_written"
"""The key, in a session's ``info``, of the events whose kept standings its transaction
changed (named after the commit: the app reads their new state ahead, web/ahead.py)."""


def _written(db: Session, event_id: str) -> None:
    db.info.setdefault(WRITTEN, set()).add(event_id)


@dataclass(frozen=True)
class KeptResult:
    """One table as the kept standings counted it: its result seat by seat, its end by
    agreement, and its substitutes (E5: the sums count a seat for the player of record,
    :func:`~scorekeeper.engine.substitutes.counted`)."""

    result: TableResult
    ended: str | None
    substitutes: tuple[Substitute, ...] = ()

    @property
    def of_record(self) -> TableResult:
        """The result as the standings count it (a seat under its player of record)."""
        return counted(self.result, self.substitutes)


def _stored(result: TableResult, substitutes: Sequence[Substitute]) -> dict[str, Any]:
    """A table's kept row: its result, with its substitutes when it has any."""
    stored: dict[str, Any] = result.to_json()
    if substitutes:
        stored["substitutes"] = [sub.to_json() for sub in substitutes]
    return stored


def _kept_result(stored: Mapping[str, Any], ended: str | None) -> KeptResult:
    return KeptResult(TableResult.from_json(stored), ended, read_substitutes(stored.get("substitutes")))


@dataclass(frozen=True)
class Kept:
    """An event's kept standings as read: its version, the version it was built at,
    each round's scores, and the players' sums and tables' results read (all, or those
    changed since the version asked for)."""

    version: int
    built: int
    rounds: Mapping[int, tuple[int, int]]
    lines: Mapping[str, Line]
    tables: Mapping[str, KeptResult]


def _rounds(stored: Mapping[str, Any]) -> dict[int, tuple[int, int]]:
    return {int(number): (int(pair[0]), int(pair[1])) for number, pair in stored.items()}


def _stored_rounds(rounds: Mapping[int, tuple[int, int]]) -> dict[str, list[int]]:
    return {str(number): [points, count] for number, (points, count) in sorted(rounds.items()) if count}


def _line(row: Any) -> Line:
    return Line(row.score, row.games, row.won, row.boxes, {q: int(v) for q, v in row.versus.items()})


def _player_row(event_id: str, player: str, line: Line, version: int) -> dict[str, Any]:
    return {
        "event_id": event_id,
        "player": player,
        "score": line.score,
        "games": line.games,
        "won": line.won,
        "boxes": line.boxes,
        "versus": dict(line.versus),
        "version": version,
    }


def rebuild(db: Session, event_id: str) -> None:
    """Build the event's kept standings from every game's stored summary (no box is
    scored again), in the caller's transaction; the kept version goes up by one."""
    event = load_event(db, event_id)
    if event is None:
        return
    games = table_games(db, event_id)
    results = [
        KeptResult(
            result_of(g.round, g.table, g.game_id, g.players, g.summary),
            g.ended,
            read_substitutes(g.substitutes),
        )
        for g in games
    ]
    counting = Counted(event.entry.standings, tuple(event.entry.placing_points or ()))
    tally = total(counting, (r.of_record for r in results))
    was = db.execute(select(KeptEvent.version).where(KeptEvent.event_id == event_id)).scalar()
    version = (was or 0) + 1
    sql = db.connection()
    sql.execute(delete(KeptPlayer).where(KeptPlayer.event_id == event_id))
    sql.execute(delete(KeptTable).where(KeptTable.event_id == event_id))
    sql.execute(delete(KeptEvent).where(KeptEvent.event_id == event_id))
    sql.execute(
        insert(KeptEvent).values(
            event_id=event_id,
            version=version,
            built=version,
            counting=counting.to_json(),
            rounds=_stored_rounds(tally.rounds),
            updated_at=now(),
        )
    )
    if tally.lines:
        sql.execute(
            insert(KeptPlayer), [_player_row(event_id, p, line, version) for p, line in tally.lines.items()]
        )
    if results:
        sql.execute(
            insert(KeptTable),
            [
                {
                    "game_id": kept.result.game,
                    "event_id": event_id,
                    "round": kept.result.round,
                    "table_number": kept.result.table,
                    "result": _stored(kept.result, kept.substitutes),
                    "ended": kept.ended,
                    "version": version,
                }
                for kept in results
            ],
        )
    ladder.evening_written(db, event_id)  # a club's evening: its seasons' row, in this transaction
    _written(db, event_id)


def rebuild_missing(db: Session) -> int:
    """Build the kept standings of every event that has none (stored before revision
    0014, or restored from a backup), and the kept evening of every club event that
    has none (before 0018: :func:`scorekeeper.store.ladder.rebuild_missing`), each
    committed; how many were built."""
    missing = list(
        db.scalars(
            select(Event.id).where(~select(KeptEvent.event_id).where(KeptEvent.event_id == Event.id).exists())
        )
    )
    for event_id in missing:
        rebuild(db, event_id)
        db.commit()
    return len(missing) + ladder.rebuild_missing(db)


class _Sql:
    """The statements of a game's write at an event's table, built once on the tables
    themselves: building them took longer than SQLite took to run them (issue 34: a
    third of recording a box at an event's table). Parameters are named ``p_...``."""

    players = typing.cast(sa.Table, KeptPlayer.__table__)
    tables = typing.cast(sa.Table, KeptTable.__table__)
    events = typing.cast(sa.Table, KeptEvent.__table__)
    # The game's table and its event's kept row in one read (an outer join: an event
    # stored before its kept row was built has none).
    table = (
        select(tables.c.event_id, tables.c.result, events.c.version, events.c.counting, events.c.rounds)
        .select_from(tables.outerjoin(events, events.c.event_id == tables.c.event_id))
        .where(tables.c.game_id == bindparam("p_game"))
    )
    lines = select(players).where(
        players.c.event_id == bindparam("p_event"),
        players.c.player.in_(bindparam("p_players", expanding=True)),
    )
    line = (
        update(players)
        .where(players.c.event_id == bindparam("p_event"), players.c.player == bindparam("p_player"))
        .values(
            {name: bindparam(f"p_{name}") for name in ("score", "games", "won", "boxes", "versus", "version")}
        )
    )
    new_line = insert(players)
    result = (
        update(tables)
        .where(tables.c.game_id == bindparam("p_game"))
        .values(result=bindparam("p_result"), version=bindparam("p_version"))
    )
    result_ended = result.values(ended=bindparam("p_ended"))
    counted = (
        update(events)
        .where(events.c.event_id == bindparam("p_event"))
        .values(version=bindparam("p_version"), rounds=bindparam("p_rounds"), updated_at=bindparam("p_at"))
    )


def game_written(
    db: Session,
    game_id: str,
    summary: Mapping[str, Any],
    ended: str | None = None,
    *,
    end_changed: bool = False,
) -> None:
    """A game's write, in its transaction: if it is played at an event's table, add the
    difference its new summary makes to the event's kept sums (one indexed read
    otherwise), and its end by agreement when the write changed it (``end_changed``).
    Inside a director's write nothing is done: it rebuilds at its end."""
    if db.info.get(HELD):
        return
    sql = db.connection()
    kept = sql.execute(_Sql.table, {"p_game": game_id}).first()
    if kept is None or kept.version is None:
        return
    event_id = kept.event_id
    before = _kept_result(kept.result, None)
    after = dataclasses.replace(
        before,
        result=result_of(before.result.round, before.result.table, game_id, before.result.players, summary),
    )
    change = difference(Counted.from_json(kept.counting), before.of_record, after.of_record)
    version = kept.version + 1
    _add_lines(db, event_id, change, version)
    rounds = Tally({}, _rounds(kept.rounds)).plus(Tally({}, change.rounds)).rounds
    written = {"p_game": game_id, "p_result": _stored(after.result, after.substitutes), "p_version": version}
    if end_changed:
        sql.execute(_Sql.result_ended, {**written, "p_ended": ended})
    else:
        sql.execute(_Sql.result, written)
    sql.execute(
        _Sql.counted,
        {"p_event": event_id, "p_version": version, "p_rounds": _stored_rounds(rounds), "p_at": now()},
    )
    ladder.evening_written(db, event_id)  # a club's evening: its seasons' row, in this transaction
    _written(db, event_id)


def _add_lines(db: Session, event_id: str, change: Tally, version: int) -> None:
    """Add ``change``'s lines to the players' kept sums (a player's first line is new)."""
    if not change.lines:
        return
    sql = db.connection()
    rows = sql.execute(_Sql.lines, {"p_event": event_id, "p_players": list(change.lines)}).all()
    found = {row.player: _line(row) for row in rows}
    changed, new = [], []
    for player, added in change.lines.items():
        line = found.get(player, Line()).plus(added)
        versus = {q: v for q, v in line.versus.items() if v}
        values = _player_row(
            event_id, player, Line(line.score, line.games, line.won, line.boxes, versus), version
        )
        if player in found:
            changed.append(
                {"p_event" if name == "event_id" else f"p_{name}": v for name, v in values.items()}
            )
        else:
            new.append(values)
    if changed:
        sql.execute(_Sql.line, changed)
    if new:
        sql.execute(_Sql.new_line, new)


_STAMP = (
    select(Event.version, Event.updated_at, KeptEvent.version, KeptEvent.built, KeptEvent.updated_at)
    .outerjoin(KeptEvent, KeptEvent.event_id == Event.id)
    .where(Event.id == bindparam("event_id"))
)
"""Built once: a poll asks it every few seconds from every projector."""


def stamp(db: Session | Connection, event_id: str) -> tuple[int, datetime, int, int, datetime] | None:
    """What changes whenever the standings may, in one indexed read: the event's
    version and time, and its kept version, build and time (``-1`` where the event has
    no kept standings yet). None: no such event."""
    if not isinstance(event_id, str) or len(event_id) > 32 or "\x00" in event_id:
        return None  # PostgreSQL would refuse a NUL
    row = db.execute(_STAMP, {"event_id": event_id}).first()
    if row is None:
        return None
    return (
        row[0],
        row[1],
        -1 if row[2] is None else row[2],
        -1 if row[3] is None else row[3],
        row[4] or row[1],
    )


def read(db: Session, event_id: str, since: int | None = None) -> Kept | None:
    """The event's kept standings: every player's sums and table's result, or only
    those changed after kept version ``since``. None: the event has none yet."""
    kept = db.execute(
        select(KeptEvent.version, KeptEvent.built, KeptEvent.rounds).where(KeptEvent.event_id == event_id)
    ).first()
    if kept is None:
        return None
    players = select(KeptPlayer).where(KeptPlayer.event_id == event_id)
    tables = select(KeptTable.game_id, KeptTable.result, KeptTable.ended).where(
        KeptTable.event_id == event_id
    )
    if since is not None:
        players = players.where(KeptPlayer.version > since)
        tables = tables.where(KeptTable.version > since)
    sql = db.connection()
    return Kept(
        kept.version,
        kept.built,
        _rounds(kept.rounds),
        {row.player: _line(row) for row in sql.execute(players)},
        {row.game_id: _kept_result(row.result, row.ended) for row in sql.execute(tables)},
    )


def fresh(db: Session, event_id: str) -> Kept | None:
    """The same sums computed now from every game (what :func:`read` must equal, and
    the answer for an event with no kept rows yet)."""
    event = load_event(db, event_id)
    if event is None:
        return None
    games = table_games(db, event_id)
    results = {
        g.game_id: KeptResult(
            result_of(g.round, g.table, g.game_id, g.players, g.summary),
            g.ended,
            read_substitutes(g.substitutes),
        )
        for g in games
    }
    counting = Counted(event.entry.standings, tuple(event.entry.placing_points or ()))
    tally = total(counting, (r.of_record for r in results.values()))
    return Kept(-1, -1, tally.rounds, tally.lines, results)


def games_of(kept: Iterable[KeptResult]) -> list[TableResult]:
    """The tables' results in the tables' order (round, then table)."""
    return sorted((k.result for k in kept), key=lambda r: (r.round, r.table))


__all__ = [
    "Kept",
    "KeptResult",
    "fresh",
    "game_written",
    "games_of",
    "read",
    "rebuild",
    "rebuild_missing",
    "stamp",
]

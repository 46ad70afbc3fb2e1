"""A club's evenings kept for its seasons' ladders (issue 36), as an event's standings are
kept for its projector (issue 34): one row per club event, changed in the transaction of
every write that changes its standings.

The row holds the evening's standings ranked (each line under the name the evening used,
in rank order, with its score and tie-break figures to the point) and its winners. A box
written at one of its tables changes the event's kept sums by the game's difference
(:func:`scorekeeper.store.kept.game_written`), which then ranks them again into this
row (:func:`evening_written`: the event's kept rows, no game read); a director's write
rebuilds the sums and the row at its end; an event joining a club gets its row then.

What the row does not hold is who a name is: the roster is applied when a season is
read (:func:`scorekeeper.engine.ladder.of_members`, one read of the club's spellings), so
a roster decision (a link, a split, an undo) changes no kept row and can leave none
stale; nor does a season's count, which ranks the rows on read
(:func:`scorekeeper.engine.ladder.ladder`, a pure function of the rows). A reader of a
season reads these rows, never a game. :func:`fresh` is the same row computed from the
event's stored games, what the kept one must equal (tests/walk/kept.py).

Readers ask :func:`stamp` whether anything changed: the club's version and its rows'
count, versions and latest time, in two indexed reads.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, ForeignKey, bindparam, delete, func, insert, select
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..engine.event import Standing, TableResult
from ..engine.event.kept import Tally, names_of, ranked
from .clubs import Club, ClubEvent
from .events import load_event
from .models import Base, Event, Game, KeptEvent, KeptTable, now


class KeptEvening(Base):
    """A club event's standings as its seasons read them (see the module), its version
    (up by one with each write that changes them) and the time of the last."""

    __tablename__ = "kept_evenings"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    version: Mapped[int]
    standings: Mapped[list[Any]] = mapped_column(JSON)
    winners: Mapped[list[Any]] = mapped_column(JSON)
    updated_at: Mapped[dt.datetime] = mapped_column(default=now)


KEPT_EVENING_TABLES = ("kept_evenings",)
"""Made from the kept standings (:func:`rebuild_missing`): not backed up, rebuilt."""


@dataclass(frozen=True)
class EveningStandings:
    """One evening as its seasons count it: its standings in rank order (each player as
    the evening named him) and who stands first (none before a box is scored)."""

    event: str
    standings: tuple[Standing, ...]
    winners: tuple[str, ...]

    def to_rows(self) -> tuple[list[Any], list[Any]]:
        return [_stored(s) for s in self.standings], list(self.winners)

    @classmethod
    def from_rows(cls, event: str, standings: Sequence[Any], winners: Sequence[Any]) -> EveningStandings:
        return cls(event, tuple(_read(s) for s in standings), tuple(str(w) for w in winners))


def _stored(s: Standing) -> list[Any]:
    """A line to the point, field by field (the JSON of a standing rounds to two places)."""
    return [getattr(s, name) for name in _FIELDS]


_FIELDS = tuple(f.name for f in dataclasses.fields(Standing))


def _read(row: Sequence[Any]) -> Standing:
    return Standing(*row)


def winners_of(standings: Sequence[Standing]) -> tuple[str, ...]:
    """Who stands first, once a box was scored (shared first places all)."""
    if not any(s.games or s.score for s in standings):
        return ()
    return tuple(s.player for s in standings if s.rank == 1)


def _evening(db: Session, event_id: str, *, fresh: bool) -> EveningStandings | None:
    """The evening ranked from its kept sums (or, ``fresh``, from its stored games)."""
    from . import kept  # kept calls this module after each write: imported when used

    event = load_event(db, event_id)
    if event is None:
        return None
    sums = None if fresh else kept.read(db, event_id)
    sums = sums or kept.fresh(db, event_id)
    if sums is None:
        return None
    tables = sorted(sums.tables.values(), key=lambda t: (t.result.round, t.result.table))
    names = names_of(event.entry.entrants, [table.of_record for table in tables])  # ties in this order
    standings = ranked(event.entry, Tally(sums.lines, sums.rounds), names, withdrawn=event.withdrawn)
    return EveningStandings(event_id, standings, winners_of(standings))


def fresh(db: Session, event_id: str) -> EveningStandings | None:
    """The evening computed now from its stored games: what the kept row must equal."""
    return _evening(db, event_id, fresh=True)


_CLUB_OF_EVENT = select(ClubEvent.club_id).where(ClubEvent.event_id == bindparam("p_event"))
""":func:`evening_written`'s first read, built once: every box written at an event asks it."""


def evening_written(db: Session, event_id: str) -> None:
    """In a write's transaction: the evening's row made again from its kept sums, when
    the event belongs to a club (one indexed read otherwise)."""
    sql = db.connection()
    club_id = sql.execute(_CLUB_OF_EVENT, {"p_event": event_id}).scalar()
    if club_id is None:
        return
    found = _evening(db, event_id, fresh=False)
    was = sql.execute(select(KeptEvening.version).where(KeptEvening.event_id == event_id)).scalar()
    sql.execute(delete(KeptEvening).where(KeptEvening.event_id == event_id))
    if found is None:
        return
    standings, winners = found.to_rows()
    sql.execute(
        insert(KeptEvening).values(
            event_id=event_id,
            club_id=club_id,
            version=(was or 0) + 1,
            standings=standings,
            winners=winners,
            updated_at=now(),
        )
    )


def evening_left(db: Session, event_id: str) -> None:
    """In the write that takes an event out of its club: its kept row goes (its seasons'
    ladders and the club's ratings no longer count it; :func:`stamp` changes with the
    count of rows and the club's version)."""
    db.connection().execute(delete(KeptEvening).where(KeptEvening.event_id == event_id))


def read(db: Session, club_id: str) -> dict[str, EveningStandings]:
    """Every kept evening of the club, by event."""
    query = select(KeptEvening.event_id, KeptEvening.standings, KeptEvening.winners).where(
        KeptEvening.club_id == club_id
    )
    return {row[0]: EveningStandings.from_rows(*row) for row in db.execute(query)}


def evenings(db: Session, club_id: str, events: Sequence[str]) -> Mapping[str, EveningStandings]:
    """The club's evenings ``events`` as kept (one made now from its kept sums, when it
    has no row: stored before revision 0018)."""
    found = read(db, club_id)
    for event_id in events:
        if event_id not in found and (made := _evening(db, event_id, fresh=False)) is not None:
            found[event_id] = made
    return found


def results(db: Session, club_id: str, events: Sequence[str]) -> dict[str, list[TableResult]]:
    """Each table's result of the club's evenings ``events``, seat by seat, as the kept
    standings counted it (one query; an evening with no kept standings, from its games)."""
    from . import kept

    query = (
        select(KeptTable.event_id, KeptTable.result)
        .join(ClubEvent, ClubEvent.event_id == KeptTable.event_id)
        .where(ClubEvent.club_id == club_id)
    )
    found: dict[str, list[TableResult]] = {}
    for event_id, stored in db.execute(query):
        found.setdefault(event_id, []).append(TableResult.from_json(stored))
    counted = set(db.scalars(select(KeptEvent.event_id).where(KeptEvent.event_id.in_(list(events)))))
    for event_id in events:
        if event_id not in counted and (made := kept.fresh(db, event_id)) is not None:
            found[event_id] = [table.result for table in made.tables.values()]
    return found


def summaries(db: Session, games: Sequence[str]) -> dict[str, tuple[list[str], dict[str, Any]]]:
    """Each of ``games``'s players and stored summary (a member's page reads only the
    games the member played)."""
    found: dict[str, tuple[list[str], dict[str, Any]]] = {}
    wanted = sorted(set(games))
    for chunk in range(0, len(wanted), 500):  # bound the IN list (SQLite's variables)
        query = select(Game.id, Game.players, Game.summary).where(Game.id.in_(wanted[chunk : chunk + 500]))
        for game_id, players, summary in db.execute(query):
            found[game_id] = (players, summary)
    return found


def stamp(db: Session, club_id: str) -> tuple[object, ...] | None:
    """What changes whenever a season's ladder or ratings may: the club's version (its
    roster, seasons and evenings), and its kept evenings' count, versions and latest
    time (every write at any table of its events changes one). None: no such club."""
    version = db.scalar(select(Club.version).where(Club.id == club_id)) if len(club_id) <= 32 else None
    if version is None:
        return None
    rows = db.execute(
        select(
            func.count(KeptEvening.event_id),
            func.coalesce(func.sum(KeptEvening.version), 0),
            func.max(KeptEvening.updated_at),
        ).where(KeptEvening.club_id == club_id)
    ).one()
    return (version, *rows)


def rebuild_missing(db: Session) -> int:
    """Make the row of every club event that has none (stored before revision 0018,
    or restored from a backup), each committed; how many were made."""
    missing = list(
        db.scalars(
            select(ClubEvent.event_id)
            .join(Event, Event.id == ClubEvent.event_id)
            .where(~select(KeptEvening.event_id).where(KeptEvening.event_id == ClubEvent.event_id).exists())
        )
    )
    for event_id in missing:
        evening_written(db, event_id)
        db.commit()
    return len(missing)


__all__ = [
    "KEPT_EVENING_TABLES",
    "EveningStandings",
    "KeptEvening",
    "evening_left",
    "evening_written",
    "evenings",
    "fresh",
    "read",
    "rebuild_missing",
    "results",
    "stamp",
    "summaries",
    "winners_of",
]

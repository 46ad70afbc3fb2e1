"""Clubs (issue 36): a club's row and its owner's codes (hashed), its members and the
spellings that name them, the owner's decisions in history (undoable), its seasons,
and which club an event belongs to (an event belongs to one club or to nobody: a row
of ``club_events``, so an event's own row is untouched).

Reads hand out plain records; every write here is one step of a ledger write that
holds the club (:func:`scorekeeper.store.holding`) and ends with :func:`log_write`.
"""

from __future__ import annotations

import datetime as dt
import typing
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import JSON, ForeignKey, String, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from ..engine.history import HistoryEntry
from .models import Base, Event, EventEntrant, now
from .reads import join_code_hash, token_hash


class Club(Base):
    """A club: name, place, whether its season pages are public, its version (one per
    write) and its owner's codes, hashed as an event director's are."""

    __tablename__ = "clubs"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    place: Mapped[str | None] = mapped_column(String(120))
    public: Mapped[bool] = mapped_column(default=False)
    version: Mapped[int] = mapped_column(default=1)
    owner_hash: Mapped[str] = mapped_column(String(64))
    join_code_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    codes_round: Mapped[int] = mapped_column(default=1)
    start_key: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    updated_at: Mapped[dt.datetime] = mapped_column(default=now)


class ClubMember(Base):
    """One member: one identity behind any number of spellings."""

    __tablename__ = "club_members"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[dt.datetime] = mapped_column(default=now)


class ClubSpelling(Base):
    """A spelling (folded: :func:`~scorekeeper.engine.contract.club.fold`) and the member
    it names in this club; ``shown`` is how it was first typed."""

    __tablename__ = "club_spellings"
    __table_args__ = (sa.UniqueConstraint("club_id", "spelling", name="uq_club_spellings_spelling"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    spelling: Mapped[str] = mapped_column(String(80))
    shown: Mapped[str] = mapped_column(String(80))
    member_id: Mapped[int] = mapped_column(ForeignKey("club_members.id", ondelete="CASCADE"))


class ClubHistory(Base):
    """One write of the owner's, a typed line with its key and digest; a roster
    decision undone keeps its line, marked ``undone_at``."""

    __tablename__ = "club_history"
    __table_args__ = (sa.UniqueConstraint("club_id", "key", name="uq_club_history_key"),)

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)
    key: Mapped[str | None] = mapped_column(String(64))
    digest: Mapped[str | None] = mapped_column(String(64))
    version: Mapped[int]
    at: Mapped[dt.datetime] = mapped_column(default=now)
    undone_at: Mapped[dt.datetime | None]


class ClubSeason(Base):
    """A season: a named period of the club's evenings and its ladder's rules (JSON)."""

    __tablename__ = "club_seasons"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    starts: Mapped[dt.date]
    ends: Mapped[dt.date]
    ladder: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    counting_at: Mapped[dt.datetime | None]
    """When its counting last changed after it was made (revision 0019)."""


class ClubEvent(Base):
    """The club an event belongs to (none: no row)."""

    __tablename__ = "club_events"

    event_id: Mapped[str] = mapped_column(ForeignKey("events.id", ondelete="CASCADE"), primary_key=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    at: Mapped[dt.datetime] = mapped_column(default=now)


CLUB_TABLES = (
    "clubs",
    "club_members",
    "club_spellings",
    "club_history",
    "club_seasons",
    "club_plans",  # scorekeeper.store.plans
    "club_events",
)


class ClubNotFound(LookupError):
    """No club of that id."""


@dataclass(frozen=True)
class ClubRow:
    id: str
    name: str
    place: str | None
    public: bool
    version: int
    owner_hash: str
    join_code_hash: str | None
    codes_round: int
    created_at: dt.datetime


@dataclass(frozen=True)
class MemberRow:
    """A member with the spellings that name them (folded, as first typed)."""

    id: int
    name: str
    spellings: tuple[tuple[str, str], ...]

    @property
    def ref(self) -> str:
        """The member's id in CONTRACT.md (``m12``)."""
        return f"m{self.id}"


@dataclass(frozen=True)
class HistoryRow:
    id: int
    line: HistoryEntry
    undone: bool


@dataclass(frozen=True)
class SeasonRow:
    id: int
    club_id: str
    name: str
    starts: dt.date
    ends: dt.date
    ladder: dict[str, Any]
    counting_at: dt.datetime | None = None
    """When its counting last changed (None: as it was made)."""


@dataclass(frozen=True)
class EveningRow:
    """An event of the club as its calendar shows it."""

    id: str
    name: str
    entry: dict[str, Any]
    finished: bool
    created_at: dt.datetime

    @property
    def day(self) -> dt.date:
        """Its date, or the day it was begun when it names none."""
        text = self.entry.get("date")
        if isinstance(text, str):
            try:
                return dt.date.fromisoformat(text)
            except ValueError:
                pass
        return self.created_at.date()


_CLUB_FIELDS = tuple(f for f in ClubRow.__dataclass_fields__)


def create_club(
    db: Session,
    club_id: str,
    name: str,
    place: str | None,
    public: bool,
    owner: str,
    join: str,
    key: str | None,
) -> None:
    db.add(
        Club(
            id=club_id,
            name=name,
            place=place,
            public=public,
            owner_hash=token_hash(owner),
            join_code_hash=join_code_hash(join),
            codes_round=1,
            start_key=key,
        )
    )
    db.flush()


def lock_club(db: Session, club_id: str) -> None:
    """PostgreSQL: the club's row ``FOR UPDATE`` for one owner's write (SQLite's write
    transaction holds the database already: :func:`scorekeeper.store.holding`)."""
    if db.get_bind().dialect.name != "sqlite":
        db.execute(select(Club.version).where(Club.id == club_id).with_for_update())


def lock_event(db: Session, event_id: str) -> None:
    """PostgreSQL: an event's row ``FOR UPDATE`` while it joins a club, the lock a box
    at its tables takes first (:func:`scorekeeper.store.locks.writing`): the evening's
    kept row is made from its standings as the last box left them, and a box after it
    finds the event the club's and keeps the row."""
    if db.get_bind().dialect.name != "sqlite":
        db.execute(select(Event.version).where(Event.id == event_id).with_for_update())


def get_club(db: Session, club_id: str) -> ClubRow | None:
    row = db.get(Club, club_id) if len(club_id) <= 32 else None
    if row is None:
        return None
    db.refresh(row)
    return ClubRow(**{name: getattr(row, name) for name in _CLUB_FIELDS})


def club_started_with(db: Session, key: str) -> str | None:
    """The club a start form's key already made."""
    return db.scalar(select(Club.id).where(Club.start_key == key))


def clubs_with_join_code(db: Session, code: str) -> list[ClubRow]:
    ids = db.scalars(select(Club.id).where(Club.join_code_hash == join_code_hash(code))).all()
    return [row for i in ids if (row := get_club(db, i)) is not None]


def earlier_write(db: Session, club_id: str, key: str) -> str | None:
    """The digest of the write this club already took with ``key`` ("" for none kept)."""
    row = db.execute(
        select(ClubHistory.digest).where(ClubHistory.club_id == club_id, ClubHistory.key == key)
    ).first()
    return None if row is None else (row[0] or "")


def log_write(
    db: Session,
    club_id: str,
    action: str,
    detail: dict[str, Any],
    *,
    key: str | None,
    digest: str,
    **values: Any,
) -> int:
    """The end of every owner's write: the club's version goes up once (with the
    ``values`` of its row the write changed) and its typed line is kept with its key."""
    changed = db.execute(
        update(Club)
        .where(Club.id == club_id)
        .values(version=Club.version + 1, updated_at=now(), **values)
        .returning(Club.version)
    ).first()
    if changed is None:
        raise ClubNotFound(club_id)
    version = int(changed[0])
    db.add(
        ClubHistory(club_id=club_id, action=action, detail=detail, key=key, digest=digest, version=version)
    )
    db.flush()
    return version


def history(db: Session, club_id: str) -> list[HistoryRow]:
    """The owner's writes, oldest first."""
    query = select(ClubHistory).where(ClubHistory.club_id == club_id).order_by(ClubHistory.id)
    return [
        HistoryRow(
            row.id,
            HistoryEntry.stored(
                row.action, {**row.detail, "undone": row.undone_at is not None}, row.version, row.at
            ),
            row.undone_at is not None,
        )
        for row in db.scalars(query)
    ]


def history_line(db: Session, club_id: str, number: int) -> HistoryRow | None:
    return next((row for row in history(db, club_id) if row.id == number), None)


def mark_undone(db: Session, line_id: int) -> None:
    db.execute(update(ClubHistory).where(ClubHistory.id == line_id).values(undone_at=now()))


def members(db: Session, club_id: str) -> list[MemberRow]:
    """The roster by name: every member with at least one spelling (a member whose
    spellings were all linked to others is no one now)."""
    spelt: dict[int, list[tuple[str, str]]] = {}
    for spelling, shown, member in db.execute(
        select(ClubSpelling.spelling, ClubSpelling.shown, ClubSpelling.member_id)
        .where(ClubSpelling.club_id == club_id)
        .order_by(ClubSpelling.id)
    ):
        spelt.setdefault(member, []).append((spelling, shown))
    rows = db.execute(select(ClubMember.id, ClubMember.name).where(ClubMember.club_id == club_id)).all()
    found = [MemberRow(i, name, tuple(spelt[i])) for i, name in rows if i in spelt]
    return sorted(found, key=lambda m: (m.name.casefold(), m.id))


def spellings(db: Session, club_id: str) -> dict[str, int]:
    """Each folded spelling of the club and the member it names."""
    query = select(ClubSpelling.spelling, ClubSpelling.member_id).where(ClubSpelling.club_id == club_id)
    return {s: m for s, m in db.execute(query)}


def member_names(db: Session, club_id: str) -> dict[int, str]:
    query = select(ClubMember.id, ClubMember.name).where(ClubMember.club_id == club_id)
    return {i: n for i, n in db.execute(query)}


def add_member(db: Session, club_id: str, name: str) -> int:
    member = ClubMember(club_id=club_id, name=name)
    db.add(member)
    db.flush()
    return member.id


def set_spelling(db: Session, club_id: str, spelling: str, shown: str, member: int | None) -> None:
    """The spelling names ``member`` from now on (None: it names no one)."""
    db.execute(
        sa.delete(ClubSpelling).where(ClubSpelling.club_id == club_id, ClubSpelling.spelling == spelling)
    )
    if member is not None:
        db.add(ClubSpelling(club_id=club_id, spelling=spelling, shown=shown, member_id=member))
    db.flush()


def add_season(
    db: Session, club_id: str, name: str, starts: dt.date, ends: dt.date, ladder: dict[str, Any]
) -> int:
    season = ClubSeason(club_id=club_id, name=name, starts=starts, ends=ends, ladder=ladder)
    db.add(season)
    db.flush()
    return season.id


def seasons(db: Session, club_id: str) -> list[SeasonRow]:
    query = select(ClubSeason).where(ClubSeason.club_id == club_id).order_by(ClubSeason.starts, ClubSeason.id)
    return [_season(row) for row in db.scalars(query)]


def get_season(db: Session, season_id: int) -> SeasonRow | None:
    if not 0 < season_id < 2**31:
        return None
    row = db.get(ClubSeason, season_id)
    return None if row is None else _season(row)


def set_ladder(db: Session, season_id: int, ladder: dict[str, Any]) -> None:
    """The season counts by ``ladder`` from now on."""
    db.execute(update(ClubSeason).where(ClubSeason.id == season_id).values(ladder=ladder, counting_at=now()))
    db.flush()


def _season(row: ClubSeason) -> SeasonRow:
    return SeasonRow(row.id, row.club_id, row.name, row.starts, row.ends, dict(row.ladder), row.counting_at)


def attach(db: Session, club_id: str, event_id: str) -> None:
    db.add(ClubEvent(event_id=event_id, club_id=club_id))
    db.flush()


def detach(db: Session, event_id: str) -> None:
    """The event belongs to no club again."""
    db.execute(sa.delete(ClubEvent).where(ClubEvent.event_id == event_id))
    db.flush()


def club_of_event(db: Session, event_id: str) -> str | None:
    return db.scalar(select(ClubEvent.club_id).where(ClubEvent.event_id == event_id))


def evenings(db: Session, club_id: str) -> list[EveningRow]:
    """The club's events, in the order they were played (date, then begun)."""
    query = (
        select(Event.id, Event.name, Event.entry, Event.finished, Event.created_at)
        .join(ClubEvent, ClubEvent.event_id == Event.id)
        .where(ClubEvent.club_id == club_id)
    )
    found = [EveningRow(*row) for row in db.execute(query)]
    return sorted(found, key=lambda e: (e.day, e.created_at, e.id))


def entrant_names(db: Session, club_id: str) -> list[str]:
    """Every name an evening of the club entered, as typed (one per folded name is the
    caller's to pick), in the order they first played."""
    query = (
        select(EventEntrant.name)
        .join(ClubEvent, ClubEvent.event_id == EventEntrant.event_id)
        .where(ClubEvent.club_id == club_id)
        .order_by(EventEntrant.id)
    )
    return list(db.scalars(query))


def clubs_named(db: Session, ids: Iterable[str]) -> list[ClubRow]:
    return [row for i in ids if (row := get_club(db, i)) is not None]


CLUBS = typing.cast(sa.Table, Club.__table__)

"""Planned evenings (issue 36): an evening a club's owner put on a season's calendar
before its entrants are known. The plan keeps what the new-event form will be filled
with (its entry: CONTRACT.md's planned evening), whether it was cancelled, and once the
evening was started the event it became (a plan leads to one event at most).

Every write here is one step of a club owner's write (:func:`scorekeeper.ledger.clubs.
held`), which holds the club and ends with the club's history line.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, select, update
from sqlalchemy.orm import Mapped, Session, mapped_column

from .models import Base, now


class ClubPlan(Base):
    """An evening planned in a season: its day (what the calendar sorts by), its entry,
    cancelled or not, and the event it became."""

    __tablename__ = "club_plans"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    club_id: Mapped[str] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("club_seasons.id", ondelete="CASCADE"), index=True)
    day: Mapped[dt.date]
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)
    cancelled: Mapped[bool] = mapped_column(default=False)
    event_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("events.id", ondelete="SET NULL"), unique=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(default=now)
    updated_at: Mapped[dt.datetime] = mapped_column(default=now)


@dataclass(frozen=True)
class PlanRow:
    id: int
    club_id: str
    season_id: int
    day: dt.date
    entry: dict[str, Any]
    cancelled: bool
    event_id: str | None
    created_at: dt.datetime
    updated_at: dt.datetime


def _row(plan: ClubPlan) -> PlanRow:
    return PlanRow(
        plan.id,
        plan.club_id,
        plan.season_id,
        plan.day,
        dict(plan.entry),
        plan.cancelled,
        plan.event_id,
        plan.created_at,
        plan.updated_at,
    )


def add_plan(db: Session, club_id: str, season_id: int, day: dt.date, entry: dict[str, Any]) -> int:
    plan = ClubPlan(club_id=club_id, season_id=season_id, day=day, entry=entry)
    db.add(plan)
    db.flush()
    return plan.id


def get_plan(db: Session, plan_id: int) -> PlanRow | None:
    if not 0 < plan_id < 2**31:
        return None
    found = db.get(ClubPlan, plan_id)
    if found is None:
        return None
    db.refresh(found)
    return _row(found)


def plans(db: Session, season_id: int) -> list[PlanRow]:
    """A season's planned evenings by day (then as planned)."""
    query = select(ClubPlan).where(ClubPlan.season_id == season_id).order_by(ClubPlan.day, ClubPlan.id)
    return [_row(plan) for plan in db.scalars(query)]


def plan_of_event(db: Session, event_id: str) -> int | None:
    return db.scalar(select(ClubPlan.id).where(ClubPlan.event_id == event_id))


def change_plan(db: Session, plan_id: int, **values: Any) -> None:
    """The plan's ``day``/``entry``/``cancelled``/``event_id`` from now on."""
    db.execute(update(ClubPlan).where(ClubPlan.id == plan_id).values(updated_at=now(), **values))
    db.flush()


__all__ = ["ClubPlan", "PlanRow", "add_plan", "change_plan", "get_plan", "plan_of_event", "plans"]

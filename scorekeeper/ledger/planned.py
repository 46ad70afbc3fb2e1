"""Planned evenings (issue 36): the club's owner puts an evening on a season's calendar
before its entrants are known (date and start time, place, rules, table size, a name
and notes), changes it, cancels it (a cancel is undone as the roster's decisions are:
:func:`scorekeeper.ledger.clubs.undo`), and on the night starts it: the new-event form
is filled from the plan, and the event started joins the club with the plan pointing
at it in one write (:func:`scorekeeper.ledger.clubs.attach` with ``plan``).

Every write goes through the club's prologue (:func:`scorekeeper.ledger.clubs.held`):
held, a stored key, the club's version up and a typed history line with the plan
before and after.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from .. import store
from ..engine.contract.club import PlanEntry
from ..engine.errors import MalformedError
from ..engine.history import Kind
from ..store.plans import PlanRow
from .clubs import Change, Done, RosterRefused, held
from .table import NotFound


class PlanRefused(RosterRefused):
    """A change a plan cannot take (started already, cancelled, of another season)."""


@dataclass(frozen=True)
class Planned:
    done: Done
    plan: PlanRow


def entry_of(row: PlanRow) -> PlanEntry:
    return PlanEntry.from_json(row.entry)


def plan_in(db: Session, club_id: str, plan_id: int) -> PlanRow:
    found = store.plans.get_plan(db, plan_id)
    if found is None or found.club_id != club_id:
        raise NotFound(f"there is no planned evening {plan_id} in this club")
    return found


def _in_season(db: Session, club_id: str, season_id: int, entry: PlanEntry) -> None:
    season = store.clubs.get_season(db, season_id)
    if season is None or season.club_id != club_id:
        raise NotFound(f"there is no season {season_id}")
    if not season.starts <= entry.day <= season.ends:
        raise MalformedError(
            f"the evening's date ({entry.day}) is outside the season {season.name} "
            f"({season.starts} to {season.ends})",
            "date",
        )


def plan(db: Session, club_id: str, season_id: int, entry: PlanEntry, key: str | None = None) -> Planned:
    """A new evening on the season's calendar (its date checked against today by
    :meth:`PlanEntry.from_json`, and against the season's period here)."""
    made: list[int] = []

    def write(row: object) -> Change:
        _in_season(db, club_id, season_id, entry)
        made.append(store.plans.add_plan(db, club_id, season_id, entry.day, entry.to_json()))
        return {"plan": entry.to_json(), "season": season_id, "id": made[0]}, {}

    done = held(db, club_id, Kind.PLANNED, {"season": season_id, **entry.to_json()}, key, write)
    if not made:  # a resent key: the plan it made
        made += [p.id for p in store.plans.plans(db, season_id) if p.entry == entry.to_json()][-1:]
    if not made:
        raise NotFound("the planned evening this form made is gone")
    return Planned(done, plan_in(db, club_id, made[0]))


def change(db: Session, club_id: str, plan_id: int, entry: PlanEntry, key: str | None = None) -> Planned:
    """The plan from now on: the calendar (and a phone's, by the same UID) shows it
    changed. A plan started or cancelled is not changed."""

    def write(row: object) -> Change | None:
        found = plan_in(db, club_id, plan_id)
        if found.event_id is not None:
            raise PlanRefused("this evening was started: change the event itself")
        if found.cancelled:
            raise PlanRefused("this evening was cancelled: undo the cancel first")
        if found.entry == entry.to_json():
            return None
        _in_season(db, club_id, found.season_id, entry)
        store.plans.change_plan(db, plan_id, day=entry.day, entry=entry.to_json())
        return {"id": plan_id, "before": found.entry, "after": entry.to_json()}, {}

    done = held(db, club_id, Kind.PLAN_CHANGED, {"id": plan_id, **entry.to_json()}, key, write)
    return Planned(done, plan_in(db, club_id, plan_id))


def cancel(db: Session, club_id: str, plan_id: int, key: str | None = None) -> Planned:
    """The evening will not be played: the calendar says CANCELLED (undoable)."""

    def write(row: object) -> Change | None:
        found = plan_in(db, club_id, plan_id)
        if found.event_id is not None:
            raise PlanRefused("this evening was started: it cannot be cancelled now")
        if found.cancelled:
            return None
        store.plans.change_plan(db, plan_id, cancelled=True)
        return {"id": plan_id, "plan": found.entry}, {}

    done = held(db, club_id, Kind.PLAN_CANCELLED, {"id": plan_id}, key, write)
    return Planned(done, plan_in(db, club_id, plan_id))


def season_plans(db: Session, season_id: int) -> list[PlanRow]:
    return store.plans.plans(db, season_id)


__all__ = [
    "PlanRefused",
    "Planned",
    "cancel",
    "change",
    "entry_of",
    "plan",
    "plan_in",
    "season_plans",
]

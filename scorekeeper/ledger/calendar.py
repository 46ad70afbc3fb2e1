"""A season's evenings as an iCalendar feed (RFC 5545, the ``icalendar`` package): one
entry a club evening, its place, rules and table size, and once played its winner; and
one an evening planned but not started yet, at its start time (a cancelled one
``STATUS:CANCELLED``). Each has a stable UID so a phone's calendar updates the same
entry: a plan's UID stays its evening's once the evening is started from it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import icalendar

from ..engine.contract.club import PlanEntry
from ..engine.rules import find_rules
from ..store.plans import PlanRow
from .seasons import Season

EVENING_HOURS = 4
"""How long a planned evening is put in a calendar (its end is not planned)."""


def season_calendar(season: Season, link: Callable[[str], str], plan_link: Callable[[], str]) -> bytes:
    """The feed: ``link(event_id)`` is each evening's page; ``plan_link()`` the season's
    page, where a planned evening is listed."""
    import icalendar  # 0.24 s of CPU at import: paid by the first feed, not by every start

    cal = icalendar.Calendar()
    cal.add("prodid", "-//scorekeeper//club season//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{season.club.name}: {season.row.name}")
    for evening in season.evenings:
        entry = icalendar.Event()
        plan = season.plan_of(evening.row.id)
        entry.add("uid", _uid(plan) if plan else f"{evening.row.id}@scorekeeper")
        entry.add("dtstamp", evening.row.created_at.replace(tzinfo=dt.UTC))
        if plan is not None:  # started on the night planned: at its time
            start = dt.datetime.combine(
                evening.day, dt.time.fromisoformat(PlanEntry.from_json(plan.entry).time)
            )
            entry.add("dtstart", start)
            entry.add("dtend", start + dt.timedelta(hours=EVENING_HOURS))
        else:
            entry.add("dtstart", evening.day)
            entry.add("dtend", evening.day + dt.timedelta(days=1))
        entry.add("summary", f"{season.club.name}: {evening.row.name}")
        if evening.place:
            entry.add("location", evening.place)
        rules = evening.rules_title
        said = f"{rules}, {evening.table_size} a table." if evening.table_size else f"{rules}."
        if evening.winners:
            said += " Won by " + " and ".join(evening.winners) + "."
        entry.add("description", said)
        entry.add("url", link(evening.row.id))
        cal.add_component(entry)
    for plan in season.plans:
        if plan.event_id is None:
            cal.add_component(_planned(season, plan, plan_link()))
    return bytes(cal.to_ical())


def _uid(plan: PlanRow) -> str:
    return f"plan-{plan.id}@scorekeeper"


def _planned(season: Season, plan: PlanRow, url: str) -> icalendar.Event:
    """A planned evening: at its start time (floating: the club's own clock)."""
    import icalendar  # loaded by season_calendar already

    planned = PlanEntry.from_json(plan.entry)
    entry = icalendar.Event()
    entry.add("uid", _uid(plan))
    entry.add("dtstamp", plan.updated_at.replace(tzinfo=dt.UTC))
    entry.add("last-modified", plan.updated_at.replace(tzinfo=dt.UTC))
    # Seconds from its making to its last change: grows with every change, as RFC 5545 asks.
    entry.add("sequence", max(0, int((plan.updated_at - plan.created_at).total_seconds())))
    start = dt.datetime.combine(planned.day, dt.time.fromisoformat(planned.time))
    entry.add("dtstart", start)
    entry.add("dtend", start + dt.timedelta(hours=EVENING_HOURS))
    entry.add("summary", f"{season.club.name}: {planned.name or season.row.name + ' evening'}")
    entry.add("status", "CANCELLED" if plan.cancelled else "CONFIRMED")
    if planned.place:
        entry.add("location", planned.place)
    said = f"{find_rules(planned.rules).title}, {planned.table_size} a table."
    if planned.notes:
        said += " " + planned.notes
    entry.add("description", said)
    entry.add("url", url)
    return entry


__all__ = ["season_calendar"]

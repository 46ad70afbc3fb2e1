"""A season's evenings as an iCalendar feed (RFC 5545, the ``icalendar`` package): one
all-day event a club evening, its place, rules and table size, and once played its
winner; each with a stable UID so a phone's calendar updates the same entries."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import icalendar

from .seasons import Season


def season_calendar(season: Season, link: Callable[[str], str]) -> bytes:
    """The feed: ``link(event_id)`` is each evening's page."""
    cal = icalendar.Calendar()
    cal.add("prodid", "-//scorekeeper//club season//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"{season.club.name}: {season.row.name}")
    for evening in season.evenings:
        entry = icalendar.Event()
        entry.add("uid", f"{evening.row.id}@scorekeeper")
        entry.add("dtstamp", evening.row.created_at.replace(tzinfo=dt.UTC))
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
    return bytes(cal.to_ical())


__all__ = ["season_calendar"]

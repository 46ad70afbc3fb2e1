"""A club and its season (CONTRACT.md "A club and its season"), as typed values.

A club has a name, a place and whether its season pages are public; its members are
one identity each behind any number of spellings: a spelling is folded
(:func:`fold`: :func:`~.fields.player_name` then case aside), so "ann", " ANN " and
"Ann" are one spelling of one member. A season is a named period (from, to) of the
club's events, with how its ladder counts (:class:`~scorekeeper.engine.ladder.Ladder`).

>>> fold("  ANN  lee"), fold("Ann Lee") == fold("ann   LEE")
('ann lee', True)
>>> ClubEntry.from_json({"name": " Hoboken Gin Club ", "public": True}).to_json()
{'name': 'Hoboken Gin Club', 'place': None, 'public': True}
>>> SeasonEntry.from_json({"name": "Winter", "from": "2027-01-05", "to": "2027-01-01"})
Traceback (most recent call last):
...
scorekeeper.engine.errors.MalformedError: the season ends (2027-01-01) before it begins (2027-01-05)
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import MalformedError
from ..ladder import Ladder
from ..ladder import from_json as ladder_from_json
from ..rules import find_rules
from .fields import (
    MAX_NAME,
    MAX_NOTE,
    MAX_PLACE,
    Json,
    _fields,
    _flag,
    _text,
    player_name,
    table_size,
)

MAX_CLUB_NAME = 120
MAX_SEASON_NAME = 80
MAX_PLAN_NAME = 80


def fold(spelling: str) -> str:
    """A spelling as the roster compares it: one name however it was spaced, composed
    or capitalised."""
    return player_name(spelling).casefold()


def member_name(text: Json, where: str = "name") -> str:
    """A member's display name or a spelling, checked as an entrant's name is."""
    name = player_name(_text(text, where, "member's name", MAX_NAME * 4))
    if not name:
        raise MalformedError("a member's name cannot be empty", where)
    return name


@dataclass(frozen=True)
class ClubEntry:
    """A club as its owner gives it: name, place and whether its season is public."""

    name: str
    place: str | None = None
    public: bool = False

    @classmethod
    def from_json(cls, data: Json, where: str = "") -> ClubEntry:
        body = _fields(data, where, "a club", frozenset({"name", "place", "public"}))
        name = " ".join(_text(body.get("name", ""), _at(where, "name"), "club's name", MAX_CLUB_NAME).split())
        if not name:
            raise MalformedError("give the club a name", _at(where, "name"))
        place = body.get("place")
        return cls(
            name,
            None
            if place is None
            else " ".join(_text(place, _at(where, "place"), "place", MAX_PLACE).split()) or None,
            _flag(body, "public", where),
        )

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "place": self.place, "public": self.public}


@dataclass(frozen=True)
class SeasonEntry:
    """A season: its name, the period of the club's events it takes (``starts`` to
    ``ends``, both days counted) and how its ladder counts."""

    name: str
    starts: datetime.date
    ends: datetime.date
    ladder: Ladder = field(default_factory=Ladder)

    @classmethod
    def from_json(cls, data: Json, where: str = "") -> SeasonEntry:
        body = _fields(data, where, "a season", frozenset({"name", "from", "to", "ladder", "events"}))
        name = " ".join(
            _text(body.get("name", ""), _at(where, "name"), "season's name", MAX_SEASON_NAME).split()
        )
        if not name:
            raise MalformedError("give the season a name", _at(where, "name"))
        starts, ends = _day(body.get("from"), _at(where, "from")), _day(body.get("to"), _at(where, "to"))
        if ends < starts:
            raise MalformedError(f"the season ends ({ends}) before it begins ({starts})", _at(where, "to"))
        raw = body.get("ladder") or {}
        if not isinstance(raw, Mapping):
            raise MalformedError("the ladder must be a JSON object", _at(where, "ladder"))
        return cls(name, starts, ends, ladder_from_json(raw))

    def holds(self, day: datetime.date) -> bool:
        """Whether an evening of ``day`` is one of the season's."""
        return self.starts <= day <= self.ends

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "from": self.starts.isoformat(),
            "to": self.ends.isoformat(),
            "ladder": ladder_json(self.ladder),
        }


@dataclass(frozen=True)
class PlanEntry:
    """An evening planned on a season's calendar before its entrants are known: its
    date and start time, place, rules preset and table size, a name and notes.

    >>> plan = PlanEntry.from_json({"date": "2027-01-12", "time": "19:30", "rules": "gin", "table_size": 2})
    >>> plan.day, plan.time, plan.rules, plan.table_size
    (datetime.date(2027, 1, 12), '19:30', 'gin', 2)
    >>> PlanEntry.from_json({"date": "2027-01-12", "time": "19:30", "table_size": 9})
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: Jersey Gin (Scarne) is played 3 to a table, not 9
    >>> PlanEntry.from_json({"date": "2027-01-12", "time": "19:30"}, today=datetime.date(2027, 2, 1))
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: the evening's date (2027-01-12) is past: plan ...
    """

    day: datetime.date
    time: str
    rules: str = "jersey-scarne"
    table_size: int = 3
    name: str | None = None
    place: str | None = None
    notes: str | None = None

    FIELDS = frozenset({"name", "date", "time", "place", "rules", "table_size", "notes"})

    @classmethod
    def from_json(cls, data: Json, where: str = "", today: datetime.date | None = None) -> PlanEntry:
        """The plan, checked; ``today`` given, a date before it is refused (a new plan,
        or a plan moved to another day)."""
        body = _fields(data, where, "a planned evening", cls.FIELDS)
        day = _day(body.get("date"), _at(where, "date"))
        if today is not None and day < today:
            raise MalformedError(
                f"the evening's date ({day}) is past: plan an evening from {today} on", _at(where, "date")
            )
        time = _time(body.get("time"), _at(where, "time"))
        rules = find_rules(
            _text(body.get("rules", "jersey-scarne"), _at(where, "rules"), "rules", 40), _at(where, "rules")
        )
        size = table_size(rules, body, _at(where, "table_size"))
        return cls(
            day,
            time,
            rules.name,
            size,
            _optional(body.get("name"), _at(where, "name"), "evening's name", MAX_PLAN_NAME),
            _optional(body.get("place"), _at(where, "place"), "place", MAX_PLACE),
            _optional(body.get("notes"), _at(where, "notes"), "notes", MAX_NOTE, lines=True),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "date": self.day.isoformat(),
            "time": self.time,
            "place": self.place,
            "rules": self.rules,
            "table_size": self.table_size,
            "notes": self.notes,
        }


def _time(data: Json, where: str) -> str:
    """A start time of day, ``19:30`` (24-hour clock)."""
    text = _text(data if data is not None else "", where, "time", 8).strip()
    try:
        if len(text) == 5:
            return datetime.time.fromisoformat(text).strftime("%H:%M")
    except ValueError:
        pass
    raise MalformedError(f"the start time is written 19:30, not {text[:8]!r}", where)


def _optional(data: Json, where: str, what: str, most: int, *, lines: bool = False) -> str | None:
    """An optional text, spaces collapsed (``lines``: kept as typed, ends trimmed)."""
    if data is None:
        return None
    text = (
        _text(data, where, what, most).strip() if lines else " ".join(_text(data, where, what, most).split())
    )
    return text or None


def ladder_json(rules: Ladder) -> dict[str, Any]:
    """CONTRACT.md's ``ladder``: ``best``/``of`` absent when every evening counts."""
    out: dict[str, Any] = {"count": rules.count, "min_evenings": rules.min_evenings}
    if rules.best is not None:
        out["best"] = rules.best
        if rules.of is not None:
            out["of"] = rules.of
    return out


def _day(data: Json, where: str) -> datetime.date:
    text = _text(data if data is not None else "", where, "date", 10)
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise MalformedError(f"the date is written 2027-01-05, not {text[:10]!r}", where) from None


def _at(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


__all__ = [
    "MAX_CLUB_NAME",
    "MAX_PLAN_NAME",
    "MAX_SEASON_NAME",
    "ClubEntry",
    "PlanEntry",
    "SeasonEntry",
    "fold",
    "ladder_json",
    "member_name",
]

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
from .fields import MAX_NAME, MAX_PLACE, Json, _fields, _flag, _text, player_name

MAX_CLUB_NAME = 120
MAX_SEASON_NAME = 80


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
    "MAX_SEASON_NAME",
    "ClubEntry",
    "SeasonEntry",
    "fold",
    "ladder_json",
    "member_name",
]

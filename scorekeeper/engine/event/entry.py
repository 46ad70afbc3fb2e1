"""The event as a director starts it (CONTRACT.md "An event"): how a round ends, the
seating of each round, the games of its tables, the director's penalties and the event
itself, read from JSON with the field at fault named, and written back as read."""

from __future__ import annotations

import dataclasses
import datetime
import functools
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ..contract.fields import (
    MAX_NAME,
    MAX_PLACE,
    _at,
    _fields,
    _name,
    _shown,
    _text,
    _whole,
    check_text,
    table_size,
)
from ..errors import MalformedError
from ..rules import find_rules

Json = Any
Count = Literal["net", "placings"]
COUNTS: tuple[Count, ...] = ("net", "placings")
TieBreak = Literal["won", "boxes", "head_to_head"]
TIE_BREAKS: tuple[TieBreak, ...] = ("won", "boxes", "head_to_head")
"""Games won, boxes won, head to head: the order a director may change."""
RoundEndKind = Literal["game", "boxes", "minutes"]
MAX_ENTRANTS = 1000
MAX_ROUNDS = 50
MAX_EVENT_NAME = 120
MAX_MINUTES = 24 * 60
MAX_PENALTY = 100_000
MAX_SEED = 2**31 - 1  # a draw's seed: what the database's integer column holds


@dataclass(frozen=True)
class RoundEnd:
    """How a round ends: each game to its own end (``game``), after ``limit`` boxes
    (``boxes``) or ``limit`` minutes (``minutes``); the last two end the running games
    by agreement, settled as they stand (K5)."""

    kind: RoundEndKind = "game"
    limit: int | None = None

    @classmethod
    def from_json(cls, data: Json, where: str = "round_ends") -> RoundEnd:
        if data is None:
            return cls()
        body = _fields(data, where, "round_ends", frozenset({"game", "boxes", "minutes"}))
        if len(body) != 1:
            raise MalformedError('round_ends is one of {"game": true}, {"boxes": n} or {"minutes": n}', where)
        ((kind, value),) = body.items()
        if kind == "game":
            if value is not True:
                raise MalformedError(
                    "round_ends.game is true (each table plays its game to its end)", _at(where, "game")
                )
            return cls()
        most = MAX_MINUTES if kind == "minutes" else 1000
        limit = _whole(value, _at(where, kind), f"round_ends.{kind}")
        if not 1 <= limit <= most:
            raise MalformedError(f"round_ends.{kind} is from 1 to {most}, not {limit}", _at(where, kind))
        return cls(typing.cast(RoundEndKind, kind), limit)

    def to_json(self) -> dict[str, Json]:
        return {"game": True} if self.kind == "game" else {self.kind: self.limit}


@dataclass(frozen=True)
class Seating:
    """One round's seating: its tables (numbered from 1 in order), each the names in
    seat order (play passes from each to the next), and who sits the round out."""

    round: int
    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset({"round", "tables", "byes"})

    @classmethod
    def from_json(cls, data: Json, where: str = "seating") -> Seating:
        body = _fields(data, where, "a round's seating", cls.FIELDS)
        number = _whole(body.get("round"), _at(where, "round"), "round")
        tables = body.get("tables", [])
        if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
            raise MalformedError(
                "tables must be a list of tables, each a list of names", _at(where, "tables")
            )
        seated = tuple(
            tuple(_name(name, _at(_at(_at(where, "tables"), i), j), "player") for j, name in enumerate(table))
            for i, table in enumerate(tables)
        )
        byes = body.get("byes", [])
        if not isinstance(byes, list):
            raise MalformedError("byes must be a list of names", _at(where, "byes"))
        seating = cls(
            number,
            seated,
            tuple(_name(name, _at(_at(where, "byes"), i), "player") for i, name in enumerate(byes)),
        )
        seating.check(where)
        return seating

    def check(self, where: str = "seating") -> None:
        """Nobody twice in the round."""
        seen: set[str] = set()
        for i, table in enumerate(self.tables):
            for j, name in enumerate(table):
                if name in seen:
                    raise MalformedError(
                        f"{name} is seated twice in round {self.round}", f"{where}.tables[{i}][{j}]"
                    )
                seen.add(name)
        for i, name in enumerate(self.byes):
            if name in seen:
                raise MalformedError(
                    f"{name} is seated and has a bye in round {self.round}", f"{where}.byes[{i}]"
                )
            seen.add(name)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for table in self.tables for name in table)

    def place_of(self, player: str) -> tuple[int, int] | None:
        """The table and seat (both from 1) of a player this round, or None (a bye)."""
        for number, table in enumerate(self.tables, start=1):
            if player in table:
                return number, table.index(player) + 1
        return None

    def to_json(self) -> dict[str, Json]:
        return {
            "round": self.round,
            "tables": [list(table) for table in self.tables],
            "byes": list(self.byes),
        }


@dataclass(frozen=True)
class EventGame:
    """The game a table plays in a round (its id in the store)."""

    round: int
    table: int
    game: str

    def to_json(self) -> dict[str, Json]:
        return {"round": self.round, "table": self.table, "game": self.game}

    @classmethod
    def from_json(cls, data: Json, where: str = "games") -> EventGame:
        body = _fields(data, where, "an event's game", frozenset({"round", "table", "game"}))
        return cls(
            _whole(body.get("round"), _at(where, "round"), "round"),
            _whole(body.get("table"), _at(where, "table"), "table"),
            _text(body.get("game"), _at(where, "game"), "game's id", 32),
        )


@dataclass(frozen=True)
class Penalty:
    """Points taken from a player's score by the director, with the reason (E4).
    ``id`` is the stored penalty's number (to withdraw it by); a ``withdrawn`` penalty
    is kept, struck out, and takes nothing off."""

    player: str
    points: int
    note: str
    round: int | None = None
    id: int | None = None
    withdrawn: bool = False

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {
            "player": self.player,
            "points": self.points,
            "note": self.note,
            "round": self.round,
        }
        if self.id is not None:
            body["id"] = self.id
        if self.withdrawn:
            body["withdrawn"] = True
        return body

    @classmethod
    def from_json(cls, data: Json, where: str = "penalties") -> Penalty:
        body = _fields(
            data, where, "a penalty", frozenset({"player", "points", "note", "round", "id", "withdrawn"})
        )
        points = _whole(body.get("points"), _at(where, "points"), "a penalty's points")
        if not 0 < points <= MAX_PENALTY:
            raise MalformedError(
                f"a penalty is from 1 to {MAX_PENALTY} points, not {points}", _at(where, "points")
            )
        note = _text(body.get("note", ""), _at(where, "note"), "penalty's note", 1000)
        rnd = body.get("round")
        number = body.get("id")
        withdrawn = body.get("withdrawn", False)
        if not isinstance(withdrawn, bool):
            raise MalformedError("a penalty's withdrawn is true or false", _at(where, "withdrawn"))
        return cls(
            _name(body.get("player"), _at(where, "player"), "player"),
            points,
            note.strip(),
            None if rnd is None else _whole(rnd, _at(where, "round"), "round"),
            None if number is None else _whole(number, _at(where, "id"), "penalty id"),
            withdrawn,
        )


def _seed(data: Json, where: str) -> int:
    seed = _whole(data, where, "seed")
    if not 0 <= seed <= MAX_SEED:
        raise MalformedError(f"seed is from 0 to {MAX_SEED}, not {seed}", where)
    return seed


@dataclass(frozen=True)
class EventEntry:
    """An event as a director starts it (CONTRACT.md "An event"), and what it holds as
    it goes on: the seed of the draw, each round's seating, the tables' games and the
    director's penalties.

    ``bye`` is what a bye scores: ``"average"`` (the round's average score, the
    default) or a fixed number of points. ``placing_points``: points by place at a
    table under ``placings`` (empty: one point per player beaten, ties shared)."""

    name: str
    entrants: tuple[str, ...]
    rounds: int = 1
    rules: str = "jersey-scarne"
    settings: Mapping[str, Json] = field(default_factory=dict)
    table_size: int = 3
    round_ends: RoundEnd = RoundEnd()
    standings: Count = "net"
    tie_breaks: tuple[TieBreak, ...] = TIE_BREAKS
    bye: Literal["average"] | int = "average"
    placing_points: tuple[int, ...] = ()
    date: str | None = None
    place: str | None = None
    stake: float | None = None
    seed: int | None = None
    seating: tuple[Seating, ...] = ()
    games: tuple[EventGame, ...] = ()
    penalties: tuple[Penalty, ...] = ()

    FIELDS: typing.ClassVar[frozenset[str]] = frozenset(
        {
            "name",
            "date",
            "place",
            "rules",
            "settings",
            "table_size",
            "rounds",
            "round_ends",
            "standings",
            "tie_breaks",
            "bye",
            "placing_points",
            "entrants",
            "seed",
            "seating",
            "games",
            "penalties",
            "stake",
        }
    )

    @classmethod
    def from_json(cls, data: Json, where: str = "") -> EventEntry:
        body = _fields(data, where, "an event", cls.FIELDS)
        name = _text(body.get("name"), _at(where, "name"), "event's name", MAX_EVENT_NAME).strip()
        if not name:
            raise MalformedError("give the event a name", _at(where, "name"))
        rules_name = body.get("rules", "jersey-scarne")
        rules = find_rules(_text(rules_name, _at(where, "rules"), "rules", 40), _at(where, "rules"))
        settings = body.get("settings") or {}
        if not isinstance(settings, Mapping):
            raise MalformedError(
                "settings must be an object of setting names and values", _at(where, "settings")
            )
        for key, value in settings.items():
            check_text(str(key), _at(where, "settings"), "setting's name")
            if isinstance(value, str):
                check_text(value, _at(_at(where, "settings"), key), "setting")
        rules.with_settings(dict(settings))  # unknown settings refused here, named
        size = table_size(rules, body, _at(where, "table_size"))
        rounds = _whole(body.get("rounds", 1), _at(where, "rounds"), "rounds")
        if not 1 <= rounds <= MAX_ROUNDS:
            raise MalformedError(f"rounds is from 1 to {MAX_ROUNDS}, not {rounds}", _at(where, "rounds"))
        count = body.get("standings", "net")
        if count not in COUNTS:
            raise MalformedError(
                f"standings is 'net' or 'placings', not {_shown(count)}", _at(where, "standings")
            )
        return cls(
            name=name,
            entrants=read_entrants(body.get("entrants"), _at(where, "entrants")),
            rounds=rounds,
            rules=rules.name,
            settings=dict(settings),
            table_size=size,
            round_ends=RoundEnd.from_json(body.get("round_ends"), _at(where, "round_ends")),
            standings=typing.cast(Count, count),
            tie_breaks=_tie_breaks(body.get("tie_breaks"), _at(where, "tie_breaks")),
            bye=_bye(body.get("bye", "average"), _at(where, "bye")),
            placing_points=_placing_points(body.get("placing_points"), size, _at(where, "placing_points")),
            date=_date(body.get("date"), _at(where, "date")),
            place=None
            if body.get("place") is None
            else _text(body["place"], _at(where, "place"), "place", MAX_PLACE).strip() or None,
            stake=_stake(body.get("stake"), _at(where, "stake")),
            seed=None if body.get("seed") is None else _seed(body["seed"], _at(where, "seed")),
            seating=tuple(
                Seating.from_json(s, _at(_at(where, "seating"), i))
                for i, s in enumerate(_list(body.get("seating"), _at(where, "seating")))
            ),
            games=tuple(
                EventGame.from_json(g, _at(_at(where, "games"), i))
                for i, g in enumerate(_list(body.get("games"), _at(where, "games")))
            ),
            penalties=tuple(
                Penalty.from_json(p, _at(_at(where, "penalties"), i))
                for i, p in enumerate(_list(body.get("penalties"), _at(where, "penalties")))
            ),
        )

    def to_json(self) -> dict[str, Json]:
        body: dict[str, Json] = {
            "name": self.name,
            "rules": self.rules,
            "settings": dict(self.settings),
            "table_size": self.table_size,
            "rounds": self.rounds,
            "round_ends": self.round_ends.to_json(),
            "standings": self.standings,
            "tie_breaks": list(self.tie_breaks),
            "bye": self.bye,
            "entrants": list(self.entrants),
        }
        if self.placing_points:
            body["placing_points"] = list(self.placing_points)
        for name in ("date", "place", "stake", "seed"):
            if getattr(self, name) is not None:
                body[name] = getattr(self, name)
        body["seating"] = [s.to_json() for s in self.seating]
        body["games"] = [g.to_json() for g in self.games]
        if self.penalties:
            body["penalties"] = [p.to_json() for p in self.penalties]
        return body

    def seating_of(self, round: int) -> Seating | None:
        return next((s for s in self.seating if s.round == round), None)

    def game_of(self, round: int, table: int) -> str | None:
        return self._games.get((round, table))

    @functools.cached_property
    def _games(self) -> dict[tuple[int, int], str]:
        """Each table's game by round and table: the standings ask it of every table
        (a search through the list each time was a quarter of the projector's page)."""
        return {(g.round, g.table): g.game for g in reversed(self.games)}

    def points_for_places(self, players: int) -> tuple[int, ...]:
        """Points by place (first, second, ...) at a table of ``players`` (placings)."""
        return places_points(self.placing_points, players)

    def with_changes(self, **changes: Any) -> EventEntry:
        return dataclasses.replace(self, **changes)


def places_points(placing_points: Sequence[int], players: int) -> tuple[int, ...]:
    """Points by place (first, second, ...) at a table of ``players`` (placings): the
    director's, else one a place below the first's ``players - 1``.

    >>> places_points((), 3), places_points((5, 2), 3)
    ((2, 1, 0), (5, 2, 0))
    """
    if placing_points:
        points = tuple(placing_points[:players])
        return points + (0,) * (players - len(points))
    return tuple(range(players - 1, -1, -1))


def read_entrants(data: Json, where: str = "entrants") -> tuple[str, ...]:
    """Entrants as a list of names or as text pasted one a line; blank lines skipped,
    spaces collapsed, the same name twice (case and spacing aside) refused.

    >>> read_entrants("Ann\\n  bob  smith\\n\\nCal")
    ('Ann', 'bob smith', 'Cal')
    """
    if isinstance(data, str):
        data = [line for line in data.splitlines() if line.strip()]
    if not isinstance(data, list):
        raise MalformedError("entrants are a list of names (or text, one name a line)", where)
    if len(data) > MAX_ENTRANTS:
        raise MalformedError(f"{len(data)} entrants: an event takes {MAX_ENTRANTS} at most", where)
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(data):
        name = _name(item, _at(where, i), "entrant")
        if not name:
            raise MalformedError("an entrant's name is empty", _at(where, i))
        if len(name) > MAX_NAME:
            raise MalformedError(
                f"the name {_shown(name)} is too long ({MAX_NAME} characters at most)", _at(where, i)
            )
        folded = name.casefold()
        if folded in seen:
            raise MalformedError(
                f"{name} is entered twice (lines {seen[folded] + 1} and {i + 1})", _at(where, i)
            )
        seen[folded] = i
        names.append(name)
    return tuple(names)


def check_room(present: int, entering: int, where: str = "name") -> None:
    """Late entries fit the event: the entrants who will play stay within
    :data:`MAX_ENTRANTS`, the most an event is started with and its movement seats
    (issue 33: late entries grew one to 4,004).

    >>> check_room(998, 2)
    >>> check_room(999, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.engine.errors.MalformedError: 999 entrants play and 2 more make 1001: ...
    """
    if present + entering > MAX_ENTRANTS:
        raise MalformedError(
            f"{present} entrants play and {entering} more make {present + entering}: "
            f"an event takes {MAX_ENTRANTS} at most",
            where,
        )


def _list(data: Json, where: str) -> list[Json]:
    if data is None:
        return []
    if not isinstance(data, list):
        raise MalformedError("must be a list", where)
    return data


def _tie_breaks(data: Json, where: str) -> tuple[TieBreak, ...]:
    if data is None:
        return TIE_BREAKS
    if not isinstance(data, list):
        raise MalformedError("tie_breaks is a list of 'won', 'boxes', 'head_to_head'", where)
    for i, item in enumerate(data):
        if item not in TIE_BREAKS or data.index(item) != i:
            raise MalformedError(
                f"a tie-break is one of {', '.join(TIE_BREAKS)} (each once), not {_shown(item)}",
                _at(where, i),
            )
    return tuple(typing.cast(list[TieBreak], data))


def _bye(data: Json, where: str) -> Literal["average"] | int:
    if data == "average":
        return "average"
    if isinstance(data, int) and not isinstance(data, bool) and -MAX_PENALTY <= data <= MAX_PENALTY:
        return data
    raise MalformedError(
        f"a bye scores 'average' (the round's average) or a number of points, not {_shown(data)}", where
    )


def _placing_points(data: Json, size: int, where: str) -> tuple[int, ...]:
    if data is None:
        return ()
    if not isinstance(data, list) or not data or len(data) > 5:
        raise MalformedError("placing_points is a list of points by place, first place first", where)
    return tuple(_whole(p, _at(where, i), "points for a place") for i, p in enumerate(data))


def _date(data: Json, where: str) -> str | None:
    if data is None:
        return None
    text = _text(data, where, "date", 10)
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise MalformedError(f"the date is written 2026-12-01, not {_shown(text)}", where) from None
    return text


def _stake(data: Json, where: str) -> float | None:
    if data is None:
        return None
    if isinstance(data, bool) or not isinstance(data, int | float) or not 0 <= data <= 1_000_000:
        raise MalformedError(f"the stake is money per point, not {_shown(data)}", where)
    return data

"""CONTRACT.md's event (a club night) as typed values: the event a director starts, the
seating of each round, the games of its tables, and the standings that come out.

``from_json`` checks the shape and names the field at fault (CONTRACT.md's error
object); ``to_json`` gives back what was read. Standard library only, like the rest
of the engine.

>>> event = EventEntry.from_json({"name": "Tuesday Jersey", "rounds": 3,
...     "entrants": ["Ann", "Bob", "Cal", "Dee", "Eve", "Fay"]})
>>> event.rules, event.table_size, event.round_ends, event.standings
('jersey-scarne', 3, RoundEnd(kind='game', limit=None), 'net')
>>> EventEntry.from_json({"name": "x", "rounds": 1, "entrants": ["Ann"], "tables": 3})
Traceback (most recent call last):
...
scorekeeper.engine.errors.MalformedError: an event has no field 'tables' ...
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .contract import MAX_NAME, MAX_PLACE, _at, _fields, _name, _shown, _text, _whole, check_text
from .errors import MalformedError
from .rules import find_rules

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
    """Points taken from a player's score by the director, with the reason."""

    player: str
    points: int
    note: str
    round: int | None = None

    def to_json(self) -> dict[str, Json]:
        return {"player": self.player, "points": self.points, "note": self.note, "round": self.round}

    @classmethod
    def from_json(cls, data: Json, where: str = "penalties") -> Penalty:
        body = _fields(data, where, "a penalty", frozenset({"player", "points", "note", "round"}))
        points = _whole(body.get("points"), _at(where, "points"), "a penalty's points")
        if not 0 < points <= MAX_PENALTY:
            raise MalformedError(
                f"a penalty is from 1 to {MAX_PENALTY} points, not {points}", _at(where, "points")
            )
        note = _text(body.get("note", ""), _at(where, "note"), "penalty's note", 1000)
        rnd = body.get("round")
        return cls(
            _name(body.get("player"), _at(where, "player"), "player"),
            points,
            note.strip(),
            None if rnd is None else _whole(rnd, _at(where, "round"), "round"),
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
        default_size = rules.min_players if rules.min_players == rules.max_players else 4
        size = _whole(body.get("table_size", default_size), _at(where, "table_size"), "table_size")
        if not rules.min_players <= size <= rules.max_players:
            allowed = (
                str(rules.min_players)
                if rules.min_players == rules.max_players
                else f"{rules.min_players} to {rules.max_players}"
            )
            raise MalformedError(
                f"{rules.title} is played {allowed} to a table, not {size}", _at(where, "table_size")
            )
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
        if self.placing_points:
            points = self.placing_points[:players]
            return points + (0,) * (players - len(points))
        return tuple(range(players - 1, -1, -1))

    def with_changes(self, **changes: Any) -> EventEntry:
        return dataclasses.replace(self, **changes)


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


# --- results and standings ------------------------------------------------------------------


@dataclass(frozen=True)
class TableResult:
    """What the standings read of one table's game: its round and table, the players in
    seat order, the totals as they stand (``final`` once the game is over or ended),
    each player's net settlement points once it is, and boxes won."""

    round: int
    table: int
    players: tuple[str, ...]
    totals: Mapping[str, int]
    boxes_won: Mapping[str, int]
    over: bool = False
    winner: str | None = None
    net: Mapping[str, int] = field(default_factory=dict)
    boxes: int = 0
    game: str | None = None
    paid: Mapping[str, int] = field(default_factory=dict)
    """Where each box is paid as it falls (Knock Rummy, K3, K5): each player's net of
    the box-by-box payments so far (:func:`paid_nets`); empty elsewhere."""

    @property
    def started(self) -> bool:
        """A box was played, or the game was ended: a table still waiting for its first
        box counts for nobody (no game played, no place shared)."""
        return self.over or self.boxes > 0 or any(self.totals.values())

    def nets(self) -> dict[str, int]:
        """Each player's net: from the settlement once the game is over; while it plays,
        the box-by-box payments as they stand where boxes are paid as they fall (K5:
        never the difference of totals), else as the totals stand (every pair settles
        its difference, as an agreed end would)."""
        if self.over and self.net:
            return {p: self.net.get(p, 0) for p in self.players}
        if self.paid:
            return {p: self.paid.get(p, 0) for p in self.players}
        total = sum(self.totals.get(p, 0) for p in self.players)
        return {p: len(self.players) * self.totals.get(p, 0) - total for p in self.players}

    def places(self, nets: Mapping[str, int] | None = None) -> dict[str, float]:
        """Each player's place at the table (1 first), ties sharing the average place
        (``nets``: :meth:`nets`, when the caller has them)."""
        nets = self.nets() if nets is None else nets
        order = sorted(self.players, key=lambda p: -nets[p])
        places: dict[str, float] = {}
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and nets[order[j + 1]] == nets[order[i]]:
                j += 1
            for p in order[i : j + 1]:
                places[p] = (i + j) / 2 + 1
            i = j + 1
        return places


def paid_nets(payments: Iterable[tuple[str, str, int]]) -> dict[str, int]:
    """Each player's net where each box is paid as it falls (K3, K5), from the
    ``(payer, payee, points)`` of every box so far: what was paid to him less what he
    paid. It is what settling each pair's box-by-box payments gives him (K5), never the
    difference of totals.

    >>> paid_nets([("Bob", "Ann", 11), ("Cal", "Ann", 6)])
    {'Bob': -11, 'Ann': 17, 'Cal': -6}
    """
    nets: dict[str, int] = {}
    for payer, payee, points in payments:
        nets[payer] = nets.get(payer, 0) - points
        nets[payee] = nets.get(payee, 0) + points
    return nets


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``score`` is net points or placing points (with byes
    and penalties); ``games`` the games played, ``won`` games won (first place alone),
    ``boxes`` boxes won; ``head_to_head`` the score against players level with this one
    on score and the earlier tie-breaks."""

    rank: int
    player: str
    score: float
    games: int = 0
    won: int = 0
    boxes: int = 0
    byes: int = 0
    penalty: int = 0
    head_to_head: float = 0
    withdrawn: bool = False

    def to_json(self) -> dict[str, Json]:
        return {
            "rank": self.rank,
            "player": self.player,
            "score": _number(self.score),
            "games": self.games,
            "won": self.won,
            "boxes": self.boxes,
            "byes": self.byes,
            "penalty": self.penalty,
            "head_to_head": _number(self.head_to_head),
            "withdrawn": self.withdrawn,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Standing:
        named = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in named})


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else round(value, 2)


def standings(
    event: EventEntry,
    results: Sequence[TableResult],
    *,
    players: Sequence[str] | None = None,
    withdrawn: Sequence[str] = (),
) -> tuple[Standing, ...]:
    """The event's standings from its tables' results: each player's score by the
    event's count (``net``: the sum of settlements; ``placings``: points by place at the
    table, ties sharing the places' points), a bye scored as the event says (the
    round's average score of those who played, by default), less penalties; ranked by
    score, then the tie-breaks in the event's order. Equal on everything shares a rank.

    >>> event = EventEntry("x", ("Ann", "Bob", "Cal", "Dee"), table_size=2, rules="gin")
    >>> results = [TableResult(1, 1, ("Ann", "Bob"), {"Ann": 120, "Bob": 40}, {"Ann": 3},
    ...                        True, "Ann", {"Ann": 80, "Bob": -80}),
    ...            TableResult(1, 2, ("Cal", "Dee"), {"Cal": 10, "Dee": 30}, {"Dee": 1})]
    >>> [(s.rank, s.player, s.to_json()["score"]) for s in standings(event, results)]
    [(1, 'Ann', 80), (2, 'Dee', 20), (3, 'Cal', -20), (4, 'Bob', -80)]
    """
    names = list(players if players is not None else event.entrants)
    known = set(names)
    for result in results:
        for p in result.players:
            if p not in known:
                names.append(p)
                known.add(p)
    score = {p: 0.0 for p in names}
    games = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    boxes = dict.fromkeys(names, 0)
    byes = dict.fromkeys(names, 0)
    versus: dict[tuple[str, str], float] = {}
    per_round: dict[int, list[float]] = {}
    for result in results:
        if not result.started:
            continue
        nets = result.nets()
        places = result.places(nets)
        points = table_points(event, result, nets, places)
        for p in result.players:
            score[p] += points[p]
            games[p] += 1
            boxes[p] += result.boxes_won.get(p, 0)
            if result.over and places[p] == 1 and list(places.values()).count(1) == 1:
                won[p] += 1
            per_round.setdefault(result.round, []).append(points[p])
            for q in result.players:
                if q != p:
                    versus[p, q] = versus.get((p, q), 0) + (nets[p] - nets[q]) / 2
    for seating in event.seating:
        for p in seating.byes:
            if p not in score:
                continue
            byes[p] += 1
            if event.bye == "average":
                played = per_round.get(seating.round, [])
                score[p] += sum(played) / len(played) if played else 0
            else:
                score[p] += event.bye
    penalty = dict.fromkeys(names, 0)
    for pen in event.penalties:
        if pen.player in penalty:
            penalty[pen.player] += pen.points
            score[pen.player] -= pen.points

    def key_of(p: str, h2h: float = 0) -> tuple[float, ...]:
        keys: list[float] = [round(score[p], 6)]
        for tie in event.tie_breaks:
            if tie == "won":
                keys.append(won[p])
            elif tie == "boxes":
                keys.append(boxes[p])
            else:
                keys.append(round(h2h, 6))
        return tuple(keys)

    plain = {p: key_of(p) for p in names}
    h2h = dict.fromkeys(names, 0.0)
    for (p, q), owed in versus.items():  # only pairs that met: level ones count
        if plain[p] == plain[q]:
            h2h[p] += owed
    final = {p: key_of(p, h2h[p]) for p in names}
    order = sorted(names, key=lambda p: tuple(-k for k in final[p]))
    rows: list[Standing] = []
    gone = set(withdrawn)
    for i, p in enumerate(order):
        rank = rows[-1].rank if rows and final[p] == final[order[i - 1]] else i + 1
        rows.append(
            Standing(rank, p, score[p], games[p], won[p], boxes[p], byes[p], penalty[p], h2h[p], p in gone)
        )
    return tuple(rows)


def table_points(
    event: EventEntry,
    result: TableResult,
    nets: Mapping[str, int] | None = None,
    places: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Each player's score from one table by the event's count (``nets`` and
    ``places``: the result's, when the caller has them)."""
    nets = result.nets() if nets is None else nets
    if event.standings == "net":
        return {p: float(v) for p, v in nets.items()}
    table = event.points_for_places(len(result.players))
    places = result.places(nets) if places is None else places
    points: dict[str, float] = {}
    for p, place in places.items():
        tied = [q for q, other in places.items() if other == place]
        first = int(place - (len(tied) - 1) / 2)  # the best of the shared places, from 1
        shared = table[first - 1 : first - 1 + len(tied)]
        points[p] = sum(shared) / len(tied)
    return points


__all__ = [
    "COUNTS",
    "MAX_SEED",
    "TIE_BREAKS",
    "EventEntry",
    "EventGame",
    "Penalty",
    "RoundEnd",
    "Seating",
    "Standing",
    "TableResult",
    "check_room",
    "paid_nets",
    "read_entrants",
    "standings",
    "table_points",
]

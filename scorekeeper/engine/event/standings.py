"""What comes out of an event: each table's result as the standings read it, and the
standings themselves (net or placings, byes, penalties, tie-breaks), pure functions of
the event and its tables' results."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .entry import EventEntry, Json


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

    def to_json(self) -> dict[str, Json]:
        """The result as the kept standings store it (:meth:`from_json` reads it back)."""
        return {
            "round": self.round,
            "table": self.table,
            "players": list(self.players),
            "totals": dict(self.totals),
            "boxes_won": dict(self.boxes_won),
            "over": self.over,
            "winner": self.winner,
            "net": dict(self.net),
            "boxes": self.boxes,
            "game": self.game,
            "paid": dict(self.paid),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> TableResult:
        """
        >>> r = TableResult(1, 2, ("Ann", "Bob"), {"Ann": 3}, {"Ann": 1}, True, "Ann", {"Ann": 3, "Bob": -3})
        >>> TableResult.from_json(r.to_json()) == r
        True
        """
        return cls(
            data["round"],
            data["table"],
            tuple(data["players"]),
            dict(data["totals"]),
            dict(data["boxes_won"]),
            data["over"],
            data["winner"],
            dict(data["net"]),
            data["boxes"],
            data["game"],
            dict(data["paid"]),
        )

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
    and penalties); ``games`` the games played, ``won`` tables won (E6: the highest settlement,
    shared by those level at the top),
    ``boxes`` boxes won; ``head_to_head`` the score against players level with this one
    on score and the earlier tie-breaks."""

    rank: int
    player: str
    score: float
    games: int = 0
    won: float = 0
    boxes: int = 0
    byes: int = 0
    penalty: int = 0
    head_to_head: float = 0
    withdrawn: bool = False

    @property
    def origin(self) -> Standing | None:
        """The line, of this ranking or one before, whose values after the rank this
        one has, when it was only moved to another rank (a box moves the ranks of every
        line between its players' old and new places): what was drawn of those values
        once is found by it (issue 34). None: this line is its own. No field: set in
        the line's own attributes by :meth:`at_rank` alone, so equality, ``replace``
        (a line made with other values is its own), the JSON, its schema and the
        ladder's stored rows never see it."""
        found: Standing | None = self.__dict__.get("origin")
        return found

    def at_rank(self, rank: int) -> Standing:
        """This line moved to ``rank``, its values from the same line (:attr:`origin`).
        Made without the frozen class's ``__init__`` (a field at a time: 2 µs a line,
        against 0.6 here), and a box moves the ranks of hundreds of lines of a
        1,920-player evening.

        >>> line = Standing(3, "Ann", 12.0, 2)
        >>> moved = line.at_rank(2)
        >>> moved == Standing(2, "Ann", 12.0, 2), moved.origin is line, moved.at_rank(1).origin is line
        (True, True, True)
        >>> dataclasses.replace(moved, score=13.0).origin is None  # other values: its own
        True
        """
        moved = object.__new__(Standing)
        values = self.__dict__
        moved.__dict__.update(values, rank=rank, origin=values.get("origin") or self)
        return moved

    @property
    def values_line(self) -> Standing:
        """The line whose values after the rank this one has (:attr:`origin`)."""
        found: Standing = self.__dict__.get("origin") or self
        return found

    @property
    def unranked(self) -> tuple[str, float, int, float, int, int, int, float, bool]:
        """Every value but the rank, in the fields' order: what a line shows after its
        rank (a box moves the ranks of many lines and the values of a few)."""
        return (
            self.player,
            self.score,
            self.games,
            self.won,
            self.boxes,
            self.byes,
            self.penalty,
            self.head_to_head,
            self.withdrawn,
        )

    def to_json(self) -> dict[str, Json]:
        return {
            "rank": self.rank,
            "player": self.player,
            "score": _number(self.score),
            "games": self.games,
            "won": _number(self.won),
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

"""What comes out of an event: each table's result as the standings read it, and the
standings themselves (net or placings, byes, penalties, tie-breaks), pure functions of
the event and its tables' results."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
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
    won = dict.fromkeys(names, 0.0)
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
        top = max(nets.values(), default=0)
        leaders = [q for q in result.players if nets[q] == top]
        for p in result.players:
            score[p] += points[p]
            games[p] += 1
            boxes[p] += result.boxes_won.get(p, 0)
            if result.over and p in leaders:  # E6: a table won, shared by those level at the top
                won[p] += 1 / len(leaders)
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
        if pen.player in penalty and not pen.withdrawn:
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

"""Standings kept, not recomputed (issue 34): the difference one game makes.

An event's standings are each player's sums over the tables he played (score, games,
tables won, boxes won, and against whom he settled what), then byes, penalties and the
ranking. The sums are kept with the event (``store.kept``), and a write changes one
table: its result before and after give the difference (:func:`difference`), added to
the kept sums in the write's own transaction. :func:`ranked` makes the standings from
the sums, and :func:`scorekeeper.engine.event.standings` is :func:`ranked` of the sums
of every table (:func:`total`), so kept and fresh standings are one computation.

Every sum is a whole number: a score and a table won are counted in
:data:`SCALE`-ths (a place or a win shared by up to sixteen players is a whole number
of them), so adding a difference and taking it away again leaves the sums as they
were, to the point.
"""

from __future__ import annotations

import bisect
import operator
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, overload

from ..summary import Summary
from .entry import Count, EventEntry, Json, places_points
from .standings import Standing, TableResult

SCALE = 720720
"""The sums' unit is 1/SCALE of a point (the least common multiple of 1 to 16)."""

NO_BOX = "misdeal"
"""A misdeal is no box: not counted, and it neither makes nor breaks a run."""


class Counting(Protocol):
    """How a table's result counts (the event's ``standings`` and points by place)."""

    @property
    def standings(self) -> Count: ...

    def points_for_places(self, players: int) -> tuple[int, ...]: ...


@dataclass(frozen=True)
class Counted:
    """The counting of an event as the kept row stores it: net, or placing points
    (``placing_points``: the director's, empty for the default)."""

    standings: Count = "net"
    placing_points: tuple[int, ...] = ()

    def points_for_places(self, players: int) -> tuple[int, ...]:
        return places_points(self.placing_points, players)

    def to_json(self) -> dict[str, Json]:
        return {"standings": self.standings, "placing_points": list(self.placing_points)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Counted:
        return cls(data.get("standings", "net"), tuple(data.get("placing_points") or ()))


@dataclass(frozen=True)
class Line:
    """One player's sums: ``score`` and ``won`` in :data:`SCALE`-ths, games played,
    boxes won, and against each player met the sum of their nets' differences (twice
    the head-to-head score): what one has against another is the opposite of what the
    other has against him (a ranking made from the one before finds whose head to head
    a changed line may change by it)."""

    score: int = 0
    games: int = 0
    won: int = 0
    boxes: int = 0
    versus: Mapping[str, int] = field(default_factory=dict)

    def plus(self, other: Line, sign: int = 1) -> Line:
        versus = dict(self.versus)
        for q, owed in other.versus.items():
            versus[q] = versus.get(q, 0) + sign * owed
        return Line(
            self.score + sign * other.score,
            self.games + sign * other.games,
            self.won + sign * other.won,
            self.boxes + sign * other.boxes,
            versus,
        )

    @property
    def empty(self) -> bool:
        return not (self.score or self.games or self.won or self.boxes or any(self.versus.values()))

    def to_json(self) -> dict[str, Json]:
        return {
            "score": self.score,
            "games": self.games,
            "won": self.won,
            "boxes": self.boxes,
            "versus": dict(self.versus),
        }


@dataclass(frozen=True)
class Tally:
    """An event's sums (or one table's part of them, or a difference): each player's
    :class:`Line`, and each round's scores summed (in SCALE-ths) and counted (a bye
    scores the round's average)."""

    lines: Mapping[str, Line] = field(default_factory=dict)
    rounds: Mapping[int, tuple[int, int]] = field(default_factory=dict)

    def plus(self, other: Tally, sign: int = 1) -> Tally:
        lines = dict(self.lines)
        for p, line in other.lines.items():
            lines[p] = lines.get(p, Line()).plus(line, sign)
        rounds = dict(self.rounds)
        for number, (points, count) in other.rounds.items():
            was = rounds.get(number, (0, 0))
            rounds[number] = (was[0] + sign * points, was[1] + sign * count)
        return Tally(lines, rounds)

    def tidy(self) -> Tally:
        """The same sums without what is zero (a difference that cancels out)."""
        lines = {
            p: Line(line.score, line.games, line.won, line.boxes, {q: v for q, v in line.versus.items() if v})
            for p, line in self.lines.items()
            if not line.empty
        }
        return Tally(lines, {n: r for n, r in self.rounds.items() if r != (0, 0)})


def scaled_points(
    counting: Counting, result: TableResult, nets: Mapping[str, int], places: Mapping[str, float]
) -> dict[str, int]:
    """Each player's score from one table, in SCALE-ths (a shared place shares its
    places' points)."""
    if counting.standings == "net":
        return {p: v * SCALE for p, v in nets.items()}
    table = counting.points_for_places(len(result.players))
    points: dict[str, int] = {}
    for p, place in places.items():
        tied = [q for q, other in places.items() if other == place]
        first = int(place - (len(tied) - 1) / 2)  # the best of the shared places, from 1
        points[p] = sum(table[first - 1 : first - 1 + len(tied)]) * SCALE // len(tied)
    return points


def tally_of(counting: Counting, result: TableResult | None) -> Tally:
    """One table's part of the event's sums: nothing until it is started (a box
    played, or ended); then each player's score, a game, a share of the table won once
    it is over (E6: shared by those level at the top), boxes won and nets against the
    others."""
    if result is None or not result.started:
        return Tally()
    nets = result.nets()
    points = scaled_points(counting, result, nets, result.places(nets))
    top = max(nets.values(), default=0)
    leaders = [q for q in result.players if nets[q] == top]
    lines = {
        p: Line(
            points[p],
            1,
            SCALE // len(leaders) if result.over and p in leaders else 0,
            result.boxes_won.get(p, 0),
            {q: nets[p] - nets[q] for q in result.players if q != p},
        )
        for p in result.players
    }
    return Tally(lines, {result.round: (sum(points[p] for p in result.players), len(result.players))})


def difference(counting: Counting, before: TableResult | None, after: TableResult | None) -> Tally:
    """What one write to a table changes in the event's sums: its part after, less its
    part before (None: no such table, before its game or after it is gone)."""
    return tally_of(counting, after).plus(tally_of(counting, before), -1).tidy()


def total(counting: Counting, results: Iterable[TableResult]) -> Tally:
    """The event's sums over every table."""
    tally = Tally()
    for result in results:
        tally = tally.plus(tally_of(counting, result))
    return tally.tidy()


def result_of(round: int, table: int, game_id: str, players: Sequence[str], summary: object) -> TableResult:
    """What the standings read of one table's stored summary: the totals (final once
    over), boxes won, and each player's net from the settlement (while a game paid box
    by box plays, from its payments so far: K5)."""
    read = Summary.read(summary)
    record_ = read.record
    boxes = record_.boxes if record_ else ()
    won = Counter(box[1] for box in boxes if box[1] is not None and box[0] != NO_BOX)
    net: dict[str, int] = dict.fromkeys(players, 0)
    for payment in record_.settlement if record_ else ():
        net[payment["from"]] = net.get(payment["from"], 0) - payment["points"]
        net[payment["to"]] = net.get(payment["to"], 0) + payment["points"]
    over = read.game_over
    return TableResult(
        round,
        table,
        tuple(players),
        dict(read.standing_totals),
        dict(won),
        over,
        read.winner,
        net if over else {},
        read.boxes or 0,
        game_id,
        {} if over else dict(read.paid),
    )


def names_of(entrants: Sequence[str], results: Iterable[TableResult]) -> list[str]:
    """Everyone the standings list, in order: the entrants, then anyone else seated at
    a table (in the tables' order)."""
    names = list(entrants)
    known = set(names)
    for result in results:
        for p in result.players:
            if p not in known:
                names.append(p)
                known.add(p)
    return names


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
    names = names_of(event.entrants if players is None else players, results)
    return ranked(event, total(event, results), names, withdrawn=withdrawn)


_TIE_PLACE = {"won": 0, "boxes": 1, "head_to_head": 2}
"""Where each tie-break's value is in a player's ``(won, boxes, head to head)``."""

Key = tuple[float, ...]
"""A player's place in the order: the score, then the tie-breaks' values."""

EMPTY = Line()
"""The line of a player with no sums yet."""


def _picker(where: Sequence[int]) -> Callable[[tuple[float, ...]], tuple[float, ...]]:
    """The values at ``where``, as a tuple, from a player's ``(won, boxes, head to head)``.

    >>> _picker([2, 0])((1.5, 4, 0)), _picker([1])((1.5, 4, 0)), _picker([])((1.5, 4, 0))
    ((0, 1.5), (4,), ())
    """
    if len(where) > 1:
        return operator.itemgetter(*where)
    if where:
        only = where[0]
        return lambda values: (values[only],)
    return lambda values: ()


class RankedRows(Sequence[Standing]):
    """Standings as ranked: each place's line as last made for its values
    (``values``, its own rank then) and each place's rank now (``ranks``). A box moves
    the ranks of hundreds of lines of a 1,920-player evening and the values of a few;
    the drawings read the two (a line's drawing is found by its values line, its rank
    put in), so a new state makes no line for a new rank alone (issue 34). Read as a
    sequence, each line has its rank: made once, at the first read, a line moved to
    another rank made by :meth:`Standing.at_rank`. Equal to any sequence of the same
    lines."""

    __slots__ = ("_rows", "ranks", "values")

    def __init__(self, values: Sequence[Standing], ranks: Sequence[int]) -> None:
        self.values: tuple[Standing, ...] = tuple(values)
        self.ranks: tuple[int, ...] = tuple(ranks)
        self._rows: tuple[Standing, ...] | None = None

    @property
    def rows(self) -> tuple[Standing, ...]:
        """Each line with its rank (made once: threads may make it twice, alike)."""
        rows = self._rows
        if rows is None:
            pairs = zip(self.values, self.ranks, strict=True)
            rows = self._rows = tuple(s if s.rank == rank else s.at_rank(rank) for s, rank in pairs)
        return rows

    def __len__(self) -> int:
        return len(self.ranks)

    @overload
    def __getitem__(self, index: int) -> Standing: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Standing, ...]: ...

    def __getitem__(self, index: int | slice) -> Standing | tuple[Standing, ...]:
        return self.rows[index]

    def __iter__(self) -> Iterator[Standing]:
        return iter(self.rows)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RankedRows):
            return self.rows == other.rows
        if isinstance(other, Sequence) and not isinstance(other, str):
            return self.rows == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RankedRows({self.rows!r})"


def values_and_ranks(rows: Sequence[Standing]) -> tuple[Sequence[Standing], Sequence[int]]:
    """Each place's values line (:attr:`Standing.values_line`) and its rank, from
    standings as ranked, without making a line for a rank alone (:class:`RankedRows`).

    >>> moved = Standing(2, "Ann", 12.0).at_rank(1)
    >>> values, ranks = values_and_ranks((moved,))
    >>> values[0] is moved.origin, ranks
    (True, [1])
    """
    if isinstance(rows, RankedRows):
        return rows.values, rows.ranks
    return [s.values_line for s in rows], [s.rank for s in rows]


@dataclass(frozen=True)
class Ranking:
    """Standings as ranked (``rows``), with what the next ranking of the same event is
    made from (issue 34: a box at a 300-table evening changes the lines of three of its
    900 players, and ranking them all again took 4 ms for every new state). Nothing here
    is changed once made: the next ranking copies what it changes."""

    rows: RankedRows
    event: EventEntry
    names: tuple[str, ...]
    withdrawn: frozenset[str]
    lines: Mapping[str, Line]
    """The lines ranked (a copy of the tally's): a line that is the same object did not
    change."""
    extras: Mapping[str, tuple[float, ...]]
    """What each player's byes add and penalties take away, in the order added."""
    plain: Mapping[str, Key]
    """Each player's key with head to head as 0."""
    final: Mapping[str, Key]
    """Each player's key as ordered (head to head in it)."""
    order: tuple[str, ...]
    index: Mapping[str, int]
    """Each player's place in ``names`` (the order of players level on everything)."""
    by_player: Mapping[str, Standing]
    """Each player's values line (its rank as when it was made)."""


def ranked(
    event: EventEntry, tally: Tally, names: Sequence[str], *, withdrawn: Sequence[str] = ()
) -> tuple[Standing, ...]:
    """The standings from the event's sums (kept, or :func:`total` of its tables):
    byes and penalties as the event says, ranked by score, then the tie-breaks in the
    event's order (head to head counts only against players level so far)."""
    return ranking(event, tally, names, withdrawn=withdrawn).rows.rows


def ranking(
    event: EventEntry,
    tally: Tally,
    names: Sequence[str],
    *,
    withdrawn: Sequence[str] = (),
    before: Ranking | None = None,
    touched: Collection[str] | None = None,
) -> Ranking:
    """:func:`ranked`'s standings with what the next ranking is made from; made from
    ``before`` (the ranking of the same event's sums before a write) when the entry,
    the players and the withdrawn are the same: only the players whose lines, byes or
    penalties changed (and those they met, whose head to head may have changed)
    are placed again, and a line whose values did not change keeps its values line
    (:class:`RankedRows`: a new rank alone makes no line). ``touched``: the players
    whose lines in ``tally`` may be other objects than in ``before``'s (None: any
    player's)."""
    names = tuple(names)
    gone = frozenset(withdrawn)
    extras, byes, penalty = _extras(event, tally, names)
    if (
        before is not None
        and before.event is event
        and before.names == names
        and before.withdrawn == gone
        and len(before.index) == len(names)
    ):
        return _placed_again(before, tally, extras, byes, penalty, touched)
    lines = {p: tally.lines.get(p, EMPTY) for p in names}
    score = {p: line.score / SCALE for p, line in lines.items()}
    for p, added in extras.items():  # as _score adds them
        for extra in added:
            score[p] += extra
    # Each player's key is made once, as _plain_key makes it (issue 34: 900 players
    # ranked for a 300-table evening's first state).
    where = [_TIE_PLACE[tie] for tie in event.tie_breaks]
    pick = _picker(where)
    plain = {p: (round(score[p], 6), *pick((line.won / SCALE, line.boxes, 0))) for p, line in lines.items()}
    level = Counter(plain.values())
    h2h = dict.fromkeys(names, 0.0)  # shown, if not a tie-break
    for p, key in plain.items():  # only pairs that met: level ones count
        if level[key] > 1:
            h2h[p] = _head_to_head(lines[p], key, plain)
    final = dict(plain)
    if 2 in where:
        final.update((p, _final_key(plain[p], value, where)) for p, value in h2h.items() if value)
    # Stable, as sorting the negated keys was: players level on everything keep the
    # order of ``names``.
    order = tuple(sorted(names, key=final.__getitem__, reverse=True))
    rows: list[Standing] = []
    rank, above = 0, None
    for place, p in enumerate(order, start=1):
        if final[p] != above:  # level with the line above: its rank
            rank, above = place, final[p]
        line = lines[p]
        rows.append(
            Standing(
                rank,
                p,
                score[p],
                line.games,
                line.won / SCALE,
                line.boxes,
                byes.get(p, 0),
                penalty.get(p, 0),
                h2h[p],
                p in gone,
            )
        )
    return Ranking(
        RankedRows(rows, [s.rank for s in rows]),
        event,
        names,
        gone,
        dict(tally.lines),
        extras,
        plain,
        final,
        order,
        {p: n for n, p in enumerate(names)},
        {s.player: s for s in rows},
    )


def _extras(
    event: EventEntry, tally: Tally, names: Sequence[str]
) -> tuple[dict[str, tuple[float, ...]], Counter[str], Counter[str]]:
    """What the byes add to each player's score (as the event scores a bye: the round's
    average, or points) and the penalties take away, in that order; each player's byes
    and penalty points."""
    known = set(names)
    extras: dict[str, tuple[float, ...]] = {}
    byes: Counter[str] = Counter()
    penalty: Counter[str] = Counter()
    for seating in event.seating:
        for p in seating.byes:
            if p not in known:
                continue
            byes[p] += 1
            if event.bye == "average":
                points, count = tally.rounds.get(seating.round, (0, 0))
                extras[p] = (*extras.get(p, ()), points / count / SCALE if count else 0)
            else:
                extras[p] = (*extras.get(p, ()), event.bye)
    for pen in event.penalties:
        if pen.player in known and not pen.withdrawn:
            penalty[pen.player] += pen.points
            extras[pen.player] = (*extras.get(pen.player, ()), -pen.points)
    return extras, byes, penalty


def _score(line: Line, extras: tuple[float, ...] | None) -> float:
    score = line.score / SCALE
    for extra in extras or ():
        score += extra
    return score


def _plain_key(line: Line, extras: tuple[float, ...] | None, where: Sequence[int]) -> Key:
    """A player's key, head to head as 0 until the players level on all of it so far
    are known."""
    values = (line.won / SCALE, line.boxes, 0)
    return (round(_score(line, extras), 6), *(values[w] for w in where))


def _head_to_head(line: Line, key: Key, plain: Mapping[str, Key]) -> float:
    """A player's score against those level with him on ``key``, the plain keys."""
    h2h = 0.0
    for q, owed in line.versus.items():
        if plain.get(q) == key:
            h2h += owed / 2
    return h2h


def _final_key(plain: Key, h2h: float, where: Sequence[int]) -> Key:
    if not h2h or 2 not in where:  # head to head 0, or not a tie-break: the plain key
        return plain
    return tuple(round(h2h, 6) if w == 2 else k for w, k in zip((-1, *where), plain, strict=True))


def _standing(
    rank: int,
    p: str,
    line: Line,
    extras: tuple[float, ...] | None,
    byes: int,
    penalty: int,
    h2h: float,
    gone: frozenset[str],
) -> Standing:
    return Standing(
        rank, p, _score(line, extras), line.games, line.won / SCALE, line.boxes, byes, penalty, h2h, p in gone
    )


def _placed_again(
    before: Ranking,
    tally: Tally,
    extras: dict[str, tuple[float, ...]],
    byes: Counter[str],
    penalty: Counter[str],
    touched: Collection[str] | None,
) -> Ranking:
    """The ranking after ``before`` with only what changed placed again (see
    :func:`ranking`)."""
    was = before.lines
    index = before.index
    maybe = before.names if touched is None else [p for p in touched if p in index]
    changed = {p for p in maybe if tally.lines.get(p) is not was.get(p)}
    changed |= {p for p in extras.keys() | before.extras.keys() if extras.get(p) != before.extras.get(p)}
    event = before.event
    where = [_TIE_PLACE[tie] for tie in event.tie_breaks]
    plain = dict(before.plain)
    met: set[str] = set()
    for p in changed:
        line = tally.lines.get(p, EMPTY)
        plain[p] = _plain_key(line, extras.get(p), where)
        met.update(line.versus, was.get(p, EMPTY).versus)
    # Whose head to head may have changed: a player's is his score against those he
    # met who are level with him, so the changed players' and those they met.
    again = changed | {p for p in met if p in plain}
    final = dict(before.final)
    h2h: dict[str, float] = {}
    for p in again:
        h2h[p] = _head_to_head(tally.lines.get(p, EMPTY), plain[p], plain)
        final[p] = _final_key(plain[p], h2h[p], where)
    moved = [p for p in again if final[p] != before.final[p]]
    old = before.by_player
    # whose values changed: a player who met a changed one may keep his head to head
    revalued = changed | {p for p in again if h2h[p] != old[p].head_to_head}

    def placed(keys: Mapping[str, Key]) -> Callable[[str], tuple[Key, int]]:
        """Where a player is in the order read from its end: players level on
        everything in the order of ``names``."""
        return lambda p: (keys[p], -index[p])

    ascending = list(reversed(before.order))
    was_at = placed(before.final)
    left = []
    for p in moved:
        at = bisect.bisect_left(ascending, was_at(p), key=was_at)
        assert ascending[at] == p
        left.append(at)
    for at in sorted(left, reverse=True):  # the others keep their keys: the order stays sorted
        del ascending[at]
    now_at = placed(final)
    for p in moved:
        bisect.insort(ascending, p, key=now_at)
    order = ascending[::-1]
    last = len(order) - 1
    entered = [bisect.bisect_left(ascending, now_at(p), key=now_at) for p in moved]
    # Only the places from the highest a moved line left or entered to the lowest
    # have other lines (their ranks are made again), and the lines level with the
    # last of them (whose shared rank may have changed); every other line keeps its
    # place and rank (issue 34: a pass over every line of a 1,920-player evening was
    # most of a new state's cost). A line keeps its values line when only its rank
    # changed: the ranks are kept beside the lines.
    values = list(before.rows.values)
    ranks = list(before.rows.ranks)
    gone = before.withdrawn
    by_player = dict(old)
    place = top = last - max(left + entered, default=-1)
    lowest = last - min(left + entered, default=last + 1)
    rank, above = (ranks[top - 1], final[order[top - 1]]) if top else (0, None)
    while place <= last:
        p = order[place]
        key = final[p]
        if key != above:  # level with the line above: its rank
            rank, above = place + 1, key
        if place > lowest and rank == ranks[place]:  # below: as before
            break
        if p in revalued:
            line = tally.lines.get(p, EMPTY)
            by_player[p] = _standing(rank, p, line, extras.get(p), byes[p], penalty[p], h2h[p], gone)
        values[place] = by_player[p]
        ranks[place] = rank
        place += 1
    for p in revalued:  # a line with new values in its old place and rank
        at = last - bisect.bisect_left(ascending, now_at(p), key=now_at)
        if not top <= at < place:
            assert values[at].player == p
            line = tally.lines.get(p, EMPTY)
            values[at] = by_player[p] = _standing(
                ranks[at], p, line, extras.get(p), byes[p], penalty[p], h2h[p], gone
            )
    return Ranking(
        RankedRows(values, ranks),
        event,
        before.names,
        gone,
        dict(tally.lines),
        extras,
        plain,
        final,
        tuple(order),
        index,
        by_player,
    )


__all__ = [
    "NO_BOX",
    "SCALE",
    "Counted",
    "Counting",
    "Line",
    "RankedRows",
    "Ranking",
    "Tally",
    "difference",
    "names_of",
    "ranked",
    "ranking",
    "result_of",
    "scaled_points",
    "standings",
    "tally_of",
    "total",
    "values_and_ranks",
]

"""A season's ladder (RULES.md E8), as a pure function of its evenings' standings.

Each evening is an event's standings, its players already named as the club's members.
An evening scores a member either his event score (``net``, E1) or placings points (by
default the first of the evening scores as many points as there were players, down to 1
for the last; players level on score share the points of the places they cover). The
ladder counts the sum over every evening, or over the best ``best`` of them, or the
average per evening played; a member needs ``min_evenings`` to be ranked; ties are broken
as E1 breaks them (tables won, then boxes won), then shared.

An evening's standings name players as the evening typed them; :func:`of_members` names
them as the club's members. A member the evening lists under two names (two spellings
linked to one member) is one person who played one evening: counted once, the two lines
added, placed among the evening's people (see :func:`of_members`).

>>> first = Evening("e1", (Standing(1, "ann", 30, won=2), Standing(2, "bob", -10), Standing(3, "cal", -20)))
>>> second = Evening("e2", (Standing(1, "bob", 25, won=1), Standing(2, "ann", 5), Standing(3, "cal", -30)))
>>> [(line.rank, line.member, line.points, line.moved) for line in ladder([first, second], Ladder())]
[(1, 'ann', 35, 0), (2, 'bob', 15, 0), (3, 'cal', -50, 0)]
>>> [(line.rank, line.member, line.points) for line in ladder([first, second], Ladder("placings"))]
[(1, 'ann', 5), (2, 'bob', 5), (3, 'cal', 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import MalformedError
from .event import Standing as EventStanding

Count = Literal["net", "average", "placings"]
COUNTS: tuple[Count, ...] = ("net", "average", "placings")


@dataclass(frozen=True)
class Ladder:
    """How a season counts (CONTRACT.md ``ladder``): ``count`` is ``net`` (the sum of
    evening scores), ``average`` (net per evening played) or ``placings`` (points by
    place each evening); ``best`` of ``of``: only the member's best ``best`` evenings
    count (None: every one); ``min_evenings`` to be ranked."""

    count: Count = "net"
    best: int | None = None
    of: int | None = None
    min_evenings: int = 0

    def __post_init__(self) -> None:
        if self.count not in COUNTS:
            raise MalformedError(
                f"ladder.count is net, average or placings, not {self.count!r}", "ladder.count"
            )
        if self.best is not None and self.best < 1:
            raise MalformedError(f"ladder.best is 1 or more, not {self.best}", "ladder.best")
        if self.min_evenings < 0:
            raise MalformedError("ladder.min_evenings is 0 or more", "ladder.min_evenings")


@dataclass(frozen=True)
class Standing:
    """A member's line of one evening's standings: rank, member, score (E1 or E2),
    tables won and boxes won."""

    rank: int
    member: str
    score: float
    won: float = 0
    boxes: int = 0
    name: str = ""
    """How the ladder shows the member (the roster's name; a guest's, as typed)."""
    guest: bool = False
    """A name the roster does not know yet."""
    played_as: tuple[str, ...] = ()
    """The names the evening's standings list the member under."""


Who = Callable[[str], tuple[str, str, bool]]
"""Who an entrant's name is in the club: (member key, name shown, a member?)."""


def of_members(event: str, standings: Sequence[EventStanding], who: Who) -> Evening:
    """An evening's standings (in rank order) as the club's members: each line named by
    the member its player is (a guest keeps his name).

    A member listed under two names in one evening (the director entered "Ann" and, in a
    later round, "Annie"; or the owner linked a nickname that played) is one person who
    played one evening: it counts once toward the evenings played, and its figures are
    the sum of its lines (the net or placings points every game paid that person, tables
    and boxes won). The evening then places its people, not its names: by score, then as
    the event ranked their best line (so an evening with no such member keeps the
    event's ranks, tie-breaks and all), and placings points (E8) count as many players as
    there were people.

    >>> lines = (EventStanding(1, "Ann", 30, 2, 1), EventStanding(2, "Bob", 10, 2),
    ...          EventStanding(3, "Annie", -5, 1), EventStanding(4, "Cal", -35, 3))
    >>> who = lambda p: ("m1", "Ann Lee", True) if p.startswith("Ann") else (p.lower(), p, False)
    >>> [(s.rank, s.member, s.score, s.played_as) for s in of_members("e1", lines, who).standings]
    [(1, 'm1', 25, ('Ann', 'Annie')), (2, 'bob', 10, ('Bob',)), (3, 'cal', -35, ('Cal',))]
    """
    lines: dict[str, list[EventStanding]] = {}
    shown: dict[str, tuple[str, bool]] = {}
    for s in standings:
        key, name, member = who(s.player)
        found = lines.get(key)
        if found is None:
            lines[key] = [s]
            shown[key] = (name, member)
        else:
            found.append(s)
    people: list[tuple[float, int, str, float, int, tuple[str, ...]]] = []
    for key, mine in lines.items():  # (score, best rank, member, won, boxes, names)
        if len(mine) == 1:
            one = mine[0]
            people.append((one.score, one.rank, key, one.won, one.boxes, (one.player,)))
        else:
            people.append(
                (
                    round(sum(s.score for s in mine), 9),
                    min(s.rank for s in mine),
                    key,
                    round(sum(s.won for s in mine), 9),
                    sum(s.boxes for s in mine),
                    tuple(s.player for s in mine),
                )
            )
    people.sort(key=lambda person: (-person[0], person[1]))  # in the event's order already, but one
    placed: list[Standing] = []
    rank, last = 0, None
    for i, (score, best, key, won, boxes, names) in enumerate(people, start=1):
        if (score, best) != last:
            rank, last = i, (score, best)
        name, member = shown[key]
        placed.append(Standing(rank, key, score, won, boxes, name, not member, names))
    return Evening(event, tuple(placed))


@dataclass(frozen=True)
class Evening:
    """One evening of the season: its event and its standings by member."""

    event: str
    standings: tuple[Standing, ...]


@dataclass(frozen=True)
class Line:
    """A member's line of the ladder: ``points`` by the season's count, the evenings
    played, each evening's contribution (event, points, counted among the best),
    ``ranked`` once the member played the minimum, and ``moved``: places gained (+)
    or lost (-) since the ladder before the latest evening (0 for a newcomer)."""

    rank: int
    member: str
    points: float
    evenings: int
    ranked: bool
    won: float
    boxes: int
    contributions: tuple[tuple[str, float, bool], ...]
    moved: int = 0


def evening_points(evening: Evening, count: Count) -> dict[str, float]:
    """What an evening scores each member: the event score, or placings points (the
    first of n players n points down to 1, players level on score sharing theirs)."""
    if count != "placings":
        return {s.member: s.score for s in evening.standings}
    order = sorted(evening.standings, key=lambda s: -s.score)
    n = len(order)
    points: dict[str, float] = {}
    i = 0
    while i < n:
        j = i
        while j + 1 < n and order[j + 1].score == order[i].score:
            j += 1
        shared = sum(n - k for k in range(i, j + 1)) / (j - i + 1)
        for s in order[i : j + 1]:
            points[s.member] = shared
        i = j + 1
    return points


def ladder(evenings: Sequence[Evening], rules: Ladder) -> tuple[Line, ...]:
    """The ladder after ``evenings`` (in play order), with each line's movement since
    the ladder before the last evening."""
    now = _ranked(evenings, rules)
    before = (
        {line[1]: line[0] for line in _ranked(evenings[:-1], rules) if line[4]} if len(evenings) > 1 else {}
    )
    return tuple(
        Line(
            rank,
            member,
            points,
            played,
            ranked,
            won,
            boxes,
            contributions,
            before[member] - rank if ranked and member in before else 0,
        )
        for rank, member, points, played, ranked, won, boxes, contributions in now
    )


_Ranked = tuple[int, str, float, int, bool, float, int, tuple[tuple[str, float, bool], ...]]
"""A line before it is a :class:`Line`: rank, member, points, evenings, ranked, tables
won, boxes won, contributions."""


def _ranked(evenings: Sequence[Evening], rules: Ladder) -> list[_Ranked]:
    """Every member's line, ranked: by points, tables won and boxes won (members level
    on all three share a rank); a member below the minimum of evenings is listed
    unranked (rank 0), after the ranked ones."""
    played: dict[str, list[tuple[str, float]]] = {}
    won: dict[str, float] = {}
    boxes: dict[str, int] = {}
    for evening in evenings:
        points = evening_points(evening, rules.count)
        for s in evening.standings:
            member = s.member
            found = played.get(member)
            if found is None:
                played[member] = [(evening.event, points[member])]
                won[member], boxes[member] = s.won, s.boxes
            else:
                found.append((evening.event, points[member]))
                won[member] += s.won
                boxes[member] += s.boxes
    lines: list[_Ranked] = []
    for member, scores in played.items():
        counted = _counted(scores, rules.best)
        total = sum(p for i, (_, p) in enumerate(scores) if counted is None or i in counted)
        n = len(scores) if counted is None else len(counted)
        figure = total / n if rules.count == "average" and n else total
        contributions = tuple(
            (event, p, counted is None or i in counted) for i, (event, p) in enumerate(scores)
        )
        ranked = len(scores) >= rules.min_evenings
        lines.append(
            (0, member, _number(figure), len(scores), ranked, won[member], boxes[member], contributions)
        )
    lines.sort(key=lambda line: (not line[4], -line[2], -line[5], -line[6], line[1]))
    out: list[_Ranked] = []
    rank, last, seen = 0, None, 0
    for line in lines:
        if not line[4]:
            out.append(line)
            continue
        seen += 1
        key = (line[2], line[5], line[6])
        if key != last:
            rank, last = seen, key
        out.append((rank, *line[1:]))
    return out


def _number(value: float) -> float:
    """A figure as shown: whole when it is, else to two places."""
    value = round(value, 2)
    return int(value) if value == int(value) else value


def _counted(scores: Sequence[tuple[str, float]], best: int | None) -> set[int] | None:
    """The evenings that count: every one (None), or the best ``best`` (the earlier of
    equals)."""
    if best is None or best >= len(scores):
        return None
    order = sorted(range(len(scores)), key=lambda i: (-scores[i][1], i))
    return set(order[:best])


COUNT_WORDS: dict[str, str] = {"net": "total net", "average": "average net", "placings": "placings points"}


def counting_words(data: Mapping[str, object]) -> str:
    """A season's counting (CONTRACT.md ``ladder``) in a few words, as its history says it.

    >>> counting_words({"count": "placings", "best": 3, "min_evenings": 2})
    'placings points, the best 3 evenings, 2 evenings to be ranked'
    >>> counting_words({"count": "net", "min_evenings": 0})
    'total net, every evening'
    """
    said = [COUNT_WORDS.get(str(data.get("count", "net")), str(data.get("count"))[:20])]
    best, of, least = data.get("best"), data.get("of"), data.get("min_evenings")
    said.append(f"the best {best}" + (f" of {of}" if of else "") + " evenings" if best else "every evening")
    if least:
        said.append(f"{least} evenings to be ranked")
    return ", ".join(said)


def from_json(data: Mapping[str, object]) -> Ladder:
    """A season's ``ladder`` as CONTRACT.md gives it."""
    count = data.get("count", "net")
    best, of, least = data.get("best"), data.get("of"), data.get("min_evenings", 0)
    for name, value in (("best", best), ("of", of), ("min_evenings", least)):
        if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
            raise MalformedError(f"ladder.{name} is a whole number", f"ladder.{name}")
    if not isinstance(count, str):
        raise MalformedError("ladder.count is net, average or placings", "ladder.count")
    return Ladder(count, best, of, least)  # type: ignore[arg-type]


__all__ = [
    "COUNTS",
    "COUNT_WORDS",
    "Evening",
    "Ladder",
    "Line",
    "Standing",
    "Who",
    "counting_words",
    "evening_points",
    "from_json",
    "ladder",
    "of_members",
]

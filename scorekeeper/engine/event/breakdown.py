"""How each player's event score is made, line by line, so a results sheet on the wall
settles the evening: every table's points (the player's net, or placing points, in that
round, never the game's totals), every bye and what it scored (E3), every penalty with
its note (E4; a withdrawn one kept, taking nothing off). The lines of a player add up to
his standing's score: they are read from the same results the standings are.

>>> from .standings import TableResult
>>> event = EventEntry("x", ("Ann", "Bob", "Cal"), table_size=2, rules="gin",
...                    seating=(Seating(1, (("Ann", "Bob"),), ("Cal",)),),
...                    penalties=(Penalty("Ann", 5, "slow play"),))
>>> results = [TableResult(1, 1, ("Ann", "Bob"), {"Ann": 120, "Bob": 40}, {"Ann": 3},
...                        True, "Ann", {"Ann": 80, "Bob": -80})]
>>> [(l.kind, l.points, l.words()) for l in score_lines(event, results)["Ann"]]
[('table', 80.0, 'round 1, table 1: +80'), ('penalty', -5.0, 'penalty 5: slow play')]
>>> [l.words() for l in score_lines(event, results)["Cal"]]
['round 1, bye: 0 (the round’s average)']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .entry import EventEntry, Penalty, Seating
from .standings import TableResult, table_points


@dataclass(frozen=True)
class ScoreLine:
    """One line of a player's score: a table played (``table``), a bye (``bye``) or a
    penalty (``penalty``); ``points`` is what it adds (a withdrawn penalty adds 0)."""

    kind: str
    round: int | None
    points: float
    table: int | None = None
    note: str = ""
    withdrawn: bool = False
    penalty: int = 0
    """A penalty's points as the director gave them."""
    how: str = ""
    """How a bye scored: "the round’s average", "a bye scores 0", "a bye scores 50"."""

    def words(self) -> str:
        """The line as the results sheet says it."""
        if self.kind == "table":
            return f"round {self.round}, table {self.table}: {signed(self.points)}"
        if self.kind == "bye":
            return f"round {self.round}, bye: {number(self.points)} ({self.how})"
        back = " (withdrawn: takes nothing off)" if self.withdrawn else ""
        return f"penalty {self.penalty}{back}: {self.note}"

    def to_json(self) -> dict[str, object]:
        body: dict[str, object] = {"kind": self.kind, "round": self.round, "points": _plain(self.points)}
        if self.table is not None:
            body["table"] = self.table
        if self.kind == "penalty":
            body |= {"penalty": self.penalty, "note": self.note, "withdrawn": self.withdrawn}
        if self.how:
            body["how"] = self.how
        body["text"] = self.words()
        return body


def score_lines(event: EventEntry, results: Sequence[TableResult]) -> dict[str, list[ScoreLine]]:
    """Every player's lines in round order, then the penalties: what the standings add
    (:func:`.standings.standings`), one line per thing added."""
    lines: dict[str, list[ScoreLine]] = {}
    per_round: dict[int, list[float]] = {}
    for result in sorted(results, key=lambda r: (r.round, r.table)):
        if not result.started:
            continue
        points = table_points(event, result)
        for p in result.players:
            lines.setdefault(p, []).append(ScoreLine("table", result.round, points[p], result.table))
            per_round.setdefault(result.round, []).append(points[p])
    for seating in sorted(event.seating, key=lambda s: s.round):
        for p in seating.byes:
            lines.setdefault(p, []).append(_bye(event, seating, per_round.get(seating.round, [])))
    for p in lines:
        lines[p].sort(key=lambda line: (line.round or 0, line.table or 0))
    for pen in event.penalties:
        lines.setdefault(pen.player, []).append(_penalty(pen))
    return lines


def _bye(event: EventEntry, seating: Seating, played: Sequence[float]) -> ScoreLine:
    if event.bye == "average":
        average = sum(played) / len(played) if played else 0
        return ScoreLine("bye", seating.round, average, how="the round’s average")
    return ScoreLine("bye", seating.round, float(event.bye), how=f"a bye scores {number(event.bye)}")


def _penalty(pen: Penalty) -> ScoreLine:
    return ScoreLine(
        "penalty",
        pen.round,
        0.0 if pen.withdrawn else -float(pen.points),
        note=pen.note,
        withdrawn=pen.withdrawn,
        penalty=pen.points,
    )


def who_pays(results: Sequence[TableResult], stake: float) -> tuple[tuple[str, str, float], ...]:
    """With a stake, who pays whom at the end of the evening: each player's money is his
    settlements at every table (byes and penalties are no one's money) times the stake,
    settled in the fewest payments, the biggest debt to the biggest credit first.

    >>> r = TableResult(1, 1, ("Ann", "Bob", "Cal"), {}, {}, True, "Ann",
    ...                 {"Ann": 80, "Bob": -50, "Cal": -30})
    >>> who_pays([r], 0.05)
    (('Bob', 'Ann', 2.5), ('Cal', 'Ann', 1.5))
    """
    money: dict[str, float] = {}
    for result in results:
        if result.started:
            for p, net in result.nets().items():
                money[p] = money.get(p, 0) + net * stake
    left = dict(money)
    owing = sorted((p for p, v in money.items() if v < -0.004), key=lambda p: (money[p], p))
    owed = sorted((p for p, v in money.items() if v > 0.004), key=lambda p: (-money[p], p))
    pays: list[tuple[str, str, float]] = []
    i = j = 0
    while i < len(owing) and j < len(owed):
        payer, payee = owing[i], owed[j]
        amount = min(-left[payer], left[payee])
        pays.append((payer, payee, round(amount, 2)))
        left[payer] += amount
        left[payee] -= amount
        i += -left[payer] < 0.005
        j += left[payee] < 0.005
    return tuple(pays)


def total(lines: Sequence[ScoreLine]) -> float:
    """What the lines add up to: the player's score."""
    return sum(line.points for line in lines)


def number(value: float) -> str:
    """A score as printed: whole numbers plain, others to two decimals."""
    plain = _plain(value)
    return str(plain)


def signed(value: float) -> str:
    shown = number(value)
    return shown if shown.startswith("-") else f"+{shown}"


def _plain(value: float) -> int | float:
    return int(value) if float(value).is_integer() else round(value, 2)


__all__ = ["ScoreLine", "number", "score_lines", "signed", "total", "who_pays"]

"""A substitute in a game under way (RULES.md E5): who plays a seat from which box, and
for whom the seat's result counts.

A game's players are the names its boxes are scored under; a substitute does not rename
the seat (every box before and after is the seat's, and the game scores as it would
have), it is data on the game that the sheet, the paper, the exports and the standings
read: the seat's player from box ``from_box`` on is ``by``, and the seat's result counts
for ``counts_for`` (the seat's entrant unless the director names the substitute).

>>> sub = Substitute.from_json({"seat": "Bob", "by": "Zed", "from_box": 3})
>>> sub, sub.counts_for
(Substitute(seat='Bob', by='Zed', from_box=3, counts_for='Bob'), 'Bob')
>>> sub.words(), sub.to_json()["counts_for"]
('from box 3, Zed for Bob', 'Bob')
>>> counted_for(("Ann", "Bob"), [Substitute("Bob", "Zed", 3, "Zed")])
{'Ann': 'Ann', 'Bob': 'Zed'}
>>> playing(("Ann", "Bob"), [sub], 2), playing(("Ann", "Bob"), [sub], 3)
(('Ann', 'Bob'), ('Ann', 'Zed'))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import MalformedError
from .event.standings import TableResult


@dataclass(frozen=True)
class Substitute:
    """``by`` plays ``seat`` (the name the game's boxes are scored under) from box
    ``from_box`` on; the seat's result counts for ``counts_for``."""

    seat: str
    by: str
    from_box: int
    counts_for: str = ""

    def __post_init__(self) -> None:
        if not self.counts_for:
            object.__setattr__(self, "counts_for", self.seat)
        if self.counts_for not in (self.seat, self.by):
            raise MalformedError(
                f"the seat's result counts for {self.seat} or {self.by}, not {self.counts_for}", "counts_for"
            )
        if self.from_box < 1:
            raise MalformedError(f"a substitute plays from box 1 on, not {self.from_box}", "from_box")

    def words(self, deal: str = "box") -> str:
        """The change as the sheet marks it: "from box 3, Zed for Bob"."""
        return f"from {deal} {self.from_box}, {self.by} for {self.seat}"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": self.by, "from_box": self.from_box, "counts_for": self.counts_for}

    @classmethod
    def from_json(cls, data: object, where: str = "substitutes") -> Substitute:
        if not isinstance(data, Mapping):
            raise MalformedError("a substitute is an object with seat, by and from_box", where)
        seat, by, first = data.get("seat"), data.get("by"), data.get("from_box")
        counts = data.get("counts_for") or ""
        if not isinstance(seat, str) or not isinstance(by, str) or not isinstance(counts, str):
            raise MalformedError("a substitute's seat, by and counts_for are names", where)
        if not isinstance(first, int) or isinstance(first, bool):
            raise MalformedError("a substitute's from_box is a box number", f"{where}.from_box")
        return cls(seat, by, first, counts)


def read_substitutes(data: object) -> tuple[Substitute, ...]:
    """The substitutes a game stores (none for a game stored before them)."""
    if not isinstance(data, Sequence) or isinstance(data, str):
        return ()
    return tuple(Substitute.from_json(each, f"substitutes[{i}]") for i, each in enumerate(data))


def counted_for(players: Sequence[str], substitutes: Iterable[Substitute]) -> dict[str, str]:
    """Each seat and the player its result counts for (the seat's own name unless the
    director named the substitute)."""
    counts = {p: p for p in players}
    for sub in substitutes:
        if sub.seat in counts:
            counts[sub.seat] = sub.counts_for
    return counts


def playing(players: Sequence[str], substitutes: Iterable[Substitute], box: int) -> tuple[str, ...]:
    """Who plays each seat at box ``box`` (1 first)."""
    now = {sub.seat: sub.by for sub in sorted(substitutes, key=lambda s: s.from_box) if sub.from_box <= box}
    return tuple(now.get(p, p) for p in players)


def as_seats(box: Mapping[str, Any], substitutes: Iterable[Substitute]) -> dict[str, Any]:
    """A box as CONTRACT.md sends it, with each substitute's name put back to the seat
    he plays (the game's boxes are scored under the seats): a table phone may name the
    substitute who knocked, or give his hand under his own name.

    >>> box = as_seats({"by": "Zed", "hands": {"Zed": {"count": 3},
    ...                 "Ann": {"count": 9, "layoffs": [{"card": "4S", "onto": "Zed"}]}}},
    ...                [Substitute("Bob", "Zed", 2)])
    >>> box["by"], list(box["hands"]), box["hands"]["Ann"]["layoffs"]
    ('Bob', ['Bob', 'Ann'], [{'card': '4S', 'onto': 'Bob'}])
    """
    seats = {sub.by: sub.seat for sub in substitutes}
    if not seats:
        return dict(box)

    def seat(name: object) -> object:
        return seats.get(name, name) if isinstance(name, str) else name

    out = {k: seat(v) if k in ("by", "breaker", "double_refused") else v for k, v in box.items()}
    hands = box.get("hands")
    if isinstance(hands, Mapping):
        out["hands"] = {str(seat(name)): _hand(hand, seat) for name, hand in hands.items()}
    return out


def _hand(hand: object, seat: Any) -> object:
    if not isinstance(hand, Mapping) or not isinstance(hand.get("layoffs"), list):
        return hand
    layoffs = [
        {**lay, "onto": seat(lay.get("onto"))} if isinstance(lay, Mapping) else lay for lay in hand["layoffs"]
    ]
    return {**hand, "layoffs": layoffs}


def counted(result: TableResult, substitutes: Sequence[Substitute]) -> TableResult:
    """The result with each seat under the player it counts for (E5): the seat's own
    name unless the director named its substitute."""
    if not substitutes:  # the result itself (read for every table of every new state)
        return result
    names = counted_for(result.players, substitutes)
    if all(seat == name for seat, name in names.items()):
        return result

    def renamed(values: Mapping[str, int]) -> dict[str, int]:
        return {names.get(p, p): v for p, v in values.items()}

    return dataclasses.replace(
        result,
        players=tuple(names[p] for p in result.players),
        totals=renamed(result.totals),
        boxes_won=renamed(result.boxes_won),
        winner=names.get(result.winner, result.winner) if result.winner else None,
        net=renamed(result.net),
        paid=renamed(result.paid),
    )


__all__ = ["Substitute", "as_seats", "counted", "counted_for", "playing", "read_substitutes"]

"""Seats, the first dealer and who plays first (J1, J2, J3, G1).

Scarne's cut for Jersey Gin (J1): each player cuts one card; the high card
deals first and chooses his seat; equal ranks cut again. In every game the
player at the dealer's left plays first (J3, G1) and the deal passes to the
left (J2): here "left" is the next name in the seating list.

>>> result = cut_for_deal({"Ann": "7H", "Bob": "KD", "Cal": "2C"})
>>> result.dealer, result.recut
('Bob', ())
>>> eldest(("Ann", "Bob", "Cal"), "Cal")
'Ann'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import RANK_NAMES, read_card
from .errors import DuplicateCardError, MalformedError


@dataclass(frozen=True)
class Cut:
    """The outcome of the cut: the dealer, or the players who must cut again."""

    ranks: Mapping[str, int]
    dealer: str | None
    recut: tuple[str, ...]
    low: tuple[str, ...]

    def explain(self) -> str:
        if self.recut:
            return f"{' and '.join(self.recut)} cut equal ranks and cut again (J1)"
        assert self.dealer is not None
        rank = RANK_NAMES[self.ranks[self.dealer] - 1]
        return (
            f"{self.dealer} cut high ({rank}): he chooses his seat, whose discards he "
            f"takes, and deals first; {' and '.join(self.low)} sit opposite each other (J1)"
        )


def read_cut(value: Any, where: str) -> int:
    """The rank of a cut card, given as a card (``7H``) or a rank alone (``7``, ``K``)."""
    if isinstance(value, str) and value.strip().upper() in _RANKS:
        return _RANKS[value.strip().upper()]
    return read_card(value, where).rank


_RANKS = {name: rank for rank, name in enumerate(RANK_NAMES, start=1)} | {"T": 10}


def cut_for_deal(cuts: Mapping[str, Any], where: str = "cuts") -> Cut:
    """Who deals first from the card each player cut (J1; aces low, suits do not count).

    >>> cut_for_deal({"Ann": "K", "Bob": "KS", "Cal": "2"}).recut
    ('Ann', 'Bob')
    """
    if not isinstance(cuts, Mapping) or len(cuts) < 2:
        raise MalformedError("give the card each player cut", where)
    seen: set[str] = set()
    ranks: dict[str, int] = {}
    for player, value in cuts.items():
        ranks[player] = read_cut(value, f"{where}.{player}")
        if isinstance(value, str) and len(value.strip()) > 1 and value.strip().upper() not in _RANKS:
            code = read_card(value, f"{where}.{player}").code
            if code in seen:
                raise DuplicateCardError(f"{code} was cut twice", f"{where}.{player}")
            seen.add(code)
    values = list(ranks.values())
    tied = tuple(p for p, rank in ranks.items() if values.count(rank) > 1)
    if tied:
        return Cut(ranks, None, tied, ())
    high = max(ranks, key=lambda p: ranks[p])
    return Cut(ranks, high, (), tuple(p for p in ranks if p != high))


def eldest(players: Sequence[str], dealer: str) -> str:
    """The player at the dealer's left, who plays first (J3, G1)."""
    return players[(list(players).index(dealer) + 1) % len(players)]

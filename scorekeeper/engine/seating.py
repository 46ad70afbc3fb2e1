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

from .boxes import read_card
from .cards import Card
from .errors import DuplicateCardError, MalformedError


@dataclass(frozen=True)
class Cut:
    """The outcome of the cut: the dealer, or the players who must cut again."""

    cards: Mapping[str, Card]
    dealer: str | None
    recut: tuple[str, ...]
    low: tuple[str, ...]

    def explain(self) -> str:
        if self.recut:
            return f"{' and '.join(self.recut)} cut equal ranks and cut again (J1)"
        assert self.dealer is not None
        card = self.cards[self.dealer]
        return (f"{self.dealer} cut the high card {card}: he chooses his seat and deals first; "
                f"{' and '.join(self.low)} sit opposite each other (J1)")


def cut_for_deal(cuts: Mapping[str, str], where: str = "cuts") -> Cut:
    """Who deals first from the card each player cut (J1; aces low, suits do not count)."""
    if not isinstance(cuts, Mapping) or len(cuts) < 2:
        raise MalformedError("give the card each player cut", where)
    cards: dict[str, Card] = {}
    for player, text in cuts.items():
        card = read_card(text, f"{where}.{player}")
        if card in cards.values():
            raise DuplicateCardError(f"{card.code} was cut twice", f"{where}.{player}")
        cards[player] = card
    high = max(card.rank for card in cards.values())
    top = tuple(p for p, card in cards.items() if card.rank == high)
    if len(top) > 1:
        return Cut(cards, None, top, ())
    ranks = [card.rank for card in cards.values()]
    if len(set(ranks)) < len(ranks):
        tied = tuple(p for p, card in cards.items() if ranks.count(card.rank) > 1)
        return Cut(cards, None, tied, ())
    return Cut(cards, top[0], (), tuple(p for p in cards if p != top[0]))


def eldest(players: Sequence[str], dealer: str) -> str:
    """The player at the dealer's left, who plays first (J3, G1)."""
    return players[(list(players).index(dealer) + 1) % len(players)]

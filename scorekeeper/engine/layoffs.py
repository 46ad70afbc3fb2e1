"""Melds on the table and the cards laid off on them (C5, J5, J11, P5, G3).

A :class:`TableMeld` is a meld some player laid down, with the cards others
have laid off on it so far. Whether a card fits depends on those earlier
layoffs (a run grows at both ends, in a chain) and, under Parlett's rule P5, on
who laid them: an opponent may build only on the knocker's *original* meld.

>>> from .cards import parse_cards
>>> run = TableMeld.lay_down("Bob", 0, parse_cards("AS 2S 3S"))
>>> run.fits(Card.parse("4S"), "Cal"), run.fits(Card.parse("5S"), "Cal")
(True, False)
>>> run.add(Card.parse("4S"), "Cal").fits(Card.parse("5S"), "Ann")
True
>>> run.add(Card.parse("4S"), "Cal").fits(Card.parse("5S"), "Ann", original_only=True)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import Card, show
from .melds import is_run, run_order

_FULL_SUIT = (1 << 13) - 1


def _is_interval(ranks: int) -> bool:
    """Whether the set bits of a rank mask are consecutive (a run, ace low)."""
    if not ranks:
        return False
    shifted = ranks >> ((ranks & -ranks).bit_length() - 1)
    return shifted & (shifted + 1) == 0


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: its owner, its index among his melds, and what was added."""

    owner: str
    index: int
    cards: tuple[Card, ...]
    is_set: bool
    around_the_corner: bool = False
    added: tuple[tuple[Card, str], ...] = ()

    @classmethod
    def lay_down(
        cls, owner: str, index: int, cards: Sequence[Card], around_the_corner: bool = False
    ) -> TableMeld:
        """A meld as its owner lays it down (cards in set or run order)."""
        run = is_run(cards, around_the_corner)
        ordered = run_order(cards, around_the_corner) if run else tuple(sorted(cards))
        return cls(owner, index, tuple(ordered), not run, around_the_corner)

    def all_cards(self, by: str | None = None) -> list[Card]:
        """The meld with every layoff (or, given ``by``, only the original and his own)."""
        extra = [card for card, layer in self.added if by is None or layer == by]
        return list(self.cards) + extra

    def fits(self, card: Card, by: str, original_only: bool = False) -> bool:
        """Whether ``by`` may lay ``card`` off here now (C5; P5 when ``original_only``)."""
        first = self.cards[0]
        if self.is_set:
            if card.rank != first.rank:
                return False
            held = len(self.cards) + sum(1 for _, layer in self.added if not original_only or layer == by)
            return held < 4 and card not in self.cards
        if card.suit_number != first.suit_number:
            return False
        ranks = 0
        for held_card in self.cards:
            ranks |= 1 << (held_card.rank - 1)
        for added, layer in self.added:
            if not original_only or layer == by:
                ranks |= 1 << (added.rank - 1)
        bit = 1 << (card.rank - 1)
        if ranks & bit:
            return False
        return _is_interval(ranks | bit) or (
            self.around_the_corner and _is_interval(~(ranks | bit) & _FULL_SUIT)
        )

    def could_take(self, card: Card) -> bool:
        """Cheap pre-test: the card's rank (a set) or suit (a run) matches the meld's."""
        first = self.cards[0]
        return card.rank == first.rank if self.is_set else card.suit_number == first.suit_number

    def add(self, card: Card, by: str) -> TableMeld:
        """This meld with one more card laid off on it."""
        return TableMeld(
            self.owner, self.index, self.cards, self.is_set, self.around_the_corner, (*self.added, (card, by))
        )

    def __str__(self) -> str:
        return show(self.cards)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def ordinal(index: int) -> str:
    """A meld's place among its owner's melds as the table counts it, from 1.

    >>> ordinal(0), ordinal(1), ordinal(11)
    ('first', 'second', '12th')
    """
    return _ORDINALS[index] if 0 <= index < len(_ORDINALS) else f"{index + 1}th"


def meld_name(meld: TableMeld) -> str:
    """A meld as the table sees it, for errors: "second meld (7♣-7♦-7♥)".

    >>> from .cards import parse_cards
    >>> meld_name(TableMeld.lay_down("Bob", 1, parse_cards("7C 7D 7H")))
    'second meld (7♣-7♦-7♥)'
    """
    return f"{ordinal(meld.index)} meld ({meld})"


def extended(meld: TableMeld) -> str:
    """The meld as it stands now, with the cards laid off on it and by whom, so a
    chained layoff is shown against what it was actually laid on.

    >>> from .cards import parse_cards
    >>> run = TableMeld.lay_down("Bob", 0, parse_cards("4H 5H 6H")).add(Card.parse("7H"), "Cal")
    >>> extended(run)
    "4♥-5♥-6♥-7♥, extended by Cal's 7♥"
    """
    if not meld.added:
        return str(meld)
    cards = meld.all_cards()
    ordered = tuple(sorted(cards)) if meld.is_set else run_order(cards, meld.around_the_corner)
    by: dict[str, list[str]] = {}
    for card, layer in meld.added:
        by.setdefault(layer, []).append(str(card))
    added = " and ".join(f"{layer}'s {' '.join(cards)}" for layer, cards in by.items())
    return f"{show(ordered)}, extended by {added}"


@dataclass(frozen=True)
class Layoff:
    """One card laid off: by whom, onto whose meld (and its index there).

    ``later`` marks a layoff made in a later round of the break, when anyone may lay
    off on any meld (J11).
    """

    card: Card
    by: str
    onto: str
    meld: int
    later: bool = False

    def to_json(self) -> dict[str, str | int | bool]:
        body: dict[str, str | int | bool] = {"card": self.card.code, "onto": self.onto, "meld": self.meld}
        if self.later:
            body["later_round"] = True
        return body


Table = tuple[TableMeld, ...]


def lay(table: Table, layoff: Layoff) -> Table:
    """The table after one layoff."""
    return tuple(
        meld.add(layoff.card, layoff.by) if (meld.owner, meld.index) == (layoff.onto, layoff.meld) else meld
        for meld in table
    )


def place_layoff(
    table: Table, card: Card, by: str, onto: str, meld: int | None, original_only: bool
) -> Layoff | None:
    """Where a declared layoff goes: the named meld, or the only one of ``onto``'s that fits."""
    fitting = [
        m
        for m in table
        if m.owner == onto and (meld is None or m.index == meld) and m.fits(card, by, original_only)
    ]
    if not fitting:
        return None
    return Layoff(card, by, onto, fitting[0].index)


@dataclass(frozen=True)
class LayoffPlan:
    """A way for one player to lay off: the cards and where each went, in order."""

    layoffs: tuple[Layoff, ...]
    mask: int


def layoff_plans(
    hand: Iterable[Card],
    table: Table,
    by: str,
    targets: frozenset[str],
    original_only: bool,
    distinct_placements: bool = True,
) -> list[LayoffPlan]:
    """Every distinct set of cards ``by`` could lay off onto ``targets``' melds (C5).

    Laying off one card may open the way for the next (a chain along a run), so
    the plans are found by trying one card at a time. The empty plan comes first;
    one plan is kept per set of placements (the same cards laid on different melds
    leave different tables, which matters to the next player); without
    ``distinct_placements`` (for the last player, after whom nobody lays off)
    one plan per set of cards.
    """
    open_melds = [meld for meld in table if meld.owner in targets]
    cards = [card for card in hand if any(meld.could_take(card) for meld in open_melds)]
    Placements = frozenset[tuple[Card, str, int]]
    explored: set[Placements] = set()
    plans: dict[Placements | int, LayoffPlan] = {0: LayoffPlan((), 0)}
    stack: list[tuple[Table, tuple[Layoff, ...], int]] = [(table, (), 0)]
    while stack:
        state, done, mask = stack.pop()
        for card in cards:
            if mask & card.bit:
                continue
            for meld in state:
                if meld.owner not in targets or not meld.fits(card, by, original_only):
                    continue
                layoff = Layoff(card, by, meld.owner, meld.index)
                new_done = (*done, layoff)
                new_mask = mask | card.bit
                placements = frozenset((x.card, x.onto, x.meld) for x in new_done)
                if placements in explored:
                    continue  # the same layoffs in another order leave the same table
                explored.add(placements)
                plans.setdefault(
                    placements if distinct_placements else new_mask, LayoffPlan(new_done, new_mask)
                )
                stack.append((lay(state, layoff), new_done, new_mask))
    return sorted(plans.values(), key=lambda plan: (len(plan.layoffs), plan.mask))

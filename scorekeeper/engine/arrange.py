"""Checking one hand: its best melds and count (C4), and for 11 cards the best discard.

This is ``scorekeeper arrange`` and the app's "Check a hand".
"""

from __future__ import annotations

from typing import Any

from .cards import Card, by_rank, meld_order, parse_cards, show
from .errors import DuplicateCardError, MalformedError, WrongHandSizeError
from .melds import Arrangement, best_arrangements, best_discard


def _arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    melds = sorted(arrangement.melds, key=meld_order)
    return {
        "melds": [[card.code for card in meld] for meld in melds],
        "deadwood": [card.code for card in sorted(arrangement.deadwood, key=by_rank)],
        "count": arrangement.count,
    }


def arrange(
    cards: Any,
    *,
    around_the_corner: bool = False,
    ace_value: int = 1,
    knock_limit: int | None = 10,
    where: str = "cards",
) -> dict[str, Any]:
    """The best arrangement of 10 cards, or of 11 after the best discard.

    >>> result = arrange("AS 2S 3S 7H 7D 7C 9D 10D JD 4C")
    >>> result["count"], result["melds"], result["deadwood"]
    (4, [['AS', '2S', '3S'], ['7C', '7D', '7H'], ['9D', '10D', 'JD']], ['4C'])
    """
    if not isinstance(cards, str | list) or (
        isinstance(cards, list) and not all(isinstance(c, str) for c in cards)
    ):
        raise MalformedError('cards must be a list of cards such as ["7C", "10H"]', where)
    hand = parse_cards(cards, where)
    seen: set[Card] = set()
    for i, card in enumerate(hand):
        if card in seen:
            raise DuplicateCardError(f"{card.code} is given twice", f"{where}[{i}]")
        seen.add(card)
    if len(hand) not in (10, 11):
        raise WrongHandSizeError(f"give 10 or 11 cards, not {len(hand)}", where)
    result: dict[str, Any] = {"cards": [card.code for card in hand]}
    kept = hand
    if len(hand) == 11:
        discard, _ = best_discard(hand, around_the_corner=around_the_corner, ace_value=ace_value)
        result["discard"] = discard.code
        kept = [card for card in hand if card != discard]
    found = best_arrangements(kept, around_the_corner=around_the_corner, ace_value=ace_value)
    result.update(_arrangement_json(found[0]))
    count = found[0].count
    result["gin"] = count == 0
    result["can_knock"] = knock_limit is None or count <= knock_limit
    result["alternatives"] = [_arrangement_json(a) for a in found[1:]]
    result["text"] = _describe(found[0], result.get("discard"))
    return result


def _describe(arrangement: Arrangement, discard: str | None) -> str:
    """One line for people: ``A♠-2♠-3♠ 7♣-7♦-7♥; deadwood 4♣ = 4``."""
    melds = " ".join(show(m) for m in sorted(arrangement.melds, key=meld_order))
    deadwood = " ".join(str(c) for c in sorted(arrangement.deadwood, key=by_rank))
    text = f"{melds or 'no melds'}; deadwood {deadwood or 'none'} = {arrangement.count}"
    if discard is not None:
        text = f"discard {Card.parse(discard)}: {text}"
    return text

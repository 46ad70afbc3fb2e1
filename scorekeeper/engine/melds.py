"""Melds, and the best way to arrange a hand into melds and deadwood (C3, C4, V4).

One module past 400 lines: the solver's steps share the mask helpers and caches
below, and reading them together is how the brute-force comparisons stay checkable.

A hand is held as a 52-bit mask (bit ``suit*13 + rank-1``, see :mod:`.cards`),
and so is each meld. The solver is split into small steps, as in OpenSpiel's
gin rummy: the melds of a hand (:func:`hand_melds`), the ways to choose disjoint
melds (:func:`arrangements`), the best one (:func:`best_arrangement`), and the
best discard from eleven cards (:func:`best_discard`). :func:`brute_force_best_count`
is a slow, independent solver that the tests hold the fast one against.

Speed comes from table lookups (card values per suit pattern, the cards meldable in a
hand found by a few bitwise tests) and from memoising solved groups of meldable cards,
which recur from hand to hand; no table is built before first use. The search is
meant for a player's hand (a few melds); it is exponential in the number of melds, so a
whole pack is far beyond it.

>>> from .cards import parse_cards
>>> best = best_arrangement(parse_cards("7C 7D 7H 7S 8S 9S 2D 2H 5C KD"))
>>> [[str(c) for c in meld] for meld in best.melds], best.count
([['7♣', '7♦', '7♥'], ['7♠', '8♠', '9♠']], 19)
>>> len(hand_melds((1 << 52) - 1))
329
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import ALL_CARDS, Card, cards_mask, mask_cards, show
from .errors import DuplicateCardError

_SUIT = 0x1FFF
"""The 13 bits of one suit."""
_COLUMN = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The four aces; shifted left by ``rank - 1`` it is every card of that rank."""
_FULL_PACK = (1 << 52) - 1
_RUN_STARTS = 0x7FF * _COLUMN
"""Ranks A to J of every suit: where a run of three may start without wrapping."""
_QUEENS, _KINGS = _COLUMN << 11, _COLUMN << 12
_MEMO_LIMIT = 100_000
"""Entries kept in a cache before it starts over (they are cheap to rebuild)."""

# Lookup tables and caches, filled on first use (never at import).
_SUIT_VALUES: list[int] = []
_BYTE_CARDS: list[tuple[tuple[Card, ...], ...]] = []
_SETS: dict[int, tuple[int, ...]] = {}
_HAND_MELDS: tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]] = ({}, {})
_SUIT_RUNS: tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]] = ({}, {})
_MELD_CARDS: dict[int, tuple[Card, ...]] = {}
_Memo = dict[int, tuple[int, int, tuple[int, ...]]]
"""Meldable cards -> (value melded, cards melded, melds chosen) of the best choice."""
_MEMOS: dict[tuple[bool, int], _Memo] = {}


@dataclass(frozen=True, slots=True)
class Arrangement:
    """One way to lay out a hand: disjoint melds, the deadwood left, and its count (C4).

    Sets are in suit order, runs in run order (``Q♣ K♣ A♣`` around the corner);
    melds are ordered by their lowest card in index order (♣ A..K, ♦, ♥, ♠),
    deadwood in index order.
    """

    melds: tuple[tuple[Card, ...], ...]
    deadwood: tuple[Card, ...]
    count: int

    @property
    def mask_melds(self) -> tuple[int, ...]:
        """Each meld as a card mask."""
        return tuple(cards_mask(meld) for meld in self.melds)

    @property
    def deadwood_mask(self) -> int:
        return cards_mask(self.deadwood)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the hand, in index order."""
        return tuple(sorted([*self.deadwood, *(card for meld in self.melds for card in meld)]))

    def __str__(self) -> str:
        melds = " ".join(show(meld) for meld in self.melds) or "no melds"
        deadwood = " ".join(str(card) for card in self.deadwood) or "none"
        return f"{melds}; deadwood {deadwood} = {self.count}"


# --- Validity of one meld (C3, V4), on cards, independent of the mask tables ---------


def is_set(cards: Sequence[Card]) -> bool:
    """Three or four cards of one rank (C3).

    >>> from .cards import parse_cards
    >>> [is_set(parse_cards(text)) for text in ("7C 7D 7S", "7C 7D", "7C 7D 8S")]
    [True, False, False]
    """
    return (
        3 <= len(cards) <= 4
        and len({card.rank for card in cards}) == 1
        and len({card.suit_number for card in cards}) == len(cards)
    )


def _run_start(cards: Sequence[Card], around_the_corner: bool) -> int | None:
    """The rank a run starts at, or None if the cards are not a run (C3, V4)."""
    if len(cards) < 3 or len({card.suit_number for card in cards}) != 1:
        return None
    ranks = {card.rank for card in cards}
    if len(ranks) != len(cards):
        return None
    low = min(ranks)
    if max(ranks) - low == len(ranks) - 1:
        return low
    if not around_the_corner:
        return None
    # Around the corner the ranks must be one arc of the circle A..K A..: exactly one
    # rank whose predecessor (K before A) is missing.
    starts = [rank for rank in ranks if (rank - 2) % 13 + 1 not in ranks]
    return starts[0] if len(starts) == 1 else None


def is_run(cards: Sequence[Card], around_the_corner: bool = False) -> bool:
    """Three or more cards of one suit in consecutive rank, ace low (C3); with
    ``around_the_corner`` also through K-A (V4), never longer than the 13 ranks.

    >>> from .cards import parse_cards
    >>> is_run(parse_cards("AH 2H 3H")), is_run(parse_cards("KH AH 2H"))
    (True, False)
    >>> is_run(parse_cards("KH AH 2H"), around_the_corner=True)
    True
    """
    return _run_start(cards, around_the_corner) is not None


def is_meld(cards: Sequence[Card], around_the_corner: bool = False) -> bool:
    """A set or a run (C3, V4)."""
    return is_set(cards) or is_run(cards, around_the_corner)


def run_order(cards: Sequence[Card], around_the_corner: bool = False) -> tuple[Card, ...]:
    """The cards of a run in the order they run, for display.

    >>> from .cards import parse_cards
    >>> show(run_order(parse_cards("2C AC KC QC"), around_the_corner=True))
    'Q♣-K♣-A♣-2♣'
    >>> run_order(parse_cards("2C AC KC"))
    Traceback (most recent call last):
    ...
    ValueError: 2♣ A♣ K♣ is not a run
    """
    start = _run_start(cards, around_the_corner)
    if start is None:
        raise ValueError(f"{show(cards, ' ')} is not a run")
    return tuple(sorted(cards, key=lambda card: (card.rank - start) % 13))


# --- Tables ----------------------------------------------------------------------------


def _suit_values() -> list[int]:
    """Value (ace 1) of every 13-bit pattern of one suit, built on first use."""
    if not _SUIT_VALUES:
        table = [0] * (1 << 13)
        for pattern in range(1, 1 << 13):
            low = pattern & -pattern
            table[pattern] = table[pattern ^ low] + min(low.bit_length(), 10)
        _SUIT_VALUES[:] = table
    return _SUIT_VALUES


def _value(mask: int, ace_value: int) -> int:
    """The count of the cards of a mask (C2, V4)."""
    table = _SUIT_VALUES or _suit_values()
    value = table[mask & _SUIT] + table[mask >> 13 & _SUIT] + table[mask >> 26 & _SUIT] + table[mask >> 39]
    if ace_value != 1:
        value += (ace_value - 1) * (mask & _COLUMN).bit_count()
    return value


def _byte_cards() -> list[tuple[tuple[Card, ...], ...]]:
    """For each byte of a mask, the cards of each of its 256 values, built on first use."""
    if not _BYTE_CARDS:
        _BYTE_CARDS[:] = [
            tuple(
                tuple(
                    ALL_CARDS[8 * place + bit] for bit in range(8) if byte >> bit & 1 and 8 * place + bit < 52
                )
                for byte in range(256)
            )
            for place in range(7)
        ]
    return _BYTE_CARDS


def _cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask in index order (seven table lookups, no loop over bits)."""
    b0, b1, b2, b3, b4, b5, b6 = _BYTE_CARDS or _byte_cards()
    return (
        b0[mask & 255]
        + b1[mask >> 8 & 255]
        + b2[mask >> 16 & 255]
        + b3[mask >> 24 & 255]
        + b4[mask >> 32 & 255]
        + b5[mask >> 40 & 255]
        + b6[mask >> 48 & 255]
    )


def _order_key(meld: int) -> int:
    """Meld order: lowest card first; with the same lowest card longer melds first,
    then the smaller mask. The solver prefers melds in this order (ties, C4)."""
    return (meld & -meld) << 60 | (15 - meld.bit_count()) << 52 | meld


def _suit_runs(part: int, around_the_corner: bool) -> tuple[int, ...]:
    """Every run within one suit's cards ``part``: each stretch of consecutive ranks
    and every piece of it three or more long."""
    shift = (part.bit_length() - 1) // 13 * 13
    pattern = part >> shift
    turn = 0
    if around_the_corner and pattern != _SUIT:
        # Turn the circle so that a missing rank comes last: no stretch then wraps.
        turn = 12 - (~pattern & _SUIT).bit_length() + 1
    turned = (pattern << turn | pattern >> (13 - turn)) & _SUIT
    found: list[int] = []
    bit = 0
    while bit < 13:
        if not turned >> bit & 1:
            bit += 1
            continue
        end = bit
        while end < 13 and turned >> end & 1:
            end += 1
        for first in range(bit, end - 2):
            for last in range(first + 3, end + 1):
                run = (1 << last) - (1 << first)
                found.append((run >> turn | run << (13 - turn)) & _SUIT)
        bit = end
    if around_the_corner and pattern == _SUIT:
        found = [
            (arc << start | arc >> (13 - start)) & _SUIT
            for arc in ((1 << length) - 1 for length in range(3, 13))
            for start in range(13)
        ]
        found.append(_SUIT)
    return tuple(sorted((run << shift for run in found), key=_order_key))


def _sets_of_rank(column: int) -> tuple[int, ...]:
    """The sets within ``column`` (three or four cards of one rank): the 4-set first."""
    sets = _SETS.get(column)
    if sets is None:
        bits = [card.bit for card in mask_cards(column)]
        subsets = [sum(s) for size in (4, 3) for s in combinations(bits, size)]
        sets = _SETS[column] = tuple(sorted(subsets, key=_order_key))
    return sets


def _meldable(mask: int, around_the_corner: bool) -> int:
    """The cards of ``mask`` that belong to some meld within it: three bitwise tests
    for the whole hand (any run contains a run of three, any 4-set a 3-set)."""
    threes = mask & mask >> 1 & mask >> 2 & _RUN_STARTS
    union = threes | threes << 1 | threes << 2
    if around_the_corner:
        queens = mask & mask >> 1 & mask << 11 & _QUEENS  # Q-K-A, marked at the queen
        kings = mask & mask << 12 & mask << 11 & _KINGS  # K-A-2, marked at the king
        union |= queens | queens << 1 | queens >> 11 | kings | kings >> 12 | kings >> 11
    clubs, diamonds = mask & _SUIT, mask >> 13 & _SUIT
    hearts, spades = mask >> 26 & _SUIT, mask >> 39
    ranks = clubs & diamonds & (hearts | spades) | hearts & spades & (clubs | diamonds)
    return union | mask & ranks * _COLUMN


def _melds_of(mask: int, around_the_corner: bool) -> tuple[int, ...]:
    """Every meld within ``mask``, in :func:`_order_key` order (cached by meldable cards,
    which determine the melds)."""
    union = _meldable(mask, around_the_corner)
    if not union:
        return ()
    cache = _HAND_MELDS[around_the_corner]
    melds = cache.get(union)
    if melds is None:
        found: list[int] = []
        suit_runs = _SUIT_RUNS[around_the_corner]
        for shift in (0, 13, 26, 39):
            part = union & _SUIT << shift
            if part.bit_count() >= 3:
                runs = suit_runs.get(part)
                if runs is None:
                    runs = suit_runs[part] = _suit_runs(part, around_the_corner)
                found += runs
        for rank in range(13):
            column = union & _COLUMN << rank
            if column.bit_count() >= 3:
                found += _sets_of_rank(column)
        melds = tuple(sorted(found, key=_order_key))
        if len(cache) > _MEMO_LIMIT:
            cache.clear()
        cache[union] = melds
    return melds


def hand_melds(mask: int, around_the_corner: bool = False) -> list[int]:
    """Every meld in a hand, as masks: every set (each 3 of a 4-set too) and every run
    of 3 or more (each part of a long run too), lowest card first, then longer first.

    >>> from .cards import cards_mask, parse_cards
    >>> len(hand_melds(cards_mask(parse_cards("5C 6C 7C 8C 8D 8H"))))
    4
    """
    return list(_melds_of(_check_mask(mask), around_the_corner))


def _meld_cards(meld: int) -> tuple[Card, ...]:
    """The cards of a meld mask in display order (sets by suit, runs in run order)."""
    cards = _MELD_CARDS.get(meld)
    if cards is None:
        in_order = mask_cards(meld)
        if in_order[0].rank == in_order[-1].rank:
            cards = tuple(in_order)
        else:
            cards = run_order(in_order, around_the_corner=True)
        _MELD_CARDS[meld] = cards
    return cards


def forget_hands() -> None:
    """Empty every cache keyed by a hand's cards (solved meld groups, a hand's melds, a
    meld's cards), keeping the tables of one suit's or one rank's patterns. A benchmark
    calls it before each timed hand, so that no answer for a hand seen before is served
    (benchmarks/solver_vs_openspiel.py)."""
    for memo in _MEMOS.values():
        memo.clear()
    for cache in _HAND_MELDS:
        cache.clear()
    _MELD_CARDS.clear()


def fill_tables() -> None:
    """Build every lookup table that depends on one suit's or one rank's cards only:
    card values and cards of each pattern, the runs of every pattern of every suit
    (both readings of V4) and the sets of every column. What a hand-independent
    precomputation (as OpenSpiel's) would hold; nothing in them is a hand's answer."""
    _suit_values()
    _byte_cards()
    for around in (False, True):
        runs = _SUIT_RUNS[around]
        for shift in (0, 13, 26, 39):
            for pattern in range(1 << 13):
                part = pattern << shift
                if pattern.bit_count() >= 3 and part not in runs:
                    runs[part] = _suit_runs(part, around)
    for rank in range(13):
        for pattern in range(16):
            column = sum(
                _COLUMN << rank & _FULL_PACK & (((1 << 13) - 1) << 13 * suit)
                for suit in range(4)
                if pattern >> suit & 1
            )
            if column.bit_count() >= 3:
                _sets_of_rank(column)


# --- The solver -------------------------------------------------------------------------


def _memo(around_the_corner: bool, ace_value: int) -> _Memo:
    memo = _MEMOS.get((around_the_corner, ace_value))
    if memo is None or len(memo) > _MEMO_LIMIT:
        memo = _MEMOS[around_the_corner, ace_value] = {}
    return memo


def _union(melds: Iterable[int]) -> int:
    union = 0
    for meld in melds:
        union |= meld
    return union


def _best_melded(
    union: int, melds: Sequence[int], memo: _Memo, ace_value: int
) -> tuple[int, int, tuple[int, ...]]:
    """(value melded, cards melded, melds chosen) of the best choice among ``melds``.

    ``melds`` are all the melds within ``union`` (their union), in meld order. The
    lowest card either goes into one of the melds starting with it, or is deadwood.
    Best is the most value melded, then the most cards melded; remaining ties go to
    the first option in that order (melds in meld order, deadwood last). Results are
    memoised on ``union``, which determines ``melds``.
    """
    found = memo.get(union)
    if found is not None:
        return found
    low = union & -union
    best_value, best_cards = -1, 0
    best_chosen: tuple[int, ...] = ()
    first_other = 0
    for meld in melds:
        if not meld & low:
            break
        first_other += 1
        rest = [other for other in melds if not other & meld]
        if len(rest) > 1:
            value, cards, chosen = _best_melded(_union(rest), rest, memo, ace_value)
        elif rest:  # one meld left: it is the best choice (no call, no memo entry)
            only = rest[0]
            value, cards, chosen = _value(only, ace_value), only.bit_count(), (only,)
        else:
            value, cards, chosen = 0, 0, ()
        value += _value(meld, ace_value)
        cards += meld.bit_count()
        if value > best_value or (value == best_value and cards > best_cards):
            best_value, best_cards, best_chosen = value, cards, (meld, *chosen)
    others = melds[first_other:]
    if others:
        if len(others) > 1:
            value, cards, chosen = _best_melded(_union(others), others, memo, ace_value)
        else:
            only = others[0]
            value, cards, chosen = _value(only, ace_value), only.bit_count(), (only,)
        if value > best_value or (value == best_value and cards > best_cards):
            best_value, best_cards, best_chosen = value, cards, chosen
    found = memo[union] = (best_value, best_cards, best_chosen)
    return found


def _solve(mask: int, around_the_corner: bool, ace_value: int) -> tuple[int, tuple[int, ...]]:
    """(best count, melds chosen) of a hand mask."""
    melds = _melds_of(mask, around_the_corner)
    total = _value(mask, ace_value)
    if not melds:
        return total, ()
    if len(melds) == 1:
        return total - _value(melds[0], ace_value), (melds[0],)
    value, _, chosen = _best_melded(_union(melds), melds, _memo(around_the_corner, ace_value), ace_value)
    return total - value, chosen


def _arrangement(mask: int, chosen: tuple[int, ...], count: int) -> Arrangement:
    if not chosen:
        return Arrangement((), _cards_of(mask), count)
    return Arrangement(
        tuple([_meld_cards(meld) for meld in chosen]), _cards_of(mask & ~_union(chosen)), count
    )


def _ace_value_error(ace_value: int) -> ValueError:
    """Every card must count at least 1: the solver's pruning and ties rely on it."""
    return ValueError(f"an ace cannot count {ace_value}: the least is 1")


def _check_mask(mask: int) -> int:
    if not 0 <= mask <= _FULL_PACK:
        raise ValueError(f"{mask:#x} is not a mask of cards of one pack")
    return mask


def _hand_mask(cards: Iterable[Card] | int) -> int:
    """The mask of a hand; a card given twice is an error."""
    if isinstance(cards, int):
        return _check_mask(cards)
    hand = cards if isinstance(cards, list | tuple) else tuple(cards)
    mask = 0
    for card in hand:
        mask |= card.bit
    if mask.bit_count() != len(hand):
        seen: set[Card] = set()
        for card in hand:
            if card in seen:
                raise DuplicateCardError(f"{card.code} is given twice")
            seen.add(card)
    return mask


def best_count(cards: Iterable[Card] | int, *, around_the_corner: bool = False, ace_value: int = 1) -> int:
    """The lowest count the hand (cards or a mask) can reach (C4)."""
    if ace_value < 1:
        raise _ace_value_error(ace_value)
    return _solve(_hand_mask(cards), around_the_corner, ace_value)[0]


def best_arrangement(
    cards: Iterable[Card] | int, *, around_the_corner: bool = False, ace_value: int = 1
) -> Arrangement:
    """An arrangement with the lowest count (C4).

    Ties: the most cards melded; then, taking the cards in index order (♣ A..K, ♦,
    ♥, ♠), the first card placed differently goes into a meld rather than deadwood,
    and into the longer meld, then the one with the smaller mask. This is always
    ``arrangements(cards)[0]``.

    >>> from .cards import parse_cards
    >>> str(best_arrangement(parse_cards("AS 2S 3S 4S 5S 6S 6C 6D 9H KH")))
    '6♣-6♦-6♠ A♠-2♠-3♠-4♠-5♠; deadwood 9♥ K♥ = 19'
    """
    if ace_value < 1:
        raise _ace_value_error(ace_value)
    mask = _hand_mask(cards)
    count, chosen = _solve(mask, around_the_corner, ace_value)
    return _arrangement(mask, chosen, count)


def arrangements(
    cards: Iterable[Card] | int,
    *,
    around_the_corner: bool = False,
    ace_value: int = 1,
    max_count: int | None = None,
) -> list[Arrangement]:
    """Every way to choose disjoint melds from the hand (none, and non-maximal ones
    too) whose count is at most ``max_count`` (C8: a knocker may split as he likes).

    Sorted by count, then the most cards melded, then the order of
    :func:`best_arrangement`'s ties; so the first is the best arrangement.

    >>> from .cards import parse_cards
    >>> for found in arrangements(parse_cards("4C 5C 6C 7C KD"), max_count=17):
    ...     print(found)
    4♣-5♣-6♣-7♣; deadwood K♦ = 10
    5♣-6♣-7♣; deadwood 4♣ K♦ = 14
    4♣-5♣-6♣; deadwood 7♣ K♦ = 17
    """
    if ace_value < 1:
        raise _ace_value_error(ace_value)
    mask = _hand_mask(cards)
    total = _value(mask, ace_value)
    limit = total if max_count is None else max_count
    found: list[tuple[tuple[int, int, tuple[tuple[int, int, int, int], ...]], Arrangement]] = []

    def walk(melds: Sequence[int], union: int, melded: int, chosen: tuple[int, ...]) -> None:
        if total - melded - _value(union, ace_value) > limit:
            return
        if not melds:
            arrangement = _arrangement(mask, chosen, total - melded)
            found.append((_sort_key(mask, chosen, arrangement.count), arrangement))
            return
        low = union & -union
        first_other = 0
        for meld in melds:
            if not meld & low:
                break
            first_other += 1
            rest = [other for other in melds if not other & meld]
            walk(rest, _union(rest), melded + _value(meld, ace_value), (*chosen, meld))
        others = melds[first_other:]
        walk(others, _union(others), melded, chosen)

    melds = _melds_of(mask, around_the_corner)
    walk(melds, _union(melds), 0, ())
    found.sort(key=lambda item: item[0])
    return [arrangement for _, arrangement in found]


def _sort_key(
    mask: int, chosen: tuple[int, ...], count: int
) -> tuple[int, int, tuple[tuple[int, int, int, int], ...]]:
    """Count, then most cards melded, then each card's place in index order (a meld
    it starts, longest and smallest mask first, before deadwood)."""
    melded = _union(chosen)
    steps = [((meld & -meld).bit_length() - 1, 0, 15 - meld.bit_count(), meld) for meld in chosen]
    steps += [(card.index, 1, 0, 0) for card in mask_cards(mask & ~melded)]
    return count, -melded.bit_count(), tuple(sorted(steps))


def best_arrangements(
    cards: Iterable[Card] | int, *, around_the_corner: bool = False, ace_value: int = 1
) -> list[Arrangement]:
    """Every arrangement with the lowest count (all of them maximal: each card has a
    value of at least 1, so adding a meld always lowers the count), the best first."""
    if ace_value < 1:
        raise _ace_value_error(ace_value)
    mask = _hand_mask(cards)
    count = _solve(mask, around_the_corner, ace_value)[0]
    return arrangements(mask, around_the_corner=around_the_corner, ace_value=ace_value, max_count=count)


def best_discard(
    cards: Iterable[Card] | int, *, around_the_corner: bool = False, ace_value: int = 1
) -> tuple[Card, Arrangement]:
    """The discard (from 11 cards) leaving the lowest count, and the best arrangement
    of the rest. Ties: discard the card of highest value, then of highest index.

    >>> from .cards import parse_cards
    >>> discard, rest = best_discard(parse_cards("AS 2S 3S 4S 7C 7D 7H 9D 10D JD KC"))
    >>> str(discard), str(rest)
    ('K♣', '7♣-7♦-7♥ 9♦-10♦-J♦ A♠-2♠-3♠-4♠; deadwood none = 0')
    """
    if ace_value < 1:
        raise _ace_value_error(ace_value)
    mask = _hand_mask(cards)
    if not mask:
        raise ValueError("there is no card to discard")
    melds = _melds_of(mask, around_the_corner)
    union = _union(melds)
    memo = _memo(around_the_corner, ace_value)
    total = _value(mask, ace_value)
    kept_melded = _best_melded(union, melds, memo, ace_value)[0] if melds else 0
    # Discarding a card melds at most what the whole hand melds, so each discard's key
    # is at least its bound with ``kept_melded``; exact for a card in no meld. Taken in
    # order of that bound, the search stops at the first bound above the best found:
    # only melded cards worth more than the best deadwood discard are solved again.
    bounds = []
    left = mask
    while left:
        bit = left & -left
        left ^= bit
        card_value = _value(bit, ace_value)
        bounds.append((total - card_value - kept_melded, -card_value, -bit))
    bounds.sort()
    best: tuple[int, int, int] | None = None
    for bound in bounds:
        if best is not None and bound > best:
            break
        bit = -bound[2]
        key = bound
        if bit & union:
            rest = [meld for meld in melds if not meld & bit]
            melded = _best_melded(_union(rest), rest, memo, ace_value)[0] if rest else 0
            key = (total + bound[1] - melded, bound[1], bound[2])
        if best is None or key < best:
            best = key
    assert best is not None
    discard = -best[2]
    kept = mask ^ discard
    count, chosen = _solve(kept, around_the_corner, ace_value)
    return Card.from_index(discard.bit_length() - 1), _arrangement(kept, chosen, count)


# --- The independent slow solver, for tests --------------------------------------------


def brute_force_best_count(
    cards: Iterable[Card], *, around_the_corner: bool = False, ace_value: int = 1
) -> int:
    """The best count by plain search: every subset of one rank or one suit that
    :func:`is_meld` accepts, then every collection of disjoint ones. Slow; for tests."""
    hand = list(cards)
    if len(set(hand)) != len(hand):
        raise DuplicateCardError("a card is given twice")
    groups = [[c for c in hand if c.rank == rank] for rank in range(1, 14)]
    groups += [[c for c in hand if c.suit_number == suit] for suit in range(4)]
    candidates = [
        frozenset(combo)
        for group in groups
        for size in range(3, len(group) + 1)
        for combo in combinations(group, size)
        if is_meld(combo, around_the_corner)
    ]

    def most_melded(i: int, used: frozenset[Card]) -> int:
        if i == len(candidates):
            return 0
        best = most_melded(i + 1, used)
        if not candidates[i] & used:
            value = sum(card.value(ace_value) for card in candidates[i])
            best = max(best, value + most_melded(i + 1, used | candidates[i]))
        return best

    return sum(card.value(ace_value) for card in hand) - most_melded(0, frozenset())

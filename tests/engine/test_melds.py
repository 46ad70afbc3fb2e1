"""Melds and arrangements (RULES.md C3, C4, C8, V4), held against a brute-force solver."""

from __future__ import annotations

import os
from collections.abc import Sequence
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.cards import ALL_CARDS, Card, cards_mask, count_of, mask_cards, parse_cards
from scorekeeper.engine.errors import DuplicateCardError
from scorekeeper.engine.melds import (
    Arrangement,
    arrangements,
    best_arrangement,
    best_arrangements,
    best_count,
    best_discard,
    brute_force_best_count,
    hand_melds,
    is_meld,
    is_run,
    is_set,
    run_order,
)

FULL_PACK = (1 << 52) - 1


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def codes(meld: Sequence[Card]) -> str:
    return " ".join(card.code for card in meld)


# --- One meld (C3, V4) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("7C 7D 7H", True),
        ("7S 7C 7D 7H", True),
        ("7C 7D", False),
        ("7C 7D 8H", False),
        ("7C 7C 7D", False),
        ("7C 8C 9C", False),
    ],
)
def test_is_set(text: str, expected: bool) -> None:
    assert is_set(cards(text)) is expected


@pytest.mark.parametrize(
    ("text", "plain", "around"),
    [
        ("AH 2H 3H", True, True),
        ("3H AH 2H", True, True),
        ("JS QS KS", True, True),
        ("QS KS AS", False, True),
        ("KS AS 2S", False, True),
        ("QS KS AS 2S 3S", False, True),
        ("JS KS AS", False, False),
        ("AH 2H", False, False),
        ("AH 2H 4H", False, False),
        ("AH 2H 3D", False, False),
        ("AH 2H 2H", False, False),
        ("KH AH 2H 4H", False, False),
        ("AH 2H 3H 5H 6H", False, False),
        (" ".join(f"{rank}C" for rank in "A23456789TJQK"), True, True),
    ],
)
def test_is_run(text: str, plain: bool, around: bool) -> None:
    assert is_run(cards(text)) is plain
    assert is_run(cards(text), around_the_corner=True) is around
    assert is_meld(cards(text), around_the_corner=True) is around


def test_run_order() -> None:
    assert codes(run_order(cards("3H AH 2H"))) == "AH 2H 3H"
    assert codes(run_order(cards("2C AC KC QC"), around_the_corner=True)) == "QC KC AC 2C"
    assert codes(run_order(cards("AC KC QC"), around_the_corner=True)) == "QC KC AC"
    full = cards("KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD")
    assert codes(run_order(full, around_the_corner=True)) == codes(sorted(full))
    with pytest.raises(ValueError, match="is not a run"):
        run_order(cards("QC KC AC"))
    with pytest.raises(ValueError, match="is not a run"):
        run_order(cards("7C 7D 7H"))


# --- The melds of a hand ----------------------------------------------------------------


def test_full_pack_melds_ace_low() -> None:
    melds = hand_melds(FULL_PACK)
    sets = 13 * (4 + 1)  # per rank: the 4-set and its four 3-sets
    runs = 4 * sum(14 - length for length in range(3, 14))  # a run of L starts at 14-L ranks
    assert (sets, runs) == (65, 264)
    assert len(melds) == len(set(melds)) == sets + runs == 329
    # OpenSpiel's count of melds of 3 to 5 cards.
    assert sum(1 for meld in melds if meld.bit_count() <= 5) == 185
    assert all(is_meld(mask_cards(meld)) for meld in melds)
    # No K-A-2 or Q-K-A: a run holding both the king and the ace is the whole suit.
    king_and_ace = [meld for meld in melds for suit in range(4) if meld >> 13 * suit & 0x1001 == 0x1001]
    assert king_and_ace == [0x1FFF << 13 * suit for suit in range(4)]


def test_full_pack_melds_around_the_corner() -> None:
    melds = hand_melds(FULL_PACK, around_the_corner=True)
    # Per suit: 13 arcs of each length 3..12 around the circle, and the whole suit once.
    runs = 4 * (13 * 10 + 1)
    assert len(melds) == len(set(melds)) == 65 + runs == 589
    assert all(is_meld(mask_cards(meld), around_the_corner=True) for meld in melds)


def test_hand_melds_of_a_hand() -> None:
    hand = cards_mask(cards("7C 7D 7H 7S 3S 4S 5S 6S 9H KD"))
    melds = {codes(mask_cards(meld)) for meld in hand_melds(hand)}
    assert melds == {
        "7C 7D 7H 7S",
        "7C 7D 7H",
        "7C 7D 7S",
        "7C 7H 7S",
        "7D 7H 7S",
        "3S 4S 5S",
        "4S 5S 6S",
        "5S 6S 7S",
        "3S 4S 5S 6S",
        "4S 5S 6S 7S",
        "3S 4S 5S 6S 7S",
    }
    assert hand_melds(cards_mask(cards("KS AS 2S"))) == []
    assert len(hand_melds(cards_mask(cards("KS AS 2S")), around_the_corner=True)) == 1


def test_hand_melds_rejects_a_bad_mask() -> None:
    with pytest.raises(ValueError, match="not a mask"):
        hand_melds(1 << 52)
    with pytest.raises(ValueError, match="not a mask"):
        hand_melds(-1)


# --- Best arrangements of known hands ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count", "melds"),
    [
        # A 4-set split to serve a run.
        ("7C 7D 7H 7S 8S 9S 2D 2H 5C KD", 19, ["7C 7D 7H", "7S 8S 9S"]),
        # A long run split at both ends to serve two sets.
        ("3S 4S 5S 6S 7S 8S 9S 6C 6D KC", 10, ["6C 6D 6S", "3S 4S 5S", "7S 8S 9S"]),
        ("3H 4H 5H 6H 7H 7C 7D KS QS 2C", 22, ["7C 7D 7H", "3H 4H 5H 6H"]),
        ("AS 2S 3S 7H 7D 7C 9D 10D JD 4C", 4, ["7C 7D 7H", "9D 10D JD", "AS 2S 3S"]),
        # No melds at all: the largest count a hand of ten can have (RULES.md §6, 98).
        ("KC KD QH QS JC JD 10H 10S 9C 9D", 98, []),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C", 0, ["AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"]),
    ],
)
def test_known_hands(text: str, count: int, melds: list[str]) -> None:
    hand = cards(text)
    best = best_arrangement(hand)
    assert best.count == count == best_count(hand) == brute_force_best_count(hand)
    assert [codes(meld) for meld in best.melds] == melds
    assert_valid(best, hand, False, 1)


def test_around_the_corner_hands() -> None:
    hand = cards("QS KS AS 2S 3S 7C 8D 9H 10C JD")
    assert best_count(hand) == 10 + 10 + 7 + 8 + 9 + 10 + 10  # A-2-3 only
    best = best_arrangement(hand, around_the_corner=True)
    assert [codes(meld) for meld in best.melds] == ["QS KS AS 2S 3S"]
    assert best.count == 7 + 8 + 9 + 10 + 10


def test_ace_value_15() -> None:
    hand = cards("AC AD AH 2C 3C 9S 9H 5D KD JC")
    # Ace 1: the run A-2-3 saves more than the three aces.
    assert best_count(hand) == 1 + 1 + 9 + 9 + 5 + 10 + 10
    # Ace 15: the set of aces is worth 45, the run only 20.
    best = best_arrangement(hand, ace_value=15)
    assert [codes(meld) for meld in best.melds] == ["AC AD AH"]
    assert best.count == 2 + 3 + 9 + 9 + 5 + 10 + 10 == brute_force_best_count(hand, ace_value=15)
    assert best_count(cards("AS KH"), ace_value=15) == 25


def test_ties_are_broken_as_documented() -> None:
    hand = cards("5C 6C 7C 5D 6D 7D 5H 6H 7H KS")
    found = best_arrangements(hand)
    assert [[codes(meld) for meld in a.melds] for a in found] == [
        ["5C 6C 7C", "5D 6D 7D", "5H 6H 7H"],
        ["5C 5D 5H", "6C 6D 6H", "7C 7D 7H"],
    ]
    assert best_arrangement(hand) == found[0] == arrangements(hand)[0]


def test_arrangements_of_a_small_hand() -> None:
    found = arrangements(cards("4C 5C 6C 7C KD"))
    assert [str(a) for a in found] == [
        "4♣-5♣-6♣-7♣; deadwood K♦ = 10",
        "5♣-6♣-7♣; deadwood 4♣ K♦ = 14",
        "4♣-5♣-6♣; deadwood 7♣ K♦ = 17",
        "no melds; deadwood 4♣ 5♣ 6♣ 7♣ K♦ = 32",
    ]
    assert arrangements(cards("4C 5C 6C 7C KD"), max_count=9) == []


def test_inputs() -> None:
    hand = cards("7C 7D 7H 2S")
    assert best_count(cards_mask(hand)) == best_count(iter(hand)) == 2
    assert best_arrangement(cards_mask(hand)) == best_arrangement(tuple(hand))
    assert best_arrangement([]) == Arrangement((), (), 0)
    with pytest.raises(DuplicateCardError, match="7C is given twice"):
        best_count(cards("7C 8D 7C"))
    with pytest.raises(DuplicateCardError):
        arrangements(cards("7C 8D 7C"))
    with pytest.raises(DuplicateCardError):
        brute_force_best_count(cards("7C 8D 7C"))
    with pytest.raises(ValueError, match="an ace cannot count 0"):
        best_count(cards("AC"), ace_value=0)
    with pytest.raises(ValueError, match="an ace cannot count -1"):
        arrangements(cards("AC"), ace_value=-1)


def test_arrangement_helpers() -> None:
    best = best_arrangement(cards("7C 7D 7H 2S 3D"))
    assert best.mask_melds == (cards_mask(cards("7C 7D 7H")),)
    assert best.deadwood_mask == cards_mask(cards("3D 2S"))
    assert best.cards == tuple(sorted(cards("7C 7D 7H 2S 3D")))


# --- The discard from eleven ------------------------------------------------------------


def test_best_discard() -> None:
    discard, rest = best_discard(cards("AS 2S 3S 4S 7C 7D 7H 9D 10D JD KC"))
    assert discard.code == "KC" and rest.count == 0
    # All eleven melded: any 7 or the A or 4 of spades keeps gin; the highest value
    # wins, then the highest index (spades).
    discard, rest = best_discard(cards("AS 2S 3S 4S 7C 7D 7H 7S 9D 10D JD"))
    assert discard.code == "7S" and rest.count == 0
    # Two kings of deadwood: the higher index goes.
    discard, rest = best_discard(cards("AS 2S 3S 7C 7D 7H 9D 10D JD KC KD"))
    assert discard.code == "KD" and rest.count == 10
    with pytest.raises(ValueError, match="no card"):
        best_discard([])


# --- Properties against the brute force -------------------------------------------------


def assert_valid(found: Arrangement, hand: Sequence[Card], around: bool, ace_value: int) -> None:
    """Melds disjoint and valid, in display order; melds + deadwood is the hand."""
    placed = [card for meld in found.melds for card in meld] + list(found.deadwood)
    assert sorted(placed) == sorted(hand)
    assert len(set(placed)) == len(placed)
    for meld in found.melds:
        assert is_meld(meld, around)
        expected = run_order(meld, around) if is_run(meld, around) else tuple(sorted(meld))
        assert meld == expected
    lowest = [min(card.index for card in meld) for meld in found.melds]
    assert lowest == sorted(lowest)
    assert list(found.deadwood) == sorted(found.deadwood)
    assert found.count == count_of(found.deadwood, ace_value)


def all_collections(hand: Sequence[Card], around: bool) -> set[frozenset[frozenset[Card]]]:
    """Every collection of disjoint melds, from every subset that is_meld accepts."""
    melds = [
        frozenset(subset)
        for size in range(3, len(hand) + 1)
        for subset in combinations(hand, size)
        if is_meld(subset, around)
    ]
    found: set[frozenset[frozenset[Card]]] = set()

    def walk(i: int, chosen: frozenset[frozenset[Card]], used: frozenset[Card]) -> None:
        if i == len(melds):
            found.add(chosen)
            return
        walk(i + 1, chosen, used)
        if not melds[i] & used:
            walk(i + 1, chosen | {melds[i]}, used | melds[i])

    walk(0, frozenset(), frozenset())
    return found


def band(low: int, width: int) -> list[Card]:
    """Every card of ``width`` ranks from ``low`` (wrapping K to A): a dense hand's source."""
    ranks = {(low - 1 + k) % 13 + 1 for k in range(width)}
    return [card for card in ALL_CARDS if card.rank in ranks]


random_hands = st.lists(st.sampled_from(ALL_CARDS), min_size=10, max_size=10, unique=True)
bands = st.builds(band, st.integers(1, 13), st.sampled_from([3, 4]))
dense_hands = bands.flatmap(st.permutations).map(lambda cards: cards[:10])
dense_elevens = bands.flatmap(st.permutations).map(lambda cards: cards[:11])
one_suit_runs = st.lists(st.sampled_from(ALL_CARDS[:13]), min_size=3, max_size=11, unique=True)
ace_values = st.sampled_from([1, 15])


def quick(examples: int, **more: Any) -> settings:
    """Hypothesis settings for a brute-force comparison: ``examples`` in ``make test``,
    a tenth of them in ``make check`` (SCOREKEEPER_QUICK), the edit loop."""
    if os.environ.get("SCOREKEEPER_QUICK"):
        examples = max(examples // 10, 20)
    more.setdefault("suppress_health_check", [HealthCheck.too_slow])
    return settings(max_examples=examples, deadline=None, **more)


@quick(1000)
@given(random_hands, st.booleans(), ace_values)
def test_random_hands_match_brute_force(hand: list[Card], around: bool, ace_value: int) -> None:
    best = best_arrangement(hand, around_the_corner=around, ace_value=ace_value)
    expected = brute_force_best_count(hand, around_the_corner=around, ace_value=ace_value)
    assert best.count == expected
    assert best_count(cards_mask(hand), around_the_corner=around, ace_value=ace_value) == expected
    assert_valid(best, hand, around, ace_value)


@quick(1000)
@given(dense_hands, st.booleans(), ace_values)
def test_dense_hands_match_brute_force(hand: list[Card], around: bool, ace_value: int) -> None:
    best = best_arrangement(hand, around_the_corner=around, ace_value=ace_value)
    assert best.count == brute_force_best_count(hand, around_the_corner=around, ace_value=ace_value)
    assert_valid(best, hand, around, ace_value)


@quick(400)
@given(one_suit_runs, st.booleans())
def test_one_suit_hands_match_brute_force(hand: list[Card], around: bool) -> None:
    assert best_count(hand, around_the_corner=around) == brute_force_best_count(
        hand, around_the_corner=around
    )


@quick(300)
@given(st.one_of(dense_hands, random_hands), st.booleans(), ace_values, st.integers(0, 40))
def test_arrangements_are_every_collection(
    hand: list[Card], around: bool, ace_value: int, max_count: int
) -> None:
    everything = arrangements(hand, around_the_corner=around, ace_value=ace_value)
    collections = [frozenset(frozenset(meld) for meld in a.melds) for a in everything]
    assert len(set(collections)) == len(collections)
    assert set(collections) == all_collections(hand, around)
    for found in everything:
        assert_valid(found, hand, around, ace_value)
    assert [a.count for a in everything] == sorted(a.count for a in everything)
    best = best_count(hand, around_the_corner=around, ace_value=ace_value)
    assert everything[0].count == best
    assert everything[0] == best_arrangement(hand, around_the_corner=around, ace_value=ace_value)
    limited = arrangements(hand, around_the_corner=around, ace_value=ace_value, max_count=max_count)
    assert limited == [a for a in everything if a.count <= max_count]
    assert best_arrangements(hand, around_the_corner=around, ace_value=ace_value) == [
        a for a in everything if a.count == best
    ]


@quick(300)
@given(st.one_of(dense_hands, random_hands), st.booleans())
def test_knock_limit_arrangements(hand: list[Card], around: bool) -> None:
    found = arrangements(hand, around_the_corner=around, max_count=10)
    assert all(a.count <= 10 for a in found)
    if best_count(hand, around_the_corner=around) <= 10:
        assert found[0] == best_arrangement(hand, around_the_corner=around)
    else:
        assert found == []


@quick(700)
@given(
    st.one_of(
        dense_elevens,
        random_hands.flatmap(
            lambda ten: st.sampled_from([c for c in ALL_CARDS if c not in ten]).map(
                lambda extra: [*ten, extra]
            )
        ),
    ),
    st.booleans(),
    ace_values,
)
def test_discard_matches_brute_force(hand: list[Card], around: bool, ace_value: int) -> None:
    discard, rest = best_discard(hand, around_the_corner=around, ace_value=ace_value)
    after = {
        card: brute_force_best_count(
            [c for c in hand if c != card], around_the_corner=around, ace_value=ace_value
        )
        for card in hand
    }
    lowest = min(after.values())
    assert rest.count == after[discard] == lowest
    ties = [card for card in hand if after[card] == lowest]
    assert discard == max(ties, key=lambda card: (card.value(ace_value), card.index))
    kept = [card for card in hand if card != discard]
    assert rest == best_arrangement(kept, around_the_corner=around, ace_value=ace_value)

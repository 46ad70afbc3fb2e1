"""Cards: every notation of C1 in, people's and JSON notation out, values of C2."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.cards import (
    ALL_CARDS,
    Card,
    Suit,
    cards_mask,
    count_of,
    mask_cards,
    parse_cards,
)
from scorekeeper.engine.errors import InvalidCardError, MalformedError

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@pytest.mark.rule("C1")
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("7C", "7C"),
        ("7c", "7C"),
        ("7♣", "7C"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("Th", "10H"),
        ("QS", "QS"),
        ("Q♠", "QS"),
        ("a♥", "AH"),
        ("k♦", "KD"),
        (" 2s ", "2S"),
        ("10♥", "10H"),
    ],
)
def test_every_notation_of_c1_is_read(text: str, code: str) -> None:
    assert Card.parse(text).code == code


@pytest.mark.rule("C1")
@pytest.mark.parametrize("text", ["7C 10H QS", "7C,10H,QS", "7c10hq♠", "7♣, 10H;QS", "7C  TH qs"])
def test_card_lists_with_or_without_separators(text: str) -> None:
    assert [c.code for c in parse_cards(text)] == ["7C", "10H", "QS"]


@pytest.mark.rule("C1")
@pytest.mark.parametrize("bad", ["11H", "1H", "ZZ", "7X", "", "10", "H7", "7CC", "0S"])
def test_bad_card_names_the_text(bad: str) -> None:
    with pytest.raises(InvalidCardError) as err:
        Card.parse(bad)
    assert repr(bad) in err.value.message
    assert err.value.code == "invalid-card"


@pytest.mark.rule("C1")
def test_bad_card_in_a_list_points_at_its_place() -> None:
    with pytest.raises(InvalidCardError) as err:
        parse_cards(["7C", "8C", "XX"], "hands.Bob.cards")
    assert err.value.where == "hands.Bob.cards[2]"
    assert "'XX'" in err.value.message
    with pytest.raises(MalformedError):
        parse_cards(7, "cards")  # type: ignore[arg-type]


@pytest.mark.rule("C1")
@given(st.sampled_from(ALL_CARDS))
def test_round_trip_through_both_notations(card: Card) -> None:
    assert Card.parse(card.code) == card
    assert Card.parse(str(card)) == card
    assert Card.parse(card.code.lower()) == card
    assert Card.parse(card.code.replace("10", "T")) == card
    assert eval(repr(card)) == card  # repr is the constructor call


@pytest.mark.rule("C1")
def test_people_notation_uses_suit_symbols() -> None:
    assert [str(Card.parse(f"7{s}")) for s in "CDHS"] == ["7♣", "7♦", "7♥", "7♠"]
    assert Card.parse("10D").suit is Suit.DIAMONDS and Suit.DIAMONDS.is_red
    assert not Suit.SPADES.is_red


@pytest.mark.rule("C1")
def test_pack_has_52_distinct_cards_indexed_0_to_51() -> None:
    assert len(set(ALL_CARDS)) == 52
    assert [c.index for c in ALL_CARDS] == list(range(52))
    assert all(Card.from_index(c.index) is c for c in ALL_CARDS)


@given(st.sets(st.sampled_from(ALL_CARDS)))
def test_masks_round_trip(cards: set[Card]) -> None:
    assert mask_cards(cards_mask(cards)) == sorted(cards)


@pytest.mark.rule("C2")
def test_values() -> None:
    values = {c.rank_name: c.value() for c in parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")}
    assert values == {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "10": 10,
        "J": 10,
        "Q": 10,
        "K": 10,
    }
    assert count_of(parse_cards("AS KH 5D")) == 16


@pytest.mark.rule("V4")
def test_ace_value_setting_changes_the_count() -> None:
    assert Card.parse("AH").value(15) == 15
    assert count_of(parse_cards("AS AH 2C"), ace_value=15) == 32

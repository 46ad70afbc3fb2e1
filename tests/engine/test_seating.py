"""Seats and turn order: Scarne's cut (J1), the deal (J2) and who plays first (J3, G1)."""

from __future__ import annotations

import pytest

from scorekeeper.engine import ScorekeeperError, adjudicate
from scorekeeper.engine.seating import cut_for_deal, eldest


@pytest.mark.rule("J1")
def test_high_card_deals_and_low_cards_sit_opposite() -> None:
    cut = cut_for_deal({"Ann": "4S", "Bob": "QH", "Cal": "9C"})
    assert (cut.dealer, cut.recut, cut.low) == ("Bob", (), ("Ann", "Cal"))
    assert "cut high (Q)" in cut.explain() and "J1" in cut.explain()
    assert cut_for_deal({"Ann": "4", "Bob": "Q", "Cal": "10"}).dealer == "Bob"


@pytest.mark.rule("J1")
def test_equal_ranks_cut_again_aces_low_suits_ignored() -> None:
    cut = cut_for_deal({"Ann": "KS", "Bob": "KH", "Cal": "AC"})
    assert (cut.dealer, cut.recut) == (None, ("Ann", "Bob"))
    cut = cut_for_deal({"Ann": "AS", "Bob": "2H", "Cal": "AC"})
    assert (cut.dealer, cut.recut) == (None, ("Ann", "Cal"))
    with pytest.raises(ScorekeeperError) as err:
        cut_for_deal({"Ann": "AS", "Bob": "AS", "Cal": "2C"})
    assert err.value.code == "duplicate-card"
    with pytest.raises(ScorekeeperError) as err:
        cut_for_deal({"Ann": "XX", "Bob": "AS"})
    assert (err.value.code, err.value.where) == ("invalid-card", "cuts.Ann")


@pytest.mark.rule("J3", "G1")
def test_the_player_at_the_dealers_left_plays_first() -> None:
    assert eldest(("Ann", "Bob", "Cal"), "Ann") == "Bob"
    assert eldest(("Ann", "Bob", "Cal"), "Cal") == "Ann"
    assert eldest(("Ann", "Bob"), "Bob") == "Ann"


@pytest.mark.rule("J2", "G1")
def test_ten_cards_each_an_eleventh_means_no_discard() -> None:
    hand = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"]
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(
            {
                "rules": "jersey-scarne",
                "players": ["A", "B", "C"],
                "ending": "knock",
                "by": "A",
                "hands": {"A": {"cards": hand}, "B": {"count": 5}, "C": {"count": 5}},
            }
        )
    assert err.value.code == "wrong-hand-size"
    assert "discard was not made" in err.value.message
    assert err.value.where == "hands.A.cards"


@pytest.mark.rule("P1", "P2")
def test_parlett_discard_choices_leave_the_showdown_unchanged() -> None:
    # P1 and P2 govern the draw (first upcard, the top two discards); a box is scored from
    # what is shown at the end, so Parlett's preset accepts the same showdown as Scarne's
    # three-hand game, and its upcard is not part of the duplicate check.
    hands = {"A": {"count": 4}, "B": {"count": 10}, "C": {"count": 20}}
    ruling = adjudicate(
        {
            "rules": "three-hand-parlett",
            "players": ["A", "B", "C"],
            "ending": "knock",
            "by": "A",
            "upcard": "4S",
            "hands": {**hands, "A": {"cards": ["4S", "5S", "6S", "KC", "KD", "KH", "AC", "AD", "2C", "3H"]}},
        }
    )
    assert ruling["counts"]["A"] == 7  # the upcard 4S was taken into A's hand: no duplicate
    assert (ruling["winner"], ruling["points"]) == ("A", (10 - 7) + (20 - 7))

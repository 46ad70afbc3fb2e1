"""A declared hand is exactly what was laid on the table (CONTRACT.md, RULES.md C8): the
engine never adds a layoff the scorer did not enter, in any ending; a layoff the hand
missed is advice, not part of the ruling.

In each box below Bob's declared deadwood holds 9♦, which fits Ann's nines (or Ann's
9♦ fits Bob's, after the break), and nobody entered that layoff.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import adjudicate

PLAYERS = ["Ann", "Bob", "Cal"]
NINES = {"melds": [["9S", "9H", "9C"], ["AS", "2S", "3S"], ["7H", "7D", "7C"]], "deadwood": ["4D"]}
"""Ann: three melds and 4 deadwood."""
BOB = {"melds": [["4H", "5H", "6H"], ["KS", "KH", "KC"]], "deadwood": ["9D", "2D", "3C", "JD"]}
"""Bob: two melds; deadwood 9 + 2 + 3 + 10 = 24, of which 9♦ fits Ann's nines."""


def ruled(ending: str, by: str, hands: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return adjudicate(
        {"rules": "jersey-scarne", "players": PLAYERS, "ending": ending, "by": by, "hands": hands, **extra}
    )


def laid_as_declared(
    ruling: dict[str, Any], player: str, count: int, layoffs: list[dict[str, Any]] | None = None
) -> None:
    """The player's hand in the ruling is what was declared: its count, no other layoff."""
    assert ruling["counts"][player] == count
    assert ruling["hands"][player]["count"] == count
    assert [{"card": lay["card"], "onto": lay["onto"]} for lay in ruling["hands"][player]["layoffs"]] == (
        layoffs or []
    )
    assert not [
        line for line in ruling["explanation"] if f"{player} laid off" in line["text"] and not layoffs
    ]


@pytest.mark.rule("C8", "J5")
def test_knock_a_declared_defender_keeps_the_card_he_did_not_lay_off() -> None:
    ruling = ruled("knock", "Ann", {"Ann": NINES, "Bob": BOB, "Cal": {"count": 30}})
    laid_as_declared(ruling, "Bob", 24)
    assert ruling["points"] == (24 - 4) + (30 - 4)
    assert any("Bob could have counted 15 instead of 24" in line["text"] for line in ruling["advice"])


@pytest.mark.rule("C8", "J9")
def test_gin_no_layoff_at_all_and_no_advice_to_lay_one() -> None:
    gin = {"melds": [["9S", "9H", "9C"], ["AS", "2S", "3S"], ["7H", "7D", "7C", "7S"]], "deadwood": []}
    ruling = ruled("gin", "Ann", {"Ann": gin, "Bob": BOB, "Cal": {"count": 30}})
    laid_as_declared(ruling, "Bob", 24)
    assert ruling["points"] == 24 + 30 + 40
    assert ruling["advice"] == []  # no layoffs on gin (J9): nothing was missed


@pytest.mark.rule("C8", "J11")
def test_break_first_round_keeps_the_declared_deadwood() -> None:
    ruling = ruled("break", "Ann", {"Ann": NINES, "Bob": BOB, "Cal": {"count": 30}})
    laid_as_declared(ruling, "Bob", 24)
    assert any("Bob could have counted 15 instead of 24" in line["text"] for line in ruling["advice"])


@pytest.mark.rule("C8", "J13")
def test_break_gin_keeps_the_declared_deadwood() -> None:
    ruling = ruled(
        "gin",
        "Cal",
        {
            "Ann": NINES,
            "Bob": BOB,
            "Cal": {
                "melds": [["AH", "2H", "3H"], ["QS", "QH", "QD"], ["8S", "8H", "8C", "8D"]],
                "deadwood": [],
            },
        },
        after_break=True,
        breaker="Ann",
    )
    laid_as_declared(ruling, "Bob", 24)
    assert ruling["result"] == "break-gin" and ruling["points"] == 4 + 24


@pytest.mark.rule("C8", "J11")
def test_play_after_the_break_adds_no_layoff_to_the_declared_breaker() -> None:
    """The case of issue 21: the breaker declared melds and deadwood, play went on after
    the first round, and the engine laid his 9♦ on Bob's nines for him."""
    ann = {"melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]], "deadwood": ["9D", "10C", "JC", "QH"]}
    bob = {"melds": [["9S", "9H", "9C"], ["4H", "5H", "6H"]], "deadwood": ["KS", "KD", "QD", "2D"]}
    ruling = ruled("break", "Ann", {"Ann": ann, "Bob": bob, "Cal": {"count": 30}}, second_round=True)
    laid_as_declared(ruling, "Ann", 39)
    laid_as_declared(ruling, "Bob", 32)
    assert (ruling["winner"], ruling["points"]) == ("Cal", (39 - 30) + (32 - 30))
    assert ruling["advice"] == [
        {
            "rule": "J11",
            "player": "Ann",
            "text": "Ann could have laid 9♦ on Bob's 9♣-9♥-9♠ in a later round, counting 30 "
            "instead of 39; what was laid on the table is what is scored (C8)",
        }
    ]


@pytest.mark.rule("C8", "J11")
def test_play_after_the_break_keeps_a_declared_later_layoff() -> None:
    ann = {
        "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"]],
        "deadwood": ["10C", "JC", "QH"],
        "layoffs": [{"card": "9D", "onto": "Bob"}],
    }
    bob = {"melds": [["9S", "9H", "9C"], ["4H", "5H", "6H"]], "deadwood": ["KS", "KD", "QD", "2D"]}
    ruling = ruled("break", "Ann", {"Ann": ann, "Bob": bob, "Cal": {"count": 35}}, second_round=True)
    laid_as_declared(ruling, "Ann", 30, [{"card": "9D", "onto": "Bob"}])
    assert ruling["winner"] == "Ann" and ruling["advice"] == []


@pytest.mark.rule("C9", "J11")
def test_play_after_the_break_still_plays_a_hand_given_as_cards() -> None:
    """Cards without melds are the engine's to arrange (C9): there it lays off itself."""
    ann = {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10C", "JC", "QH"]}
    bob = {"melds": [["9S", "9H", "9C"], ["4H", "5H", "6H"]], "deadwood": ["KS", "KD", "QD", "2D"]}
    ruling = ruled("break", "Ann", {"Ann": ann, "Bob": bob, "Cal": {"count": 35}}, second_round=True)
    assert ruling["counts"]["Ann"] == 30
    assert [lay["card"] for lay in ruling["hands"]["Ann"]["layoffs"]] == ["9D"]

"""Knock Rummy is paid box by box (RULES.md K3, K5): each other player pays the winner,
the 25 for melding every card comes from each of them, and two players settle the sum
of what each paid the other, never the difference of their totals (J16 does not apply).

The golden test is K5's worked example, figure by figure.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import adjudicate
from scorekeeper.engine.game import score
from tests.engine.test_game import column, game, knock

PLAYERS = ["Ann", "Bob", "Cal"]

# K5: Ann knocks with 4 and wins box 1 (Bob 15, Cal 10: Bob pays 11, Cal 6); in box 2
# Cal knocks with 6 and Bob undercuts with 2 (Ann 12: Ann pays 10, Cal 4 + 10).
K5_BOXES = [knock("Ann", Ann=4, Bob=15, Cal=10), knock("Cal", Cal=6, Bob=2, Ann=12)]


def k5_game(**extra: Any) -> dict[str, Any]:
    return game("knock-rummy", PLAYERS, "Ann", K5_BOXES, **extra)


@pytest.mark.rule("K3", "K5")
def test_k5_worked_example_settles_box_by_box() -> None:
    sheet = score(k5_game(ended="agreed"))
    assert column(sheet, "payments") == [
        [{"from": "Bob", "to": "Ann", "points": 11}, {"from": "Cal", "to": "Ann", "points": 6}],
        [{"from": "Cal", "to": "Bob", "points": 14}, {"from": "Ann", "to": "Bob", "points": 10}],
    ]  # in table order from the knocker
    assert column(sheet, "points") == [17, 24]
    assert sheet["totals"] == sheet["final_totals"] == {"Ann": 17, "Bob": 24, "Cal": 0}
    assert sheet["settlement"] == [
        {"from": "Bob", "to": "Ann", "points": 1},
        {"from": "Cal", "to": "Ann", "points": 6},
        {"from": "Cal", "to": "Bob", "points": 14},
    ]
    texts = [line["text"] for line in sheet["explanation"] if line["rule"] == "K5"]
    assert "Bob paid Ann 11 in hand 1; Ann paid Bob 10 in hand 2: Bob pays Ann 1 (11 - 10)" in texts
    assert "Cal paid Ann 6 in hand 1: Cal pays Ann 6" in texts
    assert "Cal paid Bob 14 in hand 2: Cal pays Bob 14" in texts
    assert not [line for line in sheet["explanation"] if line["rule"] in ("J15", "J16")]
    assert sheet["shutouts"] == []


@pytest.mark.rule("K3")
def test_box_credit_is_the_sum_of_each_payment_with_the_undercut_bonus_from_the_knocker() -> None:
    ruling = adjudicate({"rules": "knock-rummy", "players": PLAYERS, **K5_BOXES[1]})
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("underknock", "Bob", 24)
    assert ruling["explanation"][-1] == {
        "rule": "K3",
        "text": "Cal pays Bob 4 + 10 = 14; Ann pays Bob 10: Bob is paid 24",
    }


@pytest.mark.rule("K3")
def test_all_cards_melded_earns_25_from_each_other_player() -> None:
    four = ["Ann", "Bob", "Cal", "Dan"]
    ruling = adjudicate(
        {"rules": "knock-rummy", "players": four, **knock("Cal", Cal=0, Ann=10, Bob=15, Dan=30)}
    )
    assert ruling["result"] == "gin"
    assert ruling["payments"] == [
        {"from": "Dan", "to": "Cal", "points": 55},
        {"from": "Ann", "to": "Cal", "points": 35},
        {"from": "Bob", "to": "Cal", "points": 40},
    ]
    assert ruling["points"] == 55 + 3 * 25
    assert "Cal melded every card: 25 more from each other player, 25 x 3 = 75" in [
        line["text"] for line in ruling["explanation"]
    ]


@pytest.mark.rule("K3", "V5")
def test_payments_follow_the_multiplier() -> None:
    ruling = adjudicate(
        {"rules": "knock-rummy", "players": ["Ann", "Bob"], "multiplier": 2, **knock("Ann", Ann=3, Bob=20)}
    )
    assert ruling["points"] == 34
    assert ruling["payments"] == [{"from": "Bob", "to": "Ann", "points": 34}]


@pytest.mark.rule("K5")
def test_at_the_target_the_settlement_is_still_box_by_box() -> None:
    four = ["Ann", "Bob", "Cal", "Dan"]
    sheet = score(
        game(
            "knock-rummy",
            four,
            "Dan",
            [
                knock("Ann", Ann=12, Bob=20, Cal=15, Dan=30),  # Bob 8, Cal 3, Dan 18: Ann 29
                knock("Cal", Cal=0, Ann=10, Bob=15, Dan=30),  # 35 + 40 + 55 = 130: Cal reaches 100
            ],
            stake=0.5,
        )
    )
    assert sheet["game_over"] and sheet["winner"] == "Cal"
    assert sheet["game_bonus"] == {"Cal": 0}
    assert sheet["box_bonuses"] == {p: 0 for p in four}
    assert sheet["shutouts"] == []
    assert sheet["final_totals"] == sheet["totals"] == {"Ann": 29, "Bob": 0, "Cal": 130, "Dan": 0}
    assert sheet["settlement"] == [  # not the difference of totals: Bob pays Ann 8, not 29
        {"from": "Bob", "to": "Ann", "points": 8, "amount": 4.0},
        {"from": "Ann", "to": "Cal", "points": 32, "amount": 16.0},  # 35 - 3
        {"from": "Dan", "to": "Ann", "points": 18, "amount": 9.0},
        {"from": "Bob", "to": "Cal", "points": 40, "amount": 20.0},
        {"from": "Dan", "to": "Cal", "points": 55, "amount": 27.5},
    ]
    rules = {line["rule"] for line in sheet["explanation"]}
    assert rules <= {"K5", "V6"}, rules
    assert (
        "Cal reached 130 in hand 2 (the agreed stop at 100): the game ends, with no game "
        "or hand bonus" in [line["text"] for line in sheet["explanation"]]
    )

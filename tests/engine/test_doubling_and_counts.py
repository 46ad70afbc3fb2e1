"""Doubling's multiplier and refused double (V5); the counts RULES.md §6 accepts."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import adjudicate, score
from scorekeeper.engine.errors import ScorekeeperError


def doubling_box(**extra: Any) -> dict[str, Any]:
    return {
        "rules": "doubling",
        "players": ["Ann", "Bob"],
        "ending": "knock",
        "by": "Ann",
        "hands": {"Ann": {"count": 4}, "Bob": {"count": 27}},
        **extra,
    }


@pytest.mark.rule("V5")
@pytest.mark.parametrize("multiplier", [1, 2, 4, 8, 1024])
def test_a_power_of_two_multiplies_the_box(multiplier: int) -> None:
    ruling = adjudicate(doubling_box(multiplier=multiplier))
    assert ruling["points"] == 23 * multiplier
    assert ruling["credits"] == {"Ann": 23 * multiplier, "Bob": 0}


@pytest.mark.rule("V5")
@pytest.mark.parametrize("multiplier", [3, 0, -2, 6, 2048, 2.0, "2", True])
def test_a_multiplier_that_is_not_a_power_of_two_is_an_error(multiplier: object) -> None:
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate(doubling_box(multiplier=multiplier))
    assert caught.value.code == "malformed"
    assert caught.value.where == "multiplier"
    assert "power of two" in caught.value.message and "(V5)" in caught.value.message


@pytest.mark.rule("V5")
def test_the_explanation_shows_the_score_before_and_after_doubling() -> None:
    ruling = adjudicate(doubling_box(multiplier=4))
    v5 = [step["text"] for step in ruling["explanation"] if step["rule"] == "V5"]
    assert v5 == ["the hand was redoubled: 23 before doubling, 23 x 4 = 92"]
    assert ruling["explanation"][0] == {"rule": "G4", "text": "Ann knocked with 4; Bob 27: 27-4 = 23"}


@pytest.mark.rule("V5")
def test_a_refused_double_that_forced_the_knock_is_noted_not_scored() -> None:
    plain = adjudicate(doubling_box(multiplier=2))
    refused = adjudicate(doubling_box(multiplier=2, double_refused="Ann"))
    assert refused["points"] == plain["points"] == 46
    assert refused["double_refused"] == "Ann"
    assert "double_refused" not in plain
    assert {
        "rule": "V5",
        "text": "Ann's double was refused: it did not take effect, and Ann had to knock at once",
    } in refused["explanation"]


@pytest.mark.rule("V5")
@pytest.mark.parametrize(
    "extra, where, words",
    [
        (
            {"double_refused": "Bob"},
            "double_refused",
            "Bob had to knock at once, but the box shows Ann ending it",
        ),
        ({"double_refused": "Cal"}, "double_refused", "not one of the players"),
        ({"double_refused": "Ann", "rules": "gin"}, "double_refused", "Gin Rummy has no doubling"),
    ],
)
def test_a_refused_double_names_the_knocker(extra: dict[str, Any], where: str, words: str) -> None:
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate(doubling_box(**extra))
    assert caught.value.where == where
    assert words in caught.value.message


@pytest.mark.rule("V5", "G8")
def test_bonuses_are_not_doubled() -> None:
    body = {k: v for k, v in doubling_box(multiplier=8).items() if k not in ("rules", "players")}
    sheet = score({"rules": "doubling", "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": [body]})
    assert sheet["totals"] == {"Ann": 184, "Bob": 0}
    assert sheet["final_totals"] == {"Ann": 184 + 25 + 100, "Bob": 0}


# --- RULES.md §6: counts --------------------------------------------------------------


@pytest.mark.rule("C6", "G2", "J9")
@pytest.mark.parametrize(
    "rules, hands",
    [
        ("gin", {"Ann": {"count": 5}, "Bob": {"count": 30}}),
        ("jersey-scarne", {"Ann": {"count": 12}, "Bob": {"count": 30}, "Cal": {"count": 3}}),
    ],
)
def test_a_gin_entered_with_a_count_is_gin_must_count_0(rules: str, hands: dict[str, Any]) -> None:
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate({"rules": rules, "players": list(hands), "ending": "gin", "by": "Ann", "hands": hands})
    assert caught.value.code == "gin-must-count-0"
    assert caught.value.message.startswith("gin must count 0: Ann's count was entered as ")
    assert "knock limit" not in caught.value.message
    assert caught.value.where == "hands.Ann.count"


@pytest.mark.rule("C6")
def test_a_gin_laid_out_with_deadwood_is_gin_must_count_0() -> None:
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate(
            {
                "rules": "gin",
                "players": ["Ann", "Bob"],
                "ending": "gin",
                "by": "Ann",
                "hands": {"Ann": {"cards": "AS 2S 3S 4H 5H 6H 9C 9D 9S KD"}, "Bob": {"count": 30}},
            }
        )
    assert caught.value.code == "gin-must-count-0"
    assert "Ann's count is 10" in caught.value.message


@pytest.mark.rule("C2", "V4")
def test_the_highest_count_follows_the_ace_value() -> None:
    def knock(ace_value: int, bob: int) -> dict[str, Any]:
        return adjudicate(
            {
                "rules": "gin",
                "settings": {"ace_value": ace_value},
                "players": ["Ann", "Bob"],
                "ending": "knock",
                "by": "Ann",
                "hands": {"Ann": {"count": 3}, "Bob": {"count": bob}},
            }
        )

    assert knock(15, 110)["points"] == 107
    with pytest.raises(ScorekeeperError) as caught:
        knock(1, 99)
    assert "from 0 to 98" in caught.value.message
    with pytest.raises(ScorekeeperError) as caught:
        knock(15, 111)
    assert "from 0 to 110" in caught.value.message

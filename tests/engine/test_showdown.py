"""Rulings on single boxes: golden examples worked by hand, one or more per rule id."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine import ScorekeeperError, adjudicate

JERSEY = ["Ann", "Bob", "Cal"]  # Bob's left is Cal, Cal's left is Ann


def box(
    rules: str, players: list[str], ending: str, by: str | None, hands: dict[str, Any], **extra: Any
) -> dict[str, Any]:
    data: dict[str, Any] = {"rules": rules, "players": players, "ending": ending, "hands": hands}
    if by is not None:
        data["by"] = by
    data.update(extra)
    return data


def counts(**values: int) -> dict[str, Any]:
    return {name: {"count": value} for name, value in values.items()}


def texts(ruling: dict[str, Any]) -> str:
    return " | ".join(f"{s['rule']}: {s['text']}" for s in ruling["explanation"])


CONTRACT_BOX: dict[str, Any] = {
    "rules": "jersey-scarne",
    "settings": {"underknock_bonus": 10},
    "players": ["Ann", "Bob", "Cal"],
    "dealer": "Ann",
    "ending": "knock",
    "by": "Bob",
    "upcard": "7S",
    "multiplier": 1,
    "hands": {
        "Bob": {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
        "Cal": {
            "melds": [["KH", "KC", "KS"]],
            "deadwood": ["AH", "AD", "2C", "2H", "3D", "4H"],
            "layoffs": [{"card": "4S", "onto": "Bob"}],
        },
        "Ann": {"count": 14},
    },
}

CONTRACT_RULING: dict[str, Any] = {
    "result": "knock",
    "winner": "Bob",
    "points": 19,
    "credits": {"Ann": 0, "Bob": 19, "Cal": 0},
    "penalties": {},
    "counts": {"Ann": 14, "Bob": 4, "Cal": 13},
    "hands": {
        "Bob": {
            "melds": [["AS", "2S", "3S"], ["7C", "7D", "7H"], ["9D", "10D", "JD"]],
            "deadwood": ["4C"],
            "layoffs": [],
            "count": 4,
        },
        "Cal": {
            "melds": [["KC", "KH", "KS"]],
            "deadwood": ["AD", "AH", "2C", "2H", "3D", "4H"],
            "layoffs": [{"card": "4S", "onto": "Bob", "meld": 0}],
            "count": 13,
        },
    },
    "explanation": [
        {"rule": "J5", "text": "Cal laid off 4♠ on Bob's A♠-2♠-3♠"},
        {"rule": "J6", "text": "Bob knocked with 4; Cal 13, Ann 14: (13-4)+(14-4) = 19"},
    ],
    "advice": [],
}


@pytest.mark.rule("J5", "J6", "J8", "C8", "C9")
def test_contract_example_is_answered_exactly_as_documented() -> None:
    ruling = adjudicate(copy.deepcopy(CONTRACT_BOX))
    assert {key: ruling[key] for key in CONTRACT_RULING} == CONTRACT_RULING
    json.dumps(ruling)  # the whole ruling is JSON


def test_contract_md_still_shows_this_example() -> None:
    contract = Path(__file__).resolve().parents[3] / "shared" / "CONTRACT.md"
    if not contract.exists():
        pytest.skip("../shared/CONTRACT.md is not beside this checkout")
    text = contract.read_text()
    assert '"points": 19' in text and "(13-4)+(14-4) = 19" in text


# --- Jersey Gin: knock, underknock, gin (J6-J9) ------------------------------------------


@pytest.mark.rule("J6")
def test_scarnes_worked_example_5_against_15_and_13_is_18() -> None:
    ruling = adjudicate(box("jersey-scarne", ["A", "B", "C"], "knock", "A", counts(A=5, B=15, C=13)))
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("knock", "A", 18)
    assert ruling["credits"] == {"A": 18, "B": 0, "C": 0}
    assert "(15-5)+(13-5) = 18" in texts(ruling)


@pytest.mark.rule("J7")
def test_underknock_one_opponent() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Ann", counts(Ann=8, Bob=6, Cal=20)))
    # Bob underknocks: (8-6) + (20-6) + 10 = 26
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("underknock", "Bob", 26)
    assert ruling["credits"] == {"Ann": 0, "Bob": 26, "Cal": 0}
    assert "(8-6)+(20-6)+10 = 26" in texts(ruling)


@pytest.mark.rule("J7")
def test_tie_goes_to_the_defender_by_default_and_not_when_set_off() -> None:
    hands = counts(Ann=8, Bob=8, Cal=20)
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Ann", hands))
    assert (ruling["winner"], ruling["points"]) == ("Bob", 0 + 12 + 10)
    ruling = adjudicate(
        box("jersey-scarne", JERSEY, "knock", "Ann", hands, settings={"tie_goes_to_defender": False})
    )
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("knock", "Ann", 12)


@pytest.mark.rule("J7")
def test_both_underknock_the_lower_count_wins() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Ann", counts(Ann=8, Bob=5, Cal=3)))
    # Cal: (8-3) + (5-3) + 10 = 17
    assert (ruling["winner"], ruling["points"]) == ("Cal", 17)


@pytest.mark.rule("J7")
def test_both_underknock_equal_the_one_at_the_knockers_left_wins() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Bob", counts(Ann=5, Bob=8, Cal=5)))
    # Cal sits at Bob's left: (8-5) + (5-5) + 10 = 13
    assert (ruling["winner"], ruling["points"]) == ("Cal", 13)
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Cal", counts(Ann=5, Bob=5, Cal=8)))
    assert ruling["winner"] == "Ann"


@pytest.mark.rule("J7")
def test_underknock_bonus_setting() -> None:
    ruling = adjudicate(
        box(
            "jersey-scarne",
            JERSEY,
            "knock",
            "Ann",
            counts(Ann=8, Bob=6, Cal=20),
            settings={"underknock_bonus": 25},
        )
    )
    assert ruling["points"] == 2 + 14 + 25


@pytest.mark.rule("J8", "C7")
def test_only_the_box_winner_scores() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Cal", counts(Ann=30, Bob=1, Cal=2)))
    assert ruling["credits"] == {"Ann": 0, "Bob": ruling["points"], "Cal": 0}
    assert ruling["points"] == (2 - 1) + (30 - 1) + 10


@pytest.mark.rule("J9")
def test_jersey_gin_is_both_counts_plus_20_from_each() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "gin", "Ann", counts(Ann=0, Bob=15, Cal=20)))
    assert (ruling["result"], ruling["points"]) == ("gin", 15 + 20 + 40)
    assert "15+20+40 = 75" in texts(ruling)


@pytest.mark.rule("J9", "G3")
def test_no_layoffs_on_gin_cards_are_counted_on_their_own() -> None:
    ann = ["3S", "4S", "5S", "7H", "7D", "7C", "9D", "10D", "JD", "QD"]
    bob = ["6S", "2S", "KS", "KH", "QC", "JC", "5D", "4D", "AC", "2H"]  # 6S,2S would fit Ann's run
    ruling = adjudicate(
        box(
            "jersey-scarne",
            JERSEY,
            "gin",
            "Ann",
            {"Ann": {"cards": ann}, "Bob": {"cards": bob}, "Cal": {"count": 9}},
        )
    )
    assert ruling["hands"]["Bob"]["layoffs"] == []
    assert ruling["counts"]["Bob"] == 6 + 2 + 10 + 10 + 10 + 10 + 5 + 4 + 1 + 2
    layoff = {"melds": [], "deadwood": bob[1:], "layoffs": [{"card": "6S", "onto": "Ann"}]}
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(
            box(
                "jersey-scarne",
                JERSEY,
                "gin",
                "Ann",
                {"Ann": {"cards": ann}, "Bob": layoff, "Cal": {"count": 9}},
            )
        )
    assert err.value.code == "layoff-on-gin"
    assert err.value.where == "hands.Bob.layoffs[0]"


# --- laying off (C5, J5) --------------------------------------------------------------------

KNOCKER_RUN = ["3S", "4S", "5S", "7H", "7D", "7C", "9D", "10D", "JD", "2C"]  # count 2
CAL_CHAIN = ["6S", "7S", "QH", "KH", "KC", "KS", "2H", "4D", "5C", "8C"]
ANN_BOTH = ["8S", "2S", "AS", "QC", "JC", "6D", "9H", "3H", "4H", "5H"]


@pytest.mark.rule("C5", "J5")
def test_sequential_layoffs_chain_along_a_run_and_onto_earlier_layoffs() -> None:
    ruling = adjudicate(
        box(
            "jersey-scarne",
            JERSEY,
            "knock",
            "Bob",
            {"Bob": {"cards": KNOCKER_RUN}, "Cal": {"cards": CAL_CHAIN}, "Ann": {"cards": ANN_BOTH}},
        )
    )
    # Cal lays 6S then 7S on Bob's 3-4-5S (7S could also go on the 7s: either way);
    # Ann lays 2S, AS below it and 8S above Cal's 7S (J5: on cards laid off there too).
    assert ruling["counts"] == {"Bob": 2, "Cal": 10 + 2 + 4 + 5 + 8, "Ann": 10 + 10 + 6 + 9}
    ann_laid = sorted(x["card"] for x in ruling["hands"]["Ann"]["layoffs"])
    assert ann_laid == ["2S", "8S", "AS"]
    assert ruling["points"] == (29 - 2) + (35 - 2)


@pytest.mark.rule("C5")
def test_fourth_card_of_a_set_is_laid_off() -> None:
    knocker = ["KC", "KD", "KH", "4S", "5S", "6S", "AC", "AD", "2C", "3H"]  # 7
    bob = ["KS", "QH", "QC", "JH", "10C", "5D", "9C", "8H", "2D", "3D"]
    ruling = adjudicate(
        box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": {"cards": knocker}, "Bob": {"cards": bob}})
    )
    assert ruling["hands"]["Bob"]["layoffs"] == [{"card": "KS", "onto": "Ann", "meld": 1}]
    assert ruling["counts"]["Bob"] == 10 + 10 + 10 + 10 + 5 + 9 + 8 + 2 + 3


@pytest.mark.rule("C5", "G3")
def test_defender_breaks_his_own_run_to_lay_off_and_make_a_set() -> None:
    knocker = ["4S", "5S", "6S", "KC", "KD", "KH", "AC", "AD", "2C", "3H"]  # count 7
    bob = ["7S", "8S", "9S", "9H", "9D", "QH", "QC", "JH", "10C", "5D"]
    ruling = adjudicate(
        box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": {"cards": knocker}, "Bob": {"cards": bob}})
    )
    # keeping 7-8-9S leaves 9H 9D; laying off 7S 8S on 4-5-6S and melding 9S 9H 9D leaves 45
    assert ruling["counts"] == {"Ann": 7, "Bob": 45}
    assert sorted(x["card"] for x in ruling["hands"]["Bob"]["layoffs"]) == ["7S", "8S"]
    assert ruling["hands"]["Bob"]["melds"] == [["9D", "9H", "9S"]]
    assert ruling["points"] == 38


@pytest.mark.rule("C9")
def test_knocker_picks_the_split_that_denies_layoffs() -> None:
    ann = ["3S", "4S", "5S", "6S", "KC", "KD", "KH", "AH", "2D", "AD"]
    bob = ["2S", "7S", "QC", "QD", "JH", "JD", "9H", "9C", "8D", "6H"]  # 81 without layoffs
    ruling = adjudicate(
        box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": {"cards": ann}, "Bob": {"cards": bob}})
    )
    # 3-6S (count 4): Bob lays off 2S and 7S -> 72, credit 68
    # 4-6S + 3S loose (7): Bob lays off 7S -> 74, credit 67
    # 3-5S + 6S loose (10): Bob lays off 2S -> 79, credit 69  <- best for Ann
    assert ruling["counts"] == {"Ann": 10, "Bob": 79}
    assert ruling["points"] == 69
    assert ruling["hands"]["Ann"]["melds"] == [["3S", "4S", "5S"], ["KC", "KD", "KH"]]
    assert ruling["hands"]["Bob"]["layoffs"] == [{"card": "2S", "onto": "Ann", "meld": 0}]


@pytest.mark.rule("C8")
def test_declared_hand_is_scored_as_declared_with_advice() -> None:
    knocker = {"melds": [["4S", "5S", "6S"], ["KC", "KD", "KH"]], "deadwood": ["AC", "AD", "2C", "3H"]}
    bob = {"melds": [["7S", "8S", "9S"]], "deadwood": ["9H", "9D", "QH", "QC", "JH", "10C", "5D"]}
    ruling = adjudicate(box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": knocker, "Bob": bob}))
    assert ruling["counts"] == {"Ann": 7, "Bob": 63}
    assert ruling["points"] == 56
    assert ruling["advice"] and ruling["advice"][0]["rule"] == "C8"
    assert "Bob could have counted 45" in ruling["advice"][0]["text"]


@pytest.mark.rule("C10")
def test_last_arrangement_entered_is_the_one_scored() -> None:
    # Bob first melds 7-8-9S, then rearranges into 9S 9H 9D before anybody lays off on it:
    # the ruling follows what he finally declared.
    knocker = {"cards": ["QS", "JS", "10S", "KC", "KD", "KH", "AC", "AD", "2C", "3H"]}
    first = {"melds": [["7S", "8S", "9S"]], "deadwood": ["9H", "9D", "AH", "2H", "3C", "4C", "5D"]}
    second = {"melds": [["9S", "9H", "9D"]], "deadwood": ["7S", "8S", "AH", "2H", "3C", "4C", "5D"]}
    one = adjudicate(box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": knocker, "Bob": first}))
    two = adjudicate(box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": knocker, "Bob": second}))
    assert one["counts"]["Bob"] == 9 + 9 + 1 + 2 + 3 + 4 + 5
    assert two["counts"]["Bob"] == 7 + 8 + 1 + 2 + 3 + 4 + 5


@pytest.mark.rule("C6")
def test_knock_with_zero_is_gin_and_says_so() -> None:
    ruling = adjudicate(box("gin", ["Ann", "Bob"], "knock", "Ann", counts(Ann=0, Bob=12)))
    assert (ruling["result"], ruling["points"]) == ("gin", 12 + 25)
    assert any(s["rule"] == "C6" and "gin" in s["text"] for s in ruling["explanation"])


@pytest.mark.rule("C6", "C12", "G2", "J4")
def test_false_knock_over_the_limit_is_refused() -> None:
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("jersey-scarne", JERSEY, "knock", "Ann", counts(Ann=11, Bob=30, Cal=20)))
    assert err.value.code == "over-knock-limit"
    assert "C12" in str(err.value) and "limit is 10" in str(err.value)
    cards = ["3S", "4S", "5S", "KH", "QH", "AC", "2C", "9D", "JD", "4H"]  # 36
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(
            box("gin", ["Ann", "Bob"], "knock", "Ann", {"Ann": {"cards": cards}, "Bob": {"count": 40}})
        )
    assert err.value.code == "over-knock-limit"
    assert err.value.where == "hands.Ann"


@pytest.mark.rule("C13")
def test_hidden_gin_scores_as_an_ordinary_underknock() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "knock", "Ann", counts(Ann=6, Bob=0, Cal=20)))
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("underknock", "Bob", 6 + 20 + 10)
    assert any(s["rule"] == "C13" for s in ruling["explanation"])


@pytest.mark.rule("C11")
def test_misdeal_scores_nothing() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "misdeal", None, {}))
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("misdeal", None, 0)
    assert ruling["credits"] == {"Ann": 0, "Bob": 0, "Cal": 0}
    assert ruling["explanation"][0]["rule"] == "C11"


# --- the break (J10-J13) --------------------------------------------------------------------


@pytest.mark.rule("J10")
def test_no_knock_after_the_break() -> None:
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(
            box("jersey-scarne", JERSEY, "knock", "Ann", counts(Ann=5, Bob=9, Cal=9), after_break=True)
        )
    assert err.value.code == "knock-after-break"
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("jersey-scarne", JERSEY, "break", None, counts(Ann=5, Bob=9, Cal=9)))
    assert "breaker" in str(err.value)


@pytest.mark.rule("J12")
def test_break_lowest_count_wins_without_bonus() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "break", "Ann", counts(Ann=20, Bob=7, Cal=15)))
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("break", "Bob", 13 + 8)


@pytest.mark.rule("J12")
def test_break_ties_breaker_wins_then_breakers_left() -> None:
    ruling = adjudicate(box("jersey-scarne", JERSEY, "break", "Ann", counts(Ann=7, Bob=7, Cal=15)))
    assert (ruling["winner"], ruling["points"]) == ("Ann", 0 + 8)
    ruling = adjudicate(box("jersey-scarne", JERSEY, "break", "Ann", counts(Ann=20, Bob=7, Cal=7)))
    assert (ruling["winner"], ruling["points"]) == ("Bob", 13 + 0)
    ruling = adjudicate(box("jersey-scarne", JERSEY, "break", "Bob", counts(Ann=7, Bob=20, Cal=7)))
    assert ruling["winner"] == "Cal"


@pytest.mark.rule("J11")
def test_break_layoffs_in_order_and_in_a_second_round() -> None:
    breaker = {"cards": KNOCKER_RUN}
    hands = {"Bob": breaker, "Cal": {"cards": CAL_CHAIN}, "Ann": {"cards": ANN_BOTH}}
    first = adjudicate(box("jersey-scarne", JERSEY, "break", "Bob", hands))
    assert first["counts"] == {"Ann": 35, "Bob": 2, "Cal": 29}
    assert first["explanation"][0]["rule"] == "J11"
    # In a second round anyone may lay off on any meld: Cal's 2H goes below Ann's 3-4-5H.
    second = adjudicate(box("jersey-scarne", JERSEY, "break", "Bob", hands, second_round=True))
    assert second["counts"]["Cal"] == 29 - 2
    assert {"card": "2H", "onto": "Ann", "meld": 0, "later_round": True} in second["hands"]["Cal"]["layoffs"]


@pytest.mark.rule("J13")
def test_gin_after_the_break_has_no_bonus_unless_set() -> None:
    hands = counts(Ann=0, Bob=9, Cal=12)
    ruling = adjudicate(box("jersey-scarne", JERSEY, "gin", "Ann", hands, after_break=True))
    assert (ruling["result"], ruling["points"]) == ("break-gin", 21)
    ruling = adjudicate(
        box("jersey-scarne", JERSEY, "gin", "Ann", hands, after_break=True, settings={"break_gin_bonus": 40})
    )
    assert ruling["points"] == 61


# --- Parlett's three-hand Gin (P3-P7) --------------------------------------------------------


@pytest.mark.rule("P3")
def test_parlett_knock_scores_each_difference() -> None:
    ruling = adjudicate(box("three-hand-parlett", JERSEY, "knock", "Ann", counts(Ann=4, Bob=10, Cal=20)))
    assert (ruling["winner"], ruling["points"]) == ("Ann", 6 + 16)


@pytest.mark.rule("P3", "P4")
def test_parlett_undercut_costs_the_knocker_20_and_has_no_bonus() -> None:
    ruling = adjudicate(box("three-hand-parlett", JERSEY, "knock", "Ann", counts(Ann=8, Bob=5, Cal=20)))
    assert (ruling["winner"], ruling["points"]) == ("Bob", 3 + 15)
    assert ruling["penalties"] == {"Ann": 20}
    assert any(s["rule"] == "P4" for s in ruling["explanation"])


@pytest.mark.rule("P5")
def test_parlett_layoffs_only_on_the_knockers_original_melds() -> None:
    hands = {"Bob": {"cards": KNOCKER_RUN}, "Cal": {"cards": CAL_CHAIN}, "Ann": {"cards": ANN_BOTH}}
    ruling = adjudicate(box("three-hand-parlett", JERSEY, "knock", "Bob", hands))
    # Ann may still lay 2S and AS below 3-4-5S, but not 8S on Cal's 7S
    assert sorted(x["card"] for x in ruling["hands"]["Ann"]["layoffs"]) == ["2S", "AS"]
    assert ruling["counts"]["Ann"] == 35 + 8
    bad = {
        "melds": [["3H", "4H", "5H"]],
        "deadwood": ["QC", "JC", "6D", "9H", "2S", "AS"],
        "layoffs": [{"card": "8S", "onto": "Bob"}],
    }
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("three-hand-parlett", JERSEY, "knock", "Bob", {**hands, "Ann": bad}))
    assert err.value.code == "illegal-layoff"
    assert "8♠" in str(err.value) and "P5" in str(err.value)


@pytest.mark.rule("P6")
def test_parlett_gin_bonus_is_50() -> None:
    ruling = adjudicate(box("three-hand-parlett", JERSEY, "gin", "Cal", counts(Ann=3, Bob=4, Cal=0)))
    assert ruling["points"] == 57


@pytest.mark.rule("P7")
def test_parlett_has_draws_not_breaks() -> None:
    ruling = adjudicate(box("three-hand-parlett", JERSEY, "draw", None, {}))
    assert (ruling["result"], ruling["points"], ruling["explanation"][0]["rule"]) == ("draw", 0, "P7")
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("three-hand-parlett", JERSEY, "break", "Ann", counts(Ann=1, Bob=2, Cal=3)))
    assert err.value.code == "malformed"


# --- two-hand Gin (G2-G7) and variants ----------------------------------------------------------

TWO = ["Ann", "Bob"]


@pytest.mark.rule("G4")
def test_two_hand_knock_scores_the_difference() -> None:
    ruling = adjudicate(box("gin", TWO, "knock", "Ann", counts(Ann=6, Bob=30)))
    assert (ruling["result"], ruling["points"]) == ("knock", 24)
    assert "30-6 = 24" in texts(ruling)


@pytest.mark.rule("G5")
def test_undercut_with_tie_and_bonus_settings() -> None:
    ruling = adjudicate(box("gin", TWO, "knock", "Ann", counts(Ann=6, Bob=4)))
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("undercut", "Bob", 2 + 25)
    ruling = adjudicate(box("gin", TWO, "knock", "Ann", counts(Ann=6, Bob=6)))
    assert (ruling["winner"], ruling["points"]) == ("Bob", 25)
    ruling = adjudicate(box("gin-classic", TWO, "knock", "Ann", counts(Ann=6, Bob=4)))
    assert ruling["points"] == 2 + 10


@pytest.mark.rule("G5", "G6")
def test_gin_cannot_be_undercut() -> None:
    ruling = adjudicate(box("gin", TWO, "gin", "Ann", counts(Ann=0, Bob=0)))
    assert (ruling["result"], ruling["winner"], ruling["points"]) == ("gin", "Ann", 25)


@pytest.mark.rule("G6", "V1")
def test_gin_bonus_by_preset() -> None:
    assert adjudicate(box("gin", TWO, "gin", "Bob", counts(Ann=17, Bob=0)))["points"] == 42
    assert adjudicate(box("gin-classic", TWO, "gin", "Bob", counts(Ann=17, Bob=0)))["points"] == 37


@pytest.mark.rule("G7")
def test_two_hand_draw_scores_nothing() -> None:
    ruling = adjudicate(box("gin", TWO, "draw", None, None))  # type: ignore[arg-type]
    assert (ruling["result"], ruling["winner"], ruling["credits"]) == ("draw", None, {"Ann": 0, "Bob": 0})
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("gin", TWO, "draw", "Ann", None))  # type: ignore[arg-type]
    assert "no scorer" in str(err.value)


@pytest.mark.rule("V2")
def test_oklahoma_upcard_sets_the_knock_limit() -> None:
    ruling = adjudicate(box("oklahoma", TWO, "knock", "Ann", counts(Ann=5, Bob=30), upcard="5H"))
    assert ruling["knock_limit"] == 5 and ruling["points"] == 25
    assert ruling["explanation"][0]["rule"] == "V2"
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("oklahoma", TWO, "knock", "Ann", counts(Ann=6, Bob=30), upcard="5H"))
    assert err.value.code == "over-knock-limit"
    assert (
        adjudicate(box("oklahoma", TWO, "knock", "Ann", counts(Ann=10, Bob=30), upcard="KD"))["knock_limit"]
        == 10
    )
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("oklahoma", TWO, "knock", "Ann", counts(Ann=5, Bob=30)))
    assert err.value.where == "upcard"


@pytest.mark.rule("V2")
def test_oklahoma_ace_upcard_and_spades() -> None:
    with pytest.raises(ScorekeeperError):
        adjudicate(box("oklahoma", TWO, "knock", "Ann", counts(Ann=1, Bob=30), upcard="AH"))
    ruling = adjudicate(
        box(
            "oklahoma",
            TWO,
            "knock",
            "Ann",
            counts(Ann=1, Bob=30),
            upcard="AH",
            settings={"ace_upcard": "knock-1"},
        )
    )
    assert ruling["points"] == 29
    ruling = adjudicate(
        box(
            "oklahoma",
            TWO,
            "knock",
            "Ann",
            counts(Ann=3, Bob=30),
            upcard="4S",
            settings={"spade_doubles": True},
        )
    )
    assert (ruling["points"], ruling["multiplier"]) == (54, 2)


@pytest.mark.rule("V4")
def test_around_the_corner_runs_only_with_the_setting() -> None:
    hand = {"melds": [["KS", "AS", "2S"], ["7H", "7D", "7C"]], "deadwood": ["3D", "4D", "5C", "6C"]}
    ruling = adjudicate(box("around-the-corner", TWO, "gin", "Bob", {"Ann": hand, "Bob": {"count": 0}}))
    assert ruling["counts"]["Ann"] == 18
    assert ruling["hands"]["Ann"]["melds"][0] == ["KS", "AS", "2S"]
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("gin", TWO, "gin", "Bob", {"Ann": hand, "Bob": {"count": 0}}))
    assert err.value.code == "invalid-meld"
    assert err.value.where == "hands.Ann.melds[0]"
    ruling = adjudicate(
        box(
            "around-the-corner",
            TWO,
            "gin",
            "Bob",
            {"Ann": hand, "Bob": {"count": 0}},
            settings={"ace_value": 15},
        )
    )
    assert ruling["counts"]["Ann"] == 18  # no loose ace here


@pytest.mark.rule("V5")
def test_doubling_multiplies_the_box() -> None:
    ruling = adjudicate(box("doubling", TWO, "knock", "Ann", counts(Ann=6, Bob=30), multiplier=4))
    assert (ruling["points"], ruling["multiplier"]) == (96, 4)
    assert ruling["credits"] == {"Ann": 96, "Bob": 0}
    assert any(s["rule"] == "V5" for s in ruling["explanation"])


# --- Knock Rummy (K1-K4) --------------------------------------------------------------------------

THREE = ["Ann", "Bob", "Cal"]


@pytest.mark.rule("K1")
def test_knock_rummy_hand_sizes() -> None:
    seven = ["AS", "2S", "3S", "KH", "KD", "KC", "5D"]
    ten = ["AS", "2S", "3S", "KH", "KD", "KC", "5D", "6D", "7D", "9C"]
    ruling = adjudicate(
        box(
            "knock-rummy",
            THREE,
            "knock",
            "Ann",
            {"Ann": {"cards": seven}, "Bob": {"count": 30}, "Cal": {"count": 40}},
        )
    )
    assert ruling["counts"]["Ann"] == 5
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(
            box(
                "knock-rummy",
                THREE,
                "knock",
                "Ann",
                {"Ann": {"cards": ten}, "Bob": {"count": 30}, "Cal": {"count": 40}},
            )
        )
    assert err.value.code == "wrong-hand-size"
    ruling = adjudicate(
        box("knock-rummy", TWO, "knock", "Ann", {"Ann": {"cards": ten}, "Bob": {"count": 30}})
    )
    assert ruling["counts"]["Ann"] == 9


@pytest.mark.rule("K2")
def test_knock_rummy_any_count_and_no_layoffs() -> None:
    ruling = adjudicate(box("knock-rummy", THREE, "knock", "Ann", counts(Ann=30, Bob=40, Cal=35)))
    assert (ruling["winner"], ruling["points"]) == ("Ann", 15)
    hands = {
        "Ann": {"melds": [["AS", "2S", "3S"]], "deadwood": ["KH", "QH", "JC", "9D"]},
        "Bob": {
            "melds": [],
            "deadwood": ["5S", "KD", "QD", "JD", "8C", "9C"],
            "layoffs": [{"card": "4S", "onto": "Ann"}],
        },
        "Cal": {"count": 30},
    }
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("knock-rummy", THREE, "knock", "Ann", hands))
    assert err.value.code == "illegal-layoff"


@pytest.mark.rule("K3")
def test_knock_rummy_lower_than_the_knocker_and_all_melded() -> None:
    ruling = adjudicate(box("knock-rummy", THREE, "knock", "Ann", counts(Ann=30, Bob=20, Cal=35)))
    assert (ruling["winner"], ruling["points"]) == ("Bob", 10 + 15 + 10)
    ruling = adjudicate(box("knock-rummy", THREE, "knock", "Ann", counts(Ann=30, Bob=30, Cal=35)))
    assert ruling["winner"] == "Ann"  # a tie goes to the knocker here
    ruling = adjudicate(box("knock-rummy", THREE, "knock", "Ann", counts(Ann=30, Bob=0, Cal=35)))
    assert ruling["points"] == 30 + 35 + 10 + 25 * 2  # 25 from each other player
    ruling = adjudicate(box("knock-rummy", THREE, "knock", "Ann", counts(Ann=0, Bob=9, Cal=35)))
    assert (ruling["result"], ruling["points"]) == ("gin", 9 + 35 + 25 * 2)


@pytest.mark.rule("K4")
def test_knock_rummy_void_box() -> None:
    ruling = adjudicate(box("knock-rummy", THREE, "draw", None, {}))
    assert (ruling["result"], ruling["explanation"][0]["rule"]) == ("draw", "K4")


@pytest.mark.rule("C4")
def test_counts_only_entry_is_0_to_98_and_names_the_field() -> None:
    ruling = adjudicate(box("gin", TWO, "knock", "Ann", counts(Ann=3, Bob=98)))
    assert ruling["points"] == 95
    for bad in (99, -1, 4.5, "7", True):
        with pytest.raises(ScorekeeperError) as err:
            adjudicate(box("gin", TWO, "knock", "Ann", {"Ann": {"count": 3}, "Bob": {"count": bad}}))
        assert (err.value.code, err.value.where) == ("malformed", "hands.Bob.count")
        # not a whole number: the contract's reading says so; out of range: the engine's check
        assert "Bob's count must be a whole number" in err.value.message
        assert isinstance(bad, float | str | bool) or "from 0 to 98" in err.value.message
    with pytest.raises(ScorekeeperError) as err:  # a null count is no count (CONTRACT.md)
        adjudicate(box("gin", TWO, "knock", "Ann", {"Ann": {"count": 3}, "Bob": {"count": None}}))
    assert (err.value.code, err.value.where) == ("malformed", "hands.Bob")
    assert "Bob's hand needs cards, melds and deadwood, or a count" in err.value.message
    # with aces at 15 (V4) two aces and eight court cards and tens can count 110
    ruling = adjudicate(box("gin", TWO, "knock", "Ann", counts(Ann=3, Bob=110), settings={"ace_value": 15}))
    assert ruling["points"] == 107


def test_remembered_rulings_are_copies_and_errors_are_not_remembered() -> None:
    data = box("gin", TWO, "knock", "Ann", counts(Ann=6, Bob=30))
    first = adjudicate(data)
    first["credits"]["Ann"] = 999
    first["explanation"].clear()
    second = adjudicate(data)
    assert second["credits"] == {"Ann": 24, "Bob": 0} and second["explanation"]
    bad = box("gin", TWO, "knock", "Ann", counts(Ann=16, Bob=30))
    for _ in range(2):
        with pytest.raises(ScorekeeperError):
            adjudicate(bad)


def test_player_names_are_compared_in_one_unicode_form() -> None:
    decomposed, composed = "C\u0327al", "\u00c7al"
    ruling = adjudicate(
        box(
            "jersey-scarne",
            ["Ann", "Bob", composed],
            "knock",
            decomposed,
            {"Ann": {"count": 20}, "Bob": {"count": 30}, decomposed: {"count": 4}},
        )
    )
    assert ruling["winner"] == composed and ruling["points"] == 16 + 26
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(
            box("jersey-scarne", ["Ann", composed, decomposed], "knock", "Ann", counts(Ann=1, Bob=2, Cal=3))
        )
    assert "two players are called" in err.value.message
    with pytest.raises(ScorekeeperError) as err:
        adjudicate(box("gin", ["Ann", "B\u202eob"], "knock", "Ann", counts(Ann=1, Bob=2)))
    assert "invisible or control character (U+202E)" in err.value.message
    assert err.value.where == "players[1]"

"""Explanations a referee trusts (issue 17): each line checkable against the table.

Chained layoffs are told against the meld as it stood; break layoffs in play order
with the later rounds marked; Knock Rummy's payment in its parts; errors naming the
meld as the table counts it; a non-knocker's own layoffs checked; two-hand games
citing their own rules and words.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import PRESETS, ScorekeeperError, adjudicate, score

from .test_showdown import ANN_BOTH, CAL_CHAIN, JERSEY, KNOCKER_RUN, box, counts


def lines(ruling: dict[str, Any], rule: str | None = None) -> list[str]:
    return [s["text"] for s in ruling["explanation"] if rule is None or s["rule"] == rule]


@pytest.mark.rule("J5")
def test_a_chained_layoff_is_told_against_the_meld_as_extended() -> None:
    ruling = adjudicate(
        box(
            "jersey-scarne",
            JERSEY,
            "knock",
            "Bob",
            {"Bob": {"cards": KNOCKER_RUN}, "Cal": {"cards": CAL_CHAIN}, "Ann": {"cards": ANN_BOTH}},
        )
    )
    said = lines(ruling, "J5")
    assert said[0] == "Cal laid off 6♠ on Bob's 3♠-4♠-5♠"
    # 7♠ does not fit 3♠-4♠-5♠: it is told against the run Cal's 6♠ extended.
    assert said[1] == "Cal laid off 7♠ on Bob's 3♠-4♠-5♠-6♠, extended by Cal's 6♠"
    assert said[-1] == (
        "Ann laid off 8♠ on Bob's A♠-2♠-3♠-4♠-5♠-6♠-7♠, extended by Cal's 6♠ 7♠ and Ann's 2♠ A♠"
    )


@pytest.mark.rule("J11")
def test_later_round_layoffs_come_after_the_first_round_and_are_marked() -> None:
    hands = {"Bob": {"cards": KNOCKER_RUN}, "Cal": {"cards": CAL_CHAIN}, "Ann": {"cards": ANN_BOTH}}
    ruling = adjudicate(box("jersey-scarne", JERSEY, "break", "Bob", hands, second_round=True))
    said = lines(ruling, "J11")
    assert said[-1] == "Cal laid off 2♥ on Ann's 3♥-4♥-5♥ in a later round"
    assert all("later round" not in text for text in said[:-1])
    assert [s.split()[0] for s in said[:-1]] == ["Cal", "Cal", "Ann", "Ann", "Ann"]


GIN_HAND = ["AC", "2C", "3C", "4C", "JS", "JC", "JD", "8H", "9H", "10H"]
BREAKER = {"melds": [["3S", "4S", "5S"], ["7H", "7D", "7C"]], "deadwood": ["KD", "QS", "2D", "8C"]}
LAID_BEFORE_GIN = {
    "melds": [["KH", "KC", "KS"]],
    "deadwood": ["QH", "2H", "4D", "6C", "8D", "9C"],
    "layoffs": [{"card": "6S", "onto": "Bob"}],
}


def break_gin(**extra: Any) -> dict[str, Any]:
    return box(
        "jersey-scarne",
        JERSEY,
        "gin",
        "Ann",
        {"Ann": {"cards": GIN_HAND}, "Bob": BREAKER, "Cal": LAID_BEFORE_GIN},
        after_break=True,
        **extra,
    )


@pytest.mark.rule("J13")
def test_layoffs_before_a_gin_after_the_break_stand() -> None:
    ruling = break_gin(breaker="Bob")
    result = adjudicate(ruling)
    # Cal's 6♠ stays on Bob's run: Bob 30, Cal what is left in his hand, 39.
    assert result["counts"] == {"Ann": 0, "Bob": 30, "Cal": 39}
    assert (result["result"], result["points"], result["breaker"]) == ("break-gin", 69, "Bob")
    assert "Cal laid off 6♠ on Bob's 3♠-4♠-5♠" in lines(result, "J11")


@pytest.mark.rule("J13", "J11")
def test_with_the_breaker_named_break_layoffs_are_checked_in_order() -> None:
    # From Cal as breaker, Cal plays first: nothing was on the table for his 6♠.
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate(break_gin(breaker="Cal"))
    assert caught.value.code == "illegal-layoff"
    assert "Cal plays before Bob in the break from the breaker Cal" in caught.value.message
    # From Ann's left... Ann as breaker: Bob and Cal play after her gin ended the box.
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate(break_gin(breaker="Ann"))
    assert caught.value.code == "illegal-layoff"
    assert "the gin ended the box before Cal's turn" in caught.value.message
    # Without a breaker only the fit is checked.
    assert adjudicate(break_gin())["counts"]["Cal"] == 39


@pytest.mark.rule("K3")
def test_knock_rummy_pays_difference_all_melded_and_lower_than_knocker_apart() -> None:
    ruling = adjudicate(box("knock-rummy", JERSEY, "knock", "Ann", counts(Ann=5, Bob=0, Cal=12)))
    assert lines(ruling, "K3") == [
        "Bob has the lowest count, 0; Ann 5, Cal 12: the difference (5-0)+(12-0) = 17",
        "Bob melded every card: 25 more from each other player, 25 x 2 = 50",
        "Bob is lower than the knocker Ann (0 against 5): 10 more from Ann",
        "Ann pays Bob 5 + 25 + 10 = 40; Cal pays Bob 12 + 25 = 37: Bob is paid 77",
    ]
    assert (ruling["winner"], ruling["points"]) == ("Bob", 77)


@pytest.mark.rule("C3")
def test_a_bad_meld_is_named_as_the_table_counts_it() -> None:
    hands = {
        "Bob": {"cards": KNOCKER_RUN},
        "Cal": {"melds": [["KH", "KC", "KS"], ["2H", "4D", "5C"]], "deadwood": ["6S", "7S", "QH", "8C"]},
        "Ann": {"count": 20},
    }
    with pytest.raises(ScorekeeperError) as caught:
        adjudicate(box("jersey-scarne", JERSEY, "knock", "Bob", hands))
    assert caught.value.code == "invalid-meld"
    assert caught.value.message.startswith("Cal's second meld, 2♥-4♦-5♣, is not a set or a run")
    assert "(C3" in caught.value.message
    assert caught.value.where == "hands.Cal.melds[1]"


@pytest.mark.rule("C5", "J5")
def test_cards_with_the_layoffs_actually_made() -> None:
    def ruled(layoffs: list[dict[str, str]]) -> dict[str, Any]:
        return adjudicate(
            box(
                "jersey-scarne",
                JERSEY,
                "knock",
                "Bob",
                {
                    "Bob": {"cards": KNOCKER_RUN},
                    "Cal": {"cards": CAL_CHAIN, "layoffs": layoffs},
                    "Ann": {"count": 40},
                },
            )
        )

    # Cal laid off only his 6♠ (the engine would have laid the 7♠ too): scored as laid.
    ruling = ruled([{"card": "6S", "onto": "Bob"}])
    assert ruling["hands"]["Cal"]["layoffs"] == [{"card": "6S", "onto": "Bob", "meld": 0}]
    assert ruling["counts"]["Cal"] == 7 + 10 + 2 + 4 + 5 + 8
    with pytest.raises(ScorekeeperError) as caught:
        ruled([{"card": "QH", "onto": "Bob"}])
    assert caught.value.code == "illegal-layoff"
    assert "Cal's Q♥ does not fit any of Bob's melds (first meld (3♠-4♠-5♠);" in (caught.value.message)
    with pytest.raises(ScorekeeperError) as caught:
        ruled([{"card": "8S", "onto": "Bob"}])
    assert caught.value.code == "deadwood-mismatch"


TWO_HAND = [name for name, rules in PRESETS.items() if not rules.is_three_hand]


def _two_hand_game(preset: str) -> dict[str, Any]:
    """Typical hands of a two-hand game: knocks, an undercut, gin, a draw, a misdeal,
    one box by cards with layoffs, played to the end."""
    by_cards = {
        "ending": "knock",
        "by": "Ann",
        "upcard": "QD",
        "hands": {"Ann": {"cards": [*KNOCKER_RUN[:9], "AC"]}, "Bob": {"cards": CAL_CHAIN}},
    }
    boxes: list[dict[str, Any]] = [
        by_cards,
        {
            "ending": "knock",
            "by": "Bob",
            "upcard": "QD",
            "hands": counts(Ann=4, Bob=8),
            **({"multiplier": 2, "double_refused": "Bob"} if preset == "doubling" else {}),
        },
        {"ending": "draw"},
        {"ending": "misdeal"},
    ]
    game = {"rules": preset, "players": ["Ann", "Bob"], "dealer": "Ann", "boxes": boxes}
    while not score(game)["game_over"]:
        boxes.append({"ending": "gin", "by": "Ann", "upcard": "QD", "hands": counts(Ann=0, Bob=30)})
    return game


@pytest.mark.rule("G1", "G8")
@pytest.mark.parametrize("preset", TWO_HAND)
def test_two_hand_games_never_cite_jerseys_rules(preset: str) -> None:
    sheet = score(_two_hand_game(preset))
    steps = [*sheet["explanation"], *(s for b in sheet["boxes"] for s in b["explanation"])]
    for summary in sheet.get("games", []):
        steps += summary["explanation"]
    assert steps
    cited = {step["rule"] for step in steps}
    assert not {rule for rule in cited if rule.startswith(("J", "P"))}, cited
    text = " ".join(step["text"] for step in steps)
    assert " box" not in text and "underknock" not in text


SET_OF_FOUR = {"melds": [["7C", "7D", "7H", "7S"], ["8S", "9S", "10S"]], "deadwood": ["AH", "2H", "3C"]}
HOLDS_6S = ["6S", "KD", "KC", "KH", "QD", "QC", "9D", "4D", "10C", "JD"]


@pytest.mark.rule("C8")
def test_the_knockers_arrangement_blocking_a_layoff_is_said() -> None:
    ruling = adjudicate(
        box("gin", ["Bob", "Cal"], "knock", "Bob", {"Bob": SET_OF_FOUR, "Cal": {"cards": HOLDS_6S}})
    )
    assert ruling["counts"] == {"Bob": 6, "Cal": 59}  # scored as laid: the 6♠ stays
    assert lines(ruling, "C8") == [
        "Bob's arrangement blocked Cal's 6♠: Bob kept 7♠ in 7♣-7♦-7♥-7♠ rather than in "
        "7♠-8♠-9♠-10♠, which would have taken it (the knocker chooses his melds)"
    ]
    # Laid as the run, the 6♠ goes on it and nothing is blocked.
    run = {"melds": [["7C", "7D", "7H"], ["7S", "8S", "9S", "10S"]], "deadwood": ["AH", "2H", "3C"]}
    open_ruling = adjudicate(
        box("gin", ["Bob", "Cal"], "knock", "Bob", {"Bob": run, "Cal": {"cards": HOLDS_6S}})
    )
    assert open_ruling["counts"]["Cal"] == 53 and not lines(open_ruling, "C8")


@pytest.mark.rule("C8")
def test_advice_says_which_arrangement_was_better_and_by_how_much() -> None:
    knocker = {
        "melds": [["7C", "7D", "7H"], ["8S", "9S", "10S"]],
        "deadwood": ["7S", "AH", "2H", "AC"],
    }  # the 7♠ fits the run: 4, not 11
    ruling = adjudicate(
        box(
            "gin",
            ["Bob", "Cal"],
            "knock",
            "Bob",
            {"Bob": knocker, "Cal": {"count": 40}},
            settings={"knock_limit": 20},
        )
    )
    assert ruling["counts"]["Bob"] == 11
    assert [step["text"] for step in ruling["advice"]] == [
        "Bob could have counted 4 instead of 11, as 7♣-7♦-7♥-7♠, 8♠-9♠-10♠; deadwood A♣ A♥ 2♥; "
        "what was laid on the table is what is scored"
    ]

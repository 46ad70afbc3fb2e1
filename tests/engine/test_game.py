"""Whole games scored through ``score()``, one per preset, every figure checked by hand.

Each test plays a game to its end and checks the totals after every box, the
bonuses, the shutouts and the settlement against arithmetic done by hand (in the
comments). The builders below write boxes the way CONTRACT.md does.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine.game import score


def counts(**hand_counts: int) -> dict[str, Any]:
    return {player: {"count": count} for player, count in hand_counts.items()}


def knock(by: str, **hand_counts: int) -> dict[str, Any]:
    return {"ending": "knock", "by": by, "hands": counts(**hand_counts)}


def gin(by: str, **hand_counts: int) -> dict[str, Any]:
    return {"ending": "gin", "by": by, "hands": counts(**hand_counts, **{by: 0})}


def draw() -> dict[str, Any]:
    return {"ending": "draw"}


def misdeal() -> dict[str, Any]:
    return {"ending": "misdeal"}


def game(
    rules: str, players: list[str], dealer: str, boxes: list[dict[str, Any]], **extra: Any
) -> dict[str, Any]:
    return {"rules": rules, "players": players, "dealer": dealer, "boxes": boxes, **extra}


def column(sheet: dict[str, Any], name: str) -> list[Any]:
    """One field of every box on the sheet, in order."""
    return [box[name] for box in sheet["boxes"]]


# The game of CONTRACT.md: Ann 109 in two wins, Bob 70 in one, Cal shut out.
CONTRACT_GAME = game(
    "jersey-scarne",
    ["Ann", "Bob", "Cal"],
    "Ann",
    [
        knock("Ann", Ann=5, Bob=40, Cal=45),  # (40-5)+(45-5) = 75
        knock("Bob", Bob=2, Cal=34, Ann=40),  # (34-2)+(40-2) = 70
        knock("Ann", Ann=3, Bob=20, Cal=20),  # (20-3)+(20-3) = 34: Ann 109
    ],
    stake=0.05,
)


@pytest.mark.rule("J14", "J15", "J16", "V6")
def test_contract_example_game() -> None:
    sheet = score(CONTRACT_GAME)
    assert column(sheet, "points") == [75, 70, 34]
    assert column(sheet, "dealer") == ["Ann", "Bob", "Cal"]
    assert column(sheet, "totals") == [
        {"Ann": 75, "Bob": 0, "Cal": 0},
        {"Ann": 75, "Bob": 70, "Cal": 0},
        {"Ann": 109, "Bob": 70, "Cal": 0},
    ]
    assert sheet["totals"] == {"Ann": 109, "Bob": 70, "Cal": 0}
    assert sheet["boxes_won"] == {"Ann": 2, "Bob": 1, "Cal": 0}
    assert sheet["game_over"] is True
    assert sheet["winner"] == "Ann"
    assert sheet["next_dealer"] is None
    assert sheet["game_bonus"] == {"Ann": 100}
    assert sheet["box_bonuses"] == {"Ann": 50, "Bob": 25, "Cal": 0}
    assert sheet["shutouts"] == ["Cal"]
    assert sheet["final_totals"] == {"Ann": 259, "Bob": 95, "Cal": 0}
    assert sheet["settlement"] == [
        {"from": "Bob", "to": "Ann", "points": 164, "amount": 8.2},
        {"from": "Cal", "to": "Ann", "points": 518, "shutout": True, "amount": 25.9},
        {"from": "Cal", "to": "Bob", "points": 95, "amount": 4.75},
    ]


@pytest.mark.rule("J14", "J15", "J16", "V6")
def test_contract_example_explains_with_arithmetic() -> None:
    explanation = score(CONTRACT_GAME)["explanation"]
    texts = {(step["rule"], step["text"]) for step in explanation}
    assert ("J14", "Ann reached 109 in box 3 (target 100): the game is over") in texts
    assert ("J14", "Ann adds the game bonus of 100") in texts
    assert ("J14", "box bonuses at 25 a box: Ann 2 x 25 = 50, Bob 1 x 25 = 25, Cal 0 x 25 = 0") in texts
    assert ("J15", "Cal won no box and is shut out: what he owes Ann is doubled") in texts
    assert ("J16", "final totals: Ann 109 + 50 + 100 = 259; Bob 70 + 25 = 95; Cal 0 + 0 = 0") in texts
    assert ("J16", "Bob pays Ann 259 - 95 = 164") in texts
    assert ("J15", "Cal pays Ann (259 - 0) x 2 = 518") in texts
    assert ("J16", "Cal pays Bob 95 - 0 = 95") in texts
    v6 = [step["text"] for step in explanation if step["rule"] == "V6"]
    assert v6 == [
        "at 0.05 a point: Bob pays Ann 164 x 0.05 = 8.20; Cal pays Ann 518 x 0.05 = "
        "25.90; Cal pays Bob 95 x 0.05 = 4.75"
    ]


@pytest.mark.rule("J2", "J9", "J12", "J13", "J14", "J16")
def test_jersey_game_with_cards_break_and_gin_after_the_break() -> None:
    cards_box = {  # the box of CONTRACT.md: Bob knocks with 4, Cal 13, Ann 14: 19
        "ending": "knock",
        "by": "Bob",
        "upcard": "7S",
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
    sheet = score(
        game(
            "jersey-scarne",
            ["Ann", "Bob", "Cal"],
            "Cal",
            [
                cards_box,  # Bob 19
                {"ending": "break", "by": "Cal", "hands": counts(Ann=13, Bob=20, Cal=15)},
                # J12: Ann lowest with 13: (20-13)+(15-13) = 9
                {"ending": "gin", "by": "Cal", "after_break": True, "hands": counts(Ann=20, Bob=25, Cal=0)},
                # J13: 20+25, no bonus = 45
                gin("Bob", Ann=30, Cal=12),  # J9: 30+12+40 = 82: Bob 101
            ],
        )
    )
    assert column(sheet, "result") == ["knock", "break", "break-gin", "gin"]
    assert column(sheet, "winner") == ["Bob", "Ann", "Cal", "Bob"]
    assert column(sheet, "points") == [19, 9, 45, 82]
    assert column(sheet, "dealer") == ["Cal", "Ann", "Bob", "Cal"]
    assert sheet["boxes"][0]["hands"]["Cal"]["count"] == 13
    assert sheet["totals"] == {"Ann": 9, "Bob": 101, "Cal": 45}
    assert sheet["winner"] == "Bob"
    assert sheet["shutouts"] == []
    # Ann 9+25 = 34, Bob 101+50+100 = 251, Cal 45+25 = 70
    assert sheet["final_totals"] == {"Ann": 34, "Bob": 251, "Cal": 70}
    assert sheet["settlement"] == [
        {"from": "Ann", "to": "Bob", "points": 217},
        {"from": "Ann", "to": "Cal", "points": 36},
        {"from": "Cal", "to": "Bob", "points": 181},
    ]


@pytest.mark.rule("P3", "P4", "P6", "P7", "P8")
def test_three_hand_parlett_game() -> None:
    sheet = score(
        game(
            "three-hand-parlett",
            ["Ann", "Bob", "Cal"],
            "Cal",
            [
                knock("Ann", Ann=8, Bob=30, Cal=40),  # P3: 22+32 = 54
                knock("Bob", Bob=6, Ann=4, Cal=30),  # Ann undercuts: 2+26 = 28; P4: Bob loses 20
                draw(),  # P7: no score, the deal passes
                gin("Ann", Bob=40, Cal=50),  # P6: 40+50+50 = 140: Ann 222
            ],
        )
    )
    assert column(sheet, "result") == ["knock", "underknock", "draw", "gin"]
    assert column(sheet, "dealer") == ["Cal", "Ann", "Bob", "Cal"]
    assert sheet["boxes"][1]["penalties"] == {"Bob": 20}
    assert column(sheet, "totals")[1] == {"Ann": 82, "Bob": -20, "Cal": 0}
    assert sheet["totals"] == {"Ann": 222, "Bob": -20, "Cal": 0}
    assert sheet["game_over"] and sheet["winner"] == "Ann"
    assert sheet["box_bonuses"] == {"Ann": 75, "Bob": 0, "Cal": 0}
    assert sheet["shutouts"] == ["Bob", "Cal"]
    # Ann 222+75+100 = 397
    assert sheet["final_totals"] == {"Ann": 397, "Bob": -20, "Cal": 0}
    assert sheet["settlement"] == [
        {"from": "Bob", "to": "Ann", "points": 834, "shutout": True},  # (397+20) x 2
        {"from": "Cal", "to": "Ann", "points": 794, "shutout": True},  # (397-0) x 2
        {"from": "Bob", "to": "Cal", "points": 20},  # not doubled: Cal is not the winner
    ]
    assert {step["rule"] for step in sheet["explanation"]} == {"P8"}


@pytest.mark.rule("G4", "G5", "G6", "G7", "G8")
def test_gin_game() -> None:
    sheet = score(
        game(
            "gin",
            ["Ann", "Bob"],
            "Bob",
            [
                knock("Ann", Ann=5, Bob=30),  # G4: 25
                draw(),  # G7: the deal passes after a draw too
                knock("Ann", Ann=7, Bob=7),  # G5: a tie goes to Bob: 0+25 = 25
                gin("Ann", Bob=45),  # G6: 45+25 = 70: Ann 95
                knock("Ann", Ann=2, Bob=12),  # G4: 10: Ann 105
            ],
        )
    )
    assert column(sheet, "points") == [25, 0, 25, 70, 10]
    assert column(sheet, "dealer") == ["Bob", "Ann", "Bob", "Ann", "Bob"]
    assert sheet["totals"] == {"Ann": 105, "Bob": 25}
    assert sheet["boxes_won"] == {"Ann": 3, "Bob": 1}
    # Ann 105+75+100 = 280, Bob 25+25 = 50
    assert sheet["final_totals"] == {"Ann": 280, "Bob": 50}
    assert sheet["shutouts"] == []
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 230}]
    assert {step["rule"] for step in sheet["explanation"]} == {"G8"}


GIN_HAND = "AS 2S 3S 4S 5H 6H 7H 9C 9D 9S"
BOB_77 = "KC KH QC QH JD JS 2C 3D 4C 8D"  # no meld: 60+2+3+4+8 = 77


@pytest.mark.rule("V1", "G8")
def test_gin_classic_game_with_cards() -> None:
    sheet = score(
        game(
            "gin-classic",
            ["Ann", "Bob"],
            "Ann",
            [
                {
                    "ending": "gin",
                    "by": "Ann",
                    "hands": {"Ann": {"cards": GIN_HAND}, "Bob": {"cards": BOB_77}},
                },  # 77+20 = 97
                knock("Ann", Ann=7, Bob=5),  # V1 undercut 10: 2+10 = 12
                knock("Ann", Ann=3, Bob=10),  # 7: Ann 104
            ],
        )
    )
    assert column(sheet, "points") == [97, 12, 7]
    assert sheet["boxes"][0]["counts"] == {"Ann": 0, "Bob": 77}
    assert sheet["totals"] == {"Ann": 104, "Bob": 12}
    assert sheet["box_bonuses"] == {"Ann": 40, "Bob": 20}  # V1: box 20
    assert sheet["final_totals"] == {"Ann": 244, "Bob": 32}
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 212}]


@pytest.mark.rule("V2", "G8")
def test_oklahoma_game() -> None:
    sheet = score(
        game(
            "oklahoma",
            ["Ann", "Bob"],
            "Ann",
            [
                {**knock("Ann", Ann=3, Bob=20), "upcard": "5S"},  # limit 5: 17
                {**gin("Bob", Ann=50), "upcard": "AH"},  # ace: gin only; 50+25 = 75
                {**knock("Ann", Ann=9, Bob=98), "upcard": "KD"},  # limit 10: 89: Ann 106
            ],
        )
    )
    assert column(sheet, "knock_limit") == [5, 0, 10]
    assert sheet["totals"] == {"Ann": 106, "Bob": 75}
    assert sheet["final_totals"] == {"Ann": 256, "Bob": 100}
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 156}]


@pytest.mark.rule("V4", "G8")
def test_around_the_corner_game_with_cards() -> None:
    corner = {
        "ending": "knock",
        "by": "Ann",
        "hands": {
            "Ann": {"cards": "QS KS AS 2H 3H 4H 5D 6D 7D 9C"},  # Q-K-A is a run (V4): 9
            "Bob": {"cards": "KC KD 2C 3C 4D 5C 8S 9S JH JD"},  # lays 4D off: 67
        },
    }
    sheet = score(
        game(
            "around-the-corner",
            ["Ann", "Bob"],
            "Bob",
            [
                corner,  # 67-9 = 58
                knock("Bob", Bob=4, Ann=30),  # 26
                gin("Ann", Bob=30),  # 30+25 = 55: Ann 113
            ],
        )
    )
    assert sheet["boxes"][0]["hands"]["Ann"]["melds"][0] == ["QS", "KS", "AS"]
    assert column(sheet, "points") == [58, 26, 55]
    assert sheet["totals"] == {"Ann": 113, "Bob": 26}
    assert sheet["final_totals"] == {"Ann": 263, "Bob": 51}
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 212}]


@pytest.mark.rule("V5", "G8")
def test_doubling_game_bonuses_are_not_multiplied() -> None:
    sheet = score(
        game(
            "doubling",
            ["Ann", "Bob"],
            "Ann",
            [
                {**knock("Ann", Ann=3, Bob=20), "multiplier": 2},  # 17 x 2 = 34
                {**knock("Bob", Bob=5, Ann=15), "multiplier": 4},  # 10 x 4 = 40
                {**gin("Ann", Bob=20), "multiplier": 2},  # 45 x 2 = 90: Ann 124
            ],
        )
    )
    assert column(sheet, "points") == [34, 40, 90]
    assert column(sheet, "multiplier") == [2, 4, 2]
    assert sheet["totals"] == {"Ann": 124, "Bob": 40}
    assert sheet["game_bonus"] == {"Ann": 100}
    assert sheet["box_bonuses"] == {"Ann": 50, "Bob": 25}
    assert sheet["final_totals"] == {"Ann": 274, "Bob": 65}
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 209}]


@pytest.mark.rule("K3", "K4", "K5")
def test_knock_rummy_game_for_four() -> None:
    players = ["Ann", "Bob", "Cal", "Dan"]
    sheet = score(
        game(
            "knock-rummy",
            players,
            "Dan",
            [
                knock("Ann", Ann=12, Bob=20, Cal=15, Dan=30),  # K3: 8+3+18 = 29
                draw(),  # K4: void, the deal passes
                knock("Cal", Cal=0, Ann=10, Bob=15, Dan=30),  # all melded: 55 + 25 x 3 = 130
            ],
        )
    )
    assert column(sheet, "points") == [29, 0, 130]
    assert column(sheet, "dealer") == ["Dan", "Ann", "Bob"]
    assert sheet["totals"] == {"Ann": 29, "Bob": 0, "Cal": 130, "Dan": 0}
    assert sheet["game_over"] and sheet["winner"] == "Cal"
    assert sheet["game_bonus"] == {"Cal": 0}
    assert sheet["box_bonuses"] == {"Ann": 0, "Bob": 0, "Cal": 0, "Dan": 0}
    assert sheet["shutouts"] == []  # K5: no bonus of any kind, J15 does not apply
    assert sheet["final_totals"] == sheet["totals"]
    assert sheet["settlement"] == [  # box by box (K5): Bob and Dan paid each other nothing
        {"from": "Bob", "to": "Ann", "points": 8},
        {"from": "Ann", "to": "Cal", "points": 32},
        {"from": "Dan", "to": "Ann", "points": 18},
        {"from": "Bob", "to": "Cal", "points": 40},
        {"from": "Dan", "to": "Cal", "points": 55},
    ]
    texts = [step["text"] for step in sheet["explanation"]]
    assert "Ann paid Cal 35 in hand 3; Cal paid Ann 3 in hand 1: Ann pays Cal 32 (35 - 3)" in texts
    assert not any("shut out" in text for text in texts)

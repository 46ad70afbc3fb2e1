"""The game rules one at a time: end (J14, P8, G8), shutout (J15), settlement (J16, V6),
the dealer (J2, C11, G7), game over, and every check of a game object."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from scorekeeper.engine.errors import ScorekeeperError
from scorekeeper.engine.game import money, score
from tests.engine.test_game import CONTRACT_GAME, column, draw, game, gin, knock, misdeal


def with_settings(base: dict[str, Any], **settings: Any) -> dict[str, Any]:
    changed = copy.deepcopy(base)
    changed["settings"] = settings
    return changed


# --- J14: the end of the game ------------------------------------------------------------


@pytest.mark.rule("J14", "J2")
def test_j14_game_goes_on_below_the_target() -> None:
    sheet = score(
        game(
            "jersey-scarne",
            ["Ann", "Bob", "Cal"],
            "Ann",
            [
                knock("Ann", Ann=5, Bob=40, Cal=59),  # 35+54 = 89
            ],
        )
    )
    assert sheet["totals"] == {"Ann": 89, "Bob": 0, "Cal": 0}
    assert sheet["game_over"] is False
    assert sheet["winner"] is None
    assert sheet["next_dealer"] == "Bob"
    assert (
        sheet["game_bonus"],
        sheet["box_bonuses"],
        sheet["shutouts"],
        sheet["final_totals"],
        sheet["settlement"],
    ) == ({}, {}, [], {}, [])
    assert sheet["explanation"] == [
        {"rule": "J14", "text": "Ann leads with 89; the game is to 100"},
        {"rule": "J2", "text": "the deal passes to the left: Bob deals the next box"},
    ]


@pytest.mark.rule("J14")
def test_j14_exactly_the_target_ends_the_game() -> None:
    sheet = score(
        game(
            "jersey-scarne",
            ["Ann", "Bob", "Cal"],
            "Ann",
            [
                knock("Ann", Ann=5, Bob=40, Cal=70),  # 35+65 = 100
            ],
        )
    )
    assert sheet["game_over"] and sheet["winner"] == "Ann"


@pytest.mark.rule("J14")
def test_game_target_is_a_setting() -> None:
    sheet = score(with_settings(CONTRACT_GAME, game_target=150))
    assert not sheet["game_over"]
    assert sheet["next_dealer"] == "Ann"


@pytest.mark.rule("G8")
def test_a_new_game_has_nobody_scoring_yet() -> None:
    sheet = score(game("gin", ["Ann", "Bob"], "Bob", []))
    assert sheet["boxes"] == []
    assert sheet["totals"] == {"Ann": 0, "Bob": 0}
    assert sheet["next_dealer"] == "Bob"
    assert sheet["explanation"][0] == {"rule": "G8", "text": "nobody has scored yet; the game is to 100"}


@pytest.mark.rule("P8")
def test_p8_parlett_plays_to_200() -> None:
    boxes = [knock("Ann", Ann=2, Bob=80, Cal=90)]  # 78+88 = 166
    sheet = score(game("three-hand-parlett", ["Ann", "Bob", "Cal"], "Cal", boxes))
    assert not sheet["game_over"]
    assert sheet["explanation"][0]["rule"] == "P8"
    boxes.append(knock("Ann", Ann=2, Bob=20, Cal=20))  # 36: 202
    sheet = score(game("three-hand-parlett", ["Ann", "Bob", "Cal"], "Cal", boxes))
    assert sheet["game_over"] and sheet["winner"] == "Ann"
    assert sheet["final_totals"]["Ann"] == 202 + 50 + 100


@pytest.mark.rule("G8")
def test_g8_game_bonus_and_box_bonus_settings() -> None:
    base = game(
        "gin",
        ["Ann", "Bob"],
        "Ann",
        [
            knock("Bob", Bob=1, Ann=11),  # 10
            gin("Ann", Bob=80),  # 105
        ],
    )
    sheet = score(with_settings(base, game_bonus=50, box_bonus=20))
    assert sheet["final_totals"] == {"Ann": 105 + 20 + 50, "Bob": 10 + 20}
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 145}]


@pytest.mark.rule("P4", "P8")
def test_parlett_penalties_lower_the_total() -> None:
    sheet = score(
        game(
            "three-hand-parlett",
            ["Ann", "Bob", "Cal"],
            "Ann",
            [
                knock("Bob", Bob=6, Ann=4, Cal=30),
            ],
        )
    )
    assert sheet["totals"] == {"Ann": 28, "Bob": -20, "Cal": 0}
    assert sheet["explanation"][0]["text"] == "Ann leads with 28; the game is to 200"


# --- J15: shutouts ---------------------------------------------------------------------------


@pytest.mark.rule("J15")
def test_j15_shutout_none_and_a_number() -> None:
    none = score(with_settings(CONTRACT_GAME, shutout="none"))
    assert [line["points"] for line in none["settlement"]] == [164, 259, 95]
    plus = score(with_settings(CONTRACT_GAME, shutout=50))
    assert [line["points"] for line in plus["settlement"]] == [164, 309, 95]
    assert {"rule": "J15", "text": "Cal pays Ann (259 - 0) + 50 = 309"} in plus["explanation"]


@pytest.mark.rule("J15")
def test_j15_only_the_debt_to_the_winner_is_doubled() -> None:
    sheet = score(CONTRACT_GAME)
    assert sheet["settlement"][2] == {"from": "Cal", "to": "Bob", "points": 95, "amount": 4.75}


@pytest.mark.rule("J15", "J16")
def test_two_shut_out_players() -> None:
    sheet = score(
        game(
            "jersey-scarne",
            ["Ann", "Bob", "Cal"],
            "Ann",
            [
                knock("Ann", Ann=0, Bob=50, Cal=60),  # a knock with 0 is gin: 50+60+40 = 150
            ],
        )
    )
    assert sheet["shutouts"] == ["Bob", "Cal"]
    assert sheet["settlement"] == [
        {"from": "Bob", "to": "Ann", "points": 550, "shutout": True},  # (150+25+100) x 2
        {"from": "Cal", "to": "Ann", "points": 550, "shutout": True},
    ]
    assert "Bob and Cal are level: nothing to settle" in [step["text"] for step in sheet["explanation"]]


# --- J16, V6: settlement -------------------------------------------------------------------


@pytest.mark.rule("J16")
def test_j16_winner_only() -> None:
    sheet = score(with_settings(CONTRACT_GAME, settlement="winner-only"))
    assert sheet["settlement"] == [
        {"from": "Bob", "to": "Ann", "points": 164, "amount": 8.2},
        {"from": "Cal", "to": "Ann", "points": 518, "shutout": True, "amount": 25.9},
    ]


@pytest.mark.rule("J16")
def test_j16_winner_only_when_a_loser_ends_higher() -> None:
    # Box bonuses can lift a loser above the winner: then the winner pays him the difference.
    base = game(
        "jersey-scarne",
        ["Ann", "Bob", "Cal"],
        "Ann",
        [
            knock("Bob", Bob=5, Ann=10, Cal=10),  # Bob 10
            knock("Bob", Bob=5, Ann=10, Cal=10),  # Bob 20
            knock("Ann", Ann=0, Bob=30, Cal=30),  # gin: 30+30+40 = 100
        ],
    )
    settings = {"game_bonus": 0, "box_bonus": 100}
    pairwise = score({**base, "settings": settings})
    assert pairwise["final_totals"] == {"Ann": 200, "Bob": 220, "Cal": 0}
    assert pairwise["settlement"] == [
        {"from": "Ann", "to": "Bob", "points": 20},
        {"from": "Cal", "to": "Ann", "points": 400, "shutout": True},
        {"from": "Cal", "to": "Bob", "points": 220},
    ]
    winner_only = score({**base, "settings": {**settings, "settlement": "winner-only"}})
    assert winner_only["winner"] == "Ann"
    assert winner_only["settlement"] == pairwise["settlement"][:2]


@pytest.mark.rule("V6")
def test_v6_no_stake_means_no_amounts() -> None:
    sheet = score({**CONTRACT_GAME, "stake": None})
    assert all("amount" not in line for line in sheet["settlement"])
    assert all(step["rule"] != "V6" for step in sheet["explanation"])


@pytest.mark.parametrize(
    ("stake", "amounts"),
    [
        (0, [0.0, 0.0, 0.0]),
        (1, [164.0, 518.0, 95.0]),
        (0.01, [1.64, 5.18, 0.95]),
        (0.125, [20.5, 64.75, 11.88]),  # 11.875 rounds half up
    ],
)
@pytest.mark.rule("V6")
def test_v6_stake_amounts_round_to_cents(stake: float, amounts: list[float]) -> None:
    sheet = score({**CONTRACT_GAME, "stake": stake})
    assert [line["amount"] for line in sheet["settlement"]] == amounts


@pytest.mark.rule("V6")
def test_money_rounds_half_up() -> None:
    from decimal import Decimal

    assert money(3, Decimal("0.005")) == 0.02
    assert money(164, Decimal("0.05")) == 8.2


# --- J2, C11, G7: the dealer -----------------------------------------------------------------


@pytest.mark.rule("J2")
def test_j2_the_deal_passes_to_the_left_round_the_table() -> None:
    sheet = score(
        game(
            "jersey-scarne",
            ["Ann", "Bob", "Cal"],
            "Bob",
            [
                knock("Ann", Ann=9, Bob=10, Cal=12),
                knock("Ann", Ann=9, Bob=10, Cal=12),
                knock("Ann", Ann=9, Bob=10, Cal=12),
            ],
        )
    )
    assert column(sheet, "dealer") == ["Bob", "Cal", "Ann"]
    assert sheet["next_dealer"] == "Bob"


@pytest.mark.rule("C11")
def test_c11_misdeal_keeps_the_dealer() -> None:
    sheet = score(
        game(
            "jersey-scarne",
            ["Ann", "Bob", "Cal"],
            "Ann",
            [
                misdeal(),
                misdeal(),
                knock("Ann", Ann=9, Bob=10, Cal=12),
                misdeal(),
            ],
        )
    )
    assert column(sheet, "dealer") == ["Ann", "Ann", "Ann", "Bob"]
    assert column(sheet, "result") == ["misdeal", "misdeal", "knock", "misdeal"]
    assert column(sheet, "points") == [0, 0, 4, 0]
    assert sheet["boxes_won"] == {"Ann": 1, "Bob": 0, "Cal": 0}
    assert sheet["next_dealer"] == "Bob"
    assert sheet["explanation"][-1] == {"rule": "C11", "text": "after the misdeal Bob deals again"}


@pytest.mark.rule("G7", "G1")
@pytest.mark.parametrize(
    "preset", ["gin", "gin-classic", "oklahoma", "hollywood", "around-the-corner", "doubling"]
)
def test_g7_draw_passes_the_deal_in_two_hand_presets(preset: str) -> None:
    boxes = [draw(), draw(), knock("Ann", Ann=1, Bob=2), draw()]
    if preset == "oklahoma":
        boxes = [{**box, "upcard": "KH"} for box in boxes]
    passing = score(game(preset, ["Ann", "Bob"], "Ann", boxes))
    assert column(passing, "dealer") == ["Ann", "Bob", "Ann", "Bob"]
    assert passing["next_dealer"] == "Ann"
    assert passing["explanation"][-1] == {"rule": "G7", "text": "after the draw the deal passes: Ann deals"}


@pytest.mark.rule("G7")
def test_g7_same_dealer_after_a_draw_is_a_setting() -> None:
    boxes = [draw(), draw(), knock("Ann", Ann=1, Bob=2), draw()]
    same = score(with_settings(game("gin", ["Ann", "Bob"], "Ann", boxes), redeal_after_draw="same"))
    assert column(same, "dealer") == ["Ann", "Ann", "Ann", "Bob"]
    assert same["next_dealer"] == "Bob"
    assert same["explanation"][-1] == {"rule": "G7", "text": "after the draw Bob deals again"}


@pytest.mark.rule("G7", "P7")
def test_g7_parlett_draw_passes_the_deal() -> None:
    sheet = score(game("three-hand-parlett", ["Ann", "Bob", "Cal"], "Cal", [draw(), draw()]))
    assert column(sheet, "dealer") == ["Cal", "Ann"]
    assert sheet["next_dealer"] == "Bob"


# --- box ids and notes ----------------------------------------------------------------------


def test_box_id_and_note_come_back() -> None:
    box = {**knock("Ann", Ann=9, Bob=10, Cal=12), "id": 7, "note": "Cal misread his 9"}
    sheet = score(game("jersey-scarne", ["Ann", "Bob", "Cal"], "Ann", [box, {**misdeal(), "id": "b2"}]))
    assert sheet["boxes"][0]["id"] == 7
    assert sheet["boxes"][0]["note"] == "Cal misread his 9"
    assert sheet["boxes"][1]["id"] == "b2"
    assert "note" not in sheet["boxes"][1]


def test_a_box_may_name_its_dealer_when_it_is_right() -> None:
    sheet = score(
        game("gin", ["Ann", "Bob"], "Ann", [{**draw(), "dealer": "Ann"}, {**draw(), "dealer": "Bob"}])
    )
    assert column(sheet, "dealer") == ["Ann", "Bob"]


def test_rules_default_by_the_number_of_players() -> None:
    three = score(
        {
            "players": ["Ann", "Bob", "Cal"],
            "dealer": "Ann",
            "boxes": [
                {
                    "ending": "break",
                    "by": "Ann",
                    "hands": {"Ann": {"count": 1}, "Bob": {"count": 2}, "Cal": {"count": 3}},
                }
            ],
        }
    )
    assert three["boxes"][0]["result"] == "break"
    two = score({"players": ["Ann", "Bob"], "dealer": "Ann", "boxes": [draw()]})
    assert two["boxes"][0]["result"] == "draw"


# --- game over and the checks of a game object --------------------------------------------


@pytest.mark.rule("J14")
def test_a_box_after_game_over_is_an_error() -> None:
    late = copy.deepcopy(CONTRACT_GAME)
    late["boxes"].append(knock("Bob", Bob=1, Ann=10, Cal=10))
    with pytest.raises(ScorekeeperError) as caught:
        score(late)
    assert caught.value.code == "game-over"
    assert caught.value.where == "boxes[3]"
    assert "Ann reached 109 in box 3" in caught.value.message


GOOD = {"rules": "jersey-scarne", "players": ["Ann", "Bob", "Cal"], "dealer": "Ann", "boxes": []}


@pytest.mark.parametrize(
    ("change", "code", "where"),
    [
        ({"rules": "canasta"}, "unknown-rules", "rules"),
        ({"rules": None, "players": "Ann"}, "malformed", "players"),  # null: the default for the players
        ({"settings": {"undercut": 10}}, "unknown-setting", "settings.undercut"),
        ({"settings": {"game_target": "lots"}}, "malformed", "settings.game_target"),
        ({"settings": ["game_target"]}, "malformed", "settings"),
        ({"players": None}, "malformed", "players"),
        ({"players": ["Ann", "Bob"]}, "malformed", "players"),
        ({"players": ["Ann", "Bob", "Cal", "Dan"]}, "malformed", "players"),
        ({"players": ["Ann", "Bob", "Ann"]}, "malformed", "players[2]"),
        ({"players": ["Ann", " ", "Cal"]}, "malformed", "players[1]"),
        ({"players": ["Ann", "B" * 41, "Cal"]}, "malformed", "players[1]"),
        ({"players": ["Ann", 7, "Cal"]}, "malformed", "players"),
        ({"dealer": None}, "malformed", "dealer"),
        ({"dealer": "Dan"}, "unknown-player", "dealer"),
        ({"stake": -1}, "malformed", "stake"),
        ({"stake": "5p"}, "malformed", "stake"),
        ({"stake": True}, "malformed", "stake"),
        ({"stake": float("inf")}, "malformed", "stake"),
        ({"boxes": {"ending": "draw"}}, "malformed", "boxes"),
        ({"boxes": ["knock"]}, "malformed", "boxes[0]"),
        ({"boxes": [{**misdeal(), "rules": "gin"}]}, "malformed", "boxes[0].rules"),
        ({"boxes": [{**misdeal(), "players": ["A", "B"]}]}, "malformed", "boxes[0].players"),
        ({"boxes": [misdeal(), {**misdeal(), "dealer": "Bob"}]}, "malformed", "boxes[1].dealer"),
        ({"boxes": [{**misdeal(), "dealer": "Dan"}]}, "unknown-player", "boxes[0].dealer"),
        ({"boxes": [{**misdeal(), "id": [1]}]}, "malformed", "boxes[0].id"),
        ({"boxes": [{**misdeal(), "note": 5}]}, "malformed", "boxes[0].note"),
        (
            {"boxes": [misdeal(), knock("Ann", Ann=9, Bob=10, Cal=99)]},
            "malformed",
            "boxes[1].hands.Cal.count",
        ),
        (
            {"boxes": [misdeal(), knock("Ann", Ann=19, Bob=20, Cal=20)]},
            "over-knock-limit",
            "boxes[1].hands.Ann.count",
        ),
        ({"boxes": [draw()]}, "malformed", "boxes[0].ending"),
    ],
)
def test_game_checks(change: dict[str, Any], code: str, where: str) -> None:
    bad = {**GOOD, **change}
    with pytest.raises(ScorekeeperError) as caught:
        score(bad)
    assert (caught.value.code, caught.value.where) == (code, where)
    assert caught.value.to_json()["error"]["message"]


def test_a_game_must_be_an_object() -> None:
    with pytest.raises(ScorekeeperError) as caught:
        score(["not", "a", "game"])
    assert caught.value.code == "malformed"
    assert caught.value.where is None


def test_score_does_not_change_its_input() -> None:
    before = copy.deepcopy(CONTRACT_GAME)
    score(CONTRACT_GAME)
    assert before == CONTRACT_GAME

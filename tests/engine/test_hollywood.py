"""Hollywood (V3): three games at once, per-win and per-deal entry, each with its own end."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine.errors import ScorekeeperError
from scorekeeper.engine.game import score
from scorekeeper.engine.hollywood import net_settlement, start
from scorekeeper.engine.rules import find_rules
from tests.engine.test_game import column, draw, game, knock, misdeal


def win(winner: str, points: int) -> dict[str, Any]:
    """A box that credits ``winner`` exactly ``points``: a knock with 1 against ``points + 1``."""
    loser = "Bob" if winner == "Ann" else "Ann"
    return knock(winner, **{winner: 1, loser: points + 1})


PER_WIN = game(
    "hollywood",
    ["Ann", "Bob"],
    "Ann",
    [
        win("Ann", 30),  # Ann's 1st win: game 1          G1 A30
        win("Bob", 20),  # Bob's 1st: game 1              G1 A30 B20
        win("Ann", 40),  # Ann's 2nd: games 1, 2          G1 A70 B20, G2 A40
        win("Ann", 35),  # Ann's 3rd: all                 G1 A105 (closed), G2 A75, G3 A35
        win("Bob", 50),  # Bob's 2nd: game 1 closed; his next new game is 2   G2 A75 B50
        win("Ann", 30),  # Ann: the open games 2, 3       G2 A105 (closed), G3 A65
        win("Bob", 40),  # Bob: game 3 is new to him      G3 A65 B40
        win("Bob", 70),  # Bob: game 3                    G3 B110 (closed)
    ],
    settings={"hollywood_entry": "per-win"},
)


@pytest.mark.rule("V3")
def test_per_win_entry_columns() -> None:
    sheet = score(PER_WIN)
    assert column(sheet, "columns") == [[1], [1], [1, 2], [1, 2, 3], [2], [2, 3], [3], [3]]
    assert column(sheet, "dealer") == ["Ann", "Bob"] * 4
    assert sheet["boxes"][3]["column_totals"] == [
        {"Ann": 105, "Bob": 20},
        {"Ann": 75, "Bob": 0},
        {"Ann": 35, "Bob": 0},
    ]
    assert sheet["boxes"][3]["totals"] == {"Ann": 215, "Bob": 20}


@pytest.mark.rule("V3")
def test_per_win_a_closed_column_while_others_stay_open() -> None:
    sheet = score({**PER_WIN, "boxes": PER_WIN["boxes"][:4]})
    assert sheet["game_over"] is False
    assert sheet["next_dealer"] == "Ann"
    first, second, third = sheet["games"]
    assert first["game_over"] and first["winner"] == "Ann"
    assert first["final_totals"] == {"Ann": 105 + 75 + 100, "Bob": 20 + 25}
    assert first["settlement"] == [{"from": "Bob", "to": "Ann", "points": 235}]
    assert not second["game_over"] and second["settlement"] == []
    assert third["totals"] == {"Ann": 35, "Bob": 0}
    # The top level is filled only when every game is over.
    assert sheet["final_totals"] == {} and sheet["settlement"] == []
    assert sheet["totals"] == {"Ann": 215, "Bob": 20}
    texts = [step["text"] for step in sheet["explanation"]]
    assert "game 1 is closed: Ann reached 105 (target 100)" in texts
    assert "game 2 is open: Ann 75, Bob 0" in texts


@pytest.mark.rule("V3")
def test_per_win_whole_game() -> None:
    sheet = score(PER_WIN)
    games = sheet["games"]
    assert [g["column"] for g in games] == [1, 2, 3]
    assert [g["winner"] for g in games] == ["Ann", "Ann", "Bob"]
    assert [g["totals"] for g in games] == [
        {"Ann": 105, "Bob": 20},
        {"Ann": 105, "Bob": 50},
        {"Ann": 65, "Bob": 110},
    ]
    assert [g["boxes_won"] for g in games] == [
        {"Ann": 3, "Bob": 1},
        {"Ann": 3, "Bob": 1},
        {"Ann": 2, "Bob": 2},
    ]
    assert [g["final_totals"] for g in games] == [
        {"Ann": 280, "Bob": 45},
        {"Ann": 280, "Bob": 75},
        {"Ann": 115, "Bob": 260},
    ]
    assert [g["settlement"] for g in games] == [
        [{"from": "Bob", "to": "Ann", "points": 235}],
        [{"from": "Bob", "to": "Ann", "points": 205}],
        [{"from": "Ann", "to": "Bob", "points": 145}],
    ]
    assert [g["entered_boxes"] for g in games] == [[1, 2, 3, 4], [3, 4, 5, 6], [4, 6, 7, 8]]
    assert [g["explanation"][0] for g in games] == [
        {"rule": "V3", "text": "game 1: hands entered 1, 2, 3, 4"},
        {"rule": "V3", "text": "game 2: hands entered 3, 4, 5, 6"},
        {"rule": "V3", "text": "game 3: hands entered 4, 6, 7, 8"},
    ]
    assert {step["rule"] for g in games for step in g["explanation"][1:]} == {"G8"}
    assert sheet["game_over"] is True
    assert sheet["next_dealer"] is None
    assert sheet["totals"] == {"Ann": 275, "Bob": 180}
    assert sheet["boxes_won"] == {"Ann": 4, "Bob": 4}
    assert sheet["game_bonus"] == {"Ann": 200, "Bob": 100}
    assert sheet["box_bonuses"] == {"Ann": 200, "Bob": 100}
    assert sheet["shutouts"] == []
    assert sheet["final_totals"] == {"Ann": 675, "Bob": 380}
    assert sheet["winner"] == "Ann"
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 295}]  # 235+205-145
    assert all(step["rule"] == "V3" for step in sheet["explanation"])


@pytest.mark.rule("V3")
def test_a_box_after_every_column_closed_is_game_over() -> None:
    late = {**PER_WIN, "boxes": [*PER_WIN["boxes"], win("Ann", 10)]}
    with pytest.raises(ScorekeeperError) as caught:
        score(late)
    assert (caught.value.code, caught.value.where) == ("game-over", "boxes[8]")
    assert caught.value.message.startswith("all the games are over: Bob reached 110 in hand 8")


PER_DEAL = game(
    "hollywood",
    ["Ann", "Bob"],
    "Ann",
    [
        win("Ann", 30),  # deal 1 opens game 1            G1 A30
        misdeal(),  # not a deal (C11)
        win("Bob", 20),  # deal 2: games 1, 2             G1 A30 B20, G2 B20
        draw(),  # deal 3 opens game 3, no score
        win("Ann", 80),  # deal 4: all                    G1 A110 (closed), G2 A80, G3 A80
        win("Ann", 25),  # open games 2, 3                G2 A105, G3 A105 (both closed)
    ],
    stake=0.1,
)  # per-deal is the default (Parlett)


@pytest.mark.rule("V3")
def test_per_deal_entry_and_shutout_in_one_column() -> None:
    sheet = score(PER_DEAL)
    assert column(sheet, "columns") == [[1], [], [1, 2], [], [1, 2, 3], [2, 3]]
    assert column(sheet, "dealer") == ["Ann", "Bob", "Bob", "Ann", "Bob", "Ann"]  # G7
    first, second, third = sheet["games"]
    assert first["final_totals"] == {"Ann": 260, "Bob": 45}
    assert second["final_totals"] == {"Ann": 255, "Bob": 45}
    assert third["final_totals"] == {"Ann": 255, "Bob": 0}
    assert third["shutouts"] == ["Bob"]
    assert [g["settlement"] for g in sheet["games"]] == [
        [{"from": "Bob", "to": "Ann", "points": 215, "amount": 21.5}],
        [{"from": "Bob", "to": "Ann", "points": 210, "amount": 21.0}],
        [{"from": "Bob", "to": "Ann", "points": 510, "shutout": True, "amount": 51.0}],  # (255-0) x 2
    ]
    assert sheet["shutouts"] == []  # Bob won a box, just none entered in game 3
    assert sheet["settlement"] == [{"from": "Bob", "to": "Ann", "points": 935, "amount": 93.5}]
    assert sheet["explanation"][0]["text"].startswith(
        "3 games are scored at once, each to 100: each deal opens the next game"
    )


@pytest.mark.rule("V3")
def test_hollywood_target_and_columns_are_settings() -> None:
    sheet = score(
        {
            **PER_WIN,
            "boxes": PER_WIN["boxes"][:4],
            "settings": {"game_target": 150, "hollywood_columns": 2, "hollywood_entry": "per-win"},
        }
    )
    assert len(sheet["games"]) == 2
    assert column(sheet, "columns") == [[1], [1], [1, 2], [1, 2]]
    assert not sheet["games"][0]["game_over"]  # Ann 105 of 150
    assert sheet["boxes"][3]["column_totals"] == [{"Ann": 105, "Bob": 20}, {"Ann": 75, "Bob": 0}]
    assert sheet["explanation"][0]["text"].startswith("2 games are scored at once, each to 150")


@pytest.mark.rule("V3")
def test_a_player_shut_out_of_a_closed_game_starts_in_the_next() -> None:
    columns = start(find_rules("hollywood").with_settings({"hollywood_entry": "per-win"}), ("Ann", "Bob"))
    assert columns is not None
    for _ in range(3):
        _, columns = columns.enter("knock", "Ann", [False, False, False])
    entered, columns = columns.enter("knock", "Bob", [True, False, False])
    assert entered == (2,)
    entered, columns = columns.enter("knock", "Bob", [True, False, False])
    assert entered == (2, 3)
    assert columns.enter("draw", None, [True, False, False])[0] == ()


def test_single_games_have_no_columns() -> None:
    assert start(find_rules("gin"), ("Ann", "Bob")) is None
    sheet = score(game("gin", ["Ann", "Bob"], "Ann", [win("Ann", 5)]))
    assert "games" not in sheet and "columns" not in sheet["boxes"][0]


@pytest.mark.rule("V3")
def test_net_settlement_nets_each_pair() -> None:
    games = [
        {"settlement": [{"from": "B", "to": "A", "points": 10}]},
        {"settlement": [{"from": "A", "to": "B", "points": 25}]},
        {"settlement": [{"from": "B", "to": "A", "points": 15}]},
    ]
    assert net_settlement(games, ["A", "B"]) == []
    assert net_settlement(games[:2], ["A", "B"]) == [{"from": "A", "to": "B", "points": 15}]

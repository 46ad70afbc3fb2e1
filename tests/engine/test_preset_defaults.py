"""The preset defaults of round two: Hollywood per deal in N columns (V3), Knock Rummy
with no target (K5), and the settings that keep the old readings."""

from __future__ import annotations

import pytest

from scorekeeper.engine import find_rules, score
from scorekeeper.engine.errors import ScorekeeperError
from tests.engine.test_game import column, draw, game, knock, misdeal
from tests.engine.test_hollywood import win


@pytest.mark.rule("V3")
def test_hollywood_defaults_to_per_deal_in_three_columns() -> None:
    rules = find_rules("hollywood")
    assert (rules.hollywood_entry, rules.hollywood_columns) == ("per-deal", 3)
    sheet = score(
        game(
            "hollywood",
            ["Ann", "Bob"],
            "Ann",
            [win("Bob", 10), win("Ann", 10), win("Ann", 10), win("Bob", 10)],
        )
    )
    # per-win would give Bob's second win columns 1 and 2 only; per deal it goes in all three
    assert column(sheet, "columns") == [[1], [1, 2], [1, 2, 3], [1, 2, 3]]
    assert [g["totals"] for g in sheet["games"]] == [
        {"Ann": 20, "Bob": 20},
        {"Ann": 20, "Bob": 10},
        {"Ann": 10, "Bob": 10},
    ]


@pytest.mark.rule("V3")
def test_hollywood_plays_as_many_columns_as_deals_up_to_fifty() -> None:
    boxes = [win("Ann", 1) for _ in range(12)]
    sheet = score(game("hollywood", ["Ann", "Bob"], "Ann", boxes, settings={"hollywood_columns": 10}))
    assert len(sheet["games"]) == 10
    assert column(sheet, "columns")[9] == list(range(1, 11))
    # deals 11 and 12 open no new column (a deal after the last column)
    assert column(sheet, "columns")[11] == list(range(1, 11))
    assert [g["totals"]["Ann"] for g in sheet["games"]] == [12 - n for n in range(10)]
    fifty = score(
        game("hollywood", ["Ann", "Bob"], "Ann", [win("Ann", 1)], settings={"hollywood_columns": 50})
    )
    assert len(fifty["games"]) == 50
    assert fifty["explanation"][0]["text"].startswith("50 games are scored at once")


@pytest.mark.rule("V3")
@pytest.mark.parametrize("columns", [0, 51, "3", True])
def test_hollywood_columns_outside_one_to_fifty_are_an_error(columns: object) -> None:
    with pytest.raises(ScorekeeperError) as caught:
        find_rules("hollywood").with_settings({"hollywood_columns": columns})
    assert caught.value.where == "settings.hollywood_columns"
    assert "hollywood_columns" in caught.value.message


@pytest.mark.rule("V3", "C11", "G7")
def test_per_deal_counts_draws_but_not_misdeals() -> None:
    sheet = score(game("hollywood", ["Ann", "Bob"], "Ann", [misdeal(), draw(), win("Bob", 10)]))
    # the misdeal is no deal; the draw is deal 1; Bob's win is deal 2: columns 1 and 2
    assert column(sheet, "columns") == [[], [], [1, 2]]
    assert column(sheet, "dealer") == ["Ann", "Ann", "Bob"]


@pytest.mark.rule("K5")
def test_knock_rummy_may_have_no_target() -> None:
    boxes = [knock("Ann", Ann=3, Bob=60, Cal=60) for _ in range(3)]  # 7 cards each
    sheet = score(game("knock-rummy", ["Ann", "Bob", "Cal"], "Ann", boxes, settings={"game_target": None}))
    assert sheet["totals"]["Ann"] == 3 * 114  # far past 100: no target ends it
    assert sheet["game_over"] is False and sheet["winner"] is None
    assert sheet["next_dealer"] == "Ann"
    assert sheet["explanation"][0]["rule"] == "K5"
    assert "the players end the game when they agree" in sheet["explanation"][0]["text"]


@pytest.mark.rule("K5")
def test_knock_rummy_target_is_an_agreed_stop_without_bonuses() -> None:
    sheet = score(
        game("knock-rummy", ["Ann", "Bob"], "Ann", [knock("Ann", Ann=3, Bob=90), knock("Ann", Ann=3, Bob=50)])
    )
    assert sheet["game_over"] is True
    assert sheet["game_bonus"] == {"Ann": 0}
    assert sheet["box_bonuses"] == {"Ann": 0, "Bob": 0}
    assert sheet["final_totals"] == sheet["totals"] == {"Ann": 87 + 47, "Bob": 0}


@pytest.mark.rule("K5")
@pytest.mark.parametrize("preset", ["gin", "jersey-scarne", "hollywood"])
def test_only_knock_rummy_may_drop_the_target(preset: str) -> None:
    with pytest.raises(ScorekeeperError) as caught:
        find_rules(preset).with_settings({"game_target": None})
    assert caught.value.where == "settings.game_target"
    assert "K5" in caught.value.message


@pytest.mark.rule("G3")
def test_gin_layoffs_is_a_setting_off_in_every_preset() -> None:
    from scorekeeper.engine import PRESETS

    assert {rules.gin_layoffs for rules in PRESETS.values()} == {False}
    assert find_rules("gin").with_settings({"gin_layoffs": True}).gin_layoffs is True
    with pytest.raises(ScorekeeperError):
        find_rules("gin").with_settings({"gin_layoffs": "yes"})


@pytest.mark.rule("G7")
def test_presets_match_the_settings_table_of_rules_md() -> None:
    from scorekeeper.engine import settings_table

    table = settings_table()
    presets = table[0][2:]
    for row in table[1:]:
        name = row[0]
        for preset, cell in zip(presets, row[2:], strict=True):
            value = getattr(find_rules(preset), name)
            if cell == "—" or (name == "hand_size" and preset == "knock-rummy"):
                continue
            shown = "null" if value is None else str(value).lower()
            assert shown == cell.lower(), (name, preset)

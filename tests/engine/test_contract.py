"""The contract's typed values: read from JSON with the field at fault named, written
back as they were read, and the engine's answers carried without loss."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper import engine
from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand, Layoff, Ruling, Sheet
from tests.web.presets_data import GAMES

CONTRACT_BOX = {
    "ending": "knock",
    "by": "Bob",
    "upcard": "7S",
    "multiplier": 2,
    "dealer": "Ann",
    "hands": {
        "Bob": {"cards": ["AS", "2S", "3S", "7H", "7D", "7C", "9D", "10D", "JD", "4C"]},
        "Cal": {
            "melds": [["KH", "KC", "KS"]],
            "deadwood": ["AH", "AD", "2C", "2H", "3D", "4H"],
            "layoffs": [{"card": "4S", "onto": "Bob"}],
        },
        "Ann": {"count": 14},
    },
    "note": "Cal swore it was a 4",
}


def _error(data: Any, read: Any = BoxEntry.from_json) -> dict[str, Any]:
    with pytest.raises(engine.ScorekeeperError) as caught:
        read(data)
    body: dict[str, Any] = caught.value.to_json()["error"]
    return body


def test_a_box_comes_back_as_it_was_entered() -> None:
    box = BoxEntry.from_json(CONTRACT_BOX)
    assert box.hands["Cal"].layoffs == (Layoff("4S", "Bob"),)
    assert box.hands["Cal"].form == "declared"
    assert box.hands["Ann"].form == "count" and box.hands["Bob"].form == "cards"
    assert box.dealer == "Ann" and box.multiplier == 2
    assert box.to_json() == CONTRACT_BOX


def test_every_new_contract_field_is_kept() -> None:
    data = {
        "ending": "gin",
        "by": "Ann",
        "after_break": True,
        "breaker": "Cal",
        "double_refused": "Bob",
        "second_round": True,
    }
    assert BoxEntry.from_json(data).to_json() == data


def test_a_game_comes_back_as_it_was_entered() -> None:
    data = {
        "rules": "jersey-scarne",
        "settings": {"underknock_bonus": 20},
        "players": ["Ann", "Bob", "Cal"],
        "dealer": "Ann",
        "stake": 0.05,
        "place": "Club room",
        "started": "2026-11-24T19:30",
        "boxes": [CONTRACT_BOX],
    }
    game = GameEntry.from_json(data)
    assert game.boxes[0].note == "Cal swore it was a 4"
    assert game.to_json() == data


def test_a_game_without_rules_gets_the_default_for_its_players() -> None:
    two = GameEntry.from_json({"players": ["Ann", "Bob"], "dealer": "Ann"})
    three = GameEntry.from_json({"players": ["Ann", "Bob", "Cal"], "dealer": "Ann"})
    assert (two.rules, three.rules) == ("gin", "jersey-scarne")


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"ending": "knock", "by": "Bob", "colour": "red"}, "colour"),
        ({"ending": "knock", "by": "Bob", "hands": {"Bob": {"count": 4, "bonus": 1}}}, "hands.Bob.bonus"),
        (
            {
                "ending": "knock",
                "by": "Bob",
                "hands": {
                    "Cal": {"melds": [], "deadwood": [], "layoffs": [{"card": "4S", "onto": "Bob", "x": 1}]}
                },
            },
            "hands.Cal.layoffs[0].x",
        ),
    ],
)
def test_an_unknown_field_is_refused_not_stored(data: dict[str, Any], where: str) -> None:
    error = _error(data)
    assert error["code"] == "malformed"
    assert error["where"] == where
    assert "has no field" in error["message"]


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"ending": "knock", "by": "Bob", "note": "bad \udfff"}, "note"),
        ({"ending": "knock", "by": "B\ud800ob"}, "by"),
        ({"ending": "knock", "by": "Bob", "hands": {"Bob": {"cards": ["A\udfffS"]}}}, "hands.Bob.cards[0]"),
        ({"ending": "knock", "by": "Bob", "\udfff": 1}, "\\udfff"),
    ],
)
def test_text_that_is_not_unicode_is_refused_naming_the_field(data: dict[str, Any], where: str) -> None:
    error = _error(data)
    assert error["code"] == "malformed"
    assert error["where"] == where
    assert "not valid text" in error["message"] or "has no field" in error["message"]
    json.dumps(error, ensure_ascii=False).encode("utf-8")  # the error itself prints


def test_a_stake_of_thousands_of_digits_is_an_error_not_an_overflow() -> None:
    error = _error({"players": ["Ann", "Bob"], "dealer": "Ann", "stake": 10**5000}, GameEntry.from_json)
    assert error["where"] == "stake"
    assert len(error["message"]) < 200


def test_a_game_names_its_bad_box() -> None:
    error = _error(
        {"players": ["Ann", "Bob"], "dealer": "Ann", "boxes": [{"ending": "draw"}, {"ending": "fold"}]},
        GameEntry.from_json,
    )
    assert error["where"] == "boxes[1].ending"


def test_a_hand_form_follows_its_fields() -> None:
    assert Hand(cards=("AS",)).form == "cards"
    assert Hand(melds=(), deadwood=()).form == "declared"
    assert Hand(count=3).form == "count"


@pytest.mark.parametrize("preset", sorted(GAMES))
def test_the_engines_sheet_survives_the_typed_values(preset: str) -> None:
    game = {"rules": preset, "dealer": GAMES[preset]["players"][0], **GAMES[preset]}
    sheet = engine.score(game)
    typed = Sheet.from_json(sheet)
    assert typed.to_json() == sheet
    assert len(typed.boxes) == len(sheet["boxes"])
    if sheet["game_over"]:
        assert typed.winner == sheet["winner"] and typed.final_totals == sheet["final_totals"]
    for box, raw in zip(typed.boxes, sheet["boxes"], strict=True):
        assert box.credits == raw["credits"] and box.totals == raw["totals"]


def test_a_ruling_keeps_fields_it_does_not_name() -> None:
    data = {"result": "knock", "winner": "Ann", "points": 10, "credits": {"Ann": 10}, "future_field": [1, 2]}
    ruling = Ruling.from_json(data)
    assert ruling.extra == {"future_field": [1, 2]}
    assert ruling.to_json()["future_field"] == [1, 2]


def test_the_contract_documents_example_reads() -> None:
    """The box of docs/contract.md reads as typed values and back."""
    text = (Path(__file__).parents[2] / "docs" / "contract.md").read_text(encoding="utf-8")
    start = text.index("```json", text.index("## A box")) + len("```json")
    example = json.loads(text[start : text.index("```", start)])
    body = {k: v for k, v in example.items() if k not in ("rules", "settings", "players")}
    box = BoxEntry.from_json(body)
    assert BoxEntry.from_json(box.to_json()) == box
    assert box.to_json() == {k: v for k, v in body.items() if k != "multiplier"}  # 1: default


def test_an_odd_stored_box_still_loads_escaped() -> None:
    """What an older version stored (unknown fields, a lone surrogate) loads, and its
    text can be written as UTF-8."""
    stored = {
        "ending": "knock",
        "by": "Bob",
        "note": "x\udfff",
        "colour": "red",
        "hands": {
            "Bob": {"count": 4, "bonus": 1},
            "Cal": {
                "melds": [["KH", "KC", "KS"]],
                "deadwood": [],
                "layoffs": [{"card": "4S", "onto": "Bob", "odd": 1}],
            },
        },
    }
    box = BoxEntry.from_stored(stored)
    assert box.note == "x\\udfff"
    assert box.hands["Bob"] == Hand(count=4)
    assert box.hands["Cal"].layoffs == (Layoff("4S", "Bob"),)
    json.dumps(box.to_json(), ensure_ascii=False).encode("utf-8")


def test_the_sheet_declares_how_a_game_ended_and_which_boxes_each_column_took() -> None:
    """``ended`` and Hollywood's ``entered_boxes`` are fields of the typed sheet, not
    extras; the JSON is what the engine answered, field for field."""
    from scorekeeper import engine
    from scorekeeper.engine.contract import BoxEntry, GameEntry, Hand, Sheet

    knock = BoxEntry(ending="knock", by="Ann", hands={"Ann": Hand(count=3), "Bob": Hand(count=20)})
    ended = GameEntry(rules="gin", players=("Ann", "Bob"), dealer="Ann", ended="agreed", boxes=(knock,))
    sheet = engine.score_game(ended)
    assert sheet.ended == "agreed" and not sheet.extra
    assert sheet.to_json() == engine.score(ended.to_json())
    columns = engine.score_game(dataclasses.replace(ended, rules="hollywood", ended=None))
    assert [g.entered_boxes for g in columns.games] == [(1,), (), ()]
    assert columns.ended is None and not any(g.extra for g in columns.games)
    assert Sheet.from_json(columns.to_json()) == columns

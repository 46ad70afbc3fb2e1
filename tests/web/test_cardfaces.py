"""The tap grid's cards, drawn once per name and cards picked (issue 34: three grids of
52 taps were half of a new box form's CPU)."""

from __future__ import annotations

import re

from scorekeeper.engine import SUIT_SYMBOLS, spoken
from scorekeeper.web import cardfaces

TAP = re.compile(
    r'<label class="tap"><input type="(\w+)" name="([^"]+)" value="(\w+)" aria-label="([^"]+)"( checked)?>'
    r'<span aria-hidden="true">(\w+)<b>(.)</b></span></label>'
)
ROW = re.compile(r'<div class="suit-row( red)?"( data-suit="(\w)")?>')


def test_a_hands_grid_has_every_card_in_suit_rows_with_the_picked_ones_checked() -> None:
    drawn = str(cardfaces.taps("hands-1-cards", "checkbox", ["QS", "10H"]))
    taps = TAP.findall(drawn)
    assert [code for _, _, code, *_ in taps] == list(cardfaces.ALL_CODES)
    assert {(kind, name) for kind, name, *_ in taps} == {("checkbox", "hands-1-cards")}
    assert all(label == spoken(code) for _, _, code, label, *_ in taps)
    assert [code for _, _, code, _, checked, *_ in taps if checked] == ["QS", "10H"]
    assert all(
        rank == code[:-1] and symbol == SUIT_SYMBOLS[code[-1]] for _, _, code, _, _, rank, symbol in taps
    )
    assert ROW.findall(drawn) == [
        ("", ' data-suit="S"', "S"),
        (" red", ' data-suit="H"', "H"),
        ("", ' data-suit="C"', "C"),
        (" red", ' data-suit="D"', "D"),
    ]


def test_the_upcards_grid_is_of_radios_and_its_rows_name_no_suit() -> None:
    drawn = str(cardfaces.taps("upcard", "radio", ["7D"], suit_named=False))
    taps = TAP.findall(drawn)
    assert {kind for kind, *_ in taps} == {"radio"} and len(taps) == 52
    assert [code for _, _, code, _, checked, *_ in taps if checked] == ["7D"]
    assert [suit for _, _, suit in ROW.findall(drawn)] == ["", "", "", ""]


def test_a_grid_is_drawn_once_and_its_name_escaped() -> None:
    assert cardfaces.taps("hands-0-cards", "checkbox") is cardfaces.taps("hands-0-cards", "checkbox", [])
    assert 'name="a&#34;b"' in str(cardfaces.taps('a"b', "checkbox"))

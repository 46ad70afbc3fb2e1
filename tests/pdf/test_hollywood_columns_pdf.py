"""Hollywood with N columns (V3) on paper: the sheet prints every column in bands on a
landscape page, rules off each closed column under the hand that closed it and sums its
bonuses at its foot; the blank pad rules as many columns as the game plays."""

from __future__ import annotations

from typing import Any

import pytest
from reportlab.lib.units import mm

from scorekeeper import engine
from scorekeeper.pdf import render_blank_pad
from scorekeeper.pdf.hollywood import bands, hollywood_table
from tests.web.test_hollywood_columns_page import COLUMNS, twelve_columns

from . import games
from .reading import flat, lines, page_size_mm


@pytest.mark.rule("V3")
def test_every_column_prints_with_its_bonuses() -> None:
    game = twelve_columns()
    score = engine.score(game)
    pdf = games.sheet_pdf(game, score)
    width, height = page_size_mm(pdf)
    assert width > height  # landscape for more than three columns
    cells = lines(pdf)
    for n in range(1, COLUMNS + 1):
        assert f"Game {n}" in cells
    text = flat(pdf)
    assert "Hand bonuses × 25" in text and "Box" not in text.split("Hand bonuses")[0][-200:]
    for summary in score["games"]:
        if summary["game_over"]:
            assert f"Game {summary['column']} · closed" in text


def _double_rules(table: Any) -> set[tuple[int, int]]:
    """(column, row) of each double line drawn under a cell: the ruling-off."""
    return {
        (start[0], start[1])
        for op, start, _end, *rest in table._linecmds
        if op == "LINEBELOW" and len(rest) > 5 and rest[5] == 2
    }


@pytest.mark.rule("V3")
def test_a_closed_column_is_ruled_off_under_the_hand_that_closed_it() -> None:
    game = twelve_columns()
    score = engine.score(game)
    band = bands(COLUMNS, 270 * mm)[0]
    table = hollywood_table(*games.typed(game, score), game["players"], band, 270 * mm)
    ruled = _double_rules(table)
    closed = {g["column"]: g["entered_boxes"][-1] for g in score["games"] if g["game_over"]}
    expected = {(7 + 2 * band.index(c), 1 + hand) for c, hand in closed.items() if c in band}
    assert expected and ruled == expected  # two heading rows: hand n is table row n + 1


@pytest.mark.rule("V3")
@pytest.mark.parametrize("columns", [1, 5, 12, 50])
def test_the_blank_pad_rules_as_many_columns_as_deals(columns: int) -> None:
    pdf = render_blank_pad("hollywood", columns=columns)
    cells = " ".join(lines(pdf))
    for n in (1, columns):
        assert f"Game {n} · to 100" in cells
    assert f"Game {columns + 1} ·" not in cells
    # Portrait whatever the number: four games a band (a page), each with its rows.
    width, height = page_size_mm(pdf)
    assert width < height

"""Pads for the long games (issue 35), read back with pdftotext: at least 15 hand rows a
sheet, a Carried forward row on every sheet of rows, the summary on a sheet of its own
when it does not fit under them, score cells at least 15 mm wide; on A4 and letter."""

from __future__ import annotations

from typing import Any

import pytest
from reportlab.lib.units import mm

from scorekeeper import engine
from scorekeeper.pdf import render_blank_pad
from scorekeeper.pdf.pad import box_pad, hollywood_pad

from .reading import pdftotext_pages

PADS = [
    ("knock-rummy", {}),
    ("knock-rummy", {"players": 5}),
    ("hollywood", {"columns": 5}),
    ("hollywood", {"columns": 12}),
    ("jersey-scarne", {}),
    ("gin", {}),
]


def _sheets(pdf: bytes) -> list[list[str]]:
    return pdftotext_pages(pdf)


def _hand_rows(lines: list[str]) -> int:
    """The highest row number of a sheet's pad (rows are numbered 1, 2, ... in order)."""
    numbers = [int(line) for line in lines if line.isdigit() and int(line) < 100]
    run = 0
    for number in numbers:
        if number == run + 1:
            run = number
    return run


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize(("rules", "options"), PADS)
def test_every_sheet_of_rows_has_fifteen_and_the_summary_has_its_place(
    rules: str, options: dict[str, Any], paper: str
) -> None:
    sheets = _sheets(render_blank_pad(rules, page_size=paper, **options))
    with_rows = [sheet for sheet in sheets if _hand_rows(sheet)]
    assert with_rows
    for sheet in with_rows:
        assert _hand_rows(sheet) >= 15, sheet
        assert "Carried forward" in sheet
    # The summary comes once per band of columns, after its rows: on their sheet or the next.
    assert "Final total" in sheets[-1]
    summaries = [sheet for sheet in sheets if "Final total" in sheet]
    for sheet in summaries:
        assert "Credits" in sheet and sheet.index("Credits") < sheet.index("Final total")
    assert "Agreed: A" in " ".join(sheets[-1])


def test_a_twelve_column_hollywood_pad_is_three_bands_of_four_games() -> None:
    sheets = _sheets(render_blank_pad("hollywood", columns=12))
    heads = [[line for line in sheet if line.startswith("Game ") and "to 100" in line] for sheet in sheets]
    bands = [band for band in heads if band]
    assert [len(band) for band in bands] == [4, 4, 4]
    assert bands[-1][-1] == "Game 12 · to 100"


@pytest.mark.parametrize(("rules", "seats"), [("knock-rummy", 5), ("knock-rummy", 4), ("jersey-scarne", 3)])
def test_score_cells_are_at_least_15_mm(rules: str, seats: int) -> None:
    width = (297 if seats >= 4 else 210) * mm - 37 * mm
    table: Any = box_pad(engine.find_rules(rules), seats, width, 200 * mm)
    widths = list(table._colWidths)
    assert all(w >= 15 * mm - 0.01 for w in widths[len(widths) - 3 * seats :])
    assert sum(widths) <= width + 0.01


def test_hollywood_cells_are_at_least_15_mm() -> None:
    bands = hollywood_pad(engine.find_rules("hollywood"), 12, 173 * mm, 200 * mm, 30 * mm, 250 * mm)
    tables: list[Any] = [f for f in bands if hasattr(f, "_colWidths")]
    assert all(w >= 15 * mm - 0.01 for t in tables for w in list(t._colWidths)[5:])


@pytest.mark.parametrize("paper", ["A4", "letter"])
@pytest.mark.parametrize("columns", [5, 12])
def test_every_band_of_a_hollywood_pad_has_the_same_hand_rows(columns: int, paper: str) -> None:
    # A hand is written across the bands on one row and the sheets are turned together:
    # page 1 (under the title) held 17 hands and page 2 held 19 (issue 35's review).
    sheets = _sheets(render_blank_pad("hollywood", columns=columns, page_size=paper))
    rows = [_hand_rows(sheet) for sheet in sheets if _hand_rows(sheet)]
    assert len(rows) == -(-columns // 4)  # a band of up to four games a sheet
    assert len(set(rows)) == 1 and rows[0] >= 15, rows

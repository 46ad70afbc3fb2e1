"""Things kept together on sheets longer than a page (issue 35), read back per page with
pdftotext: a note on the page of its box, right under it; "Box detail" and a Hollywood
"Game 2" never alone at a page's foot; the legend whole in the footer (the QR code, once
beside it, now stands in the title block)."""

from __future__ import annotations

import re

import pytest

from benchmarks.pdf_sheet import long_game
from scorekeeper.pdf import render_sheet
from scorekeeper.pdf.meta import SheetMeta

from . import games
from .reading import pdftotext_lines, pdftotext_pages

NOTED = (3, 30, 47, 90, 121)
"""Entries of the 130-box game given a note: some fall on a page's last rows."""


def _pages(pdf: bytes) -> list[list[str]]:
    """pdftotext's lines, page by page."""
    return pdftotext_pages(pdf, layout=True)


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_every_note_prints_right_under_its_box_on_the_same_page(paper: str) -> None:
    game = long_game(130)
    for n in NOTED:
        game["boxes"][n]["note"] = f"note of entry {n}"
    pdf = games.sheet_pdf(game, detail=False, page_size=paper)
    found = 0
    for lines in _pages(pdf):
        for row, line in enumerate(lines):
            said = re.search(r"note of entry (\d+)", line)
            if said is None:
                continue
            found += 1
            # The line above is the box's own row, marked as the note is ("12*").
            mark = line.split()[0]
            assert mark.endswith("*") and lines[row - 1].split()[0] == mark, (lines[row - 1], line)
    assert found == len(NOTED)


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_no_heading_ends_a_page(paper: str) -> None:
    long = games.sheet_pdf(long_game(52), detail=True, page_size=paper)
    hollywood = games.sheet_pdf(games.hollywood_game(), page_size=paper)
    for pdf in (long, hollywood):
        for lines in _pages(pdf)[:-1]:
            body = [line for line in lines if not re.search(r"page \d+ of \d+|^K knock|scorekeeper", line)]
            assert not re.fullmatch(r"(Box|Hand) detail|Game \d|Notes|Settlement|End of game", body[-1]), (
                body[-1]
            )


def test_a_heading_of_hollywood_games_is_on_the_page_of_its_working() -> None:
    pdf = games.sheet_pdf(games.hollywood_game())
    for lines in _pages(pdf):
        for row, line in enumerate(lines):
            if re.fullmatch(r"Game \d", line):
                assert re.match(r"V3|G\d", lines[row + 1]), lines[row : row + 2]


def test_the_legend_is_never_cut_short() -> None:
    game = games.jersey_game(11)
    for n, box in enumerate(game["boxes"]):
        box["id"] = f"b{n}"
    game["boxes"][2]["note"] = "Bob showed the 7♥"
    meta = SheetMeta(game_id="g7Qx", revised={"b4": 2}, read_only_url="https://club.example/g/g7Qx")
    lines = pdftotext_lines(render_sheet(*games.typed(game), meta=meta), layout=True)
    assert any(line.endswith("5 v2 box 5 corrected, its version 2") for line in lines)
    assert not any("…" in line and "knock" in line for line in lines)

"""One sheet for an evening's game (issue 35): up to 15 boxes with ordinary full names
(20 characters) print on one page without detail, on A4 and on letter, with a currency;
each box keeps one line, the dealer and winner by a short form the seat list explains."""

from __future__ import annotations

import re

import pytest

from scorekeeper import engine
from scorekeeper.pdf.blocks import short_names

from . import games
from .reading import pdftotext_lines, reader

NAMES = ["Margarethe Johansson", "Bartholomew Ingallsx", "Constance Whitfieldo"]
assert [len(n) for n in NAMES] == [20, 20, 20]


@pytest.fixture(scope="module")
def evening() -> dict[str, object]:
    game = games.evening_game(17, NAMES)  # 15 boxes and 2 misdeals
    score = engine.score(game)
    assert score["game_over"] and sum(b["result"] != "misdeal" for b in score["boxes"]) == 15
    return game


@pytest.mark.parametrize("paper", ["A4", "letter"])
def test_fifteen_boxes_of_twenty_character_names_are_one_page(evening: dict[str, object], paper: str) -> None:
    pdf = games.sheet_pdf(evening, detail=False, page_size=paper)
    assert len(reader(pdf).pages) == 1
    lines = pdftotext_lines(pdf, layout=True)
    text = "\n".join(lines)
    # Everything an evening's sheet has is on its one page: the end, money, the working.
    for said in ("Final total", "Settlement", "Net result", "Running totals", "J16", "V6", "$"):
        assert said in text, said
    # Each box is one line: its number, the dealer's and winner's short names, its numbers.
    rows = [line for line in lines if re.match(r"\d+ +\S+ +(K|G|U|B|BG) +\S+ +\d", line)]
    assert [row.split()[0] for row in rows] == [str(n) for n in range(1, 16)]
    assert rows and all("Johansson" not in row and "Ingallsx" not in row for row in rows)
    assert lines.index(next(r for r in rows if r.startswith("1 "))) < lines.index(
        next(r for r in rows if r.startswith("15 "))
    )
    # The seat list above names every player whole.
    for name in NAMES:
        assert name in text


def test_the_short_form_is_the_first_name_or_initials_when_first_names_clash() -> None:
    assert short_names(NAMES, 22 * 2.8346) == {n: n.split()[0] for n in NAMES}
    twins = ["Margarethe Johansson", "Margarethe Ingallsxy"]
    assert short_names(twins, 22 * 2.8346) == {twins[0]: "MJ1", twins[1]: "MI2"}

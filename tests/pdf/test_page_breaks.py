"""One sheet for one evening's game: page counts by length of game, and no heading left
alone at the foot of a page."""

from __future__ import annotations

import re

import pytest

from benchmarks.pdf_sheet import long_game
from scorekeeper import engine

from . import games
from .reading import page_texts, reader

HEADINGS = {
    "End of game",
    "Settlement",
    "Notes",
    "Box detail",
    "Hand detail",
    "The game box by box",
    "The games",
    "Net result",
}


def _pages(pdf: bytes) -> int:
    return len(reader(pdf).pages)


@pytest.mark.parametrize("size", ["A4", "letter"])
def test_an_eleven_box_game_is_one_page_without_detail(size: str) -> None:
    game = games.jersey_game(11)
    assert engine.score(game)["game_over"]
    pdf = games.sheet_pdf(game, detail=False, page_size=size)
    assert _pages(pdf) == 1
    text = page_texts(pdf)[0]
    # Everything is on it: the chart's labels, the end tables, the settlement, the rules.
    for said in ("Running totals", "End of game", "Settlement", "Net result", "J16"):
        assert said in text


@pytest.mark.parametrize(
    ("boxes", "detail", "pages"),
    [(11, False, 1), (11, True, 1), (52, False, 2), (52, True, 4), (130, False, 3), (130, True, 8)],
)
def test_page_counts_of_long_games(boxes: int, detail: bool, pages: int) -> None:
    pdf = games.sheet_pdf(long_game(boxes), detail=detail, page_size="A4")
    assert _pages(pdf) == pages


def test_a_hollywood_game_fills_its_pages() -> None:
    game = games.hollywood_game()
    pdf = games.sheet_pdf(game)
    assert _pages(pdf) == 2
    # The second page is not a leftover: it carries the hand detail as well.
    assert "Hand detail" in page_texts(pdf)[1]


@pytest.mark.parametrize("boxes", [11, 40, 52])
def test_no_heading_is_left_alone_at_the_foot_of_a_page(boxes: int) -> None:
    game = games.jersey_game(boxes) if boxes != 52 else long_game(52)
    for size in ("A4", "letter"):
        for text in page_texts(games.sheet_pdf(game, detail=True, page_size=size)):
            body = text.split("\npage ")[0] if "\npage " in text else re.split(r"page \d+ of \d+", text)[0]
            last = [line.strip() for line in body.splitlines() if line.strip()][-1]
            assert last not in HEADINGS, (boxes, size, last)

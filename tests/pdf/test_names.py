"""Player names are user text: printed as typed, never read as markup, in any script."""

from __future__ import annotations

import pytest
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from scorekeeper import engine
from scorekeeper.pdf.styles import FONT, FONT_BOLD, register_fonts

from . import games
from .conftest import DATE
from .reading import flat, lines, page_size_mm, page_texts

FIVE = ["Ann", games.CYRILLIC, games.GREEK, games.HOSTILE, games.LONG]


@pytest.fixture(scope="module")
def five_pdf() -> bytes:
    game = games.knock_rummy_game(FIVE)
    return games.sheet_pdf(game, created=DATE)


def test_a_name_that_is_markup_prints_as_typed(five_pdf: bytes) -> None:
    text = flat(five_pdf)
    assert games.HOSTILE in text
    assert "&amp;" not in text and "&lt;" not in text


def test_a_hostile_name_in_a_two_hand_game_and_in_the_title() -> None:
    game = games.gin_shutout_game(games.ACCENTED, games.HOSTILE)
    score = engine.score(game)
    pdf = games.sheet_pdf(game, score, title=games.HOSTILE)
    text = flat(pdf)
    assert page_texts(pdf)[0].startswith(games.HOSTILE)
    assert f"{games.HOSTILE} pays {games.ACCENTED} (270 − 0) × 2 = 540" in text


def test_non_latin_names_are_in_the_text(five_pdf: bytes) -> None:
    text = flat(five_pdf)
    for name in (games.CYRILLIC, games.GREEK):
        assert name in text
    # Seat order in the title block, and each name over its columns.
    assert "1 Ann 2 Бори́с Пастерна́к 3 Ζωή Παπαδοπούλου" in text


def test_a_long_name_is_whole_in_the_player_list_and_shortened_in_cells(five_pdf: bytes) -> None:
    first = page_texts(five_pdf)[0]
    assert f"5 {games.LONG}" in " ".join(first.split())
    cells = lines(five_pdf)
    # In a narrow cell it ends in an ellipsis at a word's end, never in slivers of a word.
    assert "Hohenzollern…" in cells
    shortened = [c for c in cells if c.endswith("…")]
    assert all(
        len(c) > 4 and c[:-1] in "".join(FIVE) + " · " + " · ".join(FIVE) for c in shortened if "·" not in c
    ), shortened


def test_five_players_print_on_a_landscape_page(five_pdf: bytes) -> None:
    first = page_texts(five_pdf)[0]
    assert "Knock Rummy" in first and "10 hands; in progress" in first
    assert page_size_mm(five_pdf) == (297, 210)


@pytest.mark.parametrize("font", [FONT, FONT_BOLD])
def test_the_embedded_fonts_have_every_glyph_printed(font: str) -> None:
    register_fonts()
    face = pdfmetrics.getFont(font)
    assert isinstance(face, TTFont)
    needed = set("♣♦♥♠−×·’") | set("".join([*FIVE, games.ACCENTED]))
    missing = [c for c in needed if not c.isspace() and ord(c) not in face.face.charToGlyph]
    assert missing == []


def test_a_box_of_counts_only_prints_its_names_as_typed_on_its_run_on_line() -> None:
    players = [games.HOSTILE, "日本語 名", "Ann"]
    game = {
        "rules": "jersey-scarne",
        "players": players,
        "dealer": "Ann",
        "boxes": [games.knock(games.HOSTILE, {games.HOSTILE: 3, "日本語 名": 20, "Ann": 9})],
    }
    pdf = games.sheet_pdf(game, detail=True)
    text = flat(pdf)
    # The line is drawn without markup: the name's tags print as typed, the CJK name whole.
    assert f"Box 1 · Ann dealt · K {games.HOSTILE} won by a knock · {games.HOSTILE} +" in text
    assert f": {games.HOSTILE} knocked with 3; 日本語 名 20" in text
    assert "&amp;" not in text and "&lt;" not in text

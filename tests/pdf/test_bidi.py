"""Right-to-left names inside left-to-right lines, block by block of the sheet.

Read back with pypdf, which puts a run of right-to-left letters back into reading
order: a name drawn in its own order reads back as typed, a name drawn backwards
(or put in order twice) reads back reversed, and two words of a name drawn in the
wrong order read back swapped. The text is folded (Arabic's joined forms to plain
letters) and its white space dropped, so each check is the order of the letters
of a name and of what stands beside it on its line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest
from reportlab.pdfbase.ttfonts import TTFont

from scorekeeper.pdf import fonts
from scorekeeper.pdf.fonts import FONT, shortened, visual
from scorekeeper.pdf.styles import fitted, styles

from . import games
from .reading import page_texts

ARABIC, HEBREW, CJK = "محمد العربي", "דוד כהן", "李雷"
ALLAH = "عبد الله"
LONG_WORD = "Wolfeschlegelsteinhausenbergerdorffvoral"
assert len(LONG_WORD) == 40


def squeezed(text: str) -> str:
    """Folded to plain letters, white space (and no-break spaces) dropped."""
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


def pages(pdf: bytes) -> list[str]:
    return [squeezed(text) for text in page_texts(pdf)]


@pytest.fixture(scope="module")
def three() -> list[str]:
    """An eleven-box Jersey game of an Arabic, a Hebrew and a Chinese name, every box in
    detail: the seat list, cells, heads, chart labels, end tables, settlement,
    explanations, box detail and the running header of page 2."""
    game = games.jersey_game(11, players=[ARABIC, HEBREW, CJK])
    return pages(games.sheet_pdf(game, detail=True))


def test_seat_list_and_column_heads(three: list[str]) -> None:
    first = three[0]
    assert squeezed(f"1 {ARABIC} 2 {HEBREW} 3 {CJK} first dealer {ARABIC}") in first
    assert squeezed(f"Won by {ARABIC} {HEBREW} {CJK} count box total") in first


def test_cells_of_the_box_table(three: list[str]) -> None:
    # Box 1: dealt by and won by the Arabic name; box 2 the Hebrew name.
    assert squeezed(f"1 {ARABIC} K {ARABIC} 1k 21 21") in three[0]
    assert squeezed(f"2 {HEBREW} K {HEBREW} 12 21") in three[0]


def test_chart_labels(three: list[str]) -> None:
    assert squeezed(f"{ARABIC} 121") in three[0] and squeezed(f"{HEBREW} 138") in three[0]


def test_end_tables_and_settlement(three: list[str]) -> None:
    text = "".join(three)
    assert squeezed(f"Pays To Points Amount {ARABIC} {HEBREW} 142 7.10") in text
    assert squeezed(f"Net result {ARABIC} {HEBREW} {CJK} Points") in text


def test_explanations_keep_the_sentence_in_order(three: list[str]) -> None:
    text = "".join(three)
    # The sentence read backwards: "李雷 pays 191 = 164 − 355 محمد العربي".
    assert squeezed(f"{ARABIC} pays {HEBREW} 338 − 196 = 142") in text
    assert squeezed(f"{CJK} pays {ARABIC} 196 − 136 = 60") in text
    assert squeezed(f"box bonuses at 25 a box: {ARABIC} 3 × 25 = 75, {HEBREW} 4 × 25") in text


def test_box_detail(three: list[str]) -> None:
    text = "".join(three)
    assert (
        squeezed(
            f"Box 1 · {ARABIC} dealt · K {ARABIC} won by a knock · {ARABIC} +21: "
            f"{ARABIC} knocked with 1; {HEBREW} 12, {CJK} 11"
        )
        in text
    )
    assert squeezed(f"{ARABIC} laid off 4♠ on {CJK}’s A♠-2♠-3♠") in text


def test_running_header_is_not_mirrored(three: list[str]) -> None:
    assert squeezed(f"Jersey Gin (Scarne) {ARABIC} · {HEBREW} · {CJK}") in three[1]


def test_a_layoff_onto_a_right_to_left_name() -> None:
    # Box 6 (cards) lays off onto the knocker, the third seat here.
    game = games.jersey_game(11, players=[HEBREW, CJK, ARABIC])
    text = "".join(pages(games.sheet_pdf(game, detail=True)))
    assert squeezed(f"4♠ on {ARABIC}’s A♠ 2♠ 3♠") in text


def test_a_name_is_reordered_once_and_on_its_own() -> None:
    assert visual(f"{CJK} pays 191 = 164 − 355 {HEBREW}") == f"{CJK} pays 191 = 164 − 355 ןהכ\xa0דוד"
    assert visual(f"{HEBREW}, אב and 5") == "ןהכ\xa0דוד, בא and 5"


def test_a_name_cut_short_loses_its_end() -> None:
    cut = shortened(ARABIC, FONT, 8, 30)
    assert cut == "محمد…"
    # Drawn: the first word at the right, the ellipsis at the left where the name goes on.
    assert visual(cut)[0] == "…"


def test_a_wrapped_name_keeps_its_first_line_first() -> None:
    markup, _ = fitted("אבגד הוזח", styles().cell, 24)
    hebrew = '<font face="NotoSansHebrew">{}</font>'
    assert markup.split("<br/>") == [hebrew.format("דגבא"), hebrew.format("חזוה")]


def test_a_40_letter_word_is_shortened_in_a_cell_and_whole_in_the_seat_list() -> None:
    game = games.jersey_game(11, players=["Ann", LONG_WORD, "Cal"])
    lines = [line for text in page_texts(games.sheet_pdf(game, detail=False)) for line in text.splitlines()]
    slivers = [
        line
        for line in lines
        if line.strip() and LONG_WORD.startswith(line.strip()) and line.strip() != LONG_WORD
    ]
    assert slivers == []
    assert any(f"2 {LONG_WORD}" in line for line in lines)
    assert any(line.strip().startswith(LONG_WORD[:5]) and line.strip().endswith("…") for line in lines)


def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[tuple[TTFont, str]]:
    """Every string ReportLab draws in a TrueType font, with that font."""
    seen: list[tuple[TTFont, str]] = []
    split = TTFont.splitString

    def spy(self: TTFont, text: str, doc: Any, encoding: str = "utf-16") -> Any:
        seen.append((self, text))
        return split(self, text, doc, encoding)

    monkeypatch.setattr(TTFont, "splitString", spy)
    return seen


def _missing(seen: list[tuple[TTFont, str]]) -> Iterator[tuple[str, str]]:
    for font, text in seen:
        for char in text:
            if ord(char) not in font.face.charToGlyph and not char.isspace():
                yield font.fontName, char


@pytest.mark.parametrize(
    "names",
    [[ALLAH, HEBREW, CJK], ["Ann 😀🎲", "한국어 이름", "Ελληνικά"], ["محمد العربي", "پرویز گل", "ۀ ے ٱلله"]],
)
def test_every_drawn_character_is_in_the_font_that_draws_it(
    names: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = _drawn(monkeypatch)
    game = games.jersey_game(11, players=names)
    games.sheet_pdf(game, detail=True)
    assert seen and sorted(set(_missing(seen))) == []


@pytest.mark.parametrize("name", [ALLAH, "محمد"])
def test_a_name_prints_its_letters_joined_never_a_word_ligature(name: str) -> None:
    # "محمد" was U+FDF4 and "الله" U+FDF2: glyphs with marks nobody typed (issue 35).
    shown = visual(name)
    assert not any(0xFDF0 <= ord(c) <= 0xFDFF for c in shown), shown
    assert len(shown) == len(name)
    assert [font for font, _ in fonts.runs(shown)] == ["NotoSansArabic"]
    assert all(ord(c) in fonts._glyphs("NotoSansArabic") for c in shown)
    assert unicodedata.normalize("NFKC", shown[::-1]).replace("\xa0", " ") == name


@pytest.mark.parametrize("onto", ["Maximiliano Hohenzollern-Sigmaringen III", LONG_WORD, ARABIC])
def test_a_layoff_line_wraps_or_shortens_inside_its_cell(onto: str) -> None:
    from scorekeeper.engine.contract import LaidOff, LaidOut
    from scorekeeper.pdf.cards import CardLine, layoff

    hands = {onto: LaidOut(melds=(("AS", "2S", "3S"),), deadwood=(), layoffs=(), count=0)}
    line = CardLine(layoff(LaidOff(card="4S", onto=onto, meld=0), hands))
    room = 45.0
    _, height = line.wrap(room, 1000)
    space = fonts.width(" ", FONT, 8)
    for words_ in line.lines:
        drawn = sum(fonts.width(word, FONT, 8) for word, _ in words_) + space * (len(words_) - 1)
        assert drawn <= room + 0.01, words_
    assert height > line.leading  # wrapped, not run over the deadwood cell
    assert line.lines[0][0][0] == "4♠"

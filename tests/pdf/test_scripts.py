"""Every name prints: Greek, Cyrillic, Japanese, Korean, Arabic, Hebrew, emoji, 40 characters.

Read back three ways: ``pdffonts`` lists every font embedded (subset), the text layer gives
back every name (right-to-left names in the order their glyphs are drawn), and no glyph is
missing from the font that draws it.
"""

from __future__ import annotations

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from scorekeeper.pdf.fonts import FONT, _glyphs, runs, visual

from . import games
from .reading import flat

NAMES = [
    "Ελληνικά",
    "Русский",
    "日本語",
    "한국어",
    "عربي",
    "עברית",
    "Ann 😀🎲",
    "Maximiliano Hohenzollern-Sigmaringen XIV",
]
assert len(NAMES[-1]) == 40


@pytest.fixture(scope="module")
def sheets() -> list[bytes]:
    """Two Knock Rummy sheets with every name between them, box detail on."""
    pdfs = []
    for players in (NAMES[:5], NAMES[5:]):
        game = games.knock_rummy_game(players)
        pdfs.append(games.sheet_pdf(game, detail=True))
    return pdfs


def test_the_text_layer_gives_back_every_name(sheets: list[bytes]) -> None:
    text = flat(sheets[0]) + flat(sheets[1])
    for name in ("Ελληνικά", "Русский", "日本語", "한국어", "Ann 😀🎲", NAMES[-1]):
        assert name in text, name
    # Arabic and Hebrew are drawn right to left, Arabic in its joined forms: pypdf puts a
    # right-to-left run back in reading order, so folded to plain letters they read back
    # as typed (reversed, a name was drawn backwards; test_bidi.py checks every block).
    folded = unicodedata.normalize("NFKC", text)
    for name in ("عربي", "עברית"):
        assert name in folded and name[::-1] not in folded, name


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="needs poppler-utils")
def test_every_font_is_embedded_and_subset(sheets: list[bytes], tmp_path: Path) -> None:
    names: set[str] = set()
    for n, pdf in enumerate(sheets):
        path = tmp_path / f"{n}.pdf"
        path.write_bytes(pdf)
        report = subprocess.run(
            ["pdffonts", str(path)], capture_output=True, text=True, check=True, timeout=60
        ).stdout.splitlines()[2:]
        for line in report:
            fields = line.split()
            name, embedded, subset = fields[0], fields[-5], fields[-4]
            assert (embedded, subset) == ("yes", "yes"), line
            names.add(name.split("+")[-1])
    assert {"DejaVuSans", "DejaVuSans-Bold", "DroidSansFallback", "Symbola"} <= names


@pytest.mark.parametrize("name", NAMES)
def test_no_glyph_is_missing_from_the_font_that_draws_it(name: str) -> None:
    for font, piece in runs(visual(name), FONT):
        missing = [c for c in piece if not c.isspace() and ord(c) not in _glyphs(font)]
        assert missing == [], (font, piece)


def test_arabic_is_joined_and_right_to_left() -> None:
    shown = visual("عربي")
    assert shown != "عربي" and unicodedata.normalize("NFKC", shown[::-1]) == "عربي"
    assert visual("עברית") == "תירבע"

"""Fonts, colours, page sizes and paragraph styles shared by every PDF.

The embedded DejaVu fonts carry the suit symbols and Latin, Greek and Cyrillic
letters, so names and cards print as typed; ReportLab subsets them into each
PDF. Fonts are registered on first use, not at import time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors, pagesizes
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONTS_DIR = Path(__file__).resolve().parent.parent / "fonts"

INK = colors.HexColor("#1b2a3a")
"""Text and heavy rules: a dark blue-black, like a pad printed in one ink."""
RULE = colors.HexColor("#9aa8b6")
"""Light ruling between rows and columns."""
HEAD = colors.HexColor("#e3e9f0")
"""Background of column headings."""
BAND = colors.HexColor("#f4f7fa")
"""Every other row, so a long row is easy to follow across the page."""
WON = colors.HexColor("#fff1c7")
"""The cell of the box winner's credit."""
CLOSED = colors.HexColor("#e9e9e9")
"""A Hollywood game that is over."""
RED = colors.HexColor("#c8102e")
"""Hearts and diamonds."""
MUTED = colors.HexColor("#5b6b7b")

MARGIN = 14 * mm
PAD = 2.5
"""Left and right padding of every table cell, in points."""
PAGE_SIZES = {"a4": pagesizes.A4, "letter": pagesizes.LETTER}



FRAMED_GRID: tuple[tuple[Any, ...], ...] = (
    # The ruling every small number table shares: a light grid inside a framing box,
    # cells centred vertically, tight padding.
    ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
    ("INNERGRID", (0, 0), (-1, -1), 0.25, RULE),
    ("BOX", (0, 0), (-1, -1), 0.9, INK),
    ("TOPPADDING", (0, 0), (-1, -1), 2),
    ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ("LEFTPADDING", (0, 0), (-1, -1), PAD),
    ("RIGHTPADDING", (0, 0), (-1, -1), PAD),
)

def paper_size(name: str, *, landscape: bool = False) -> tuple[float, float]:
    """The page size for ``"A4"`` or ``"letter"`` (any case), in points.

    >>> paper_size("A4")
    (595.2755905511812, 841.8897637795277)
    >>> paper_size("Letter", landscape=True)
    (792.0, 612.0)
    >>> paper_size("A5")
    Traceback (most recent call last):
    ...
    ValueError: page size must be 'A4' or 'letter', not 'A5'
    """
    size = PAGE_SIZES.get(name.lower()) if isinstance(name, str) else None
    if size is None:
        raise ValueError(f"page size must be 'A4' or 'letter', not {name!r}")
    return pagesizes.landscape(size) if landscape else size


@functools.cache
def register_fonts() -> None:
    """Register the embedded DejaVu fonts once per process (parsing them is slow)."""
    pdfmetrics.registerFont(TTFont(FONT, str(FONTS_DIR / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont(FONT_BOLD, str(FONTS_DIR / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT,
                                  boldItalic=FONT_BOLD)


@dataclass(frozen=True)
class Styles:
    """The paragraph styles of a sheet, by their use."""

    title: ParagraphStyle
    subtitle: ParagraphStyle
    heading: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_muted: ParagraphStyle
    head: ParagraphStyle


@functools.cache
def styles() -> Styles:
    """Build the styles once; they are read-only afterwards."""
    register_fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=9, leading=11.5, textColor=INK)

    def derive(name: str, **changes: Any) -> ParagraphStyle:
        return ParagraphStyle(name, parent=base, **changes)

    return Styles(
        title=derive("title", fontName=FONT_BOLD, fontSize=17, leading=21),
        subtitle=derive("subtitle", fontSize=9.5, leading=12.5, textColor=MUTED),
        heading=derive("heading", fontName=FONT_BOLD, fontSize=11, leading=14,
                       spaceBefore=4 * mm, spaceAfter=1.5 * mm),
        body=base,
        small=derive("small", fontSize=7.5, leading=9.5),
        cell=derive("cell", fontSize=8, leading=9.5, alignment=TA_LEFT),
        cell_muted=derive("cell_muted", fontSize=8, leading=9.5, textColor=MUTED),
        head=derive("head", fontName=FONT_BOLD, fontSize=7.5, leading=9, alignment=TA_CENTER),
    )


def text(value: object) -> str:
    """User text made safe for Paragraph markup (names may hold ``<``, ``&``, quotes).

    >>> text("<b>Ann & Co</b>")
    '&lt;b&gt;Ann &amp; Co&lt;/b&gt;'
    """
    return escape(str(value))


def fitted(raw: str, style: ParagraphStyle, width: float, *, lines: int = 2,
           smallest: float = 6.0) -> tuple[str, ParagraphStyle]:
    """Markup and style that fit the plain text ``raw`` in ``width``, in ``lines`` lines.

    A long name first wraps at its spaces, then at its hyphens, then shrinks,
    never below ``smallest`` points. Anything longer still wraps (ReportLab
    splits over-long words), so nothing is ever cut off.

    >>> markup, style = fitted("Hohenzollern-Sigmaringen", styles().cell, 60)
    >>> markup, style.fontSize
    ('Hohenzollern- Sigmaringen', 8)
    """
    pieces, size = _fit(raw, style.fontName, style.fontSize, width, lines, smallest)
    return " ".join(escape(piece) for piece in pieces), _resized(style, size)


def fits(raw: str, style: ParagraphStyle, width: float) -> bool:
    """Whether ``raw`` fits one line of ``width`` in ``style`` as it is."""
    return "\n" not in raw and pdfmetrics.stringWidth(raw, style.fontName, style.fontSize) <= width


@functools.lru_cache(maxsize=4096)
def _fit(raw: str, font: str, size: float, width: float, lines: int,
         smallest: float) -> tuple[tuple[str, ...], float]:
    """The pieces (words, or parts of a hyphenated word) and the font size that fit."""
    while True:
        pieces = _pieces(raw, font, size, width)
        if size <= smallest or _lines(pieces, font, size, width) <= lines:
            return tuple(pieces), size
        size -= 0.5


@functools.lru_cache(maxsize=256)
def _resized(style: ParagraphStyle, size: float) -> ParagraphStyle:
    """``style`` at another size (styles are built once, so this is cached by identity)."""
    if size == style.fontSize:
        return style
    return ParagraphStyle(f"{style.name}-{size}", parent=style, fontSize=size,
                          leading=size * 1.18)


def _pieces(raw: str, font: str, size: float, width: float) -> list[str]:
    """The words of ``raw``, a word too wide for ``width`` broken after its hyphens."""
    pieces: list[str] = []
    for word in raw.split() or [""]:
        if "-" in word.strip("-") and pdfmetrics.stringWidth(word, font, size) > width:
            parts = word.split("-")
            pieces += [part + "-" for part in parts[:-1]] + [parts[-1]]
        else:
            pieces.append(word)
    return pieces


def _lines(pieces: list[str], font: str, size: float, width: float) -> int:
    """How many lines the pieces fill when set greedily, as a Paragraph would; a piece
    too wide for a line counts as more lines than any name may take."""
    space = pdfmetrics.stringWidth(" ", font, size)
    count, used = 1, 0.0
    for piece in pieces:
        wide = pdfmetrics.stringWidth(piece, font, size)
        if wide > width:
            return 99
        if used and used + space + wide > width:
            count, used = count + 1, wide
        else:
            used = used + space + wide if used else wide
    return count

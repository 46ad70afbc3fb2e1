"""Fonts, colours, page sizes and paragraph styles shared by every PDF.

The embedded DejaVu fonts carry the suit symbols and Latin, Greek and Cyrillic
letters, so names and cards print as typed; ReportLab subsets them into each
PDF. Fonts are registered on first use, not at import time.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors, pagesizes
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
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
PAGE_SIZES = {"a4": pagesizes.A4, "letter": pagesizes.LETTER}


def page_size(name: str, *, landscape: bool = False) -> tuple[float, float]:
    """The page size for ``"A4"`` or ``"letter"`` (any case), in points.

    >>> page_size("A4")
    (595.2755905511812, 841.8897637795277)
    >>> page_size("Letter", landscape=True)
    (792.0, 612.0)
    >>> page_size("A5")
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
    cell_center: ParagraphStyle
    cell_right: ParagraphStyle
    head: ParagraphStyle
    rule_id: ParagraphStyle


@functools.cache
def styles() -> Styles:
    """Build the styles once; they are read-only afterwards."""
    register_fonts()
    base = ParagraphStyle("base", fontName=FONT, fontSize=9, leading=11.5, textColor=INK)

    def derive(name: str, **changes: object) -> ParagraphStyle:
        return ParagraphStyle(name, parent=base, **changes)

    return Styles(
        title=derive("title", fontName=FONT_BOLD, fontSize=17, leading=21),
        subtitle=derive("subtitle", fontSize=9.5, leading=12.5, textColor=MUTED),
        heading=derive("heading", fontName=FONT_BOLD, fontSize=11, leading=14,
                       spaceBefore=4 * mm, spaceAfter=1.5 * mm),
        body=base,
        small=derive("small", fontSize=7.5, leading=9.5),
        cell=derive("cell", fontSize=8, leading=9.5, alignment=TA_LEFT),
        cell_center=derive("cell_center", fontSize=8, leading=9.5, alignment=TA_CENTER),
        cell_right=derive("cell_right", fontSize=8, leading=9.5, alignment=TA_RIGHT),
        head=derive("head", fontName=FONT_BOLD, fontSize=7.5, leading=9, alignment=TA_CENTER),
        rule_id=derive("rule_id", fontName=FONT_BOLD, fontSize=7.5, leading=9.5,
                       alignment=TA_CENTER, textColor=INK),
    )


def text(value: object) -> str:
    """User text made safe for Paragraph markup (names may hold ``<``, ``&``, quotes).

    >>> text("<b>Ann & Co</b>")
    '&lt;b&gt;Ann &amp; Co&lt;/b&gt;'
    """
    return escape(str(value))


def fitted(raw: str, style: ParagraphStyle, width: float, *, lines: int = 2,
           smallest: float = 5.0) -> ParagraphStyle:
    """The style shrunk until the plain text ``raw`` fits ``width`` in ``lines`` lines.

    Long names wrap first, then shrink, never below ``smallest`` points; the
    longest single word must fit one line, as a paper pad's column would allow.
    Anything longer still wraps (ReportLab splits over-long words), so nothing
    is cut off.
    """
    size = style.fontSize
    words = raw.split() or [""]
    while size > smallest:
        widest = max(pdfmetrics.stringWidth(w, style.fontName, size) for w in words)
        total = pdfmetrics.stringWidth(raw, style.fontName, size)
        if widest <= width and total <= width * lines * 0.92:
            break
        size -= 0.5
    if size == style.fontSize:
        return style
    return ParagraphStyle(f"{style.name}-{size}", parent=style, fontSize=size,
                          leading=size * 1.18)

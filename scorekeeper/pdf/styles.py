"""Fonts, colours, page sizes and paragraph styles shared by every PDF.

The fonts and their fallbacks are in :mod:`.fonts`; here the styles measure
and fit user text with them, so a name in any script fits its cell.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors, pagesizes
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import TableStyle

from .fonts import FONT as FONT
from .fonts import FONT_BOLD as FONT_BOLD
from .fonts import markup, plain, shortened, width
from .fonts import register_fonts as register_fonts

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
        heading=derive(
            "heading", fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=3.5 * mm, spaceAfter=1.5 * mm
        ),
        body=base,
        small=derive("small", fontSize=7.5, leading=9.5),
        cell=derive("cell", fontSize=8, leading=9.5, alignment=TA_LEFT),
        cell_muted=derive("cell_muted", fontSize=8, leading=9.5, textColor=MUTED),
        head=derive("head", fontName=FONT_BOLD, fontSize=7.5, leading=9, alignment=TA_CENTER),
    )


def text(value: object, font: str = FONT) -> str:
    """User text made safe for Paragraph markup (names may hold ``<``, ``&``, quotes),
    shaped, and set in a fallback font where the body font lacks a glyph. ``font`` is the
    weight the text prints in (``FONT_BOLD`` inside ``<b>``): a script with a font of its
    own (Arabic, Devanagari, ...) takes that font's same weight.

    >>> text("<b>Ann & Co</b>")
    '&lt;b&gt;Ann &amp; Co&lt;/b&gt;'
    """
    return markup(value, font)


def fitted(
    raw: str, style: ParagraphStyle, room: float, *, lines: int = 2, smallest: float = 6.0
) -> tuple[str, ParagraphStyle]:
    """Markup and style that fit the plain text ``raw`` in ``room``, in ``lines`` lines.

    A long name first wraps at its spaces, then at its hyphens, then shrinks,
    never below ``smallest`` points; what still does not fit is shortened with
    an ellipsis at a word's end rather than broken into slivers.

    >>> markup, style = fitted("Hohenzollern-Sigmaringen", styles().cell, 60)
    >>> markup, style.fontSize
    ('Hohenzollern-<br/>Sigmaringen', 8)
    """
    rows, fit = fitted_rows(raw, style, room, lines=lines, smallest=smallest)
    # Cut into lines as typed, then each line put in drawing order: a wrapped
    # right-to-left name keeps its first words on its first line.
    return "<br/>".join(markup(row, style.fontName) for row in rows), fit


def fitted_rows(
    raw: str, style: ParagraphStyle, room: float, *, lines: int = 2, smallest: float = 6.0
) -> tuple[tuple[str, ...], ParagraphStyle]:
    """The lines (as typed) and the style of :func:`fitted`."""
    rows, size = _fit(raw, style.fontName, style.fontSize, room, lines, smallest)
    return rows, resized(style, size)


def fits(raw: str, style: ParagraphStyle, room: float) -> bool:
    """Whether ``raw`` fits one line of ``room`` drawn as a plain string in ``style``."""
    return "\n" not in raw and plain(raw) and width(raw, style.fontName, style.fontSize) <= room


@functools.lru_cache(maxsize=4096)
def _fit(
    raw: str, font: str, size: float, room: float, lines: int, smallest: float
) -> tuple[tuple[str, ...], float]:
    """The lines (words, or parts of a hyphenated word) and the font size that fit."""
    while True:
        rows = _rows(_pieces(raw, font, size, room), font, size, room)
        if len(rows) <= lines and all(width(r, font, size) <= room for r in rows):
            return tuple(rows), size
        if size <= smallest:
            # Whole lines while they fit; the first that does not (or the last allowed)
            # takes the rest, shortened: a 40-letter word never breaks into slivers.
            kept: list[str] = []
            for n, row in enumerate(rows):
                if n == lines - 1 or width(row, font, size) > room:
                    rest = " ".join(rows[n:]).replace("- ", "-")
                    return (*kept, shortened(rest, font, size, room)), size
                kept.append(row)
            return tuple(kept), size
        size -= 0.5


@functools.lru_cache(maxsize=256)
def resized(style: ParagraphStyle, size: float) -> ParagraphStyle:
    """``style`` at another size (styles are built once, so this is cached by identity)."""
    if size == style.fontSize:
        return style
    return ParagraphStyle(f"{style.name}-{size}", parent=style, fontSize=size, leading=size * 1.18)


def _pieces(raw: str, font: str, size: float, room: float) -> list[str]:
    """The words of ``raw``, a word too wide for ``room`` broken after its hyphens."""
    pieces: list[str] = []
    for word in raw.split() or [""]:
        if "-" in word.strip("-") and width(word, font, size) > room:
            parts = word.split("-")
            pieces += [part + "-" for part in parts[:-1]] + [parts[-1]]
        else:
            pieces.append(word)
    return pieces


def _rows(pieces: list[str], font: str, size: float, room: float) -> list[str]:
    """The pieces set greedily in lines of ``room``, as a Paragraph would; a hyphen's
    piece joins the next without a space."""
    rows: list[str] = []
    for piece in pieces:
        joined = (rows[-1] + ("" if rows[-1].endswith("-") else " ") + piece) if rows else piece
        if rows and width(joined, font, size) <= room:
            rows[-1] = joined
        else:
            rows.append(piece)
    return rows


def ruled(commands: Sequence[tuple[Any, ...]]) -> TableStyle:
    """A table style whose cells start in the embedded body font (ReportLab's default is
    Helvetica, which is never embedded), then ``commands`` as given."""
    return TableStyle([("FONT", (0, 0), (-1, -1), FONT, 8), *commands])
